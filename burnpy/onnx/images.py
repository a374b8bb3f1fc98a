"""ImageDecoder of an imported model: a 1-d uint8 Tensor of encoded bytes (PNG, JPEG, BMP,
TIFF, WebP, JPEG 2000, PNM: what Pillow reads) decoded on the host when the model runs, into
an [H, W, C] Tensor of uint8 values (held in int64, as an imported model holds its narrow ints) on the model's device (no gradient: the bytes are data), as onnx's
reference evaluator does it with Pillow (the `image` extra).

The bytes are the model's input, so the work is bounded: Pillow reads the header first, and an
image whose declared height x width exceeds MAX_PIXELS is refused before any pixel is decoded;
truncated or unreadable bytes raise a ValueError naming the node."""

from __future__ import annotations

import io

import numpy as np

from burnpy.capture.recorder import CaptureError, Value
from burnpy.generated import Tensor

# The most pixels (height x width) one decoded image may have: 2^26, an 8192 x 8192 image,
# 192 MiB as RGB.
MAX_PIXELS = 1 << 26
PIXEL_FORMATS = ("RGB", "BGR", "Grayscale")


def _pillow():
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("ImageDecoder decodes with Pillow: pip install 'burnpy[image]'") from None
    return Image


def _unreadable(node: str, error: Exception) -> ValueError:
    # Pillow's decoders raise assorted types on bad bytes (OSError for a truncated file or an
    # unknown format, SyntaxError, EOFError, struct.error, DecompressionBombError...)
    return ValueError(
        f"ImageDecoder node {node!r}: cannot decode the image ({type(error).__name__}: {error})"
    )


def decode(encoded: Tensor, pixel_format: str, node: str, device) -> Tensor:
    """ImageDecoder: `encoded` (a 1-d Tensor of byte values) decoded into an [H, W, 3] Tensor
    of uint8 values in RGB or BGR order, or [H, W, 1] for Grayscale (Pillow's "L": ITU-R 601-2
    luma), on `device`; `node` names the node in errors. A model being exported or captured
    is refused: the decoding is Python on the host."""
    if type(encoded.inner_primitive()) is Value:
        raise CaptureError(
            f"ImageDecoder node {node!r} decodes its input's bytes with Pillow on the host: an "
            "exported file or a captured step cannot hold it"
        )
    Image = _pillow()
    data = encoded.to_numpy()  # uint8, held in int64 by an imported model
    if data.ndim != 1 or data.dtype.kind not in "iu" or (data.size and (data.min() < 0 or data.max() > 255)):  # fmt: skip
        raise ValueError(
            f"ImageDecoder node {node!r}: the encoded image must be a 1-d tensor of bytes "
            f"(0 to 255), not {data.dtype} of shape {list(data.shape)}"
        )
    try:
        image = Image.open(io.BytesIO(data.astype(np.uint8).tobytes()))  # reads the header only
    except Exception as error:
        raise _unreadable(node, error) from None
    with image:
        width, height = image.size
        if width * height > MAX_PIXELS:
            raise ValueError(
                f"ImageDecoder node {node!r}: the image declares {width} x {height} pixels, more "
                f"than burnpy.onnx.images.MAX_PIXELS ({MAX_PIXELS}); it is not decoded"
            )
        try:
            if pixel_format == "Grayscale":
                pixels = np.asarray(image.convert("L"))[:, :, None]
            else:
                pixels = np.asarray(image.convert("RGB"))
        except Exception as error:
            raise _unreadable(node, error) from None
    if pixel_format == "BGR":
        pixels = pixels[:, :, ::-1]
    # held in int64, as an imported model holds every narrow int (burnpy/onnx/ir.py#storage)
    return Tensor.from_data(pixels.astype(np.int64), device=device, dtype="int64")
