// TensorImpl::make_with_storage: a tensor and its storage in one block,
// each part ending on its own (Note [Tensor and storage in one block]),
// and a small tensor's data in the block as a third part (Note [Small data
// in the block]). Run under ASan to check the block's lifetime.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include <st/core/allocator.h>
#include <st/core/tensor.h>
#include <st/core/tensor_impl.h>

#include "tensor_test_util.h"

namespace {

using st::testing::error_of;

st::intrusive_ptr<st::TensorImpl> make_floats(int64_t n) {
  auto impl = st::TensorImpl::make_with_storage(static_cast<size_t>(n) * sizeof(float),
                                                st::get_allocator(st::DeviceType::CPU),
                                                st::ScalarType::Float, st::Device("cpu"));
  impl->set_sizes_contiguous({n});
  return impl;
}

TEST(TensorImpl, MakeWithStorageGivesAResizableStorageOfNBytes) {
  const int64_t live = st::live_tensor_count();
  {
    auto impl = st::TensorImpl::make_with_storage(24, st::get_allocator(st::DeviceType::CPU),
                                                  st::ScalarType::Double, st::Device("cpu"));
    EXPECT_EQ(st::live_tensor_count(), live + 1);
    EXPECT_EQ(impl->dim(), 1);
    EXPECT_EQ(impl->numel(), 0);
    EXPECT_EQ(impl->dtype(), st::ScalarType::Double);
    EXPECT_TRUE(impl->device().is_cpu());
    EXPECT_EQ(impl->storage().nbytes(), 24u);
    EXPECT_TRUE(impl->storage()->resizable());
    EXPECT_NE(impl->storage().data(), nullptr);
    EXPECT_EQ(impl->storage().use_count(), 1u);
    EXPECT_EQ(impl.use_count(), 1u);
  }
  EXPECT_EQ(st::live_tensor_count(), live);
}

TEST(TensorImpl, StorageOutlivesItsTensor) {
  const int64_t live = st::live_tensor_count();
  const int64_t bytes = st::cpu_allocator_stats().bytes_in_use;
  st::Storage kept;
  {
    auto impl = make_floats(4);
    const float values[4] = {1, 2, 3, 4};
    std::memcpy(impl->mutable_data(), values, sizeof(values));
    kept = impl->storage();
    EXPECT_EQ(kept.use_count(), 2u);
  }
  EXPECT_EQ(st::live_tensor_count(), live);
  EXPECT_EQ(kept.use_count(), 1u);
  EXPECT_EQ(static_cast<const float*>(kept.data())[3], 4.0f);
  kept->resize(64);  // still an ordinary resizable storage
  EXPECT_EQ(static_cast<const float*>(kept.data())[2], 3.0f);
  kept = st::Storage();
  EXPECT_EQ(st::cpu_allocator_stats().bytes_in_use, bytes);
}

TEST(TensorImpl, ViewKeepsTheBlockAfterTheBaseEnds) {
  st::Tensor view;
  {
    st::Tensor base(make_floats(6));
    for (int i = 0; i < 6; ++i) static_cast<float*>(base.data_ptr())[i] = static_cast<float>(i);
    auto v = st::make_intrusive<st::TensorImpl>(base.unsafeGetTensorImpl()->storage(),
                                                st::ScalarType::Float, st::Device("cpu"));
    v->set_sizes_and_strides({3}, {2}, 1);
    view = st::Tensor(std::move(v));
  }
  EXPECT_EQ(view.unsafeGetTensorImpl()->storage().use_count(), 1u);
  const auto* data = static_cast<const float*>(view.data_ptr());
  EXPECT_EQ(data[0], 1.0f);
  EXPECT_EQ(data[4], 5.0f);
}

TEST(TensorImpl, StorageReplacedBeforeTheTensorEnds) {
  const int64_t bytes = st::cpu_allocator_stats().bytes_in_use;
  {
    auto impl = make_floats(8);
    impl->set_storage(st::Storage::allocate(16, st::Device("cpu")));  // the block's storage ends
    EXPECT_EQ(impl->storage().nbytes(), 16u);
    impl->set_storage(st::Storage());
  }
  EXPECT_EQ(st::cpu_allocator_stats().bytes_in_use, bytes);
}

TEST(TensorImpl, MakeWithStorageRejectsAnUndefinedDtypeAndLeaksNothing) {
  const int64_t live = st::live_tensor_count();
  const int64_t bytes = st::cpu_allocator_stats().bytes_in_use;
  const std::string msg = error_of([] {
    (void)st::TensorImpl::make_with_storage(8, st::get_allocator(st::DeviceType::CPU),
                                            st::ScalarType::Undefined, st::Device("cpu"));
  });
  EXPECT_NE(msg.find("expected a concrete dtype"), std::string::npos) << msg;
  EXPECT_EQ(st::live_tensor_count(), live);
  EXPECT_EQ(st::cpu_allocator_stats().bytes_in_use, bytes);
}

// The two parts ending at the same time on two threads: exactly one frees
// the block (a double free or a leak shows under ASan).
TEST(TensorImpl, PartsEndingOnTwoThreadsFreeTheBlockOnce) {
  const int64_t live = st::live_tensor_count();
  for (int round = 0; round < 2000; ++round) {
    auto impl = make_floats(1);
    st::Storage storage = impl->storage();
    std::thread other([s = std::move(storage)]() mutable { s = st::Storage(); });
    impl.reset();
    other.join();
  }
  EXPECT_EQ(st::live_tensor_count(), live);
}

// Data of 1 to 17 floats: 64-byte aligned and counted by the CPU
// allocator, in the block (up to 16 floats) or not (17).
TEST(TensorImpl, SmallDataIsAlignedAndCountedLikeAllocatedData) {
  for (int64_t n = 1; n <= 17; ++n) {
    const st::AllocatorStats before = st::cpu_allocator_stats();
    {
      auto impl = make_floats(n);
      const st::AllocatorStats during = st::cpu_allocator_stats();
      EXPECT_EQ(reinterpret_cast<uintptr_t>(impl->mutable_data()) % st::kCpuAlignment, 0u) << n;
      EXPECT_EQ(during.bytes_in_use - before.bytes_in_use, n * 4) << n;
      EXPECT_EQ(during.live_allocations - before.live_allocations, 1) << n;
      EXPECT_EQ(during.allocation_count - before.allocation_count, 1) << n;
      std::memset(impl->mutable_data(), 0x5a, static_cast<size_t>(n) * 4);
    }
    const st::AllocatorStats after = st::cpu_allocator_stats();
    EXPECT_EQ(after.bytes_in_use, before.bytes_in_use) << n;
    EXPECT_EQ(after.live_allocations, before.live_allocations) << n;
  }
}

TEST(TensorImpl, SmallDataResizedMovesToTheAllocator) {
  const int64_t bytes = st::cpu_allocator_stats().bytes_in_use;
  {
    auto impl = make_floats(3);
    const float values[3] = {7, 8, 9};
    std::memcpy(impl->mutable_data(), values, sizeof(values));
    impl->storage()->resize(4096);
    EXPECT_EQ(st::cpu_allocator_stats().bytes_in_use - bytes, 4096);
    EXPECT_EQ(static_cast<const float*>(impl->storage().data())[2], 9.0f);
    impl->storage()->resize(8);  // small again, but from the allocator
    EXPECT_EQ(static_cast<const float*>(impl->storage().data())[1], 8.0f);
  }
  EXPECT_EQ(st::cpu_allocator_stats().bytes_in_use, bytes);
}

// A DataPtr moved out of the storage keeps the small data valid after the
// tensor and its storage end; its own end frees the block.
TEST(TensorImpl, SmallDataMovedOutOfTheStorageOutlivesBoth) {
  const int64_t live = st::live_tensor_count();
  const int64_t bytes = st::cpu_allocator_stats().bytes_in_use;
  st::DataPtr data;
  {
    auto impl = make_floats(2);
    static_cast<float*>(impl->mutable_data())[1] = 5.0f;
    data = std::move(impl->storage()->mutable_data_ptr());
  }
  EXPECT_EQ(st::live_tensor_count(), live);
  EXPECT_EQ(static_cast<const float*>(data.get())[1], 5.0f);
  EXPECT_EQ(st::cpu_allocator_stats().bytes_in_use - bytes, 8);
  data.clear();
  EXPECT_EQ(st::cpu_allocator_stats().bytes_in_use, bytes);
}

// The three parts ending on three threads at once: one free of the block.
TEST(TensorImpl, ThreePartsEndingOnThreeThreadsFreeTheBlockOnce) {
  const int64_t live = st::live_tensor_count();
  const int64_t bytes = st::cpu_allocator_stats().bytes_in_use;
  for (int round = 0; round < 1000; ++round) {
    auto impl = make_floats(1);
    st::Storage storage = impl->storage();
    st::DataPtr data = std::move(storage->mutable_data_ptr());
    std::thread a([s = std::move(storage)]() mutable { s = st::Storage(); });
    std::thread b([d = std::move(data)]() mutable { d.clear(); });
    impl.reset();
    a.join();
    b.join();
  }
  EXPECT_EQ(st::live_tensor_count(), live);
  EXPECT_EQ(st::cpu_allocator_stats().bytes_in_use, bytes);
}

// An allocator installed for the CPU sees every allocation, small ones too.
TEST(TensorImpl, AnInstalledCpuAllocatorGetsSmallAllocationsToo) {
  struct Counting final : st::Allocator {
    st::Allocator* inner = st::get_allocator(st::DeviceType::CPU);
    int calls = 0;
    st::DataPtr allocate(size_t nbytes) override {
      ++calls;
      return inner->allocate(nbytes);
    }
    void copy_data(void* dst, const void* src, size_t nbytes) const override {
      inner->copy_data(dst, src, nbytes);
    }
  } counting;
  st::set_allocator(st::DeviceType::CPU, &counting);
  {
    auto impl = st::TensorImpl::make_with_storage(4, st::get_allocator(st::DeviceType::CPU),
                                                  st::ScalarType::Float, st::Device("cpu"));
    EXPECT_EQ(counting.calls, 1);
  }
  st::set_allocator(st::DeviceType::CPU, counting.inner);
}

}  // namespace
