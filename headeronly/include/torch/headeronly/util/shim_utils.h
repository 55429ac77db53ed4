// Error-code vocabulary of the C shim, usable without linking anything.
#pragma once

#include <stdexcept>
#include <string>

#include <torch/headeronly/macros/Macros.h>

#define TORCH_SUCCESS 0
#define TORCH_FAILURE 1
#define TORCH_NOINLINE C10_NOINLINE

// Converts a failing C-shim call into a C++ exception. The message names the
// call and the place; the core's own error text is added by the stable
// layer's STABLE_TORCH_ERROR_CODE_CHECK, which can ask the runtime for it.
#define TORCH_ERROR_CODE_CHECK(call)                                                              \
  do {                                                                                            \
    if ((call) != TORCH_SUCCESS) {                                                                \
      throw std::runtime_error(std::string(#call " API call failed at ") + __FILE__ + ", line " + \
                               std::to_string(__LINE__));                                         \
    }                                                                                             \
  } while (0)
