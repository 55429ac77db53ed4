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

#include <string>

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

// The fast path for a top-level Tensor argument: tensor_slot returns the
// slot of a live tensor handle, or null for anything else; check_tensor
// throws like decode would instead of returning null. take_tensor (after a
// successful check) moves the tensor out of its handle into `out` and
// deletes the handle, with no reference-count traffic.
inline Slot* tensor_slot(StableIValue v) noexcept {
  return live_slot(reinterpret_cast<const void*>(static_cast<uintptr_t>(v)), HandleKind::Tensor);
}
[[noreturn]] void throw_not_a_tensor(const st::SchemaType& type, StableIValue v);
inline Slot* check_tensor(const st::SchemaType& type, StableIValue v) {
  Slot* s = tensor_slot(v);
  if (__builtin_expect(s == nullptr, 0)) throw_not_a_tensor(type, v);
  return s;
}
inline void take_tensor(Slot* slot, StableIValue v, st::Tensor& out) noexcept {
  st::Tensor& held = payload<st::Tensor>(slot);
  out = std::move(held);
  held.~Tensor();
  retire(slot, static_cast<uintptr_t>(v));
  free_slot(slot);
}

// A short description of what a payload looks like for error messages:
// "a list handle", "a deleted handle", "a null pointer", "the value 42".
std::string describe_payload(StableIValue v);

}  // namespace stc
