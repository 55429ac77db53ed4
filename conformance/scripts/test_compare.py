#!/usr/bin/env python3
"""Checks of compare.py: the rules the conformance stage judges by."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import compare  # noqa: E402


def ok(*fields):
    return "\t".join(("OK",) + fields)


class CompareTest(unittest.TestCase):
    def test_identical_results_agree(self):
        r = ok("T:f32:2:1:0:-:1,2", "|", "T:f32:2:1:0:0:1,2")
        self.assertIsNone(compare(r, r))

    def test_floating_values_within_tolerance_agree(self):
        self.assertIsNone(compare(ok("T:f32:1:1:0:-:1.0000001", "|"), ok("T:f32:1:1:0:-:1.0000002", "|")))
        self.assertIn("value [0]", compare(ok("T:f32:1:1:0:-:1", "|"), ok("T:f32:1:1:0:-:1.001", "|")))

    def test_integers_are_exact(self):
        self.assertIn("value [1]", compare(ok("T:i64:2:1:0:-:1,2", "|"), ok("T:i64:2:1:0:-:1,3", "|")))

    def test_nan_equals_nan_only(self):
        self.assertIsNone(compare(ok("T:f64:1:1:0:-:nan", "|"), ok("T:f64:1:1:0:-:nan", "|")))
        self.assertIsNotNone(compare(ok("T:f64:1:1:0:-:nan", "|"), ok("T:f64:1:1:0:-:0", "|")))
        self.assertIsNotNone(compare(ok("T:f64:1:1:0:-:inf", "|"), ok("T:f64:1:1:0:-:-inf", "|")))

    def test_strides_of_size_one_dims_are_free(self):
        self.assertIsNone(compare(ok("T:f32:1,3:3,1:0:-:1,2,3", "|"), ok("T:f32:1,3:1,1:0:-:1,2,3", "|")))
        self.assertIn("strides", compare(ok("T:f32:2,3:3,1:0:-:1,2,3,4,5,6", "|"),
                                         ok("T:f32:2,3:1,2:0:-:1,2,3,4,5,6", "|")))

    def test_metadata_and_aliasing_differences_are_reported(self):
        self.assertIn("dtype", compare(ok("T:f32:1:1:0:-:1", "|"), ok("T:f64:1:1:0:-:1", "|")))
        self.assertIn("storage offset", compare(ok("T:f32:1:1:2:0:1", "|"), ok("T:f32:1:1:0:0:1", "|")))
        self.assertIn("a view of input 0", compare(ok("T:f32:1:1:0:-:1", "|"), ok("T:f32:1:1:0:0:1", "|")))

    def test_success_against_failure(self):
        self.assertIn("PyTorch fails", compare("ERR\tboom", ok("i:1", "|")))
        self.assertIn("PyTorch succeeds", compare(ok("i:1", "|"), "ERR\tboom"))
        self.assertIsNone(compare("ERR\tone message", "ERR\tanother"))

    def test_values_can_be_left_out(self):
        self.assertIsNone(compare(ok("T:f32:1:1:0:-:1", "|"), ok("T:f32:1:1:0:-:7", "|"), compare_values=False))

    def test_inputs_after_the_call_are_compared(self):
        self.assertIn("input 0 after the call",
                      compare(ok("T:f32:1:1:0:0:0", "|", "T:f32:1:1:0:0:0"),
                              ok("T:f32:1:1:0:0:0", "|", "T:f32:1:1:0:0:5")))

    def test_lists_compare_element_by_element(self):
        self.assertIn("return 0[1]", compare(ok("[i:1|i:2]", "|"), ok("[i:1|i:3]", "|")))
        self.assertIn("list elements", compare(ok("[i:1|i:2]", "|"), ok("[i:1]", "|")))


if __name__ == "__main__":
    unittest.main()
