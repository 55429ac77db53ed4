// Heap StableIValue slots (the payload of a present optional, `T?`): what
// a pointer in an optional slot is, checked before anything reads it, and
// the registry of the slots this runtime handed out.
//
// Note [Checked optional slots]
// A present optional is a pointer to a heap StableIValue. Such a slot may
// come from torch_new_stable_ivalue (tracked here) or from an extension's
// own `new StableIValue` (the stable headers do that; nothing records it),
// so a plausible pointer that is not tracked must still be accepted. What
// is refused, before the pointer is read or freed:
//   - a live handle of this library (any kind: a bare tensor handle where
//     a `Tensor?` slot belongs) and a deleted one;
//   - an address inside handle memory that is no handle;
//   - a value that cannot be a heap pointer: not 8-byte aligned, below
//     kLowestSlotAddress, or above the 48-bit user address space (a bare
//     int, float or scalar code);
//   - a tracked slot that was already freed (by torch_delete_stable_ivalue
//     or by the runtime after taking it from a stack): freed tracked slots
//     wait in a quarantine of kQuarantine slots before their memory goes
//     back to the allocator, so while one waits its address cannot belong
//     to anything else and the second free is known for what it is.
// What stays undetectable: an untracked, aligned, plausible address (a
// stack or global address, a pointer to freed memory not in quarantine,
// another object's heap memory) is read, and freed when the slot is
// consumed, as a heap StableIValue.
#pragma once

#include <cstdint>
#include <string>

#include <st/dispatch/function_schema.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>

namespace stc {

// Lower addresses are never mapped by Linux by default (vm.mmap_min_addr).
constexpr uintptr_t kLowestSlotAddress = 0x10000;
constexpr size_t kQuarantine = 1024;

enum class SlotPointer {
  Null,        // 0: None
  Tracked,     // handed out by torch_new_stable_ivalue and not yet freed
  Untracked,   // plausible (an extension's `new StableIValue`): unverifiable
  Freed,       // a tracked slot already freed (in quarantine)
  Handle,      // a live handle of this library
  DeadHandle,  // a deleted handle of this library
  InHandles,   // inside handle memory, not on a handle
  NotPointer,  // misaligned, too low or too high to be a heap pointer
};

// What `v` is as an optional slot pointer. Never dereferences it.
SlotPointer classify_slot_pointer(StableIValue v) noexcept;

// True for the kinds of pointer that may be read and freed as a slot.
inline bool usable(SlotPointer k) noexcept {
  return k == SlotPointer::Tracked || k == SlotPointer::Untracked;
}

// The slot `v` points to (null for None) for a value of schema type `type`
// (an Optional). Throws st::Error "expected Tensor? (0 or a pointer to a
// heap StableIValue) but got a tensor handle" when `v` cannot be a slot.
const StableIValue* checked_optional_slot(const st::SchemaType& type, StableIValue v);

// A new tracked slot holding 0 (torch_new_stable_ivalue). Throws
// std::bad_alloc.
StableIValue* new_tracked_slot();

// Frees a slot that classify_slot_pointer found usable: a tracked one goes
// to the quarantine, an untracked one to the allocator. Never throws.
void free_usable_slot(StableIValue* slot, SlotPointer kind) noexcept;

// "a tensor handle", "0x5 (misaligned: not a pointer)", ... for errors.
std::string describe_slot_pointer(StableIValue v, SlotPointer kind);

}  // namespace stc
