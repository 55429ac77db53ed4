#!/usr/bin/env python3
"""The per-operator sweep: times every operator both runtimes register, at 1,
1K and 1M elements, through the same C-ABI call (aoti_torch_call_dispatcher)
in PyTorch 2.15 and in stabletorch, and prints stabletorch's time over
PyTorch's per operator and size. A benchmark, not a test: it fails only when
the sweep itself breaks (a driver that does not start, or nothing timed).

  sweep.py --driver BIN --pytorch-lib SO --stabletorch-lib SO --yaml YAML
           [--ops REGEX] [--sizes 1,1K,1M] [--reps N] [--target-ms MS]
           [--passes K] [--out DIR]
  sweep.py ... --probes metadata,empty1,boxed_noop

--probes times, instead of operators, the C-ABI calls a plugin makes
around its kernels (the driver's PROBE command: metadata reads, empty({1}),
a boxed no-op kernel called through call_dispatcher; load:<path> loads
and unloads a plugin as each runtime's host does) with the same interleaving, and prints one line per probe.

The cases come from gen_cases.py (its schema parsing and CaseBuilder), with
the sweep's own scenarios (SWEEP_SCENARIOS) instead of the conformance ones.

Interleaving: one driver process per runtime (--bench), both started at
once; the controller alternates them call by call (each sample of one is
followed by a sample of the other, the order flipping every round), so both
see the same machine load. Two processes, not both runtimes in one: they
export the same C names, and both carry C++ symbols that the dynamic linker
unifies process-wide (STB_GNU_UNIQUE template statics, libstdc++ and libgomp
state) even under RTLD_LOCAL, so one runtime could end up running the
other's code or sharing its state; the conformance stage keeps them apart
for the same reason. A process waiting for its next command is idle.

CPU: both drivers are pinned to the same CPU (--cpu, by default the last
one this process may use), and the controller keeps off it when it has
another. The two vCPUs of the machine the sweep was tuned on ran one
in-place loop over 4 MiB at 50 and at 71-77 us for minutes at a time, one
vCPU each; unpinned, each driver stays on the CPU it started on, so one
runtime could be timed on the slower CPU all along.

Threads: both runtimes run on one thread (OMP_NUM_THREADS=1 and MKL_NUM_THREADS=1
for PyTorch, STABLETORCH_NUM_THREADS=1 for stabletorch, OMP_NUM_THREADS=1 for
oneDNN under it); each driver reports torch_get_num_threads and the sweep
stops if either is not 1.

Per case: both drivers make the inputs and call once (PREP); one call each
calibrates the number of calls per sample (enough for --target-ms on the
faster runtime, the same count for both); then --reps rounds of one sample
each; the figure is the best sample of each runtime, the ratio
stabletorch / PyTorch.

Passes (--passes K): the whole list of cases is timed K times, one pass
after the other, so that a row's K timings lie minutes apart rather than
milliseconds. A burst of load from another process that lasts a few
seconds can slow one runtime's samples of a memory-bound row in one pass;
it rarely does so in most passes. Each row reports the pass with the median
ratio (for even K the higher of the two middle ones), with that pass's two
times, so every figure in a row comes from one interleaved measurement.
Every row gets the same rule, whatever its ratio. sweep.passes.tsv keeps
every pass's figures.
"""

import argparse
import math
import os
import re
import select
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_cases  # noqa: E402
import schema as schema_mod  # noqa: E402

# Elements of the first tensor argument, and the shape that gives them.
SIZES = {"1": [1], "1K": [32, 32], "1M": [1024, 1024]}

# Per size: (label, dtype, layout, others, trailing, dim) in gen_cases'
# scenario terms. "strided" is gen_cases' layout of every other element
# with an offset; "broadcast" gives every tensor after the first only the
# trailing dims. trailing: None for the size's shape, or the last dims of
# the input, its first dim taking the rest of the size's elements, for the
# operators with a dim argument (whose cases reduce or scan over dim -1):
# (64,) gives rows far shorter than the 1M shape's 1024, where a per-row
# cost shows; (1024, 64) a 3-d input. dim: None for the case's own dim
# (-1), or the dim an operator with a dim argument is given instead: 0
# reduces, scans or joins over the outer dim, whose elements are a row
# apart (sum(dim=0), softmax(dim=0), ...), a walk of its own in the
# engines; 1 of a 3-d input, a middle dim, has outputs on both sides.
SHORT_ROW = 64
SWEEP_SCENARIOS = [
    ("f32", "f32", "contiguous", "same", None, None),
    ("i64", "i64", "contiguous", "same", None, None),
    ("f32 strided", "f32", "strided", "same", None, None),
    ("f32 bcast", "f32", "contiguous", "broadcast", None, None),
    ("f32 rows of %d" % SHORT_ROW, "f32", "contiguous", "same", (SHORT_ROW,), None),
    ("f32 over dim 0", "f32", "contiguous", "same", None, 0),
    ("f32 3-d over dim 1", "f32", "contiguous", "same", (1024, SHORT_ROW), 1),
]


