#!/usr/bin/env python3
"""Generates the core's operator glue from core/native/native_functions.yaml.

Usage:
  gen_native.py --yaml native_functions.yaml --out DIR [--stamp FILE]
  gen_native.py --yaml native_functions.yaml --check      (validate only)

The YAML format is the one of PyTorch's native_functions.yaml guide (see
docs/adding_an_operator.md). Every entry is validated first; a problem is
reported as

  native_functions.yaml:LINE: entry 'add.out': RULE: details

and the generator exits with status 1 without writing anything.

Generated files, under DIR (never committed; they live in the build tree):
  include/st/generated/operators.h     typed operator handles (st::ops::*)
  include/st/generated/functions.h     the C++ API: st::add(...), defaults applied
  include/st/generated/tensor_methods.h  member declarations for class Tensor
  include/st/generated/native_kernels.h  declarations of the st::native kernels
                                        (all but the CUDA-only ones)
  include/st/generated/native_cuda_kernels.h  declarations of the CUDA-only kernels
  src/operators.cpp                     handle lookup (cached on first use)
  src/functions.cpp                     the C++ API bodies
  src/tensor_methods.cpp                Tensor::add(...) bodies
  src/register_schemas.cpp              ST_LIBRARY(aten, m) { m.def(...); }
  src/register_<Key>.cpp                ST_LIBRARY_IMPL(aten, <Key>, m) { ... }
  src/cuda_pointwise_kernels.cpp        the CUDA kernels of 'cuda_pointwise' entries

register_CUDA.cpp, cuda_pointwise_kernels.cpp and native_cuda_kernels.h name
CUDA kernels: only a build with the CUDA backend compiles them (Note [CUDA
kernels in native_functions.yaml]).
"""

import argparse
import os
import re
import sys

try:
    import yaml
except ImportError:  # pragma: no cover
    sys.stderr.write("gen_native.py: PyYAML is required (Debian: python3-yaml)\n")
    sys.exit(2)


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

class ValidationError(Exception):
    pass


KNOWN_FIELDS = {
    "func", "variants", "dispatch", "device_guard", "device_check",
    "manual_kernel_registration", "category_override", "python_module",
    "tags", "cpp_no_default_args", "structured", "structured_delegate",
    "cuda_pointwise",
}

# Note [CUDA kernels in native_functions.yaml]
# A `CUDA:` dispatch entry names a kernel in namespace st::native like any
# other, and becomes a registration in src/register_CUDA.cpp. That file, the
# declarations of the CUDA-only kernels (native_cuda_kernels.h; a kernel
# shared with another key, `CPU, CUDA: empty`, is device-generic and stays
# in native_kernels.h) and src/cuda_pointwise_kernels.cpp are compiled only
# when the CUDA backend is (core/CMakeLists.txt lists them with the
# backend's sources), so a CPU-only core never names a CUDA kernel. Every
# aten operator with a CUDA kernel has its schema here (the registrations
# are checked against this file by tests/core/cuda/test_register_cuda.cpp);
# operators of other namespaces are registered by their own libraries.
#
# `cuda_pointwise: <launcher>` says that codegen writes the entry's CUDA
# kernel itself: a host wrapper that calls the backend's launcher
# st::cuda::ops::<launcher> with the device entry point
# st::cuda::kernels::<launcher>_<op> (op: the schema name without a
# trailing '_'). The entry point is defined in the .cu named after the
# launcher (core/src/cuda/kernels/<launcher>.cu) by the launcher's macro,
# next to its device functor (Note [CUDA pointwise entry points] in
# core/src/cuda/kernels/cuda_kernels.h); the .cu never sees the core's
# headers, the wrapper never sees device code. The launcher holds the host
# rules its ops share (promotion, refused dtypes, result dtype), so an op
# picks its launcher by those rules (cuda_ops.h lists them).
class CudaLauncher:
    def __init__(self, entry_type, operands, extra=()):
        self.entry_type = entry_type  # the function type of its entry points (cuda_kernels.h)
        self.operands = operands      # the Tensor operands: ["self"] or ["self", <any name>]
        self.extra = list(extra)      # the arguments after the operands, (type, name)


UNARY = CudaLauncher("UnaryEntry", 1)
BINARY = CudaLauncher("BinaryEntry", 2)
CUDA_POINTWISE_LAUNCHERS = {
    # Floating functions of one tensor (exp, sin, ...): integer inputs
    # compute in the default float dtype, as on the CPU.
    "float_unary": CudaLauncher("FloatUnaryEntry", 1),
    # Unary ops of (Tensor self): any dtype, the input's (sign).
    "unary": UNARY,
    # Refuses bool, with the CPU's message (neg, abs, relu).
    "unary_nonbool": UNARY,
    # Predicates: a bool result (logical_not, isnan, isinf).
    "unary_bool": UNARY,
    # Integers only; logical_not on bool (bitwise_not).
    "unary_bitwise": UNARY,
    # Binary ops of (Tensor self, Tensor other): any dtype (mul, maximum).
    "binary": BINARY,
    # add, sub: `*, Scalar alpha=1` after the operands.
    "binary_alpha": CudaLauncher("BinaryEntry", 2, [("Scalar", "alpha")]),
    # True division: integer inputs compute in the default float dtype.
    "binary_float": BINARY,
    # Refuses bool (pow).
    "binary_nonbool": BINARY,
    # Rounding division, remainder: refuses bool; integer division by zero raises.
    "binary_divmod": BINARY,
    # Comparisons and logical ops: a bool result.
    "binary_compare": BINARY,
    # Bitwise and/or/xor: integers and bool.
    "binary_bitwise": BINARY,
    # Shifts: integers, not bool.
    "binary_shift": BINARY,
}


# The operator tags an entry may list: the enumerators of
# torch::headeronly::Tag, read from the header that defines them.
ENUM_TAG_H = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "headeronly",
                          "include", "torch", "headeronly", "core", "enum_tag.h")


