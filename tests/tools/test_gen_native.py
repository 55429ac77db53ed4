#!/usr/bin/env python3
"""Tests of tools/codegen/gen_native.py: every validation rule gets a bad
entry and the error must name the entry and the rule.

Usage: test_gen_native.py GEN_NATIVE_PY NATIVE_FUNCTIONS_YAML
(ctest passes both; run by hand the same way.)
"""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

GEN = None
REAL_YAML = None


def run_gen(yaml_text, extra_args=("--check",)):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "native_functions.yaml")
        with open(path, "w") as f:
            f.write(textwrap.dedent(yaml_text))
        p = subprocess.run([sys.executable, GEN, "--yaml", path] + list(extra_args),
                           capture_output=True, text=True)
        return p.returncode, p.stderr


GOOD = """
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  variants: function, method
  dispatch:
    CPU: add
"""


class ExpectError(unittest.TestCase):
    def expect_error(self, yaml_text, *needles):
        rc, err = run_gen(yaml_text)
        self.assertEqual(rc, 1, "expected failure, stderr: " + err)
        for n in needles:
            self.assertIn(n, err)


class Validation(ExpectError):
    def test_good_entry_passes(self):
        rc, err = run_gen(GOOD)
        self.assertEqual(rc, 0, err)

    def test_duplicate_overload_name(self):
        self.expect_error(GOOD + GOOD.replace("  variants: function, method\n", ""),
                          "entry 'add.Tensor'", "duplicate overload name 'Tensor'", "line 2")

    def test_more_than_one_empty_overload_name(self):
        self.expect_error("""
            - func: abs(Tensor self) -> Tensor
            - func: abs(Tensor self, int x) -> Tensor
            """, "entry 'abs'", "more than one overload of 'abs' has an empty overload name")

    def test_out_function_without_write_annotation(self):
        self.expect_error("""
            - func: abs.out(Tensor self, *, Tensor out) -> Tensor
            """, "entry 'abs.out'", "out function without (a!) annotation")

    def test_out_argument_named_out_needs_annotation(self):
        self.expect_error("""
            - func: foo(Tensor self, *, Tensor out) -> Tensor
            """, "entry 'foo'", "out function without (a!) annotation")

    def test_out_argument_must_be_named_out(self):
        self.expect_error("""
            - func: abs.out(Tensor self, *, Tensor(a!) result) -> Tensor(a!)
            """, "entry 'abs.out'", "out argument must be named 'out', not 'result'")

    def test_out_function_must_return_its_out(self):
        self.expect_error("""
            - func: abs.out(Tensor self, *, Tensor(a!) out) -> Tensor
            """, "entry 'abs.out'", "must return its out argument")

    def test_both_composite_keys(self):
        self.expect_error("""
            - func: foo(Tensor self) -> Tensor
              dispatch:
                CompositeExplicitAutograd: foo
                CompositeImplicitAutograd: foo2
            """, "entry 'foo'", "both CompositeExplicitAutograd and CompositeImplicitAutograd")

    def test_unknown_dispatch_key(self):
        self.expect_error("""
            - func: foo(Tensor self) -> Tensor
              dispatch:
                CPU, XLA: foo
            """, "entry 'foo'", "unknown dispatch key 'XLA'")

    def test_defaults_on_non_suffix_arguments(self):
        self.expect_error("""
            - func: foo(Tensor self, int a=1, int b) -> Tensor
            """, "entry 'foo'", "default on non-suffix argument", "'a'", "'b'")

    def test_method_without_self(self):
        self.expect_error("""
            - func: foo(Tensor input) -> Tensor
              variants: method
            """, "entry 'foo'", "method variant without 'Tensor self'")

    def test_unknown_field(self):
        self.expect_error("""
            - func: foo(Tensor self) -> Tensor
              dispach:
                CPU: foo
            """, "entry 'foo'", "unknown field 'dispach'")

    def test_unknown_type(self):
        self.expect_error("""
            - func: foo(Tensor self, Dimname d) -> Tensor
            """, "entry 'foo'", "unknown type 'Dimname'")

    def test_missing_func(self):
        self.expect_error("""
            - variants: function
            """, "missing 'func'")

    def test_inplace_must_take_mutable_self(self):
        self.expect_error("""
            - func: foo_(Tensor self) -> Tensor
            """, "entry 'foo_'", "in-place function")

    def test_unrenderable_default_names_the_entry(self):
        # Found by tests/fuzz/fuzz_native_functions_yaml.py: a default the
        # C++ renderer cannot spell used to fail without naming the entry.
        self.expect_error("""
            - func: foo(Tensor self, bool? pin_memory=N MemoryFormat? memory_format=None) -> Tensor
            """, "native_functions.yaml:2: entry 'foo'", "argument 'pin_memory'", "cannot render default")

    def test_unknown_tag(self):
        self.expect_error(GOOD + "  tags: [pointwise, pointy]\n", "entry 'add.Tensor'",
                          "tags: unknown tag 'pointy'", "pt2_compliant_tag")

    def test_tags_must_be_names(self):
        self.expect_error(GOOD + "  tags: {core: 1}\n", "entry 'add.Tensor'",
                          "tags: expected a tag name or a list of tag names")

    def test_tags_as_text_or_list_pass(self):
        for tags in ["core", "core, pointwise", "[core, pointwise]"]:
            rc, err = run_gen(GOOD + "  tags: %s\n" % tags)
            self.assertEqual(rc, 0, tags + ": " + err)

    def test_error_names_the_line(self):
        rc, err = run_gen("\n\n" + GOOD.strip() + "\n- func: foo(Tensor self, int a=1, int b) -> Tensor\n")
        self.assertEqual(rc, 1)
        self.assertIn("native_functions.yaml:7:", err)


