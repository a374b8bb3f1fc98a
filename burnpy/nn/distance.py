"""`CosineSimilarity` and `PairwiseDistance`: burn-nn's similarity layers of two inputs."""

from burnpy.nn import functional as F
from burnpy.nn.module import Module


class CosineSimilarity(Module):
    """x1·x2 / (max(|x1|, eps)·max(|x2|, eps)) along `dim`, which is removed: [batch,
    features] inputs give [batch]."""

    def __init__(self, *, dim: int = 1, eps: float = 1e-8):
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps).squeeze_dim(self.dim)

    def extra_repr(self):
        return f"dim={self.dim}, eps={self.eps}"


class PairwiseDistance(Module):
    """|x1 - x2 + eps|_p per row of [batch, features] inputs: [batch]."""

    def __init__(self, *, p: float = 2.0, eps: float = 1e-6):
        super().__init__()
        self.p, self.eps = p, eps

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, p=self.p, eps=self.eps)

    def extra_repr(self):
        return f"p={self.p}, eps={self.eps}"
