// The slot registry behind every C ABI handle (Note [Validated handles]):
// chunks, the process-wide free list, live counts by scanning, and the slow
// paths of the inline functions in handle_registry.h (Note [Inline handle
// fast paths]).
#include "handle_registry.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <vector>

namespace stc {
namespace detail {

__thread ThreadSlots* t_slots = nullptr;
std::atomic<uintptr_t> g_recent_chunk{kNoChunk};

}  // namespace detail

namespace {

using detail::is_live_kind;
using detail::kCache;
using detail::kChunkBytes;
using detail::ThreadSlots;

constexpr size_t kSlotsPerChunk = kChunkBytes / sizeof(Slot);
constexpr size_t kChunkTableSize = 8192;  // power of two; at most half full

size_t chunk_hash(uintptr_t base) noexcept {
  uint64_t x = static_cast<uint64_t>(base >> 18);
  x *= 0x9e3779b97f4a7c15ULL;
  return static_cast<size_t>(x >> 40) & (kChunkTableSize - 1);
}

// Process-wide state; leaked on purpose so that handles deleted from
// static destructors and thread exits after main still find it.
struct Global {
  std::array<std::atomic<uintptr_t>, kChunkTableSize> chunks{};
  std::mutex mutex;
  std::vector<Slot*> chunk_list;  // guarded by mutex; in allocation order
  Slot* free_list = nullptr;      // guarded by mutex; linked through the first payload word
  Slot* bump = nullptr;           // guarded by mutex; next never-used slot of the newest chunk
  Slot* bump_end = nullptr;

  bool owns_chunk(uintptr_t base) const noexcept {
    // Empty table entries hold 0, so address 0 (a made-up handle of only
    // generation bits) would match one.
    if (base == 0) return false;
    for (size_t i = chunk_hash(base), n = 0; n < kChunkTableSize;
         i = (i + 1) & (kChunkTableSize - 1), ++n) {
      const uintptr_t v = chunks[i].load(std::memory_order_acquire);
      if (v == base) {
        detail::g_recent_chunk.store(base, std::memory_order_relaxed);
        return true;
      }
      if (v == 0) return false;
    }
    return false;
  }

  // Precondition: mutex held.
  void add_chunk() {
    ST_CHECK(chunk_list.size() < kChunkTableSize / 2, "the C ABI handle registry is full (",
             chunk_list.size() * kSlotsPerChunk, " handles); handles are being leaked");
    chunk_list.reserve(chunk_list.size() + 1);  // before anything is published
    void* mem = std::aligned_alloc(kChunkBytes, kChunkBytes);
    if (mem == nullptr) throw std::bad_alloc();
    const uintptr_t base = reinterpret_cast<uintptr_t>(mem);
    if (((base + kChunkBytes - 1) & ~detail::kAddrMask) != 0) {
      // The top 16 bits of a handle hold its generation (Note [Validated
      // handles]); memory up there cannot hold slots.
      std::free(mem);
      ST_ERROR("the C ABI handle registry got memory at ", mem,
               ", above the 48-bit addresses handles can name");
    }
    std::memset(mem, 0, kChunkBytes);  // every slot starts Dead, generation 0
    size_t i = chunk_hash(base);
    while (chunks[i].load(std::memory_order_relaxed) != 0) i = (i + 1) & (kChunkTableSize - 1);
    chunks[i].store(base, std::memory_order_release);
    chunk_list.push_back(static_cast<Slot*>(mem));
    bump = static_cast<Slot*>(mem);
    bump_end = bump + kSlotsPerChunk;
  }

  // Precondition: mutex held.
  Slot* take() {
    if (free_list != nullptr) {
      Slot* s = free_list;
      std::memcpy(&free_list, s->payload, sizeof(Slot*));
      return s;
    }
    if (bump == bump_end) add_chunk();
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
    for (Slot* chunk : chunk_list) {
      const Slot* end = chunk == chunk_list.back() ? bump : chunk + kSlotsPerChunk;
      for (const Slot* s = chunk; s != end; ++s) {
        f(static_cast<uint32_t>(s->state.load(std::memory_order_relaxed)));
      }
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

Slot* live_slot_slow(const void* handle, HandleKind k) noexcept {
  const HandleInfo info = classify(handle);
  return info.cls == Classification::Live && info.kind == k ? info.slot : nullptr;
}

}  // namespace detail

HandleInfo classify(const void* handle) noexcept {
  if (handle == nullptr) return {Classification::Null, HandleKind::Dead, nullptr};
  const uintptr_t p = reinterpret_cast<uintptr_t>(handle);
  const uintptr_t addr = p & detail::kAddrMask;
  const uintptr_t base = addr & ~(uintptr_t{kChunkBytes} - 1);
  if ((addr - base) % sizeof(Slot) != 0 || !global().owns_chunk(base)) {
    return {Classification::Foreign, HandleKind::Dead, nullptr};
  }
  Slot* s = detail::slot_of(p);
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
  if ((p & ~detail::kAddrMask) != 0) return false;  // chunks are below 48 bits
  return global().owns_chunk(p & ~(uintptr_t{kChunkBytes} - 1));
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
