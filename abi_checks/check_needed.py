#!/usr/bin/env python3
"""Check 4: what a binary links (its ELF DT_NEEDED list).

  --forbid REGEX   no NEEDED entry may match (e.g. 'stabletorch': a target
                   using only headeronly links no stabletorch library).
  --allow REGEX    every NEEDED entry must match an --allow pattern or be a
                   C/C++ runtime library (libc, libm, libstdc++, libgcc_s,
                   the dynamic loader, libpthread/libdl/librt, sanitizer
                   runtimes). E.g. '^libstabletorch\\.so' for a plugin.
  --require REGEX  some NEEDED entry must match (e.g. the plugin does link
                   libstabletorch, so the positive case is not vacuous).

Failures name the offending library.
"""

import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abi_lib  # noqa: E402

RUNTIME = re.compile(
    r"^(libc|libm|libstdc\+\+|libgcc_s|libpthread|libdl|librt|libatomic|"
    r"libasan|libubsan|libtsan|liblsan|ld-linux[-\w]*)\.so(\.[\w.]+)?$")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--binary", required=True, help="ELF executable or shared object")
    p.add_argument("--forbid", action="append", default=[], help="regex (repeatable)")
    p.add_argument("--allow", action="append", default=[], help="regex (repeatable)")
    p.add_argument("--require", action="append", default=[], help="regex (repeatable)")
    args = p.parse_args()

    needed = abi_lib.needed_libraries(args.binary)
    name = os.path.basename(args.binary)
    problems = []
    for lib in needed:
        for pattern in args.forbid:
            if re.search(pattern, lib):
                problems.append("%s NEEDs %s, which matches forbidden pattern %r"
                                % (name, lib, pattern))
        if args.allow and not RUNTIME.match(lib) and \
                not any(re.search(a, lib) for a in args.allow):
            problems.append("%s NEEDs %s, which is neither allowed (%s) nor a C/C++ "
                            "runtime library" % (name, lib, ", ".join(args.allow)))
    for pattern in args.require:
        if not any(re.search(pattern, lib) for lib in needed):
            problems.append("%s NEEDs nothing matching %r" % (name, pattern))
    if problems:
        problems.append("NEEDED list: %s" % (", ".join(needed) or "(empty)"))
        return abi_lib.fail(problems, "link dependencies of %s" % args.binary)
    print("OK: %s NEEDs %s" % (name, ", ".join(needed) or "nothing"))
    return 0


if __name__ == "__main__":
    abi_lib.main_wrapper(main)
