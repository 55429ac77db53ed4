#include <st/device/device_runtime.h>

#include <array>
#include <atomic>
#include <mutex>
#include <sstream>

#include <st/core/error.h>

#include "device/backend_module.h"

namespace st {

DeviceRuntime::~DeviceRuntime() = default;

namespace {

constexpr size_t kSlots = torch::headeronly::COMPILE_TIME_MAX_DEVICE_TYPES;

// Written under g_mutex with release stores, read lock-free with acquire
// loads: a runtime, once published, is never replaced or freed.
std::array<std::atomic<DeviceRuntime*>, kSlots> g_runtimes{};
std::mutex g_mutex;

std::string type_name(DeviceType type) { return torch::headeronly::DeviceTypeName(type, true); }

size_t slot_of(DeviceType type, const char* where) {
  const int v = static_cast<int>(type);
  ST_CHECK(v >= 0 && static_cast<size_t>(v) < kSlots, where, ": invalid device type ordinal ", v);
  return static_cast<size_t>(v);
}

std::string registered_list() {
  std::ostringstream os;
  bool first = true;
  for (DeviceType t : registered_device_types()) {
    os << (first ? "" : ", ") << type_name(t);
    first = false;
  }
  return first ? std::string("none") : os.str();
}

// The runtime for a stream's device type; the stream's device is checked.
DeviceRuntime& runtime_of_stream(const Stream& s, const char* where) {
  DeviceRuntime& rt = get_device_runtime(s.device_type());
  ST_CHECK(s.device_index() >= 0, where, ": stream ", s.id(), " has no device index (device ",
           s.device(), ")");
  check_device_index(s.device_type(), s.device_index(), where);
  return rt;
}

// A concrete index of a device of a type with a runtime.
DeviceIndex concrete_index(DeviceRuntime& rt, Device d, const char* where) {
  if (d.index() == -1) return rt.current_device();
  check_device_index(d.type(), d.index(), where);
  return d.index();
}

}  // namespace

void register_device_runtime(DeviceRuntime* runtime) {
  ST_CHECK(runtime != nullptr, "register_device_runtime: expected a runtime, got null");
  const DeviceType type = runtime->type();
  const size_t i = slot_of(type, "register_device_runtime");
  ST_CHECK(type != DeviceType::CPU && type != DeviceType::Meta, "register_device_runtime: the ",
           type_name(type), " device type has a built-in behaviour and takes no runtime");
  std::lock_guard<std::mutex> lock(g_mutex);
  DeviceRuntime* old = g_runtimes[i].load(std::memory_order_acquire);
  if (old == runtime) return;
  ST_CHECK(old == nullptr, "register_device_runtime: device type ", type_name(type),
           " already has a runtime; runtimes cannot be replaced");
  g_runtimes[i].store(runtime, std::memory_order_release);
}

DeviceRuntime* try_get_device_runtime(DeviceType type) noexcept {
  const int v = static_cast<int>(type);
  if (v < 0 || static_cast<size_t>(v) >= kSlots) return nullptr;
  std::atomic<DeviceRuntime*>& slot = g_runtimes[static_cast<size_t>(v)];
  DeviceRuntime* rt = slot.load(std::memory_order_acquire);
  // A backend built as a module registers its runtime when it is loaded
  // (Note [Backend modules]).
  if (__builtin_expect(rt == nullptr, 0) && detail::load_backend_module(type)) {
    rt = slot.load(std::memory_order_acquire);
  }
  return rt;
}

DeviceRuntime& get_device_runtime(DeviceType type) {
  DeviceRuntime* rt = try_get_device_runtime(type);
  if (rt == nullptr) {
    slot_of(type, "get_device_runtime");
    const std::string why = detail::backend_module_error(type);
    ST_CHECK(why.empty(), why);
    ST_ERROR("no device runtime is registered for device type '", type_name(type),
             "' (registered: ", registered_list(), ")");
  }
  return *rt;
}

std::vector<DeviceType> registered_device_types() {
  std::vector<DeviceType> out;
  for (size_t i = 0; i < kSlots; ++i) {
    if (g_runtimes[i].load(std::memory_order_acquire) != nullptr) {
      out.push_back(static_cast<DeviceType>(i));
    }
  }
  return out;
}

DeviceIndex device_count(DeviceType type) noexcept {
  if (type == DeviceType::CPU) return 1;
  DeviceRuntime* rt = try_get_device_runtime(type);
  return rt == nullptr ? 0 : rt->device_count();
}

bool is_host_accessible(Device device) noexcept {
  if (device.is_cpu()) return true;
  DeviceRuntime* rt = try_get_device_runtime(device.type());
  return rt != nullptr && rt->host_accessible();
}

void check_device_index(DeviceType type, DeviceIndex index, const char* where) {
  if (type == DeviceType::CPU) {
    ST_CHECK(index == -1 || index == 0, where, ": device index ", static_cast<int>(index),
             " is not valid for the CPU (expected -1 or 0)");
    return;
  }
  if (type == DeviceType::Meta) {
    ST_CHECK(index >= -1, where, ": device index ", static_cast<int>(index),
             " is not valid (expected -1 or non-negative)");
    return;
  }
  DeviceRuntime& rt = get_device_runtime(type);
  const DeviceIndex n = rt.device_count();
  ST_CHECK(n > 0, where, ": no ", type_name(type), " device is available (device index ",
           static_cast<int>(index), " requested)");
  ST_CHECK(index >= 0 && index < n, where, ": device index ", static_cast<int>(index),
           " is out of range for device type ", type_name(type), " (", static_cast<int>(n),
           n == 1 ? " device" : " devices", " available, valid indices 0 to ",
           static_cast<int>(n) - 1, ")");
}

Device resolve_device(Device device, const char* where) {
  DeviceRuntime* rt = try_get_device_runtime(device.type());
  if (rt == nullptr) return device;
  if (device.index() == -1) {
    ST_CHECK(rt->device_count() > 0, where, ": no ", type_name(device.type()),
             " device is available");
    return Device(device.type(), rt->current_device());
  }
  check_device_index(device.type(), device.index(), where);
  return device;
}

Stream current_stream(Device device) {
  if (device.is_cpu()) return Stream(device, Stream::kDefaultId);
  DeviceRuntime& rt = get_device_runtime(device.type());
  return rt.current_stream(concrete_index(rt, device, "current_stream"));
}

Stream default_stream(Device device) {
  if (device.is_cpu()) return Stream(device, Stream::kDefaultId);
  DeviceRuntime& rt = get_device_runtime(device.type());
  return rt.default_stream(concrete_index(rt, device, "default_stream"));
}

Stream stream_from_pool(Device device, bool high_priority) {
  ST_CHECK(!device.is_cpu(), "stream_from_pool: the CPU has no stream pool");
  DeviceRuntime& rt = get_device_runtime(device.type());
  return rt.stream_from_pool(concrete_index(rt, device, "stream_from_pool"), high_priority);
}

void set_current_stream(const Stream& stream) {
  if (stream.device().is_cpu()) {
    ST_CHECK(stream.is_default(), "set_current_stream: the CPU has only its default stream, got ",
             stream);
    return;
  }
  runtime_of_stream(stream, "set_current_stream").set_current_stream(stream);
}

void synchronize_stream(const Stream& stream) {
  if (stream.device().is_cpu()) return;  // CPU work is synchronous
  runtime_of_stream(stream, "synchronize_stream").synchronize_stream(stream);
}

bool query_stream(const Stream& stream) {
  if (stream.device().is_cpu()) return true;
  return runtime_of_stream(stream, "query_stream").query_stream(stream);
}

void synchronize_device(Device device) {
  if (device.is_cpu()) return;
  DeviceRuntime& rt = get_device_runtime(device.type());
  rt.synchronize_device(concrete_index(rt, device, "synchronize_device"));
}

void* native_stream_handle(const Stream& stream) {
  // As c10: the CPU backend has no stream object to hand out.
  ST_CHECK(!stream.device().is_cpu(),
           "native_stream_handle: the CPU has no native stream "
           "handle (its work runs synchronously; only accelerator streams have one, e.g. "
           "CUDA's cudaStream_t), got ",
           stream);
  return runtime_of_stream(stream, "native_stream_handle").native_stream_handle(stream);
}

}  // namespace st
