// TensorAccessor / GenericPackedTensorAccessor
// (torch/headeronly/core/TensorAccessor.h).
#include <torch/headeronly/core/TensorAccessor.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace {

namespace tho = torch::headeronly;

// The spellings PyTorch 2.10's stable test extension uses.
template <typename T, size_t N>
using Accessor_cpu = torch::headeronly::HeaderOnlyTensorAccessor<T, N>;
template <typename T, size_t N>
using Accessor_packed =
    torch::headeronly::HeaderOnlyGenericPackedTensorAccessor<T, N,
                                                             torch::headeronly::RestrictPtrTraits>;

// res = m @ v through any accessor template (the extension's kernel shape).
template <template <typename, size_t> class Accessor, typename scalar_t>
void mvKernel(Accessor<scalar_t, 1> res, Accessor<scalar_t, 2> m, Accessor<scalar_t, 1> v) {
  for (int64_t i = 0; i < res.size(0); i++) {
    scalar_t val = 0;
    for (int64_t j = 0; j < m.size(1); j++) {
      val += m[i][j] * v[j];
    }
    res[i] = val;
  }
}

// Reference: element (i, j) of a strided matrix by direct pointer math.
double at2(const double* base, const int64_t* strides, int64_t i, int64_t j) {
  return base[i * strides[0] + j * strides[1]];
}

}  // namespace

TEST(TensorAccessorTest, IndexMathOnNonContiguousStrides) {
  // A 3x4 view of a 5x7 buffer: every other row (stride 14), every other
  // column (stride 2), starting at (1, 1).
  std::vector<int32_t> buf(5 * 7 * 2);
  std::iota(buf.begin(), buf.end(), 0);
  const int64_t sizes[] = {3, 4};
  const int64_t strides[] = {14, 2};
  int32_t* origin = buf.data() + 8;
  tho::TensorAccessor<int32_t, 2> a(origin, sizes, strides);
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 4; ++j) {
      EXPECT_EQ(a[i][j], 8 + 14 * i + 2 * j) << i << "," << j;
      EXPECT_EQ(&a[i][j], origin + i * strides[0] + j * strides[1]);
    }
  }
  a[2][3] = -1;
  EXPECT_EQ(buf[8 + 28 + 6], -1);

  EXPECT_EQ(a.size(0), 3);
  EXPECT_EQ(a.size(1), 4);
  EXPECT_EQ(a.stride(0), 14);
  EXPECT_EQ(a.stride(1), 2);
  EXPECT_EQ(a.data(), origin);
  ASSERT_EQ(a.sizes().size(), 2u);
  EXPECT_EQ(a.sizes()[1], 4);
  EXPECT_EQ(a.strides()[0], 14);

  // Sub-accessors: one dimension fewer, sizes/strides shifted.
  auto row = a[1];
  static_assert(std::is_same_v<decltype(row), tho::TensorAccessor<int32_t, 1>>);
  EXPECT_EQ(row.size(0), 4);
  EXPECT_EQ(row.stride(0), 2);
  EXPECT_EQ(row.data(), origin + 14);
  static_assert(std::is_same_v<decltype(row[0]), int32_t&>);
}

TEST(TensorAccessorTest, ThreeDimensionsAndNegativeStride) {
  // A 2x3x2 tensor whose middle dimension is flipped (negative stride).
  std::vector<float> buf(12);
  std::iota(buf.begin(), buf.end(), 0.f);
  const int64_t sizes[] = {2, 3, 2};
  const int64_t strides[] = {6, -2, 1};
  float* origin = buf.data() + 4;  // element (0, 0, 0) is buf[4]
  tho::TensorAccessor<float, 3> a(origin, sizes, strides);
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      for (int64_t k = 0; k < 2; ++k) {
        EXPECT_EQ(a[i][j][k], static_cast<float>(4 + 6 * i - 2 * j + k));
      }
    }
  }
}

TEST(TensorAccessorTest, ConstAccessorYieldsConstElements) {
  std::vector<double> buf{1, 2, 3, 4};
  const int64_t sizes[] = {2, 2};
  const int64_t strides[] = {2, 1};
  const tho::TensorAccessor<double, 2> a(buf.data(), sizes, strides);
  static_assert(std::is_same_v<decltype(a[1][0]), const double&>);
  EXPECT_EQ(a[1][0], 3.0);
}