def read_known_tags(path=ENUM_TAG_H):
    with open(path) as f:
        text = f.read()
    m = re.search(r"enum class Tag\s*\{(.*?)\}", text, re.S)
    if not m:
        raise ValidationError("%s: no 'enum class Tag { ... }' to read the tags from" % path)
    return re.findall(r"^\s*([A-Za-z_]\w*)\s*=", m.group(1), re.M)


KNOWN_TAGS = read_known_tags()

RUNTIME_BACKEND_KEYS = ["CPU", "CUDA", "Meta", "PrivateUse1"]
ALIAS_KEYS = ["CompositeExplicitAutograd", "CompositeImplicitAutograd"]
DISPATCH_KEYS = RUNTIME_BACKEND_KEYS + ALIAS_KEYS


# ---------------------------------------------------------------------------
# YAML loading with line numbers
# ---------------------------------------------------------------------------

class _LineLoader(yaml.SafeLoader):
    pass


def _construct_mapping(loader, node, deep=False):
    mapping = yaml.SafeLoader.construct_mapping(loader, node, deep=deep)
    mapping["__line__"] = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


# ---------------------------------------------------------------------------
# Schema model
# ---------------------------------------------------------------------------

class Type:
    """A schema type: base name, optional/list wrappers and alias info."""

    def __init__(self, base, alias=None, is_list=False, list_size=None,
                 optional=False, elem_optional=False):
        self.base = base              # Tensor, int, SymInt, float, ...
        self.alias = alias            # "a!", "a", "!", "a! -> a|b" or None
        self.is_list = is_list
        self.list_size = list_size    # int or None
        self.optional = optional      # outer "?"
        self.elem_optional = elem_optional  # Tensor?[]

    @property
    def is_write(self):
        return self.alias is not None and "!" in self.alias.split("->")[0]

    def is_tensor_like(self):
        return self.base == "Tensor"

    def is_plain_tensor(self):
        return self.base == "Tensor" and not self.is_list and not self.optional


_TYPE_RE = re.compile(
    r"^(?P<base>[A-Za-z_]\w*)(?:\((?P<alias>[^)]*)\))?(?P<eopt>\?)?"
    r"(?:\[(?P<size>\d*)\])?(?P<opt>\?)?$")
_BARE_WRITE_RE = re.compile(r"^(?P<base>Tensor)!$")

KNOWN_BASE_TYPES = {
    "Tensor", "int", "SymInt", "float", "bool", "str", "Scalar",
    "ScalarType", "Layout", "MemoryFormat", "Device", "Generator",
}


def parse_type(text, where):
    text = text.strip()
    m = _BARE_WRITE_RE.match(text)
    if m:
        return Type("Tensor", alias="!")
    m = _TYPE_RE.match(text)
    if not m:
        raise ValidationError(where + "malformed type '%s'" % text)
    base = m.group("base")
    if base not in KNOWN_BASE_TYPES:
        raise ValidationError(where + "unknown type '%s' (known: %s)" %
                              (base, ", ".join(sorted(KNOWN_BASE_TYPES))))
    is_list = m.group("size") is not None
    size = int(m.group("size")) if m.group("size") else None
    eopt = m.group("eopt") is not None
    opt = m.group("opt") is not None
    if eopt and not is_list:
        opt, eopt = True, False
    return Type(base, alias=m.group("alias"), is_list=is_list, list_size=size,
                optional=opt, elem_optional=eopt)


class Argument:
    def __init__(self, type_, name, default, kwarg_only):
        self.type = type_
        self.name = name
        self.default = default  # text or None
        self.kwarg_only = kwarg_only


class Return:
    def __init__(self, type_, name):
        self.type = type_
        self.name = name


def _split_top(text, sep=","):
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    tail = "".join(cur)
    if tail.strip() or parts:
        parts.append(tail)
    return [p.strip() for p in parts]


class Schema:
    def __init__(self, text, where):
        self.text = text
        m = re.match(r"^\s*([A-Za-z_][\w]*)(?:\.([\w]*))?\s*\(", text)
        if not m:
            raise ValidationError(where + "func: expected 'name[.overload](args) -> returns', got '%s'" % text)
        self.name = m.group(1)
        self.overload = m.group(2) or ""
        # matching parenthesis of the argument list
        start = m.end() - 1
        depth, end = 0, None
        for i in range(start, len(text)):
            if text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
                if depth == 0:
                    end = i
                    break
        if end is None:
            raise ValidationError(where + "func: unbalanced parentheses in '%s'" % text)
        args_text = text[start + 1:end]
        rest = text[end + 1:].strip()
        if not rest.startswith("->"):
            raise ValidationError(where + "func: expected '->' after the arguments in '%s'" % text)
        ret_text = rest[2:].strip()

        self.arguments = []
        kwarg_only = False
        for part in _split_top(args_text):
            if part == "":
                raise ValidationError(where + "func: empty argument in '%s'" % text)
            if part == "*":
                kwarg_only = True
                continue
            default = None
            eq = _find_top_eq(part)
            if eq >= 0:
                default = part[eq + 1:].strip()
                part = part[:eq].strip()
            sp = part.rfind(" ")
            if sp < 0:
                raise ValidationError(where + "func: argument '%s' needs a type and a name" % part)
            type_ = parse_type(part[:sp], where)
            name = part[sp + 1:]
            if not re.match(r"^[A-Za-z_]\w*$", name):
                raise ValidationError(where + "func: bad argument name '%s'" % name)
            self.arguments.append(Argument(type_, name, default, kwarg_only))

        self.returns = []
        if ret_text.startswith("("):
            inner = ret_text[1:-1].strip()
            items = _split_top(inner) if inner else []
            self.tuple_return = True
        else:
            items = [ret_text]
            self.tuple_return = False
        for item in items:
            item = item.strip()
            parts = item.rsplit(" ", 1)
            if len(parts) == 2 and re.match(r"^[A-Za-z_]\w*$", parts[1]) and \
                    not parts[0].endswith("->"):
                type_ = parse_type(parts[0], where)
                rname = parts[1]
            else:
                type_ = parse_type(item, where)
                rname = None
            self.returns.append(Return(type_, rname))

    @property
    def full_name(self):
        return self.name + ("." + self.overload if self.overload else "")

    def out_arguments(self):
        return [a for a in self.arguments
                if a.kwarg_only and a.type.base == "Tensor" and a.type.is_write]

    def is_out_fn(self):
        return bool(self.out_arguments()) or self.overload == "out" or \
            self.overload.endswith("_out") or any(
                a.kwarg_only and a.type.base == "Tensor" and a.name == "out" for a in self.arguments)

    def is_inplace(self):
        return self.name.endswith("_") and not self.name.endswith("__")


