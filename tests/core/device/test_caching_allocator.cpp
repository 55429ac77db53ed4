// The device-generic caching allocator over fake raw memory on the host
// test backend's devices and streams (the CUDA backend uses the same class
// over cudaMalloc).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include <st/core/error.h>
#include <st/device/caching_allocator.h>
#include <st/device/device_guard.h>
#include <st/device/device_runtime.h>
#include <st/testing/host_test_backend.h>

namespace {

using st::CachingAllocator;
using st::Device;

// Host memory with a budget, counting raw calls.
class FakeRaw final : public st::RawDeviceMemory {
 public:
  void* raw_alloc(st::DeviceIndex, size_t nbytes) override {
    if (in_use + nbytes > budget) return nullptr;
    in_use += nbytes;
    return std::malloc(nbytes);
  }
  void raw_free(st::DeviceIndex, void* ptr) noexcept override { std::free(ptr); }
  void raw_copy(void* dst, const void* src, size_t nbytes) const override {
    std::memcpy(dst, src, nbytes);
  }
  size_t budget = size_t{64} << 20;
  size_t in_use = 0;  // not decremented: raw_free does not know sizes
};

class CachingAllocatorTest : public ::testing::Test {
 protected:
  void SetUp() override { st::testing::register_host_test_backend(); }
  FakeRaw raw;
};

TEST_F(CachingAllocatorTest, SizeClasses) {
  EXPECT_EQ(CachingAllocator::round_size(1), 512u);
  EXPECT_EQ(CachingAllocator::round_size(512), 512u);
  EXPECT_EQ(CachingAllocator::round_size(513), 1024u);
  EXPECT_EQ(CachingAllocator::round_size((1u << 20) - 1), 1u << 20);
  EXPECT_EQ(CachingAllocator::round_size(1u << 20), 2u << 20);
  EXPECT_EQ(CachingAllocator::round_size((2u << 20) + 1), 4u << 20);
}

TEST_F(CachingAllocatorTest, ReusesFreedBlocksOfTheSameClassAndStream) {
  CachingAllocator a(st::DeviceType::PrivateUse1, &raw);
  void* first = nullptr;
  {
    st::DataPtr p = a.allocate(1000);
    first = p.get();
    EXPECT_EQ(p.device(), Device("privateuseone:0"));
    EXPECT_EQ(a.stats(0).allocated_bytes, 1024);
  }
  EXPECT_EQ(a.stats(0).allocated_bytes, 0);
  EXPECT_EQ(a.stats(0).cached_bytes, 1024);
  st::DataPtr again = a.allocate(900);  // same class
  EXPECT_EQ(again.get(), first);
  const auto s = a.stats(0);
  EXPECT_EQ(s.num_allocs, 2);
  EXPECT_EQ(s.num_cache_hits, 1);
  EXPECT_EQ(s.num_raw_allocs, 1);
  EXPECT_EQ(s.peak_allocated_bytes, 1024);
  st::DataPtr other = a.allocate(2000);  // another class: a new block
  EXPECT_NE(other.get(), first);
  EXPECT_EQ(a.stats(0).num_raw_allocs, 2);
}

TEST_F(CachingAllocatorTest, BlocksAreCachedPerStreamAndDevice) {
  CachingAllocator a(st::DeviceType::PrivateUse1, &raw);
  void* on_default = a.allocate(100).get();  // freed at once, cached for stream 0
  const st::Stream pooled = st::stream_from_pool(Device("privateuseone:0"));
  {
    st::StreamGuard g(pooled);
    st::DataPtr p = a.allocate(100);
    EXPECT_NE(p.get(), on_default) << "a block of the default stream went to another stream";
  }
  {
    st::DeviceGuard g(Device("privateuseone:1"));
    st::DataPtr p = a.allocate(100);
    EXPECT_NE(p.get(), on_default);
    EXPECT_EQ(p.device(), Device("privateuseone:1"));
    EXPECT_EQ(a.stats(1).allocated_bytes, 512);
  }
  st::DataPtr back = a.allocate(100);
  EXPECT_EQ(back.get(), on_default);
  EXPECT_EQ(a.stats().num_raw_allocs, 3);
}

TEST_F(CachingAllocatorTest, EmptyCacheReturnsCachedBlocks) {
  CachingAllocator a(st::DeviceType::PrivateUse1, &raw);
  st::DataPtr kept = a.allocate(10);
  a.allocate(5000);  // freed into the cache
  EXPECT_EQ(a.stats().reserved_bytes, 512 + 5120);
  a.empty_cache();
  const auto s = a.stats();
  EXPECT_EQ(s.reserved_bytes, 512);
  EXPECT_EQ(s.cached_bytes, 0);
  EXPECT_EQ(s.num_raw_frees, 1);
  EXPECT_EQ(s.live_blocks, 1);
}

TEST_F(CachingAllocatorTest, RawAllocateAndDelete) {
  CachingAllocator a(st::DeviceType::PrivateUse1, &raw);
  void* p = a.raw_allocate(64);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(a.stats().live_blocks, 1);
  a.raw_delete(p);
  EXPECT_EQ(a.stats().live_blocks, 0);
  EXPECT_EQ(a.raw_allocate(0), nullptr);
  a.raw_delete(nullptr);
  try {
    a.raw_delete(p);
    FAIL() << "double raw_delete accepted";
  } catch (const st::Error& e) {
    EXPECT_NE(std::string(e.what()).find("was not allocated by raw_allocate of this allocator, or "
                                         "was already freed"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(CachingAllocatorTest, OutOfMemoryEmptiesTheCacheThenNamesTheDevice) {
  raw.budget = 3u << 20;
  CachingAllocator a(st::DeviceType::PrivateUse1, &raw);
  a.allocate(1u << 20);  // a 2 MiB block, cached
  try {
    st::DataPtr p = a.allocate(4u << 20);
    FAIL() << "allocation over the budget succeeded";
  } catch (const st::Error& e) {
    EXPECT_NE(std::string(e.what()).find("CachingAllocator: out of memory on privateuseone:0 "
                                         "allocating 4194304 bytes"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(a.stats().num_raw_frees, 1);  // the cache was given back before failing
}

}  // namespace
