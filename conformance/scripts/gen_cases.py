#!/usr/bin/env python3
"""Generates the differential operator cases: for every operator schema in
stabletorch's native_functions.yaml whose arguments can cross PyTorch's C
ABI, calls with several shapes, layouts and dtypes, and inputs that must
fail. Deterministic: the same file always gives the same cases.

  gen_cases.py --yaml core/native/native_functions.yaml --out DIR

Writes DIR/op_cases.txt (the driver's case lines) and DIR/op_cases.json
(per case: operator, family, whether values are comparable; and the
operators skipped, with the reason).
"""

import argparse
import json
import os
import random
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schema as schema_mod  # noqa: E402

# Argument types PyTorch's call_dispatcher cannot receive from a StableIValue
# (there is no Scalar in its stable C ABI), or that the cases do not build.
UNSUPPORTED_TYPES = {
    "Scalar": "Scalar arguments cannot cross PyTorch's stable C ABI",
    "Scalar?": "Scalar arguments cannot cross PyTorch's stable C ABI",
    "Generator": "the generated cases make no generators (the plugin cases pass seeded ones)",
    "Dimname": "named tensors are not part of the stable ABI",
    "Dimname[]": "named tensors are not part of the stable ABI",
}

# Operators whose outputs are uninitialized or random: only the metadata
# (dtype, shape, strides, aliasing, success) is compared.
VALUES_NOT_COMPARABLE = ("empty", "new_empty", "rand", "randn", "randint", "rand_like",
                         "randn_like", "randint_like", "empty_like", "empty_strided",
                         "new_empty_strided", "randperm", "uniform_", "normal_", "bernoulli")

FAMILY_BY_NAME = {
    "linalg": ("mm", "bmm", "addmm", "matmul", "mv", "dot"),
    "join/split": ("cat", "stack", "split", "chunk"),
    "indexing": ("index_select", "gather", "scatter", "scatter_", "masked_select", "nonzero", "index"),
    "sorting": ("sort", "topk"),
    "softmax": ("softmax", "_softmax", "log_softmax", "_log_softmax"),
}
FAMILY_BY_SECTION = (
    ("Factories", "factory"),
    ("Copies", "copy/conversion"),
    ("Views", "shape/view"),
    ("Pointwise", "pointwise"),
    ("Reductions", "reduction"),
)

# Shapes of the tensor arguments, in order, for operators that need
# matching shapes (the generic rule gives every tensor the same shape).
SHAPE_TEMPLATES = {
    "mm": [[2, 3], [3, 4]],
    "bmm": [[2, 2, 3], [2, 3, 4]],
    "mv": [[2, 3], [3]],
    "dot": [[3], [3]],
    "matmul": [[2, 3], [3, 4]],
}

# (name, dtype of the tensors, shape of the first tensor, layout, other-tensor rule)
#   layout: contiguous | transposed | strided (offset 3, every other element) | expanded
#   others: same | broadcast (the trailing dims only) | mismatch (a shape that cannot broadcast)
#           | int64 (same shape, int64: type promotion) | grow (the first tensor
#           is the one that broadcasts: in-place operators must refuse)
SCENARIOS = [
    ("contiguous", "f32", [2, 3], "contiguous", "same"),
    ("zero-dim", "f64", [], "contiguous", "same"),
    ("empty", "f32", [0, 3], "contiguous", "same"),
    ("broadcast", "f32", [2, 3], "contiguous", "broadcast"),
    ("transposed", "f32", [3, 2], "transposed", "same"),
    ("offset-strided", "f64", [2, 3], "strided", "same"),
    ("expanded", "f32", [2, 3], "expanded", "same"),
    ("3d", "f32", [2, 3, 4], "transposed", "same"),
    ("int64", "i64", [2, 3], "contiguous", "same"),
    ("int32", "i32", [4], "contiguous", "same"),
    ("bool", "b", [2, 3], "contiguous", "same"),
    ("bfloat16", "bf16", [2, 3], "contiguous", "same"),
    ("float16", "f16", [3], "contiguous", "same"),
    ("uint8", "u8", [2, 3], "contiguous", "same"),
    ("int16-strided", "i16", [3, 2], "strided", "same"),
    ("4d-expanded", "f64", [3, 1, 2, 2], "expanded", "broadcast"),
    ("promotion", "f32", [2, 3], "contiguous", "int64"),
    ("broadcast-self", "f32", [3], "contiguous", "grow"),
    ("mismatch", "f32", [2, 3], "contiguous", "mismatch"),
    ("bad-dim", "f32", [2, 3], "contiguous", "bad-dim"),
]


