// cpu_kernel's loops (st/native/loops.h) on strided rows, which run by
// blocks (Note [Strided operands by blocks]): row lengths around the block
// size, stride-2 (vector gather) and other strides, stride-0 inputs,
// strided outputs whose gaps stay untouched, in-place ops on strided views,
// 1-, 2-, 4-, 8- and 16-byte elements, and the float32 vector functions'
// own strided path, each against the contiguous result.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <vector>

#include <st/native/loops.h>
#include <st/native/tensor_iterator.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;
using st::native::cpu_kernel;
using st::native::TensorIterator;
using st::native::TensorIteratorConfig;

// Row lengths around kStridedBlockMin and kStridedBlock.
const std::vector<int64_t> kLengths = {0, 1, 15, 16, 17, 63, 64, 65, 255, 256, 257, 1000};

// 0, 1, 2, ... minus an offset, as float, in `n` elements.
Tensor ramp(int64_t n, ScalarType dtype = ScalarType::Float) {
  return st::sub(st::arange(n, dtype), Scalar(static_cast<double>(n) / 3.0));
}

TEST(NativeLoops, StridedInputsMatchContiguousAtBlockEdges) {
  for (int64_t n : kLengths) {
    for (int64_t step : {2, 3}) {
      Tensor base = ramp(n * step + 1);
      Tensor a = st::slice(base, 0, 1, std::nullopt, step);  // offset, every step-th
      a = st::slice(a, 0, 0, n);
      Tensor b = ramp(n);
      TensorIterator it =
          TensorIteratorConfig().add_output(Tensor()).add_input(a).add_input(b).build();
      cpu_kernel(it, [](float x, float y) -> float { return x > 0 ? 2 * x + y : y - x; });
      std::vector<double> want;
      const auto av = values(a), bv = values(b);
      for (size_t i = 0; i < av.size(); ++i) {
        const auto x = static_cast<float>(av[i]), y = static_cast<float>(bv[i]);
        want.push_back(x > 0 ? 2 * x + y : y - x);  // in float, as the kernel
      }
      SCOPED_TRACE(::testing::Message() << "n " << n << " step " << step);
      expect_close(values(it.output()), want, 0);
    }
  }
}

TEST(NativeLoops, StrideZeroInputWithAStridedOne) {
  Tensor row = st::expand(make({1.5, -2.0, 3.0}, {1, 3}), {300, 3});
  Tensor col = st::t(st::reshape(ramp(900), {3, 300}));  // [300, 3], strides [1, 300]
  TensorIterator it =
      TensorIteratorConfig().add_output(Tensor()).add_input(row).add_input(col).build();
  cpu_kernel(it, [](float x, float y) -> float { return x * y; });
  const auto cv = values(col);
  std::vector<double> want;
  const float r[3] = {1.5f, -2.0f, 3.0f};
  for (size_t i = 0; i < cv.size(); ++i) want.push_back(r[i % 3] * static_cast<float>(cv[i]));
  expect_close(values(it.output()), want, 0);
}

TEST(NativeLoops, StridedOutputLeavesItsGapsUntouched) {
  for (int64_t n : kLengths) {
    Tensor storage = st::full({2 * n + 1}, -7.0);
    Tensor out = st::slice(storage, 0, 1, std::nullopt, 2);  // n elements, stride 2
    Tensor a = ramp(n);
    st::neg_out(out, a);
    std::vector<double> want(static_cast<size_t>(2 * n + 1), -7.0);
    const auto av = values(a);
    for (size_t i = 0; i < av.size(); ++i) want[2 * i + 1] = -av[i];
    SCOPED_TRACE(::testing::Message() << "n " << n);
    expect_close(values(storage), want, 0);
  }
}

TEST(NativeLoops, InPlaceOnStridedViews) {
  for (int64_t n : kLengths) {
    Tensor storage = ramp(2 * n + 1);
    const auto before = values(storage);
    st::relu_(st::slice(storage, 0, 1, std::nullopt, 2));
    std::vector<double> want = before;
    for (size_t i = 1; i < want.size(); i += 2) want[i] = std::max(0.0, want[i]);
    SCOPED_TRACE(::testing::Message() << "n " << n);
    expect_close(values(storage), want, 0);
  }
  // A transposed in-place view: both strides uneven in the inner loop.
  Tensor m = st::reshape(ramp(600), {20, 30});
  Tensor want = st::relu(st::contiguous(st::t(m)));
  st::relu_(st::t(m));
  expect_close(values(st::t(m)), values(want), 0);
}

