// Heap StableIValue slots (the payload of a present optional). They use
// the global operator new/delete, the same allocator an extension's inline
// headers use for `new StableIValue`, so either side may free either's.
#include <torch/csrc/stable/c/shim.h>

#include "error_state.h"
#include "handle_types.h"

extern "C" {

// Declared in a version block newer than these headers' own level, so the
// declaration is not visible here: export the definition explicitly.

AOTI_TORCH_EXPORT AOTITorchError torch_new_stable_ivalue(StableIValue** ret_value) {
  STC_API_BEGIN
  stc::check_out(ret_value, "ret_value");
  *ret_value = new StableIValue(0);
  STC_API_END
}

AOTI_TORCH_EXPORT AOTITorchError torch_delete_stable_ivalue(StableIValue* value) {
  STC_API_BEGIN
  ST_CHECK(value != nullptr, "value: null pointer");
  delete value;
  STC_API_END
}

}  // extern "C"
