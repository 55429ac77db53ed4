#include <st/core/allocator.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>

#include <malloc.h>

#include <st/core/error.h>

#include "cpu_allocator_counters.h"
#include "cpu_block_cache.h"
#include "cpu_huge_pages.h"
#include "device/backend_module.h"

namespace st {

Allocator::~Allocator() = default;

namespace {

// Counters of the CPU allocator. Relaxed atomics: they are statistics, read
// after the allocating threads have synchronised with the reader.
struct CpuCounters {
  std::atomic<int64_t> bytes_in_use{0};
  std::atomic<int64_t> peak_bytes{0};
  std::atomic<int64_t> allocation_count{0};
  std::atomic<int64_t> live_allocations{0};
};

CpuCounters g_cpu_counters;

// CPU blocks come from malloc (its small-size fast path is several times
// cheaper than aligned_alloc) and are aligned by hand. A 16-byte header just
// below the aligned data records the malloc'd pointer and the requested
// size, so the deleter can free and update the counters without a table.
// Layout: [malloc'd block ... | base ptr | nbytes | data (64-aligned) ...]
struct BlockHeader {
  void* base;
  size_t nbytes;
};
static_assert(sizeof(BlockHeader) == 16, "header must be 16 bytes");

void cpu_delete(void* data) {
  if (data == nullptr) {
    return;
  }
  BlockHeader h;
  std::memcpy(&h, static_cast<char*>(data) - sizeof(BlockHeader), sizeof(h));
  detail::count_cpu_free(h.nbytes);
  if (h.nbytes >= detail::CpuBlockCache::kMinBytes) {
    detail::cpu_block_cache().give(h.base, malloc_usable_size(h.base));
  } else {
    std::free(h.base);
  }
}

class CpuAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes) override {
    if (nbytes == 0) {
      return DataPtr(nullptr, Device(DeviceType::CPU));
    }
    ST_CHECK(nbytes <= (SIZE_MAX >> 1) - sizeof(BlockHeader) - detail::kCpuHugePageBytes,
             "CPU allocator: cannot allocate ", nbytes, " bytes (size overflows)");
    // Large data starts on a 2 MiB boundary (Note [Huge pages for large CPU
    // blocks]). Room for the header plus the worst-case alignment shift.
    const size_t align = detail::cpu_data_alignment(nbytes, kCpuAlignment);
    const size_t total = nbytes + sizeof(BlockHeader) + align - 1;
    // A large block is first looked for among the recently freed ones
    // (Note [Large CPU blocks]).
    void* block =
        total >= detail::CpuBlockCache::kMinBytes ? detail::cpu_block_cache().take(total) : nullptr;
    const bool fresh = block == nullptr;
    if (fresh) block = std::malloc(total);
    ST_CHECK(block != nullptr,
             "CPU allocator: out of memory: tried to "
             "allocate ",
             nbytes, " bytes");
    const uintptr_t first = reinterpret_cast<uintptr_t>(block) + sizeof(BlockHeader);
    char* data = static_cast<char*>(block) +
                 (((first + align - 1) & ~(align - 1)) - reinterpret_cast<uintptr_t>(block));
    // A kept block was advised when it was new.
    if (fresh && align == detail::kCpuHugePageBytes) detail::advise_cpu_huge_pages(data, nbytes);
    const BlockHeader header{block, nbytes};
    std::memcpy(data - sizeof(BlockHeader), &header, sizeof(header));
    detail::count_cpu_allocation(nbytes);
    return DataPtr(data, data, &cpu_delete, Device(DeviceType::CPU));
  }

  void copy_data(void* dst, const void* src, size_t nbytes) const override {
    if (nbytes > 0) {
      std::memcpy(dst, src, nbytes);
    }
  }
};

CpuAllocator g_cpu_allocator;

}  // namespace