def scenario_shape(size, scenario):
    """The first tensor's shape in a scenario at `size`."""
    trailing = scenario[4]
    if trailing is None:
        return list(SIZES[size])
    return [math.prod(SIZES[size]) // math.prod(trailing)] + list(trailing)


def scenario_applies(size, scenario, schema=None):
    """Whether a sweep scenario is timed at `size` (for `schema`, if given)."""
    _, _, layout, others, trailing, dim = scenario
    if size == "1":
        # no layout to vary, no dim to choose
        return layout == "contiguous" and others == "same" and trailing is None and dim is None
    if trailing is not None and math.prod(SIZES[size]) < 2 * math.prod(trailing):
        return False
    if trailing is not None or dim is not None:
        return schema is None or any(a.name == "dim" for a in schema.args)
    return True


def scaled_templates(size):
    """gen_cases.SHAPE_TEMPLATES (linear algebra) scaled to `size` elements
    in the first tensor."""
    n = math.prod(SIZES[size])
    s = max(1, int(round(math.sqrt(n))))
    b, t = {"1": (1, 1), "1K": (4, 16), "1M": (16, 256)}[size]
    return {
        "mm": [[s, s], [s, s]],
        "matmul": [[s, s], [s, s]],
        "bmm": [[b, t, t], [b, t, t]],
        "mv": [[s, s], [s]],
        "dot": [[n], [n]],
    }


def tensor_inputs(s):
    """Tensor arguments that are inputs (not out= tensors)."""
    return [a for a in s.args if a.type.startswith("Tensor") and not (a.mutable and a.kwarg_only)]


def scenario_chosen(label, scenarios_regex):
    """Whether --scenarios (a regex over the labels; empty: every one) takes `label`."""
    return not scenarios_regex or re.fullmatch(scenarios_regex, label) is not None


def sweep_cases(yaml_path, ops_regex, sizes, scenarios_regex=""):
    """(row id, operator, scenario label, case line) for every schema the
    conformance cases can build, in the sweep's scenarios (those whose label
    scenarios_regex matches, if given)."""
    pattern = re.compile(ops_regex) if ops_regex else None
    cases = []
    for s in schema_mod.read_native_functions(yaml_path):
        if gen_cases.unsupported_reason(s):
            continue
        if pattern and not pattern.fullmatch(s.full_name):
            continue
        # Broadcasting needs a second input tensor; the linear-algebra
        # templates fix every shape.
        can_broadcast = len(tensor_inputs(s)) >= 2 and s.name not in gen_cases.SHAPE_TEMPLATES
        for size in sizes:
            for scenario_spec in SWEEP_SCENARIOS:
                label, dtype, layout, others, trailing, dim = scenario_spec
                if not scenario_chosen(label, scenarios_regex):
                    continue
                if not scenario_applies(size, scenario_spec, s):
                    continue
                if others == "broadcast" and not can_broadcast:
                    continue  # nothing to broadcast against
                shape = scenario_shape(size, scenario_spec)
                scenario = ("sweep-%s-%s" % (size, label.replace(" ", "-")), dtype, shape, layout, others)
                case_id = "aten::%s#%s@aoti" % (s.full_name, scenario[0])
                try:
                    args = gen_cases.CaseBuilder(s, scenario, case_id, scaled_templates(size),
                                                 explicit_dim=trailing is not None or dim is not None,
                                                 dim=dim).build(0)
                except ValueError:
                    break
                returns = ",".join(s.returns) if s.returns else "-"
                line = "\t".join([case_id, "aten::" + s.name, s.overload, returns, args])
                cases.append((s.full_name, "%s %s" % (size, label), line))
    return cases


class BenchDriver:
    """One conformance_driver --bench process for one runtime."""

    def __init__(self, name, driver, runtime, env, timeout, cpu=None):
        self.name, self.driver, self.runtime, self.env, self.timeout = name, driver, runtime, env, timeout
        self.cpu = cpu  # the one CPU the process may run on; None: any
        self.proc = None
        self.threads = None
        self.start()

    def start(self):
        # Pinned before exec, so every thread the runtime starts inherits it.
        pin = None if self.cpu is None else (lambda: os.sched_setaffinity(0, {self.cpu}))
        self.proc = subprocess.Popen([self.driver, "--runtime", self.runtime, "--bench"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=self.env, bufsize=0,
                                     preexec_fn=pin)
        self.pending = b""
        first = self._read(120.0)
        if first != "LOADED":
            raise RuntimeError("%s driver did not load its runtime: %r" % (self.name, first))
        threads = self._read(10.0)
        self.threads = int(threads.split("\t")[1]) if threads and threads.startswith("THREADS\t") else None

    def _read(self, timeout):
        """One line of the driver's output; None on end of file or timeout.
        Reads the pipe unbuffered: select() must see every byte not yet
        taken."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, left))
            if not ready:
                return None
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode("utf-8", "replace")

    def command(self, text):
        """The answer line, or ("CRASH"|"HANG") after restarting the driver."""
        try:
            self.proc.stdin.write((text + "\n").encode())
            answer = self._read(self.timeout)
        except BrokenPipeError:
            answer = None
        if answer is not None:
            return answer
        hung = self.proc.poll() is None
        self.stop()
        self.start()
        return "HANG" if hung else "CRASH"

    def stop(self):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b"QUIT\n")
                self.proc.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.proc = None


def ns_of(answer):
    return float(answer.split("\t")[1]) if answer.startswith("NS\t") else None


def time_case(drivers, line, reps, target_ns, max_calls, slow_case_ns):
    """(stabletorch ns, PyTorch ns, status) for one case line."""
    st, pt = drivers
    answers = [st.command("PREP\t" + line), pt.command("PREP\t" + line)]
    if answers[1] != "READY":
        if "Could not find schema" in answers[1]:
            return None, None, "not in PyTorch"
        return None, None, "PyTorch: " + answers[1][:120]
    if answers[0] != "READY":
        return None, None, "stabletorch: " + answers[0][:120]
    calib = [ns_of(st.command("TIME\t1")), ns_of(pt.command("TIME\t1"))]
    if None in calib:
        return None, None, "failed when called again"
    calls = int(max(1, min(max_calls, target_ns / max(1.0, min(calib)))))
    # A call that takes seconds (int64 matrix products at 1M elements) gets
    # fewer samples: two each at least, about --slow-case-s in all.
    slow_reps = int(slow_case_ns / max(1.0, sum(calib) * calls))
    reps = max(2, min(reps, slow_reps))
    best = list(calib) if calls == 1 else [math.inf, math.inf]  # a calibration call is a sample of 1
    for r in range(reps):
        order = (0, 1) if r % 2 == 0 else (1, 0)
        for k in order:
            answer = drivers[k].command("TIME\t%d" % calls)
            ns = ns_of(answer)
            if ns is None:
                return None, None, "%s: %s" % (drivers[k].name, answer[:120])
            best[k] = min(best[k], ns)
    return best[0], best[1], "ok"


def time_probe(drivers, name, reps, target_ns, max_calls):
    """(stabletorch ns, PyTorch ns, status) for one PROBE of the drivers."""
    calib = [ns_of(d.command("PROBE\t%s\t1000" % name)) for d in drivers]
    if None in calib:
        return None, None, "probe failed"
    rounds = int(max(1, min(max_calls * 100, target_ns / max(1.0, min(calib)))))
    best = [math.inf, math.inf]
    for r in range(reps):
        order = (0, 1) if r % 2 == 0 else (1, 0)
        for k in order:
            answer = drivers[k].command("PROBE\t%s\t%d" % (name, rounds))
            ns = ns_of(answer)
            if ns is None:
                return None, None, "%s: %s" % (drivers[k].name, answer[:120])
            best[k] = min(best[k], ns)
    return best[0], best[1], "ok"


def fmt_ns(ns):
    if ns < 1e3:
        return "%.0f ns" % ns
    if ns < 1e6:
        return "%.1f µs" % (ns / 1e3)
    return "%.2f ms" % (ns / 1e6)


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def median_pass(results):
    """The row a sweep of several passes reports, from one case's results
    (st_ns, pt_ns, status) in pass order: the pass with the median ratio (the
    higher middle one for an even count), or the first failure if any pass
    failed (a row is timed only if every pass timed it)."""
    for r in results:
        if r[2] != "ok":
            return r
    ranked = sorted(results, key=lambda r: r[0] / r[1])
    return ranked[len(ranked) // 2]


def read_rows(path):
    """The rows of an earlier run: its sweep.tsv, or its sweep.passes.tsv
    (every pass, also of a run that was cut off), reduced by median_pass."""
    def number(text):
        return float(text) if text not in ("-", "None") else None

    with open(path) as f:
        head = next(f).rstrip("\n").split("\t")
        lines = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    if head[0] != "pass":
        return [(op, label, number(st), number(pt), status) for op, label, st, pt, _, status in lines]
    results = {}
    for _, op, label, st, pt, status in lines:
        results.setdefault((op, label), []).append((number(st), number(pt), status))
    return [key + median_pass(r) for key, r in results.items()]


def write_reports(rows, labels, out_dir, header):
    """rows: (op, label, st_ns, pt_ns, status). Writes sweep.tsv and
    sweep.md into out_dir; returns the markdown."""
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "sweep.tsv"), "w") as f:
        f.write("op\tscenario\tstabletorch_ns\tpytorch_ns\tratio\tstatus\n")
        for op, label, st, pt, status in rows:
            ratio = "%.3f" % (st / pt) if status == "ok" else "-"
            f.write("%s\t%s\t%s\t%s\t%s\t%s\n" % (op, label, "%.1f" % st if st else "-",
                                                  "%.1f" % pt if pt else "-", ratio,
                                                  re.sub(r"\s+", " ", status)))
    timed = [(op, label, st, pt) for op, label, st, pt, status in rows if status == "ok"]
    ratios = [st / pt for _, _, st, pt in timed]
    slower = sorted(((st / pt, op, label, st, pt) for op, label, st, pt in timed if st > pt), reverse=True)
    lines = [header, ""]
    lines.append("Summary: %d rows timed on %d operators; **%d rows slower than PyTorch (ratio > 1.0)**; "
                 "geometric mean of the ratios **%.2f×**."
                 % (len(timed), len({t[0] for t in timed}), len(slower), geomean(ratios)))
    lines.append("")
    lines.append("| size | rows | > 1.0× | geometric mean | median |")
    lines.append("|---|---|---|---|---|")
    for size in SIZES:
        r = sorted(st / pt for _, label, st, pt in timed if label.split(" ")[0] == size)
        if r:
            lines.append("| %s | %d | %d | %.2f× | %.2f× |" % (size, len(r), sum(x > 1.0 for x in r), geomean(r),
                                                            r[len(r) // 2]))
    lines.append("")
    lines.append("Ratio = stabletorch time / PyTorch time (below 1.0: stabletorch is faster); "
                 "'-': not timed (see the list under the table).")
    lines.append("")
    lines.append("| operator | " + " | ".join(labels) + " |")
    lines.append("|---|" + "---|" * len(labels))
    by_op = {}
    for op, label, st, pt, status in rows:
        by_op.setdefault(op, {})[label] = ("**%.2f**" % (st / pt) if st > pt else "%.2f" % (st / pt)) \
            if status == "ok" else "-"
    for op, cells in by_op.items():
        if all(v == "-" for v in cells.values()):
            continue
        lines.append("| `%s` | " % op + " | ".join(cells.get(label, "") for label in labels) + " |")
    lines.append("")
    lines.append("Rows slower than PyTorch, by operator, the slowest operator first "
                 "(scenario: ratio; stabletorch / PyTorch time of the worst row):")
    lines.append("")
    lines.append("| operator | worst: stabletorch / PyTorch | rows > 1.0× |")
    lines.append("|---|---|---|")
    worst = {}
    for ratio, op, label, st, pt in slower:
        worst.setdefault(op, []).append((ratio, label, st, pt))
    for op, items in sorted(worst.items(), key=lambda kv: -kv[1][0][0]):
        ratio, label, st, pt = items[0]
        lines.append("| `%s` | %.2f× (%s: %s / %s) | %s |" % (
            op, ratio, label, fmt_ns(st), fmt_ns(pt),
            ", ".join("%s %.2f" % (l, r) for r, l, _, _ in sorted(items, key=lambda x: x[1]))))
    lines.append("")
    untimed = {}
    for op, label, st, pt, status in rows:
        if status != "ok":
            reason = "not registered by PyTorch 2.15" if status == "not in PyTorch" else \
                re.sub(r"\s+", " ", status)[:100]
            untimed.setdefault(reason, []).append("%s (%s)" % (op, label))
    lines.append("Not timed (%d rows), by reason:" % sum(len(v) for v in untimed.values()))
    lines.append("")
    for reason, items in sorted(untimed.items(), key=lambda kv: -len(kv[1])):
        ops = sorted({i.split(" (")[0] for i in items})
        lines.append("- %s: %d rows, %s" % (reason, len(items), ", ".join("`%s`" % o for o in ops[:12])
                                             + (", ..." if len(ops) > 12 else "")))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out_dir, "sweep.md"), "w") as f:
        f.write(text)
    return text


def bench_cpu(choice):
    """The CPU both drivers are pinned to (--cpu): a number, "none" (not
    pinned), or "auto", the last CPU this process may use; None for none."""
    if choice == "none":
        return None
    allowed = sorted(os.sched_getaffinity(0))
    if choice == "auto":
        return allowed[-1]
    cpu = int(choice)
    if cpu not in allowed:
        raise SystemExit("sweep: --cpu %d is not one this process may use (%s)" % (cpu, allowed))
    return cpu


def start_drivers(args):
    """The two drivers (stabletorch, PyTorch), on one thread each and on
    the same CPU; this process then keeps off that CPU if it has another."""
    env = dict(os.environ)
    env.update({"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "STABLETORCH_NUM_THREADS": "1"})
    cpu = bench_cpu(args.cpu)
    st = BenchDriver("stabletorch", args.driver, args.stabletorch_lib, env, args.timeout, cpu)
    pt = BenchDriver("PyTorch", args.driver, args.pytorch_lib, env, args.timeout, cpu)
    others = set(os.sched_getaffinity(0)) - {cpu}
    if cpu is not None and others:
        os.sched_setaffinity(0, others)
    return st, pt


def run_probes(args):
    st, pt = start_drivers(args)
    ok = True
    try:
        print("probes: best of %d interleaved samples of >= %.1f ms, thread CPU time"
              % (args.reps, args.target_ms), flush=True)
        print("%-12s %12s %12s %7s" % ("probe", "stabletorch", "PyTorch", "ratio"))
        for name in [p for p in args.probes.split(",") if p]:
            st_ns, pt_ns, status = time_probe((st, pt), name, args.reps, args.target_ms * 1e6,
                                              args.max_calls)
            if status == "ok":
                print("%-12s %9.2f ns %9.2f ns %7.2f" % (name, st_ns, pt_ns, st_ns / pt_ns), flush=True)
            else:
                print("%-12s not timed: %s" % (name, status), flush=True)
                ok = False
    finally:
        st.stop()
        pt.stop()
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--driver", required=True)
    parser.add_argument("--pytorch-lib", required=True)
    parser.add_argument("--stabletorch-lib", required=True)
    parser.add_argument("--yaml", required=True)
    parser.add_argument("--ops", default="", help="a regular expression over 'name.overload'")
    parser.add_argument("--scenarios", default="",
                        help="a regular expression over the scenario labels ('f32 over dim 0')")
    parser.add_argument("--sizes", default="1,1K,1M")
    parser.add_argument("--reps", type=int, default=5, help="samples per runtime; the best counts")
    parser.add_argument("--passes", type=int, default=1,
                        help="times the whole list is timed; each row reports its median pass")
    parser.add_argument("--target-ms", type=float, default=2.0, help="time of one sample")
    parser.add_argument("--max-calls", type=int, default=20000)
    parser.add_argument("--slow-case-s", type=float, default=30.0,
                        help="a case whose calls take longer gets fewer samples (2 at least)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for one command")
    parser.add_argument("--cpu", default="auto",
                        help="the CPU both drivers run on: a number, 'auto' (the last one "
                             "allowed) or 'none' (not pinned)")
    parser.add_argument("--out", default="build/conformance/sweep")
    parser.add_argument("--probes", default="",
                        help="comma-separated driver probes (metadata, empty1, boxed_noop, load:<path>) to time instead of operators")
    parser.add_argument("--report-from", metavar="TSV",
                        help="rewrite sweep.md from an earlier run's sweep.tsv instead of timing")
    args = parser.parse_args()

    if args.probes:
        return run_probes(args)
    sizes = [s for s in args.sizes.split(",") if s]
    for size in sizes:
        if size not in SIZES:
            parser.error("unknown size %r (one of %s)" % (size, ", ".join(SIZES)))
    cases = sweep_cases(args.yaml, args.ops, sizes, args.scenarios)
    if not cases:
        print("sweep: no case matches --ops %r" % args.ops, file=sys.stderr)
        return 1
    labels = ["%s %s" % (size, s[0]) for size in sizes for s in SWEEP_SCENARIOS
              if scenario_applies(size, s) and scenario_chosen(s[0], args.scenarios)]
    if args.report_from:
        rows = read_rows(args.report_from)
        earlier = os.path.join(args.out, "sweep.md")
        header = "Per-operator sweep: stabletorch vs PyTorch 2.15, rows from %s." % args.report_from
        if os.path.exists(earlier):  # a run that finished: keep its header with its conditions
            with open(earlier) as f:
                header = f.readline().rstrip("\n")
        write_reports(rows, labels, args.out, header)
        print("sweep: tables rewritten in %s/sweep.md" % args.out)
        return 0

    st, pt = start_drivers(args)
    try:
        for d in (st, pt):
            if d.threads != 1:
                print("sweep: the %s runtime runs on %s threads, not 1" % (d.name, d.threads), file=sys.stderr)
                return 1
        print("sweep: %d cases, both runtimes on 1 thread, best of %d samples of >= %.1f ms, %d pass(es)"
              % (len(cases), args.reps, args.target_ms, args.passes), flush=True)
        results = [[] for _ in cases]  # per case, its (st_ns, pt_ns, status) of each pass
        started = time.time()
        os.makedirs(args.out, exist_ok=True)
        partial = os.path.join(args.out, "sweep.passes.tsv")
        with open(partial, "w") as f:
            f.write("pass\top\tscenario\tstabletorch_ns\tpytorch_ns\tstatus\n")
        for p in range(1, args.passes + 1):
            for n, (op, label, line) in enumerate(cases):
                if results[n] and results[n][0][2] != "ok":
                    continue  # not timed in the first pass: a later one would not either
                st_ns, pt_ns, status = time_case((st, pt), line, args.reps, args.target_ms * 1e6,
                                                 args.max_calls, args.slow_case_s * 1e9)
                results[n].append((st_ns, pt_ns, status))
                with open(partial, "a") as f:  # every row as it comes: a cut-off run keeps its rows
                    f.write("%d\t%s\t%s\t%s\t%s\t%s\n" % (p, op, label, st_ns, pt_ns, re.sub(r"\s+", " ", status)))
                if status == "ok":
                    print("%-40s %-16s %10s %10s %6.2f" % (op, label, fmt_ns(st_ns), fmt_ns(pt_ns), st_ns / pt_ns),
                          flush=True)
                elif status != "not in PyTorch":
                    print("%-40s %-16s not timed: %s" % (op, label, status[:100]), flush=True)
                if (n + 1) % 200 == 0:
                    print("sweep: pass %d/%d, %d/%d cases, %.0f s"
                          % (p, args.passes, n + 1, len(cases), time.time() - started), flush=True)
    finally:
        st.stop()
        pt.stop()
    rows = [(op, label) + median_pass(r) for (op, label, _), r in zip(cases, results) if r]
    how = "best of %d interleaved samples of >= %.1f ms" % (args.reps, args.target_ms)
    if args.passes > 1:
        how = "the median of %d passes, each %s" % (args.passes, how)
    header = ("Per-operator sweep: stabletorch vs PyTorch 2.15 through aoti_torch_call_dispatcher, "
              "1 thread each, %s (%.0f s)." % (how, time.time() - started))
    text = write_reports(rows, labels, args.out, header)
    summary = [line for line in text.splitlines() if line.startswith("Summary")]
    print(summary[0] if summary else "")
    print("sweep: tables in %s/sweep.md and sweep.tsv" % args.out)
    if not any(status == "ok" for *_, status in rows):
        print("sweep: nothing was timed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
