"""A model factory for tests/test_onnx_export.py's run of `python -m burnpy.onnx export`."""


def make():
    def model(x, y):
        return (x.relu() * 2).matmul(y)

    return model
