#!/usr/bin/env python3
"""Check 6 (negative compile tests): runs one compiler command and asserts
the outcome.

  compile_probe.py --expect fail --message 'torch_call_dispatcher' -- c++ -fsyntax-only ...
  compile_probe.py --expect pass -- c++ -fsyntax-only ...   (the positive control)

With --expect fail, the diagnostics must also match every --message regex,
so that a probe failing for an unrelated reason (a typo, a missing include)
is reported rather than counted as a pass.
"""

import argparse
import os
import re
import subprocess
import sys


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--expect", choices=["pass", "fail"], required=True)
    p.add_argument("--message", action="append", default=[],
                   help="regex the diagnostics must match when failing (repeatable)")
    p.add_argument("--what", default="", help="what the probe demonstrates, for messages")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- compiler command")
    args = p.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not cmd:
        p.error("missing compiler command after --")

    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    out = proc.stdout
    what = args.what or " ".join(os.path.basename(c) for c in cmd[-1:])
    if args.expect == "pass":
        if proc.returncode != 0:
            sys.stderr.write("FAILED: positive control did not compile (%s):\n%s\n%s\n"
                             % (what, " ".join(cmd), out))
            return 1
        print("OK: compiles (%s)" % what)
        return 0
    if proc.returncode == 0:
        sys.stderr.write("FAILED: expected a compile error (%s) but it compiled:\n%s\n"
                         % (what, " ".join(cmd)))
        return 1
    missing = [m for m in args.message if not re.search(m, out)]
    if missing:
        sys.stderr.write("FAILED: compile error, but not the expected one (%s): the "
                         "diagnostics do not match %s:\n%s\n"
                         % (what, ", ".join(repr(m) for m in missing), out))
        return 1
    print("OK: fails to compile as expected (%s)" % what)
    first = [l for l in out.splitlines() if "error" in l][:1]
    for l in first:
        print("  " + l)
    return 0


if __name__ == "__main__":
    sys.exit(main())
