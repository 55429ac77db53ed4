#!/usr/bin/env python3
"""Checks of sweep.py: the reduction of several passes to the row it
reports, and which scenarios an operator is timed in."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweep import SWEEP_SCENARIOS, median_pass, read_rows, scenario_applies, sweep_cases  # noqa: E402

YAML = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "core", "native",
                    "native_functions.yaml")


class MedianPassTest(unittest.TestCase):
    def test_one_pass_is_its_own_median(self):
        self.assertEqual(median_pass([(2.0, 1.0, "ok")]), (2.0, 1.0, "ok"))

    def test_odd_count_reports_the_middle_ratio_with_its_own_times(self):
        passes = [(300.0, 100.0, "ok"), (90.0, 100.0, "ok"), (120.0, 200.0, "ok")]
        self.assertEqual(median_pass(passes), (90.0, 100.0, "ok"))

    def test_even_count_reports_the_higher_middle_ratio(self):
        passes = [(1.0, 1.0, "ok"), (3.0, 1.0, "ok"), (2.0, 1.0, "ok"), (0.5, 1.0, "ok")]
        self.assertEqual(median_pass(passes), (2.0, 1.0, "ok"))

    def test_a_failed_pass_makes_the_row_untimed(self):
        passes = [(1.0, 1.0, "ok"), (None, None, "stabletorch: ERR boom")]
        self.assertEqual(median_pass(passes), (None, None, "stabletorch: ERR boom"))


class ReadRowsTest(unittest.TestCase):
    def write(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False)
        self.addCleanup(os.unlink, f.name)
        f.write(text)
        f.close()
        return f.name

    def test_a_finished_runs_table_is_read_as_is(self):
        path = self.write("op\tscenario\tstabletorch_ns\tpytorch_ns\tratio\tstatus\n"
                          "exp\t1K f32\t10.0\t20.0\t0.500\tok\n"
                          "gelu\t1 i64\t-\t-\t-\tPyTorch: ERR not implemented\n")
        self.assertEqual(read_rows(path), [("exp", "1K f32", 10.0, 20.0, "ok"),
                                           ("gelu", "1 i64", None, None, "PyTorch: ERR not implemented")])

    def test_every_pass_is_reduced_to_the_median_row(self):
        path = self.write("pass\top\tscenario\tstabletorch_ns\tpytorch_ns\tstatus\n"
                          "1\texp\t1K f32\t30.0\t10.0\tok\n"
                          "1\tcat\t1M f32\tNone\tNone\tnot in PyTorch\n"
                          "2\texp\t1K f32\t9.0\t10.0\tok\n"
                          "3\texp\t1K f32\t12.0\t10.0\tok\n")
        self.assertEqual(read_rows(path), [("exp", "1K f32", 12.0, 10.0, "ok"),
                                           ("cat", "1M f32", None, None, "not in PyTorch")])


class ShortRowScenarioTest(unittest.TestCase):
    def test_short_rows_are_timed_for_operators_with_a_dim(self):
        cases = sweep_cases(YAML, r"sum\.dim_IntList|exp", ["1M"])
        labels = {(op, label) for op, label, _ in cases}
        self.assertIn(("sum.dim_IntList", "1M f32 rows of 64"), labels)
        self.assertIn(("exp", "1M f32"), labels)
        self.assertNotIn(("exp", "1M f32 rows of 64"), labels)
        line = [c for op, label, c in cases if label == "1M f32 rows of 64"][0]
        self.assertIn("t:f32:16384,64:64,1:0:", line)

    def test_short_rows_reduce_the_rows_where_dim_has_a_default(self):
        # amax's dim=[] reduces every dim; the scenario gives dim -1.
        cases = sweep_cases(YAML, r"amax|argmax", ["1M"])
        rows = {op: c.split("\t")[-1] for op, label, c in cases if label == "1M f32 rows of 64"}
        self.assertEqual(rows["amax"].split()[1:], ["l:1", "i:-1", "b:0"])
        self.assertEqual(rows["argmax"].split()[1:3], ["o", "i:-1"])
        full = {op: c.split("\t")[-1] for op, label, c in cases if label == "1M f32"}
        self.assertEqual(full["amax"].split()[1], "l:0")  # the other scenarios keep the default

    def test_no_short_rows_where_the_size_has_too_few_elements(self):
        short = [s for s in SWEEP_SCENARIOS if s[4] is not None][0]
        self.assertFalse(scenario_applies("1", short))
        self.assertTrue(scenario_applies("1K", short))
        self.assertTrue(scenario_applies("1M", short))


class OuterDimScenarioTest(unittest.TestCase):
    def test_operators_with_a_dim_are_timed_over_dim_0(self):
        cases = sweep_cases(YAML, r"sum\.dim_IntList|softmax\.int|amax|cat|exp", ["1M"])
        lines = {op: c.split("\t")[-1] for op, label, c in cases if label == "1M f32 over dim 0"}
        self.assertEqual(sorted(lines), ["amax", "cat", "softmax.int", "sum.dim_IntList"])
        self.assertEqual(lines["sum.dim_IntList"].split()[1:4], ["o", "l:1", "i:0"])
        self.assertEqual(lines["amax"].split()[1:3], ["l:1", "i:0"])  # a defaulted dim given
        self.assertEqual(lines["softmax.int"].split()[1], "i:0")
        self.assertIn("t:f32:1024,1024:1024,1:0:", lines["cat"])
        self.assertEqual(lines["cat"].split()[-1], "i:0")

    def test_one_scenario_may_be_chosen(self):
        cases = sweep_cases(YAML, r"sum\.dim_IntList|exp", ["1K", "1M"], "f32 over dim 0")
        self.assertEqual({(op, label) for op, label, _ in cases},
                         {("sum.dim_IntList", "1K f32 over dim 0"),
                          ("sum.dim_IntList", "1M f32 over dim 0")})

    def test_not_at_one_element(self):
        outer = [s for s in SWEEP_SCENARIOS if s[5] is not None][0]
        self.assertFalse(scenario_applies("1", outer))
        self.assertTrue(scenario_applies("1K", outer))



class MiddleDimScenarioTest(unittest.TestCase):
    LABEL = "1M f32 3-d over dim 1"

    def test_operators_with_a_dim_are_timed_over_a_middle_dim_of_a_3d_input(self):
        cases = sweep_cases(YAML, r"sum\.dim_IntList|softmax\.int|amax|exp", ["1M"])
        lines = {op: c.split("\t")[-1] for op, label, c in cases if label == self.LABEL}
        self.assertEqual(sorted(lines), ["amax", "softmax.int", "sum.dim_IntList"])
        self.assertIn("t:f32:16,1024,64:65536,64,1:0:", lines["sum.dim_IntList"])
        self.assertEqual(lines["sum.dim_IntList"].split()[1:4], ["o", "l:1", "i:1"])
        self.assertEqual(lines["amax"].split()[1:3], ["l:1", "i:1"])
        self.assertEqual(lines["softmax.int"].split()[1], "i:1")

    def test_only_where_the_size_holds_two_of_its_trailing_blocks(self):
        middle = [s for s in SWEEP_SCENARIOS if s[0] == "f32 3-d over dim 1"][0]
        self.assertFalse(scenario_applies("1", middle))
        self.assertFalse(scenario_applies("1K", middle))
        self.assertTrue(scenario_applies("1M", middle))


if __name__ == "__main__":
    unittest.main()
