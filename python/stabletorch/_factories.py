"""tensor(): the one factory that is not an operator of the core (it reads
Python data)."""

import builtins

import numpy as np

from . import _C
from ._C import Tensor

# The dtype PyTorch infers for Python data of each kind.
_DEFAULT_NP = {bool: np.bool_, int: np.int64, float: np.float32, complex: np.complex64}


def _kind(data):
    """The widest Python kind in nested data: bool < int < float < complex."""
    order = [bool, int, float, complex]
    best = 0
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, builtins.bool) or isinstance(x, np.bool_):
            pass
        elif isinstance(x, Tensor):
            k = 3 if x.is_complex() else 2 if x.is_floating_point() else (
                0 if x.dtype == _C._dtypes["bool"] else 1)
            best = max(best, k)
        elif isinstance(x, (builtins.int, np.integer)):
            best = max(best, 1)
        elif isinstance(x, (builtins.float, np.floating)):
            best = max(best, 2)
        elif isinstance(x, (builtins.complex, np.complexfloating)):
            best = max(best, 3)
        else:
            raise TypeError("tensor(): could not infer dtype of %s" % type(x).__name__)
    has_any = _has_leaf(data)
    return order[best] if has_any else float


def _has_leaf(data):
    if isinstance(data, (list, tuple)):
        return any(_has_leaf(x) for x in data)
    return True


def _finish(t, dtype, device):
    if dtype is not None and t.dtype is not dtype:
        t = t.to(dtype=dtype)
    if device is not None:
        t = t.to(device=device)
    return t


def tensor(data, dtype=None, device=None):
    """A new tensor (its own copy) from a Python number, nested lists or
    tuples of numbers, a NumPy array, or a tensor; dtype inferred as PyTorch
    does (bool, int64, float32, complex64) unless given."""
    if isinstance(data, Tensor):
        return _finish(data.clone(), dtype, device)
    if isinstance(data, np.ndarray):
        # A fresh C-order copy: the tensor owns it alone (0-dim stays 0-dim).
        return _finish(_C.from_numpy(np.array(data, order="C", copy=True)), dtype, device)
    if isinstance(data, (builtins.bool, builtins.int, builtins.float, builtins.complex, np.generic)):
        if isinstance(data, np.generic):
            return _finish(_C.from_numpy(np.array(data)), dtype, device)
        return _finish(_C._scalar_tensor(data, None), dtype, device)
    if not isinstance(data, (list, tuple)):
        raise TypeError("tensor(): data must be a number, a sequence, a NumPy array or a Tensor, "
                        "not %s" % type(data).__name__)
    kind = _kind(data)
    try:
        arr = np.array(data, dtype=_DEFAULT_NP[kind])
    except ValueError as e:
        raise ValueError("tensor(): %s" % e) from None
    return _finish(_C.from_numpy(arr), dtype, device)