def _find_top_eq(text):
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "=" and depth == 0:
            return i
    return -1


# ---------------------------------------------------------------------------
# Entries and validation
# ---------------------------------------------------------------------------

class NativeFunction:
    def __init__(self, raw, filename):
        self.line = raw.get("__line__", 0)
        self.filename = filename
        func = raw.get("func")
        label = func.split("(")[0].strip() if isinstance(func, str) else "?"
        self.where = "%s:%d: entry '%s': " % (filename, self.line, label)
        if not isinstance(func, str):
            raise ValidationError(self.where + "missing 'func' (every entry needs a schema string)")
        for k in raw:
            if k != "__line__" and k not in KNOWN_FIELDS:
                raise ValidationError(self.where + "unknown field '%s' (known: %s)" %
                                      (k, ", ".join(sorted(KNOWN_FIELDS))))
        if raw.get("structured") or raw.get("structured_delegate"):
            raise ValidationError(self.where + "structured kernels are not supported; "
                                  "write the functional, in-place and out kernels and list them in 'dispatch'")
        self.schema = Schema(func, self.where)

        variants = raw.get("variants", "function")
        if not isinstance(variants, str):
            raise ValidationError(self.where + "variants: expected 'function', 'method' or 'function, method'")
        self.variants = [v.strip() for v in variants.split(",") if v.strip()]
        for v in self.variants:
            if v not in ("function", "method"):
                raise ValidationError(self.where + "variants: unknown variant '%s' (expected function, method)" % v)

        self.manual_registration = bool(raw.get("manual_kernel_registration", False))
        self.device_guard = raw.get("device_guard", True)
        self.category_override = raw.get("category_override")
        if self.category_override not in (None, "factory"):
            raise ValidationError(self.where + "category_override: only 'factory' is supported")
        self.cpp_no_default_args = set(raw.get("cpp_no_default_args", []) or [])
        # "tags: pointwise", "tags: core, pointwise" or a YAML list, as in
        # PyTorch's file; stored on the operator by its def.
        tags = raw.get("tags", [])
        if isinstance(tags, str):
            tags = [t.strip() for t in tags.split(",") if t.strip()]
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise ValidationError(self.where + "tags: expected a tag name or a list of tag names")
        for t in tags:
            if t not in KNOWN_TAGS:
                raise ValidationError(self.where + "tags: unknown tag '%s' (known: %s)" %
                                      (t, ", ".join(KNOWN_TAGS)))
        self.tags = tags
        # Read by gen_python.py: the Python submodule (linalg, special, ...).
        self.python_module = raw.get("python_module")

        self.dispatch = {}  # key -> kernel name
        dispatch = raw.get("dispatch")
        self.explicit_dispatch = dispatch is not None
        if dispatch is None:
            self.dispatch["CompositeImplicitAutograd"] = self.cpp_name()
        else:
            if not isinstance(dispatch, dict):
                raise ValidationError(self.where + "dispatch: expected a mapping 'Key: kernel'")
            for keys, kernel in dispatch.items():
                if keys == "__line__":
                    continue
                for key in [k.strip() for k in str(keys).split(",")]:
                    if key not in DISPATCH_KEYS:
                        raise ValidationError(self.where + "dispatch: unknown dispatch key '%s' (known: %s)" %
                                              (key, ", ".join(DISPATCH_KEYS)))
                    if key in self.dispatch:
                        raise ValidationError(self.where + "dispatch: key '%s' listed twice" % key)
                    if not isinstance(kernel, str) or not re.match(r"^[A-Za-z_]\w*$", kernel):
                        raise ValidationError(self.where + "dispatch: kernel for '%s' must be a C++ identifier" % key)
                    self.dispatch[key] = kernel
        if all(k in self.dispatch for k in ALIAS_KEYS):
            raise ValidationError(self.where + "dispatch: both CompositeExplicitAutograd and "
                                  "CompositeImplicitAutograd are given; an op has at most one composite kernel")
        if self.manual_registration and self.explicit_dispatch:
            raise ValidationError(self.where + "manual_kernel_registration: True cannot be combined with 'dispatch'")
        self.cuda_pointwise = raw.get("cuda_pointwise")
        self._validate()
        if self.cuda_pointwise is not None:
            self._validate_cuda_pointwise()

    # -- names --------------------------------------------------------------
    def op_ident(self):
        """Unique C++ identifier of the operator: add_Tensor, abs_out."""
        return self.schema.name + ("_" + self.schema.overload if self.schema.overload else "")

    def cpp_name(self):
        """C++ API name: add, add_, add_out."""
        if self.schema.is_out_fn() and self.schema.out_arguments():
            return self.schema.name + "_out"
        return self.schema.name

    def is_factory(self):
        if self.category_override == "factory":
            return True
        return not any(a.type.is_tensor_like() for a in self.schema.arguments)

    # -- validation -----------------------------------------------------------
    def _validate_cuda_pointwise(self):
        w = self.where
        launcher = self.cuda_pointwise
        if launcher not in CUDA_POINTWISE_LAUNCHERS:
            raise ValidationError(w + "cuda_pointwise: unknown launcher %r (known: %s)" %
                                  (launcher, ", ".join(sorted(CUDA_POINTWISE_LAUNCHERS))))
        if "CUDA" not in self.dispatch:
            raise ValidationError(w + "cuda_pointwise needs a 'CUDA: <kernel>' dispatch entry "
                                  "naming the kernel it generates")
        if any(k != "CUDA" and v == self.dispatch["CUDA"] for k, v in self.dispatch.items()):
            raise ValidationError(w + "cuda_pointwise: the CUDA kernel '%s' is generated, so no other "
                                  "key may share its name" % self.dispatch["CUDA"])
        if cuda_pointwise_form(self) is None:
            raise ValidationError(w + "cuda_pointwise: %s serves %s" %
                                  (launcher, cuda_pointwise_forms_text(CUDA_POINTWISE_LAUNCHERS[launcher])))

    def _validate(self):
        s = self.schema
        w = self.where
        # out functions
        if s.is_out_fn():
            outs = s.out_arguments()
            if not outs:
                bad = [a.name for a in s.arguments if a.kwarg_only and a.type.base == "Tensor"]
                raise ValidationError(w + "out function without (a!) annotation: its out argument(s) %s "
                                      "must be written as 'Tensor(a!) out'" % (bad or "(none)"))
            for a in s.arguments:
                if a.kwarg_only and a.type.base == "Tensor" and not a.type.is_write and a.name.startswith("out"):
                    raise ValidationError(w + "out function without (a!) annotation on argument '%s'" % a.name)
            if len(outs) == 1 and outs[0].name != "out":
                raise ValidationError(w + "out argument must be named 'out', not '%s'" % outs[0].name)
            for a in outs:
                if a.default is not None:
                    raise ValidationError(w + "out argument '%s' must not have a default" % a.name)
            if len(s.returns) != len(outs) or any(
                    not r.type.is_write or r.type.alias != o.type.alias for r, o in zip(s.returns, outs)):
                raise ValidationError(w + "out function must return its out argument(s) with the same "
                                      "(a!) annotations, e.g. '-> Tensor(a!)'")
        # defaults form a suffix of the non-out arguments
        seen_default = None
        outs = set(id(a) for a in s.out_arguments())
        for a in s.arguments:
            if id(a) in outs:
                continue
            if a.default is not None:
                seen_default = a.name
            elif seen_default is not None:
                raise ValidationError(w + "default on non-suffix argument: '%s' has a default but the later "
                                      "argument '%s' has none (defaults must form a suffix)" % (seen_default, a.name))
        # methods
        if "method" in self.variants:
            if not any(a.name == "self" and a.type.base == "Tensor" and not a.type.is_list
                       and not a.type.optional for a in s.arguments):
                raise ValidationError(w + "method variant without 'Tensor self': a method needs an argument "
                                      "'Tensor self' to bind to")
        # in-place functions return self
        if s.is_inplace() and not s.is_out_fn():
            if not s.arguments or s.arguments[0].name != "self" or not s.arguments[0].type.is_write:
                raise ValidationError(w + "in-place function (name ends in '_') must take 'Tensor(a!) self' first")
        for name in self.cpp_no_default_args:
            if name not in [a.name for a in s.arguments]:
                raise ValidationError(w + "cpp_no_default_args names unknown argument '%s'" % name)


