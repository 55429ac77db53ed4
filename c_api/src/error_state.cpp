// Thread-local last error of the C ABI (see error_state.h).
#include "error_state.h"

#include <cstring>
#include <typeinfo>

#include <st/core/error.h>

namespace stc {
namespace {

struct LastError {
  std::string what;     // message + where it was caught
  std::string message;  // "<function>: <message>"
};

LastError& last_error() noexcept {
  thread_local LastError e;
  return e;
}

void store(const char* function, const char* message, const char* kind) noexcept {
  LastError& e = last_error();
  try {
    e.message.assign(function);
    e.message.append(": ");
    e.message.append(message != nullptr ? message : "(no message)");
    e.what = e.message;
    e.what.append("\n  (");
    e.what.append(kind);
    e.what.append(" caught at the C ABI boundary in ");
    e.what.append(function);
    e.what.append(")");
  } catch (...) {
    // Out of memory while formatting: keep whatever fits (never throw).
    e.what.clear();
    e.message.clear();
  }
}

}  // namespace

AOTITorchError record_failure(const char* function, const std::exception& ex) noexcept {
  const char* kind = dynamic_cast<const st::Error*>(&ex) != nullptr ? "st::Error"
                     : dynamic_cast<const std::bad_alloc*>(&ex) != nullptr
                         ? "std::bad_alloc (out of memory)"
                         : "C++ exception";
  store(function, ex.what(), kind);
  return AOTI_TORCH_FAILURE;
}

AOTITorchError record_unknown_failure(const char* function) noexcept {
  store(function, "an exception of unknown type was thrown", "unknown exception");
  return AOTI_TORCH_FAILURE;
}

void record_failure_message(const char* function, const char* message) noexcept {
  store(function, message, "error");
}

const char* last_error_what() noexcept { return last_error().what.c_str(); }
const char* last_error_what_without_backtrace() noexcept { return last_error().message.c_str(); }

}  // namespace stc
