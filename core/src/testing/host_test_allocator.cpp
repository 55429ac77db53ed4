#include "host_test_allocator.h"

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

#include <st/core/error.h>
#include <st/device/device_runtime.h>
#include <st/testing/host_test_backend.h>

namespace st::testing {
namespace detail {
namespace {

struct Counters {
  std::atomic<int64_t> bytes_in_use{0};
  std::atomic<int64_t> peak_bytes{0};
  std::atomic<int64_t> allocation_count{0};
  std::atomic<int64_t> live_allocations{0};
};
std::array<Counters, kHostTestDeviceCount> g_counters;

// The deleter's context: what to free and whom to charge.
struct Block {
  void* data;
  size_t nbytes;
  DeviceIndex device;
};

void host_delete(void* context) {
  Block* b = static_cast<Block*>(context);
  Counters& c = g_counters[static_cast<size_t>(b->device)];
  c.bytes_in_use.fetch_sub(static_cast<int64_t>(b->nbytes), std::memory_order_relaxed);
  c.live_allocations.fetch_sub(1, std::memory_order_relaxed);
  std::free(b->data);
  delete b;
}

class HostTestAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) override {
    const DeviceIndex device = get_device_runtime(DeviceType::PrivateUse1).current_device();
    if (nbytes == 0) return DataPtr(nullptr, Device(DeviceType::PrivateUse1, device));
    ST_CHECK(nbytes <= (SIZE_MAX >> 1), "host test allocator: cannot allocate ", nbytes, " bytes");
    const size_t rounded = (nbytes + kCpuAlignment - 1) / kCpuAlignment * kCpuAlignment;
    void* data = std::aligned_alloc(kCpuAlignment, rounded);
    ST_CHECK(data != nullptr, "host test allocator: out of memory allocating ", nbytes,
             " bytes on privateuseone:", static_cast<int>(device));
    Block* block = new (std::nothrow) Block{data, nbytes, device};
    if (block == nullptr) {
      std::free(data);
      ST_ERROR("host test allocator: out of memory");
    }
    Counters& c = g_counters[static_cast<size_t>(device)];
    const int64_t now =
        c.bytes_in_use.fetch_add(static_cast<int64_t>(nbytes), std::memory_order_relaxed) +
        static_cast<int64_t>(nbytes);
    int64_t peak = c.peak_bytes.load(std::memory_order_relaxed);
    while (now > peak && !c.peak_bytes.compare_exchange_weak(peak, now)) {
    }
    c.allocation_count.fetch_add(1, std::memory_order_relaxed);
    c.live_allocations.fetch_add(1, std::memory_order_relaxed);
    return DataPtr(data, block, &host_delete, Device(DeviceType::PrivateUse1, device));
  }
  void copy_data(void* dst, const void* src, size_t nbytes) const override {
    if (nbytes != 0) std::memcpy(dst, src, nbytes);
  }
};

}  // namespace

Allocator* host_test_allocator() {
  static HostTestAllocator allocator;
  return &allocator;
}

}  // namespace detail

AllocatorStats host_test_allocator_stats(DeviceIndex device) {
  ST_CHECK(device >= 0 && device < kHostTestDeviceCount, "host_test_allocator_stats: device ",
           static_cast<int>(device), " is out of range (0 to ", kHostTestDeviceCount - 1, ")");
  const detail::Counters& c = detail::g_counters[static_cast<size_t>(device)];
  AllocatorStats s;
  s.bytes_in_use = c.bytes_in_use.load(std::memory_order_relaxed);
  s.peak_bytes = c.peak_bytes.load(std::memory_order_relaxed);
  s.allocation_count = c.allocation_count.load(std::memory_order_relaxed);
  s.live_allocations = c.live_allocations.load(std::memory_order_relaxed);
  return s;
}

}  // namespace st::testing
