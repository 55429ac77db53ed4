// Device guards and streams, device-generic.
//
// Note [Device guards in a CPU-only core]
// PyTorch's guard and stream functions act on the current accelerator. This
// core has no accelerator runtime (no CUDA/XPU/MPS backend), so, like a
// c10::DeviceGuard on a CPU device:
//   - create_device_guard / device_guard_set_index accept index -1 or 0
//     (the one CPU device) and do nothing; any other index fails naming the
//     index;
//   - get_current_device_index reports -1 (the CPU has no index);
//   - get_current_stream(-1 or 0) returns the CPU's default stream, id 0
//     (c10's default stream id); other indices fail.
// When an accelerator backend arrives, these functions switch to its
// device runtime; the exported set does not change.
#include <st/core/device.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>

#include "error_state.h"
#include "handle_types.h"

namespace {

constexpr int32_t kCpu = static_cast<int32_t>(torch::headeronly::DeviceType::CPU);

void check_index(int32_t device_index) {
  ST_CHECK(device_index == -1 || device_index == 0, "device_index: ", device_index,
           " is not a valid device: this core has no accelerator, only the CPU (index -1 or 0)");
}

}  // namespace

extern "C" {

AOTITorchError aoti_torch_create_device_guard(int32_t device_index, DeviceGuardHandle* ret_guard) {
  STC_API_BEGIN
  stc::check_out(ret_guard, "ret_guard");
  check_index(device_index);
  *ret_guard = stc::to_handle<DeviceGuardHandle>(
      stc::make_handle<stc::DeviceGuardState>(stc::DeviceGuardState{kCpu, -1, device_index}));
  STC_API_END
}

AOTITorchError aoti_torch_delete_device_guard(DeviceGuardHandle guard) {
  STC_API_BEGIN
  if (guard == nullptr) return AOTI_TORCH_SUCCESS;
  stc::destroy<stc::DeviceGuardState>(guard, "guard");
  STC_API_END
}

AOTITorchError aoti_torch_device_guard_set_index(DeviceGuardHandle guard, int32_t device_index) {
  STC_API_BEGIN
  stc::DeviceGuardState& g = stc::get<stc::DeviceGuardState>(guard, "guard");
  check_index(device_index);
  g.current_index = device_index;
  STC_API_END
}

AOTITorchError aoti_torch_delete_stream(StreamHandle stream) {
  STC_API_BEGIN
  if (stream == nullptr) return AOTI_TORCH_SUCCESS;
  stc::destroy<stc::StreamState>(stream, "stream");
  STC_API_END
}

AOTITorchError aoti_torch_stream_id(StreamHandle stream, int64_t* ret_stream_id) {
  STC_API_BEGIN
  stc::check_out(ret_stream_id, "ret_stream_id");
  *ret_stream_id = stc::get<stc::StreamState>(stream, "stream").id;
  STC_API_END
}

AOTITorchError aoti_torch_get_current_stream(int32_t device_index, StreamHandle* ret_stream) {
  STC_API_BEGIN
  stc::check_out(ret_stream, "ret_stream");
  check_index(device_index);
  *ret_stream = stc::to_handle<StreamHandle>(
      stc::make_handle<stc::StreamState>(stc::StreamState{kCpu, -1, 0}));
  STC_API_END
}

AOTITorchError aoti_torch_get_current_device_index(int32_t* ret_device_index) {
  STC_API_BEGIN
  stc::check_out(ret_device_index, "ret_device_index");
  *ret_device_index = -1;
  STC_API_END
}

}  // extern "C"
