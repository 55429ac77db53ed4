// StableIValue <-> st::IValue, driven by the schema type, with PyTorch's
// encodings (Note [StableIValue encodings]):
//   bool, int, SymInt, float   raw bits in the low-order bytes (SymInt = int)
//   ScalarType/Layout/MemoryFormat   the c10 code (aoti_torch_*() getters)
//   Device      index (as uint32) in the low 32 bits, type code in the high 32
//   Tensor      an AtenTensorHandle: owning; the receiver steals it
//   T?          0 for None, else a pointer to a heap StableIValue holding T
//               (allocated with new / torch_new_stable_ivalue; the receiver
//               frees it; checked first: Note [Checked optional slots])
//   T[]         a StableListHandle of element payloads (receiver deletes it)
//   str         a StringHandle (receiver deletes it)
//   Scalar      a StableScalarHandle (stabletorch addition; receiver deletes)
//   Generator   an AtenGeneratorHandle: owning; the receiver steals it
//   Stream, Storage: not supported (clean error).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include <st/dispatch/function_schema.h>
#include <st/dispatch/ivalue.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>

#include "handle_registry.h"

namespace stc {

// Reads v as a value of schema type `type` without taking ownership of
// anything (tensors are shared, strings and lists copied). Throws st::Error
// "expected <kind> but got <what v is>" on a mismatch.
st::IValue decode(const st::SchemaType& type, StableIValue v);

// Releases what v owns as a value of `type`: deletes tensor, string, list,
// scalar and generator handles (recursively) and optional slots. A live handle of
// another kind in a handle-typed slot, or a bare live handle in an optional
// slot, is deleted too (the slot was stolen); null, foreign and deleted
// handles, and optional slots that cannot be slots, are skipped. Never
// throws.
void release(const st::SchemaType& type, StableIValue v) noexcept;

// Encodes v as schema type `type`, returning new references. Throws
// st::Error "expected <kind> but got <IValue tag>" on a mismatch; nothing
// is leaked on failure.
StableIValue encode(const st::SchemaType& type, st::IValue&& v);

// The plain encodings, shared by the codec and call_dispatcher's typed and
// boxed argument paths: a payload's low-order bytes as T (little-endian
// hosts), a bool as PyTorch reads it (any non-zero low-order byte is true),
// a payload as the pointer it holds.
template <typename T>
inline T from_bits(StableIValue v) noexcept {
  static_assert(sizeof(T) <= sizeof(StableIValue), "payload wider than a StableIValue");
  T out;
  std::memcpy(&out, &v, sizeof(T));
  return out;
}
inline bool decode_bool(StableIValue v) noexcept { return (v & 0xffu) != 0; }
inline const void* as_pointer(StableIValue v) noexcept {
  return reinterpret_cast<const void*>(static_cast<uintptr_t>(v));
}

// A handle argument taken without a reference-count round trip: handle_slot
// is the slot of v when v is a live handle of kind k, else null (decode
// says why); take_handle (on that slot) moves the payload into `out`,
// destroys it and retires the handle, which reads as deleted from then on.
// The slot stays allocated: the caller frees it or builds a return in it
// (Note [Returns in the arguments' slots] in call_dispatcher.cpp).
inline Slot* handle_slot(HandleKind k, StableIValue v) noexcept {
  return live_slot(as_pointer(v), k);
}
template <typename T>
inline __attribute__((always_inline)) void take_handle(Slot* slot, StableIValue v,
                                                       T& out) noexcept {
  T& held = payload<T>(slot);
  out = std::move(held);
  held.~T();
  retire(slot, static_cast<uintptr_t>(v));
}

// A short description of what a payload looks like for error messages:
// "a list handle", "a deleted handle", "a null pointer", "the value 42".
std::string describe_payload(StableIValue v);

}  // namespace stc
