// The CUDA functions of the C ABI in a core built without CUDA: every one
// is exported (the exported set never depends on build flags) and fails
// with "this core was built without CUDA", so a CUDA extension loads
// everywhere and fails cleanly when it tries to use the GPU.
#include <cstdlib>

#include <st/core/error.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>

#include "error_state.h"

namespace {
[[noreturn]] void no_cuda() { ST_ERROR("this core was built without CUDA"); }
}  // namespace

#define STC_NO_CUDA_BODY \
  STC_API_BEGIN          \
  no_cuda();             \
  STC_API_END

// The delete functions keep the rule of every delete (handle_registry.h):
// NULL is a harmless no-op; anything else cannot have come from this core.
#define STC_NO_CUDA_DELETE_BODY(p) \
  STC_API_BEGIN                    \
  if (p != nullptr) no_cuda();     \
  STC_API_END

extern "C" {

AOTITorchError aoti_torch_create_cuda_guard(int32_t, CUDAGuardHandle*){
    STC_NO_CUDA_BODY} AOTITorchError aoti_torch_delete_cuda_guard(CUDAGuardHandle guard){
    STC_NO_CUDA_DELETE_BODY(guard)} AOTITorchError
    aoti_torch_cuda_guard_set_index(CUDAGuardHandle, int32_t){STC_NO_CUDA_BODY} AOTITorchError
    aoti_torch_create_cuda_stream_guard(void*, int32_t,
                                        CUDAStreamGuardHandle*){STC_NO_CUDA_BODY} AOTITorchError
    aoti_torch_delete_cuda_stream_guard(CUDAStreamGuardHandle guard){
        STC_NO_CUDA_DELETE_BODY(guard)} AOTITorchError
    aoti_torch_get_current_cuda_stream(int32_t, void**){STC_NO_CUDA_BODY} AOTITorchError
    aoti_torch_cuda_caching_allocator_raw_alloc(uint64_t, void**){STC_NO_CUDA_BODY} AOTITorchError
    aoti_torch_cuda_caching_allocator_raw_delete(void* ptr){STC_NO_CUDA_DELETE_BODY(ptr)}

AOTITorchError torch_get_current_cuda_blas_handle(void**){STC_NO_CUDA_BODY} AOTITorchError
    torch_set_current_cuda_stream(void*, int32_t){STC_NO_CUDA_BODY} AOTITorchError
    torch_get_cuda_stream_from_pool(bool, int32_t, void**){STC_NO_CUDA_BODY} AOTITorchError
    torch_cuda_stream_synchronize(void*, int32_t){STC_NO_CUDA_BODY} AOTITorchError
    torch_c10_cuda_check_msg(int32_t, const char*, const char*, uint32_t, bool, char**) {
  STC_NO_CUDA_BODY
}
// Frees a message from torch_c10_cuda_check_msg (none exist here); NULL is
// a no-op. Returns nothing, as PyTorch's.
void torch_c10_cuda_free_error_msg(char* error_msg) { std::free(error_msg); }

}  // extern "C"

#undef STC_NO_CUDA_BODY
#undef STC_NO_CUDA_DELETE_BODY
