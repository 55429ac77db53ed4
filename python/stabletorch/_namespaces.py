"""stabletorch.linalg, stabletorch.special and stabletorch.nn.functional: the
operators native_functions.yaml files under a python_module."""

import sys
import types

from ._groups import op_group
from ._ops_table import MODULES


def _module(path):
    name = "stabletorch." + path
    mod = sys.modules.get(name)
    if mod is None:
        mod = types.ModuleType(name)
        sys.modules[name] = mod
    for op, overloads in MODULES.get(path, {}).items():
        setattr(mod, op, op_group(path + "." + op, overloads))
    return mod


linalg = _module("linalg")
special = _module("special")
nn = _module("nn")
nn.functional = _module("nn.functional")
