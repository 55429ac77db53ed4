// aoti_torch_warn: a warning from an extension through the core's warning
// handler ("<msg> (warning from <func> at <file>:<line>)"). Never fails.
#include <string>

#include <st/core/warning.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>

extern "C" {

void aoti_torch_warn(const char* func, const char* file, uint32_t line, const char* msg) {
  try {
    std::string s = msg != nullptr ? msg : "";
    s += " (warning from ";
    s += func != nullptr ? func : "?";
    s += " at ";
    s += file != nullptr ? file : "?";
    s += ":" + std::to_string(line) + ")";
    st::warn(s);
  } catch (...) {
    // Out of memory while formatting a warning: drop it.
  }
}

}  // extern "C"
