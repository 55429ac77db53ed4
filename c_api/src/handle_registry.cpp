// The slot registry behind every C ABI handle (Note [Validated handles]):
// the slot range, the process-wide free list, live counts by scanning,
// and the slow paths of the inline functions in handle_registry.h (Note
// [Inline handle fast paths]).
#include "handle_registry.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <sstream>

// LeakSanitizer's call for memory it should scan besides heap blocks:
// defined when a sanitizer runtime with LeakSanitizer is in the process
// (ASan's or LSan's, whether or not this library was built for it; GCC
// says so with __SANITIZE_ADDRESS__, Clang 14 has no such macro), null
// otherwise.
extern "C" void __lsan_register_root_region(const void* p, size_t size) __attribute__((weak));

namespace stc {
namespace detail {

__thread ThreadSlots* t_slots = nullptr;
SlotRange g_slot_range;

}  // namespace detail

namespace {

using detail::g_slot_range;
using detail::is_live_kind;
using detail::kCache;
using detail::kChunkBytes;
using detail::kRangeBytes;
using detail::ThreadSlots;

constexpr size_t kSlotsPerChunk = kChunkBytes / sizeof(Slot);
constexpr size_t kMinRangeBytes = 64 * kChunkBytes;  // 16 MiB: 262,144 handles

// Process-wide state; leaked on purpose so that handles deleted from
// static destructors and thread exits after main still find it.
struct Global {
  std::mutex mutex;
  Slot* free_list = nullptr;  // guarded by mutex; linked through the first payload word
  Slot* bump = nullptr;       // guarded by mutex; next never-used slot
  Slot* bump_end = nullptr;   // guarded by mutex; end of the usable range
  size_t range_bytes = 0;     // guarded by mutex; the reserved range's size

  // Makes the next kChunkBytes of the range usable, reserving the range
  // first. Fresh pages read as zero: every slot starts Dead, generation 0.
  // Precondition: mutex held.
  void grow() {
    uintptr_t base = g_slot_range.base.load(std::memory_order_relaxed);
    if (base == 0) {
      // Address space only: no memory is committed until a chunk is made
      // usable, and then only as its pages are touched. A process whose
      // address space is capped (RLIMIT_AS) gets the largest range that
      // fits, down to kMinRangeBytes: fewer handles rather than none.
      size_t bytes = kRangeBytes;
      void* mem = MAP_FAILED;
      int error = 0;
      for (; bytes >= kMinRangeBytes; bytes /= 2) {
        mem = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (mem != MAP_FAILED) break;
        error = errno;
      }
      if (mem == MAP_FAILED) {
        ST_ERROR("the C ABI handle registry could not reserve ", kMinRangeBytes >> 20,
                 " MiB of address space for handles: ", std::strerror(error));
      }
      base = reinterpret_cast<uintptr_t>(mem);
      if (((base + bytes - 1) & ~detail::kAddrMask) != 0) {
        // The top 16 bits of a handle hold its generation (Note [Validated
        // handles]); memory up there cannot hold slots.
        munmap(mem, bytes);
        ST_ERROR("the C ABI handle registry got address space at ", mem,
                 ", above the 48-bit addresses handles can name");
      }
      // LeakSanitizer scans heap blocks, not mappings of our own: without
      // this, what only a live handle holds would be reported as leaked.
      // It scans the readable part of the range.
      if (__lsan_register_root_region != nullptr) __lsan_register_root_region(mem, bytes);
      range_bytes = bytes;
      g_slot_range.base.store(base, std::memory_order_relaxed);
      bump = bump_end = reinterpret_cast<Slot*>(base);
    }
    const uintptr_t used = reinterpret_cast<uintptr_t>(bump_end) - base;
    ST_CHECK(used < range_bytes, "the C ABI handle registry is full (", used / sizeof(Slot),
             " handles); handles are being leaked");
    if (mprotect(bump_end, kChunkBytes, PROT_READ | PROT_WRITE) != 0) throw std::bad_alloc();
    bump_end += kSlotsPerChunk;
    // Release: a thread that sees the new count sees the base (and the
    // pages' permissions, which the kernel made before mprotect returned).
    g_slot_range.usable_slots.store((used + kChunkBytes) / sizeof(Slot), std::memory_order_release);
  }

  // Precondition: mutex held.
  Slot* take() {
    if (free_list != nullptr) {
      Slot* s = free_list;
      std::memcpy(&free_list, s->payload, sizeof(Slot*));
      return s;
    }
    if (bump == bump_end) grow();
    return bump++;
  }

  // Precondition: mutex held.
  void give(Slot* s) noexcept {
    std::memcpy(s->payload, &free_list, sizeof(Slot*));
    free_list = s;
  }

