// st::Stream: a queue of work on one device, named by the device and an id
// its device runtime understands. A value type; what the id means (a CUDA
// stream pointer, a counter of the host test backend) is the runtime's
// business, so Streams are compared and copied, never dereferenced here.
#pragma once

#include <cstdint>
#include <ostream>

#include <st/core/device.h>
#include <st/core/export.h>

namespace st {

using StreamId = int64_t;

class ST_API Stream {
 public:
  // Every device's default stream has id 0 (as c10's).
  static constexpr StreamId kDefaultId = 0;

  Stream(Device device, StreamId id) noexcept : device_(device), id_(id) {}

  Device device() const noexcept { return device_; }
  DeviceType device_type() const noexcept { return device_.type(); }
  DeviceIndex device_index() const noexcept { return device_.index(); }
  StreamId id() const noexcept { return id_; }
  bool is_default() const noexcept { return id_ == kDefaultId; }

  bool operator==(const Stream& o) const noexcept { return device_ == o.device_ && id_ == o.id_; }
  bool operator!=(const Stream& o) const noexcept { return !(*this == o); }

 private:
  Device device_;
  StreamId id_;
};

// "stream 3 on privateuseone:1".
ST_API std::ostream& operator<<(std::ostream& os, const Stream& stream);

}  // namespace st
