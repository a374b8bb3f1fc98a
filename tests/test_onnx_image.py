"""burnpy.onnx's ImageDecoder against onnx's reference evaluator (onnxruntime has no kernel for
it): PNG, JPEG, BMP, TIFF and WebP bytes decoded to RGB, BGR and Grayscale on both backends.
The bytes are the model's input: an image declaring more pixels than the cap is refused before
any is decoded, truncated or unknown bytes raise a ValueError naming the node, and an export
refuses the node."""

import io
import struct
import sys
import time
import zlib

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
PIL = pytest.importorskip("PIL.Image")

from onnx import TensorProto, helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

from burnpy import onnx as importer  # noqa: E402
from burnpy.generated import Device  # noqa: E402
from burnpy.onnx import images  # noqa: E402

DEVICES = {"numpy": Device.numpy, "torch": Device.torch}


def decoder(pixel_format=None, name="decode"):
    attrs = {} if pixel_format is None else {"pixel_format": pixel_format}
    node = helper.make_node("ImageDecoder", ["data"], ["image"], name=name, **attrs)
    graph = helper.make_graph(
        [node],
        "images",
        [helper.make_tensor_value_info("data", TensorProto.UINT8, ["n"])],
        [helper.make_tensor_value_info("image", TensorProto.UINT8, None)],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])


def encoded(fmt: str, mode: str = "RGB", size=(13, 7)) -> np.ndarray:
    rng = np.random.default_rng(0)
    channels = {"RGB": 3, "RGBA": 4, "L": 1}[mode]
    pixels = rng.integers(0, 256, (size[1], size[0], channels), dtype=np.uint8)
    image = PIL.fromarray(pixels[:, :, 0] if channels == 1 else pixels, mode)
    out = io.BytesIO()
    image.save(out, format=fmt)
    return np.frombuffer(out.getvalue(), dtype=np.uint8)


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("pixel_format", [None, "RGB", "BGR", "Grayscale"])
@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "BMP", "TIFF", "WEBP"])
def test_decoded_as_the_reference_decodes(fmt, pixel_format, device):
    proto = decoder(pixel_format)
    data = encoded(fmt)
    (expected,) = ReferenceEvaluator(proto).run(None, {"data": data})
    got = importer.load(proto, device=DEVICES[device]())(data)
    assert tuple(got.shape) == expected.shape
    np.testing.assert_array_equal(got.to_numpy(), expected)
    assert got.device() == DEVICES[device]()


@pytest.mark.parametrize("mode", ["L", "RGBA"])
def test_other_modes_give_three_channels(mode):
    """A grey or RGBA image as RGB: 3 channels, as ONNX's output shape says (the reference
    returns the file's own channels); Grayscale as the reference converts it."""
    data = encoded("PNG", mode)
    rgb = importer.load(decoder("RGB"), device=Device.numpy())(data).to_numpy()
    expected = np.asarray(PIL.open(io.BytesIO(data.tobytes())).convert("RGB"))
    np.testing.assert_array_equal(rgb, expected)
    (grey,) = ReferenceEvaluator(decoder("Grayscale")).run(None, {"data": data})
    got = importer.load(decoder("Grayscale"), device=Device.numpy())(data).to_numpy()
    np.testing.assert_array_equal(got, grey)


def png_header(width: int, height: int) -> bytes:
    """A PNG whose header declares `width` x `height` RGB pixels, followed by almost no data."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body)
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\0" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat)


@pytest.mark.parametrize(
    "width, height, message",
    [
        (9000, 8000, "the image declares 9000 x 8000 pixels, more than .*MAX_PIXELS"),
        (2**31 - 1, 2**31 - 1, "decompression bomb"),  # Pillow's own limit, at open
    ],
)
def test_an_image_declaring_too_many_pixels_is_refused_before_decoding(width, height, message):
    assert width * height > images.MAX_PIXELS
    data = np.frombuffer(png_header(width, height), dtype=np.uint8)
    model = importer.load(decoder(name="big"), device=Device.numpy())
    start = time.perf_counter()
    with pytest.raises(ValueError, match=f"ImageDecoder node 'big'.*{message}"):
        model(data)
    assert time.perf_counter() - start < 5  # the header read, never the declared pixels


@pytest.mark.parametrize(
    "data, cause",
    [
        (encoded("PNG")[:60], "[Tt]runcated"),
        (encoded("JPEG")[:200], "[Tt]runcated"),
        (np.frombuffer(b"not an image at all", dtype=np.uint8), "cannot identify"),
        (np.zeros(0, dtype=np.uint8), "cannot identify"),
    ],
)
def test_bad_bytes_raise_a_clear_error(data, cause):
    model = importer.load(decoder(name="photo"), device=Device.numpy())
    with pytest.raises(ValueError, match=rf"ImageDecoder node 'photo': cannot decode.*{cause}"):
        model(data)


def test_a_pixel_format_it_does_not_know_is_refused_at_import():
    with pytest.raises(importer.UnsupportedError, match="pixel_format 'CMYK' is not one of"):
        importer.load(decoder("CMYK"), device=Device.numpy())


def test_without_pillow_the_error_says_what_to_install(monkeypatch):
    data = encoded("PNG")
    model = importer.load(decoder(), device=Device.numpy())
    monkeypatch.setitem(sys.modules, "PIL", None)
    with pytest.raises(ImportError, match=r"pip install 'burnpy\[image\]'"):
        model(data)


def test_the_generated_file_calls_the_helper(tmp_path):
    path = importer.generate(decoder("BGR"), tmp_path, name="decode")
    text = path.read_text() if hasattr(path, "read_text") else open(path).read()
    assert "from burnpy.onnx import images, ops" in text
    assert 'images.decode(data, "BGR", "decode", ops.device_of(self))' in text


def test_an_export_refuses_it():
    from burnpy.onnx.exporter import export

    model = importer.load(decoder(), device=Device.numpy())
    with pytest.raises(importer.UnsupportedError, match="decodes its input's bytes with Pillow"):
        export(model, (encoded("PNG"),))


def test_an_image_given_as_a_constant_is_decoded_when_the_model_runs():
    data = encoded("PNG")
    constant = helper.make_node(
        "Constant", [], ["data"], value=onnx.numpy_helper.from_array(data, "data")
    )
    node = helper.make_node("ImageDecoder", ["data"], ["image"], pixel_format="BGR")
    graph = helper.make_graph(
        [constant, node],
        "images",
        [],
        [helper.make_tensor_value_info("image", TensorProto.UINT8, None)],
    )
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    (expected,) = ReferenceEvaluator(proto).run(None, {})
    model = importer.load(proto, device=Device.numpy())
    np.testing.assert_array_equal(model().to_numpy(), expected)
