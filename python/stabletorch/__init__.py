"""stabletorch: PyTorch-like tensors over the stabletorch core.

    import stabletorch as st
    a = st.tensor([[1., 2.], [3., 4.]])
    b = st.ones(2, 2, dtype=st.float64)
    (a @ b + 1).sum().item()

Every operator of core/native/native_functions.yaml is here: functions as
``st.<name>``, methods on ``Tensor``, ``python_module`` entries in
``st.linalg`` / ``st.special`` / ``st.nn.functional``; any registered
operator (plugins included) as ``st.ops.<namespace>.<name>``. See
docs/python.md.
"""

from . import _C
from ._C import Tensor, device, dtype, layout, memory_format
from ._C import from_dlpack, from_numpy, live_tensor_count, manual_seed
from . import _tensor  # noqa: F401  (attaches the generated methods to Tensor)
from ._factories import tensor
from ._size import Size
from . import ops  # noqa: F401
from ._namespaces import linalg, nn, special  # noqa: F401
from ._groups import op_group
from ._ops_table import FUNCTIONS as _FUNCTIONS

# dtypes under their PyTorch names, with PyTorch's aliases.
globals().update(_C._dtypes)
float = _C._dtypes["float32"]  # noqa: A001  (PyTorch's alias)
double = _C._dtypes["float64"]
half = _C._dtypes["float16"]
cfloat = _C._dtypes["complex64"]
cdouble = _C._dtypes["complex128"]
int = _C._dtypes["int32"]  # noqa: A001
long = _C._dtypes["int64"]
short = _C._dtypes["int16"]
bool = _C._dtypes["bool"]  # noqa: A001
uint8 = _C._dtypes["uint8"]



def _enum_repr(self):
    return "stabletorch." + self.name  # PyTorch prints torch.strided


layout.__repr__ = layout.__str__ = _enum_repr
memory_format.__repr__ = memory_format.__str__ = _enum_repr

strided = layout.strided
contiguous_format = memory_format.contiguous_format
preserve_format = memory_format.preserve_format
channels_last = memory_format.channels_last
channels_last_3d = memory_format.channels_last_3d


def _install_functions():
    g = globals()
    for name, overloads in _FUNCTIONS.items():
        if name in g:  # hand-written factories keep PyTorch's Python signatures
            continue
        g[name] = op_group(name, overloads)


_install_functions()
del _install_functions


def is_tensor(obj):
    return isinstance(obj, Tensor)


__all__ = ["Tensor", "Size", "device", "dtype", "tensor", "from_numpy", "from_dlpack", "ops",
           "linalg", "nn", "special", "manual_seed", "live_tensor_count"]