def cuda_pointwise_form(f):
    """'functional', 'inplace' or 'out' when the entry's schema is one of the
    forms its launcher serves (cuda_pointwise_forms_text), else None."""
    launcher = CUDA_POINTWISE_LAUNCHERS[f.cuda_pointwise]
    s = f.schema
    args = list(s.arguments)
    if len(s.returns) != 1 or s.returns[0].type.base != "Tensor" or s.returns[0].type.is_list:
        return None
    if len(args) < launcher.operands or args[0].name != "self":
        return None
    operands, rest = args[:launcher.operands], args[launcher.operands:]
    if any(not a.type.is_plain_tensor() or a.kwarg_only for a in operands):
        return None
    if any(a.type.is_write for a in operands[1:]):
        return None
    out = None
    if rest and rest[-1].name == "out":
        out = rest.pop()
        if not out.type.is_plain_tensor() or not out.type.is_write or operands[0].type.is_write:
            return None
    if [(a.type.base, a.name) for a in rest] != launcher.extra:
        return None
    if any(a.type.optional or a.type.is_list for a in rest):
        return None
    if out is not None:
        return "out"
    return "inplace" if operands[0].type.is_write else "functional"


def cuda_pointwise_forms_text(launcher):
    """The schemas a launcher serves, for the validation error."""
    operands = ["Tensor self"] + ["Tensor other"] * (launcher.operands - 1)
    extra = ["%s %s" % e for e in launcher.extra]
    def form(first, out=False):
        args = [first] + operands[1:]
        kw = extra + (["Tensor(a!) out"] if out else [])
        return "(" + ", ".join(args + (["*"] + kw if kw else [])) + ")"
    return "'%s -> Tensor', '%s -> Tensor(a!)' and '%s -> Tensor(a!)'" % (
        form("Tensor self"), form("Tensor(a!) self"), form("Tensor self", out=True))


def _check_renderable(f):
    """Runs the C++ rendering of every argument at load time, so that a
    type or default the generator cannot render is reported naming the
    entry and the line (found by tests/fuzz/fuzz_native_functions_yaml.py)."""
    for a in f.schema.arguments:
        try:
            cpp_arg_type(a.type)
            if a.default is not None:
                cpp_default(a)
        except ValidationError as e:
            raise ValidationError(f.where + str(e))


def load(path):
    filename = os.path.basename(path)
    with open(path) as f:
        try:
            raw = yaml.load(f, Loader=_LineLoader)
        except yaml.YAMLError as e:
            raise ValidationError("%s: not valid YAML: %s" % (filename, e))
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        raise ValidationError("%s: expected a list of entries ('- func: ...')" % filename)
    fns = []
    for entry in raw:
        if not isinstance(entry, dict):
            raise ValidationError("%s: every entry must be a mapping with a 'func' key, got %r" % (filename, entry))
        f = NativeFunction(entry, filename)
        _check_renderable(f)
        fns.append(f)
    # overload-level rules
    by_name = {}
    for f in fns:
        by_name.setdefault(f.schema.name, []).append(f)
    for name, group in by_name.items():
        seen = {}
        empties = []
        for f in group:
            ov = f.schema.overload
            if ov == "" and empties:
                raise ValidationError(f.where + "more than one overload of '%s' has an empty overload name "
                                      "(first at line %d); at most one may" % (name, empties[0].line))
            if ov in seen:
                raise ValidationError(f.where + "duplicate overload name '%s' for '%s' (first at line %d)" %
                                      (ov, name, seen[ov].line))
            seen[ov] = f
            if ov == "":
                empties.append(f)
    return fns


