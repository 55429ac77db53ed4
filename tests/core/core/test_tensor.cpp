#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include <st/core/allocator.h>
#include <st/core/empty_tensor.h>
#include <st/core/tensor.h>

#include "error_of.h"

namespace {

using st::Device;
using st::DeviceType;
using st::ScalarType;
using st::Tensor;

using st::testing::error_of;

TEST(Tensor, UndefinedTensor) {
  Tensor t;
  EXPECT_FALSE(t.defined());
  EXPECT_EQ(t.use_count(), 0u);
  EXPECT_NE(error_of([&] { (void)t.dim(); }).find("undefined tensor"), std::string::npos);
}

TEST(Tensor, EmptyMetadata) {
  Tensor t = st::detail::empty_generic({2, 3, 4}, ScalarType::Float, Device(DeviceType::CPU));
  EXPECT_TRUE(t.defined());
  EXPECT_EQ(t.dim(), 3);
  EXPECT_EQ(t.numel(), 24);
  EXPECT_EQ(t.element_size(), 4);
  EXPECT_EQ(t.nbytes(), 96u);
  EXPECT_EQ(t.sizes(), st::IntArrayRef({2, 3, 4}));
  EXPECT_EQ(t.strides(), st::IntArrayRef({12, 4, 1}));
  EXPECT_EQ(t.storage_offset(), 0);
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.device().index(), -1);
  EXPECT_TRUE(t.is_cpu());
  EXPECT_EQ(t.size(-1), 4);
  EXPECT_EQ(t.stride(-3), 12);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data_ptr()) % st::kCpuAlignment, 0u);
  EXPECT_EQ(t.use_count(), 1u);
  Tensor u = t;
  EXPECT_EQ(t.use_count(), 2u);
  EXPECT_TRUE(u.is_same(t));
}

TEST(Tensor, ScalarAndZeroSize) {
  Tensor s = st::detail::empty_generic({}, ScalarType::Double, Device("cpu"));
  EXPECT_EQ(s.dim(), 0);
  EXPECT_EQ(s.numel(), 1);
  EXPECT_NE(s.data_ptr(), nullptr);
  Tensor z = st::detail::empty_generic({2, 0, 3}, ScalarType::Float, Device("cpu"));
  EXPECT_EQ(z.numel(), 0);
  EXPECT_EQ(z.strides(), st::IntArrayRef({3, 3, 1}));
  EXPECT_TRUE(z.is_contiguous());
  EXPECT_EQ(z.nbytes(), 0u);
}

TEST(Tensor, ManyDimsGoToHeap) {
  std::vector<int64_t> sizes = {1, 2, 1, 2, 1, 2, 1, 2};
  Tensor t = st::detail::empty_generic(sizes, ScalarType::Byte, Device("cpu"));
  EXPECT_EQ(t.dim(), 8);
  EXPECT_EQ(t.numel(), 16);
  EXPECT_EQ(t.stride(0), 16);
  EXPECT_EQ(t.stride(7), 1);
  EXPECT_TRUE(t.is_contiguous());
  Tensor copy = t;
  EXPECT_EQ(copy.sizes(), st::IntArrayRef(sizes));
}

TEST(Tensor, DataPtrDtypeCheck) {
  Tensor t = st::detail::empty_generic({3}, ScalarType::Long, Device("cpu"));
  EXPECT_NE(t.data_ptr<int64_t>(), nullptr);
  EXPECT_EQ(error_of([&] { t.data_ptr<float>(); }), "expected scalar type Float but found Long");
  EXPECT_EQ(t.const_data_ptr<int64_t>(), t.const_data_ptr());
}

TEST(Tensor, BadSizes) {
  EXPECT_NE(error_of([] {
              st::detail::empty_generic({2, -1}, ScalarType::Float, Device("cpu"));
            }).find("negative dimension -1"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              st::detail::empty_generic({INT64_MAX / 2, 4}, ScalarType::Float, Device("cpu"));
            }).find("overflow"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              st::detail::empty_generic({2}, ScalarType::Undefined, Device("cpu"));
            }).find("concrete dtype"),
            std::string::npos);
  // XLA: a device type no build of this core has an allocator for (a CUDA
  // build registers one for CUDA).
  EXPECT_NE(error_of([] {
              st::detail::empty_generic({2}, ScalarType::Float, Device("xla:0"));
            }).find("no allocator registered"),
            std::string::npos);
}

