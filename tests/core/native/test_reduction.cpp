// The reduction engine's geometry: which dims it walks, merged where one
// steps over the next, and what the engine computes over such walks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <st/core/parallel.h>

#include <st/native/reduction.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;
using st::native::make_reduce_geometry;
using st::native::ReduceGeometry;

using V = std::vector<int64_t>;

TEST(NativeReduction, ContiguousKeptAndReducedDimsEachBecomeOne) {
  const Tensor t = st::zeros({4, 5, 6}, ScalarType::Float);
  const std::vector<int64_t> last{-1};
  const ReduceGeometry g = make_reduce_geometry(t, IntArrayRef(last), false, "sum");
  EXPECT_EQ(g.kept_sizes, V({20}));
  EXPECT_EQ(g.kept_strides, V({6}));
  EXPECT_EQ(g.red_sizes, V({6}));
  EXPECT_EQ(g.red_strides, V({1}));
  EXPECT_EQ(g.num_outputs, 20);
  EXPECT_EQ(g.reduce_size, 6);
  EXPECT_EQ(g.out_shape, V({4, 5}));

  const std::vector<int64_t> first_two{0, 1};
  const ReduceGeometry h = make_reduce_geometry(t, IntArrayRef(first_two), true, "sum");
  EXPECT_EQ(h.red_sizes, V({20}));
  EXPECT_EQ(h.red_strides, V({6}));
  EXPECT_EQ(h.kept_sizes, V({6}));
  EXPECT_EQ(h.out_shape, V({1, 1, 6}));
}

TEST(NativeReduction, KeptDimsMergeAcrossAReducedDimAndSizeOneDimsDrop) {
  // [3, 4, 5] viewed from a contiguous [4, 3, 5]: strides (5, 15, 1).
  // Reducing dim 1, the kept dims 3 (stride 5) and 5 (stride 1) are one
  // dim of 15 outputs at stride 1.
  const Tensor t = st::permute(st::zeros({4, 3, 5}, ScalarType::Float), {1, 0, 2});
  const std::vector<int64_t> mid{1};
  const ReduceGeometry g = make_reduce_geometry(t, IntArrayRef(mid), false, "sum");
  EXPECT_EQ(g.kept_sizes, V({15}));
  EXPECT_EQ(g.kept_strides, V({1}));
  EXPECT_EQ(g.red_sizes, V({4}));
  EXPECT_EQ(g.red_strides, V({15}));
  EXPECT_EQ(g.out_shape, V({3, 5}));

  // A transposed matrix's dims do not merge; size-1 dims leave the walk
  // but not the result's shape.
  const Tensor u = st::permute(st::zeros({1, 4, 3, 1}, ScalarType::Float), {0, 2, 1, 3});
  const std::vector<int64_t> none{2};
  const ReduceGeometry h = make_reduce_geometry(u, IntArrayRef(none), false, "sum");
  EXPECT_EQ(h.kept_sizes, V({3}));
  EXPECT_EQ(h.kept_strides, V({1}));
  EXPECT_EQ(h.red_sizes, V({4}));
  EXPECT_EQ(h.red_strides, V({3}));
  EXPECT_EQ(h.out_shape, V({1, 3, 1}));
  EXPECT_EQ(h.num_outputs, 3);
}

TEST(NativeReduction, StridesOfAnEmptyTensorMergeNothingWhenTheirProductOverflows) {
  // 4 * 2^62 wraps to 0, the stride before it: no merge. The sum over
  // the empty dim is 8 zeros, and no offset is formed (3 * 2^62 would
  // overflow too).
  const int64_t big = int64_t{1} << 62;
  const Tensor t = st::empty_strided({0, 2, 4}, {1, 0, big}, ScalarType::Float);
  const std::vector<int64_t> first{0};
  const ReduceGeometry g = make_reduce_geometry(t, IntArrayRef(first), false, "sum");
  EXPECT_EQ(g.kept_sizes, V({2, 4}));
  EXPECT_EQ(g.kept_strides, V({0, big}));
  EXPECT_EQ(g.num_outputs, 8);
  EXPECT_EQ(g.reduce_size, 0);
  EXPECT_EQ(values(st::sum(t, IntArrayRef(first))), std::vector<double>(8, 0.0));
}

