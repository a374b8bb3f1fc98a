"""Reductions: burn keeps the reduced dim; a full reduction has shape [1]."""


class ReduceKernels:
    def float_sum(self, tensor):
        return self.xp.reshape(self.xp.sum(tensor), (1,))

    int_sum = float_sum

    def float_sum_dim(self, tensor, dim):
        return self.xp.sum(tensor, axis=dim, keepdims=True)

    int_sum_dim = float_sum_dim

    def float_mean(self, tensor):
        return self.xp.reshape(self.xp.mean(tensor), (1,))

    def float_mean_dim(self, tensor, dim):
        return self.xp.mean(tensor, axis=dim, keepdims=True)
