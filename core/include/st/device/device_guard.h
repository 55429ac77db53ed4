// Guards: make a device (or a stream) current for a scope, restore the
// previous one when the scope ends. Both are device-generic: they act
// through the device type's DeviceRuntime. On the CPU and on Meta they do
// nothing, as c10's guards.
#pragma once

#include <st/core/device.h>
#include <st/core/export.h>
#include <st/device/stream.h>

namespace st {

class DeviceRuntime;

class ST_API DeviceGuard {
 public:
  // Makes `device` current. Index -1 keeps the current device (the guard
  // still restores it). Throws st::Error for an index out of range or a
  // device type without a runtime (other than CPU and Meta).
  explicit DeviceGuard(Device device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

  // Switches to another device of the same type (index -1: no change).
  // Throws for another device type or an index out of range.
  void set_index(DeviceIndex index);
  // The device current when the guard was made, and the one it set.
  Device original_device() const noexcept { return Device(type_, original_); }
  Device current_device() const noexcept { return Device(type_, current_); }

 private:
  DeviceRuntime* runtime_;  // null: no-op guard (CPU, Meta)
  DeviceType type_;
  DeviceIndex original_;
  DeviceIndex current_;
};

class ST_API StreamGuard {
 public:
  // Makes the stream's device current and the stream current on it; on
  // destruction restores that device's previous stream and the previous
  // device. Throws st::Error for a stream of a type without a runtime or a
  // device out of range.
  explicit StreamGuard(const Stream& stream);
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

  Stream original_stream() const noexcept { return original_stream_; }
  Stream current_stream() const noexcept { return current_stream_; }

 private:
  DeviceGuard device_guard_;
  DeviceRuntime* runtime_;  // null on the CPU
  Stream original_stream_;
  Stream current_stream_;
};

}  // namespace st
