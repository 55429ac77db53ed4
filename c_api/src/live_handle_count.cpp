// stabletorch_live_handle_count: every live handle of this library (for
// leak checks by hosts and tests).
#include <stabletorch/c/runtime.h>

#include "error_state.h"
#include "handle_types.h"

extern "C" {

AOTITorchError stabletorch_live_handle_count(int64_t* ret_count) {
  STC_API_BEGIN
  stc::check_out(ret_count, "ret_count");
  *ret_count = stc::live_count_total();
  STC_API_END
}

}  // extern "C"
