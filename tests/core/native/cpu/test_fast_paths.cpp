// The fast paths of add/sub/mul give what the general engines give
// (the same operation on a non-contiguous copy of the inputs, which the
// fast paths do not take), keep PyTorch's type promotion for wrapped
// numbers, and leave every error case to the engines.
#include <gtest/gtest.h>

#include <limits>

#include "native/random_tensors.h"

namespace {

using namespace st_native_test;

// Same values, a layout the fast paths refuse (every other element).
Tensor slow(const Tensor& t) { return t.dim() ? relayout(t, 2) : t; }

TEST(NativeFastPaths, BinaryMatchesTheEngine) {
  std::mt19937 g(12);
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double}) {
    for (int64_t n : {1, 5, 40000, 70001}) {  // below and above the parallel grain
      Tensor a = random_ints(g, {n}, dt, -50, 50);
      Tensor b = random_ints(g, {n}, dt, -50, 50);
      expect_close(values(st::add(a, b, 3)), values(st::add(slow(a), slow(b), 3)), 0);
      expect_close(values(st::sub(a, b)), values(st::sub(slow(a), slow(b))), 0);
      expect_close(values(st::mul(a, b)), values(st::mul(slow(a), slow(b))), 0);
      // one-element tensor operand and wrapped numbers (the Scalar overloads)
      Tensor one = random_ints(g, {}, dt);
      expect_close(values(st::mul(a, one)), values(st::mul(slow(a), one)), 0);
      expect_close(values(st::add(a, 2.5)), values(st::add(slow(a), 2.5)), 0);
      expect_close(values(st::sub(a, 3)), values(st::sub(slow(a), 3)), 0);
      expect_close(values(st::mul(a, true)), values(a), 0);
      // out= and in place
      Tensor out = st::empty({n}, dt);
      st::add_out(out, a, b);
      expect_close(values(out), values(st::add(slow(a), slow(b))), 0);
      Tensor c = st::clone(a);
      st::add_(c, b, -1);
      expect_close(values(c), values(st::sub(slow(a), slow(b))), 0);
    }
  }
  // Promotion is PyTorch's: float tensor + double number stays float;
  // + a complex number goes to the engine and becomes complex.
  Tensor f = make1({1, 2});
  EXPECT_EQ(st::add(f, 0.5).dtype(), ScalarType::Float);
  EXPECT_EQ(st::mul(f, int64_t{3}).dtype(), ScalarType::Float);
  EXPECT_EQ(st::add(f, Scalar(std::complex<double>(1, 1))).dtype(), ScalarType::ComplexFloat);
  EXPECT_EQ(st::add(f, make1({1, 2}, ScalarType::Double)).dtype(), ScalarType::Double);
  // a large int64 number converts straight to float, as in the engine
  const int64_t big = (int64_t{1} << 53) + 1;
  expect_close(values(st::add(st::zeros({3}), big)), values(st::add(slow(st::zeros({3})), big)), 0);
}

TEST(NativeFastPaths, ErrorsStayTheEngines) {
  Tensor a = make1({1, 2, 3});
  EXPECT_NATIVE_ERROR(st::add(a, a, true), "Boolean alpha only supported for Boolean results.");
  // in place with a partially overlapping operand
  EXPECT_NATIVE_ERROR(st::add_(st::narrow(a, 0, 0, 2), st::narrow(a, 0, 1, 2)),
                      "unsupported operation");
  // out= that must be resized goes to the engine (and is resized)
  Tensor out = st::empty({0});
  st::add_out(out, a, a);
  expect_close(values(out), {2, 4, 6});
  // in-place self cannot broadcast
  EXPECT_NATIVE_ERROR(st::add_(st::ones({1}), a), "doesn't match the broadcast shape");
}

}  // namespace
