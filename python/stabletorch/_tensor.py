"""Attaches to stabletorch.Tensor what is written in Python: the generated
operator methods, shape/size/stride, iteration, indexing and NumPy hooks."""

import builtins

from . import _C
from ._C import Tensor
from ._groups import op_group
from ._indexing import getitem, setitem
from ._ops_table import METHODS
from ._size import Size


for _name, _overloads in METHODS.items():
    # Hand-written metadata accessors (C++) keep precedence.
    if not hasattr(Tensor, _name):
        setattr(Tensor, _name, op_group(_name, _overloads))


def _shape(self):
    return Size(self._sizes())


def size(self, dim=None):
    if dim is None:
        return Size(self._sizes())
    return self._sizes()[_wrap_dim(self, dim)]


def stride(self, dim=None):
    if dim is None:
        return self._strides()
    return self._strides()[_wrap_dim(self, dim)]


def _wrap_dim(self, dim):
    n = builtins.max(self.ndim, 1)
    if not -n <= dim < n:
        raise IndexError("Dimension out of range (expected to be in range of [%d, %d], but got %d)"
                         % (-n, n - 1, dim))
    return dim + n if dim < 0 else dim


def __iter__(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d tensor")
    for i in range(self._sizes()[0]):
        yield self.select(0, i)


def __array__(self, dtype=None, copy=None):
    a = self.numpy()
    if dtype is not None:
        a = a.astype(dtype, copy=False)
    return a.copy() if copy else a


def __reversed__(self):
    return self.flip([0])


def _convert(name):
    def conv(self):
        return self.to(dtype=_C._dtypes[name])
    return conv


_generated_to = Tensor.to


def to(self, *args, **kwargs):
    """t.to(dtype), t.to(device), t.to(device, dtype), t.to(other), with
    non_blocking/copy/memory_format keywords, as PyTorch's Tensor.to."""
    if args and isinstance(args[0], (str, _C.device)):
        kwargs["device"] = args[0]
        args = args[1:]
        if args and isinstance(args[0], _C.dtype):
            kwargs["dtype"] = args[0]
            args = args[1:]
        if args:
            raise TypeError("to() received an invalid combination of arguments: unexpected "
                            "positional arguments after device and dtype")
    return _generated_to(self, *args, **kwargs)


def __contains__(self, element):
    if isinstance(element, (Tensor, builtins.bool, builtins.int, builtins.float, builtins.complex)):
        return (self == element).any().item()
    raise RuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you passed in a %s"
                       % type(element).__name__)


def _rebuild(values, dtype, shape):
    from ._factories import tensor
    return tensor(values, dtype=dtype).reshape(shape)


def __reduce__(self):
    # By value (CPU): the elements as Python numbers, exact for every dtype
    # the core has (float64 holds every narrower float).
    return (_rebuild, (self.reshape([-1]).tolist(), self.dtype, list(self._sizes())))


Tensor.to = to
Tensor.__reduce__ = __reduce__
Tensor.__deepcopy__ = lambda self, memo: self.clone()
Tensor.__contains__ = __contains__
# NumPy defers mixed operations (np.float32(2) + t) to the tensor.
Tensor.__array_priority__ = 1000
Tensor.shape = property(_shape)
Tensor.T = property(lambda self: self.permute(list(range(self.ndim - 1, -1, -1))))
Tensor.size = size
Tensor.stride = stride
Tensor.__iter__ = __iter__
Tensor.__reversed__ = __reversed__
Tensor.__getitem__ = getitem
Tensor.__setitem__ = setitem
Tensor.__array__ = __array__
Tensor.__str__ = Tensor.__repr__
Tensor.__format__ = lambda self, spec: (format(self.item(), spec) if self.ndim == 0 and spec
                                        else repr(self))
Tensor.float = _convert("float32")
Tensor.double = _convert("float64")
Tensor.half = _convert("float16")
Tensor.bfloat16 = _convert("bfloat16")
Tensor.long = _convert("int64")
Tensor.int = _convert("int32")
Tensor.short = _convert("int16")
Tensor.bool = _convert("bool")
Tensor.byte = _convert("uint8")
Tensor.cpu = lambda self: self if self.is_cpu else self.to(device=_C.device("cpu"))
Tensor.cuda = lambda self, device=0: self.to(device=_C.device("cuda", device))
Tensor.type_as = lambda self, other: self.to(dtype=other.dtype)
