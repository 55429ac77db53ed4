// Validated handles: every opaque handle of the C ABI (tensor, list, string,
// scalar, library, device guard, stream) points at a slot owned by this
// registry, never at a bare C++ object.
//
// Note [Validated handles]
// Slots are 64 bytes, carved from 256 KiB chunks aligned to their size.
// Each slot starts with an atomic kind tag; the payload (st::Tensor,
// std::vector<StableIValue>, ...) lives in place after it. Resolving a
// handle therefore never dereferences memory this library does not own:
//   - null                                  -> "null <kind> handle";
//   - the chunk of the address is not ours  -> "foreign <kind> handle";
//   - not on a slot boundary                -> "foreign <kind> handle";
//   - tag Dead                              -> "already deleted";
//   - tag of another kind                   -> "a list handle, not a tensor handle".
// Slot memory is never returned to the system, so reading the tag of a
// deleted handle is always defined. Freed slots wait in a per-thread FIFO
// quarantine before reuse, so a use-after-delete is caught unless at least
// kQuarantine more handles were deleted by that thread in between (after
// that, as with any C handle, the address may name a new object).
// The lookup is lock-free (an append-only hash set of chunk addresses);
// allocation and free touch only the thread's cache in the steady state.
//
// Note [Inline handle fast paths]
// Every C ABI call resolves, creates or deletes handles, so the common case
// of each (a handle in the chunk seen last; a slot from or back to this
// thread's quarantine ring) is inline here and costs a dozen instructions;
// everything else (another chunk, the first use on a thread, a full or
// short ring, a thread whose state is gone) takes the out-of-line path in
// handle_registry.cpp. Both paths keep the same checks and counts.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

#include <st/core/error.h>

namespace stc {

enum class HandleKind : uint32_t {
  Dead = 0,
  Tensor = 0x5354a001,
  List,
  String,
  Scalar,
  Library,
  DeviceGuard,
  Stream,
  CudaGuard,
  CudaStreamGuard,
};
constexpr int kNumHandleKinds = 9;  // live kinds, Tensor..CudaStreamGuard

// "tensor", "list", ... ("deleted" for Dead).
const char* kind_name(HandleKind k) noexcept;

struct alignas(64) Slot {
  std::atomic<uint32_t> kind;
  uint32_t reserved;
  alignas(8) unsigned char payload[56];
};
static_assert(sizeof(Slot) == 64, "a handle slot is one cache line");

// What a pointer is, without trusting it.
enum class Classification { Null, Foreign, Dead, Live };
struct HandleInfo {
  Classification cls;
  HandleKind kind;  // valid when cls == Live
  Slot* slot;       // valid when cls == Dead or Live
};

namespace detail {

constexpr size_t kChunkBytes = size_t{1} << 18;  // 256 KiB, aligned to its size
constexpr unsigned kRing = 256;                   // per-thread cache capacity (power of two)
constexpr unsigned kQuarantine = 64;              // freed slots held back before reuse

inline int kind_index(HandleKind k) noexcept {
  return static_cast<int>(static_cast<uint32_t>(k) - static_cast<uint32_t>(HandleKind::Tensor));
}
inline bool is_live_kind(uint32_t tag) noexcept {
  return tag - static_cast<uint32_t>(HandleKind::Tensor) < static_cast<uint32_t>(kNumHandleKinds);
}

// Per-thread state (created on a thread's first allocation or free):
//  - a FIFO ring of freed slots: a slot is reused only after kQuarantine
//    later frees by this thread, which keeps use-after-delete detectable
//    meanwhile;
//  - this thread's created-minus-deleted counts per kind (a handle made on
//    one thread and deleted on another leaves +1 and -1; the sum is right).
//    Only the owning thread writes them (relaxed load + store, no RMW);
//    live_count reads them under the registry mutex.
struct ThreadSlots {
  std::array<Slot*, kRing> ring{};
  // Free-running positions (they wrap together): ring[out % kRing] is the
  // oldest slot, ring[in % kRing] the next free place.
  unsigned out = 0;
  unsigned in = 0;
  std::array<std::atomic<int64_t>, kNumHandleKinds> counts{};

