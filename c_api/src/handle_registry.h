// Validated handles: every opaque handle of the C ABI (tensor, list, string,
// scalar, library, device guard, stream, generator) names a slot owned by this
// registry, never a bare C++ object.
//
// Note [Validated handles]
// Slots are 64 bytes, in one range of address space reserved for them at
// the first handle (the registry's capacity: 1 GiB, or the most a capped
// address space allows, down to 16 MiB) and made usable 256 KiB at a
// time, in order. Each slot starts with an atomic state word: the kind
// tag in the low 32 bits (0 = Dead) and the slot's generation in the top
// 16. The payload (st::Tensor, std::vector<StableIValue>, ...)
// lives in place after it. A handle is the slot's address with the
// generation it was made at in its top 16 bits (user-space addresses fit
// in 48 bits; a range above that is refused), so one compare of the
// state word with (handle's generation | expected kind) checks liveness,
// generation and kind at once. Resolving a handle never dereferences
// memory this library does not own:
//   - null                                  -> "null <kind> handle";
//   - outside the usable part of the range  -> "foreign <kind> handle";
//   - not on a slot boundary                -> "foreign <kind> handle";
//   - tag Dead, or another generation       -> "already deleted";
//   - tag of another kind                   -> "a list handle, not a tensor handle".
// Slot memory is never returned to the system, so reading the state of a
// deleted handle is always defined. One range rather than chunks anywhere
// in the heap makes "is this ours" a subtraction and a compare with two
// words that change only when the range grows: the same cost for every
// handle, however many a program holds, and no shared word that threads
// write as they use handles.
//
// Note [Handle generations]
// Deleting a handle advances its slot's generation (and marks it Dead), so
// the deleted handle, and every older one of that slot, no longer matches,
// whether or not the slot has been reused since. That lets a freed slot be
// reused at once (a per-thread LIFO cache; call_dispatcher even builds a
// return in the slot of the argument it just took) while use-after-delete
// stays detectable: a stale handle can only alias a new one after its slot
// has been reused 65,536 times (the generation wraps).
//
// Note [Counting live handles by scanning]
// Live handles are counted by scanning the slots (live_count), not by
// counters updated on every allocation and free: the count is needed by
// leak checks, the allocation on every C ABI call. A handle counts from
// the moment its state is published live until it is marked Dead; while
// no other thread is inside a C ABI call the count is exact.
//
// Note [Leaf fast paths]
// The two exported functions an extension calls around every dispatcher
// call, aoti_torch_new_tensor_handle and aoti_torch_delete_tensor_object,
// first try a path built from live_slot / allocate_slot_fast /
// destroy_if_live, which throw nothing, so the compiler gives them no
// exception bookkeeping; anything else (an empty cache, any error) goes
// to the full function, which checks and reports.
//
// Note [Inline handle fast paths]
// Every C ABI call resolves, creates or deletes handles, so the common case
// of each (checking a handle; a slot from or back to this thread's cache)
// is inline here and costs a handful of instructions; everything else (the
// first use on a thread, an empty or full cache, a thread whose state is
// gone, describing a bad handle) is out of line in handle_registry.cpp.
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
  Generator,
};
constexpr int kNumHandleKinds = 10;  // live kinds, Tensor..Generator

// "tensor", "list", ... ("deleted" for Dead).
const char* kind_name(HandleKind k) noexcept;

// The state word: kind tag (low 32 bits) | generation << kGenShift.
struct alignas(64) Slot {
  std::atomic<uint64_t> state;
  alignas(8) unsigned char payload[56];
};
static_assert(sizeof(Slot) == 64, "a handle slot is one cache line");
static_assert(sizeof(void*) == 8,
              "handles carry a generation in the top 16 bits of a 64-bit pointer");

// What a pointer is, without trusting it.
enum class Classification { Null, Foreign, Dead, Live };
struct HandleInfo {
  Classification cls;
  HandleKind kind;  // valid when cls == Live
  Slot* slot;       // valid when cls == Dead or Live
};