# Operators also run on edge values (fill 'e': NaN, infinities, both
# zeros; INT64_MIN and INT64_MAX), contiguous and strided, float32 and
# int64: their vector loops treat these lanes specially. 3 x 40 strided
# elements are 120 in one row, long enough for the loops' blocks.
EDGE_VALUE_OPS = {"abs", "abs_", "neg", "neg_", "sign", "sign_", "relu", "relu_"}
EDGE_SCENARIOS = [
    ("edges-f32", "f32", [3, 40], "contiguous", "same"),
    ("edges-f32-strided", "f32", [3, 40], "strided", "same"),
    ("edges-i64", "i64", [3, 40], "contiguous", "same"),
    ("edges-i64-strided", "i64", [3, 40], "strided", "same"),
]


# Operators that take index tensors also run on indices in [-3, 3] (fill
# 's') over dims of 3 and 4: PyTorch wraps a negative index for some of them
# (index.Tensor, index_put) and rejects it for others (index_select, gather,
# scatter), and the other scenarios' indices (fill 'u': 0 and 1) never tell
# the two apart.
INDEX_SCENARIOS = [
    ("negative-index", "f32", [3, 4], "contiguous", "same"),
]


# Scenarios drawn at random (seeded by the operator's name): any rank up
# to 3, sizes 0..4, any layout and a dtype among the common ones.
RANDOM_SCENARIOS = 3


def random_scenario(op_name, n):
    rng = random.Random("%s/%d" % (op_name, n))
    rank = rng.randint(0, 3)
    shape = [rng.choice([0, 1, 2, 3, 4] if rng.random() < 0.15 else [1, 2, 3, 4]) for _ in range(rank)]
    layout = rng.choice(["contiguous", "transposed", "strided", "expanded"])
    dtype = rng.choice(["f32", "f64", "i64", "i32", "b"])
    others = rng.choice(["same", "same", "broadcast"])
    return ("random%d" % n, dtype, shape, layout, others)


def family_of(s):
    for family, names in FAMILY_BY_NAME.items():
        if s.name in names:
            return family
    if s.name.startswith("_foreach"):
        return "foreach"
    for prefix, family in FAMILY_BY_SECTION:
        if getattr(s, "section", "").startswith(prefix):
            return family
    return "other"


def contiguous_strides(sizes):
    strides, running = [], 1
    for size in reversed(sizes):
        strides.insert(0, running)
        running *= max(size, 1)
    return strides


def tensor_token(dtype, sizes, layout, seed, kind="r"):
    sizes = list(sizes)
    offset = 0
    if layout == "transposed" and len(sizes) >= 2:
        # The strides of the contiguous tensor of reversed sizes, reversed:
        # the first dimension is the fastest.
        strides = list(reversed(contiguous_strides(list(reversed(sizes)))))
    elif layout == "strided" and sizes:
        strides = [2 * s for s in contiguous_strides(sizes)]
        offset = 3
    elif layout == "expanded" and sizes and sizes[0] > 1:
        strides = contiguous_strides(sizes)
        strides[0] = 0
    else:
        strides = contiguous_strides(sizes)
    ints = lambda xs: ",".join(str(x) for x in xs)
    return "t:%s:%s:%s:%d:%s%d" % (dtype, ints(sizes), ints(strides), offset, kind, seed)


