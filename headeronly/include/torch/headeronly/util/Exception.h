// STD_TORCH_CHECK: the header-only check macro. It throws std::runtime_error
// (not a core exception type) so that code using it never needs to link the
// core.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

#include <torch/headeronly/macros/Macros.h>

HIDDEN_NAMESPACE_BEGIN(torch, headeronly, detail)

inline void stream_args(std::ostringstream&) {}

template <typename T, typename... Rest>
void stream_args(std::ostringstream& os, const T& first, const Rest&... rest) {
  os << first;
  stream_args(os, rest...);
}

// Builds and throws the error. Out of line from the macro so the check itself
// stays a compare and a predictable branch.
// The message of a failed check: the caller's message parts streamed
// together, or `fallback` when there are none.
inline std::string check_message(const char* fallback) { return fallback; }
template <typename T, typename... Rest>
std::string check_message(const char* /*fallback*/, const T& first, const Rest&... rest) {
  std::ostringstream os;
  stream_args(os, first, rest...);
  return os.str();
}

template <typename... Args>
[[noreturn]] C10_NOINLINE void throw_check_failure(const char* prefix, const char* func,
                                                   const char* file, int line,
                                                   const Args&... args) {
  std::ostringstream os;
  if (prefix != nullptr) {
    os << prefix;
  }
  stream_args(os, args...);
  os << " (in " << func << " at " << file << ":" << line << ")";
  throw std::runtime_error(os.str());
}

HIDDEN_NAMESPACE_END(torch, headeronly, detail)

// STD_TORCH_CHECK(cond, msg...): if cond is false, throws std::runtime_error
// "Expected <cond> to be true, but got false.  <msg...> (in <func> at
// <file>:<line>)". A single statement; usable after `if` without braces.
#define STD_TORCH_CHECK(cond, ...)                                                         \
  do {                                                                                     \
    if (C10_UNLIKELY(!(cond))) {                                                           \
      ::torch::headeronly::detail::throw_check_failure(                                    \
          "Expected " #cond " to be true, but got false.  ", __func__, __FILE__, __LINE__, \
          ##__VA_ARGS__);                                                                  \
    }                                                                                      \
  } while (0)

// STD_TORCH_CHECK_MSG(cond, msg...): as STD_TORCH_CHECK, but the message is
// only the streamed arguments (for checks whose condition text would confuse
// the reader).
#define STD_TORCH_CHECK_MSG(cond, ...)                                                        \
  do {                                                                                        \
    if (C10_UNLIKELY(!(cond))) {                                                              \
      ::torch::headeronly::detail::throw_check_failure(nullptr, __func__, __FILE__, __LINE__, \
                                                       ##__VA_ARGS__);                        \
    }                                                                                         \
  } while (0)
