// The same-dtype strided copy (core/src/native/copy_kernel.cpp) on the
// cases its loop reduction and overlap checks single out: size-1 dims with
// any stride, dims that merge and dims that do not, stride-0 sources, gaps
// in the destination left untouched, rank 0, empty tensors, a tensor copied
// onto a view of itself, and the errors for undefined tensors. (Round trips
// per element size and the size/dtype/overlap messages are in
// tests/core/test_view_ops.cpp.) copy_flipped_ is checked against an
// index-by-index reference on every element size, flip mask, odd shapes,
// strided and expanded sources and strided destinations.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <st/native/copy.h>
#include <st/native/view_ops.h>

#include "tensor_test_util.h"

namespace {

namespace native = st::native;
using st::Device;
using st::ScalarType;
using st::Tensor;
using st::testing::arange_float;
using st::testing::error_of;
using st::testing::float_values;

Tensor empty_float(const std::vector<int64_t>& sizes) {
  return st::detail::empty_generic(sizes, ScalarType::Float, Device("cpu"));
}

Tensor strided_float(const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides) {
  return st::detail::empty_strided_generic(sizes, strides, ScalarType::Float, Device("cpu"));
}

void fill_storage(const Tensor& t, float v) {
  float* p = static_cast<float*>(t.storage()->mutable_data());
  for (size_t i = 0; i < t.storage().nbytes() / sizeof(float); ++i) p[i] = v;
}

TEST(CopySameDtype, SizeOneDimsWithOddStridesAreIgnored) {
  // A [2, 1, 3] destination whose size-1 dim has a stride pointing anywhere.
  Tensor dst = strided_float({2, 1, 3}, {3, 1000, 1});
  Tensor src = arange_float({2, 1, 3});
  native::copy_same_dtype_(dst, src);
  EXPECT_EQ(float_values(dst), (std::vector<float>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(dst.storage().nbytes(), 6 * sizeof(float));  // nothing past the six written
}

TEST(CopySameDtype, GapsInTheDestinationAreNotWritten) {
  // Rows 4 floats apart, 3 used: the 4th float of every row keeps its value.
  Tensor dst = strided_float({3, 3}, {4, 1});
  fill_storage(dst, -1.0f);
  native::copy_same_dtype_(dst, arange_float({3, 3}));
  const float* p = static_cast<const float*>(dst.storage()->data());
  EXPECT_EQ(std::vector<float>(p, p + 11), (std::vector<float>{0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8}));
}

// Every other element on either side or both (the per-ISA stride-2
// loops, both-sided ones by blocks of 256), 4- and 8-byte items, lengths
// around the vector widths and the block: the odd elements of a strided
// destination keep their value, and nothing is written past its last
// element (the storage ends there).
TEST(CopySameDtype, StrideTwoRowsEitherSideOrBoth) {
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    for (int64_t n : {1, 7, 8, 9, 16, 17, 33, 255, 256, 257, 600}) {
      SCOPED_TRACE(std::to_string(n) + (dtype == ScalarType::Float ? " float" : " double"));
      const Device cpu("cpu");
      Tensor dense = st::detail::empty_generic({n}, dtype, cpu);
      Tensor sparse = st::detail::empty_strided_generic({n}, {2}, dtype, cpu);
      Tensor sparse2 = st::detail::empty_strided_generic({n}, {2}, dtype, cpu);
      const auto nbytes = [](const Tensor& t) { return t.storage().nbytes(); };
      ASSERT_EQ(nbytes(sparse), static_cast<size_t>(2 * n - 1) * dense.element_size());
      // Items as doubles or floats k + 0.5 (exact in both), gaps -1.
      auto set = [&](const Tensor& t, int64_t step, double base) {
        auto* b = static_cast<unsigned char*>(t.storage()->mutable_data());
        const int64_t count = static_cast<int64_t>(nbytes(t) / t.element_size());
        for (int64_t i = 0; i < count; ++i) {
          const double v = i % step == 0 ? base + static_cast<double>(i / step) : -1.0;
          if (dtype == ScalarType::Float) {
            const float f = static_cast<float>(v);
            std::memcpy(b + i * 4, &f, 4);
          } else {
            std::memcpy(b + i * 8, &v, 8);
          }
        }
      };
      auto get = [&](const Tensor& t, int64_t i) {
        const auto* b = static_cast<const unsigned char*>(t.storage()->data());
        if (dtype == ScalarType::Float) {
          float f;
          std::memcpy(&f, b + i * 4, 4);
          return static_cast<double>(f);
        }
        double v;
        std::memcpy(&v, b + i * 8, 8);
        return v;
      };
      set(sparse, 2, 0.5);
      native::copy_same_dtype_(dense, sparse);  // gather
      for (int64_t j = 0; j < n; ++j) ASSERT_EQ(get(dense, j), 0.5 + static_cast<double>(j));
      set(sparse2, 2, 1000.5);
      native::copy_same_dtype_(sparse2, dense);  // scatter
      for (int64_t i = 0; i < 2 * n - 1; ++i) {
        ASSERT_EQ(get(sparse2, i), i % 2 == 0 ? 0.5 + static_cast<double>(i / 2) : -1.0) << i;
      }
      set(sparse, 2, 7000.5);
      set(sparse2, 2, 0.0);
      native::copy_same_dtype_(sparse2, sparse);  // both strided
      for (int64_t i = 0; i < 2 * n - 1; ++i) {
        ASSERT_EQ(get(sparse2, i), i % 2 == 0 ? 7000.5 + static_cast<double>(i / 2) : -1.0) << i;
      }
    }
  }
}

TEST(CopySameDtype, MergedAndUnmergedDimsGiveTheSameElements) {
  // src contiguous [2, 3, 4]; dst with dims 1 and 2 contiguous to each
  // other (mergeable) but a gap between the outer rows.
  Tensor src = arange_float({2, 3, 4});
  Tensor dst = strided_float({2, 3, 4}, {20, 4, 1});
  native::copy_same_dtype_(dst, src);
  EXPECT_EQ(float_values(dst), float_values(src));
  // Every dim strided differently: nothing merges.
  Tensor odd = strided_float({2, 3, 4}, {1, 2, 6});
  native::copy_same_dtype_(odd, src);
  EXPECT_EQ(float_values(odd), float_values(src));
  // And back from the odd layout into a fresh contiguous tensor.
  Tensor back = empty_float({2, 3, 4});
  native::copy_same_dtype_(back, odd);
  EXPECT_EQ(float_values(back), float_values(src));
}

TEST(CopySameDtype, StrideZeroSourceBroadcasts) {
  Tensor row = arange_float({1, 4});
  Tensor src = native::expand(row, {3, 4});
  Tensor dst = empty_float({3, 4});
  native::copy_same_dtype_(dst, src);
  EXPECT_EQ(float_values(dst), (std::vector<float>{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}));
  // One element broadcast everywhere (all strides 0).
  Tensor one = native::expand(arange_float({1, 1}), {2, 5});
  Tensor d2 = strided_float({2, 5}, {1, 2});
  native::copy_same_dtype_(d2, one);
  EXPECT_EQ(float_values(d2), std::vector<float>(10, 0.0f));
}

// A matrix of contiguous rows goes to the per-ISA row copy in one call:
// every row length around the short moves and the vector widths, rows
// with gaps on both sides (the gaps of the destination keep their value)
// and a broadcast row (source row stride 0).
TEST(CopySameDtype, ContiguousRowsOfAMatrixEveryLength) {
  for (int64_t n : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100}) {
    SCOPED_TRACE(n);
    constexpr int64_t kRows = 5;
    Tensor src = strided_float({kRows, n}, {n + 3, 1});
    float* sp = static_cast<float*>(src.storage()->mutable_data());
    for (size_t i = 0; i < src.storage().nbytes() / sizeof(float); ++i) {
      sp[i] = static_cast<float>(i);
    }
    Tensor dst = strided_float({kRows, n}, {n + 2, 1});
    fill_storage(dst, -1.0f);
    native::copy_same_dtype_(dst, src);
    const float* dp = static_cast<const float*>(dst.storage()->data());
    for (int64_t r = 0; r < kRows; ++r) {
      for (int64_t j = 0; j < n + 2 && r * (n + 2) + j < kRows * (n + 2) - 2; ++j) {
        const float want = j < n ? sp[r * (n + 3) + j] : -1.0f;
        ASSERT_EQ(dp[r * (n + 2) + j], want) << "row " << r << " at " << j;
      }
    }
    Tensor bcast = native::expand(arange_float({1, n}), {kRows, n});
    Tensor out = empty_float({kRows, n});
    native::copy_same_dtype_(out, bcast);
    const std::vector<float> got = float_values(out);
    for (int64_t i = 0; i < kRows * n; ++i) {
      ASSERT_EQ(got[static_cast<size_t>(i)], static_cast<float>(i % n)) << i;
    }
  }
}

TEST(CopySameDtype, RankZeroAndEmpty) {
  Tensor s = st::detail::empty_generic({}, ScalarType::Double, Device("cpu"));
  Tensor v = st::detail::empty_generic({}, ScalarType::Double, Device("cpu"));
  *v.data_ptr<double>() = 2.5;
  native::copy_same_dtype_(s, v);
  EXPECT_EQ(*s.data_ptr<double>(), 2.5);
  // Empty tensors copy nothing, even with strides that would overlap.
  Tensor e = strided_float({0, 3}, {0, 0});
  EXPECT_EQ(&native::copy_same_dtype_(e, empty_float({0, 3})), &e);
}

TEST(CopySameDtype, ReturnsDestination) {
  Tensor dst = empty_float({4});
  const Tensor& r = native::copy_same_dtype_(dst, arange_float({4}));
  EXPECT_EQ(&r, &dst);
}

TEST(CopySameDtype, TensorOntoItsOwnTransposeIsAnOverlapError) {
  // Same first address, different strides: the elements differ, so this
  // is a partial overlap, not the no-op of copying a tensor onto itself.
  Tensor a = arange_float({3, 3});
  EXPECT_NE(error_of([&] { native::copy_same_dtype_(a, native::transpose(a, 0, 1)); })
                .find("some elements of the input tensor and the written-to tensor refer to a "
                      "single memory location"),
            std::string::npos);
  EXPECT_EQ(float_values(a), (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8}));  // untouched
}

