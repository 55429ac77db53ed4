#include <st/core/warning.h>

#include <cstdio>
#include <mutex>

namespace st {
namespace {

std::mutex& handler_mutex() {
  static std::mutex m;
  return m;
}

WarningHandler& handler_slot() {
  static WarningHandler h;
  return h;
}

}  // namespace

WarningHandler set_warning_handler(WarningHandler handler) {
  std::lock_guard<std::mutex> lock(handler_mutex());
  WarningHandler previous = std::move(handler_slot());
  handler_slot() = std::move(handler);
  return previous;
}

void warn(const std::string& message) noexcept {
  try {
    WarningHandler h;
    {
      std::lock_guard<std::mutex> lock(handler_mutex());
      h = handler_slot();
    }
    if (h) {
      h(message);
    } else {
      std::fprintf(stderr, "[stabletorch warning] %s\n", message.c_str());
    }
  } catch (...) {
    // A warning must never turn into a failure.
  }
}

WarningCapture::WarningCapture() {
  previous_ = set_warning_handler([this](const std::string& m) { messages_.push_back(m); });
}

WarningCapture::~WarningCapture() { set_warning_handler(std::move(previous_)); }

}  // namespace st
