#!/usr/bin/env python3
"""Check 10, C++ half: the headers, macros and C++ declarations of PyTorch's
`torch/headeronly/**` and `torch/csrc/stable/**`, level by level.

For each target level 2.9 ... 2.15 it compiles, with clang, one translation
unit that includes every public header of PyTorch's two trees (from the
torch wheel the conformance stage downloads), once against PyTorch's
include root and once against ours (the same header paths), with
TORCH_TARGET_VERSION set to the level, and reports:
  - headers PyTorch has and we do not (every level; the trees are ungated);
  - macros a PyTorch header defines and ours do not (from `clang -E -dD`,
    attributing each #define to the header it is written in; names starting
    with "_" are internal and not compared);
  - C++ entities (functions, methods, constructors, classes, enums and
    their values, aliases, variables, templates) of PyTorch's `torch::` and
    `c10::` namespaces that we lack, and functions whose every overload
    differs from ours in signature.
Entities are read from clang's JSON AST (`-ast-dump=json`, filtered to the
two namespaces), so templates, overloads and default arguments are seen as
the compiler sees them.

Rules of the comparison (what counts as "the same"):
  - c10:: and torch::headeronly:: are one namespace (PyTorch defines in c10
    and re-exports into torch::headeronly, we do the reverse); a name
    provided by a using-declaration counts as present.
  - Types are compared after removing namespace qualifiers, `struct`/
    `class`, `noexcept`, top-level `const` of by-value parameters and
    spaces, so `const c10::Half &` equals `const torch::headeronly::Half&`.
  - Special members (copy/move constructors and assignments, destructors)
    are not compared: ours are often implicit where PyTorch spells them out,
    which is the same for every caller.
  - Names in a `detail` or `impl::detail` namespace, and anything whose
    name starts with "_", are implementation and not compared.
  - Our levels above the SDK's claimed level (TORCH_ABI_VERSION) are
    checked through a copy of our version.h that claims 2.15, so that every
    gated block we have is visible (only for this check).
Not covered (documented limits): declarations PyTorch adds to `std::` or
the global namespace (std::numeric_limits specialisations, the <cmath>
overloads of BFloat16-math.h, CUDA's gpuAtomic*), device-only code (the
CUDA headers are compiled as host C++), and behaviour.

A difference listed in the reviewed file (one regex per line, matched
against "<kind> <name>", e.g. "header torch/csrc/stable/pyobject.h" or
"function torch::stable::Tensor::has_storage", then "# reason") is reported
as reviewed and does not fail the check; a reviewed entry that matches no
difference at any level fails it, so the file only lists real gaps.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import abi_lib  # noqa: E402
from abi_lib import split_top_level  # noqa: E402

LEVELS = ["2.9", "2.10", "2.11", "2.12", "2.13", "2.14", "2.15"]
# The public trees, relative to an include root. torch/csrc/stable/c is C
# (check_declarations.py compares it).
TREES = ["torch/headeronly", "torch/csrc/stable"]
C_SUBTREE = "torch/csrc/stable/c/"
# Headers that only compile under nvcc or on Windows: their presence is
# checked, their contents are not.
NOT_COMPILED = re.compile(r"^torch/headeronly/(cuda/|util/win32-headers\.h)")
# Namespaces whose declarations are compared; c10 is read as
# torch::headeronly.
NAMESPACE_FILTERS = ["torch::", "c10::"]
FUNCTION_KINDS = {"FunctionDecl", "CXXMethodDecl", "CXXConstructorDecl",
                  "CXXConversionDecl"}
SPECIAL_KINDS = {"CXXDestructorDecl"}
TYPE_KINDS = {"CXXRecordDecl": "class", "ClassTemplateDecl": "class",
              "EnumDecl": "enum", "TypeAliasDecl": "alias",
              "TypedefDecl": "alias", "TypeAliasTemplateDecl": "alias",
              "ClassTemplatePartialSpecializationDecl": None,
              "ClassTemplateSpecializationDecl": None}


def level_literal(level):
    major, minor = (int(x) for x in level.split("."))
    return "0x%02X%02X000000000000" % (major, minor)


def level_key(level):
    major, minor = level.split(".")
    return int(major) * 1000 + int(minor)


# ---- headers ---------------------------------------------------------------------

def tree_headers(root):
    """Header paths (relative to the include root) of the public trees."""
    out = set()
    for tree in TREES:
        base = os.path.join(root, tree)
        for dirpath, _, files in os.walk(base):
            for f in files:
                if f.endswith(".h"):
                    rel = os.path.relpath(os.path.join(dirpath, f), root)
                    out.add(rel.replace(os.sep, "/"))
    return out


def find_header(roots, rel):
    for r in roots:
        if os.path.isfile(os.path.join(r, rel)):
            return True
    return False


# ---- compiling ---------------------------------------------------------------------

def translation_unit(headers):
    lines = ["// generated by check_cxx_declarations.py"]
    lines += ["#include <%s>" % h for h in sorted(headers)]
    return "\n".join(lines) + "\n"


def clang_cmd(clang, includes, level, extra):
    cmd = [clang, "-x", "c++", "-std=c++17", "-fsyntax-only", "-w",
           "-DTORCH_TARGET_VERSION=%sULL" % level_literal(level)]
    for inc in includes:
        cmd += ["-I", inc]
    return cmd + extra


def run_clang(cmd, tu_path):
    proc = subprocess.run(cmd + [tu_path], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True)
    return proc.returncode, proc.stdout, proc.stderr


def json_objects(text):
    """The JSON values clang prints one after another (-ast-dump-filter)."""
    decoder = json.JSONDecoder()
    pos, n = 0, len(text)
    while pos < n:
        while pos < n and text[pos] in " \t\r\n":
            pos += 1
        if pos >= n:
            break
        obj, pos = decoder.raw_decode(text, pos)
        yield obj


# ---- entities ----------------------------------------------------------------------

QUALIFIER = re.compile(r"(?<![\w:])(?:::)?(?:[A-Za-z_]\w*(?:<[^<>]*>)?::)+")


# Spellings of the same builtin type on LP64 Linux.
TYPEDEFS = [("uint8_t", "unsigned char"), ("int8_t", "signed char"),
            ("uint16_t", "unsigned short"), ("int16_t", "short"),
            ("uint32_t", "unsigned int"), ("int32_t", "int"),
            ("uint64_t", "unsigned long"), ("int64_t", "long"),
            ("size_t", "unsigned long"), ("ptrdiff_t", "long")]


def norm_type(t):
    t = t.replace("c10::", "torch::headeronly::")
    for alias, real in TYPEDEFS:
        t = re.sub(r"(?<![\w:])(?:std::)?%s\b" % alias, real, t)
    t = QUALIFIER.sub("", t)
    t = re.sub(r"\b(struct|class|enum|typename)\s+", "", t)
    t = re.sub(r"\s*noexcept(\([^)]*\))?", "", t)
    t = re.sub(r"__attribute__\(\(.*?\)\)", "", t)
    t = re.sub(r"\s+", " ", t).strip()
    t = re.sub(r"\s*([*&,()<>])\s*", r"\1", t)
    return t


def norm_signature(qual_type):
    """Function type "R (A, B) const" -> "R(A,B) const", with top-level
    const of by-value parameters dropped (not part of the signature)."""
    t = norm_type(qual_type)
    m = re.match(r"^(.*?)\((.*)\)(.*)$", t)
    if not m:
        return t
    ret, params, tail = m.groups()
    parts = []
    for p in split_top_level(params, opens="([<{", closes=")]>}"):
        if not re.search(r"[*&]", p):
            p = re.sub(r"^const\s+|\s+const$", "", p)
        parts.append(p)
    return "%s(%s)%s" % (ret, ",".join(parts), tail)


def arity(sig):
    m = re.match(r"^(?:template )?.*?\((.*)\)[^()]*$", sig)
    if not m:
        return -1
    params = split_top_level(m.group(1), opens="([<{", closes=")]>}")
    return 0 if params in ([], ["void"]) else len(params)


def template_accepts(sig, ours):
    """A function template of ours with as many parameters may accept the
    calls PyTorch's overload accepts (the numeric types' operators are
    templates here, concrete overloads there); the tests check the
    behaviour."""
    n = arity(sig)
    return any(o.startswith("template ") and arity(o) == n for o in ours)


# Names in a detail namespace that extensions use directly: the library
# object STABLE_TORCH_LIBRARY hands them (m.def, m.impl, ...) and the
# StableIValue conversions.
PUBLIC_DETAIL = re.compile(r"^torch::stable::detail::(StableLibrary|from|to)(::|$)")


def internal(qualname):
    if PUBLIC_DETAIL.match(qualname):
        return False
    parts = qualname.split("::")
    return any(p == "detail" or p.startswith("_") or p == "" for p in parts)


class Entities:
    def __init__(self):
        # name -> {"kinds": set, "sigs": set}; the name is normalised
        # (c10:: read as torch::headeronly::).
        self.names = {}

    def add(self, kind, name, sig=None):
        e = self.names.setdefault(name, {"kinds": set(), "sigs": set()})
        e["kinds"].add(kind)
        if sig is not None:
            e["sigs"].add(sig)


def norm_name(prefix, name):
    name = re.sub(r"<.*>$", "", name) if not name.startswith("operator") else name
    q = "%s::%s" % (prefix, name) if prefix else name
    if q == "c10" or q.startswith("c10::"):
        q = "torch::headeronly" + q[3:]
    return q


MEMBER_KINDS = {"CXXMethodDecl", "CXXConstructorDecl", "CXXDestructorDecl",
                "CXXConversionDecl"}


def walk(node, prefix, ents, root_dirs, special_names, in_record=False):
    kind = node.get("kind")
    if node.get("isImplicit"):
        return
    # Out-of-line definitions of members (tensor_inl.h) sit in the
    # namespace: the in-class declaration is the one that counts.
    if not in_record:
        if kind in MEMBER_KINDS:
            return
        if kind == "FunctionTemplateDecl" and any(
                c.get("kind") in MEMBER_KINDS for c in node.get("inner", [])):
            return
    name = node.get("name", "")
    if kind == "NamespaceDecl":
        q = norm_name(prefix, name) if name else prefix
        for child in node.get("inner", []):
            walk(child, q, ents, root_dirs, special_names)
        return
    if kind == "LinkageSpecDecl":
        for child in node.get("inner", []):
            walk(child, prefix, ents, root_dirs, special_names)
        return
    if kind in ("UsingDecl",):
        # "name": "torch::headeronly::ScalarType" (the target); the using
        # provides its last component in this namespace.
        target = node.get("name", "")
        short = target.split("::")[-1]
        ents.add("using", norm_name(prefix, short))
        return
    if kind == "UsingDirectiveDecl" or kind == "UsingShadowDecl":
        return
    if not name:
        return
    q = norm_name(prefix, name)
    if kind in FUNCTION_KINDS or kind in SPECIAL_KINDS or kind == "FunctionTemplateDecl":
        target = node
        if kind == "FunctionTemplateDecl":
            # Our compile-error stubs (an API used below the level that
            # introduced it) are templates on StableGate_: not an API.
            if any(c.get("kind") == "TemplateTypeParmDecl" and c.get("name") == "StableGate_"
                   for c in node.get("inner", [])):
                return
            inner = [c for c in node.get("inner", []) if c.get("kind") in FUNCTION_KINDS]
            if not inner:
                return
            target = inner[0]
        tkind = target.get("kind")
        sig = norm_signature(target.get("type", {}).get("qualType", ""))
        if tkind in SPECIAL_KINDS or (tkind == "CXXMethodDecl" and name == "operator=") or \
                (tkind == "CXXConstructorDecl" and re.search(
                    r"\((const )?%s(&|&&)\)" % re.escape(name), sig)):
            special_names.add(q)
            return
        ents.add("function", q, ("template " if kind == "FunctionTemplateDecl" else "") + sig)
        return
    if kind in TYPE_KINDS:
        label = TYPE_KINDS[kind]
        if label is None:
            return
        ents.add(label, q)
        record = node
        if kind == "ClassTemplateDecl":
            inner = [c for c in node.get("inner", []) if c.get("kind") == "CXXRecordDecl"]
            record = inner[0] if inner else {}
        # Only public members are API: a class starts private, a struct
        # public; access specifiers switch.
        access = "private" if record.get("tagUsed") == "class" else "public"
        for child in record.get("inner", []):
            if child.get("kind") == "AccessSpecDecl":
                access = child.get("access", access)
                continue
            if access == "public":
                walk(child, q, ents, root_dirs, special_names, in_record=True)
        return
    if kind == "EnumConstantDecl":
        ents.add("enumerator", q)
        return
    if kind in ("VarDecl", "FieldDecl", "VarTemplateDecl"):
        ents.add("variable", q)
        return


DUMPING = re.compile(r"^Dumping (.*):$", re.M)


def collect_entities(clang, includes, level, tu_path, filters):
    """Entities of the namespaces in `filters`. clang prints each top-level
    match of -ast-dump-filter (a substring of the qualified name) as one
    JSON value without its qualified name; the text dump of the same filter
    names them in the same order ("Dumping <name>:"), which tells a member
    of namespace c10 from e.g. std::numeric_limits<c10::Half>::digits."""
    ents = Entities()
    specials = set()
    errors = []
    for flt in filters:
        base = ["-Xclang", "-ast-dump-filter=" + flt]
        rc, out, err = run_clang(clang_cmd(clang, includes, level,
                                           ["-Xclang", "-ast-dump=json"] + base), tu_path)
        if rc != 0:
            errors.append(err.strip()[-4000:])
            continue
        rc2, text, err2 = run_clang(clang_cmd(clang, includes, level,
                                              ["-Xclang", "-ast-dump"] + base), tu_path)
        if rc2 != 0:
            errors.append(err2.strip()[-4000:])
            continue
        names = DUMPING.findall(text)
        objs = list(json_objects(out))
        if len(names) != len(objs):
            errors.append("clang's text and JSON dumps disagree (%d vs %d decls)"
                          % (len(names), len(objs)))
            continue
        ns = flt[:-2]
        for qualname, obj in zip(names, objs):
            # Only declarations of the namespace itself; the filter also
            # matches names that merely mention it.
            if not qualname.startswith(flt):
                continue
            prefix = qualname.rsplit("::", 1)[0] if obj.get("name") else qualname
            if prefix != ns and not prefix.startswith(ns + "::"):
                continue
            walk(obj, prefix, ents, includes, specials)
    return ents, errors


# ---- macros ----------------------------------------------------------------------

LINE_MARKER = re.compile(r'^#\s+\d+\s+"([^"]+)"')
DEFINE = re.compile(r"^#define\s+([A-Za-z_]\w*)")
UNDEF = re.compile(r"^#undef\s+([A-Za-z_]\w*)")
INCLUDE_GUARD = re.compile(r"_H_?$")


def collect_macros(clang, includes, level, tu_path):
    """{header relative path: set(macro names)} for headers under the roots."""
    cmd = clang_cmd(clang, includes, level, ["-E", "-dD"])
    rc, out, err = run_clang(cmd, tu_path)
    if rc != 0:
        return None, err.strip()[-4000:]
    roots = [os.path.realpath(r) + os.sep for r in includes]
    current = None
    macros = {}
    for line in out.split("\n"):
        m = LINE_MARKER.match(line)
        if m:
            path = os.path.realpath(m.group(1))
            current = None
            for r in roots:
                if path.startswith(r):
                    current = path[len(r):].replace(os.sep, "/")
            continue
        m = UNDEF.match(line)
        if m:
            for names in macros.values():
                names.discard(m.group(1))
            continue
        m = DEFINE.match(line)
        if m and current and not INCLUDE_GUARD.search(m.group(1)):
            macros.setdefault(current, set()).add(m.group(1))
    return macros, None


# ---- reviewed list ---------------------------------------------------------------

def shadow_version_dir(ours_headeronly, tmp):
    """A copy of our version.h that claims 2.15, in an include dir that goes
    first, so every gated block of ours is visible at every level."""
    src = os.path.join(ours_headeronly, "torch", "headeronly", "version.h")
    text = open(src, encoding="utf-8").read()
    claimed = re.search(r"#define TORCH_VERSION_MINOR (\d+)", text)
    claimed_minor = int(claimed.group(1)) if claimed else 0
    top = int(LEVELS[-1].split(".")[1])
    if claimed_minor >= top:
        return None, claimed_minor
    text = re.sub(r"#define TORCH_VERSION_MINOR \d+", "#define TORCH_VERSION_MINOR %d" % top, text)
    text = re.sub(r'#define TORCH_VERSION "[^"]*"', '#define TORCH_VERSION "2.%d.0"' % top, text)
    d = os.path.join(tmp, "shadow")
    os.makedirs(os.path.join(d, "torch", "headeronly"))
    with open(os.path.join(d, "torch", "headeronly", "version.h"), "w") as f:
        f.write(text)
    return d, claimed_minor


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pytorch-include", required=True, help="torch/include of the wheel")
    p.add_argument("--ours", action="append", required=True,
                   help="one of our include roots (headeronly/include, stable/include, "
                        "c_api/include, ...); repeat")
    p.add_argument("--reviewed", help="reviewed differences (regex  # reason)")
    p.add_argument("--header-list", help="tests/headeronly/pytorch_headeronly_headers.txt: "
                   "must list exactly the wheel's torch/headeronly headers")
    p.add_argument("--clang", default=shutil.which("clang++") or "clang++")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--levels", default=",".join(LEVELS))
    args = p.parse_args()

    if not shutil.which(args.clang) and not os.path.isfile(args.clang):
        print("clang++ is needed for the C++ declaration check (not found: %s)" % args.clang)
        return 2
    theirs_root = args.pytorch_include
    if not os.path.isdir(os.path.join(theirs_root, "torch", "csrc", "stable")):
        print("not a PyTorch include root: %s" % theirs_root)
        return 2
    levels = args.levels.split(",")
    reviewed = abi_lib.read_reviewed(args.reviewed)
    diffs = {lv: [] for lv in levels}   # level -> [(key, text)]
    common = []                         # ungated: headers, header list

    # Headers.
    theirs_headers = tree_headers(theirs_root)
    ours_roots = [os.path.abspath(r) for r in args.ours]
    present = {h for h in theirs_headers if find_header(ours_roots, h)}
    for h in sorted(theirs_headers - present):
        common.append(("header %s" % h, "missing header %s" % h))
    if args.header_list:
        listed = set()
        for raw in open(args.header_list, encoding="utf-8"):
            line = raw.strip()
            m = re.match(r"^#\s*(torch/\S+\.h)$", line)
            if m:
                listed.add(m.group(1))  # commented out while it is being added
            elif line and not line.startswith("#"):
                listed.add(line)
        wheel = {h for h in theirs_headers if h.startswith("torch/headeronly/")}
        for h in sorted(wheel - listed):
            common.append(("header-list %s" % h, "%s: not in %s" % (h, args.header_list)))
        for h in sorted(listed - wheel):
            common.append(("header-list %s" % h, "%s: listed but not in the wheel" % h))

    def compiled(headers):
        return sorted(h for h in headers if not NOT_COMPILED.match(h)
                      and not h.startswith(C_SUBTREE))
    tmp = tempfile.mkdtemp(prefix="cxx_decls_")
    try:
        # PyTorch's side includes all its headers, ours those we have: the
        # entities of a missing header are reported too.
        tus = {}
        for side, headers in (("theirs", theirs_headers), ("ours", present)):
            tus[side] = os.path.join(tmp, "%s.cpp" % side)
            with open(tus[side], "w") as f:
                f.write(translation_unit(compiled(headers)))
        shadow, claimed_minor = shadow_version_dir(ours_roots[0], tmp)
        ours_includes = ([shadow] if shadow else []) + ours_roots
        theirs_includes = [theirs_root]

        jobs = []
        for lv in levels:
            jobs.append((lv, "theirs", theirs_includes))
            jobs.append((lv, "ours", ours_includes))

        # torch/headeronly has no version gates, so c10:: is read at the
        # first level only; torch:: (which holds torch::stable) at each.
        def work(job):
            lv, side, includes = job
            filters = NAMESPACE_FILTERS if lv == levels[0] else ["torch::"]
            ents, errs = collect_entities(args.clang, includes, lv, tus[side], filters)
            macros, merr = collect_macros(args.clang, includes, lv, tus[side])
            return job, ents, errs + ([merr] if merr else []), macros

        results = {}
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            for job, ents, errs, macros in pool.map(work, jobs):
                results[(job[0], job[1])] = (ents, errs, macros)
        for side in ("theirs", "ours"):
            first = results[(levels[0], side)][0]
            c10_names = {n: e for n, e in first.names.items()
                         if n.startswith("torch::headeronly")}
            for lv in levels[1:]:
                ents = results[(lv, side)][0]
                for n, e in c10_names.items():
                    mine = ents.names.setdefault(n, {"kinds": set(), "sigs": set()})
                    mine["kinds"] |= e["kinds"]
                    mine["sigs"] |= e["sigs"]

        failures = 0
        for lv in levels:
            t_ents, t_errs, t_macros = results[(lv, "theirs")]
            o_ents, o_errs, o_macros = results[(lv, "ours")]
            if t_errs:
                print("level %s: PyTorch's headers did not compile:\n%s" % (lv, "\n".join(t_errs)))
                failures += 1
                continue
            if o_errs:
                diffs[lv].append(("compile ours", "our headers do not compile at this level: %s"
                                  % o_errs[0].splitlines()[0] if o_errs[0] else ""))
                continue
            # Macros, per header, that ours (anywhere in the same header set) lack.
            our_all = set()
            for names in (o_macros or {}).values():
                our_all |= names
            for header, names in sorted((t_macros or {}).items()):
                if header not in present:
                    continue  # reported as a missing header
                for m in sorted(names):
                    if m.startswith("_") or m in our_all:
                        continue
                    diffs[lv].append(("macro %s" % m, "macro %s (PyTorch: %s)" % (m, header)))
            # Entities.
            for name, e in sorted(t_ents.names.items()):
                if internal(name):
                    continue
                mine = o_ents.names.get(name)
                kinds = sorted(e["kinds"] - {"using"}) or ["using"]
                kind = kinds[0]
                if mine is None:
                    diffs[lv].append(("%s %s" % (kind, name), "missing %s %s%s" % (
                        kind, name, (": " + " | ".join(sorted(e["sigs"]))) if e["sigs"] else "")))
                    continue
                if kind == "function" and mine["sigs"]:
                    missing = sorted(s for s in e["sigs"]
                                     if s not in mine["sigs"] and not template_accepts(s, mine["sigs"]))
                    for s in missing:
                        diffs[lv].append(("function %s" % name,
                                          "signature differs: %s PyTorch %s; ours %s" % (
                                              name, s, " | ".join(sorted(mine["sigs"])))))

        # Report.
        unreviewed = 0

        def show(key, text):
            nonlocal unreviewed
            hit = next((r for r in reviewed if r[0].match(key)), None)
            if hit:
                hit[3] += 1
                return "    reviewed  %s [%s]" % (text, hit[2])
            unreviewed += 1
            return "    DIFFERS   %s" % text

        if shadow:
            print("our SDK claims level 2.%d; levels above are read through a version.h "
                  "claiming 2.15 (this check only)" % claimed_minor)
        print("headers: PyTorch %d (torch/headeronly, torch/csrc/stable), ours have %d of them"
              % (len(theirs_headers), len(present)))
        lines = [show(k, t) for k, t in common]
        print("all levels: %d differences" % len(common))
        for line in lines:
            print(line)
        seen = set()
        for lv in levels:
            # A difference shown at a lower level is not repeated above it.
            fresh = [(k, t) for k, t in diffs[lv] if t not in seen]
            seen |= {t for _, t in diffs[lv]}
            lines = [show(k, t) for k, t in fresh]
            n_rev = sum(1 for x in lines if x.startswith("    reviewed"))
            print("level %-5s %3d new differences, %3d reviewed, %3d differ" % (
                lv, len(fresh), n_rev, len(fresh) - n_rev))
            for line in lines:
                print(line)
        stale = [r for r in reviewed if r[3] == 0]
        for r in stale:
            print("STALE reviewed entry %r matches no difference: remove it" % r[1])
        print("%d unreviewed differences, %d stale reviewed entries" % (unreviewed, len(stale)))
        return 1 if unreviewed or stale or failures else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
