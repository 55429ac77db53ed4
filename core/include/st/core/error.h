// st::Error: the one exception type of the core's C++ API. Its message names
// the operation, the argument, what was expected and what was got, e.g.
// "view: shape [3, 5] is invalid for input of size 16".
//
// The C ABI catches it at the boundary and turns it into an error code plus
// a thread-local message; nothing of it crosses into extensions.
#pragma once

#include <exception>
#include <sstream>
#include <string>
#include <utility>

#include <st/core/export.h>

namespace st {

class ST_API Error : public std::exception {
 public:
  explicit Error(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }
  const std::string& message() const noexcept { return message_; }

 private:
  std::string message_;
};

namespace detail {

inline void append_all(std::ostringstream&) {}

template <typename T, typename... Rest>
void append_all(std::ostringstream& os, const T& first, const Rest&... rest) {
  os << first;
  append_all(os, rest...);
}

template <typename... Args>
std::string str(const Args&... args) {
  std::ostringstream os;
  append_all(os, args...);
  return os.str();
}

// Out of line from the check macros so the fast path is one compare.
template <typename... Args>
[[noreturn]] __attribute__((noinline)) void throw_error(const Args&... args) {
  throw Error(str(args...));
}

}  // namespace detail
}  // namespace st

// ST_CHECK(cond, msg...): throws st::Error(msg...) when cond is false. The
// message must say where (operation, argument) and what was expected vs got.
#define ST_CHECK(cond, ...)                   \
  do {                                        \
    if (__builtin_expect(!(cond), 0)) {       \
      ::st::detail::throw_error(__VA_ARGS__); \
    }                                         \
  } while (0)

// ST_ERROR(msg...): throws st::Error(msg...) unconditionally.
#define ST_ERROR(...) ::st::detail::throw_error(__VA_ARGS__)