namespace detail {

constexpr unsigned kGenShift = 48;
constexpr uintptr_t kAddrMask = (uintptr_t{1} << kGenShift) - 1;  // the slot address
constexpr uint64_t kGenMask = ~uint64_t{kAddrMask};               // the generation
constexpr uint64_t kGenOne = uint64_t{1} << kGenShift;
constexpr size_t kChunkBytes = size_t{1} << 18;  // the range grows by 256 KiB
constexpr size_t kRangeBytes = size_t{1} << 30;  // 1 GiB: 16,777,216 handles (at most)
constexpr unsigned kSlotShift = 6;
static_assert(sizeof(Slot) == size_t{1} << kSlotShift, "kSlotShift is log2 of the slot size");
constexpr unsigned kCache = 256;  // per-thread cache capacity

// Where the slots are: [base, base + usable_slots * sizeof(Slot)). Both
// are 0 until the first handle; base is set once, before usable_slots
// first grows (release), so a reader that loads usable_slots first
// (acquire) sees the base that goes with it. Written under the registry's
// lock; read everywhere without one.
struct alignas(64) SlotRange {
  std::atomic<uintptr_t> usable_slots{0};
  std::atomic<uintptr_t> base{0};
};
extern SlotRange g_slot_range;

// The slot `p` names (its top 16 bits, the generation, dropped) when that
// address is a slot boundary in the usable range, else null. Never
// dereferences anything.
inline __attribute__((always_inline)) Slot* slot_in_range(uintptr_t p) noexcept {
  const uintptr_t slots = g_slot_range.usable_slots.load(std::memory_order_acquire);
  const uintptr_t offset = (p & kAddrMask) - g_slot_range.base.load(std::memory_order_relaxed);
  // Rotated right by kSlotShift, the offset is the slot index, and an
  // offset off a slot boundary (low bits set) becomes larger than any.
  const uintptr_t index = (offset >> kSlotShift) | (offset << (64 - kSlotShift));
  if (index >= slots) return nullptr;
  // The range never starts at address 0: tells the compiler that callers
  // need not test the slot for null again.
  const uintptr_t addr = p & kAddrMask;
  if (addr == 0) __builtin_unreachable();
  return reinterpret_cast<Slot*>(addr);
}

inline bool is_live_kind(uint32_t tag) noexcept {
  return tag - static_cast<uint32_t>(HandleKind::Tensor) < static_cast<uint32_t>(kNumHandleKinds);
}

// Per-thread cache of free slots (created on a thread's first allocation
// or free), used last-in first-out: the slot just freed is the warmest one.
// Stale handles stay detectable through generations (Note [Handle
// generations]), so nothing has to wait before reuse.
struct ThreadSlots {
  unsigned n = 0;
  std::array<Slot*, kCache> slots;

  ~ThreadSlots();
};

// Note [Fast thread-local access]
// The runtime must load with dlopen into any process (a Python module, a
// plugin host that loads it late), so it uses no initial-exec TLS: that
// model needs room in the static TLS block, which glibc sizes at start-up
// for the libraries linked then, and a dlopen'ed library with more than a
// few hundred bytes of it fails to load ("cannot allocate memory in static
// TLS block"). The dynamic models cost a call per access: __tls_get_addr
// in the traditional dialect, or a TLS descriptor call that returns an
// offset (-mtls-dialect=gnu2, used where the compiler has it,
// cmake/StableTorchOptions.cmake). An extern C++ thread_local would add a
// call to its init wrapper, so the hot paths read one plain __thread
// pointer; the object it points to is an ordinary thread_local whose
// destructor runs at thread exit (handle_registry.cpp). Null until the
// thread's first allocation or free, and again once its state is gone.
extern __thread ThreadSlots* t_slots;

Slot* allocate_slot_slow();
void free_slot_slow(Slot* slot) noexcept;

inline Slot* slot_of(uintptr_t bits) noexcept { return reinterpret_cast<Slot*>(bits & kAddrMask); }

}  // namespace detail

// A handle's bits: its slot's address with the generation it was made at.
struct Handle {
  uintptr_t bits;
  Slot* slot() const noexcept { return detail::slot_of(bits); }
};

// What `handle` is (null, foreign, deleted, live and of which kind), for
// error messages and for releasing values whose kind is not known in
// advance. Checking a handle of a known kind is live_slot's job.
HandleInfo classify(const void* handle) noexcept;

// The slot of `handle` when it is a live handle of kind `k`, else null
// (null, foreign, deleted, or another kind): the one liveness check, the
// range check and one compare of the state word. Makes no call, so a
// function whose fast path uses only this needs no frame.
inline __attribute__((always_inline)) Slot* live_slot(const void* handle, HandleKind k) noexcept {
  const uintptr_t p = reinterpret_cast<uintptr_t>(handle);
  Slot* s = detail::slot_in_range(p);
  if (s == nullptr) return nullptr;
  // p ^ its address bits: the generation.
  const uint64_t want = (p ^ reinterpret_cast<uintptr_t>(s)) | static_cast<uint32_t>(k);
  return s->state.load(std::memory_order_acquire) == want ? s : nullptr;
}

// allocate_slot without the slow path: null when this thread's cache is
// empty or not made yet. Makes no call.
inline __attribute__((always_inline)) Slot* allocate_slot_fast() noexcept {
  detail::ThreadSlots* c = detail::t_slots;
  if (__builtin_expect(c == nullptr || c->n == 0, 0)) return nullptr;
  Slot* s = c->slots[--c->n];
  // The cache holds slots only; telling the compiler so lets a caller's
  // null test (allocate_slot's) fold into the cache test above.
  if (s == nullptr) __builtin_unreachable();
  return s;
}