TEST(TensorAccessorTest, MatrixVectorProductMatchesDirectLoop) {
  // m is a 3x5 transposed view of a 5x3 row-major buffer (strides {1, 3});
  // v is every other element of a buffer (stride 2).
  std::vector<double> mbuf(15), vbuf(10), res(3, -1.0);
  for (size_t k = 0; k < mbuf.size(); ++k) {
    mbuf[k] = 0.5 * static_cast<double>(k) - 3.0;
  }
  for (size_t k = 0; k < vbuf.size(); ++k) {
    vbuf[k] = static_cast<double>(k * k) - 4.0;
  }
  const int64_t msizes[] = {3, 5}, mstrides[] = {1, 3};
  const int64_t vsizes[] = {5}, vstrides[] = {2};
  const int64_t rsizes[] = {3}, rstrides[] = {1};

  mvKernel<Accessor_cpu, double>(Accessor_cpu<double, 1>(res.data(), rsizes, rstrides),
                                 Accessor_cpu<double, 2>(mbuf.data(), msizes, mstrides),
                                 Accessor_cpu<double, 1>(vbuf.data(), vsizes, vstrides));

  for (int64_t i = 0; i < 3; ++i) {
    double expected = 0;
    for (int64_t j = 0; j < 5; ++j) {
      expected += at2(mbuf.data(), mstrides, i, j) * vbuf[j * vstrides[0]];
    }
    EXPECT_DOUBLE_EQ(res[i], expected) << i;
  }

  // The same product through packed accessors (as the CUDA path does).
  std::vector<double> res2(3, -1.0);
  mvKernel<Accessor_packed, double>(Accessor_packed<double, 1>(res2.data(), rsizes, rstrides),
                                    Accessor_packed<double, 2>(mbuf.data(), msizes, mstrides),
                                    Accessor_packed<double, 1>(vbuf.data(), vsizes, vstrides));
  EXPECT_EQ(res2, res);
}

TEST(PackedTensorAccessorTest, CopiesSizesAndStridesByValue) {
  std::vector<int64_t> buf(24);
  std::iota(buf.begin(), buf.end(), 0);
  int64_t sizes[] = {2, 3, 4};
  int64_t strides[] = {12, 4, 1};
  tho::PackedTensorAccessor64<int64_t, 3> p(buf.data(), sizes, strides);
  // Scribbling over the source arrays must not affect the accessor.
  sizes[1] = 99;
  strides[0] = 99;
  EXPECT_EQ(p.size(1), 3);
  EXPECT_EQ(p.stride(0), 12);

  // Copies are independent values that view the same memory.
  auto copy = p;
  static_assert(std::is_trivially_copyable_v<decltype(copy)>);
  EXPECT_EQ(copy.data(), p.data());
  EXPECT_EQ(copy[1][2][3], 23);
  copy[0][0][0] = -5;
  EXPECT_EQ(p[0][0][0], -5);

  auto sub = p[1];
  static_assert(std::is_same_v<decltype(sub), tho::TensorAccessor<int64_t, 2>>);
  EXPECT_EQ(sub.size(0), 3);
  EXPECT_EQ(sub[2][1], 21);
  EXPECT_EQ(p.sizes()[2], 4);
  EXPECT_EQ(p.strides()[1], 4);
}

TEST(PackedTensorAccessorTest, ThirtyTwoBitIndexFromInt64Arrays) {
  std::vector<float> buf(6);
  std::iota(buf.begin(), buf.end(), 0.f);
  const int64_t sizes[] = {2, 3};
  const int64_t strides[] = {1, 2};  // column-major
  tho::PackedTensorAccessor32<float, 2, tho::RestrictPtrTraits> p(buf.data(), sizes, strides);
  static_assert(std::is_same_v<decltype(p.size(0)), int32_t>);
  static_assert(std::is_same_v<decltype(p[0]),
                               tho::TensorAccessor<float, 1, tho::RestrictPtrTraits, int32_t>>);
  EXPECT_EQ(p.size(1), 3);
  EXPECT_EQ(p[1][2], 5.f);
  EXPECT_EQ(p[0][1], 2.f);
}

TEST(PackedTensorAccessorTest, Transpose) {
  std::vector<int> buf(6);
  std::iota(buf.begin(), buf.end(), 0);
  const int64_t sizes[] = {2, 3};
  const int64_t strides[] = {3, 1};
  tho::GenericPackedTensorAccessor<int, 2> p(buf.data(), sizes, strides);
  auto t = p.transpose(0, 1);
  EXPECT_EQ(t.size(0), 3);
  EXPECT_EQ(t.size(1), 2);
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 2; ++j) {
      EXPECT_EQ(t[i][j], p[j][i]);
    }
  }
  EXPECT_EQ(p.size(0), 2);  // the original is untouched
  EXPECT_THROW(p.transpose(0, 2), std::runtime_error);
  EXPECT_THROW(p.transpose(-1, 0), std::runtime_error);
}

TEST(TensorAccessorTest, LegacyAndHeaderOnlyNamesAreTheSameTypes) {
  static_assert(
      std::is_same_v<tho::HeaderOnlyTensorAccessor<float, 2>, tho::TensorAccessor<float, 2>>);
  static_assert(std::is_same_v<tho::HeaderOnlyTensorAccessorBase<float, 2>,
                               tho::TensorAccessorBase<float, 2>>);
  static_assert(std::is_same_v<tho::HeaderOnlyGenericPackedTensorAccessor<float, 2>,
                               tho::PackedTensorAccessor64<float, 2>>);
  static_assert(std::is_base_of_v<tho::HeaderOnlyGenericPackedTensorAccessorBase<float, 2>,
                                  tho::GenericPackedTensorAccessor<float, 2>>);
  static_assert(std::is_same_v<tho::DefaultPtrTraits<int>::PtrType, int*>);
}
