#!/usr/bin/env python3
"""The conformance stage's judge: runs the plugin matrix and the generated
operator cases through conformance_driver on PyTorch's runtime (the
oracle) and on stabletorch's, compares, and prints the matrix, the
operator cases per family and a closing "N passed, N failed" line.

Exit status 0 when: the oracle cell runs; every other cell either loads
and agrees with the oracle or is listed in expected_unloadable.txt; every
operator case agrees with the oracle, is a reviewed divergence
(known_divergences.txt) or a listed open bug (open_bugs.txt); and no entry
of those lists is stale (a listed cell that now loads, a listed case that
now agrees): the lists stay honest.
"""

import argparse
import collections
import fnmatch
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import compare  # noqa: E402
from driver_run import run_driver, runtime_env  # noqa: E402

CELLS = [
    # (cell name, plugin flavour, runtime)
    ("pytorch-headers/pytorch-runtime", "pytorch", "pytorch"),
    ("pytorch-headers/stabletorch-runtime", "pytorch", "stabletorch"),
    ("stabletorch-headers/pytorch-runtime", "stabletorch", "pytorch"),
    ("stabletorch-headers/stabletorch-runtime", "stabletorch", "stabletorch"),
    ("stabletorch-headers-unlinked/pytorch-runtime", "stabletorch-unlinked", "pytorch"),
    ("stabletorch-headers-unlinked/stabletorch-runtime", "stabletorch-unlinked", "stabletorch"),
]
ORACLE = CELLS[0][0]


class ReviewedList:
    """A reviewed list: one entry a line, "<pattern> | <reason>"; '#'
    starts a comment. Patterns use shell wildcards."""

    def __init__(self, path):
        self.path = path
        self.entries = []  # [pattern, reason, used]
        if os.path.exists(path):
            with open(path) as f:
                for line in f:
                    line = line.strip()
                    if not line or line.startswith("#"):
                        continue
                    pattern, _, reason = line.partition(" | ")
                    self.entries.append([pattern.strip(), reason.strip(), False])

    def match(self, subject):
        for entry in self.entries:
            if fnmatch.fnmatchcase(subject, entry[0]):
                entry[2] = True
                return entry[1]
        return None

    def stale(self):
        return [e[0] for e in self.entries if not e[2]]


