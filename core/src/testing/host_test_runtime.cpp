#include "host_test_runtime.h"

#include <array>
#include <atomic>

#include <st/core/error.h>
#include <st/testing/host_test_backend.h>

namespace st::testing {
namespace detail {
namespace {

constexpr StreamId kMaxStreamId = 2 * kHostTestPoolSize;  // 0 default, then two pools
constexpr size_t kStreams = static_cast<size_t>(kMaxStreamId) + 1;
constexpr size_t kDevices = static_cast<size_t>(kHostTestDeviceCount);

// Per thread, as CUDA's current device and current streams.
thread_local DeviceIndex t_current_device = 0;
thread_local std::array<StreamId, kDevices> t_current_stream{};

std::array<std::atomic<uint32_t>, kDevices * 2> g_pool_cursor{};
std::array<std::array<std::atomic<int64_t>, kStreams>, kDevices> g_sync_count{};

Device device_of(DeviceIndex index) { return Device(DeviceType::PrivateUse1, index); }

void check_stream(const Stream& s, const char* where) {
  ST_CHECK(s.id() >= 0 && s.id() <= kMaxStreamId, where, ": ", s,
           " is not a stream of the host test backend (ids 0 to ", kMaxStreamId, ")");
}

class HostTestRuntime final : public DeviceRuntime {
 public:
  DeviceType type() const noexcept override { return DeviceType::PrivateUse1; }
  DeviceIndex device_count() const noexcept override { return kHostTestDeviceCount; }
  bool host_accessible() const noexcept override { return true; }

  DeviceIndex current_device() const override { return t_current_device; }
  void set_device(DeviceIndex index) override { t_current_device = index; }
  void set_device_noexcept(DeviceIndex index) noexcept override { t_current_device = index; }

  Stream current_stream(DeviceIndex index) const override {
    return Stream(device_of(index), t_current_stream[static_cast<size_t>(index)]);
  }
  Stream default_stream(DeviceIndex index) const override {
    return Stream(device_of(index), Stream::kDefaultId);
  }
  Stream stream_from_pool(DeviceIndex index, bool high_priority) override {
    const size_t cursor = static_cast<size_t>(index) * 2 + (high_priority ? 1 : 0);
    const uint32_t n = g_pool_cursor[cursor].fetch_add(1, std::memory_order_relaxed);
    const StreamId first = high_priority ? kHostTestPoolSize + 1 : 1;
    return Stream(device_of(index), first + static_cast<StreamId>(n % kHostTestPoolSize));
  }
  void set_current_stream(const Stream& stream) override {
    check_stream(stream, "set_current_stream");
    set_current_stream_noexcept(stream);
  }
  void set_current_stream_noexcept(const Stream& stream) noexcept override {
    t_current_stream[static_cast<size_t>(stream.device_index())] = stream.id();
  }
  void synchronize_stream(const Stream& stream) override {
    check_stream(stream, "synchronize_stream");
    counter(stream).fetch_add(1, std::memory_order_relaxed);
  }
  bool query_stream(const Stream& stream) override {
    check_stream(stream, "query_stream");
    return true;  // work runs synchronously
  }
  void synchronize_device(DeviceIndex index) override {
    for (auto& c : g_sync_count[static_cast<size_t>(index)]) {
      c.fetch_add(1, std::memory_order_relaxed);
    }
  }
  void* native_stream_handle(const Stream& stream) const override {
    check_stream(stream, "native_stream_handle");
    return nullptr;  // no backend object behind a counter
  }

  static std::atomic<int64_t>& counter(const Stream& s) {
    return g_sync_count[static_cast<size_t>(s.device_index())][static_cast<size_t>(s.id())];
  }
};

}  // namespace

DeviceRuntime* host_test_runtime() {
  static HostTestRuntime runtime;
  return &runtime;
}

}  // namespace detail

int64_t host_test_sync_count(const Stream& stream) {
  ST_CHECK(stream.device_type() == DeviceType::PrivateUse1 && stream.device_index() >= 0 &&
               stream.device_index() < kHostTestDeviceCount,
           "host_test_sync_count: ", stream, " is not on a host test device");
  detail::check_stream(stream, "host_test_sync_count");
  return detail::HostTestRuntime::counter(stream).load(std::memory_order_relaxed);
}

}  // namespace st::testing
