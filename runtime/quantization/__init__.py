"""Quantization's leaves: the scheme (burn's QuantScheme and its parts), the quantized primitive
(burn's QuantizedTensorPrimitive) and the u32 packing of values. No backend, no engine: the
backends' kernels (runtime/backends/kernels/quantization.py) and the dispatch layer import these."""