# ---------------------------------------------------------------------------
# C++ rendering
# ---------------------------------------------------------------------------

_SIMPLE_CPP = {
    "int": "int64_t", "SymInt": "int64_t", "float": "double", "bool": "bool",
    "str": "std::string_view", "Scalar": "Scalar", "ScalarType": "ScalarType",
    "Layout": "Layout", "MemoryFormat": "MemoryFormat", "Device": "Device",
    "Generator": "Generator",
}


def cpp_arg_type(t):
    if t.base == "Tensor":
        if t.is_list:
            if t.elem_optional:
                return "const std::vector<std::optional<Tensor>>&"
            return "ArrayRef<Tensor>"
        if t.optional:
            return "const std::optional<Tensor>&"
        return "const Tensor&"
    if t.is_list:
        if t.base in ("int", "SymInt"):
            inner = "IntArrayRef"
        elif t.base == "float":
            inner = "ArrayRef<double>"
        elif t.base == "bool":
            if t.list_size:
                inner = "std::array<bool, %d>" % t.list_size
            else:
                inner = "const std::vector<bool>&"
        else:
            raise ValidationError("unsupported list type %s[]" % t.base)
        return "std::optional<%s>" % inner if t.optional else inner
    inner = _SIMPLE_CPP[t.base]
    if t.optional:
        return "const std::optional<%s>&" % inner if inner == "Scalar" else "std::optional<%s>" % inner
    return "const Scalar&" if inner == "Scalar" else inner


def cpp_return_type(schema):
    rets = schema.returns
    def one(t):
        if t.base == "Tensor":
            return "std::vector<Tensor>" if t.is_list else "Tensor"
        return _SIMPLE_CPP[t.base]
    if len(rets) == 0:
        return "void"
    if len(rets) == 1 and not schema.tuple_return:
        return one(rets[0].type)
    return "std::tuple<%s>" % ", ".join(one(r.type) for r in rets)


_ENUM_DEFAULTS = {
    "contiguous_format": "MemoryFormat::Contiguous",
    "preserve_format": "MemoryFormat::Preserve",
    "channels_last": "MemoryFormat::ChannelsLast",
    "long": "ScalarType::Long", "int": "ScalarType::Int", "float": "ScalarType::Float",
    "double": "ScalarType::Double", "bool": "ScalarType::Bool",
    "strided": "Layout::Strided",
    "Mean": "1", "Sum": "2", "None": "std::nullopt",
}


def cpp_default(arg):
    d = arg.default
    t = arg.type
    if d == "None":
        return "std::nullopt"
    if d in ("True", "False"):
        return "true" if d == "True" else "false"
    if d.startswith("["):
        inner = d[1:-1].strip()
        return "{" + inner + "}" if inner else "{}"
    if d.startswith('"') or d.startswith("'"):
        return '"' + d[1:-1] + '"'
    if t.is_list and re.match(r"^-?\d+$", d):
        n = t.list_size or 1
        return "{" + ", ".join([d] * n) + "}"
    if d in _ENUM_DEFAULTS:
        return _ENUM_DEFAULTS[d]
    if re.match(r"^-?(\d+\.?\d*(e-?\d+)?|inf|nan)$", d):
        if d in ("inf", "-inf"):
            return ("-" if d.startswith("-") else "") + "std::numeric_limits<double>::infinity()"
        return d
    raise ValidationError("cannot render default '%s' of argument '%s' in C++" % (d, arg.name))


def api_arg_type(t):
    """The C++ API's parameter type: the kernel type, except that int[]?
    takes st::OptionalIntArrayRef so braced lists work (sum(t, {0}))."""
    if t.base in ("int", "SymInt") and t.is_list and t.optional:
        return "OptionalIntArrayRef"
    return cpp_arg_type(t)


def params(args, with_defaults, no_default=(), api=False):
    # C++ defaults must form a suffix: an argument without one (including
    # those in cpp_no_default_args) drops the defaults before it.
    last_plain = -1
    for i, a in enumerate(args):
        if a.default is None or a.name in no_default:
            last_plain = i
    out = []
    for i, a in enumerate(args):
        s = "%s %s" % (api_arg_type(a.type) if api else cpp_arg_type(a.type), a.name)
        if with_defaults and a.default is not None and i > last_plain:
            s += " = " + cpp_default(a)
        out.append(s)
    return ", ".join(out)


def kernel_sig(f):
    """Function type of the unboxed kernels and of the typed handle."""
    return "%s(%s)" % (cpp_return_type(f.schema), ", ".join(cpp_arg_type(a.type) for a in f.schema.arguments))


def names(args):
    return ", ".join(a.name for a in args)


HEADER_NOTE = "// Generated by tools/codegen/gen_native.py from core/native/native_functions.yaml.\n// Do not edit: change the YAML (see docs/adding_an_operator.md).\n"

COMMON_INCLUDES = """#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include <st/core/array_ref.h>
#include <st/core/device.h>
#include <st/core/export.h>
#include <st/core/generator.h>
#include <st/core/scalar.h>
#include <st/core/tensor.h>
#include <st/native/optional_int_array_ref.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>
"""


