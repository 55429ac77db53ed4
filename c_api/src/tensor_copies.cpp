// Copies through the dispatcher (aten::copy_, aten::clone, aten::zero_) and
// clone_preserve_strides (a copy of self's whole strided extent).
#include <st/core/checked_arithmetic.h>
#include <st/core/empty_tensor.h>
#include <st/dispatch/dispatcher.h>
#include <st/native/copy.h>
#include <st/native/view_ops.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>

#include "error_state.h"
#include "handle_types.h"

namespace {

// Calls an aten operator by name with a boxed stack; returns the stack.
st::Stack call_aten(const char* name, const char* overload, st::Stack stack) {
  st::OperatorHandle op = st::Dispatcher::singleton().findSchemaOrThrow(name, overload);
  op.callBoxed(&stack);
  return stack;
}

st::Tensor single_tensor_return(st::Stack stack, const char* op) {
  ST_CHECK(stack.size() == 1 && stack[0].isTensor(), op, " returned an unexpected stack of size ",
           stack.size());
  return std::move(stack[0]).toTensor();
}

void copy_(const st::Tensor& self, const st::Tensor& src, bool non_blocking) {
  // aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)
  call_aten("aten::copy_", "", {st::IValue(self), st::IValue(src), st::IValue(non_blocking)});
}

}  // namespace

using stc::check_out;
using stc::defined_tensor_of;

extern "C" {

AOTITorchError aoti_torch_tensor_copy_(AtenTensorHandle src, AtenTensorHandle dst) {
  STC_API_BEGIN
  copy_(defined_tensor_of(dst, "dst"), defined_tensor_of(src, "src"), false);
  STC_API_END
}

AOTITorchError aoti_torch_copy_(AtenTensorHandle self, AtenTensorHandle src, int32_t non_blocking) {
  STC_API_BEGIN
  copy_(defined_tensor_of(self, "self"), defined_tensor_of(src, "src"), non_blocking != 0);
  STC_API_END
}

AOTITorchError aoti_torch_clone(AtenTensorHandle self, AtenTensorHandle* ret) {
  STC_API_BEGIN
  check_out(ret, "ret");
  // aten::clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor
  st::Stack out =
      call_aten("aten::clone", "", {st::IValue(defined_tensor_of(self, "self")), st::IValue()});
  *ret = stc::new_tensor_handle(single_tensor_return(std::move(out), "aten::clone"));
  STC_API_END
}

AOTITorchError aoti_torch_clone_preserve_strides(AtenTensorHandle self, AtenTensorHandle* ret) {
  STC_API_BEGIN
  check_out(ret, "ret");
  const st::Tensor& t = defined_tensor_of(self, "self");
  const size_t itemsize = static_cast<size_t>(t.element_size());
  const int64_t extent = static_cast<int64_t>(
      st::checked_storage_nbytes(t.sizes(), t.strides(), itemsize, 0, "clone_preserve_strides") /
      itemsize);
  // Copy the whole range self's strides reach (gaps included), then view
  // it with self's sizes and strides at offset 0.
  const int64_t one = 1;
  st::Tensor buffer = st::detail::empty_strided_generic(
      st::IntArrayRef(&extent, 1), st::IntArrayRef(&one, 1), t.scalar_type(), t.device());
  if (extent > 0) {
    st::native::copy_same_dtype_(
        buffer, st::native::as_strided(t, st::IntArrayRef(&extent, 1), st::IntArrayRef(&one, 1),
                                       t.storage_offset()));
  }
  *ret = stc::new_tensor_handle(st::native::as_strided(buffer, t.sizes(), t.strides(), 0));
  STC_API_END
}

AOTITorchError aoti_torch_zero_(AtenTensorHandle self) {
  STC_API_BEGIN
  // aten::zero_(Tensor(a!) self) -> Tensor(a!)
  call_aten("aten::zero_", "", {st::IValue(defined_tensor_of(self, "self"))});
  STC_API_END
}

}  // extern "C"
