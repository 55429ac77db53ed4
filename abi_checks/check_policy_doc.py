#!/usr/bin/env python3
"""Check 8: the ABI policy document exists, covers what it must, and does
not go stale.

Required: a section (Markdown heading) for each topic below, every
repository path it names in backticks (`abi_checks/...`, `c_api/...`,
`docs/...`, `tools/...`) exists, and the stable-ABI level it states for
each release matches that release's abi_level.txt.
"""

import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abi_lib  # noqa: E402

REQUIRED_SECTIONS = [
    ("minor release", r"minor"),
    ("major release", r"major"),
    ("version numbering", r"number"),
    ("support period", r"support"),
    ("adding a function", r"add(ing)? a (new )?function"),
    ("refreshing baselines", r"baseline"),
]
PATH_RE = re.compile(r"`((?:abi_checks|c_api|docs|tools|headeronly|stable|cmake)/[^`\s<>*]+)`")
RELEASE_LEVEL_RE = re.compile(r"\|\s*(\d+\.\d+\.\d+)\s*\|\s*(\d+\.\d+(?:\.\d+)?)\s*\|")


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--doc", required=True, help="docs/abi_policy.md")
    p.add_argument("--repo", required=True, help="repository root, for path references")
    p.add_argument("--baselines", help="abi_checks/baselines, to cross-check stated levels")
    args = p.parse_args()
    if not os.path.isfile(args.doc):
        return abi_lib.fail(["%s does not exist" % args.doc], "ABI policy document")
    with open(args.doc, encoding="utf-8") as f:
        text = f.read()
    headings = [l.lstrip("#").strip().lower() for l in text.splitlines() if l.startswith("#")]
    problems = []
    for topic, pattern in REQUIRED_SECTIONS:
        if not any(re.search(pattern, h) for h in headings):
            problems.append("no section about %s (a heading matching %r)" % (topic, pattern))
    for ref in sorted(set(PATH_RE.findall(text))):
        path = ref.rstrip("/.,:")
        if not os.path.exists(os.path.join(args.repo, path)):
            problems.append("refers to `%s`, which does not exist" % path)
    if args.baselines:
        stated = dict(RELEASE_LEVEL_RE.findall(text))
        for triple, d in abi_lib.baseline_dirs(args.baselines):
            release = "%d.%d.%d" % triple
            level_path = os.path.join(d, "abi_level.txt")
            if not os.path.isfile(level_path):
                continue
            with open(level_path, encoding="utf-8") as f:
                actual = abi_lib.parse_version_triple(f.read())
            if release not in stated:
                problems.append("release %s (baselines/%s) is missing from the release table "
                                "(`| %s | %d.%d |`)" % ((release, release, release) + actual[:2]))
            elif abi_lib.parse_version_triple(stated[release]) != actual:
                problems.append("states level %s for release %s, but its abi_level.txt says "
                                "%d.%d.%d" % ((stated[release], release) + actual))
    if problems:
        return abi_lib.fail(problems, "ABI policy document %s" % args.doc)
    print("OK: %s covers every required topic and its references resolve" % args.doc)
    return 0


if __name__ == "__main__":
    abi_lib.main_wrapper(main)
