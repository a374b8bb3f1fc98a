"""Kernels shared by every array backend, one mixin per category.

They are written against `self.xp`, a namespace of the Python array API standard (numpy 2's own
namespace, or array-api-compat's wrapper of torch), so a backend inherits them all and writes
only what its library does differently. Each kernel is named as the dispatch function that
calls it and takes its arguments in ops.yaml's order.
"""
