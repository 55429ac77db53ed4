#!/usr/bin/env python3
"""Check 1: the C-ABI library exports exactly the versions file, and every
release's golden list is still exported (exports only ever grow).

Failures name the symbol: "removed since 0.1.0: aoti_torch_get_dim".
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import abi_lib  # noqa: E402


def check(library, versions_path, baselines_root, extra_goldens, current_level=None):
    problems = []
    exported = abi_lib.exported_functions(library)
    versions = abi_lib.read_symbol_levels(versions_path)

    # Only the C ABI may leave the library.
    foreign = sorted(s for s in exported if not s.startswith(abi_lib.C_ABI_PREFIXES))
    names = abi_lib.demangle(foreign)
    for s in foreign:
        shown = s if names[s] == s else "%s (%s)" % (s, names[s])
        problems.append("exports a symbol outside the C ABI (aoti_torch_*, torch_*, "
                        "stabletorch_*): %s" % shown)

    # Exports == versions file.
    for s in sorted(exported - set(versions)):
        if s.startswith(abi_lib.C_ABI_PREFIXES):
            problems.append("exported but missing from %s: %s (add `%s: <LEVEL>`)"
                            % (os.path.basename(versions_path), s, s))
    for s in sorted(set(versions) - exported):
        problems.append("listed in %s (%s) but not exported: %s"
                        % (os.path.basename(versions_path), versions[s].name, s))

    # Goldens of every release: still exported, level unchanged, only grow.
    goldens = []
    for triple, d in abi_lib.baseline_dirs(baselines_root) if baselines_root else []:
        path = os.path.join(d, "exported_symbols.txt")
        if not os.path.isfile(path):
            problems.append("baseline %s has no exported_symbols.txt" % d)
            continue
        level_path = os.path.join(d, "abi_level.txt")
        if not os.path.isfile(level_path):
            problems.append("baseline %s has no abi_level.txt (the stable-ABI level "
                            "the release claims)" % d)
            level = None
        else:
            with open(level_path, encoding="utf-8") as f:
                level = abi_lib.parse_version_triple(f.read())
        goldens.append(("%d.%d.%d" % triple, path, level))
    for path in extra_goldens:
        goldens.append((os.path.basename(os.path.dirname(os.path.abspath(path))), path, None))

    previous = None
    for release, path, level in goldens:
        golden = abi_lib.read_symbol_levels(path)
        for s in sorted(golden):
            if s not in exported:
                problems.append("removed since %s: %s (introduced at %s; an exported "
                                "function may never be removed or renamed within a "
                                "major version)" % (release, s, golden[s].name))
            elif s in versions and versions[s].name != golden[s].name:
                problems.append("level of %s changed since %s: %s -> %s (the level a "
                                "function was introduced at is frozen)"
                                % (s, release, golden[s].name, versions[s].name))
        if previous is not None:
            prev_release, prev_golden, prev_level = previous
            for s in sorted(set(prev_golden) - set(golden)):
                problems.append("golden list of %s dropped %s, which %s exported "
                                "(golden lists may only grow)" % (release, s, prev_release))
            if prev_level and level and level < prev_level:
                problems.append("abi_level of %s (%d.%d.%d) is lower than that of %s "
                                "(%d.%d.%d): a release never lowers its level"
                                % ((release,) + level + (prev_release,) + prev_level))
        previous = (release, golden, level)
        if current_level and level and current_level < level:
            problems.append("the headers claim level %d.%d.%d (TORCH_ABI_VERSION) but release %s "
                            "claimed %d.%d.%d: a level is never lowered"
                            % (current_level + (release,) + level))
    return problems, exported, versions, [g[0] for g in goldens]


def write_golden(library, versions_path, out_dir, abi_level):
    exported = abi_lib.exported_functions(library)
    versions = abi_lib.read_symbol_levels(versions_path)
    missing = sorted(s for s in exported if s not in versions)
    if missing:
        raise abi_lib.CheckError("cannot write a golden list: exported symbols without a "
                                 "level in the versions file: %s" % ", ".join(missing))
    os.makedirs(out_dir, exist_ok=True)
    golden = {s: versions[s] for s in exported}
    release = os.path.basename(os.path.abspath(out_dir))
    abi_lib.write_symbol_levels(
        os.path.join(out_dir, "exported_symbols.txt"), golden,
        ["Golden list of stabletorch %s: every C-ABI function libstabletorch exported" % release,
         "when the release was cut, with the level that introduced it. Generated by",
         "abi_checks/refresh_baseline.sh; never edit by hand, never remove a line."])
    triple = abi_lib.parse_version_triple(abi_level)
    with open(os.path.join(out_dir, "abi_level.txt"), "w", encoding="utf-8") as f:
        f.write("%d.%d.%d\n" % triple)
    return len(golden)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--library", required=True, help="path to libstabletorch.so")
    p.add_argument("--versions", required=True, help="c_api/shim_function_versions.txt")
    p.add_argument("--baselines", help="abi_checks/baselines (every <release>/ in it is checked)")
    p.add_argument("--golden", action="append", default=[],
                   help="an extra golden list to check (repeatable)")
    p.add_argument("--current-level", help="TORCH_ABI_VERSION of today's headers, e.g. 2.10; "
                                           "must not be below any release's abi_level")
    p.add_argument("--write-golden", metavar="DIR",
                   help="instead of checking, write DIR/exported_symbols.txt and abi_level.txt")
    p.add_argument("--abi-level", help="with --write-golden: the level the release claims, e.g. 2.10.0")
    args = p.parse_args()

    if args.write_golden:
        if not args.abi_level:
            p.error("--write-golden needs --abi-level")
        n = write_golden(args.library, args.versions, args.write_golden, args.abi_level)
        print("wrote %d symbols to %s" % (n, args.write_golden))
        return 0

    problems, exported, versions, releases = check(
        args.library, args.versions, args.baselines, args.golden,
        abi_lib.parse_version_triple(args.current_level) if args.current_level else None)
    if problems:
        return abi_lib.fail(problems, "exported symbols of %s" % args.library)
    print("OK: %d exported C-ABI functions == %s; goldens still exported: %s"
          % (len(exported), os.path.basename(args.versions), ", ".join(releases) or "(none yet)"))
    return 0


if __name__ == "__main__":
    abi_lib.main_wrapper(main)
