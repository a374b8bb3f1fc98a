"""burn-tensor's float methods that burn builds from the backend ops (float.rs, fmod.rs,
stats): checks, statistics, angle conversions, sampling."""

import math

from burnpy.runtime.arguments import FLOAT
from burnpy.runtime.composed import checks
from burnpy.runtime.distribution import Distribution

# burn's DEFAULT_RTOL and DEFAULT_ATOL
RTOL, ATOL = 1e-5, 1e-8


class FloatMethods:
    __slots__ = ()

    # -- checks -------------------------------------------------------------------------------
    def is_finite(self):
        """True where the element is neither NaN nor infinite."""
        checks.kind("is_finite", self, (FLOAT,))
        return self.is_nan().bool_not().bool_and(self.is_inf().bool_not())

    def contains_nan(self):
        """A Bool tensor [1]: whether any element is NaN."""
        checks.kind("contains_nan", self, (FLOAT,))
        return self.is_nan().any()

    def is_close(self, other, rtol=None, atol=None):
        """True where |self - other| <= atol + rtol * |other| (both finite), or where both are
        the same infinity."""
        checks.kind("is_close", self, (FLOAT,))
        rtol = RTOL if rtol is None else checks.scalar("is_close", "rtol", rtol)
        atol = ATOL if atol is None else checks.scalar("is_close", "atol", atol)
        both_finite = self.is_finite().bool_and(other.is_finite())
        close = self.sub(other).abs().lower_equal(other.abs().mul(rtol).add(atol))
        same_inf = (self.is_finite().bool_not().bool_and(other.is_finite().bool_not())).bool_and(
            self.equal(other)
        )
        return close.bool_and(both_finite).bool_or(same_inf)

    def all_close(self, other, rtol=None, atol=None) -> bool:
        """Whether `is_close` holds everywhere (a Python bool: this reads the result)."""
        return bool(self.is_close(other, rtol, atol).all().item())

    # -- arithmetic ---------------------------------------------------------------------------
    def fmod(self, other):
        """The remainder of truncated division, the sign of the dividend (C's fmod)."""
        checks.kind("fmod", self, (FLOAT,))
        if checks.is_int(other) or isinstance(other, float):
            if math.isinf(other):
                return self  # fmod(x, ±inf) = x for finite x; inf stays nan below as C's
            return self.sub(self.div(other).trunc().mul(other))
        truncated = self.div(other).trunc()
        product = other.mul(truncated)
        # 0 * inf would be nan where a finite dividend meets an infinite divisor: burn sets 0
        zero_times_inf = truncated.equal_elem(0.0).bool_and(other.is_inf())
        return self.sub(product.mask_where(zero_times_inf, self.mul(0.0)))

    def deg2rad(self):
        return self.mul(math.pi / 180.0)

    def rad2deg(self):
        return self.mul(180.0 / math.pi)

    # -- statistics along a dim (kept with size 1) --------------------------------------------
    def var(self, dim):
        """The unbiased variance along `dim` (n - 1 in the denominator)."""
        return self._var("var", dim, correction=1)

    def var_bias(self, dim):
        """The biased variance along `dim` (n in the denominator)."""
        return self._var("var_bias", dim, correction=0)

    def var_mean(self, dim):
        """(unbiased variance, mean) along `dim`."""
        return self.var(dim), self.mean_dim(dim)

    def var_mean_bias(self, dim):
        """(biased variance, mean) along `dim`."""
        return self.var_bias(dim), self.mean_dim(dim)

    def _var(self, method, dim, correction):
        checks.kind(method, self, (FLOAT,))
        dim = checks.index(method, "dim", dim, self.ndim)
        centered = self.sub(self.mean_dim(dim))
        return centered.mul(centered).sum_dim(dim).div(self.shape[dim] - correction)

    def cov(self, dim, correction_factor):
        """The covariance matrix of the variables along `dim` (burn's `cov`: the observations
        are the other dim of a rank-2 tensor)."""
        checks.kind("cov", self, (FLOAT,))
        dim = checks.index("cov", "dim", dim, self.ndim)
        correction_factor = checks.count("cov", "correction_factor", correction_factor)
        n = self.shape[dim]
        centered = self.sub(self.mean_dim(dim)).swap_dims(dim, 0)
        return centered.transpose().matmul(centered).div(n - correction_factor)

    def median(self, dim):
        """The median along `dim`, the lower of the two middle values for an even count (as
        PyTorch)."""
        return self.median_with_indices(dim)[0]

    def median_with_indices(self, dim):
        """(median, its index) along `dim`."""
        checks.kind("median", self, (FLOAT,))
        dim = checks.index("median", "dim", dim, self.ndim)
        values, indices = self.sort_with_indices(dim)
        middle = (self.shape[dim] - 1) // 2
        return values.narrow(dim, middle, 1), indices.narrow(dim, middle, 1)

    # -- sampling -----------------------------------------------------------------------------
    def random_like(self, distribution=None):
        """A random tensor of this one's shape, dtype and device."""
        return type(self).random(self.shape, distribution, device=self.device(), dtype=self.dtype)

    def categorical(self, num_samples):
        """`num_samples` category indices per row of weights along the last dim (inverse CDF
        of the normalised weights; an Int tensor, the last dim replaced by num_samples)."""
        checks.kind("categorical", self, (FLOAT,))
        checks.rank_at_least("categorical", self, 1)
        num_samples = checks.count("categorical", "num_samples", num_samples, minimum=1)
        categories = self.shape[-1]
        batch = max(1, self.numel() // max(categories, 1))
        flat = self.detach().reshape([batch, categories])
        cdf = flat.div(flat.sum_dim(1)).cumsum(1).unsqueeze_dim(2)
        uniform = (
            type(self)
            .random(
                [batch, num_samples],
                Distribution.uniform(0.0, 1.0),
                device=self.device(),
                dtype=self.dtype,
            )
            .unsqueeze_dim(1)
        )
        indices = cdf.lower(uniform).int().sum_dim(1).squeeze_dim(1)
        return indices.clamp(0, categories - 1).reshape(list(self.shape[:-1]) + [num_samples])