TEST(NativeLoops, EveryElementSizeStrided) {
  for (ScalarType dtype : {ScalarType::Char, ScalarType::Half, ScalarType::Int, ScalarType::Long,
                           ScalarType::Double, ScalarType::ComplexDouble}) {
    // -50 .. 49: fits every dtype.
    Tensor small =
        st::sub(st::remainder(st::arange(602, ScalarType::Float), Scalar(100.0)), Scalar(50.0));
    Tensor base = st::reshape(small, {301, 2});
    Tensor m = st::select(st::_to_copy(base, dtype), 1, 1);  // stride 2
    Tensor got = st::neg(m);
    Tensor want = st::neg(st::contiguous(m));
    SCOPED_TRACE(::testing::Message() << "dtype " << dtype);
    EXPECT_EQ(got.scalar_type(), dtype);
    if (dtype == ScalarType::ComplexDouble) {
      EXPECT_EQ(cvalues(got), cvalues(want));
    } else {
      expect_close(values(got), values(want), 0);
    }
    // In place: the strided view's items are written back (scatter_strided),
    // the other column (the gaps) is left as it was.
    Tensor full = st::_to_copy(base, dtype);
    Tensor other = st::contiguous(st::select(full, 1, 0));
    st::neg_(st::select(full, 1, 1));
    if (dtype == ScalarType::ComplexDouble) {
      EXPECT_EQ(cvalues(st::select(full, 1, 1)), cvalues(want));
      EXPECT_EQ(cvalues(st::select(full, 1, 0)), cvalues(other));
    } else {
      expect_close(values(st::select(full, 1, 1)), values(want), 0);
      expect_close(values(st::select(full, 1, 0)), values(other), 0);
    }
  }
}

// select_item picks a whole item's bits: NaN payloads, negative zeros and
// integer extremes come through unchanged, for every item size, and wider
// items (complex<double>) take the plain conditional.
template <typename T>
void expect_selects(T a, T b) {
  for (bool c : {true, false}) {
    const T want = c ? a : b;
    const T got = st::native::select_item(c, a, b);
    EXPECT_EQ(std::memcmp(&want, &got, sizeof(T)), 0) << sizeof(T) << "-byte item, c " << c;
  }
}

TEST(NativeLoops, SelectItemKeepsEveryBitOfTheChosenItem) {
  const float nan_payload = [] {
    const uint32_t bits = 0xffc01234u;
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return f;
  }();
  expect_selects<bool>(true, false);
  expect_selects<uint8_t>(0xff, 0x01);
  expect_selects<int16_t>(-32768, 32767);
  expect_selects<int32_t>(-1, 0x7fffffff);
  expect_selects<int64_t>(INT64_MIN, INT64_MAX);
  expect_selects<float>(nan_payload, -0.0f);
  expect_selects<double>(-0.0, 1e-310);
  expect_selects<std::complex<float>>({nan_payload, -0.0f}, {1.0f, -2.0f});
  expect_selects<std::complex<double>>({-0.0, 1.0}, {2.0, -3.0});
}

// The float32 vector functions (exp, rsqrt, ...) take strided rows by
// blocks too; they give every element the same value as contiguous.
TEST(NativeLoops, VectorFloatFunctionsOnStridedRows) {
  for (int64_t n : kLengths) {
    Tensor base = st::div(ramp(2 * n + 3), Scalar(50.0));
    Tensor s = st::slice(st::slice(base, 0, 3, std::nullopt, 2), 0, 0, n);
    Tensor c = st::contiguous(s);
    SCOPED_TRACE(::testing::Message() << "n " << n);
    expect_close(values(st::exp(s)), values(st::exp(c)), 0);
    expect_close(values(st::sin(s)), values(st::sin(c)), 0);
    Tensor storage = st::full({3 * n + 1}, 9.0);
    Tensor out = st::slice(storage, 0, 0, std::nullopt, 3);
    out = st::slice(out, 0, 0, n);
    st::exp_out(out, s);
    expect_close(values(out), values(st::exp(c)), 0);
    const auto sv = values(storage);
    for (int64_t i = 0; i < 3 * n + 1; ++i) {
      if (i % 3 != 0 || i / 3 >= n) {
        ASSERT_EQ(sv[static_cast<size_t>(i)], 9.0) << i;
      }
    }
  }
}

}  // namespace
