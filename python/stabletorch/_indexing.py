"""Tensor.__getitem__ / __setitem__ with PyTorch's rules: ints, slices with
steps, None, ..., boolean masks and integer tensors. Basic indices give
views (select, slice, unsqueeze); tensor indices go through index.Tensor
(reading) and index_put_ (writing)."""

import builtins

from . import _C
from ._C import Tensor

_BOOL = None
_LONG = None


def _dtypes():
    global _BOOL, _LONG
    if _BOOL is None:
        _BOOL = _C._dtypes["bool"]
        _LONG = _C._dtypes["int64"]


def _consumed(item):
    if item is None or item is Ellipsis or isinstance(item, builtins.bool):
        return 0
    if isinstance(item, Tensor) and item.dtype is _BOOL:
        return item.ndim
    return 1


def _as_index_tensor(item):
    from ._factories import tensor
    t = tensor(item)
    if t.dtype is not _BOOL and t.is_floating_point():
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return t


def _apply_basic(self, index):
    """Applies ints, slices, None and ... as views. Returns the view and the
    advanced (tensor) indices as [(dim in the view, tensor)]."""
    _dtypes()
    if not isinstance(index, tuple):
        index = (index,)
    items = []
    for it in index:
        if isinstance(it, (list, range)) or (hasattr(it, "__array__") and not isinstance(it, Tensor)):
            it = _as_index_tensor(it)
        items.append(it)
    n_ell = builtins.sum(1 for it in items if it is Ellipsis)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = builtins.sum(_consumed(it) for it in items)
    if used > self.ndim:
        raise IndexError("too many indices for tensor of dimension %d" % self.ndim)
    result = self
    d = 0
    advanced = []
    for it in items:
        if it is Ellipsis:
            d += self.ndim - used
        elif it is None:
            result = result.unsqueeze(d)
            d += 1
        elif isinstance(it, builtins.bool):
            result = result.unsqueeze(d)
            if not it:
                result = result.slice(d, 0, 0)
            d += 1
        elif isinstance(it, builtins.slice):
            size = result._sizes()[d]
            if it.step is not None and it.step <= 0:
                raise ValueError("step must be greater than zero")
            start, stop, step = it.indices(size)
            result = result.slice(d, start, builtins.max(start, stop), step)
            d += 1
        elif isinstance(it, Tensor):
            if it.dtype is _BOOL:
                advanced.append((d, it))
                d += it.ndim
            elif it.is_floating_point() or it.is_complex():
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
            else:
                advanced.append((d, it))
                d += 1
        else:
            try:
                i = it.__index__()
            except (AttributeError, TypeError):
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or "
                                 "byte Variables are valid indices (got %s)"
                                 % type(it).__name__) from None
            size = result._sizes()[d]
            if not -size <= i < size:
                raise IndexError("index %d is out of bounds for dimension %d with size %d"
                                 % (i, d, size))
            result = result.select(d, i)
    return result, advanced


def _index_list(view, advanced):
    """The Tensor?[] argument of index.Tensor: None for dims without a tensor
    index; a boolean mask becomes its nonzero() columns, as in PyTorch."""
    indices = []
    for d, t in advanced:
        while len(indices) < d:
            indices.append(None)
        if t.dtype is _BOOL:
            shape = view._sizes()[d:d + t.ndim]
            if tuple(t._sizes()) != tuple(shape):
                raise IndexError("The shape of the mask %s does not match the shape of the indexed "
                                 "tensor %s" % (list(t._sizes()), list(shape)))
            nz = t.nonzero()
            for k in range(t.ndim):
                indices.append(nz.select(1, k))
        else:
            indices.append(t)
    return indices


def getitem(self, index):
    if isinstance(index, builtins.int) and not isinstance(index, builtins.bool):
        if self.ndim == 0:
            raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python")
        size = self._sizes()[0]
        if not -size <= index < size:
            raise IndexError("index %d is out of bounds for dimension 0 with size %d" % (index, size))
        return self.select(0, index)
    view, advanced = _apply_basic(self, index)
    if not advanced:
        if view is self:
            view = self.as_strided(self._sizes(), self._strides(), self.storage_offset())
        return view
    try:
        return view.index(_index_list(view, advanced))
    except RuntimeError as e:
        raise IndexError(str(e)) from None


def setitem(self, index, value):
    if not isinstance(value, (Tensor, builtins.bool, builtins.int, builtins.float, builtins.complex)):
        from ._factories import tensor
        value = tensor(value)  # NumPy arrays, lists
    view, advanced = _apply_basic(self, index)
    if not advanced:
        if isinstance(value, Tensor):
            view.copy_(value)
        else:
            view.fill_(value)
        return
    # Tensor indices (any mix with basic ones): index_put_ on the view the
    # basic indices give, with the value in self's dtype, as PyTorch does.
    if isinstance(value, Tensor):
        if value.dtype is not self.dtype or value.device != self.device:
            value = value.to(dtype=self.dtype, device=self.device)
    else:
        value = _C._scalar_tensor(value, self.dtype)
    indices = _index_list(view, advanced)
    try:
        view.index_put_(indices, value)
    except RuntimeError as e:
        if "out of bounds" in str(e):
            raise IndexError(str(e)) from None
        raise
