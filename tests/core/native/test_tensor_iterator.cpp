// The elementwise engine: broadcasting, type promotion, out= and in-place
// rules, overlap checks, layouts, coalescing and the parallel path.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include <st/core/parallel.h>
#include <st/core/warning.h>
#include <st/native/loops.h>
#include <st/native/tensor_iterator.h>
#include <st/native/view_ops.h>

#include "native/random_tensors.h"
#include "native/test_helpers.h"

namespace {

using namespace st_native_test;
using st::native::TensorIterator;
using st::native::TensorIteratorConfig;

TEST(NativeTensorIterator, BroadcastsInputs) {
  Tensor a = make({1, 2, 3}, {3, 1});
  Tensor b = make({10, 20}, {2});
  Tensor r = st::add(a, b);
  EXPECT_EQ(shape(r), (std::vector<int64_t>{3, 2}));
  expect_close(values(r), {11, 21, 12, 22, 13, 23});
}

TEST(NativeTensorIterator, BroadcastErrorNamesSizes) {
  EXPECT_NATIVE_ERROR(
      st::add(make1({1, 2, 3}), make1({1, 2})),
      "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0");
}

// Expanded operands cost no memory, but their broadcast shape can hold
// more than INT64_MAX elements: refused, not a wrapped element count.
TEST(NativeTensorIterator, BroadcastShapePastInt64IsRefused) {
  constexpr int64_t k2to32 = int64_t{1} << 32;
  Tensor one = st::zeros({1, 1});
  Tensor tall = st::expand(one, {k2to32, 1});
  Tensor wide = st::expand(one, {1, k2to32});
  EXPECT_NATIVE_ERROR(st::add(tall, wide),
                      "number of elements of sizes [4294967296, 4294967296] overflows int64");
  // Empty, with contiguous strides whose byte sizes do not fit int64.
  Tensor empty = st::empty({0, int64_t{1} << 62}, ScalarType::Long);
  EXPECT_EQ(shape(st::add(empty, empty)), (std::vector<int64_t>{0, int64_t{1} << 62}));
}

TEST(NativeTensorIterator, TypePromotionFollowsCategories) {
  Tensor i = make1({1, 2}, ScalarType::Int);
  Tensor f = make1({1, 2}, ScalarType::Float);
  Tensor d0 = make({1}, {}, ScalarType::Double);  // zero-dim
  EXPECT_EQ(st::add(i, f).dtype(), ScalarType::Float);
  EXPECT_EQ(st::add(i, 2).dtype(), ScalarType::Int);      // int scalar keeps Int
  EXPECT_EQ(st::add(i, 2.5).dtype(), ScalarType::Float);  // float scalar -> default
  EXPECT_EQ(st::add(f, d0).dtype(), ScalarType::Float);   // zero-dim same category
  EXPECT_EQ(st::add(i, d0).dtype(), ScalarType::Double);  // zero-dim higher category
  EXPECT_EQ(st::add(make1({1}, ScalarType::Byte), make1({1}, ScalarType::Char)).dtype(),
            ScalarType::Short);
  EXPECT_EQ(st::mul(make1({1}, ScalarType::Bool), 3).dtype(), ScalarType::Long);
  EXPECT_EQ(st::add(make1({1}, ScalarType::Half), make1({1}, ScalarType::BFloat16)).dtype(),
            ScalarType::Float);
  EXPECT_EQ(st::add(f, Scalar(std::complex<double>(1, 1))).dtype(), ScalarType::ComplexFloat);
}

TEST(NativeTensorIterator, OutIsResizedWithWarning) {
  Tensor out = st::empty({5});
  st::WarningCapture cap;
  st::add_out(out, make1({1, 2}), make1({3, 4}));
  EXPECT_EQ(shape(out), (std::vector<int64_t>{2}));
  expect_close(values(out), {4, 6});
  ASSERT_EQ(cap.messages().size(), 1u);
  EXPECT_NE(cap.messages()[0].find("An output with one or more elements was resized"),
            std::string::npos);
  Tensor empty_out = st::empty({0});
  st::WarningCapture cap2;
  st::add_out(empty_out, make1({1, 2}), make1({3, 4}));
  EXPECT_TRUE(cap2.messages().empty());
}

TEST(NativeTensorIterator, OutDtypeIsCheckedAndCastInto) {
  Tensor out = st::empty({0}, ScalarType::Long);
  EXPECT_NATIVE_ERROR(st::add_out(out, make1({1.5}), make1({1})),
                      "result type Float can't be cast to the desired output type Long");
  Tensor dout = st::empty({0}, ScalarType::Double);
  st::add_out(dout, make1({1, 2}, ScalarType::Int), make1({3, 4}, ScalarType::Int));
  EXPECT_EQ(dout.dtype(), ScalarType::Double);
  expect_close(values(dout), {4, 6});
}

TEST(NativeTensorIterator, InPlaceRules) {
  Tensor a = make1({1, 2, 3});
  EXPECT_NATIVE_ERROR(st::add_(a, make({1, 2, 3, 4, 5, 6}, {2, 3})),
                      "output with shape [3] doesn't match the broadcast shape [2, 3]");
  Tensor i = make1({1, 2}, ScalarType::Long);
  EXPECT_NATIVE_ERROR(st::add_(i, 1.5),
                      "result type Float can't be cast to the desired output type Long");
  Tensor f = make1({1, 2});
  st::add_(f, make1({1, 1}, ScalarType::Double));  // Double -> Float is allowed
  EXPECT_EQ(f.dtype(), ScalarType::Float);
  expect_close(values(f), {2, 3});
  st::mul_(f, 2);
  expect_close(values(f), {4, 6});
}

TEST(NativeTensorIterator, WrittenOutputMayNotOverlapItself) {
  Tensor e = st::expand(make1({1}), {3});
  EXPECT_NATIVE_ERROR(
      st::add_(e, 1),
      "more than one element of the written-to tensor refers to a single memory location");
  Tensor base = make1({0, 1, 2, 3, 4});
  Tensor x = st::narrow(base, 0, 0, 4);
  Tensor y = st::narrow(base, 0, 1, 4);
  EXPECT_NATIVE_ERROR(st::add_out(x, y, y),
                      "some elements of the input tensor and the written-to tensor refer to a "
                      "single memory location");
}

TEST(NativeTensorIterator, OutputFollowsInputLayout) {
  Tensor a = st::transpose(make({1, 2, 3, 4, 5, 6}, {2, 3}), 0, 1);  // [3, 2], strides [1, 3]
  Tensor r = st::neg(a);
  EXPECT_EQ(shape(r), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(r.stride(0), 1);
  EXPECT_EQ(r.stride(1), 3);
  expect_close(values(r), {-1, -4, -2, -5, -3, -6});
}

TEST(NativeTensorIterator, ZeroSizeAndZeroDim) {
  Tensor z = st::add(st::empty({0, 3}), make1({1, 2, 3}));
  EXPECT_EQ(shape(z), (std::vector<int64_t>{0, 3}));
  Tensor s = st::add(make({2}, {}), make({3}, {}));
  EXPECT_EQ(s.dim(), 0);
  expect_close(values(s), {5});
}

TEST(NativeTensorIterator, ParallelPathMatchesSerial) {
  const int64_t n = 300007;
  Tensor a = st::arange(n, ScalarType::Double);
  Tensor b = st::full({n}, 2.0, ScalarType::Double);
  Tensor r = st::mul(a, b);
  auto v = values(r);
  for (int64_t i = 0; i < n; i += 9973)
    EXPECT_EQ(v[static_cast<size_t>(i)], 2.0 * static_cast<double>(i));
  EXPECT_EQ(v.back(), 2.0 * static_cast<double>(n - 1));
}

TEST(NativeTensorIterator, CoalescesContiguousDims) {
  // A custom kernel over a 3-d contiguous tensor sees one long inner loop.
  Tensor a = st::zeros({4, 5, 6});
  TensorIterator it = TensorIteratorConfig().add_output(Tensor()).add_input(a).build();
  int64_t calls = 0, longest = 0;
  it.serial_for_each([&](char**, const int64_t*, int64_t n) {
    ++calls;
    longest = std::max(longest, n);
  });
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(longest, 120);
}

// A 2-d loop gets whole rows in one call (a broadcast row of a [2, 3, 7]
// operand: 6 rows of 7), and partial rows at the ends of a range as rows
// of their own; each element is visited once, at its own address.
TEST(NativeTensorIterator, TwoDimLoopCoversRowsOnce) {
  Tensor a = st::zeros({2, 3, 7}, ScalarType::Int);
  Tensor row = st::zeros({7}, ScalarType::Int);
  TensorIterator it = TensorIteratorConfig()
                          .add_output(a)
                          .add_input(a)
                          .add_input(row)
                          .is_inplace(true)
                          .check_mem_overlap(false)
                          .build();
  int64_t calls = 0;
  auto visit = [&](char** data, const int64_t* strides, const int64_t* outer, int64_t n,
                   int64_t rows) {
    ++calls;
    EXPECT_EQ(n, 7);
    EXPECT_EQ(outer[2], 0);  // the broadcast row repeats
    for (int64_t j = 0; j < rows; ++j) {
      for (int64_t i = 0; i < n; ++i) {
        ++*reinterpret_cast<int32_t*>(data[0] + j * outer[0] + i * strides[0]);
      }
    }
  };
  it.for_each_2d(visit, /*grain_size=*/1 << 20);
  EXPECT_EQ(calls, 1);  // dims 0 and 1 coalesce: 6 rows of 7
  for (double v : values(a)) EXPECT_EQ(v, 1);
  // Ranges that start and end inside rows: run_range over every split
  // point of the parallel path (4 chunks of 42 elements, rows of 7).
  const int saved = st::get_num_threads();
  st::set_num_threads(4);
  it.for_each_2d(
      [&](char** data, const int64_t* strides, const int64_t* outer, int64_t n, int64_t rows) {
        for (int64_t j = 0; j < rows; ++j) {
          for (int64_t i = 0; i < n; ++i) {
            ++*reinterpret_cast<int32_t*>(data[0] + j * outer[0] + i * strides[0]);
          }
        }
      },
      /*grain_size=*/2);
  st::set_num_threads(saved);
  for (double v : values(a)) EXPECT_EQ(v, 2);
}

// Broadcast rows through the typed loops match the materialized operand,
// in float32 (the per-ISA loops), int64 and a bool output, on a range
// split across rows by the parallel path.
TEST(NativeTensorIterator, BroadcastRowsMatchMaterialized) {
  const int64_t rows = 1001, cols = 37;  // past the grain, split inside a row
  Tensor a = st::reshape(st::arange(rows * cols, ScalarType::Float), {rows, cols});
  Tensor b = st::sub(st::arange(cols, ScalarType::Float), 5.0);
  Tensor full = st::contiguous(st::expand(b, {rows, cols}));
  const int saved = st::get_num_threads();
  st::set_num_threads(2);
  for (Tensor (*op)(const Tensor&, const Tensor&) :
       {static_cast<Tensor (*)(const Tensor&, const Tensor&)>(&st::mul),
        static_cast<Tensor (*)(const Tensor&, const Tensor&)>(&st::maximum),
        static_cast<Tensor (*)(const Tensor&, const Tensor&)>(&st::lt)}) {
    EXPECT_EQ(values(op(a, b)), values(op(a, full)));
    EXPECT_EQ(values(op(b, a)), values(op(full, a)));
    Tensor ai = st::to(a, ScalarType::Long), bi = st::to(b, ScalarType::Long);
    EXPECT_EQ(values(op(ai, bi)), values(op(ai, st::to(full, ScalarType::Long))));
  }
  st::set_num_threads(saved);
}

// A resized out= takes the layout an allocated result would: the inputs'
// dim order (a transposed input gives a transposed out), as PyTorch does.
TEST(NativeTensorIterator, ResizedOutFollowsTheInputsLayout) {
  Tensor a = st::t(make({1, 2, 3, 4, 5, 6}, {2, 3}));  // [3, 2], strides [1, 3]
  Tensor out = st::empty({0});
  st::neg_out(out, a);
  EXPECT_EQ(std::vector<int64_t>(out.strides().begin(), out.strides().end()),
            (std::vector<int64_t>{1, 3}));
  expect_close(values(out), {-1, -4, -2, -5, -3, -6});
  // An out= that already has the shape keeps its own strides.
  Tensor kept = st::empty({3, 2});
  st::neg_out(kept, a);
  EXPECT_EQ(std::vector<int64_t>(kept.strides().begin(), kept.strides().end()),
            (std::vector<int64_t>{2, 1}));
  expect_close(values(kept), {-1, -4, -2, -5, -3, -6});
}

// Outputs of another dtype than the kernel's are converted block by block
// (Note [Converting outputs by blocks]): rows longer than a block, strided
// outputs, out= of a wider dtype, and the one-element case.
TEST(NativeTensorIterator, OutputsOfAnotherDtypeAreConvertedByBlocks) {
  const int64_t n = 5000;  // rows of more than one 4 KiB block of bools
  Tensor a = st::arange(n, ScalarType::Float);
  Tensor b = st::remainder(a, 3.0);
  Tensor self = st::clone(a);
  st::lt_(self, st::mul(b, 1000.0));  // a < 1000 * (a % 3)
  auto v = values(self);
  for (int64_t i = 0; i < n; ++i) {
    const double want = static_cast<double>(i) < 1000.0 * static_cast<double>(i % 3) ? 1 : 0;
    ASSERT_EQ(v[static_cast<size_t>(i)], want) << i;
  }
  // A strided in-place self (every other column of a [3, 8] tensor).
  Tensor base =
      make({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23},
           {3, 8});
  Tensor cols = st::slice(base, 1, 0, 8, 2);  // [3, 4], strides [8, 2]
  st::gt_(cols, make1({2, 9, 12, 23}));
  expect_close(values(base),
               {0, 1, 0, 3, 0, 5, 0, 7, 1, 9, 1, 11, 0, 13, 0, 15, 1, 17, 1, 19, 1, 21, 0, 23});
  // A float result into a double out= (a safe cast).
  Tensor out = st::empty({3}, ScalarType::Double);
  st::mul_out(out, make1({1.5, 2, 3}), make1({2, 0.25, -1}));
  expect_close(values(out), {3, 0.5, -3});
  // One element.
  Tensor one = make1({2.5});
  st::eq_(one, make1({2.5}));
  expect_close(values(one), {1});
}

// An input that aliases the output in another layout (here its transpose)
// must see the values before any is written, as through a temporary.
TEST(NativeTensorIterator, OutputAliasedInAnotherLayoutReadsOldValues) {
  Tensor m = make({1, 5, 3, 4}, {2, 2});
  st::lt_(m, st::t(m));  // m[i][j] < m[j][i]
  expect_close(values(m), {0, 0, 1, 0});
}

// A broadcast operand (stride 0 in the inner loop: a Scalar, a column)
// gives the same result as the materialized one.
TEST(NativeTensorIterator, BroadcastInnerOperandMatchesMaterialized) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor col = make({10, 20}, {2, 1});
  expect_close(values(st::sub(a, col)), {-9, -8, -7, -16, -15, -14});
  expect_close(values(st::sub(col, a)), {9, 8, 7, 16, 15, 14});
  expect_close(values(st::minimum(a, make({3}, {}))), {1, 2, 3, 3, 3, 3});
  expect_close(values(st::div(make({3}, {}), a)), {3, 1.5, 1, 0.75, 0.6, 0.5});
  // Rows longer than the repeated value's block, each dtype's width.
  std::mt19937 g(11);
  for (ScalarType dt : {ScalarType::Byte, ScalarType::Half, ScalarType::Float, ScalarType::Double,
                        ScalarType::Long}) {
    SCOPED_TRACE(torch::headeronly::toString(dt));
    const Tensor rows = random_ints(g, {3, 700}, dt, 1, 5);
    const Tensor column = random_ints(g, {3, 1}, dt, 1, 5);
    const Tensor full = st::contiguous(st::expand(column, {3, 700}));
    EXPECT_EQ(values(st::mul(rows, column)), values(st::mul(rows, full)));
    EXPECT_EQ(values(st::sub(column, rows)), values(st::sub(full, rows)));
  }
}

bool same_bytes(const Tensor& x, const Tensor& y) {
  const Tensor cx = st::contiguous(x), cy = st::contiguous(y);
  return cx.dtype() == cy.dtype() && shape(cx) == shape(cy) &&
         std::memcmp(cx.const_data_ptr(), cy.const_data_ptr(), cx.nbytes()) == 0;
}

// A tensor of `shape` whose last two dims are stored the other way round
// (a transpose), every `step`-th element of its stored rows, which are
// padded to a multiple of 4 KiB (the strides that take the tiles).
Tensor crossed(std::mt19937& g, std::vector<int64_t> shape, ScalarType dt, int64_t step) {
  const int64_t rows = shape[shape.size() - 2];
  const int64_t per_page = 4096 / static_cast<int64_t>(torch::headeronly::elementSize(dt));
  std::swap(shape[shape.size() - 1], shape[shape.size() - 2]);
  shape.back() = (rows * step + per_page - 1) / per_page * per_page;
  Tensor stored = random_ints(g, shape, dt, -3, 3);
  return st::transpose(st::slice(stored, -1, 0, rows * step, step), -1, -2);
}

// Inputs read across the rows a multiple of 4 KiB apart (a transpose
// beside contiguous operands) run by tiles through a stack buffer (Note
// [Crossed inputs by tiles]): the same bytes as with the inputs made
// contiguous first, for every element size, whole and partial tiles (and
// rows too short for them), stacked planes, a crossed input that is
// itself strided, two crossed inputs into a contiguous out=, an output
// converted by blocks, a unary function and a comparison.
TEST(NativeTensorIterator, CrossedInputsGiveTheBytesOfContiguousOnes) {
  std::mt19937 g(5);
  const std::vector<std::vector<int64_t>> shapes = {
      {16, 16}, {17, 23}, {40, 15}, {300, 515}, {3, 40, 270}};
  for (ScalarType dt : {ScalarType::Bool, ScalarType::Byte, ScalarType::Half, ScalarType::Float,
                        ScalarType::Double, ScalarType::Long, ScalarType::ComplexDouble}) {
    for (const auto& sh : shapes) {
      SCOPED_TRACE(::testing::Message() << torch::headeronly::toString(dt) << " rows "
                                        << sh[sh.size() - 2] << " cols " << sh.back());
      const Tensor a = random_ints(g, sh, dt, -3, 3);
      const Tensor b = crossed(g, sh, dt, 1), c = crossed(g, sh, dt, 2);
      const Tensor bc = st::contiguous(b), cc = st::contiguous(c);
      EXPECT_TRUE(same_bytes(st::mul(a, b), st::mul(a, bc)));
      EXPECT_TRUE(same_bytes(st::mul(c, a), st::mul(cc, a)));
      EXPECT_TRUE(same_bytes(st::eq(a, b), st::eq(a, bc)));
      Tensor out = st::empty(IntArrayRef(sh), dt);
      st::mul_out(out, b, c);
      EXPECT_EQ(out.stride(out.dim() - 1), 1);
      EXPECT_TRUE(same_bytes(out, st::mul(bc, cc)));
      if (dt == ScalarType::Float || dt == ScalarType::Double) {
        Tensor wide = st::empty(IntArrayRef(sh), ScalarType::ComplexDouble);
        st::mul_out(wide, a, c);  // computed in dt, converted by blocks
        EXPECT_TRUE(same_bytes(wide, st::to(st::mul(a, cc), ScalarType::ComplexDouble)));
        Tensor e = st::empty(IntArrayRef(sh), dt);
        st::exp_out(e, c);
        EXPECT_TRUE(same_bytes(e, st::exp(cc)));
      }
    }
  }
}

// One element takes build()'s shortcut: the output layout and the result
// are those of the general path.
TEST(NativeTensorIterator, OneElementShortcut) {
  Tensor r = st::div(make({6}, {1, 1}), make({4}, {1}));
  EXPECT_EQ(shape(r), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(r.stride(0), 1);
  EXPECT_EQ(r.stride(1), 1);
  expect_close(values(r), {1.5});
  Tensor out = st::empty({0}, ScalarType::Double);
  st::div_out(out, make({6}, {}), make({4}, {}));
  EXPECT_EQ(out.dim(), 0);
  expect_close(values(out), {1.5});
}

}  // namespace
