#!/usr/bin/env python3
"""Checks 6 and 7: what a plugin imports (`nm -D --undefined-only`).

Always (check 7, import audit): every undefined dynamic symbol is either a
C-ABI function (aoti_torch_*, torch_*, stabletorch_*) or comes from the
C/C++ runtime (a GLIBC_/GLIBCXX_/CXXABI_/GCC_ versioned symbol, the
toolchain's weak hooks, sanitizer runtimes and, in a sanitized build, the
unversioned interceptors of the sanitizer runtime the plugin links).
Anything else, in particular the core's C++ API (st::...), is named and
fails: such a plugin would break on the next core.

With --golden and --target-level (check 6): every C-ABI import existed in
that release at that level: its golden list says it was exported and the
level that introduced it is <= the target.

With --require-all and --target-level (coverage of the compatibility
plugin): every function of that level listed in the file is imported,
except those in --not-covered (lines `symbol  # reason`).

With --exported-by LIBRARY (portability both ways): every C-ABI import
whose prefix --checked-prefix names (default: all three) is exported by the
library: a plugin built with our SDK and no stabletorch addition imports
nothing PyTorch's libtorch_cpu.so lacks (--checked-prefix aoti_torch_
--checked-prefix torch_), and one built with PyTorch's headers nothing
libstabletorch lacks.
"""

import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abi_lib  # noqa: E402

RUNTIME_VERSION = re.compile(r"^(GLIBC|GLIBCXX|CXXABI|GCC|LIBGCC)_")
WEAK_HOOKS = {"__gmon_start__", "_ITM_deregisterTMCloneTable",
              "_ITM_registerTMCloneTable", "__cxa_finalize", "_Jv_RegisterClasses"}
SANITIZER_PREFIXES = ("__asan_", "__ubsan_", "__tsan_", "__lsan_", "__sanitizer_",
                      "__interceptor_", "__msan_")


def read_not_covered(path):
    result = {}
    if not path:
        return result
    with open(path, encoding="utf-8") as f:
        for raw in f:
            body, _, reason = raw.partition("#")
            body = body.strip()
            if body:
                result[body] = reason.strip()
    return result


