// The CUDA functions of the C ABI in a core built with the CUDA backend
// (cuda_stubs.cpp replaces this file in a core built without it; the
// exported set is the same). Each acts on the backend's runtime: guards and
// stream guards restore what they changed when deleted (on the thread that
// made them), streams are the runtime's (Note [CUDA stream ids] in
// core/src/cuda/cuda_runtime.h), memory comes from the caching allocator.
// Each loads the CUDA backend module on first use (st/cuda/cuda_backend.h)
// and fails with "CUDA is not available: <why>" when it cannot be loaded.
// Without a GPU every function except the error-message pair fails with
// "no cuda device is available".
#include <cstdlib>
#include <cstring>
#include <memory>

#include <st/core/error.h>
#include <st/cuda/cuda_backend.h>
#include <st/device/device_guard.h>
#include <st/device/device_runtime.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>

#include "error_state.h"
#include "handle_types.h"

namespace {

constexpr st::DeviceType kCuda = st::DeviceType::CUDA;

// A CUDA device from a C index; -1 is the current device.
st::Device cuda_device(int32_t device_index) {
  st::cuda::load_backend();
  ST_CHECK(st::device_count(kCuda) > 0, "no cuda device is available (device_index ", device_index,
           " requested)");
  ST_CHECK(device_index >= -1 && device_index <= 127, "device_index: ", device_index,
           " is not a valid device index");
  const auto index = static_cast<st::DeviceIndex>(device_index);
  if (index != -1) st::check_device_index(kCuda, index, "device_index");
  return st::Device(kCuda, index);
}

st::DeviceIndex concrete(int32_t device_index) {
  const st::Device d = cuda_device(device_index);
  return d.index() == -1 ? st::get_device_runtime(kCuda).current_device() : d.index();
}

}  // namespace

extern "C" {

AOTITorchError aoti_torch_create_cuda_guard(int32_t device_index, CUDAGuardHandle* ret_guard) {
  STC_API_BEGIN
  stc::check_out(ret_guard, "ret_guard");
  *ret_guard = stc::to_handle<CUDAGuardHandle>(
      stc::make_handle<stc::CudaGuardState>(cuda_device(device_index)));
  STC_API_END
}

AOTITorchError aoti_torch_delete_cuda_guard(CUDAGuardHandle guard) {
  STC_API_BEGIN
  stc::destroy<stc::CudaGuardState>(guard, "guard");
  STC_API_END
}

AOTITorchError aoti_torch_cuda_guard_set_index(CUDAGuardHandle guard, int32_t device_index) {
  STC_API_BEGIN
  stc::CudaGuardState& g = stc::get<stc::CudaGuardState>(guard, "guard");
  g.guard.set_index(cuda_device(device_index).index());
  STC_API_END
}

AOTITorchError aoti_torch_create_cuda_stream_guard(void* stream, int32_t device_index,
                                                   CUDAStreamGuardHandle* ret_guard) {
  STC_API_BEGIN
  stc::check_out(ret_guard, "ret_guard");
  const st::Stream s = st::cuda::stream_from_native(stream, concrete(device_index));
  auto guard = std::make_unique<st::StreamGuard>(s);
  *ret_guard = stc::to_handle<CUDAStreamGuardHandle>(
      stc::make_handle<stc::CudaStreamGuardState>(stc::CudaStreamGuardState{std::move(guard)}));
  STC_API_END
}

AOTITorchError aoti_torch_delete_cuda_stream_guard(CUDAStreamGuardHandle guard) {
  STC_API_BEGIN
  stc::destroy<stc::CudaStreamGuardState>(guard, "guard");
  STC_API_END
}

AOTITorchError aoti_torch_get_current_cuda_stream(int32_t device_index, void** ret_stream) {
  STC_API_BEGIN
  stc::check_out(ret_stream, "ret_stream");
  *ret_stream =
      st::native_stream_handle(st::current_stream(st::Device(kCuda, concrete(device_index))));
  STC_API_END
}

AOTITorchError aoti_torch_cuda_caching_allocator_raw_alloc(uint64_t nbytes, void** ret_ptr) {
  STC_API_BEGIN
  stc::check_out(ret_ptr, "ret_ptr");
  cuda_device(-1);  // a device must exist
  *ret_ptr = st::cuda::caching_allocator().raw_allocate(static_cast<size_t>(nbytes));
  STC_API_END
}

AOTITorchError aoti_torch_cuda_caching_allocator_raw_delete(void* ptr) {
  STC_API_BEGIN
  if (ptr == nullptr) return AOTI_TORCH_SUCCESS;
  st::cuda::caching_allocator().raw_delete(ptr);
  STC_API_END
}

AOTITorchError torch_get_current_cuda_blas_handle(void** ret_handle) {
  STC_API_BEGIN
  stc::check_out(ret_handle, "ret_handle");
  cuda_device(-1);
  *ret_handle = st::cuda::current_blas_handle();
  STC_API_END
}

AOTITorchError torch_set_current_cuda_stream(void* stream, int32_t device_index) {
  STC_API_BEGIN
  st::set_current_stream(st::cuda::stream_from_native(stream, concrete(device_index)));
  STC_API_END
}

AOTITorchError torch_get_cuda_stream_from_pool(bool isHighPriority, int32_t device_index,
                                               void** ret_stream) {
  STC_API_BEGIN
  stc::check_out(ret_stream, "ret_stream");
  *ret_stream = st::native_stream_handle(
      st::stream_from_pool(st::Device(kCuda, concrete(device_index)), isHighPriority));
  STC_API_END
}

AOTITorchError torch_cuda_stream_synchronize(void* stream, int32_t device_index) {
  STC_API_BEGIN
  st::synchronize_stream(st::cuda::stream_from_native(stream, concrete(device_index)));
  STC_API_END
}

// *error_msg: null for cudaSuccess, else a new message (free it with
// torch_c10_cuda_free_error_msg). Needs no device.
AOTITorchError torch_c10_cuda_check_msg(int32_t err, const char* filename, const char* func_name,
                                        uint32_t line_number, bool include_device_assertions,
                                        char** error_msg) {
  STC_API_BEGIN
  stc::check_out(error_msg, "error_msg");
  *error_msg = nullptr;
  const std::string msg =
      st::cuda::check_message(err, filename, func_name, line_number, include_device_assertions);
  if (!msg.empty()) {
    char* out = static_cast<char*>(std::malloc(msg.size() + 1));
    ST_CHECK(out != nullptr, "error_msg: out of memory");
    std::memcpy(out, msg.c_str(), msg.size() + 1);
    *error_msg = out;
  }
  STC_API_END
}

// Frees a message from torch_c10_cuda_check_msg; NULL is a no-op.
void torch_c10_cuda_free_error_msg(char* error_msg) { std::free(error_msg); }

}  // extern "C"
