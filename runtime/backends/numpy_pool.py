class NumPyPoolKernels:
    pass
