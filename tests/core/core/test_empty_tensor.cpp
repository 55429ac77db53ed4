// The allocation primitives behind every factory (core/src/core/
// empty_tensor.cpp): the strides each memory format gives, the storage
// size empty_strided computes, and the errors for formats that do not fit,
// mismatched or negative strides and overflowing stride products.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/tensor.h>

#include "error_of.h"

namespace {

using st::Device;
using st::IntArrayRef;
using st::MemoryFormat;
using st::ScalarType;
using st::Tensor;
using st::detail::contiguous_strides;
using st::detail::empty_generic;
using st::detail::empty_strided_generic;

std::vector<int64_t> strides_of(const Tensor& t) {
  return std::vector<int64_t>(t.strides().begin(), t.strides().end());
}

const Device kCpu("cpu");

TEST(EmptyTensor, ContiguousStridesGiveSizeZeroAndOneDimsTheNextStride) {
  int64_t s[4] = {};
  contiguous_strides({2, 3, 4, 5}, s);
  EXPECT_EQ(std::vector<int64_t>(s, s + 4), (std::vector<int64_t>{60, 20, 5, 1}));
  contiguous_strides({2, 1, 0, 5}, s);
  EXPECT_EQ(std::vector<int64_t>(s, s + 4), (std::vector<int64_t>{5, 5, 5, 1}));
  contiguous_strides({}, s);  // rank 0 writes nothing and does not fail
}

TEST(EmptyTensor, ContiguousStrideOverflowOnlyWithASizeZeroDim) {
  const int64_t big = int64_t{1} << 62;
  int64_t s[3] = {};
  const std::string msg = st::testing::error_of([&] { contiguous_strides({0, big, 4}, s); });
  EXPECT_NE(msg.find("Stride calculation overflowed for sizes [0, 4611686018427387904, 4]"),
            std::string::npos)
      << msg;
  // The same sizes through empty: the numel is 0, the strides do not fit.
  EXPECT_ST_ERROR_HAS(empty_generic({0, big, 4}, ScalarType::Float, kCpu),
                      "Stride calculation overflowed");
}

TEST(EmptyTensor, ChannelsLastStrides) {
  Tensor t = empty_generic({2, 3, 4, 5}, ScalarType::Float, kCpu, MemoryFormat::ChannelsLast);
  EXPECT_EQ(strides_of(t), (std::vector<int64_t>{60, 1, 15, 3}));
  EXPECT_TRUE(t.is_contiguous(MemoryFormat::ChannelsLast));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_EQ(t.storage().nbytes(), 2u * 3 * 4 * 5 * sizeof(float));

  Tensor t3 =
      empty_generic({2, 3, 4, 5, 6}, ScalarType::Double, kCpu, MemoryFormat::ChannelsLast3d);
  EXPECT_EQ(strides_of(t3), (std::vector<int64_t>{360, 1, 90, 18, 3}));
  EXPECT_TRUE(t3.is_contiguous(MemoryFormat::ChannelsLast3d));

  // Size-1 channels: strides follow the same order, the tensor is both.
  Tensor c1 = empty_generic({2, 1, 3, 3}, ScalarType::Float, kCpu, MemoryFormat::ChannelsLast);
  EXPECT_EQ(strides_of(c1), (std::vector<int64_t>{9, 1, 3, 1}));
}

TEST(EmptyTensor, MemoryFormatErrors) {
  EXPECT_ST_ERROR_HAS(
      empty_generic({2, 3, 4}, ScalarType::Float, kCpu, MemoryFormat::ChannelsLast),
      "empty: required rank 4 tensor to use channels_last format, got sizes [2, 3, 4]");
  EXPECT_ST_ERROR_HAS(
      empty_generic({2, 3, 4, 5}, ScalarType::Float, kCpu, MemoryFormat::ChannelsLast3d),
      "empty: required rank 5 tensor to use channels_last_3d format, got sizes [2, 3, 4, 5]");
  EXPECT_ST_ERROR_HAS(empty_generic({2}, ScalarType::Float, kCpu, MemoryFormat::Preserve),
                      "empty: expected memory format Contiguous, ChannelsLast or ChannelsLast3d");
}

TEST(EmptyTensor, StridedStorageCoversTheLastReachableElement) {
  Tensor t = empty_strided_generic({2, 3}, {1, 2}, ScalarType::Float, kCpu);
  EXPECT_EQ(strides_of(t), (std::vector<int64_t>{1, 2}));
  // last element at 1*1 + 2*2 = 5: six floats
  EXPECT_EQ(t.storage().nbytes(), 6 * sizeof(float));
  // stride 0 (broadcast): one element
  Tensor b = empty_strided_generic({4, 5}, {0, 0}, ScalarType::Long, kCpu);
  EXPECT_EQ(b.storage().nbytes(), sizeof(int64_t));
  // a gap between rows
  Tensor g = empty_strided_generic({3, 2}, {10, 1}, ScalarType::Short, kCpu);
  EXPECT_EQ(g.storage().nbytes(), 22 * sizeof(int16_t));
  // any size-0 dim: no storage, whatever the strides
  Tensor z = empty_strided_generic({0, 7}, {int64_t{1} << 62, 1}, ScalarType::Float, kCpu);
  EXPECT_EQ(z.numel(), 0);
  EXPECT_EQ(z.storage().nbytes(), 0u);
  // rank 0: one element
  Tensor s = empty_strided_generic({}, {}, ScalarType::ComplexDouble, kCpu);
  EXPECT_EQ(s.storage().nbytes(), 16u);
}

TEST(EmptyTensor, StridedErrors) {
  EXPECT_ST_ERROR_HAS(empty_strided_generic({2, 3}, {1}, ScalarType::Float, kCpu),
                      "empty_strided: dimensionality of sizes (2) must match dimensionality of "
                      "strides (1)");
  EXPECT_ST_ERROR_HAS(empty_strided_generic({2, -3}, {3, 1}, ScalarType::Float, kCpu),
                      "negative dimension -3");
  EXPECT_ST_ERROR_HAS(empty_strided_generic({2, 3}, {3, -1}, ScalarType::Float, kCpu),
                      "empty_strided: negative strides are not supported, got strides [3, -1]");
  EXPECT_ST_ERROR_HAS(empty_strided_generic({3, 2}, {INT64_MAX / 2, 1}, ScalarType::Float, kCpu),
                      "empty_strided: storage size calculation overflowed");
  EXPECT_ST_ERROR_HAS(empty_strided_generic({2}, {1}, ScalarType::Undefined, kCpu),
                      "empty_strided: expected a concrete dtype");
}

TEST(EmptyTensor, ByteCountOverflowIsAnError) {
  // numel fits int64, numel * itemsize does not
  EXPECT_ST_ERROR_HAS(
      empty_generic({int64_t{1} << 61}, ScalarType::Double, kCpu),
      "empty: byte size of 2305843009213693952 elements of 8 bytes overflows int64");
}

TEST(EmptyTensor, DtypeAndDeviceAreRecorded) {
  for (ScalarType dt : {ScalarType::Bool, ScalarType::Byte, ScalarType::Half,
                        ScalarType::ComplexFloat, ScalarType::Long}) {
    Tensor t = empty_generic({3}, dt, kCpu);
    EXPECT_EQ(t.dtype(), dt);
    EXPECT_TRUE(t.device().is_cpu());
    EXPECT_EQ(t.storage().nbytes(), 3 * torch::headeronly::elementSize(dt));
  }
}

}  // namespace
