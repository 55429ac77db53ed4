#include <st/device/device_guard.h>

#include <st/core/error.h>
#include <st/device/device_runtime.h>

namespace st {
namespace {

// CPU and Meta guards do nothing; every other type needs a runtime.
DeviceRuntime* runtime_for_guard(DeviceType type) {
  if (type == DeviceType::CPU || type == DeviceType::Meta) return nullptr;
  return &get_device_runtime(type);  // throws the "no runtime" error
}

}  // namespace

DeviceGuard::DeviceGuard(Device device)
    : runtime_(runtime_for_guard(device.type())),
      type_(device.type()),
      original_(-1),
      current_(-1) {
  if (runtime_ == nullptr) return;
  if (device.index() != -1) check_device_index(type_, device.index(), "DeviceGuard");
  original_ = runtime_->current_device();
  current_ = original_;
  if (device.index() != -1 && device.index() != original_) {
    runtime_->set_device(device.index());
    current_ = device.index();
  }
}

DeviceGuard::~DeviceGuard() {
  if (runtime_ != nullptr && current_ != original_) runtime_->set_device_noexcept(original_);
}

void DeviceGuard::set_index(DeviceIndex index) {
  if (index == -1) return;
  check_device_index(type_, index, "DeviceGuard::set_index");
  if (runtime_ == nullptr) return;
  if (index != current_) {
    runtime_->set_device(index);
    current_ = index;
  }
}

StreamGuard::StreamGuard(const Stream& stream)
    : device_guard_(stream.device()),
      runtime_(stream.device().is_cpu() ? nullptr : try_get_device_runtime(stream.device_type())),
      original_stream_(stream),
      current_stream_(stream) {
  if (runtime_ == nullptr) {
    ST_CHECK(stream.is_default(), "StreamGuard: the CPU has only its default stream, got ", stream);
    return;
  }
  ST_CHECK(stream.device_index() >= 0, "StreamGuard: ", stream, " has no device index");
  original_stream_ = runtime_->current_stream(stream.device_index());
  runtime_->set_current_stream(stream);
}

StreamGuard::~StreamGuard() {
  if (runtime_ != nullptr) runtime_->set_current_stream_noexcept(original_stream_);
}

}  // namespace st