def int_list(values):
    return " ".join(["l:%d" % len(values)] + ["i:%d" % v for v in values])


def literal_token(arg):
    """The token for an argument's schema default."""
    d = arg.default.strip()
    base = arg.type.rstrip("?")
    optional = arg.type.endswith("?")
    if d == "None":
        return "n"
    if base == "bool":
        token = "b:1" if d == "True" else "b:0"
    elif base in ("int", "SymInt"):
        token = "i:" + d
    elif base == "float":
        token = "f:" + d
    elif base in ("int[]", "SymInt[]"):
        inner = d.strip("[]").strip()
        token = int_list([int(x) for x in inner.split(",")] if inner else [])
    elif base == "str":
        token = "s:" + d.strip("'\"")
    elif base == "MemoryFormat":
        token = "mf:" + d.replace("_format", "")
    elif base == "ScalarType":
        token = "d:" + {"float": "f32", "long": "i64"}.get(d, d)
    else:
        raise ValueError("no token for default %r of %s %s" % (d, arg.type, arg.name))
    return "o " + token if optional else token


class CaseBuilder:
    """Builds one case (the argument tokens) of one schema in one scenario."""

    def __init__(self, s, scenario, case_id, shape_templates=None, explicit_dim=False, dim=None):
        self.s = s
        # A defaulted `dim` given in every case (the sweep's short rows: an
        # amax whose default reduces every dim would not time the rows).
        self.explicit_dim = explicit_dim
        # The dim every case gives (None: -1 and 0 by turns).
        self.dim = dim
        # The sweep (sweep.py) scales the templates with its sizes.
        self.shape_templates = SHAPE_TEMPLATES if shape_templates is None else shape_templates
        self.name, self.dtype, self.shape, self.layout, self.others = scenario
        self.case_id = case_id
        self.tensor_index = 0
        self.self_shape = None

    def seed(self, salt):
        return zlib.crc32(("%s/%s" % (self.case_id, salt)).encode())

    def shape_for_next_tensor(self):
        k = self.tensor_index
        self.tensor_index += 1
        template = self.shape_templates.get(self.s.name)
        if template is not None:
            shape = list(template[min(k, len(template) - 1)])
            if self.name == "empty":
                shape[0] = 0 if k == 0 else shape[0]
            if self.name == "zero-dim":
                shape = []
            if self.others == "mismatch" and k == 1:
                shape = [4, 5]
            return shape
        if k == 0 or self.others in ("same", "int64", "bad-dim"):
            return list(self.shape)
        if self.others == "broadcast":
            return list(self.shape[1:])
        if self.others == "grow":  # the first tensor broadcasts against the others
            return [2] + list(self.shape)
        return [4, 5]  # mismatch

    def tensor(self, arg, salt):
        name = arg.name
        if arg.mutable and arg.kwarg_only:  # an out argument: empty, resized by the op
            dtype = self.dtype
            if name.endswith("indices"):
                dtype = "i64"
            elif self.s.name in ("all", "any"):
                dtype = "b"
            return "t:%s:0:1:0:r0" % dtype
        if name == "value":  # fill_.Tensor, masked_fill.Tensor: a 0-dim value
            return tensor_token(self.dtype, [], "contiguous", self.seed(salt))
        if name in ("index",):
            kind = self.index_kind()
            if self.s.name in ("gather", "scatter", "scatter_"):
                return tensor_token("i64", self.self_shape or self.shape, "contiguous", self.seed(salt), kind)
            return tensor_token("i64", [2], "contiguous", self.seed(salt), kind)
        shape = self.shape_for_next_tensor()
        if self.self_shape is None:
            self.self_shape = shape
        dtype = self.dtype
        if name in ("mask", "condition"):
            dtype = "b"
        elif self.others == "int64" and self.tensor_index > 1:
            dtype = "i64"
        kind = "e" if self.name.startswith("edges-") else "r"
        return tensor_token(dtype, shape, self.layout, self.seed(salt), kind)

    def index_kind(self):
        """The fill of an index tensor: 0 and 1 ('u'), or [-3, 3] ('s')."""
        return "s" if self.name in [sc[0] for sc in INDEX_SCENARIOS] else "u"

    def ndim(self):
        return len(self.self_shape if self.self_shape is not None else self.shape)

    def dim_value(self, k):
        if self.others == "bad-dim":
            return 5
        if self.dim is not None:
            return self.dim
        return -1 if k % 2 == 0 else 0

    def value(self, arg, k):
        """The token for a required argument, or a non-default value."""
        name, base = arg.name, arg.type.rstrip("?")
        optional = arg.type.endswith("?") and not arg.type.startswith("Tensor")
        wrap = (lambda t: "o " + t) if optional else (lambda t: t)
        shape = self.self_shape if self.self_shape is not None else self.shape
        if base == "Tensor":
            return self.tensor(arg, k)
        if base == "Tensor[]":
            return " ".join(["l:2"] + [self.tensor(arg, "%d.%d" % (k, i)) for i in range(2)])
        if base == "Tensor?[]":
            index = tensor_token("i64", [2], "contiguous", self.seed(k), self.index_kind())
            return "l:1 o " + index
        if base in ("int", "SymInt"):
            if name in ("dim", "dim0", "start_dim"):
                return wrap("i:%d" % self.dim_value(k))
            if name in ("dim1", "end_dim"):
                return wrap("i:%d" % (5 if self.others == "bad-dim" else -1))
            table = {"chunks": 2, "split_size": 1, "k": 1, "index": 0, "start": 0, "length": 1,
                     "low": 0, "high": 10, "storage_offset": 0, "step": 1, "end": 2}
            return wrap("i:%d" % table.get(name, 1))
        if base in ("int[]", "SymInt[]"):
            if name == "dim":
                return wrap(int_list([self.dim_value(k)]))
            if name == "dims":
                return wrap(int_list(list(range(self.ndim()))[::-1] if self.s.name == "permute" else [0]))
            if name in ("size", "shape"):
                if self.s.name in ("view", "reshape"):
                    return int_list([-1])
                if self.s.name == "expand":
                    return int_list([2] + list(shape))
                return int_list([0, 3] if self.name == "empty" else list(self.shape))
            if name == "stride":
                return int_list(contiguous_strides([0, 3] if self.name == "empty" else list(self.shape)))
            if name == "pad":
                return int_list([1, 1])
            if name == "sizes":
                return int_list([1, -1])
            return wrap(int_list([1]))
        if base == "float":
            table = {"nan": 0.0, "posinf": 100.0, "neginf": -100.0, "value": 0.5}
            return wrap("f:%r" % table.get(name, 0.5))
        if base == "bool":
            return wrap("b:%d" % (k % 2))
        if base == "str":
            table = {"rounding_mode": ["trunc", "floor"], "approximate": ["none", "tanh"],
                     "mode": ["constant"]}
            choices = table.get(name, ["x"])
            return wrap("s:" + choices[k % len(choices)])
        if base == "ScalarType":
            return wrap("d:" + ("f64" if self.dtype != "f64" else "f32"))
        if base == "Device":
            return wrap("dev:cpu")
        if base == "Layout":
            return wrap("lay:strided")
        if base == "MemoryFormat":
            return wrap("mf:contiguous")
        if arg.type == "Generator?":
            return "n"  # the default generator
        raise ValueError("no generator for %s %s" % (arg.type, name))

    def build(self, k):
        tokens = []
        for i, arg in enumerate(self.s.args):
            base = arg.type.rstrip("?")
            use_default = arg.default is not None
            # Vary some defaulted arguments with the case number.
            if use_default and arg.name in ("dim", "keepdim", "rounding_mode", "descending",
                                            "approximate", "dtype") and k % 3 == 1:
                use_default = False
            if use_default and arg.name == "dim" and self.explicit_dim:
                use_default = False
            if use_default and arg.type == "Tensor?" and k % 2 == 1:
                use_default = False
            # The factory options, given explicitly (and harmlessly) in some cases.
            if use_default and arg.type in ("Device?", "Layout?", "MemoryFormat?", "bool?") \
                    and arg.name in ("device", "layout", "memory_format", "pin_memory") and k % 3 == 2:
                tokens.append({"device": "o dev:cpu", "layout": "o lay:strided",
                               "memory_format": "o mf:contiguous", "pin_memory": "o b:0"}[arg.name])
                continue
            if use_default:
                tokens.append(literal_token(arg))
            elif arg.type == "Tensor?":
                tokens.append("o " + self.tensor(arg, i))
            elif base == "Tensor" or base.startswith("Tensor"):
                tokens.append(self.value(arg, i))
            else:
                tokens.append(self.value(arg, k))
        return " ".join(tokens)


