// A few recently freed large CPU blocks, kept for the next allocation of a
// similar size (Note [Large CPU blocks]).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>

namespace st {
namespace detail {

// Note [Large CPU blocks]
// ~~~~~~~~~~~~~~~~~~~~~~~
// glibc's malloc serves a large block from fresh pages: it maps it (above
// its mmap threshold, which starts at 128 KiB and rises with the mapped
// blocks freed) or grows its heap, and gives the pages back when the
// heap's free top passes its trim threshold (twice the mmap threshold).
// Which happens depends on what the process freed before, so a loop that
// keeps two 4 MiB results alive at a time (a foreach op over two 1M-float
// tensors) can take a page fault per 4 KiB written on every call: 7.8 ms
// per call instead of 1.6 in a fresh process on the Zen 4 (PyTorch's
// process, on the same malloc, ran it at 1.7).
//
// The CPU allocator keeps up to kEntries freed blocks of at least kMinBytes
// (kMaxBytes in all) and hands one back for a request it fits without
// wasting more than half of it, the newest first: the one most likely
// still in the caches (handing out the smallest instead cycled a repeated
// 1M-element result through every kept block of its size, 1.2-2.6x the
// time of malloc's reuse). The oldest goes back to malloc first. The pages
// stay mapped and written, so reuse costs no fault. Under AddressSanitizer
// nothing is kept (a reused block would hide a use after free).
class CpuBlockCache {
 public:
  static constexpr size_t kMinBytes = size_t{1} << 20;
  static constexpr size_t kMaxBytes = size_t{64} << 20;
  static constexpr int kEntries = 8;

  // A kept block of at least `bytes` usable bytes and at most twice that
  // (the newest such), now the caller's; null when none fits or `bytes` is
  // below kMinBytes. Thread-safe.
  void* take(size_t bytes) noexcept;

  // Takes ownership of `block`, a block from malloc with `usable` usable
  // bytes: keeps it, or frees it when it is below kMinBytes, over kMaxBytes,
  // or caching is off. Keeping it may free the oldest kept blocks. Null is
  // ignored. Thread-safe.
  void give(void* block, size_t usable) noexcept;

  // Frees every kept block. Thread-safe.
  void release() noexcept;

  // Bytes and blocks kept now. Thread-safe.
  size_t kept_bytes() const noexcept;
  int kept_blocks() const noexcept;

  // Whether blocks are kept at all in this build (not under AddressSanitizer).
  static constexpr bool enabled() noexcept;

  // The fork handlers of cpu_block_cache(): the forking thread holds the
  // lock across fork(), so the child never starts with it held by a thread
  // it does not have, nor with the entries half updated.
  void lock_for_fork() noexcept { mutex_.lock(); }
  void unlock_after_fork() noexcept { mutex_.unlock(); }

 private:
  struct Entry {
    void* block;
    size_t usable;
    uint64_t age;  // order of arrival: the smallest is the oldest
  };
  mutable std::mutex mutex_;
  Entry entries_[kEntries] = {};
  int count_ = 0;
  size_t bytes_ = 0;
  uint64_t next_age_ = 0;
};

#if defined(__SANITIZE_ADDRESS__)
#define ST_CPU_BLOCK_CACHE_ENABLED 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ST_CPU_BLOCK_CACHE_ENABLED 0
#endif
#endif
#ifndef ST_CPU_BLOCK_CACHE_ENABLED
#define ST_CPU_BLOCK_CACHE_ENABLED 1
#endif

constexpr bool CpuBlockCache::enabled() noexcept { return ST_CPU_BLOCK_CACHE_ENABLED != 0; }

// The CPU allocator's cache: never destroyed, so a tensor freed by another
// static destructor still finds it, and safe across fork() (a child of a
// process whose other threads were freeing large tensors can allocate).
CpuBlockCache& cpu_block_cache() noexcept;

}  // namespace detail
}  // namespace st
