class TorchPoolKernels:
    pass