def unsupported_reason(s):
    for arg in s.args:
        if arg.type in UNSUPPORTED_TYPES:
            return "%s (argument '%s %s')" % (UNSUPPORTED_TYPES[arg.type], arg.type, arg.name)
    for r in s.returns:
        if r not in ("Tensor", "Tensor[]", "bool", "int", "float"):
            return "return type %s is not decoded by the driver" % r
    return None


def takes_index(s):
    """Whether a schema has an index tensor (or a list of them)."""
    return any((a.name == "index" and a.type.startswith("Tensor")) or a.type.startswith("Tensor?[]")
               for a in s.args)


def generate(yaml_path):
    cases, meta, skipped = [], {}, {}
    for s in schema_mod.read_native_functions(yaml_path):
        reason = unsupported_reason(s)
        if reason:
            skipped["aten::" + s.full_name] = reason
            continue
        family = family_of(s)
        scenarios = SCENARIOS + [random_scenario(s.full_name, n) for n in range(RANDOM_SCENARIOS)]
        if s.name in EDGE_VALUE_OPS:
            scenarios += EDGE_SCENARIOS
        if takes_index(s):
            scenarios += INDEX_SCENARIOS
        for k, scenario in enumerate(scenarios):
            case_id = "aten::%s#%s" % (s.full_name, scenario[0])
            # The variation number comes from the scenario's name, so adding
            # a scenario leaves the other cases as they were.
            variation = zlib.crc32(scenario[0].encode()) % 6
            try:
                args = CaseBuilder(s, scenario, case_id).build(variation)
            except ValueError as e:
                skipped["aten::" + s.full_name] = str(e)
                break
            returns = ",".join(s.returns) if s.returns else "-"
            # The first scenario also goes through the unversioned entry,
            # aoti_torch_call_dispatcher (the driver reads the "@aoti").
            for suffix in ("", "@aoti") if k == 0 else ("",):
                cases.append("\t".join([case_id + suffix, "aten::" + s.name, s.overload, returns, args]))
                meta[case_id + suffix] = {"op": "aten::" + s.full_name, "family": family,
                                          "values": s.name not in VALUES_NOT_COMPARABLE}
        else:
            continue
        # A schema whose arguments could not all be generated: drop its cases.
        cases = [c for c in cases if not c.startswith("aten::%s#" % s.full_name)]
        for key in [key for key in meta if key.startswith("aten::%s#" % s.full_name)]:
            del meta[key]
    return cases, meta, skipped


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--yaml", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    cases, meta, skipped = generate(args.yaml)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "op_cases.txt"), "w") as f:
        f.write("\n".join(cases) + "\n")
    with open(os.path.join(args.out, "op_cases.json"), "w") as f:
        json.dump({"cases": meta, "skipped": skipped}, f, indent=1, sort_keys=True)
    print("generated %d cases for %d operators; skipped %d operators"
          % (len(cases), len({m["op"] for m in meta.values()}), len(skipped)))


if __name__ == "__main__":
    main()