  ThreadSlots();
  ~ThreadSlots();
  unsigned count() const noexcept { return in - out; }
  Slot* pop_oldest() noexcept { return ring[out++ & (kRing - 1)]; }
  void push(Slot* s) noexcept { ring[in++ & (kRing - 1)] = s; }
  void bump(HandleKind kind, int64_t delta) noexcept {
    std::atomic<int64_t>& c = counts[static_cast<size_t>(kind_index(kind))];
    c.store(c.load(std::memory_order_relaxed) + delta, std::memory_order_relaxed);
  }
};

// Note [Fast thread-local access]
// A shared library's thread_local costs a __tls_get_addr call per access
// (general-dynamic model), and an extern C++ thread_local a call to its
// init wrapper. The hot paths read one initial-exec __thread pointer
// instead (8 bytes of static TLS, which glibc reserves room for even when
// the library is dlopen'ed); the object itself is an ordinary thread_local
// whose destructor runs at thread exit (handle_registry.cpp). Null until
// the thread's first allocation or free, and again once its state is gone.
extern __thread ThreadSlots* t_slots __attribute__((tls_model("initial-exec")));

// The chunk most recently found by a lookup, checked first (the handles of
// one program phase mostly come from one chunk). 1 (never a chunk) at first.
extern std::atomic<uintptr_t> g_recent_chunk;

HandleInfo classify_slow(const void* handle) noexcept;
Slot* allocate_slot_slow(HandleKind kind);
void free_slot_slow(Slot* slot, HandleKind kind) noexcept;

}  // namespace detail

inline __attribute__((always_inline)) HandleInfo classify(const void* handle) noexcept {
  const uintptr_t p = reinterpret_cast<uintptr_t>(handle);
  const uintptr_t base = p & ~(uintptr_t{detail::kChunkBytes} - 1);
  // Chunks are aligned to their size, so a slot boundary is a multiple of
  // 64. Null has base 0, never a chunk: it takes the slow path.
  if (__builtin_expect(p % sizeof(Slot) == 0 &&
                           base == detail::g_recent_chunk.load(std::memory_order_relaxed),
                       1)) {
    Slot* s = reinterpret_cast<Slot*>(p);
    const uint32_t tag = s->kind.load(std::memory_order_acquire);
    if (__builtin_expect(detail::is_live_kind(tag), 1)) {
      return {Classification::Live, static_cast<HandleKind>(tag), s};
    }
    return {Classification::Dead, HandleKind::Dead, s};
  }
  return detail::classify_slow(handle);
}

// The slot of `handle` when it is a live handle of kind `k`, else null
// (null, foreign, deleted, or another kind): the common check in one
// compare of the tag.
inline __attribute__((always_inline)) Slot* live_slot(const void* handle, HandleKind k) noexcept {
  const uintptr_t p = reinterpret_cast<uintptr_t>(handle);
  const uintptr_t base = p & ~(uintptr_t{detail::kChunkBytes} - 1);
  if (__builtin_expect(p % sizeof(Slot) == 0 &&
                           base == detail::g_recent_chunk.load(std::memory_order_relaxed),
                       1)) {
    Slot* s = reinterpret_cast<Slot*>(p);
    return s->kind.load(std::memory_order_acquire) == static_cast<uint32_t>(k) ? s : nullptr;
  }
  const HandleInfo info = detail::classify_slow(handle);
  return info.cls == Classification::Live && info.kind == k ? info.slot : nullptr;
}

// A free slot (kind Dead, payload uninitialised) for a handle of `kind`
// (counted live from here). Throws st::Error when the registry is
// exhausted, std::bad_alloc when memory is.
inline __attribute__((always_inline)) Slot* allocate_slot(HandleKind kind) {
  detail::ThreadSlots* c = detail::t_slots;
  if (__builtin_expect(c != nullptr && c->count() > detail::kQuarantine, 1)) {
    c->bump(kind, 1);
    return c->pop_oldest();
  }
  return detail::allocate_slot_slow(kind);
}

// Returns a slot of `kind` whose payload has been destroyed (counted dead).
inline __attribute__((always_inline)) void free_slot(Slot* slot, HandleKind kind) noexcept {
  slot->kind.store(static_cast<uint32_t>(HandleKind::Dead), std::memory_order_release);
  detail::ThreadSlots* c = detail::t_slots;
  if (__builtin_expect(c != nullptr && c->count() < detail::kRing, 1)) {
    c->bump(kind, -1);
    c->push(slot);
    return;
  }
  detail::free_slot_slow(slot, kind);
}

// Live handles of one kind / of every kind.
int64_t live_count(HandleKind k) noexcept;
int64_t live_count_total() noexcept;

// Throws st::Error "<what>: null tensor handle", "... foreign ...",
// "... already deleted ...", "... a list handle, not a tensor handle".
// `what` names the argument ("aoti_torch_get_dim: tensor").
[[noreturn]] void throw_bad_handle(const void* handle, HandleKind expected,
                                   const HandleInfo& info, const char* what);
// The same, classifying `handle` itself (keeps the caller's fast path
// free of the HandleInfo it would otherwise have to spill).
[[noreturn]] void throw_bad_handle(const void* handle, HandleKind expected, const char* what);

// The live slot of `handle`, checked to be of kind `expected`.
inline Slot* resolve(const void* handle, HandleKind expected, const char* what) {
  Slot* s = live_slot(handle, expected);
  if (__builtin_expect(s == nullptr, 0)) throw_bad_handle(handle, expected, what);
  return s;
}

// Typed handles: HandleTraits<T>::kind ties a payload type to its kind.
template <typename T>
struct HandleTraits;

template <typename T>
T& payload(Slot* slot) noexcept {
  return *std::launder(reinterpret_cast<T*>(slot->payload));
}

// A new handle holding T(args...). Returns the slot.
template <typename T, typename... Args>
inline __attribute__((always_inline)) Slot* make_handle(Args&&... args) {
  static_assert(sizeof(T) <= sizeof(Slot::payload), "payload too large for a slot");
  static_assert(alignof(T) <= 8, "payload over-aligned for a slot");
  Slot* s = allocate_slot(HandleTraits<T>::kind);
  try {
    new (s->payload) T(std::forward<Args>(args)...);
  } catch (...) {
    free_slot(s, HandleTraits<T>::kind);
    throw;
  }
  s->kind.store(static_cast<uint32_t>(HandleTraits<T>::kind), std::memory_order_release);
  return s;
}

// The payload behind a handle of kind HandleTraits<T>::kind.
template <typename T>
T& get(const void* handle, const char* what) {
  return payload<T>(resolve(handle, HandleTraits<T>::kind, what));
}

// Deletes the handle: checks it, destroys the payload, marks the slot
// Dead and frees it. Deleting a handle races with every other use of it
// (macros.h), so no read-modify-write is needed here.
template <typename T>
inline __attribute__((always_inline)) void destroy(const void* handle, const char* what) {
  Slot* s = resolve(handle, HandleTraits<T>::kind, what);
  payload<T>(s).~T();
  free_slot(s, HandleTraits<T>::kind);
}

// Destroys a handle if it is a live handle of kind T; otherwise does
// nothing. For releasing stack contents on error paths. Never throws.
template <typename T>
void destroy_if_live(const void* handle) noexcept {
  Slot* s = live_slot(handle, HandleTraits<T>::kind);
  if (s == nullptr) return;
  payload<T>(s).~T();
  free_slot(s, HandleTraits<T>::kind);
}

// Handle <-> slot. Handles are slot addresses.
template <typename H>
H to_handle(Slot* s) noexcept {
  return reinterpret_cast<H>(s);
}

}  // namespace stc
