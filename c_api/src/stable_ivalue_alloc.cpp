// torch_new_stable_ivalue / torch_delete_stable_ivalue: heap StableIValue
// slots (the payload of a present optional). They use the global operator
// new/delete, the same allocator an extension's inline headers use for
// `new StableIValue`, so either side may free either's; the ones made here
// are tracked (Note [Checked optional slots] in stable_ivalue_slots.h).
#include <torch/csrc/stable/c/shim.h>

#include "error_state.h"
#include "handle_types.h"
#include "stable_ivalue_slots.h"

extern "C" {

// Declared in a version block newer than these headers' own level, so the
// declaration is not visible here: export the definition explicitly.

AOTI_TORCH_EXPORT AOTITorchError torch_new_stable_ivalue(StableIValue** ret_value) {
  STC_API_BEGIN
  stc::check_out(ret_value, "ret_value");
  *ret_value = stc::new_tracked_slot();
  STC_API_END
}

AOTI_TORCH_EXPORT AOTITorchError torch_delete_stable_ivalue(StableIValue* value) {
  STC_API_BEGIN
  if (value == nullptr)
    return AOTI_TORCH_SUCCESS;  // the delete functions' rule (handle_registry.h)
  const StableIValue bits = static_cast<StableIValue>(reinterpret_cast<uintptr_t>(value));
  const stc::SlotPointer kind = stc::classify_slot_pointer(bits);
  if (kind == stc::SlotPointer::Handle) {
    ST_ERROR("value: expected a StableIValue slot (torch_new_stable_ivalue) but got ",
             stc::describe_slot_pointer(bits, kind),
             "; a handle is deleted by the function of its kind, e.g. "
             "aoti_torch_delete_tensor_object");
  }
  ST_CHECK(stc::usable(kind),
           "value: expected a StableIValue slot (torch_new_stable_ivalue) but got ",
           stc::describe_slot_pointer(bits, kind));
  stc::free_usable_slot(value, kind);
  STC_API_END
}

}  // extern "C"
