#!/usr/bin/env python3
"""Check 10: the C declarations of PyTorch's stable headers, level by level.

Parses every AOTI_TORCH_EXPORT function declaration of PyTorch's stable C
headers (from the torch wheel the conformance stage downloads) and of ours,
with the TORCH_FEATURE_VERSION block each sits in (none: 2.9) and any other
condition around it (USE_CUDA, USE_MPS, ...), and reports for each level
2.9 ... 2.15:
  - functions PyTorch declares and we do not,
  - functions both declare with different parameter or return types
    (parameter names and spelling of spaces do not count),
  - functions both declare at different levels.
A difference listed in the reviewed file (one regex per line, matched
against the function name, then "# reason") is reported as reviewed and
does not fail the check; a reviewed entry that matches no difference fails
it, so the file only ever lists real gaps.

With --levels FILE it also checks c_api/pytorch_function_levels.txt: the
level of every function PyTorch's extension headers (shim.h, c_shim_aten.h,
stable/c/shim.h) declare, which the loader uses to name the level of an
import this runtime lacks. --write-levels FILE regenerates it.
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abi_lib  # noqa: E402

# PyTorch's stable C headers, relative to its include root.
PYTORCH_HEADERS = [
    "torch/csrc/inductor/aoti_torch/c/shim.h",
    "torch/csrc/inductor/aoti_torch/c/shim_deprecated.h",
    "torch/csrc/inductor/aoti_torch/c/shim_cpu.h",
    "torch/csrc/inductor/aoti_torch/c/shim_mps.h",
    "torch/csrc/inductor/aoti_torch/c/shim_xpu.h",
    "torch/csrc/inductor/aoti_torch/generated/c_shim_aten.h",
    "torch/csrc/stable/c/shim.h",
]

# The headers whose functions an extension can import (PyTorch's inline
# stable API calls only these).
EXTENSION_HEADERS = PYTORCH_HEADERS[0:1] + PYTORCH_HEADERS[5:7]

LEVELS = ["2.9", "2.10", "2.11", "2.12", "2.13", "2.14", "2.15"]
VERSION_IF = re.compile(r"^#\s*if\s+TORCH_FEATURE_VERSION\s*>=\s*TORCH_VERSION_(\d+)_(\d+)_\d+")
C_KEYWORDS = {"const", "volatile", "unsigned", "signed", "int", "char", "short", "long",
              "float", "double", "void", "bool", "struct", "enum", "size_t"}


class Decl:
    def __init__(self, name, ret, params, level, conds, where):
        self.name, self.ret, self.params = name, ret, params
        self.level, self.conds, self.where = level, conds, where

    def signature(self):
        return "%s %s(%s)" % (self.ret, self.name, ", ".join(self.params))


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


# Our headers spell the numeric types through C-compatible typedefs that are
# the header-only types themselves in C++ (c10:: is an alias of them).
TYPEDEFS = {
    "AOTITorchHalf": "c10::Half",
    "AOTITorchBFloat16": "c10::BFloat16",
    "AOTITorchComplex64": "c10::complex<float>",
    "AOTITorchComplex128": "c10::complex<double>",
}


def norm_type(t):
    t = re.sub(r"\s+", " ", t.strip())
    for alias, real in TYPEDEFS.items():
        t = re.sub(r"\b%s\b" % alias, real, t)
    t = re.sub(r"\s*\*\s*", "*", t)
    t = re.sub(r"\s*&\s*", "&", t)
    return t


def norm_param(p):
    p = p.strip()
    if "(*" in p:  # function pointer: drop the name inside (*name)
        return norm_type(re.sub(r"\(\s*\*\s*\w*\s*\)", "(*)", p))
    p = re.sub(r"\[\s*\d*\s*\]$", "*", p)  # T name[] -> T*
    tokens = norm_type(p).replace("*", "* ").split()
    if len(tokens) > 1 and re.match(r"^[A-Za-z_]\w*$", tokens[-1]) and tokens[-1] not in C_KEYWORDS:
        tokens = tokens[:-1]
    return norm_type(" ".join(tokens))


def parse_header(path, label):
    decls = []
    text = strip_comments(open(path, encoding="utf-8").read())
    stack = []  # (kind, value): ("level", "2.10"), ("cond", "USE_CUDA"), ("skip", None)
    stmt, stmt_line = "", 0
    for lineno, line in enumerate(text.split("\n"), 1):
        s = line.strip()
        if s.startswith("#"):
            m = VERSION_IF.match(s)
            if m:
                stack.append(("level", "%s.%s" % (m.group(1), m.group(2))))
            elif re.match(r"^#\s*ifndef\s+\w+_H\w*$|^#\s*ifndef\s+\w*SHIM\w*$", s) or \
                    re.match(r"^#\s*ifdef\s+__cplusplus", s):
                stack.append(("skip", None))
            elif re.match(r"^#\s*if", s):
                stack.append(("cond", re.sub(r"^#\s*(ifdef|ifndef|if)\s*", lambda m: {
                    "ifdef": "", "ifndef": "!", "if": ""}[m.group(1)], s)))
            elif re.match(r"^#\s*else", s) and stack:
                kind, value = stack.pop()
                stack.append(("cond", "not(%s)" % value) if kind != "skip" else (kind, value))
            elif re.match(r"^#\s*endif", s) and stack:
                stack.pop()
            continue
        if not stmt:
            stmt_line = lineno
        stmt += " " + s
        if ";" not in s and "{" not in s:
            continue
        body, stmt = stmt, ""
        if "AOTI_TORCH_EXPORT" not in body or "(" not in body:
            continue
        body = body.split("{")[0].split(";")[0].split("}")[-1]
        body = re.sub(r"\[\[.*?\]\]", "", body)  # [[deprecated(...)]]
        body = re.sub(r"\bAOTI_TORCH_EXPORT\b", "", body)
        open_at = body.index("(")
        head = body[:open_at].strip()
        m = re.match(r"^(.*?)([A-Za-z_]\w*)$", head)
        if not m:
            continue
        ret, name = norm_type(m.group(1)), m.group(2)
        if not re.match(r"^(aoti_|torch_|stabletorch_)", name):
            continue
        close = body.rindex(")")
        params = [norm_param(p) for p in abi_lib.split_top_level(body[open_at + 1:close])]
        if params in ([], ["void"]):
            params = ["void"]
        level = "2.9"
        conds = []
        for kind, value in stack:
            if kind == "level":
                level = value
            elif kind == "cond":
                conds.append(value)
        decls.append(Decl(name, ret, params, level, conds,
                          "%s:%d (%s)" % (os.path.basename(path), stmt_line, label)))
    return decls


def collect(paths, label):
    out = {}
    for p in paths:
        for d in parse_header(p, label):
            out.setdefault(d.name, d)
    return out


LEVELS_HEADER = [
    "The stable-ABI level of every C function PyTorch 2.15's extension headers",
    "declare (torch/csrc/inductor/aoti_torch/c/shim.h, .../generated/c_shim_aten.h,",
    "torch/csrc/stable/c/shim.h), whether or not this runtime exports it: the",
    "loader names the level of an import it lacks from here. Generated by",
    "abi_checks/check_declarations.py --write-levels; the conformance stage's",
    "declaration check (--levels) fails when it differs from PyTorch's headers.",
]


def level_key(level):
    major, minor = level.split(".")
    return int(major) * 1000 + int(minor)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pytorch-include", required=True, help="torch/include of the wheel")
    p.add_argument("--ours", required=True, help="our C header root (c_api/include)")
    p.add_argument("--reviewed", help="reviewed differences (regex  # reason)")
    p.add_argument("--levels", help="c_api/pytorch_function_levels.txt to check")
    p.add_argument("--write-levels", help="regenerate that file and exit")
    args = p.parse_args()

    theirs_paths = [os.path.join(args.pytorch_include, h) for h in PYTORCH_HEADERS]
    missing_headers = [h for h in theirs_paths if not os.path.isfile(h)]
    if missing_headers:
        print("missing PyTorch headers: " + ", ".join(missing_headers))
        return 2
    ours_paths = []
    for root, _, files in os.walk(args.ours):
        ours_paths += [os.path.join(root, f) for f in sorted(files) if f.endswith(".h")]
    theirs = collect(theirs_paths, "PyTorch")
    extension = collect([os.path.join(args.pytorch_include, h) for h in EXTENSION_HEADERS],
                        "PyTorch")
    levels = {n: abi_lib.Level("TORCH_VERSION_%s_0" % d.level.replace(".", "_"))
              for n, d in extension.items()}
    if args.write_levels:
        abi_lib.write_symbol_levels(args.write_levels, levels, LEVELS_HEADER)
        print("wrote %d functions to %s" % (len(levels), args.write_levels))
        return 0
    levels_stale = 0
    if args.levels:
        listed = abi_lib.read_symbol_levels(args.levels)
        for n in sorted(set(listed) | set(levels)):
            want = levels[n].name if n in levels else None
            got = listed[n].name if n in listed else None
            if want != got:
                levels_stale += 1
                print("LEVELS %s: PyTorch's headers say %s, %s says %s" % (
                    n, want or "nothing", os.path.basename(args.levels), got or "nothing"))
        print("%s: %d functions, %d differ from PyTorch's headers (regenerate with "
              "--write-levels)" % (args.levels, len(listed), levels_stale))
    ours = collect(ours_paths, "ours")
    reviewed = abi_lib.read_reviewed(args.reviewed)

    unreviewed = 0
    print("C declarations: PyTorch %d, ours %d" % (len(theirs), len(ours)))
    for level in LEVELS:
        names = sorted(n for n, d in theirs.items() if d.level == level)
        diffs = []
        for n in names:
            t = theirs[n]
            o = ours.get(n)
            if o is None:
                diffs.append((n, "missing (PyTorch: %s%s)" % (
                    t.where, "; when " + " and ".join(t.conds) if t.conds else "")))
            elif (t.ret, t.params) != (o.ret, o.params):
                diffs.append((n, "signature differs: PyTorch %s; ours %s" % (t.signature(),
                                                                            o.signature())))
            elif t.level != o.level:
                diffs.append((n, "level differs: PyTorch %s, ours %s" % (t.level, o.level)))
        shown = []
        for n, what in diffs:
            hit = next((r for r in reviewed if r[0].match(n)), None)
            if hit:
                hit[3] += 1
                shown.append("    reviewed  %s: %s [%s]" % (n, what, hit[2]))
            else:
                unreviewed += 1
                shown.append("    DIFFERS   %s: %s" % (n, what))
        print("level %-5s %3d functions, %3d equal, %3d reviewed, %3d differ" % (
            level, len(names), len(names) - len(diffs), len(diffs) - sum(
                1 for x in shown if x.startswith("    DIFFERS")),
            sum(1 for x in shown if x.startswith("    DIFFERS"))))
        for line in shown:
            print(line)
    for n in sorted(n for n in ours if n not in theirs and not n.startswith("stabletorch_")):
        hit = next((r for r in reviewed if r[0].match(n)), None)
        if hit:
            hit[3] += 1
            print("    reviewed  %s: ours only (%s) [%s]" % (n, ours[n].where, hit[2]))
        else:
            unreviewed += 1
            print("    DIFFERS   %s: ours only (%s)" % (n, ours[n].where))
    stale = [r for r in reviewed if r[3] == 0]
    for r in stale:
        print("STALE reviewed entry %r matches no difference: remove it" % r[1])
    print("%d unreviewed differences, %d stale reviewed entries" % (unreviewed, len(stale)))
    return 1 if unreviewed or stale or levels_stale else 0


if __name__ == "__main__":
    sys.exit(main())
