// Tensor handle lifetime: delete, new reference, undefined tensor, assign.
#include <torch/csrc/inductor/aoti_torch/c/shim.h>

#include "error_state.h"
#include "handle_types.h"

namespace stc {

st::Tensor& defined_tensor_of(AtenTensorHandle h, const char* what) {
  st::Tensor& t = tensor_of(h, what);
  ST_CHECK(t.defined(), what, ": the tensor is undefined");
  return t;
}

}  // namespace stc

using stc::check_out;
using stc::new_tensor_handle;
using stc::tensor_of;

namespace {

// The full paths behind the exported functions' fast paths (Note [Leaf
// fast paths] in handle_registry.h): every check, every error, named as
// the exported function.
__attribute__((noinline)) AOTITorchError delete_tensor_slow(AtenTensorHandle tensor) noexcept {
  STC_API_BEGIN
  stc::destroy<st::Tensor>(tensor, "tensor");
  STC_API_END_AS("aoti_torch_delete_tensor_object")
}

__attribute__((noinline)) AOTITorchError new_tensor_handle_slow(
    AtenTensorHandle orig_handle, AtenTensorHandle* new_handle) noexcept {
  STC_API_BEGIN
  check_out(new_handle, "new_handle");
  *new_handle = new_tensor_handle(tensor_of(orig_handle, "orig_handle"));
  STC_API_END_AS("aoti_torch_new_tensor_handle")
}

}  // namespace

extern "C" {

AOTITorchError aoti_torch_delete_tensor_object(AtenTensorHandle tensor) {
  if (__builtin_expect(stc::destroy_if_live<st::Tensor>(tensor), 1)) return AOTI_TORCH_SUCCESS;
  return delete_tensor_slow(tensor);
}

AOTITorchError aoti_torch_new_tensor_handle(AtenTensorHandle orig_handle,
                                            AtenTensorHandle* new_handle) {
  if (__builtin_expect(new_handle != nullptr, 1)) {
    if (stc::Slot* src = stc::live_slot(orig_handle, stc::HandleKind::Tensor)) {
      if (stc::Slot* s = stc::allocate_slot_fast()) {
        new (s->payload) st::Tensor(stc::payload<st::Tensor>(src));
        *new_handle = stc::to_handle<AtenTensorHandle>(stc::publish(s, stc::HandleKind::Tensor));
        return AOTI_TORCH_SUCCESS;
      }
    }
  }
  return new_tensor_handle_slow(orig_handle, new_handle);
}

AOTITorchError aoti_torch_new_uninitialized_tensor(AtenTensorHandle* ret) {
  STC_API_BEGIN
  check_out(ret, "ret");
  *ret = new_tensor_handle(st::Tensor());
  STC_API_END
}

AOTITorchError aoti_torch_assign_tensors(AtenTensorHandle src, AtenTensorHandle dst) {
  STC_API_BEGIN
  const st::Tensor& s = tensor_of(src, "src");
  st::Tensor& d = tensor_of(dst, "dst");
  d = s;
  STC_API_END
}

AOTITorchError aoti_torch_assign_tensors_out(AtenTensorHandle src, AtenTensorHandle* ret_dst) {
  STC_API_BEGIN
  check_out(ret_dst, "ret_dst");
  *ret_dst = new_tensor_handle(tensor_of(src, "src"));
  STC_API_END
}

}  // extern "C"
