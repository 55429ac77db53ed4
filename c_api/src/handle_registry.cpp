// The slot registry behind every C ABI handle (Note [Validated handles]):
// chunks, the process-wide free list, live counts, and the slow paths of
// the inline functions in handle_registry.h (Note [Inline handle fast paths]).
#include "handle_registry.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <vector>

namespace stc {
namespace detail {

__thread ThreadSlots* t_slots __attribute__((tls_model("initial-exec"))) = nullptr;
std::atomic<uintptr_t> g_recent_chunk{1};

}  // namespace detail

namespace {

using detail::is_live_kind;
using detail::kChunkBytes;
using detail::kind_index;
using detail::kQuarantine;
using detail::kRing;
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
  size_t num_chunks = 0;  // guarded by mutex
  std::mutex mutex;
  Slot* free_list = nullptr;  // linked through the first payload word
  Slot* bump = nullptr;       // next never-used slot of the newest chunk
  Slot* bump_end = nullptr;
  // Live-handle counts of threads that have exited; running threads keep
  // their own (see ThreadSlots) and are listed in `threads`.
  std::array<std::atomic<int64_t>, kNumHandleKinds> retired_counts{};
  std::vector<ThreadSlots*> threads;  // guarded by mutex

  bool owns_chunk(uintptr_t base) const noexcept {
    for (size_t i = chunk_hash(base), n = 0; n < kChunkTableSize; i = (i + 1) & (kChunkTableSize - 1), ++n) {
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
    ST_CHECK(num_chunks < kChunkTableSize / 2, "the C ABI handle registry is full (",
             num_chunks * kSlotsPerChunk, " handles); handles are being leaked");
    void* mem = std::aligned_alloc(kChunkBytes, kChunkBytes);
    if (mem == nullptr) throw std::bad_alloc();
    std::memset(mem, 0, kChunkBytes);  // every tag starts Dead
    const uintptr_t base = reinterpret_cast<uintptr_t>(mem);
    size_t i = chunk_hash(base);
    while (chunks[i].load(std::memory_order_relaxed) != 0) i = (i + 1) & (kChunkTableSize - 1);
    chunks[i].store(base, std::memory_order_release);
    ++num_chunks;
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

ThreadSlots::ThreadSlots() {
  Global& g = global();
  std::lock_guard<std::mutex> lock(g.mutex);
  g.threads.push_back(this);
}

ThreadSlots::~ThreadSlots() {
  t_slots = nullptr;
  t_slots_gone = true;
  Global& g = global();
  std::lock_guard<std::mutex> lock(g.mutex);
  while (count() > 0) g.give(pop_oldest());
  for (int k = 0; k < kNumHandleKinds; ++k) {
    g.retired_counts[k].fetch_add(counts[k].load(std::memory_order_relaxed),
                                  std::memory_order_relaxed);
  }
  for (size_t i = 0; i < g.threads.size(); ++i) {
    if (g.threads[i] == this) {
      g.threads[i] = g.threads.back();
      g.threads.pop_back();
      break;
    }
  }
}

HandleInfo classify_slow(const void* handle) noexcept {
  if (handle == nullptr) return {Classification::Null, HandleKind::Dead, nullptr};
  const uintptr_t p = reinterpret_cast<uintptr_t>(handle);
  const uintptr_t base = p & ~(uintptr_t{kChunkBytes} - 1);
  if ((p - base) % sizeof(Slot) != 0 || !global().owns_chunk(base)) {
    return {Classification::Foreign, HandleKind::Dead, nullptr};
  }
  Slot* s = reinterpret_cast<Slot*>(p);
  const uint32_t tag = s->kind.load(std::memory_order_acquire);
  if (!is_live_kind(tag)) return {Classification::Dead, HandleKind::Dead, s};
  return {Classification::Live, static_cast<HandleKind>(tag), s};
}

Slot* allocate_slot_slow(HandleKind kind) {
  ThreadSlots* c = thread_slots();
  Global& g = global();
  if (c == nullptr) {
    std::lock_guard<std::mutex> lock(g.mutex);
    Slot* s = g.take();
    g.retired_counts[kind_index(kind)].fetch_add(1, std::memory_order_relaxed);
    return s;
  }
  // The ring is within its quarantine (or was just made): a slot from the
  // process-wide pool.
  std::lock_guard<std::mutex> lock(g.mutex);
  Slot* s = g.take();
  c->bump(kind, 1);
  return s;
}

void free_slot_slow(Slot* slot, HandleKind kind) noexcept {
  // The tag is already Dead (free_slot).
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
    g.retired_counts[kind_index(kind)].fetch_sub(1, std::memory_order_relaxed);
    return;
  }
  c->bump(kind, -1);
  if (c->count() == kRing) {
    std::lock_guard<std::mutex> lock(g.mutex);
    for (unsigned i = 0; i < kRing / 2; ++i) g.give(c->pop_oldest());
  }
  c->push(slot);
}

}  // namespace detail

const char* kind_name(HandleKind k) noexcept {
  switch (k) {
    case HandleKind::Dead: return "deleted";
    case HandleKind::Tensor: return "tensor";
    case HandleKind::List: return "list";
    case HandleKind::String: return "string";
    case HandleKind::Scalar: return "scalar";
    case HandleKind::Library: return "library";
    case HandleKind::DeviceGuard: return "device guard";
    case HandleKind::Stream: return "stream";
    case HandleKind::CudaGuard: return "CUDA guard";
    case HandleKind::CudaStreamGuard: return "CUDA stream guard";
  }
  return "unknown";
}

int64_t live_count(HandleKind k) noexcept {
  Global& g = global();
  std::lock_guard<std::mutex> lock(g.mutex);
  int64_t n = g.retired_counts[kind_index(k)].load(std::memory_order_relaxed);
  for (const ThreadSlots* t : g.threads) n += t->counts[kind_index(k)].load(std::memory_order_relaxed);
  return n;
}

int64_t live_count_total() noexcept {
  int64_t n = 0;
  for (int k = 0; k < kNumHandleKinds; ++k) {
    n += live_count(static_cast<HandleKind>(static_cast<uint32_t>(HandleKind::Tensor) + k));
  }
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