// A float sum over an outer dim adds groups of kSumRowsGroup rows in float,
// each into the output's double sum (rows_add_f32); the engine's calls
// start at whole groups, so the bits are the model's whatever the thread
// count splits, for rows read in place and rows gathered from a strided
// view.
TEST(NativeReduction, FloatSumsOverAnOuterDimAddGroupsOfRowsWhateverTheThreads) {
  const int64_t rows = 53, n = 2000;  // 2000 outputs: split between threads
  constexpr int64_t kGroup = 16;      // rows per float group (cpu::kSumRowsGroup)
  std::mt19937 g(3);
  std::uniform_real_distribution<float> d(-1, 1);
  std::uniform_int_distribution<int> e(-20, 20);
  const Tensor wide = st::empty({rows, 2 * n}, ScalarType::Float);
  float* p = static_cast<float*>(wide.data_ptr());
  for (int64_t i = 0; i < wide.numel(); ++i) p[i] = std::ldexp(d(g), e(g));
  const Tensor plain = st::contiguous(st::as_strided(wide, {rows, n}, {2 * n, 2}, 0));
  const Tensor strided = st::as_strided(wide, {rows, n}, {2 * n, 2}, 0);
  std::vector<double> want(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) {
    double acc = 0;
    for (int64_t r0 = 0; r0 < rows; r0 += kGroup) {
      float s = p[r0 * 2 * n + 2 * j];
      for (int64_t r = r0 + 1; r < std::min(rows, r0 + kGroup); ++r) {
        s += p[r * 2 * n + 2 * j];
      }
      acc += static_cast<double>(s);
    }
    want[static_cast<size_t>(j)] = static_cast<float>(acc);
  }
  const int saved = st::get_num_threads();
  const std::vector<int64_t> outer{0};
  for (int threads : {1, 2, 3}) {
    st::set_num_threads(threads);
    SCOPED_TRACE(::testing::Message() << threads << " threads");
    EXPECT_EQ(values(st::sum(plain, IntArrayRef(outer))), want);
    EXPECT_EQ(values(st::sum(strided, IntArrayRef(outer))), want);
  }
  st::set_num_threads(saved);
}

// The engine over merged walks: every reduction of a [3, 4, 5] tensor in
// three layouts against sums and maxima counted out by index.
TEST(NativeReduction, SumsAndMaximaOverEveryDimSetAndLayout) {
  const Tensor base = st::randn({4, 3, 5}, ScalarType::Float);
  const std::vector<Tensor> layouts = {
      st::contiguous(st::permute(base, {1, 0, 2})),                          // row-major [3, 4, 5]
      st::permute(base, {1, 0, 2}),                                          // outer dims swapped
      st::permute(st::contiguous(st::permute(base, {2, 1, 0})), {1, 2, 0}),  // column-major
  };
  const std::vector<double> x = values(layouts[0]);
  const auto at = [&](int64_t i, int64_t j, int64_t k) { return x[(i * 4 + j) * 5 + k]; };
  const V sizes{3, 4, 5};
  for (int mask = 1; mask < 8; ++mask) {
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < 3; ++d) {
      if (mask & (1 << d)) dims.push_back(d);
    }
    // The expected results, row-major over the kept dims.
    std::vector<double> want_sum, want_max;
    const auto n = [&](int64_t d, bool kept) { return ((mask >> d) & 1) == kept ? 1 : sizes[d]; };
    for (int64_t i = 0; i < n(0, true); ++i) {
      for (int64_t j = 0; j < n(1, true); ++j) {
        for (int64_t k = 0; k < n(2, true); ++k) {
          double s = 0, m = -1e300;
          for (int64_t a = 0; a < n(0, false); ++a) {
            for (int64_t b = 0; b < n(1, false); ++b) {
              for (int64_t c = 0; c < n(2, false); ++c) {
                const double v = at(mask & 1 ? a : i, mask & 2 ? b : j, mask & 4 ? c : k);
                s += v;
                m = std::max(m, v);
              }
            }
          }
          want_sum.push_back(static_cast<float>(s));
          want_max.push_back(m);
        }
      }
    }
    for (size_t l = 0; l < layouts.size(); ++l) {
      SCOPED_TRACE(::testing::Message() << "dims mask " << mask << ", layout " << l);
      const std::vector<double> got = values(st::sum(layouts[l], IntArrayRef(dims)));
      ASSERT_EQ(got.size(), want_sum.size());
      for (size_t o = 0; o < got.size(); ++o) EXPECT_NEAR(got[o], want_sum[o], 1e-5) << o;
      EXPECT_EQ(values(st::amax(layouts[l], IntArrayRef(dims))), want_max);
    }
  }
}

}  // namespace