TEST(Tensor, DimOutOfRange) {
  Tensor t = st::detail::empty_generic({2, 2}, ScalarType::Float, Device("cpu"));
  EXPECT_EQ(error_of([&] { t.size(3); }),
            "Dimension out of range (expected to be in range of [-2, 1], but "
            "got 3)");
}

TEST(Tensor, ChannelsLast) {
  Tensor t = st::detail::empty_generic({2, 3, 4, 5}, ScalarType::Float, Device("cpu"),
                                       st::MemoryFormat::ChannelsLast);
  EXPECT_EQ(t.strides(), st::IntArrayRef({60, 1, 15, 3}));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_TRUE(t.is_contiguous(st::MemoryFormat::ChannelsLast));
  EXPECT_TRUE(t.is_non_overlapping_and_dense());
  Tensor t3 = st::detail::empty_generic({2, 3, 4, 5, 6}, ScalarType::Float, Device("cpu"),
                                        st::MemoryFormat::ChannelsLast3d);
  EXPECT_TRUE(t3.is_contiguous(st::MemoryFormat::ChannelsLast3d));
  EXPECT_FALSE(t3.is_contiguous(st::MemoryFormat::ChannelsLast));
  EXPECT_NE(error_of([] {
              st::detail::empty_generic({2, 3}, ScalarType::Float, Device("cpu"),
                                        st::MemoryFormat::ChannelsLast);
            }).find("rank 4"),
            std::string::npos);
}

TEST(Tensor, EmptyStrided) {
  Tensor t = st::detail::empty_strided_generic({2, 3}, {1, 2}, ScalarType::Float, Device("cpu"));
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_TRUE(t.is_non_overlapping_and_dense());
  EXPECT_EQ(t.storage().nbytes(), 24u);
  EXPECT_NE(error_of([] {
              st::detail::empty_strided_generic({2}, {-1}, ScalarType::Float, Device("cpu"));
            }).find("negative strides"),
            std::string::npos);
}

TEST(Tensor, LeakCountersReturnToZero) {
  const auto before = st::cpu_allocator_stats();
  const int64_t live_before = st::live_tensor_count();
  {
    Tensor a = st::detail::empty_generic({10}, ScalarType::Float, Device("cpu"));
    Tensor b = a;
    Tensor c = st::detail::empty_generic({5, 5}, ScalarType::Double, Device("cpu"));
    const auto during = st::cpu_allocator_stats();
    EXPECT_EQ(during.bytes_in_use - before.bytes_in_use, 40 + 200);
    EXPECT_EQ(during.live_allocations - before.live_allocations, 2);
    EXPECT_EQ(st::live_tensor_count() - live_before, 2);
  }
  const auto after = st::cpu_allocator_stats();
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  EXPECT_EQ(after.live_allocations, before.live_allocations);
  EXPECT_EQ(after.allocation_count - before.allocation_count, 2);
  EXPECT_EQ(st::live_tensor_count(), live_before);
}