TEST(CopySameDtype, InterleavedViewsOfOneStorageAreNotAnOverlap) {
  // Even and odd elements of one buffer: a shared storage, no shared
  // element (neither view is dense, so the partial-overlap check is off).
  Tensor a = arange_float({8});
  Tensor even = native::slice(a, 0, 0, std::nullopt, 2);
  Tensor odd = native::slice(a, 0, 1, std::nullopt, 2);
  native::copy_same_dtype_(odd, even);
  EXPECT_EQ(float_values(a), (std::vector<float>{0, 0, 2, 2, 4, 4, 6, 6}));
}

TEST(CopySameDtype, UndefinedTensorsAreErrors) {
  Tensor undefined;
  Tensor t = arange_float({2});
  EXPECT_EQ(error_of([&] { native::copy_same_dtype_(undefined, t); }),
            "copy_same_dtype_: expected defined tensors, got an undefined dst");
  EXPECT_EQ(error_of([&] { native::copy_same_dtype_(t, undefined); }),
            "copy_same_dtype_: expected defined tensors, got an undefined src");
}

TEST(CopySameDtype, SixteenByteElementsStrided) {
  Tensor src = st::detail::empty_generic({4, 3}, ScalarType::ComplexDouble, Device("cpu"));
  auto* b = static_cast<unsigned char*>(src.data_ptr());
  for (size_t i = 0; i < src.nbytes(); ++i) b[i] = static_cast<unsigned char>(i);
  Tensor dst =
      st::detail::empty_strided_generic({4, 3}, {1, 4}, ScalarType::ComplexDouble, Device("cpu"));
  native::copy_same_dtype_(dst, src);
  // element (i, j) of dst sits at 16 * (i + 4 j), of src at 16 * (3 i + j)
  const auto* d = static_cast<const unsigned char*>(dst.const_data_ptr());
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j)
      EXPECT_EQ(std::memcmp(d + 16 * (i + 4 * j), b + 16 * (3 * i + j), 16), 0) << i << "," << j;
}

