// torch_exception_get_what(_without_backtrace): the calling thread's last
// C ABI failure (error_state.h).
#include <torch/csrc/stable/c/shim.h>

#include "error_state.h"

extern "C" {

// Declared in a version block newer than these headers' own level, so the
// declaration is not visible here: export the definition explicitly.

AOTI_TORCH_EXPORT const char* torch_exception_get_what(void) { return stc::last_error_what(); }
AOTI_TORCH_EXPORT const char* torch_exception_get_what_without_backtrace(void) {
  return stc::last_error_what_without_backtrace();
}

}  // extern "C"
