// Factory operators.
#include <gtest/gtest.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;

TEST(NativeFactories, EmptyZerosOnesFull) {
  Tensor e = st::empty({2, 3});
  EXPECT_EQ(shape(e), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(e.dtype(), ScalarType::Float);
  EXPECT_TRUE(e.is_contiguous());
  Tensor cl = st::empty({2, 3, 4, 5}, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                        st::MemoryFormat::ChannelsLast);
  EXPECT_TRUE(cl.is_contiguous(st::MemoryFormat::ChannelsLast));
  expect_close(values(st::zeros({2, 2}, ScalarType::Int)), {0, 0, 0, 0});
  expect_close(values(st::ones({3}, ScalarType::Half)), {1, 1, 1});
  Tensor f = st::full({2}, 7);
  EXPECT_EQ(f.dtype(), ScalarType::Long);  // inferred from the fill value
  expect_close(values(f), {7, 7});
  EXPECT_EQ(st::full({1}, true).dtype(), ScalarType::Bool);
  EXPECT_EQ(st::full({1}, 1.5).dtype(), ScalarType::Float);
  EXPECT_EQ(st::full({1}, Scalar(std::complex<double>(1, 2))).dtype(), ScalarType::ComplexFloat);
  EXPECT_NATIVE_ERROR(st::full({1}, 300, ScalarType::Byte),
                      "value cannot be converted to type uint8_t without overflow");
  EXPECT_NATIVE_ERROR(st::empty({-1}), "");
}

TEST(NativeFactories, EmptyStridedAndLike) {
  Tensor s = st::empty_strided({2, 3}, {1, 2});
  EXPECT_EQ(s.stride(0), 1);
  EXPECT_EQ(s.stride(1), 2);
  Tensor like = st::empty_like(s);  // Preserve keeps dense strides
  EXPECT_EQ(like.stride(0), 1);
  EXPECT_EQ(like.stride(1), 2);
  Tensor c = st::empty_like(s, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                            st::MemoryFormat::Contiguous);
  EXPECT_TRUE(c.is_contiguous());
  Tensor zl = st::zeros_like(make1({1, 2}, ScalarType::Int));
  EXPECT_EQ(zl.dtype(), ScalarType::Int);
  expect_close(values(zl), {0, 0});
  expect_close(values(st::ones_like(zl, ScalarType::Double)), {1, 1});
  expect_close(values(st::full_like(zl, 4)), {4, 4});
}

TEST(NativeFactories, NewFactoriesInheritDtype) {
  Tensor base = make1({1}, ScalarType::Short);
  Tensor n = st::new_zeros(base, {2});
  EXPECT_EQ(n.dtype(), ScalarType::Short);
  expect_close(values(n), {0, 0});
  expect_close(values(st::new_ones(base, {1})), {1});
  expect_close(values(st::new_full(base, {2}, 5)), {5, 5});
  EXPECT_EQ(shape(st::new_empty(base, {3, 1})), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(st::new_empty(base, {1}, ScalarType::Float).dtype(), ScalarType::Float);
}

TEST(NativeFactories, Arange) {
  Tensor a = st::arange(5);
  EXPECT_EQ(a.dtype(), ScalarType::Long);
  expect_close(values(a), {0, 1, 2, 3, 4});
  Tensor b = st::arange(1, 2, 0.25);
  EXPECT_EQ(b.dtype(), ScalarType::Float);
  expect_close(values(b), {1, 1.25, 1.5, 1.75});
  expect_close(values(st::arange(5, 0, -2)), {5, 3, 1});
  EXPECT_EQ(st::arange(0).numel(), 0);
  EXPECT_NATIVE_ERROR(st::arange(0, 5, 0), "step must be nonzero");
  EXPECT_NATIVE_ERROR(st::arange(0, 5, -1),
                      "upper bound and larger bound inconsistent with step sign");
  Tensor out = st::empty({0}, ScalarType::Double);
  st::arange_out(out, 3);
  expect_close(values(out), {0, 1, 2});
}

TEST(NativeFactories, Linspace) {
  Tensor a = st::linspace(0, 1, 5);
  EXPECT_EQ(a.dtype(), ScalarType::Float);  // the default dtype, even for int ends
  expect_close(values(a), {0, 0.25, 0.5, 0.75, 1});
  // Both ends exact, descending ranges, one and zero steps.
  expect_close(values(st::linspace(3, -3, 4, ScalarType::Double)), {3, 1, -1, -3});
  expect_close(values(st::linspace(2.5, 9, 1)), {2.5});
  EXPECT_EQ(st::linspace(0, 1, 0).numel(), 0);
  // Integral dtypes step in double and truncate, as PyTorch does.
  expect_close(values(st::linspace(0, 10, 4, ScalarType::Long)), {0, 3, 6, 10});
  expect_close(values(st::linspace(-5, 5, 4, ScalarType::Int)), {-5, -1, 1, 5});
  expect_close(values(st::linspace(0, 255, 3, ScalarType::Byte)), {0, 127, 255});
  expect_close(values(st::linspace(0, 1, 3, ScalarType::Half)), {0, 0.5, 1});
  expect_close(values(st::linspace(0, 1, 3, ScalarType::BFloat16)), {0, 0.5, 1});
  expect_close(values(st::linspace(0, 4, 3, ScalarType::UInt32)), {0, 2, 4});
  // Complex ends give the default complex dtype.
  Tensor c =
      st::linspace(Scalar(std::complex<double>(0, 0)), Scalar(std::complex<double>(2, 4)), 3);
  EXPECT_EQ(c.dtype(), ScalarType::ComplexFloat);
  const auto cv = cvalues(c);
  EXPECT_EQ(cv[1], std::complex<double>(1, 2));
  EXPECT_NATIVE_ERROR(st::linspace(Scalar(std::complex<double>(0, 1)), 1, 3, ScalarType::Float),
                      "can't be safely cast to passed dtype Float");
  EXPECT_NATIVE_ERROR(st::linspace(0, 1, -1), "number of steps must be non-negative");
  EXPECT_NATIVE_ERROR(st::linspace(0, 1, 3, ScalarType::Bool),
                      "\"linspace_cpu\" not implemented for 'Bool'");
  EXPECT_NATIVE_ERROR(st::linspace(0, 300, 3, ScalarType::Byte), "without overflow");
  // out=: resized to [steps]; one with `steps` elements keeps its shape;
  // a non-contiguous one is written through.
  Tensor out = st::empty({0}, ScalarType::Double);
  st::linspace_out(out, 1, 2, 3);
  EXPECT_EQ(shape(out), (std::vector<int64_t>{3}));
  expect_close(values(out), {1, 1.5, 2});
  Tensor keep = st::empty({2, 2});
  st::linspace_out(keep, 0, 3, 4);
  EXPECT_EQ(shape(keep), (std::vector<int64_t>{2, 2}));
  expect_close(values(keep), {0, 1, 2, 3});
  Tensor base = st::zeros({2, 3});
  Tensor col = st::select(base, 1, 1);
  st::linspace_out(col, 5, 6, 2);
  expect_close(values(base), {0, 5, 0, 0, 6, 0});
}

TEST(NativeFactories, Eye) {
  Tensor e = st::eye(3);
  EXPECT_EQ(e.dtype(), ScalarType::Float);
  expect_close(values(e), {1, 0, 0, 0, 1, 0, 0, 0, 1});
  Tensor r = st::eye(2, 3, ScalarType::Long);
  EXPECT_EQ(shape(r), (std::vector<int64_t>{2, 3}));
  expect_close(values(r), {1, 0, 0, 0, 1, 0});
  expect_close(values(st::eye(3, 2, ScalarType::Bool)), {1, 0, 0, 1, 0, 0});
  for (ScalarType t : {ScalarType::Half, ScalarType::BFloat16, ScalarType::ComplexDouble,
                       ScalarType::UInt64, ScalarType::Char}) {
    expect_close(values(st::eye(2, t)), {1, 0, 0, 1});
  }
  EXPECT_EQ(shape(st::eye(0)), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(shape(st::eye(4, 0)), (std::vector<int64_t>{4, 0}));
  EXPECT_NATIVE_ERROR(st::eye(-1), "n must be greater or equal to 0, got -1");
  EXPECT_NATIVE_ERROR(st::eye(2, -3), "m must be greater or equal to 0, got -3");
  // out=: any previous contents and shape replaced; a transposed out keeps
  // its strides and gets the ones on its own diagonal.
  Tensor out = st::full({5}, 7.0);
  st::eye_out(out, 2);
  EXPECT_EQ(shape(out), (std::vector<int64_t>{2, 2}));
  expect_close(values(out), {1, 0, 0, 1});
  Tensor tr = st::t(st::full({3, 2}, 9.0));
  st::eye_out(tr, 2, 3);
  EXPECT_EQ(tr.stride(0), 1);
  expect_close(values(tr), {1, 0, 0, 0, 1, 0});
  EXPECT_NATIVE_ERROR(st::eye_out(out, -2), "n must be greater or equal to 0, got -2");
}

// Sizes whose element or byte counts do not fit int64 fail with an error
// naming the operation and the value, before anything is allocated or
// written (a wrapped byte count once left arange writing past its storage).
TEST(NativeFactories, HugeSizesFailBeforeAllocating) {
  constexpr int64_t k2to31 = int64_t{1} << 31;
  constexpr int64_t k2to61 = int64_t{1} << 61;
  constexpr int64_t k2to62 = int64_t{1} << 62;
  // 2^61 Longs are 2^64 bytes: the count wrapped to 0 in size_t.
  EXPECT_NATIVE_ERROR(
      st::arange(k2to61),
      "resize: byte size of 2305843009213693952 elements of 8 bytes overflows int64");
  EXPECT_NATIVE_ERROR(st::arange(Scalar(k2to61), std::optional<ScalarType>(ScalarType::Int)),
                      "resize: byte size of 2305843009213693952 elements of 4 bytes");
  EXPECT_NATIVE_ERROR(st::arange(INT64_MAX), "resize: byte size of 9223372036854775807 elements");
  EXPECT_NATIVE_ERROR(st::arange(INT64_MIN, INT64_MAX, 1),
                      "arange: the number of elements of the range from -9223372036854775808 to "
                      "9223372036854775807 by step 1 (18446744073709551615) does not fit int64");
  // The float path: 2^63 elements (the first double past INT64_MAX) is refused
  // before any conversion to int64.
  EXPECT_NATIVE_ERROR(st::arange(9223372036854775808.0), "does not fit int64");
  EXPECT_NATIVE_ERROR(st::arange(-1e308, 1e308, 1.0), "does not fit int64");
  EXPECT_NATIVE_ERROR(st::arange(0.0, 1e300, 1e-300), "does not fit int64");
  // An out tensor that cannot be resized keeps its shape and storage.
  Tensor out = st::empty({3}, ScalarType::Long);
  void* data = out.data_ptr();
  EXPECT_NATIVE_ERROR(st::arange_out(out, k2to61), "resize: byte size");
  EXPECT_EQ(shape(out), (std::vector<int64_t>{3}));
  EXPECT_EQ(out.data_ptr(), data);
  EXPECT_EQ(out.storage().nbytes(), 24u);

  EXPECT_NATIVE_ERROR(
      st::zeros({k2to61}, ScalarType::Long),
      "empty: byte size of 2305843009213693952 elements of 8 bytes overflows int64");
  EXPECT_NATIVE_ERROR(
      st::full({k2to31, k2to31, 2}, 1.5),
      "empty: number of elements of sizes [2147483648, 2147483648, 2] overflows int64");
  EXPECT_NATIVE_ERROR(st::ones({k2to62, 4, 3}), "empty: number of elements of sizes");
  EXPECT_NATIVE_ERROR(st::zeros_out(out, {k2to61}), "resize: byte size");
  EXPECT_EQ(shape(out), (std::vector<int64_t>{3}));
  EXPECT_NATIVE_ERROR(st::empty_strided({3}, {k2to62}),
                      "empty_strided: storage size calculation overflowed with sizes=[3], "
                      "strides=[4611686018427387904]");
  EXPECT_NATIVE_ERROR(st::empty_strided({k2to61, 1}, {1, 1}, ScalarType::Long),
                      "empty_strided: byte size of 2305843009213693952 elements");
  // A zero size makes any other size fine: no elements, no bytes.
  EXPECT_EQ(st::empty({k2to62, 0}).numel(), 0);
}

TEST(NativeFactories, ScalarTensor) {
  Tensor s = st::scalar_tensor(3);
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.dtype(), ScalarType::Float);
  expect_close(values(s), {3});
}

// randint checks that [low, high - 1] fits the out= dtype, as PyTorch's
// random_(from, to) does; empty.out refuses any memory_format.
TEST(NativeFactories, RandintBoundsAndEmptyOutMemoryFormat) {
  Tensor b = st::empty({0}, ScalarType::Bool);
  EXPECT_NATIVE_ERROR(st::randint_out(b, 10, {2, 3}), "to - 1 is out of bounds for Bool");
  st::randint_out(b, 2, {2, 3});
  EXPECT_EQ(shape(b), (std::vector<int64_t>{2, 3}));
  Tensor u8 = st::empty({0}, ScalarType::Byte);
  EXPECT_NATIVE_ERROR(st::randint_out(u8, -1, 10, {2}), "from is out of bounds for Byte");
  Tensor h = st::empty({0}, ScalarType::Half);
  EXPECT_NATIVE_ERROR(st::randint_out(h, 0, 4000, {2}), "to - 1 is out of bounds for Half");
  Tensor f = st::empty({0});
  EXPECT_NATIVE_ERROR(st::empty_out(f, {2, 3}, st::MemoryFormat::Contiguous),
                      "'memory_format' argument is incompatible with 'out' tensor argument");
  st::empty_out(f, {2, 3});
  EXPECT_EQ(shape(f), (std::vector<int64_t>{2, 3}));
}

}  // namespace
