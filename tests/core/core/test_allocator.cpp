#include <gtest/gtest.h>

#include <cstdint>
#include <new>

#include <cstdint>
#include <cstdlib>

#include <st/core/allocator.h>

#include "core/cpu_block_cache.h"
#include "tensor_test_util.h"

namespace {

using st::testing::error_of;

TEST(Allocator, CpuAlignedAndCounted) {
  st::Allocator* a = st::get_allocator(st::DeviceType::CPU);
  ASSERT_EQ(a, st::cpu_allocator());
  const auto before = st::cpu_allocator_stats();
  {
    st::DataPtr p = a->allocate(100);
    ASSERT_NE(p.get(), nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p.get()) % st::kCpuAlignment, 0u);
    EXPECT_TRUE(p.device().is_cpu());
    const auto during = st::cpu_allocator_stats();
    EXPECT_EQ(during.bytes_in_use - before.bytes_in_use, 100);
    EXPECT_EQ(during.live_allocations - before.live_allocations, 1);
    EXPECT_EQ(during.allocation_count - before.allocation_count, 1);
    EXPECT_GE(during.peak_bytes, during.bytes_in_use);
    st::DataPtr moved = std::move(p);
    EXPECT_EQ(p.get(), nullptr);
    EXPECT_NE(moved.get(), nullptr);
  }
  const auto after = st::cpu_allocator_stats();
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  EXPECT_EQ(after.live_allocations, before.live_allocations);
}

TEST(Allocator, ZeroBytesGivesNull) {
  st::DataPtr p = st::cpu_allocator()->allocate(0);
  EXPECT_EQ(p.get(), nullptr);
}

TEST(Allocator, PeakResets) {
  {
    st::DataPtr big = st::cpu_allocator()->allocate(1 << 20);
    EXPECT_GE(st::cpu_allocator_stats().peak_bytes, 1 << 20);
  }
  st::reset_cpu_allocator_peak();
  const auto s = st::cpu_allocator_stats();
  EXPECT_EQ(s.peak_bytes, s.bytes_in_use);
}

// A freed large block is the next allocation of its size (Note [Large CPU
// blocks]): its pages stay written, and the counters count it as freed.
TEST(Allocator, AFreedLargeBlockServesTheNextRequestOfItsSize) {
  if (!st::detail::CpuBlockCache::enabled())
    GTEST_SKIP() << "no blocks are kept under AddressSanitizer";
  // An odd size: no block another test left behind fits it better.
  const size_t n = (size_t{5} << 20) + 12345;
  const auto before = st::cpu_allocator_stats();
  void* first = nullptr;
  {
    st::DataPtr p = st::cpu_allocator()->allocate(n);
    first = p.get();
    static_cast<char*>(first)[n - 1] = 1;
  }
  EXPECT_EQ(st::cpu_allocator_stats().bytes_in_use, before.bytes_in_use);
  st::DataPtr again = st::cpu_allocator()->allocate(n);
  EXPECT_EQ(again.get(), first);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(again.get()) % st::kCpuAlignment, 0u);
  EXPECT_EQ(st::cpu_allocator_stats().bytes_in_use - before.bytes_in_use, static_cast<int64_t>(n));
  // Another large request while it is in use gets other memory.
  st::DataPtr other = st::cpu_allocator()->allocate(n);
  EXPECT_NE(other.get(), again.get());
}

TEST(Allocator, OverflowingRequestIsAnError) {
  EXPECT_NE(error_of([] {
              st::cpu_allocator()->allocate(SIZE_MAX - 8);
            }).find("CPU allocator: cannot allocate"),
            std::string::npos);
}

// A test allocator for another device type, counting its calls.
class CountingAllocator final : public st::Allocator {
 public:
  static void free_block(void* ctx) { std::free(ctx); }
  st::DataPtr allocate(size_t n) override {
    ++allocations;
    // Refuse sizes malloc cannot take (keeps -Walloc-size-larger-than quiet
    // when a test passes an overflowing size).
    if (n > static_cast<size_t>(PTRDIFF_MAX)) throw std::bad_alloc();
    void* p = std::malloc(n == 0 ? 1 : n);
    return st::DataPtr(p, p, &free_block, st::Device(st::DeviceType::PrivateUse1, 0));
  }
  void copy_data(void* dst, const void* src, size_t n) const override { std::memcpy(dst, src, n); }
  int allocations = 0;
};

TEST(Allocator, RegistryPerDeviceType) {
  EXPECT_EQ(st::try_get_allocator(st::DeviceType::PrivateUse1), nullptr);
  EXPECT_EQ(error_of([] { st::get_allocator(st::DeviceType::PrivateUse1); }),
            "get_allocator: no allocator registered for device type "
            "privateuseone");
  static CountingAllocator counting;
  st::set_allocator(st::DeviceType::PrivateUse1, &counting);
  EXPECT_EQ(st::get_allocator(st::DeviceType::PrivateUse1), &counting);
  {
    st::Tensor t =
        st::detail::empty_generic({4}, st::ScalarType::Float, st::Device("privateuseone:0"));
    EXPECT_EQ(counting.allocations, 1);
    EXPECT_EQ(t.device().str(), "privateuseone:0");
  }
  EXPECT_EQ(error_of([] { st::set_allocator(st::DeviceType::CUDA, nullptr); }),
            "set_allocator: expected an allocator for cuda, got null");
}

TEST(Allocator, DataPtrReleaseContext) {
  st::DataPtr p = st::cpu_allocator()->allocate(8);
  void* ctx = p.release_context();
  EXPECT_EQ(p.deleter(), nullptr);
  // Hand it back to a fresh owner so the counters balance.
  st::DataPtr again(p.get(), ctx, st::cpu_allocator()->allocate(1).deleter(), st::Device("cpu"));
}

}  // namespace
