// Checking st::Error messages in the core tests: one definition of
// error_of and of the matcher macro, shared by every core test file.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include <st/core/error.h>

namespace st::testing {

// The message of the st::Error f throws, or "<no st::Error>" when it
// returns normally (so a missing error fails the substring check below).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const st::Error& e) {
    return e.what();
  }
  return "<no st::Error>";
}

}  // namespace st::testing

// Expects the expression `expr` to throw an st::Error whose message contains
// `text`; on failure prints the message it got.
#define EXPECT_ST_ERROR_HAS(expr, text)                                                   \
  EXPECT_NE(::st::testing::error_of([&] { (void)(expr); }).find(text), std::string::npos) \
      << "error was: " << ::st::testing::error_of([&] { (void)(expr); })
