"""The one way the package makes an operator callable: a _C.OpGroup (the
schema-driven C++ entry) whose __doc__ lists its schemas, so help() shows
them. As a class attribute it binds like a method (t.add(b))."""

from . import _C


def op_group(name, overloads):
    group = _C.OpGroup(name, list(overloads))
    group.__name__ = name.split("::")[-1].split(".")[-1]
    group.__qualname__ = name
    group.__doc__ = ("%s: schemas, tried in this order:\n\n" % name
                     + "\n".join("  " + s for s in group.schemas()))
    return group