def gen_operators_h(fns):
    out = [HEADER_NOTE, "//\n// st::ops::<op>: one struct per operator with its schema, its C++\n"
           "// signature and a typed handle looked up once, on first use.\n#pragma once\n\n",
           COMMON_INCLUDES, "#include <st/dispatch/dispatch_key_set.h>\n\n",
           "namespace st {\n\nusing Layout = torch::headeronly::Layout;\n\nnamespace ops {\n\n"]
    for f in fns:
        s = f.schema
        ret = cpp_return_type(s)
        out.append("// %s\n" % s.text)
        out.append("struct ST_API %s {\n" % f.op_ident())
        out.append("  using schema = %s;\n" % kernel_sig(f))
        out.append("  static constexpr const char* name = \"aten::%s\";\n" % s.name)
        out.append("  static constexpr const char* overload_name = \"%s\";\n" % s.overload)
        out.append("  static constexpr const char* schema_str = \"%s\";\n" % s.text.replace('"', '\\"'))
        out.append("  static %s call(%s);\n" % (ret, params(s.arguments, False)))
        sep = ", " if s.arguments else ""
        out.append("  static %s redispatch(DispatchKeySet ks%s%s);\n" % (ret, sep, params(s.arguments, False)))
        out.append("};\n\n")
    out.append("}  // namespace ops\n}  // namespace st\n")
    return "".join(out)


def gen_operators_cpp(fns):
    out = [HEADER_NOTE, "#include <st/generated/operators.h>\n\n#include <st/dispatch/dispatcher.h>\n\n",
           "// Every name is spelled st::ops::<op>: an operator may be called 'std'.\n",
           "namespace {\n\n"]
    for f in fns:
        s = f.schema
        ident = f.op_ident()
        out.append("st::TypedOperatorHandle<st::ops::%s::schema> handle_%s() {\n" % (ident, ident))
        out.append("  static const auto h = st::Dispatcher::singleton()\n"
                   "      .findSchemaOrThrow(\"aten::%s\", \"%s\")\n      .typed<st::ops::%s::schema>();\n"
                   "  return h;\n}\n" % (s.name, s.overload, ident))
    out.append("\n}  // namespace\n\nnamespace st {\n\n")
    for f in fns:
        s = f.schema
        ret = cpp_return_type(s)
        ident = f.op_ident()
        out.append("%s st::ops::%s::call(%s) {\n  return handle_%s().call(%s);\n}\n" %
                   (ret, ident, params(s.arguments, False), ident, names(s.arguments)))
        sep = ", " if s.arguments else ""
        out.append("%s st::ops::%s::redispatch(DispatchKeySet ks%s%s) {\n  return handle_%s().redispatch(ks%s%s);\n}\n\n" %
                   (ret, ident, sep, params(s.arguments, False), ident, sep, names(s.arguments)))
    out.append("}  // namespace st\n")
    return "".join(out)


def api_functions(f):
    """(decl-with-defaults, definition) pairs of the free functions of f."""
    s = f.schema
    ret = cpp_return_type(s)
    ident = f.op_ident()
    res = []
    if s.is_out_fn() and s.out_arguments():
        outs = s.out_arguments()
        rest = [a for a in s.arguments if a not in outs]
        name = f.cpp_name()
        ordered = outs + rest
        res.append(("%s %s(%s)" % (ret, name, params(ordered, True, f.cpp_no_default_args, api=True)),
                    "%s %s(%s)" % (ret, name, params(ordered, False, api=True)),
                    "return st::ops::%s::call(%s);" % (ident, names(s.arguments))))
        res.append(("%s %sf(%s)" % (ret, name, params(s.arguments, False, api=True)),
                    "%s %sf(%s)" % (ret, name, params(s.arguments, False, api=True)),
                    "return st::ops::%s::call(%s);" % (ident, names(s.arguments))))
    else:
        res.append(("%s %s(%s)" % (ret, f.cpp_name(), params(s.arguments, True, f.cpp_no_default_args, api=True)),
                    "%s %s(%s)" % (ret, f.cpp_name(), params(s.arguments, False, api=True)),
                    "return st::ops::%s::call(%s);" % (ident, names(s.arguments))))
    return res


def gen_functions_h(fns):
    out = [HEADER_NOTE, "//\n// The core's C++ operator API: st::add(a, b), st::add_out(out, a, b),\n"
           "// st::add_outf(a, b, out). Every call goes through the dispatcher.\n"
           "// Method-only operators (variants: method) are also free functions\n"
           "// here, taking self first.\n#pragma once\n\n",
           COMMON_INCLUDES, "\n#include <st/generated/operators.h>\n\nnamespace st {\n\n"]
    for f in fns:
        out.append("// %s\n" % f.schema.text)
        for decl, _, _ in api_functions(f):
            out.append("ST_API %s;\n" % decl)
        out.append("\n")
    out.append("}  // namespace st\n")
    return "".join(out)


def gen_functions_cpp(fns):
    out = [HEADER_NOTE, "#include <st/generated/functions.h>\n\nnamespace st {\n\n"]
    for f in fns:
        for _, defn, body in api_functions(f):
            out.append("%s {\n  %s\n}\n" % (defn, body))
    out.append("\n}  // namespace st\n")
    return "".join(out)


def method_parts(f):
    s = f.schema
    self_idx = [i for i, a in enumerate(s.arguments) if a.name == "self"][0]
    others = [a for i, a in enumerate(s.arguments) if i != self_idx]
    call_args = ", ".join("*this" if a.name == "self" else a.name for a in s.arguments)
    return others, call_args


def gen_tensor_methods_h(fns):
    out = [HEADER_NOTE,
           "//\n// Member declarations of st::Tensor for every 'variants: method' entry.\n"
           "// Included INSIDE the body of class Tensor (st/core/tensor.h), after\n"
           "// st/generated/tensor_methods_includes.h at namespace scope.\n"
           "// No #pragma once: the file is a class-body fragment.\n\n"
           "#define ST_GENERATED_TENSOR_METHODS 1\n\n"]
    for f in fns:
        if "method" not in f.variants:
            continue
        if f.schema.is_out_fn() and f.schema.out_arguments():
            continue  # out= variants are free functions only, as in PyTorch
        others, _ = method_parts(f)
        out.append("  // %s\n" % f.schema.text)
        out.append("  %s %s(%s) const;\n" % (cpp_return_type(f.schema), f.cpp_name(),
                                              params(others, True, f.cpp_no_default_args, api=True)))
    return "".join(out)