def dynamic_symbols(path, defined):
    """The C-ABI names (aoti_*, torch_*, stabletorch_*) a shared object
    exports (defined) or imports, read with nm."""
    flag = "--defined-only" if defined else "--undefined-only"
    try:
        out = subprocess.run(["nm", "-D", flag, path], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return set()
    names = {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}
    return {n for n in names if n.startswith(("aoti_", "torch_", "stabletorch_"))}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--driver", required=True)
    p.add_argument("--pytorch-lib", required=True)
    p.add_argument("--stabletorch-lib", required=True)
    p.add_argument("--plugin-pytorch", required=True)
    p.add_argument("--plugin-stabletorch", required=True)
    p.add_argument("--plugin-stabletorch-unlinked", required=True)
    p.add_argument("--plugin-cases", required=True)
    p.add_argument("--op-cases", required=True, help="folder with op_cases.txt and op_cases.json")
    p.add_argument("--lists", required=True, help="folder with the reviewed lists")
    p.add_argument("--out", required=True)
    p.add_argument("--summary-md", help="also write the matrix and families as Markdown here")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    log = os.path.join(args.out, "driver_stderr.log")
    if os.path.exists(log):
        os.remove(log)

    runtimes = {
        "pytorch": (args.pytorch_lib, runtime_env()),
        "stabletorch": (args.stabletorch_lib, runtime_env()),
    }
    plugins = {"pytorch": args.plugin_pytorch, "stabletorch": args.plugin_stabletorch,
               "stabletorch-unlinked": args.plugin_stabletorch_unlinked}
    unloadable = ReviewedList(os.path.join(args.lists, "expected_unloadable.txt"))
    divergences = ReviewedList(os.path.join(args.lists, "known_divergences.txt"))
    open_bugs = ReviewedList(os.path.join(args.lists, "open_bugs.txt"))
    problems = []  # what makes the stage fail
    passed = open_count = unloadable_count = divergence_count = 0
    report = []  # every difference, for build/.../report.txt

    # ---- the plugin matrix -------------------------------------------------
    # Every plugin case runs through both entries: torch_call_dispatcher,
    # and aoti_torch_call_dispatcher for the copy whose id ends in "@aoti".
    plugin_cases = os.path.join(args.out, "plugin_cases.txt")
    with open(args.plugin_cases) as src, open(plugin_cases, "w") as dst:
        lines = [l.rstrip("\n") for l in src if l.strip() and not l.startswith("#")]
        for line in lines:
            dst.write(line + "\n")
        for line in lines:
            case_id, _, rest = line.partition("\t")
            dst.write(case_id + "@aoti\t" + rest + "\n")
    runs = {}
    for cell, flavour, runtime in CELLS:
        lib, env = runtimes[runtime]
        runs[cell] = run_driver(args.driver, lib, [plugins[flavour]], plugin_cases, env, log_path=log)
    oracle = runs[ORACLE]
    if oracle.load_error:
        print("conformance: the oracle cell (%s) does not run: %s" % (ORACLE, oracle.load_error))
        print("0 passed, 1 failed")
        return 1
    broken = {k: v for k, v in oracle.results.items() if v.split("\t")[0] in ("SETUP", "CRASH", "HANG")}
    for k, v in broken.items():
        problems.append("oracle cannot run plugin case %s: %s" % (k, v))

    matrix_rows = []
    for cell, _, _ in CELLS:
        run = runs[cell]
        listed = unloadable.match(cell)
        if run.load_error:
            status = "cannot load: " + run.load_error
            if listed is None:
                problems.append("%s: %s (not in expected_unloadable.txt)" % (cell, run.load_error))
            else:
                unloadable_count += 1
            matrix_rows.append((cell, status, "expected (reviewed)" if listed else "UNEXPECTED"))
            continue
        if listed is not None:
            problems.append("%s now loads: remove it from conformance/expected_unloadable.txt" % cell)
        ok = bugs = 0
        for case_id, expected in oracle.results.items():
            got = run.results.get(case_id, "MISSING\tno result")
            diff = compare(expected, got)
            subject = "%s %s" % (cell, case_id)
            if diff is None:
                ok += 1
                continue
            report.append("%s: %s" % (subject, diff))
            if divergences.match(subject):
                ok += 1
                divergence_count += 1
            elif open_bugs.match(subject) is not None:
                bugs += 1
            else:
                problems.append("%s: %s" % (subject, diff))
        total = len(oracle.results)
        if cell != ORACLE:  # the oracle agrees with itself: it only has to run
            passed += ok
        open_count += bugs
        matrix_rows.append((cell, "%d/%d cases agree with the oracle" % (ok, total),
                            "ok" if ok == total else "differs: %d open bugs, %d unexpected" % (bugs, total - ok - bugs)))

    # ---- the operator cases ------------------------------------------------
    with open(os.path.join(args.op_cases, "op_cases.json")) as f:
        meta = json.load(f)
    cases_path = os.path.join(args.op_cases, "op_cases.txt")
    pt = run_driver(args.driver, runtimes["pytorch"][0], [], cases_path, runtimes["pytorch"][1], log_path=log)
    st = run_driver(args.driver, runtimes["stabletorch"][0], [], cases_path, runtimes["stabletorch"][1], log_path=log)
    if pt.load_error or st.load_error:
        problems.append("operator cases: a runtime did not load: %s" % (pt.load_error or st.load_error))
    families = collections.OrderedDict()
    skipped_ops = dict(meta["skipped"])
    unknown_to_pytorch = set()
    for case_id, info in meta["cases"].items():
        expected = pt.results.get(case_id, "MISSING")
        if expected.startswith("ERR\tCould not find schema"):
            unknown_to_pytorch.add(info["op"])
            continue
        if expected.split("\t")[0] in ("SETUP", "CRASH", "HANG", "MISSING"):
            problems.append("oracle cannot run %s: %s" % (case_id, expected))
            continue
        fam = families.setdefault(info["family"], [0, 0, 0, 0])  # passed, total, divergences, open bugs
        fam[1] += 1
        got = st.results.get(case_id, "MISSING\tno result")
        diff = compare(expected, got, info["values"])
        if diff is None:
            fam[0] += 1
            passed += 1
            continue
        report.append("%s: %s" % (case_id, diff))
        if divergences.match(case_id):
            fam[0] += 1
            fam[2] += 1
            passed += 1
            divergence_count += 1
        elif open_bugs.match(case_id) is not None:
            fam[3] += 1
            open_count += 1
        else:
            problems.append("%s: %s" % (case_id, diff))
    for op in sorted(unknown_to_pytorch):
        skipped_ops[op] = "not registered in PyTorch 2.15"

    for lst in (divergences, open_bugs):
        for pattern in lst.stale():
            problems.append("%s: '%s' no longer differs: remove it" % (os.path.basename(lst.path), pattern))

    # ---- the report -----------------------------------------------------------
    lines = ["Plugin matrix (conformance_ops built with {PyTorch's headers, stabletorch's SDK, "
             "stabletorch's headers without linking libstabletorch} x {PyTorch, stabletorch} "
             "runtime; oracle: %s)" % ORACLE]
    width = max(len(r[0]) for r in matrix_rows)
    for cell, status, verdict in matrix_rows:
        lines.append("  %-*s  %s  [%s]" % (width, cell, status, verdict))
    # What each plugin imports that the other runtime does not export: why
    # a cell cannot load, all at once (the loader names only the first).
    lines.append("  plugin imports missing from the other runtime:")
    for flavour, runtime in (("pytorch", "stabletorch"), ("stabletorch", "pytorch"),
                             ("stabletorch-unlinked", "pytorch")):
        lib = args.pytorch_lib if runtime == "pytorch" else args.stabletorch_lib
        missing = sorted(dynamic_symbols(plugins[flavour], False) - dynamic_symbols(lib, True))
        lines.append("    %s-built plugin on %s: %s" % (flavour, runtime, ", ".join(missing) if missing else "none"))
    lines.append("")
    lines.append("Operator cases (stabletorch runtime vs PyTorch runtime), per family:")
    for fam, (ok, total, div, bugs) in families.items():
        extra = []
        if div:
            extra.append("%d reviewed divergences" % div)
        if bugs:
            extra.append("%d open bugs" % bugs)
        lines.append("  %-16s %5d/%-5d passed%s" % (fam, ok, total, ("  (" + ", ".join(extra) + ")") if extra else ""))
    ops_run = {meta["cases"][c]["op"] for c in meta["cases"]} - unknown_to_pytorch
    lines.append("  operators compared: %d; skipped: %d (list: %s)"
                 % (len(ops_run), len(skipped_ops), os.path.join(args.out, "skipped_ops.txt")))
    print("\n".join(lines))
    with open(os.path.join(args.out, "skipped_ops.txt"), "w") as f:
        for op, reason in sorted(skipped_ops.items()):
            f.write("%s | %s\n" % (op, reason))
    with open(os.path.join(args.out, "report.txt"), "w") as f:
        f.write("\n".join(report) + "\n")
    if args.summary_md:
        with open(args.summary_md, "w") as f:
            f.write("| cell | result |\n|---|---|\n")
            for cell, status, verdict in matrix_rows:
                f.write("| %s | %s (%s) |\n" % (cell, status, verdict))
            f.write("\n| family | passed/total | reviewed divergences | open bugs |\n|---|---|---|---|\n")
            for fam, (ok, total, div, bugs) in families.items():
                f.write("| %s | %d/%d | %d | %d |\n" % (fam, ok, total, div, bugs))
    print("differences: %d, every one in %s" % (len(report), os.path.join(args.out, "report.txt")))
    print("known and listed: %d open stabletorch bugs (conformance/open_bugs.txt), %d reviewed "
          "divergences (conformance/known_divergences.txt), %d cells that cannot load yet "
          "(conformance/expected_unloadable.txt)" % (open_count, divergence_count, unloadable_count))
    # The differences no list covers, as list entries ready to review: each
    # goes to open_bugs.txt, or with a reason to known_divergences.txt.
    unlisted = [p for p in problems if p.startswith(("aten::", "pytorch-headers/", "stabletorch-headers/"))
                and "expected_unloadable" not in p and "now loads" not in p]
    with open(os.path.join(args.out, "unlisted.txt"), "w") as f:
        for line in unlisted:
            subject, _, diff = line.partition(": ")
            f.write("%s | %s\n" % (subject, diff[:140]))
    if problems:
        print("\nconformance: %d problem(s) (differences no list covers, as list entries: %s):"
              % (len(problems), os.path.join(args.out, "unlisted.txt")))
        for line in problems[:60]:
            print("  " + line)
        if len(problems) > 60:
            print("  ... and %d more (see %s)" % (len(problems) - 60, os.path.join(args.out, "report.txt")))
    # "failed" counts what fails the stage: differences and load failures
    # no reviewed list covers, and stale list entries.
    print("%d passed, %d failed" % (passed, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
