// The error boundary of the C ABI: the calling thread's last error, and the
// one BEGIN/END macro pair every exported function body is wrapped in.
//
// Note [No exception crosses the C ABI]
// Every exported function that returns AOTITorchError runs its body between
// STC_API_BEGIN and STC_API_END. Any exception (st::Error from the core or
// from this library, std::bad_alloc, a C++ exception thrown by an
// extension's callback, anything) is caught there, recorded in thread-local
// state with the name of the exported function, and turned into
// AOTI_TORCH_FAILURE. Out-parameters are written only after the body has
// succeeded, so a failure leaves them untouched.
#pragma once

#include <exception>
#include <string>

#include <torch/csrc/inductor/aoti_torch/c/macros.h>

namespace stc {

// Records the failure of `function` (an exported C function's name) and
// returns AOTI_TORCH_FAILURE. Never throws.
AOTITorchError record_failure(const char* function, const std::exception& e) noexcept;
AOTITorchError record_unknown_failure(const char* function) noexcept;
// Records a failure from a plain message (functions that cannot return an
// error code, e.g. aoti_torch_dtype_element_size). Never throws.
void record_failure_message(const char* function, const char* message) noexcept;

// The calling thread's last error ("" when none). Borrowed; valid until
// the thread's next failure.
const char* last_error_what() noexcept;
const char* last_error_what_without_backtrace() noexcept;

}  // namespace stc

// Wraps the body of an exported function returning AOTITorchError; see
// Note [No exception crosses the C ABI]. Usage:
//   AOTITorchError aoti_torch_x(...) { STC_API_BEGIN ...body... STC_API_END }
#define STC_API_BEGIN try {
#define STC_API_END STC_API_END_AS(__func__)
// STC_API_END for a helper that does an exported function's work: errors
// are recorded under that function's name.
#define STC_API_END_AS(function_name)                    \
  }                                                      \
  catch (const std::exception& stc_e) {                  \
    return ::stc::record_failure(function_name, stc_e);  \
  }                                                      \
  catch (...) {                                          \
    return ::stc::record_unknown_failure(function_name); \
  }                                                      \
  return AOTI_TORCH_SUCCESS;