  // Calls f(tag) for every slot ever handed out. Precondition: mutex held.
  template <typename F>
  void scan(F&& f) const noexcept {
    const Slot* first =
        reinterpret_cast<const Slot*>(g_slot_range.base.load(std::memory_order_relaxed));
    for (const Slot* s = first; s != bump; ++s) {
      f(static_cast<uint32_t>(s->state.load(std::memory_order_relaxed)));
    }
  }
};

Global* make_global() { return new Global(); }
Global* const g_global = make_global();  // at load time, before any handle exists

inline __attribute__((always_inline)) Global& global() noexcept { return *g_global; }

// Set once this thread's ThreadSlots is destroyed (thread or process exit):
// handles made or deleted later, e.g. by static destructors, take the
// global path.
thread_local bool t_slots_gone = false;

// Null after this thread's state is gone.
ThreadSlots* thread_slots() {
  if (detail::t_slots != nullptr) return detail::t_slots;
  if (t_slots_gone) return nullptr;
  thread_local ThreadSlots t;
  detail::t_slots = &t;
  return &t;
}

}  // namespace

namespace detail {

ThreadSlots::~ThreadSlots() {
  t_slots = nullptr;
  t_slots_gone = true;
  Global& g = global();
  std::lock_guard<std::mutex> lock(g.mutex);
  while (n > 0) g.give(slots[--n]);
}

}  // namespace detail

HandleInfo classify(const void* handle) noexcept {
  if (handle == nullptr) return {Classification::Null, HandleKind::Dead, nullptr};
  const uintptr_t p = reinterpret_cast<uintptr_t>(handle);
  Slot* s = detail::slot_in_range(p);
  if (s == nullptr) return {Classification::Foreign, HandleKind::Dead, nullptr};
  const uint64_t st = s->state.load(std::memory_order_acquire);
  const uint32_t tag = static_cast<uint32_t>(st);
  if (((st ^ p) & detail::kGenMask) != 0 || !is_live_kind(tag)) {
    return {Classification::Dead, HandleKind::Dead, s};
  }
  return {Classification::Live, static_cast<HandleKind>(tag), s};
}

namespace detail {

Slot* allocate_slot_slow() {
  ThreadSlots* c = thread_slots();
  Global& g = global();
  std::lock_guard<std::mutex> lock(g.mutex);
  if (c != nullptr) {
    // The cache is empty: refill half of it under this one lock. A failure
    // part way keeps what was taken (all of it free).
    while (c->n < kCache / 2) c->slots[c->n++] = g.take();
  }
  return g.take();
}

void free_slot_slow(Slot* slot) noexcept {
  ThreadSlots* c = nullptr;
  try {
    c = thread_slots();
  } catch (...) {
    // The thread's state could not be made (out of memory): use the
    // global path.
  }
  Global& g = global();
  if (c == nullptr) {
    std::lock_guard<std::mutex> lock(g.mutex);
    g.give(slot);
    return;
  }
  if (c->n == kCache) {
    std::lock_guard<std::mutex> lock(g.mutex);
    while (c->n > kCache / 2) g.give(c->slots[--c->n]);
  }
  c->slots[c->n++] = slot;
}

}  // namespace detail

const char* kind_name(HandleKind k) noexcept {
  switch (k) {
    case HandleKind::Dead:
      return "deleted";
    case HandleKind::Tensor:
      return "tensor";
    case HandleKind::List:
      return "list";
    case HandleKind::String:
      return "string";
    case HandleKind::Scalar:
      return "scalar";
    case HandleKind::Library:
      return "library";
    case HandleKind::DeviceGuard:
      return "device guard";
    case HandleKind::Stream:
      return "stream";
    case HandleKind::CudaGuard:
      return "CUDA guard";
    case HandleKind::CudaStreamGuard:
      return "CUDA stream guard";
    case HandleKind::Generator:
      return "generator";
  }
  return "unknown";
}

bool in_handle_memory(const void* address) noexcept {
  const uintptr_t p = reinterpret_cast<uintptr_t>(address);
  const uintptr_t slots = g_slot_range.usable_slots.load(std::memory_order_acquire);
  return p - g_slot_range.base.load(std::memory_order_relaxed) < slots * sizeof(Slot);
}

int64_t live_count(HandleKind k) noexcept {
  Global& g = global();
  std::lock_guard<std::mutex> lock(g.mutex);
  int64_t n = 0;
  g.scan([&](uint32_t tag) { n += tag == static_cast<uint32_t>(k); });
  return n;
}

int64_t live_count_total() noexcept {
  Global& g = global();
  std::lock_guard<std::mutex> lock(g.mutex);
  int64_t n = 0;
  g.scan([&](uint32_t tag) { n += is_live_kind(tag); });
  return n;
}

void throw_bad_handle(const void* handle, HandleKind expected, const char* what) {
  throw_bad_handle(handle, expected, classify(handle), what);
}

void throw_bad_handle(const void* handle, HandleKind expected, const HandleInfo& info,
                      const char* what) {
  std::ostringstream os;
  os << what << ": ";
  switch (info.cls) {
    case Classification::Null:
      os << "null " << kind_name(expected) << " handle";
      break;
    case Classification::Foreign:
      os << "foreign " << kind_name(expected) << " handle " << handle
         << " (not a handle made by this library)";
      break;
    case Classification::Dead:
      os << kind_name(expected) << " handle " << handle << " was already deleted";
      break;
    case Classification::Live:
      os << "expected a " << kind_name(expected) << " handle but got a " << kind_name(info.kind)
         << " handle " << handle;
      break;
  }
  throw st::Error(os.str());
}

}  // namespace stc
