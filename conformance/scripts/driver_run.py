"""Runs conformance_driver over a case file and collects one result per
case. A crash or a hang in one case is that case's result: the driver is
restarted after it, so one bad case does not hide the others."""

import os
import subprocess
import tempfile
from dataclasses import dataclass, field
from typing import Dict, List, Optional


@dataclass
class Run:
    load_error: Optional[str] = None       # why the runtime or a plugin did not load
    results: Dict[str, str] = field(default_factory=dict)  # case id -> result fields after the id


def case_ids(cases_path: str) -> List[str]:
    with open(cases_path) as f:
        return [line.split("\t", 1)[0] for line in f
                if line.strip() and not line.startswith("#")]


def run_driver(driver: str, runtime: str, plugins: List[str], cases_path: str,
               env: Dict[str, str], timeout: float = 300.0, log_path: Optional[str] = None) -> Run:
    ids = case_ids(cases_path)
    run = Run()
    skip = 0
    stderr = open(log_path, "ab") if log_path else subprocess.DEVNULL
    try:
        while skip < len(ids):
            cmd = [driver, "--runtime", runtime, "--cases", cases_path, "--skip", str(skip)]
            for plugin in plugins:
                cmd += ["--plugin", plugin]
            with tempfile.TemporaryFile(mode="w+") as out:
                proc = subprocess.Popen(cmd, stdout=out, stderr=stderr, env=env)
                timed_out = False
                try:
                    proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                    timed_out = True
                out.seek(0)
                lines = out.read().splitlines()
            if lines and lines[0].startswith(("RUNTIMEFAIL", "PLUGINFAIL")):
                # Paths relative to the working folder: the reason reads the
                # same in every checkout.
                reason = lines[0].split("\t", 1)[1].replace("\t", ": ")
                run.load_error = reason.replace(os.getcwd() + os.sep, "")
                return run
            if not lines or lines[0] != "LOADED":
                run.load_error = "the driver exited with status %s before loading" % proc.returncode
                return run
            done = False
            for line in lines[1:]:
                if line == "DONE":
                    done = True
                    break
                case_id, _, rest = line.partition("\t")
                run.results[case_id] = rest
                skip += 1
            if done:
                break
            # The case after the last result crashed or hung.
            if skip < len(ids):
                what = "HANG\tno result within %d s" % timeout if timed_out else \
                    "CRASH\tthe driver died (status %s)" % proc.returncode
                run.results[ids[skip]] = what
                skip += 1
    finally:
        if log_path:
            stderr.close()
    return run


def runtime_env() -> Dict[str, str]:
    """The driver's environment: this process's. Each runtime finds its own
    dependencies (libtorch_cpu.so's RUNPATH is its own folder)."""
    return dict(os.environ)
