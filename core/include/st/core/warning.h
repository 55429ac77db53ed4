// Warnings from the core (e.g. "kernel overwritten") go through one
// process-wide handler so hosts and tests can capture or silence them.
// The default handler prints to stderr. Thread-safe.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <st/core/error.h>
#include <st/core/export.h>

namespace st {

using WarningHandler = std::function<void(const std::string& message)>;

// Replaces the handler; returns the previous one. A null handler restores
// the default (stderr).
ST_API WarningHandler set_warning_handler(WarningHandler handler);

// Delivers a warning to the current handler. Never throws: a throwing
// handler's exception is swallowed.
ST_API void warn(const std::string& message) noexcept;

// RAII capture of warnings for the current scope (used by tests).
class ST_API WarningCapture {
 public:
  WarningCapture();
  ~WarningCapture();
  WarningCapture(const WarningCapture&) = delete;
  WarningCapture& operator=(const WarningCapture&) = delete;
  const std::vector<std::string>& messages() const { return messages_; }

 private:
  std::vector<std::string> messages_;
  WarningHandler previous_;
};

}  // namespace st

#define ST_WARN(...) ::st::warn(::st::detail::str(__VA_ARGS__))