FLOAT_UNARY = """
- func: tan(Tensor self) -> Tensor
  dispatch:
    CPU: tan
    CUDA: tan_cuda
  cuda_pointwise: float_unary

- func: tan_(Tensor(a!) self) -> Tensor(a!)
  dispatch:
    CPU: tan_
    CUDA: tan_cuda_
  cuda_pointwise: float_unary

- func: tan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
  dispatch:
    CPU: tan_out
    CUDA: tan_out_cuda
  cuda_pointwise: float_unary
"""

BINARY_COMPARE = """
- func: eq.Tensor(Tensor self, Tensor other) -> Tensor
  dispatch:
    CPU: eq
    CUDA: eq_cuda
  cuda_pointwise: binary_compare

- func: eq_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
  dispatch:
    CPU: eq_
    CUDA: eq_cuda_
  cuda_pointwise: binary_compare

- func: eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
  dispatch:
    CPU: eq_out
    CUDA: eq_out_cuda
  cuda_pointwise: binary_compare
"""

BINARY_ALPHA = """
- func: add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
  dispatch:
    CPU: add
    CUDA: add_cuda
  cuda_pointwise: binary_alpha

- func: add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
  dispatch:
    CPU: add_
    CUDA: add_cuda_
  cuda_pointwise: binary_alpha

- func: add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
  dispatch:
    CPU: add_out
    CUDA: add_out_cuda
  cuda_pointwise: binary_alpha
"""