namespace detail {

bool is_builtin_cpu_allocator(const Allocator* allocator) noexcept {
  return allocator == &g_cpu_allocator;
}

void count_cpu_allocation(size_t nbytes) noexcept {
  const int64_t now = g_cpu_counters.bytes_in_use.fetch_add(static_cast<int64_t>(nbytes),
                                                            std::memory_order_relaxed) +
                      static_cast<int64_t>(nbytes);
  int64_t peak = g_cpu_counters.peak_bytes.load(std::memory_order_relaxed);
  while (now > peak &&
         !g_cpu_counters.peak_bytes.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  g_cpu_counters.allocation_count.fetch_add(1, std::memory_order_relaxed);
  g_cpu_counters.live_allocations.fetch_add(1, std::memory_order_relaxed);
}

void count_cpu_free(size_t nbytes) noexcept {
  g_cpu_counters.bytes_in_use.fetch_sub(static_cast<int64_t>(nbytes), std::memory_order_relaxed);
  g_cpu_counters.live_allocations.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace detail

namespace {

// Plain pointers in atomics: lookups are one load on the allocation path.
// Constant-initialised (no static-init order issue); CPU is filled lazily.
std::atomic<Allocator*> g_registry[torch::headeronly::COMPILE_TIME_MAX_DEVICE_TYPES] = {};

std::atomic<Allocator*>* registry() {
  static const bool init = [] {
    Allocator* expected = nullptr;
    g_registry[static_cast<size_t>(DeviceType::CPU)].compare_exchange_strong(expected,
                                                                             &g_cpu_allocator);
    return true;
  }();
  (void)init;
  return g_registry;
}

size_t slot_of(DeviceType type, const char* op) {
  const int i = static_cast<int>(type);
  ST_CHECK(i >= 0 && i < torch::headeronly::COMPILE_TIME_MAX_DEVICE_TYPES, op,
           ": invalid device type ordinal ", i);
  return static_cast<size_t>(i);
}

}  // namespace

void set_allocator(DeviceType type, Allocator* allocator) {
  const size_t i = slot_of(type, "set_allocator");
  ST_CHECK(allocator != nullptr, "set_allocator: expected an allocator for ", type, ", got null");
  // A backend module registers its allocator when loaded: load it first, so
  // that it cannot replace this one later (Note [Backend modules]).
  detail::load_backend_module(type);
  registry()[i].store(allocator, std::memory_order_release);
}

Allocator* try_get_allocator(DeviceType type) noexcept {
  const int i = static_cast<int>(type);
  if (i < 0 || i >= torch::headeronly::COMPILE_TIME_MAX_DEVICE_TYPES) {
    return nullptr;
  }
  std::atomic<Allocator*>& slot = registry()[static_cast<size_t>(i)];
  Allocator* a = slot.load(std::memory_order_acquire);
  if (__builtin_expect(a == nullptr, 0) && detail::load_backend_module(type)) {
    a = slot.load(std::memory_order_acquire);
  }
  return a;
}

Allocator* get_allocator(DeviceType type) {
  const size_t i = slot_of(type, "get_allocator");
  Allocator* a = registry()[i].load(std::memory_order_acquire);
  if (__builtin_expect(a == nullptr, 0)) {
    a = try_get_allocator(type);  // loads a backend module (set_allocator's note)
    const std::string why = a == nullptr ? detail::backend_module_error(type) : std::string();
    ST_CHECK(why.empty(), "get_allocator: ", why);
    ST_CHECK(a != nullptr, "get_allocator: no allocator registered for device type ", type);
  }
  return a;
}

Allocator* cpu_allocator() noexcept { return &g_cpu_allocator; }

AllocatorStats cpu_allocator_stats() noexcept {
  AllocatorStats s;
  s.bytes_in_use = g_cpu_counters.bytes_in_use.load(std::memory_order_relaxed);
  s.peak_bytes = g_cpu_counters.peak_bytes.load(std::memory_order_relaxed);
  s.allocation_count = g_cpu_counters.allocation_count.load(std::memory_order_relaxed);
  s.live_allocations = g_cpu_counters.live_allocations.load(std::memory_order_relaxed);
  return s;
}

void reset_cpu_allocator_peak() noexcept {
  g_cpu_counters.peak_bytes.store(g_cpu_counters.bytes_in_use.load(std::memory_order_relaxed),
                                  std::memory_order_relaxed);
}

}  // namespace st