def gen_tensor_methods_includes_h():
    # Everything but st/core/tensor.h itself: this header is included from
    # tensor.h before class Tensor.
    includes = COMMON_INCLUDES.replace("#include <st/core/tensor.h>\n", "")
    return HEADER_NOTE + "//\n// What st/generated/tensor_methods.h needs at namespace scope.\n#pragma once\n\n" + \
        includes + "\nnamespace st {\nusing Layout = torch::headeronly::Layout;\n}  // namespace st\n"


def gen_tensor_methods_cpp(fns):
    out = [HEADER_NOTE, "#include <st/core/tensor.h>\n#include <st/generated/functions.h>\n\n",
           "// The member declarations exist only once st/core/tensor.h includes\n"
           "// st/generated/tensor_methods.h (which defines ST_GENERATED_TENSOR_METHODS).\n"
           "#ifdef ST_GENERATED_TENSOR_METHODS\nnamespace st {\n\n"]
    for f in fns:
        if "method" not in f.variants or (f.schema.is_out_fn() and f.schema.out_arguments()):
            continue
        others, call_args = method_parts(f)
        out.append("%s Tensor::%s(%s) const {\n  return st::ops::%s::call(%s);\n}\n" %
                   (cpp_return_type(f.schema), f.cpp_name(), params(others, False, api=True), f.op_ident(), call_args))
    out.append("\n}  // namespace st\n#endif  // ST_GENERATED_TENSOR_METHODS\n")
    return "".join(out)


def kernel_registrations(fns):
    """key -> list of (fn, kernel name)"""
    regs = {}
    for f in fns:
        if f.manual_registration:
            continue
        for key, kernel in f.dispatch.items():
            regs.setdefault(key, []).append((f, kernel))
    return regs


def kernel_declarations(fns, cuda):
    """The declarations of the kernels named in 'dispatch' sections: with
    cuda False those of every key but CUDA, with cuda True those of the
    CUDA kernels that are not also another key's (Note [CUDA kernels in
    native_functions.yaml])."""
    shared = set()
    for f in fns:
        if f.manual_registration:
            continue
        for key, kernel in f.dispatch.items():
            if key != "CUDA":
                shared.add((kernel, kernel_sig(f)))
    out = []
    seen = set()
    for f in fns:
        if f.manual_registration:
            continue
        for key, kernel in sorted(set(f.dispatch.items()), key=lambda kv: (kv[1], kv[0])):
            if (key == "CUDA") != cuda:
                continue
            if cuda and (kernel, kernel_sig(f)) in shared:
                continue
            decl = "%s %s(%s)" % (cpp_return_type(f.schema), kernel, params(f.schema.arguments, False))
            if decl in seen:
                continue
            seen.add(decl)
            out.append("// %s: %s\n%s;\n" % (f.schema.full_name, key, decl))
    return out


def gen_native_kernels_h(fns):
    out = [HEADER_NOTE, "//\n// Declarations of every kernel named in a 'dispatch' section, in\n"
           "// st::native, but the CUDA-only ones (native_cuda_kernels.h). Kernel\n"
           "// files include this header so that a kernel whose signature drifts\n"
           "// from its schema fails to compile.\n#pragma once\n\n",
           COMMON_INCLUDES, "// Hand-written kernels the YAML routes to directly.\n#include <st/native/copy.h>\n#include <st/native/view_ops.h>\n",
           "\nnamespace st {\nusing Layout = torch::headeronly::Layout;\n}\n\nnamespace st::native {\n\n"]
    out += kernel_declarations(fns, cuda=False)
    out.append("\n}  // namespace st::native\n")
    return "".join(out)


def gen_native_cuda_kernels_h(fns):
    out = [HEADER_NOTE, "//\n// Declarations of the CUDA-only kernels named in 'dispatch' sections,\n"
           "// in st::native (Note [CUDA kernels in native_functions.yaml] in\n"
           "// tools/codegen/gen_native.py). Only the CUDA backend includes it.\n"
           "#pragma once\n\n#include <st/generated/native_kernels.h>\n\nnamespace st::native {\n\n"]
    out += kernel_declarations(fns, cuda=True)
    out.append("\n}  // namespace st::native\n")
    return "".join(out)


def cuda_entry_point(f):
    """The device entry point of a 'cuda_pointwise' entry: float_unary_sin."""
    return "%s_%s" % (f.cuda_pointwise, f.schema.name.rstrip("_"))


def gen_cuda_pointwise_kernels(fns):
    """The CUDA kernels of 'cuda_pointwise' entries: each calls its
    launcher with the entry point a .cu defines."""
    chosen = [f for f in fns if f.cuda_pointwise is not None]
    out = [HEADER_NOTE, "//\n// The CUDA kernels of the entries with 'cuda_pointwise' (Note [CUDA\n"
           "// kernels in native_functions.yaml] in tools/codegen/gen_native.py).\n"
           "#include <st/generated/native_cuda_kernels.h>\n\n#include \"cuda/cuda_ops.h\"\n\n"
           "// Defined in core/src/cuda/kernels/*.cu by the launchers' macros.\n"
           "namespace st::cuda::kernels {\n"]
    seen = set()
    for f in chosen:
        ep = cuda_entry_point(f)
        if ep not in seen:
            seen.add(ep)
            out.append("%s %s;\n" % (CUDA_POINTWISE_LAUNCHERS[f.cuda_pointwise].entry_type, ep))
    out.append("}  // namespace st::cuda::kernels\n\nnamespace st::native {\n\n")
    for f in chosen:
        s = f.schema
        launcher = CUDA_POINTWISE_LAUNCHERS[f.cuda_pointwise]
        form = cuda_pointwise_form(f)
        target = {"functional": "std::nullopt", "inplace": "self", "out": "out"}[form]
        operands = [a.name for a in s.arguments[:launcher.operands]]
        extra = [name for _, name in launcher.extra]
        # Errors name the operator, not its in-place form (as the CPU's do)
        # for the binary launchers; float_unary names the schema's name.
        name = s.name if f.cuda_pointwise == "float_unary" else s.name.rstrip("_")
        out.append("// %s\n%s %s(%s) {\n  return st::cuda::ops::%s(&st::cuda::kernels::%s, \"%s\", %s);\n}\n" %
                   (s.text, cpp_return_type(s), f.dispatch["CUDA"], params(s.arguments, False),
                    f.cuda_pointwise, cuda_entry_point(f), name,
                    ", ".join(operands + extra + [target])))
    out.append("\n}  // namespace st::native\n")
    return "".join(out)