def generate(yaml_text):
    """The generated files of yaml_text: {relative path: text}."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "native_functions.yaml")
        with open(path, "w") as f:
            f.write(textwrap.dedent(yaml_text))
        out = os.path.join(d, "out")
        p = subprocess.run([sys.executable, GEN, "--yaml", path, "--out", out],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        files = {}
        for root, _, names in os.walk(out):
            for n in names:
                with open(os.path.join(root, n)) as f:
                    files[os.path.relpath(os.path.join(root, n), out)] = f.read()
        return files


class Cuda(ExpectError):
    def test_cuda_kernels_stay_out_of_the_cpu_files(self):
        files = generate(GOOD.replace("    CPU: add\n", "    CPU: add\n    CUDA: add_cuda\n"))
        self.assertNotIn("add_cuda", files["include/st/generated/native_kernels.h"])
        self.assertNotIn("add_cuda", files["src/register_CPU.cpp"])
        self.assertIn("Tensor add_cuda(const Tensor& self, const Tensor& other, const Scalar& alpha);",
                      files["include/st/generated/native_cuda_kernels.h"])
        self.assertIn('m.impl("add.Tensor", ST_FN(st::wrapper_CUDA_add_Tensor));',
                      files["src/register_CUDA.cpp"])

    def test_a_kernel_shared_with_cuda_is_declared_once(self):
        files = generate(GOOD.replace("    CPU: add\n", "    CPU, CUDA: add\n"))
        self.assertIn("Tensor add(", files["include/st/generated/native_kernels.h"])
        self.assertNotIn("Tensor add(", files["include/st/generated/native_cuda_kernels.h"])
        self.assertIn("return st::native::add(", files["src/register_CUDA.cpp"])

    def test_float_unary_kernels_are_generated(self):
        text = generate(FLOAT_UNARY)["src/cuda_pointwise_kernels.cpp"]
        self.assertEqual(text.count("FloatUnaryEntry float_unary_tan;"), 1)
        self.assertIn("Tensor tan_cuda(const Tensor& self) {\n  return st::cuda::ops::float_unary("
                      "&st::cuda::kernels::float_unary_tan, \"tan\", self, ::std::nullopt);", text)
        self.assertIn("\"tan_\", self, self);", text)
        self.assertIn("Tensor tan_out_cuda(const Tensor& self, const Tensor& out) {", text)

    def test_binary_kernels_are_generated(self):
        text = generate(BINARY_COMPARE)["src/cuda_pointwise_kernels.cpp"]
        self.assertEqual(text.count("BinaryEntry binary_compare_eq;"), 1)
        self.assertIn("Tensor eq_cuda(const Tensor& self, const Tensor& other) {\n"
                      "  return st::cuda::ops::binary_compare(&st::cuda::kernels::binary_compare_eq, "
                      "\"eq\", self, other, ::std::nullopt);", text)
        # The in-place form's errors name the operator, as the CPU kernel's.
        self.assertIn("\"eq\", self, other, self);", text)
        self.assertIn("Tensor eq_out_cuda(const Tensor& self, const Tensor& other, const Tensor& out) {", text)
        self.assertIn("\"eq\", self, other, out);", text)

    def test_binary_alpha_kernels_pass_alpha(self):
        text = generate(BINARY_ALPHA)["src/cuda_pointwise_kernels.cpp"]
        self.assertIn("return st::cuda::ops::binary_alpha(&st::cuda::kernels::binary_alpha_add, "
                      "\"add\", self, other, alpha, ::std::nullopt);", text)
        self.assertIn("\"add\", self, other, alpha, out);", text)

    def test_unary_launchers_name_the_operator(self):
        text = generate(FLOAT_UNARY.replace("float_unary", "unary_nonbool"))["src/cuda_pointwise_kernels.cpp"]
        self.assertEqual(text.count("UnaryEntry unary_nonbool_tan;"), 1)
        self.assertIn("return st::cuda::ops::unary_nonbool(&st::cuda::kernels::unary_nonbool_tan, "
                      "\"tan\", self, self);", text)

    def test_binary_operand_may_have_any_name(self):
        text = generate(BINARY_COMPARE.replace("Tensor other", "Tensor exponent"))[
            "src/cuda_pointwise_kernels.cpp"]
        self.assertIn("\"eq\", self, exponent, ::std::nullopt);", text)

    def test_generation_is_deterministic(self):
        # Whatever the hash seed (Python randomizes set order per process).
        runs = []
        for seed in ("1", "2"):
            env = dict(os.environ, PYTHONHASHSEED=seed)
            with tempfile.TemporaryDirectory() as d:
                p = subprocess.run([sys.executable, GEN, "--yaml", REAL_YAML, "--out", d],
                                   capture_output=True, text=True, env=env)
                self.assertEqual(p.returncode, 0, p.stderr)
                run = {}
                for root, _, names in os.walk(d):
                    for n in names:
                        with open(os.path.join(root, n)) as f:
                            run[os.path.relpath(os.path.join(root, n), d)] = f.read()
                runs.append(run)
        self.assertEqual(runs[0], runs[1])

    def test_unknown_launcher(self):
        self.expect_error(FLOAT_UNARY.replace("cuda_pointwise: float_unary", "cuda_pointwise: fancy", 1),
                          "entry 'tan'", "cuda_pointwise: unknown launcher 'fancy'")

    def test_launcher_needs_a_cuda_kernel(self):
        self.expect_error(FLOAT_UNARY.replace("    CUDA: tan_cuda\n", "", 1),
                          "entry 'tan'", "needs a 'CUDA: <kernel>' dispatch entry")

    def test_launcher_serves_one_tensor_schemas(self):
        self.expect_error("""
            - func: hypot(Tensor self, Tensor other) -> Tensor
              dispatch:
                CUDA: hypot_cuda
              cuda_pointwise: float_unary
            """, "entry 'hypot'", "cuda_pointwise: float_unary serves")

    def test_binary_launcher_serves_two_tensor_schemas(self):
        self.expect_error("""
            - func: neg(Tensor self) -> Tensor
              dispatch:
                CUDA: neg_cuda
              cuda_pointwise: binary
            """, "entry 'neg'", "cuda_pointwise: binary serves '(Tensor self, Tensor other) -> Tensor'")

    def test_binary_launcher_refuses_extra_arguments(self):
        # alpha is binary_alpha's; binary has no place for it.
        self.expect_error(BINARY_ALPHA.replace("cuda_pointwise: binary_alpha", "cuda_pointwise: binary", 1),
                          "entry 'add.Tensor'", "cuda_pointwise: binary serves")
        # and binary_alpha needs it.
        self.expect_error(BINARY_COMPARE.replace("cuda_pointwise: binary_compare", "cuda_pointwise: binary_alpha", 1),
                          "entry 'eq.Tensor'",
                          "binary_alpha serves '(Tensor self, Tensor other, *, Scalar alpha) -> Tensor'")

    def test_binary_launcher_refuses_a_scalar_operand(self):
        self.expect_error("""
            - func: pow.Scalar(Scalar self, Tensor exponent) -> Tensor
              dispatch:
                CUDA: pow_cuda
              cuda_pointwise: binary_nonbool
            """, "entry 'pow.Scalar'", "cuda_pointwise: binary_nonbool serves")

    def test_binary_launcher_refuses_an_in_place_second_operand(self):
        self.expect_error(BINARY_COMPARE.replace("eq.Tensor(Tensor self, Tensor other)",
                                                 "eq.Tensor(Tensor self, Tensor(b!) other)", 1),
                          "entry 'eq.Tensor'", "cuda_pointwise: binary_compare serves")

    def test_unary_launcher_serves_one_tensor_schemas(self):
        self.expect_error(BINARY_COMPARE.replace("cuda_pointwise: binary_compare", "cuda_pointwise: unary_bool", 1),
                          "entry 'eq.Tensor'", "cuda_pointwise: unary_bool serves '(Tensor self) -> Tensor'")

    def test_unknown_launcher_lists_the_known_ones(self):
        self.expect_error(BINARY_COMPARE.replace("cuda_pointwise: binary_compare", "cuda_pointwise: binary_cmp", 1),
                          "cuda_pointwise: unknown launcher 'binary_cmp'", "binary_compare", "float_unary")

    def test_generated_cuda_kernel_is_not_shared(self):
        self.expect_error(FLOAT_UNARY.replace("    CPU: tan\n    CUDA: tan_cuda\n",
                                              "    CPU, CUDA: tan\n", 1),
                          "entry 'tan'", "the CUDA kernel 'tan' is generated")


class RealFile(unittest.TestCase):
    def test_project_yaml_is_valid(self):
        p = subprocess.run([sys.executable, GEN, "--yaml", REAL_YAML, "--check"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_generates_every_file(self):
        with tempfile.TemporaryDirectory() as d:
            p = subprocess.run([sys.executable, GEN, "--yaml", REAL_YAML, "--out", d],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            for rel in ["include/st/generated/functions.h", "include/st/generated/operators.h",
                        "include/st/generated/tensor_methods.h", "src/register_schemas.cpp",
                        "src/register_CPU.cpp", "src/register_BackendSelect.cpp"]:
                self.assertTrue(os.path.exists(os.path.join(d, rel)), rel)
            with open(os.path.join(d, "src/register_schemas.cpp")) as f:
                text = f.read()
            self.assertIn('m.def("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", '
                          '{st::Tag::core, st::Tag::pointwise});', text)
            self.assertIn('m.def("add.out(', text)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.stderr.write(__doc__)
        sys.exit(2)
    GEN, REAL_YAML = sys.argv[1], sys.argv[2]
    unittest.main(argv=[sys.argv[0]])
