// Device guards and streams, device-generic.
//
// Note [Device guards and the current accelerator]
// PyTorch's guard and stream functions act on the current accelerator. Ours
// act on st::current_accelerator() (core/include/st/device/accelerator.h):
// CUDA when its runtime finds a GPU, else a registered PrivateUse1 backend
// (the host test backend in the tests), through that type's DeviceRuntime:
//   - create_device_guard makes the device current on the calling thread and
//     deleting the guard restores the previous one (delete it on the thread
//     that created it, as a C++ guard); index -1 keeps the current device;
//   - get_current_device_index reports the thread's current device;
//   - get_current_stream(index) reports the current stream of that device
//     (-1: the current device), a snapshot: later stream changes do not
//     alter a handle already returned.
// Without an accelerator they behave as c10's guards on the CPU: index -1
// or 0 (the one CPU device) is accepted and nothing changes; any other index
// fails naming the index; the current device index is -1; the current
// stream is the CPU's default stream, id 0.
#include <st/device/accelerator.h>
#include <st/device/device_runtime.h>
#include <st/device/stream.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>

#include "error_state.h"
#include "handle_types.h"

namespace {

constexpr int32_t kCpu = static_cast<int32_t>(torch::headeronly::DeviceType::CPU);

void check_cpu_index(int32_t device_index) {
  ST_CHECK(device_index == -1 || device_index == 0, "device_index: ", device_index,
           " is not a valid device: this core has no accelerator, only the CPU (index -1 or 0)");
}

// The index as a DeviceIndex, range-checked for the accelerator's runtime.
st::DeviceIndex accelerator_index(st::DeviceType type, int32_t device_index) {
  ST_CHECK(device_index >= -1 && device_index <= 127, "device_index: ", device_index,
           " is not a valid device index (expected -1 or 0 to ",
           static_cast<int>(st::device_count(type)) - 1, ")");
  const auto index = static_cast<st::DeviceIndex>(device_index);
  if (index != -1) st::check_device_index(type, index, "device_index");
  return index;
}

}  // namespace

extern "C" {

AOTITorchError aoti_torch_create_device_guard(int32_t device_index, DeviceGuardHandle* ret_guard) {
  STC_API_BEGIN
  stc::check_out(ret_guard, "ret_guard");
  const std::optional<st::DeviceType> accel = st::current_accelerator();
  if (!accel) {
    check_cpu_index(device_index);
    *ret_guard = stc::to_handle<DeviceGuardHandle>(stc::make_handle<stc::DeviceGuardState>());
  } else {
    const st::Device device(*accel, accelerator_index(*accel, device_index));
    *ret_guard = stc::to_handle<DeviceGuardHandle>(stc::make_handle<stc::DeviceGuardState>(device));
  }
  STC_API_END
}

AOTITorchError aoti_torch_delete_device_guard(DeviceGuardHandle guard) {
  STC_API_BEGIN
  stc::destroy<stc::DeviceGuardState>(guard, "guard");
  STC_API_END
}

AOTITorchError aoti_torch_device_guard_set_index(DeviceGuardHandle guard, int32_t device_index) {
  STC_API_BEGIN
  stc::DeviceGuardState& g = stc::get<stc::DeviceGuardState>(guard, "guard");
  if (!g.guard) {
    check_cpu_index(device_index);
  } else {
    const st::DeviceType type = g.guard->current_device().type();
    g.guard->set_index(accelerator_index(type, device_index));
  }
  STC_API_END
}

AOTITorchError aoti_torch_delete_stream(StreamHandle stream) {
  STC_API_BEGIN
  stc::destroy<stc::StreamState>(stream, "stream");
  STC_API_END
}

AOTITorchError aoti_torch_stream_id(StreamHandle stream, int64_t* ret_stream_id) {
  STC_API_BEGIN
  stc::check_out(ret_stream_id, "ret_stream_id");
  *ret_stream_id = stc::get<stc::StreamState>(stream, "stream").id;
  STC_API_END
}

// A CPU stream has no native handle: the core says so
// (st::native_stream_handle), as c10 does.
AOTITorchError torch_stream_native_handle(StreamHandle stream, void** ret_native_handle) {
  STC_API_BEGIN
  const stc::StreamState& s = stc::get<stc::StreamState>(stream, "stream");
  stc::check_out(ret_native_handle, "ret_native_handle");
  const st::Stream core_stream(st::Device(static_cast<st::DeviceType>(s.device_type),
                                          static_cast<st::DeviceIndex>(s.device_index)),
                               s.id);
  *ret_native_handle = st::native_stream_handle(core_stream);
  STC_API_END
}

AOTITorchError aoti_torch_get_current_stream(int32_t device_index, StreamHandle* ret_stream) {
  STC_API_BEGIN
  stc::check_out(ret_stream, "ret_stream");
  const std::optional<st::DeviceType> accel = st::current_accelerator();
  stc::StreamState state{kCpu, -1, 0};
  if (!accel) {
    check_cpu_index(device_index);
  } else {
    const st::Stream s =
        st::current_stream(st::Device(*accel, accelerator_index(*accel, device_index)));
    state = stc::StreamState{static_cast<int32_t>(s.device_type()), s.device_index(), s.id()};
  }
  *ret_stream = stc::to_handle<StreamHandle>(stc::make_handle<stc::StreamState>(state));
  STC_API_END
}

AOTITorchError aoti_torch_get_current_device_index(int32_t* ret_device_index) {
  STC_API_BEGIN
  stc::check_out(ret_device_index, "ret_device_index");
  const std::optional<st::DeviceType> accel = st::current_accelerator();
  *ret_device_index = accel ? st::get_device_runtime(*accel).current_device() : -1;
  STC_API_END
}

}  // extern "C"
