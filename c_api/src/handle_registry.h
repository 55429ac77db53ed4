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
#pragma once

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
HandleInfo classify(const void* handle) noexcept;

// A free slot (kind Dead, payload uninitialised) for a handle of `kind`
// (counted live from here). Throws st::Error when the registry is
// exhausted, std::bad_alloc when memory is.
Slot* allocate_slot(HandleKind kind);
// Returns a slot of `kind` whose payload has been destroyed (counted dead).
void free_slot(Slot* slot, HandleKind kind) noexcept;

// Live handles of one kind / of every kind.
int64_t live_count(HandleKind k) noexcept;
int64_t live_count_total() noexcept;

// Throws st::Error "<what>: null tensor handle", "... foreign ...",
// "... already deleted ...", "... a list handle, not a tensor handle".
// `what` names the argument ("aoti_torch_get_dim: tensor").
[[noreturn]] void throw_bad_handle(const void* handle, HandleKind expected,
                                   const HandleInfo& info, const char* what);

// The live slot of `handle`, checked to be of kind `expected`.
inline Slot* resolve(const void* handle, HandleKind expected, const char* what) {
  const HandleInfo info = classify(handle);
  if (__builtin_expect(info.cls != Classification::Live || info.kind != expected, 0)) {
    throw_bad_handle(handle, expected, info, what);
  }
  return info.slot;
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
Slot* make_handle(Args&&... args) {
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
void destroy(const void* handle, const char* what) {
  Slot* s = resolve(handle, HandleTraits<T>::kind, what);
  payload<T>(s).~T();
  free_slot(s, HandleTraits<T>::kind);
}

// Destroys a handle if it is a live handle of kind T; otherwise does
// nothing. For releasing stack contents on error paths. Never throws.
template <typename T>
void destroy_if_live(const void* handle) noexcept {
  const HandleInfo info = classify(handle);
  if (info.cls != Classification::Live || info.kind != HandleTraits<T>::kind) return;
  payload<T>(info.slot).~T();
  free_slot(info.slot, HandleTraits<T>::kind);
}

// Handle <-> slot. Handles are slot addresses.
template <typename H>
H to_handle(Slot* s) noexcept {
  return reinterpret_cast<H>(s);
}

}  // namespace stc
