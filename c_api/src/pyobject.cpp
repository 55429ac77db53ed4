// torch_*_pyobject: Python objects <-> handles and codes, through the
// converters the stabletorch Python module registers with the core (Note
// [Python object converters] in st/core/pyobject_converters.h). This
// library never links Python: with no converters registered every function
// fails, saying what to import.
#include <st/core/error.h>
#include <st/core/pyobject_converters.h>
#include <torch/csrc/stable/c/shim.h>

#include "abi_codes.h"
#include "error_state.h"
#include "handle_types.h"

namespace {

const st::PyObjectConverters& converters() {
  const st::PyObjectConverters* c = st::pyobject_converters();
  ST_CHECK(c != nullptr,
           "no Python object converters are registered in this process: they come with the "
           "stabletorch Python module, so `import stabletorch` must have run first");
  return *c;
}

void check_object(const void* py_obj) { ST_CHECK(py_obj != nullptr, "py_obj: is NULL"); }

}  // namespace

extern "C" {

// Declared in version blocks newer than these headers' own level, so the
// declarations are not visible here: the definitions export themselves.

AOTI_TORCH_EXPORT AOTITorchError torch_tensor_from_pyobject(void* py_obj, AtenTensorHandle* ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  check_object(py_obj);
  st::Tensor t = converters().tensor_from(py_obj);
  *ret = stc::new_tensor_handle(std::move(t));
  STC_API_END
}

AOTI_TORCH_EXPORT AOTITorchError torch_tensor_to_pyobject(AtenTensorHandle ath, void* py_type,
                                                          void** ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  const st::Tensor& t = stc::tensor_of(ath, "ath");
  *ret = converters().tensor_to(t, py_type);
  STC_API_END
}

AOTI_TORCH_EXPORT AOTITorchError torch_is_tensor_pyobject(void* py_obj, bool* ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  check_object(py_obj);
  *ret = converters().is_tensor(py_obj);
  STC_API_END
}

AOTI_TORCH_EXPORT AOTITorchError torch_dtype_from_pyobject(void* py_obj, int32_t* ret_dtype) {
  STC_API_BEGIN
  stc::check_out(ret_dtype, "ret_dtype");
  check_object(py_obj);
  *ret_dtype = static_cast<int32_t>(converters().dtype_from(py_obj));
  STC_API_END
}

AOTI_TORCH_EXPORT AOTITorchError torch_dtype_to_pyobject(int32_t dtype, void** ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  const st::ScalarType t = stc::dtype_from_code(dtype, "dtype");
  *ret = converters().dtype_to(t);
  STC_API_END
}

AOTI_TORCH_EXPORT AOTITorchError torch_device_from_pyobject(void* py_obj, int32_t* ret_device_type,
                                                            int32_t* ret_device_index) {
  STC_API_BEGIN
  stc::check_out(ret_device_type, "ret_device_type");
  stc::check_out(ret_device_index, "ret_device_index");
  check_object(py_obj);
  const st::Device d = converters().device_from(py_obj);
  *ret_device_type = static_cast<int32_t>(d.type());
  *ret_device_index = d.has_index() ? static_cast<int32_t>(d.index()) : -1;
  STC_API_END
}

AOTI_TORCH_EXPORT AOTITorchError torch_device_to_pyobject(int32_t device_type, int32_t device_index,
                                                          void** ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  const st::Device d = stc::device_from_codes(device_type, device_index, "device_type");
  *ret = converters().device_to(d);
  STC_API_END
}

}  // extern "C"
