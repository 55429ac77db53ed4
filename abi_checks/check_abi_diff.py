#!/usr/bin/env python3
"""Check 2: binary-interface diff of a freshly built C-ABI library against a
committed libabigail baseline (abidw output of the last release).

Pure additions pass (abidiff --no-added-syms). Any other reported change
fails and abidiff's report is printed: a removed function, a changed
parameter or return type, a changed struct layout, a changed enumerator.
Intentional, reviewed exceptions go in a libabigail suppression file
(--suppressions, default abi_checks/abidiff.suppr when it exists).

Also dumps a baseline (--dump), which refresh_baseline.sh uses.
"""

import argparse
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abi_lib  # noqa: E402

# abidiff's exit status is a bit field (libabigail's abidiff manual).
ABIDIFF_ERROR = 1
ABIDIFF_USAGE_ERROR = 2
ABIDIFF_ABI_CHANGE = 4
ABIDIFF_ABI_INCOMPATIBLE_CHANGE = 8

HINT = "(Debian: apt-get install abigail-tools; tools/setup_debian.sh does it)"


def has_debug_info(library):
    abi_lib.require_tool("readelf", " (binutils)")
    out = abi_lib.run(["readelf", "-S", "-W", library]).stdout
    return ".debug_info" in out


def dump(library, headers_dirs, out_file):
    abidw = abi_lib.require_tool("abidw", " " + HINT)
    if not has_debug_info(library):
        raise abi_lib.CheckError(
            "%s carries no DWARF (.debug_info); abidw needs it. Compile the C-ABI "
            "library with -g (target_compile_options(stabletorch_c PRIVATE -g))." % library)
    cmd = [abidw]
    for d in headers_dirs:
        cmd += ["--headers-dir", d]
    # --exported-interfaces-only: only types reachable from exported
    # functions, so toolchain-internal types (libstdc++) stay out of the dump.
    cmd += ["--exported-interfaces-only", "--drop-private-types", "--no-corpus-path",
            "--no-comp-dir-path", "--short-locs", "--out-file", out_file, library]
    abi_lib.run(cmd)


def diff(baseline, library, headers_dirs, suppressions):
    """Dumps library exactly as the baseline was dumped (same public-header
    filter, short locations), then compares the two ABI corpora. Comparing
    two dumps, not a dump and a binary, keeps the result independent of the
    checkout path the baseline was generated in."""
    abidiff = abi_lib.require_tool("abidiff", " " + HINT)
    if not os.path.isfile(baseline):
        raise abi_lib.CheckError("%s: no such baseline" % baseline)
    if not os.path.isfile(library):
        raise abi_lib.CheckError("%s: no such library" % library)
    with tempfile.TemporaryDirectory(prefix="abi_diff_") as tmp:
        current = os.path.join(tmp, os.path.basename(library) + ".abi")
        dump(library, headers_dirs, current)
        cmd = [abidiff, "--no-added-syms"]
        for s in suppressions:
            cmd += ["--suppressions", s]
        cmd += [baseline, current]
        proc = abi_lib.run(cmd, check=False)
    return proc.returncode, proc.stdout + proc.stderr, cmd


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--library", required=True, help="the freshly built libstabletorch.so")
    p.add_argument("--baseline", help="the committed .abi (abidw output) to compare against")
    p.add_argument("--headers-dir", action="append", default=[],
                   help="public header directory; types declared elsewhere are "
                        "private (repeatable)")
    p.add_argument("--suppressions", action="append", default=[],
                   help="libabigail suppression file for reviewed exceptions (repeatable)")
    p.add_argument("--dump", metavar="OUT", help="write the abidw baseline of --library to OUT")
    args = p.parse_args()

    if args.dump:
        dump(args.library, args.headers_dir, args.dump)
        print("wrote %s" % args.dump)
        return 0
    if not args.baseline:
        p.error("--baseline is required unless --dump is given")

    status, report, cmd = diff(args.baseline, args.library, args.headers_dir,
                               [s for s in args.suppressions if os.path.isfile(s)])
    if status & (ABIDIFF_ERROR | ABIDIFF_USAGE_ERROR):
        raise abi_lib.CheckError("abidiff could not compare (status %d): %s\n%s"
                                 % (status, " ".join(cmd), report))
    if status & (ABIDIFF_ABI_CHANGE | ABIDIFF_ABI_INCOMPATIBLE_CHANGE):
        kind = ("INCOMPATIBLE change (removed symbols)"
                if status & ABIDIFF_ABI_INCOMPATIBLE_CHANGE else "ABI change")
        sys.stderr.write("FAILED: %s of %s against %s\n" % (kind, args.library, args.baseline))
        sys.stderr.write("Only additions are allowed within a major version; see "
                         "docs/abi_policy.md. abidiff's report:\n\n")
        sys.stderr.write(report)
        return 1
    print("OK: %s is ABI-compatible with %s (additions only)" % (args.library, args.baseline))
    for line in report.splitlines():
        if "summary" in line:
            print("  " + line.strip())
    return 0


if __name__ == "__main__":
    abi_lib.main_wrapper(main)
