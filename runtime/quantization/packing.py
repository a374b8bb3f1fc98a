"""burn's u32 packing of quantized values (`pack_i8s_to_u32s`, `unpack_q_to_i8s`): the values,
flat, `32 / bits` to a word, the first in the lowest bits; the last word padded with zeros.
Written over an array namespace (`xp`: numpy itself, or a backend's), so records and kernels
share it. On a little-endian machine the words of 8-bit values are the values' own bytes: they
are viewed, not shifted."""

import sys

LITTLE_ENDIAN = sys.byteorder == "little"


def pack_u32(xp, values, bits: int):
    """int8 values (any shape, read flat) -> a flat uint32 array."""
    per_word = 32 // bits
    flat = xp.astype(xp.reshape(values, (-1,)), xp.int64) & ((1 << bits) - 1)
    pad = -flat.shape[0] % per_word
    if pad:
        flat = xp.concat([flat, xp.zeros(pad, dtype=xp.int64, device=flat.device)])
    shifts = xp.arange(0, 32, bits, dtype=xp.int64, device=flat.device)
    words = xp.sum(xp.reshape(flat, (-1, per_word)) << shifts, axis=1)
    return xp.astype(words, xp.uint32)


def unpack_u32(xp, words, count: int, bits: int):
    """A flat uint32 array -> `count` int8 values, flat, sign-extended from `bits`."""
    if bits == 8 and LITTLE_ENDIAN:
        return words.view(xp.int8)[:count]
    shifts = xp.arange(0, 32, bits, dtype=xp.int64, device=words.device)
    raw = (xp.reshape(xp.astype(words, xp.int64), (-1, 1)) >> shifts) & ((1 << bits) - 1)
    raw = xp.reshape(raw, (-1,))[:count]
    signed = xp.where(raw >= (1 << (bits - 1)), raw - (1 << bits), raw)
    return xp.astype(signed, xp.int8)