def read_release_gaps(path):
    """{(release, symbol): reason} from 'RELEASE: SYMBOL  # reason' lines."""
    gaps = {}
    if not path:
        return gaps
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            entry, _, reason = line.partition("#")
            release, _, sym = entry.partition(":")
            if not sym.strip() or not reason.strip():
                raise abi_lib.CheckError("%s:%d: expected 'RELEASE: SYMBOL  # reason'" % (path, n))
            gaps[(release.strip(), sym.strip())] = reason.strip()
    return gaps


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--plugin", required=True, help="the plugin shared object")
    p.add_argument("--target-level", help="TORCH_TARGET_VERSION the plugin was built for "
                                          "(2.9, 2.9.0 or 0x0209000000000000)")
    p.add_argument("--golden", action="append", default=[],
                   help="golden list of a release whose core must run the plugin (repeatable)")
    p.add_argument("--require-all", metavar="SYMBOL_LEVELS",
                   help="versions file or golden list: every function of the target level must be imported")
    p.add_argument("--not-covered", help="symbols exempt from --require-all, one per line with a # reason")
    p.add_argument("--release-gaps", help="functions a release's claimed level lacked: "
                   "'RELEASE: SYMBOL  # reason' per line; importing one is a note, not a failure")
    p.add_argument("--exported-by", metavar="LIBRARY",
                   help="a runtime library that must export every checked C-ABI import")
    p.add_argument("--checked-prefix", action="append", default=[],
                   help="with --exported-by: the C-ABI prefixes checked (repeatable)")
    p.add_argument("--allow-prefix", action="append", default=[],
                   help="extra allowed import prefix (repeatable)")
    args = p.parse_args()
    if (args.golden or args.require_all) and not args.target_level:
        p.error("--golden and --require-all need --target-level")

    name = os.path.basename(args.plugin)
    imports = abi_lib.undefined_symbols(args.plugin)
    sanitizer = abi_lib.sanitizer_runtime_symbols(args.plugin)
    problems = []
    c_abi = set()
    foreign = []
    for kind, sym, ver in imports:
        if sym.startswith(abi_lib.C_ABI_PREFIXES) and not RUNTIME_VERSION.match(ver):
            c_abi.add(sym)
        elif ver and RUNTIME_VERSION.match(ver):
            continue
        elif sym in WEAK_HOOKS or sym.startswith(SANITIZER_PREFIXES):
            continue
        elif not ver and sym in sanitizer:  # an interceptor of a sanitized build
            continue
        elif any(sym.startswith(a) for a in args.allow_prefix):
            continue
        else:
            foreign.append((sym, ver))
    names = abi_lib.demangle(s for s, _ in foreign)
    for sym, ver in sorted(foreign):
        shown = sym if names[sym] == sym else "%s (%s)" % (sym, names[sym])
        problems.append("%s imports %s%s, which is neither a C-ABI function nor from the "
                        "C/C++ runtime; a plugin may only use libstabletorch's C functions"
                        % (name, shown, "@" + ver if ver else ""))

    target = abi_lib.parse_version_triple(args.target_level) if args.target_level else None
    target_txt = "%d.%d.%d" % target if target else ""
    gaps = read_release_gaps(args.release_gaps)
    notes = []
    for golden_path in args.golden:
        release = os.path.basename(os.path.dirname(os.path.abspath(golden_path)))
        golden = abi_lib.read_symbol_levels(golden_path)
        allowed = abi_lib.symbols_available_at(golden, target)
        for sym in sorted(c_abi - allowed):
            if (release, sym) in gaps:
                notes.append("note: %s imports %s, which release %s lacked although it claimed "
                             "the level (%s): this plugin needs a newer core"
                             % (name, sym, release, gaps[(release, sym)]))
            elif sym in golden:
                problems.append("%s (target %s) imports %s, introduced at %s: release %s "
                                "cores at level %s lack it" % (name, target_txt, sym,
                                                               golden[sym].name, release, target_txt))
            else:
                problems.append("%s (target %s) imports %s, which release %s never exported"
                                % (name, target_txt, sym, release))

    if args.require_all:
        levels = abi_lib.read_symbol_levels(args.require_all)
        exempt = read_not_covered(args.not_covered)
        wanted = abi_lib.symbols_available_at(levels, target)
        for sym in sorted(wanted - c_abi - set(exempt)):
            problems.append("%s does not call %s (%s): the compatibility plugin must cover "
                            "every C-ABI function of level %s"
                            % (name, sym, levels[sym].name, target_txt))

    if args.exported_by:
        exported = abi_lib.exported_functions(args.exported_by)
        prefixes = tuple(args.checked_prefix) or abi_lib.C_ABI_PREFIXES
        lib = os.path.basename(args.exported_by)
        missing = sorted(s for s in c_abi if s.startswith(prefixes) and s not in exported)
        for sym in missing:
            problems.append("%s imports %s, which %s does not export: it cannot run there"
                            % (name, sym, lib))
        if not missing:
            notes.append("%s: its %d C-ABI imports with prefix %s are all exported by %s" % (
                name, sum(1 for s in c_abi if s.startswith(prefixes)), "/".join(prefixes), lib))

    for n in notes:
        print(n)
    if problems:
        return abi_lib.fail(problems, "imports of %s" % args.plugin)
    print("OK: %s imports %d C-ABI functions%s and nothing from the core's C++ API"
          % (name, len(c_abi), (", all available at %s in %s" % (
              target_txt, ", ".join(args.golden))) if args.golden else ""))
    return 0


if __name__ == "__main__":
    abi_lib.main_wrapper(main)