TEST(Tensor, FailedSetterLeavesTensorUnchanged) {
  Tensor t = st::detail::empty_generic({2, 3}, ScalarType::Float, Device("cpu"));
  st::TensorImpl* impl = t.unsafeGetTensorImpl();
  EXPECT_NE(error_of([&] {
              impl->set_sizes_contiguous({4, -2});
            }).find("negative dimension -2"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              impl->set_sizes_and_strides({INT64_MAX, 4}, {1, 1});
            }).find("overflow"),
            std::string::npos);
  // No elements, but the contiguous strides do not fit int64 (found by
  // fuzz_call_dispatcher through aten::empty); the tensor is unchanged.
  EXPECT_NE(error_of([&] {
              impl->set_sizes_contiguous({0, INT64_MAX, 2});
            }).find("Stride calculation overflowed for sizes [0, 9223372036854775807, 2]"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              st::detail::empty_generic({0, INT64_MAX, 2}, ScalarType::Float, Device("cpu"));
            }).find("Stride calculation overflowed"),
            std::string::npos);
  EXPECT_NE(error_of([] {
              st::detail::empty_generic({2, 0, INT64_MAX, 2}, ScalarType::Float, Device("cpu"),
                                        st::MemoryFormat::ChannelsLast);
            }).find("Stride calculation overflowed"),
            std::string::npos);
  EXPECT_EQ(error_of([&] {
              impl->set_sizes_and_strides({2}, {1, 1});
            }),
            "set_sizes_and_strides: dimensionality of sizes (1) must match "
            "dimensionality of strides (2)");
  EXPECT_EQ(error_of([&] { impl->set_storage_offset(-1); }), "Tensor: invalid storage offset -1");
  EXPECT_EQ(t.sizes(), st::IntArrayRef({2, 3}));
  EXPECT_EQ(t.numel(), 6);
  EXPECT_TRUE(t.is_contiguous());
}

TEST(Tensor, MetadataChangeRecomputesContiguity) {
  Tensor t = st::detail::empty_generic({2, 3}, ScalarType::Float, Device("cpu"));
  t.unsafeGetTensorImpl()->set_sizes_and_strides({3, 2}, {1, 3});
  EXPECT_FALSE(t.is_contiguous());
  EXPECT_TRUE(t.is_non_overlapping_and_dense());
  t.unsafeGetTensorImpl()->set_sizes_and_strides({3, 2}, {2, 1});
  EXPECT_TRUE(t.is_contiguous());
  // Size-1 dims ignore their stride, as in PyTorch.
  t.unsafeGetTensorImpl()->set_sizes_and_strides({1, 6}, {100, 1});
  EXPECT_TRUE(t.is_contiguous());
  t.unsafeGetTensorImpl()->set_sizes_and_strides({2, 1, 3, 1}, {3, 1, 1, 1});
  // With C == W == 1 both layouts describe the same memory order.
  EXPECT_TRUE(t.is_contiguous(st::MemoryFormat::ChannelsLast));
  EXPECT_TRUE(t.is_contiguous());
  t.unsafeGetTensorImpl()->set_sizes_and_strides({2, 3, 2, 2}, {12, 4, 2, 1});
  EXPECT_FALSE(t.is_contiguous(st::MemoryFormat::ChannelsLast));
  EXPECT_NE(error_of([&] {
              t.is_contiguous(st::MemoryFormat::Preserve);
            }).find("is_contiguous: expected memory format"),
            std::string::npos);
}

TEST(Tensor, ItemAndWrappedNumber) {
  Tensor t = st::detail::empty_generic({}, ScalarType::Double, Device("cpu"));
  *t.data_ptr<double>() = 2.5;
  EXPECT_EQ(t.item<double>(), 2.5);
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  EXPECT_TRUE(t.unsafeGetTensorImpl()->is_wrapped_number());
  Tensor v = st::detail::empty_generic({2}, ScalarType::Double, Device("cpu"));
  EXPECT_EQ(error_of([&] { v.item<double>(); }),
            "item: expected a tensor with one element, got 2 elements");
}

TEST(Tensor, ReleaseAndReclaim) {
  Tensor t = st::detail::empty_generic({1}, ScalarType::Float, Device("cpu"));
  st::TensorImpl* raw = t.unsafeReleaseTensorImpl();
  EXPECT_FALSE(t.defined());
  EXPECT_EQ(raw->use_count(), 1u);
  Tensor back(st::intrusive_ptr<st::TensorImpl>::reclaim(raw));
  EXPECT_EQ(back.use_count(), 1u);
}

// A CPU tensor's device is plain "cpu" whatever index it was made with, so
// CPU tensors' devices always compare equal (as PyTorch's).
TEST(TensorImpl, CpuDeviceHasNoIndex) {
  st::Tensor t = st::detail::empty_generic({2}, ScalarType::Float, Device(DeviceType::CPU, 0));
  EXPECT_EQ(t.device(), Device(DeviceType::CPU));
  EXPECT_EQ(t.device().index(), -1);
}

}  // namespace