// Bytes of element `idx` (row-major logical index) of t.
std::vector<unsigned char> element_bytes(const Tensor& t, const std::vector<int64_t>& idx) {
  int64_t off = 0;
  for (size_t d = 0; d < idx.size(); ++d) off += idx[d] * t.stride(static_cast<int64_t>(d));
  const auto* p = static_cast<const unsigned char*>(t.const_data_ptr()) + off * t.element_size();
  return std::vector<unsigned char>(p, p + t.element_size());
}

// Every element of dst equals src at the index reversed along the flipped dims.
void expect_flipped(const Tensor& dst, const Tensor& src, const std::vector<bool>& flipped) {
  const int64_t nd = dst.dim();
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  for (int64_t k = 0; k < dst.numel(); ++k) {
    std::vector<int64_t> from = idx;
    for (int64_t d = 0; d < nd; ++d) {
      const size_t u = static_cast<size_t>(d);
      if (flipped[u]) from[u] = dst.size(d) - 1 - idx[u];
    }
    ASSERT_EQ(element_bytes(dst, idx), element_bytes(src, from)) << "element " << k;
    for (int64_t d = nd - 1; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < dst.size(d)) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
}

Tensor patterned(const std::vector<int64_t>& sizes, ScalarType dtype) {
  Tensor t = st::detail::empty_generic(sizes, dtype, Device("cpu"));
  auto* b = static_cast<unsigned char*>(t.data_ptr());
  for (size_t i = 0; i < t.nbytes(); ++i) b[i] = static_cast<unsigned char>(i * 7 + 3);
  return t;
}

// A view of a fresh tensor of `sizes` laid out in `perm`'s dim order
// (perm[0] outermost in memory), its bytes patterned.
Tensor permuted_layout(const std::vector<int64_t>& sizes, const std::vector<int64_t>& perm,
                       ScalarType dtype) {
  std::vector<int64_t> stored;
  for (int64_t d : perm) stored.push_back(sizes[static_cast<size_t>(d)]);
  Tensor base = patterned(stored, dtype);
  std::vector<int64_t> back(perm.size());  // the dims of base in `sizes` order
  for (size_t k = 0; k < perm.size(); ++k) back[static_cast<size_t>(perm[k])] = k;
  return native::permute(base, back);
}

// The dims are walked in the destination's memory order whatever the
// index order: every pair of layouts of a 4-d shape (every permutation of
// dst's against a few of src's, the same one included), every element size.
TEST(CopySameDtype, EveryPairOfDimOrdersGivesEachElement) {
  const std::vector<int64_t> sizes = {3, 5, 2, 7};
  std::vector<int64_t> perm = {0, 1, 2, 3};
  const std::vector<std::vector<int64_t>> src_perms = {{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 3, 0, 2}};
  for (ScalarType dtype : {ScalarType::Byte, ScalarType::Half, ScalarType::Float, ScalarType::Long,
                           ScalarType::ComplexDouble}) {
    do {
      for (const auto& sp : src_perms) {
        SCOPED_TRACE(::testing::Message()
                     << "dtype " << dtype << " dst order " << perm[0] << perm[1] << perm[2]
                     << perm[3] << " src order " << sp[0] << sp[1] << sp[2] << sp[3]);
        Tensor src = permuted_layout(sizes, sp, dtype);
        Tensor dst = permuted_layout(sizes, perm, dtype);
        native::copy_same_dtype_(dst, src);
        expect_flipped(dst, src, std::vector<bool>(4, false));
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

// Copies whose last two dims cross run by tiles (Note [Transposing copies
// by tiles]): matrices on both sides of the tiles' edges (partial bands
// and partial column tiles, and the smallest tiled size), stacks of them
// (planes), flipped sources, every element size the tiles take.
TEST(CopySameDtype, TransposesByTilesGiveEachElement) {
  const std::vector<std::vector<int64_t>> shapes = {{16, 16},  {15, 300}, {300, 15}, {17, 23},
                                                    {256, 16}, {257, 24}, {513, 41}, {3, 40, 270}};
  for (ScalarType dtype : {ScalarType::Byte, ScalarType::Half, ScalarType::Float, ScalarType::Long,
                           ScalarType::ComplexDouble}) {
    for (const auto& shape : shapes) {
      SCOPED_TRACE(::testing::Message() << "dtype " << dtype << " rows " << shape[shape.size() - 2]
                                        << " cols " << shape.back() << " dims " << shape.size());
      const int64_t nd = static_cast<int64_t>(shape.size());
      std::vector<int64_t> crossed_order;
      for (int64_t d = 0; d < nd; ++d) crossed_order.push_back(d);
      std::swap(crossed_order[static_cast<size_t>(nd - 1)],
                crossed_order[static_cast<size_t>(nd - 2)]);
      Tensor src = permuted_layout(shape, crossed_order, dtype);
      Tensor dst = st::detail::empty_generic(shape, dtype, Device("cpu"));
      native::copy_same_dtype_(dst, src);
      expect_flipped(dst, src, std::vector<bool>(shape.size(), false));
      std::vector<bool> flipped(shape.size(), false);
      flipped[static_cast<size_t>(nd - 1)] = true;
      flipped[0] = true;
      Tensor fdst = st::detail::empty_generic(shape, dtype, Device("cpu"));
      native::copy_flipped_(fdst, src, flipped);
      expect_flipped(fdst, src, flipped);
    }
  }
}

TEST(CopyFlipped, EveryElementSizeAndMaskOnOddShapes) {
  const std::vector<ScalarType> dtypes = {ScalarType::Byte, ScalarType::Half, ScalarType::Float,
                                          ScalarType::Long, ScalarType::ComplexDouble};
  const std::vector<std::vector<int64_t>> shapes = {{1},    {7},        {33},      {3, 5},
                                                    {1, 9}, {2, 1, 17}, {4, 3, 2}, {3, 67}};
  for (ScalarType dtype : dtypes) {
    for (const auto& shape : shapes) {
      const size_t nd = shape.size();
      for (unsigned mask = 0; mask < (1u << nd); ++mask) {
        std::vector<bool> flipped(nd);
        for (size_t d = 0; d < nd; ++d) flipped[d] = ((mask >> d) & 1u) != 0;
        Tensor src = patterned(shape, dtype);
        Tensor dst = st::detail::empty_generic(shape, dtype, Device("cpu"));
        native::copy_flipped_(dst, src, flipped);
        SCOPED_TRACE(::testing::Message()
                     << "dtype " << dtype << " dims " << nd << " mask " << mask);
        expect_flipped(dst, src, flipped);
      }
    }
  }
}

TEST(CopyFlipped, StridedAndExpandedSourcesStridedDestinations) {
  // A source read every other element (a transposed, sliced view).
  Tensor base = patterned({6, 10}, ScalarType::Float);
  Tensor src = native::slice(native::transpose(base, 0, 1), 0, 1, std::nullopt, 2);  // [5, 6]
  for (const std::vector<bool>& flipped :
       {std::vector<bool>{true, false}, {false, true}, {true, true}}) {
    Tensor dst = strided_float({5, 6}, {1, 7});
    native::copy_flipped_(dst, src, flipped);
    expect_flipped(dst, src, flipped);
  }
  // An expanded (stride-0) dim, flipped or not, reads the same row.
  Tensor row = native::expand(patterned({1, 9}, ScalarType::Long), {4, 9});
  for (const std::vector<bool>& flipped : {std::vector<bool>{true, false}, {true, true}}) {
    Tensor dst = st::detail::empty_generic({4, 9}, ScalarType::Long, Device("cpu"));
    native::copy_flipped_(dst, row, flipped);
    expect_flipped(dst, row, flipped);
  }
}

TEST(CopyFlipped, RankZeroEmptyAndNothingFlipped) {
  Tensor v = patterned({}, ScalarType::Double);
  Tensor s = st::detail::empty_generic({}, ScalarType::Double, Device("cpu"));
  native::copy_flipped_(s, v, {});
  EXPECT_EQ(*s.data_ptr<double>(), *v.data_ptr<double>());
  Tensor e = strided_float({0, 3}, {0, 0});
  EXPECT_EQ(&native::copy_flipped_(e, empty_float({0, 3}), {true, true}), &e);
  Tensor src = arange_float({2, 3});
  Tensor dst = empty_float({2, 3});
  native::copy_flipped_(dst, src, {false, false});
  EXPECT_EQ(float_values(dst), float_values(src));
}

TEST(CopyFlipped, SharedMemoryMaskAndShapeErrors) {
  Tensor a = arange_float({4});
  EXPECT_NE(error_of([&] {
              native::copy_flipped_(a, a, {true});
            }).find("the written-to tensor shares memory with the input"),
            std::string::npos);
  EXPECT_EQ(float_values(a), (std::vector<float>{0, 1, 2, 3}));  // untouched
  Tensor even = native::slice(a, 0, 0, std::nullopt, 2);
  Tensor odd = native::slice(a, 0, 1, std::nullopt, 2);
  EXPECT_NE(error_of([&] { native::copy_flipped_(odd, even, {true}); }).find("shares memory"),
            std::string::npos);
  Tensor dst = empty_float({4});
  EXPECT_EQ(error_of([&] {
              native::copy_flipped_(dst, arange_float({4}), {true, false});
            }),
            "copy_flipped_: expected 1 flags in the dim mask (one per dim), got 2");
  EXPECT_NE(error_of([&] {
              native::copy_flipped_(dst, arange_float({5}), {true});
            }).find("copy_flipped_: expected src of size"),
            std::string::npos);
  Tensor wide = native::expand(arange_float({1}), {4});
  EXPECT_NE(error_of([&] {
              native::copy_flipped_(wide, arange_float({4}), {true});
            }).find("more than one element of the written-to tensor"),
            std::string::npos);
}

}  // namespace
