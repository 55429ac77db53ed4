"""Compares one case's result from a runtime under test with the oracle's
(PyTorch's). Returns None when they agree, else a one-line description of
the first difference.

Result fields (conformance_driver): "OK", returns..., "|", inputs after the
call...; or "ERR", message; or SETUP / CRASH / HANG, message. Tensors are
"T:dtype:sizes:strides:offset:alias:values" or "T:undef"."""

import math

# (relative, absolute) tolerance per floating dtype; integers and bool are
# compared exactly.
TOLERANCE = {
    "f64": (1e-9, 1e-12),
    "f32": (1e-5, 1e-6),
    "f16": (2e-3, 1e-3),
    "bf16": (1.6e-2, 1e-2),
}


def _float(text):
    return float(text)  # "nan", "inf", "-inf" included


def _values_agree(dtype, expected, got):
    if dtype not in TOLERANCE:
        return expected == got
    rtol, atol = TOLERANCE[dtype]
    for e, g in zip(expected, got):
        ef, gf = _float(e), _float(g)
        if math.isnan(ef) or math.isnan(gf):
            if not (math.isnan(ef) and math.isnan(gf)):
                return False
            continue
        if math.isinf(ef) or math.isinf(gf):
            if ef != gf:
                return False
            continue
        if abs(ef - gf) > atol + rtol * abs(ef):
            return False
    return True


def _strides_agree(sizes, expected, got):
    # A stride of a dimension of size 1 (or of an empty tensor) never
    # affects which element is read: PyTorch itself is free there.
    dims = [int(s) for s in sizes.split(",")] if sizes else []
    if any(d == 0 for d in dims):
        return True
    e = expected.split(",") if expected else []
    g = got.split(",") if got else []
    return all(d <= 1 or a == b for d, a, b in zip(dims, e, g))


def compare_tensor(where, expected, got, compare_values):
    if expected == got:
        return None
    if expected.startswith("T:undef") or got.startswith("T:undef"):
        return "%s: expected %s, got %s" % (where, expected[:40], got[:40])
    e = expected.split(":", 6)
    g = got.split(":", 6)
    if len(e) != 7 or len(g) != 7:
        return "%s: expected %s, got %s" % (where, expected[:60], got[:60])
    _, edt, esz, est, eoff, ealias, evals = e
    _, gdt, gsz, gst, goff, galias, gvals = g
    if edt != gdt:
        return "%s: dtype %s, expected %s" % (where, gdt, edt)
    if esz != gsz:
        return "%s: sizes [%s], expected [%s]" % (where, gsz, esz)
    if not _strides_agree(esz, est, gst):
        return "%s: strides [%s], expected [%s]" % (where, gst, est)
    if eoff != goff:
        return "%s: storage offset %s, expected %s" % (where, goff, eoff)
    if ealias != galias:
        describe = lambda a: "a new tensor" if a == "-" else "a view of input %s" % a
        return "%s: is %s, expected %s" % (where, describe(galias), describe(ealias))
    if compare_values:
        ev = evals.split(",") if evals else []
        gv = gvals.split(",") if gvals else []
        if len(ev) != len(gv) or not _values_agree(edt, ev, gv):
            first = next((i for i, (a, b) in enumerate(zip(ev, gv)) if not _values_agree(edt, [a], [b])), None)
            if first is None:
                return "%s: %d values, expected %d" % (where, len(gv), len(ev))
            return "%s: value [%d] is %s, expected %s" % (where, first, gv[first], ev[first])
    return None


def compare_value(where, expected, got, compare_values):
    if expected.startswith("T:") or got.startswith("T:"):
        return compare_tensor(where, expected, got, compare_values)
    if expected.startswith("[") and got.startswith("["):
        e = expected[1:-1].split("|") if expected != "[]" else []
        g = got[1:-1].split("|") if got != "[]" else []
        if len(e) != len(g):
            return "%s: %d list elements, expected %d" % (where, len(g), len(e))
        for i, (a, b) in enumerate(zip(e, g)):
            diff = compare_value("%s[%d]" % (where, i), a, b, compare_values)
            if diff:
                return diff
        return None
    if expected.startswith("f:") and got.startswith("f:"):
        if _values_agree("f64", [expected[2:]], [got[2:]]):
            return None
    if expected != got:
        return "%s: %s, expected %s" % (where, got[:60], expected[:60])
    return None


def compare(expected, got, compare_values=True):
    e = expected.split("\t")
    g = got.split("\t")
    if e[0] != g[0]:
        if e[0] == "ERR" and g[0] == "OK":
            return "succeeded; PyTorch fails: " + e[1][:160]
        if e[0] == "OK" and g[0] == "ERR":
            return "fails (%s); PyTorch succeeds" % g[1][:160]
        return "%s (%s), expected %s" % (g[0], g[1][:160] if len(g) > 1 else "", e[0])
    if e[0] != "OK":
        return None  # both fail: messages are not compared
    e_ret = e[1:e.index("|")]
    g_ret = g[1:g.index("|")] if "|" in g else g[1:]
    if len(e_ret) != len(g_ret):
        return "%d returns, expected %d" % (len(g_ret), len(e_ret))
    for i, (a, b) in enumerate(zip(e_ret, g_ret)):
        diff = compare_value("return %d" % i, a, b, compare_values)
        if diff:
            return diff
    e_in = e[e.index("|") + 1:]
    g_in = g[g.index("|") + 1:] if "|" in g else []
    for i, (a, b) in enumerate(zip(e_in, g_in)):
        diff = compare_value("input %d after the call" % i, a, b, compare_values)
        if diff:
            return diff
    return None
