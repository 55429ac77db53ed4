// aoti_torch_warn: a warning from an extension through the core's warning
// handler ("<msg> (warning from <func> at <file>:<line>)"). Never fails.
// aoti_torch_check: a failed check in C++ kernel code, thrown as PyTorch's
// is ("<msg> (check failed in <func> at <file>:<line>)").
#include <stdexcept>
#include <string>

#include <st/core/warning.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>

namespace {

// "<msg> (<what> <func> at <file>:<line>)"; NULL strings print as "?".
std::string located(const char* msg, const char* what, const char* func, const char* file,
                    uint32_t line) {
  std::string s = msg != nullptr ? msg : "";
  s += " (";
  s += what;
  s += " ";
  s += func != nullptr ? func : "?";
  s += " at ";
  s += file != nullptr ? file : "?";
  s += ":" + std::to_string(line) + ")";
  return s;
}

}  // namespace

extern "C" {

void aoti_torch_warn(const char* func, const char* file, uint32_t line, const char* msg) {
  try {
    st::warn(located(msg, "warning from", func, file, line));
  } catch (...) {
    // Out of memory while formatting a warning: drop it.
  }
}

// Throws by contract (shim.h): its callers are C++ kernels, and the kernel
// boundary turns the exception into the operator's error.
void aoti_torch_check(bool cond, const char* func, const char* file, uint32_t line,
                      const char* msg) {
  if (cond) return;
  throw std::runtime_error(located(msg, "check failed in", func, file, line));
}

}  // extern "C"
