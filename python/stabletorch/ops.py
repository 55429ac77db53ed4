"""stabletorch.ops: every operator the dispatcher knows, aten and plugins.

    st.ops.load_library("libsample_op.so")   # through the project's loader
    st.ops.sample.my_op(x, 2.0)               # overloads tried in order
    st.ops.aten.add.Tensor(a, b)              # one overload
    help(st.ops.aten.add)                     # the schemas

Arguments are converted by each overload's schema, exactly as for the
generated functions (the same C++ entry runs both).
"""

import sys
import types

from . import _C
from ._groups import op_group
from ._ops_table import FUNCTIONS, METHODS, MODULES

loaded_libraries = []
_packets = {}


def _yaml_order():
    order = {}
    tables = [FUNCTIONS, METHODS] + list(MODULES.values())
    for table in tables:
        for overloads in table.values():
            for q in overloads:
                order.setdefault(q, len(order))
    return order


_ORDER = _yaml_order()


def _overloads(ns, name):
    prefix = "%s::%s" % (ns, name)
    found = [q if q.startswith(ns + "::") else q for q in _C._all_op_names()
             if q == prefix or q.startswith(prefix + ".")]
    # The YAML's order for aten; the default overload first for the rest.
    found.sort(key=lambda q: (_ORDER.get(q, len(_ORDER)), "." in q, q))
    return found


def _packet(ns, name):
    key = (ns, name)
    p = _packets.get(key)
    if p is not None:
        return p
    overloads = _overloads(ns, name)
    if not overloads:
        raise AttributeError("no operator named '%s::%s' is registered (loaded plugins: %s)"
                             % (ns, name, [lib.path for lib in loaded_libraries] or "none"))
    p = op_group("%s::%s" % (ns, name), overloads)
    for q in overloads:
        rest = q[len(ns) + 2 + len(name):]
        attr = rest[1:] if rest.startswith(".") else "default"
        setattr(p, attr, op_group(q, [q]))
    _packets[key] = p
    return p


class _Namespace:
    def __init__(self, ns):
        self._ns = ns

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _packet(self._ns, name)

    def __dir__(self):
        prefix = self._ns + "::"
        return sorted({q[len(prefix):].split(".")[0] for q in _C._all_op_names()
                       if q.startswith(prefix)})

    def __repr__(self):
        return "<stabletorch.ops.%s>" % self._ns


def load_library(path):
    """Loads an operator plugin through the project's loader (which refuses
    a plugin that targets a newer stable-ABI level, before running any of
    its code). Returns the Plugin (report, counts, unload())."""
    import os
    plugin = _C.Plugin(os.fspath(path))
    loaded_libraries.append(plugin)
    _packets.clear()
    return plugin


def unload_library(plugin):
    plugin.unload()
    if plugin in loaded_libraries:
        loaded_libraries.remove(plugin)
    _packets.clear()


class _OpsModule(types.ModuleType):
    def __getattr__(self, ns):
        if ns.startswith("__"):
            raise AttributeError(ns)
        return _Namespace(ns)


sys.modules[__name__].__class__ = _OpsModule
