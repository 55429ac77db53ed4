// The registry of Python object converters (Note [Python object converters]
// in st/core/pyobject_converters.h).
#include <st/core/pyobject_converters.h>

#include <atomic>

namespace st {

namespace {
std::atomic<const PyObjectConverters*> g_converters{nullptr};
}  // namespace

void set_pyobject_converters(const PyObjectConverters* converters) noexcept {
  g_converters.store(converters, std::memory_order_release);
}

const PyObjectConverters* pyobject_converters() noexcept {
  return g_converters.load(std::memory_order_acquire);
}

}  // namespace st
