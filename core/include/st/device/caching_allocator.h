// st::CachingAllocator: a device-generic caching allocator. A backend gives
// it raw device memory (RawDeviceMemory: cudaMalloc/cudaFree for CUDA) and
// registers it as its device type's Allocator; freed blocks are cached and
// handed out again instead of going back to the driver.
//
// Note [Caching allocator]
// - Sizes are rounded to size classes: multiples of 512 bytes below 1 MiB,
//   multiples of 2 MiB from there. A cached block serves only a request of
//   its exact class (no splitting), on the device and the stream it was
//   allocated for: blocks are cached per (device, stream), so memory freed
//   by work on one stream is never handed to another stream while that work
//   may still be running. (A block used on a second stream must be kept
//   alive by the caller until that stream is done; there is no
//   record_stream yet.)
// - Allocations are made on the current device and its current stream,
//   read from the device type's DeviceRuntime.
// - When the raw allocator runs out, the cache is emptied and the request
//   retried once; then the error names the device and the sizes.
// - Thread-safe (one mutex); empty_cache() returns every cached block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <st/core/allocator.h>
#include <st/core/export.h>
#include <st/device/stream.h>

namespace st {

// Raw memory of one device type.
class ST_API RawDeviceMemory {
 public:
  virtual ~RawDeviceMemory();
  // nbytes on `device`; null when the device is out of memory. May throw
  // st::Error for other failures.
  virtual void* raw_alloc(DeviceIndex device, size_t nbytes) = 0;
  virtual void raw_free(DeviceIndex device, void* ptr) noexcept = 0;
  // Copies between two allocations of the device type (synchronously).
  virtual void raw_copy(void* dst, const void* src, size_t nbytes) const = 0;
};

struct CachingAllocatorStats {
  int64_t allocated_bytes = 0;       // rounded bytes handed out and not yet freed
  int64_t peak_allocated_bytes = 0;  // high-water mark of allocated_bytes
  int64_t reserved_bytes = 0;        // bytes obtained from the raw allocator
  int64_t cached_bytes = 0;          // reserved but not handed out
  int64_t num_allocs = 0;            // allocate() / raw_allocate() calls with nbytes > 0
  int64_t num_cache_hits = 0;        // of those, served from the cache
  int64_t num_raw_allocs = 0;        // raw_alloc calls that succeeded
  int64_t num_raw_frees = 0;
  int64_t live_blocks = 0;
};

class ST_API CachingAllocator final : public Allocator {
 public:
  static constexpr size_t kSmallClass = 512;
  static constexpr size_t kLargeClass = size_t{2} << 20;
  static constexpr size_t kLargeThreshold = size_t{1} << 20;

  // `raw` must outlive the allocator; allocators of a device type live
  // until the process ends.
  CachingAllocator(DeviceType type, RawDeviceMemory* raw);
  ~CachingAllocator() override;

  // On the current device and stream. Throws st::Error when out of memory.
  DataPtr allocate(size_t nbytes) override;
  void copy_data(void* dst, const void* src, size_t nbytes) const override;

  // The C ABI's raw_alloc / raw_delete: a block without a DataPtr, freed by
  // pointer. raw_delete of a pointer this allocator did not hand out (or
  // already freed) throws, naming the pointer; null is a no-op.
  void* raw_allocate(size_t nbytes);
  void raw_delete(void* ptr);

  // Returns every cached block to the raw allocator.
  void empty_cache();
  // Counters of one device (-1: summed over all devices).
  CachingAllocatorStats stats(DeviceIndex device = -1) const;
  // The size class of a request.
  static size_t round_size(size_t nbytes);

 private:
  struct Block {
    void* ptr;
    size_t size;  // rounded
    DeviceIndex device;
    StreamId stream;
    CachingAllocator* owner;
  };
  using PoolKey = std::tuple<DeviceIndex, StreamId, size_t>;

  Block* take_block(size_t nbytes);
  void give_back(Block* block) noexcept;
  void release_cached_locked() noexcept;  // mutex held
  CachingAllocatorStats& stats_locked(DeviceIndex device);
  static void delete_block(void* context) noexcept;

  DeviceType type_;
  RawDeviceMemory* raw_;
  mutable std::mutex mutex_;
  std::map<PoolKey, std::vector<Block*>> pool_;   // cached blocks
  std::unordered_map<void*, Block*> raw_blocks_;  // handed out by raw_allocate
  std::map<DeviceIndex, CachingAllocatorStats> stats_;
};

}  // namespace st