def gen_register_schemas(fns):
    out = [HEADER_NOTE, "#include <st/dispatch/library.h>\n\n",
           "// Every schema of native_functions.yaml, in file order.\n",
           "ST_LIBRARY(aten, m) {\n"]
    for f in fns:
        schema = f.schema.text.replace('"', '\\"')
        if f.tags:
            tags = ", ".join("st::Tag::%s" % t for t in f.tags)
            out.append("  m.def(\"%s\", {%s});\n" % (schema, tags))
        else:
            out.append("  m.def(\"%s\");\n" % schema)
    out.append("}\n")
    return "".join(out)


def gen_register_key(key, regs):
    if not regs:
        return HEADER_NOTE + "// No operator has a %s kernel in native_functions.yaml.\n" % key
    kernels_h = "native_cuda_kernels.h" if key == "CUDA" else "native_kernels.h"
    out = [HEADER_NOTE, "#include <st/dispatch/library.h>\n#include <st/generated/%s>\n" % kernels_h,
           "#include <st/generated/operators.h>\n\n",
           "// Wrappers give each kernel one unambiguous address (kernel names are\n"
           "// overloaded across an operator's overloads).\nnamespace st {\nnamespace {\n\n"]
    for f, kernel in regs:
        s = f.schema
        out.append("%s wrapper_%s_%s(%s) {\n  return st::native::%s(%s);\n}\n" %
                   (cpp_return_type(s), key, f.op_ident(), params(s.arguments, False), kernel, names(s.arguments)))
    out.append("\n}  // namespace\n}  // namespace st\n\nST_LIBRARY_IMPL(aten, %s, m) {\n" % key)
    for f, kernel in regs:
        out.append("  m.impl(\"%s\", ST_FN(st::wrapper_%s_%s));\n" % (f.schema.full_name, key, f.op_ident()))
    out.append("}\n")
    return "".join(out)


def gen_register_backend_select(fns):
    """Typed BackendSelect kernels for factory functions: pick the backend
    from dtype/layout/device and redispatch (faster than the boxed fallback)."""
    out = [HEADER_NOTE, "#include <st/dispatch/dispatcher.h>\n#include <st/dispatch/library.h>\n",
           "#include <st/generated/operators.h>\n\nnamespace st {\nnamespace {\n\n"]
    chosen = []
    for f in fns:
        s = f.schema
        if not f.is_factory() or any(a.type.is_tensor_like() for a in s.arguments):
            continue
        kinds = {a.name: a for a in s.arguments}
        if "device" not in kinds:
            continue
        def opt(name):
            a = kinds.get(name)
            if a is None:
                return "std::nullopt"
            return a.name
        chosen.append(f)
        out.append("%s backend_select_%s(%s) {\n" % (cpp_return_type(s), f.op_ident(), params(s.arguments, False)))
        out.append("  const st::DispatchKey k = st::computeDispatchKey(%s, %s, %s);\n" %
                   (opt("dtype"), opt("layout"), opt("device")))
        sep = ", " if s.arguments else ""
        out.append("  return st::ops::%s::redispatch(st::tensorKeySetForBackend(k)%s%s);\n}\n" %
                   (f.op_ident(), sep, names(s.arguments)))
    out.append("\n}  // namespace\n}  // namespace st\n\nST_LIBRARY_IMPL(aten, BackendSelect, m) {\n")
    for f in chosen:
        out.append("  m.impl(\"%s\", ST_FN(st::backend_select_%s));\n" % (f.schema.full_name, f.op_ident()))
    out.append("}\n")
    return "".join(out)


def output_files(fns):
    files = {
        "include/st/generated/operators.h": gen_operators_h(fns),
        "include/st/generated/functions.h": gen_functions_h(fns),
        "include/st/generated/tensor_methods.h": gen_tensor_methods_h(fns),
        "include/st/generated/tensor_methods_includes.h": gen_tensor_methods_includes_h(),
        "include/st/generated/native_kernels.h": gen_native_kernels_h(fns),
        "include/st/generated/native_cuda_kernels.h": gen_native_cuda_kernels_h(fns),
        "src/cuda_pointwise_kernels.cpp": gen_cuda_pointwise_kernels(fns),
        "src/operators.cpp": gen_operators_cpp(fns),
        "src/functions.cpp": gen_functions_cpp(fns),
        "src/tensor_methods.cpp": gen_tensor_methods_cpp(fns),
        "src/register_schemas.cpp": gen_register_schemas(fns),
        "src/register_BackendSelect.cpp": gen_register_backend_select(fns),
    }
    regs = kernel_registrations(fns)
    for key in DISPATCH_KEYS:
        files["src/register_%s.cpp" % key] = gen_register_key(key, regs.get(key, []))
    # Operators may be named like namespaces (aten::std): spell the standard
    # library ::std:: so st::ops::std never captures std::optional.
    return {k: re.sub(r"(?<![:\w])std::", "::std::", v) for k, v in files.items()}


def write_if_changed(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path, "w") as f:
        f.write(text)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--yaml", required=True)
    p.add_argument("--out", help="output root (gets include/ and src/)")
    p.add_argument("--check", action="store_true", help="validate only")
    p.add_argument("--stamp", help="file to touch after a successful run")
    a = p.parse_args(argv)
    try:
        fns = load(a.yaml)
        files = output_files(fns)
    except ValidationError as e:
        sys.stderr.write("error: %s\n" % e)
        return 1
    if a.check:
        return 0
    if not a.out:
        sys.stderr.write("error: --out is required unless --check\n")
        return 2
    for rel, text in files.items():
        write_if_changed(os.path.join(a.out, rel), text)
    if a.stamp:
        with open(a.stamp, "w") as f:
            f.write("ok\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
