#include "cpu_block_cache.h"

#include <pthread.h>

#include <cstdlib>
#include <new>

namespace st {
namespace detail {

void* CpuBlockCache::take(size_t bytes) noexcept {
  if (!enabled() || bytes < kMinBytes) return nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  int best = -1;
  for (int i = 0; i < count_; ++i) {
    const size_t u = entries_[i].usable;
    // u / 2 <= bytes: no more than half of the block goes unused (and no
    // overflow, as bytes * 2 could). The newest fitting block: the one most
    // likely still in the caches.
    if (u >= bytes && u / 2 <= bytes && (best < 0 || entries_[i].age > entries_[best].age))
      best = i;
  }
  if (best < 0) return nullptr;
  void* block = entries_[best].block;
  bytes_ -= entries_[best].usable;
  entries_[best] = entries_[--count_];
  return block;
}

void CpuBlockCache::give(void* block, size_t usable) noexcept {
  if (block == nullptr) return;
  if (!enabled() || usable < kMinBytes || usable > kMaxBytes) {
    std::free(block);
    return;
  }
  // The evicted blocks are freed after the lock is released: free may
  // return pages to the system, which is slow.
  void* evicted[kEntries];
  int n_evicted = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    while (count_ == kEntries || bytes_ + usable > kMaxBytes) {
      int oldest = 0;
      for (int i = 1; i < count_; ++i) {
        if (entries_[i].age < entries_[oldest].age) oldest = i;
      }
      evicted[n_evicted++] = entries_[oldest].block;
      bytes_ -= entries_[oldest].usable;
      entries_[oldest] = entries_[--count_];
    }
    entries_[count_++] = Entry{block, usable, next_age_++};
    bytes_ += usable;
  }
  for (int i = 0; i < n_evicted; ++i) std::free(evicted[i]);
}

void CpuBlockCache::release() noexcept {
  Entry kept[kEntries];
  int n = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    n = count_;
    for (int i = 0; i < n; ++i) kept[i] = entries_[i];
    count_ = 0;
    bytes_ = 0;
  }
  for (int i = 0; i < n; ++i) std::free(kept[i].block);
}

size_t CpuBlockCache::kept_bytes() const noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

int CpuBlockCache::kept_blocks() const noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  return count_;
}

namespace {

alignas(CpuBlockCache) unsigned char g_storage[sizeof(CpuBlockCache)];
CpuBlockCache* g_cache = nullptr;  // set once, before the fork handlers

void lock_before_fork() { g_cache->lock_for_fork(); }
void unlock_after_fork() { g_cache->unlock_after_fork(); }

}  // namespace

CpuBlockCache& cpu_block_cache() noexcept {
  // Built in static storage and never destroyed (see the declaration).
  static CpuBlockCache* const cache = [] {
    g_cache = new (g_storage) CpuBlockCache();
    // Fails only without memory for the handler; the cache then works as
    // before, without the guarantee across fork().
    (void)pthread_atfork(&lock_before_fork, &unlock_after_fork, &unlock_after_fork);
    return g_cache;
  }();
  return *cache;
}

}  // namespace detail
}  // namespace st