// A free slot: state Dead, holding the generation its next handle gets;
// payload uninitialised. Throws st::Error when the registry is exhausted,
// std::bad_alloc when memory is.
inline __attribute__((always_inline)) Slot* allocate_slot() {
  if (Slot* s = allocate_slot_fast(); __builtin_expect(s != nullptr, 1)) return s;
  return detail::allocate_slot_slow();
}

// Ends the life of the handle `bits` (its payload already destroyed): marks
// the slot Dead and advances its generation, so that this handle and every
// older one of the slot read as deleted from now on (Note [Handle
// generations]). The slot is then free to be published again or freed.
inline __attribute__((always_inline)) void retire(Slot* slot, uintptr_t bits) noexcept {
  // bits ^ slot address: the handle's generation (one xor, no 64-bit mask).
  const uint64_t gen = bits ^ reinterpret_cast<uintptr_t>(slot);
  slot->state.store(gen + detail::kGenOne, std::memory_order_release);
}

// Gives back a retired (or never published) slot.
inline __attribute__((always_inline)) void free_slot(Slot* slot) noexcept {
  detail::ThreadSlots* c = detail::t_slots;
  if (__builtin_expect(c != nullptr && c->n < detail::kCache, 1)) {
    c->slots[c->n++] = slot;
    return;
  }
  detail::free_slot_slow(slot);
}

// Makes a slot whose payload has just been built a live handle of `kind`.
inline __attribute__((always_inline)) Handle publish(Slot* slot, HandleKind kind) noexcept {
  // A free slot's state is its next generation with a zero kind; this
  // thread owns the slot, so nobody else writes it meanwhile.
  const uint64_t gen = slot->state.load(std::memory_order_relaxed);
  slot->state.store(gen | static_cast<uint32_t>(kind), std::memory_order_release);
  return Handle{reinterpret_cast<uintptr_t>(slot) | gen};
}

// True when `address` (a plain address, no generation bits) lies in the
// usable range of handle slots, on a slot or not. Never dereferences it.
bool in_handle_memory(const void* address) noexcept;

// Live handles of one kind / of every kind (Note [Counting live handles by
// scanning]).
int64_t live_count(HandleKind k) noexcept;
int64_t live_count_total() noexcept;

// Throws st::Error "<what>: null tensor handle", "... foreign ...",
// "... already deleted ...", "... a list handle, not a tensor handle".
// `what` names the argument ("aoti_torch_get_dim: tensor").
[[noreturn]] void throw_bad_handle(const void* handle, HandleKind expected, const HandleInfo& info,
                                   const char* what);
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
template <typename T>
T& payload(Handle h) noexcept {
  return payload<T>(h.slot());
}

// A new handle holding T(args...).
template <typename T, typename... Args>
inline __attribute__((always_inline)) Handle make_handle(Args&&... args) {
  static_assert(sizeof(T) <= sizeof(Slot::payload), "payload too large for a slot");
  static_assert(alignof(T) <= 8, "payload over-aligned for a slot");
  Slot* s = allocate_slot();
  try {
    new (s->payload) T(std::forward<Args>(args)...);
  } catch (...) {
    free_slot(s);
    throw;
  }
  return publish(s, HandleTraits<T>::kind);
}

// The payload behind a handle of kind HandleTraits<T>::kind.
template <typename T>
T& get(const void* handle, const char* what) {
  return payload<T>(resolve(handle, HandleTraits<T>::kind, what));
}

// The one destroy: when `handle` is a live handle of kind T, destroys the
// payload, retires the handle (Note [Handle generations]) and frees its
// slot, and returns true; otherwise does nothing and returns false. The
// payload's destructor may re-enter the C ABI (a from_blob deleter), so
// the thread's slot cache is only looked at afterwards, by free_slot.
// Deleting a handle races with every other use of it (macros.h), so no
// read-modify-write is needed here. Never throws.
template <typename T>
inline __attribute__((always_inline)) bool destroy_if_live(const void* handle) noexcept {
  Slot* s = live_slot(handle, HandleTraits<T>::kind);
  if (s == nullptr) return false;
  payload<T>(s).~T();
  retire(s, reinterpret_cast<uintptr_t>(handle));
  free_slot(s);
  return true;
}
template <typename T>
bool destroy_if_live(Handle h) noexcept {
  return destroy_if_live<T>(reinterpret_cast<const void*>(h.bits));
}

// The rule of every exported delete function: NULL is a harmless no-op (as
// PyTorch's `delete` of a null pointer); a live handle of kind T is
// destroyed; anything else (foreign, already deleted, another kind) throws
// st::Error "<what>: ..." and changes nothing.
template <typename T>
void destroy(const void* handle, const char* what) {
  if (!destroy_if_live<T>(handle) && handle != nullptr) {
    throw_bad_handle(handle, HandleTraits<T>::kind, what);
  }
}

// The opaque C handle for `h`.
template <typename H>
H to_handle(Handle h) noexcept {
  return reinterpret_cast<H>(h.bits);
}

}  // namespace stc
