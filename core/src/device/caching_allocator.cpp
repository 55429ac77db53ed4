#include <st/device/caching_allocator.h>

#include <algorithm>
#include <new>

#include <st/core/error.h>
#include <st/device/device_runtime.h>

namespace st {

RawDeviceMemory::~RawDeviceMemory() = default;

CachingAllocator::CachingAllocator(DeviceType type, RawDeviceMemory* raw) : type_(type), raw_(raw) {
  ST_CHECK(raw != nullptr, "CachingAllocator: expected raw device memory, got null");
}

CachingAllocator::~CachingAllocator() {
  std::lock_guard<std::mutex> lock(mutex_);
  release_cached_locked();
}

size_t CachingAllocator::round_size(size_t nbytes) {
  const size_t cls = nbytes < kLargeThreshold ? kSmallClass : kLargeClass;
  ST_CHECK(nbytes <= SIZE_MAX - cls, "CachingAllocator: cannot allocate ", nbytes,
           " bytes (size overflows)");
  return std::max(cls, (nbytes + cls - 1) / cls * cls);
}

CachingAllocatorStats& CachingAllocator::stats_locked(DeviceIndex device) { return stats_[device]; }

CachingAllocator::Block* CachingAllocator::take_block(size_t nbytes) {
  DeviceRuntime& rt = get_device_runtime(type_);
  const DeviceIndex device = rt.current_device();
  const StreamId stream = rt.current_stream(device).id();
  const size_t size = round_size(nbytes);
  std::lock_guard<std::mutex> lock(mutex_);
  CachingAllocatorStats& s = stats_locked(device);
  s.num_allocs += 1;
  Block* block = nullptr;
  auto it = pool_.find(PoolKey{device, stream, size});
  if (it != pool_.end() && !it->second.empty()) {
    block = it->second.back();
    it->second.pop_back();
    s.num_cache_hits += 1;
    s.cached_bytes -= static_cast<int64_t>(size);
  } else {
    void* ptr = raw_->raw_alloc(device, size);
    if (ptr == nullptr) {
      release_cached_locked();  // give the cache back and retry once
      ptr = raw_->raw_alloc(device, size);
    }
    ST_CHECK(ptr != nullptr, "CachingAllocator: out of memory on ", Device(type_, device),
             " allocating ", nbytes, " bytes (", size, " after rounding); ", s.allocated_bytes,
             " bytes are in use");
    block = new (std::nothrow) Block{ptr, size, device, stream, this};
    if (block == nullptr) {
      raw_->raw_free(device, ptr);
      ST_ERROR("CachingAllocator: out of host memory for the block record");
    }
    s.num_raw_allocs += 1;
    s.reserved_bytes += static_cast<int64_t>(size);
  }
  s.allocated_bytes += static_cast<int64_t>(size);
  s.peak_allocated_bytes = std::max(s.peak_allocated_bytes, s.allocated_bytes);
  s.live_blocks += 1;
  return block;
}

void CachingAllocator::give_back(Block* block) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  CachingAllocatorStats& s = stats_[block->device];
  s.allocated_bytes -= static_cast<int64_t>(block->size);
  s.cached_bytes += static_cast<int64_t>(block->size);
  s.live_blocks -= 1;
  try {
    pool_[PoolKey{block->device, block->stream, block->size}].push_back(block);
  } catch (...) {
    // No room to cache it: free it now.
    s.cached_bytes -= static_cast<int64_t>(block->size);
    s.reserved_bytes -= static_cast<int64_t>(block->size);
    s.num_raw_frees += 1;
    raw_->raw_free(block->device, block->ptr);
    delete block;
  }
}

void CachingAllocator::delete_block(void* context) noexcept {
  Block* block = static_cast<Block*>(context);
  block->owner->give_back(block);
}

DataPtr CachingAllocator::allocate(size_t nbytes) {
  if (nbytes == 0) {
    const DeviceIndex device = get_device_runtime(type_).current_device();
    return DataPtr(nullptr, Device(type_, device));
  }
  Block* block = take_block(nbytes);
  return DataPtr(block->ptr, block, &CachingAllocator::delete_block, Device(type_, block->device));
}

void CachingAllocator::copy_data(void* dst, const void* src, size_t nbytes) const {
  if (nbytes != 0) raw_->raw_copy(dst, src, nbytes);
}

void* CachingAllocator::raw_allocate(size_t nbytes) {
  if (nbytes == 0) return nullptr;
  Block* block = take_block(nbytes);
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    raw_blocks_.emplace(block->ptr, block);
  } catch (...) {
    give_back(block);
    throw;
  }
  return block->ptr;
}

void CachingAllocator::raw_delete(void* ptr) {
  if (ptr == nullptr) return;
  Block* block = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = raw_blocks_.find(ptr);
    ST_CHECK(it != raw_blocks_.end(), "CachingAllocator::raw_delete: pointer ", ptr,
             " was not allocated by raw_allocate of this allocator, or was already freed");
    block = it->second;
    raw_blocks_.erase(it);
  }
  give_back(block);
}

void CachingAllocator::release_cached_locked() noexcept {
  for (auto& [key, blocks] : pool_) {
    for (Block* b : blocks) {
      CachingAllocatorStats& s = stats_[b->device];
      s.cached_bytes -= static_cast<int64_t>(b->size);
      s.reserved_bytes -= static_cast<int64_t>(b->size);
      s.num_raw_frees += 1;
      raw_->raw_free(b->device, b->ptr);
      delete b;
    }
  }
  pool_.clear();
}

void CachingAllocator::empty_cache() {
  std::lock_guard<std::mutex> lock(mutex_);
  release_cached_locked();
}

CachingAllocatorStats CachingAllocator::stats(DeviceIndex device) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (device != -1) {
    auto it = stats_.find(device);
    return it == stats_.end() ? CachingAllocatorStats{} : it->second;
  }
  CachingAllocatorStats sum;
  for (const auto& [d, s] : stats_) {
    sum.allocated_bytes += s.allocated_bytes;
    sum.peak_allocated_bytes += s.peak_allocated_bytes;
    sum.reserved_bytes += s.reserved_bytes;
    sum.cached_bytes += s.cached_bytes;
    sum.num_allocs += s.num_allocs;
    sum.num_cache_hits += s.num_cache_hits;
    sum.num_raw_allocs += s.num_raw_allocs;
    sum.num_raw_frees += s.num_raw_frees;
    sum.live_blocks += s.live_blocks;
  }
  return sum;
}

}  // namespace st
