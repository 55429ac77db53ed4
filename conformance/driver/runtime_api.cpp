#include "runtime_api.h"

#include <dlfcn.h>

#include <cstring>
#include <utility>

namespace conformance {
namespace {

template <typename Fn>
bool bind(void* library, const char* name, Fn& out) {
  void* symbol = dlsym(library, name);
  if (symbol == nullptr) return false;
  // A data pointer from dlsym becomes a function pointer: copy the bits
  // instead of casting between the two pointer kinds.
  static_assert(sizeof(symbol) == sizeof(out), "function and data pointers differ in size");
  std::memcpy(&out, &symbol, sizeof(out));
  return true;
}

// The dtype functions both runtimes export, by the names cases use.
const std::pair<const char*, const char*> kDtypes[] = {
    {"f32", "aoti_torch_dtype_float32"},
    {"f64", "aoti_torch_dtype_float64"},
    {"f16", "aoti_torch_dtype_float16"},
    {"bf16", "aoti_torch_dtype_bfloat16"},
    {"i64", "aoti_torch_dtype_int64"},
    {"i32", "aoti_torch_dtype_int32"},
    {"i16", "aoti_torch_dtype_int16"},
    {"i8", "aoti_torch_dtype_int8"},
    {"u8", "aoti_torch_dtype_uint8"},
    {"b", "aoti_torch_dtype_bool"},
    {"c64", "aoti_torch_dtype_complex64"},
    {"c128", "aoti_torch_dtype_complex128"},
    {"f8e8m0", "aoti_torch_dtype_float8_e8m0fnu"},
    {"f4x2", "aoti_torch_dtype_float4_e2m1fn_x2"},
};

}  // namespace

std::string resolve_runtime_api(void* library, RuntimeApi& api) {
#define CONFORMANCE_BIND_(field, name) \
  if (!bind(library, name, api.field)) return name
  CONFORMANCE_BIND_(call_dispatcher, "aoti_torch_call_dispatcher");
  CONFORMANCE_BIND_(empty_strided, "aoti_torch_empty_strided");
  CONFORMANCE_BIND_(reinterpret_tensor, "aoti_torch__reinterpret_tensor");
  CONFORMANCE_BIND_(delete_tensor, "aoti_torch_delete_tensor_object");
  CONFORMANCE_BIND_(new_tensor_handle, "aoti_torch_new_tensor_handle");
  CONFORMANCE_BIND_(is_defined, "aoti_torch_is_defined");
  CONFORMANCE_BIND_(get_data_ptr, "aoti_torch_get_data_ptr");
  CONFORMANCE_BIND_(get_dim, "aoti_torch_get_dim");
  CONFORMANCE_BIND_(get_sizes, "aoti_torch_get_sizes");
  CONFORMANCE_BIND_(get_strides, "aoti_torch_get_strides");
  CONFORMANCE_BIND_(get_dtype, "aoti_torch_get_dtype");
  CONFORMANCE_BIND_(get_storage_offset, "aoti_torch_get_storage_offset");
  CONFORMANCE_BIND_(new_list, "torch_new_list_reserve_size");
  CONFORMANCE_BIND_(list_push_back, "torch_list_push_back");
  CONFORMANCE_BIND_(list_size, "torch_list_size");
  CONFORMANCE_BIND_(list_get_item, "torch_list_get_item");
  CONFORMANCE_BIND_(delete_list, "torch_delete_list");
  CONFORMANCE_BIND_(new_string, "torch_new_string_handle");
  CONFORMANCE_BIND_(string_length, "torch_string_length");
  CONFORMANCE_BIND_(string_c_str, "torch_string_c_str");
  CONFORMANCE_BIND_(delete_string, "torch_delete_string");
  CONFORMANCE_BIND_(new_stable_ivalue, "torch_new_stable_ivalue");
  CONFORMANCE_BIND_(delete_stable_ivalue, "torch_delete_stable_ivalue");
  CONFORMANCE_BIND_(device_type_cpu, "aoti_torch_device_type_cpu");
  CONFORMANCE_BIND_(layout_strided, "aoti_torch_layout_strided");
  CONFORMANCE_BIND_(memory_format_contiguous, "aoti_torch_memory_format_contiguous_format");
  CONFORMANCE_BIND_(memory_format_preserve, "aoti_torch_memory_format_preserve_format");
  CONFORMANCE_BIND_(memory_format_channels_last, "aoti_torch_memory_format_channels_last");
#undef CONFORMANCE_BIND_
  bind(library, "torch_call_dispatcher", api.call_dispatcher_v);
  bind(library, "torch_exception_get_what_without_backtrace", api.exception_what);
  bind(library, "torch_get_num_threads", api.get_num_threads);
  bind(library, "torch_delete_generator", api.delete_generator);
  bind(library, "stabletorch_new_generator", api.new_generator);
  bind(library, "_ZN2at6detail18createCPUGeneratorEm", api.create_cpu_generator);
  bind(library, "aoti_torch_library_init_def", api.library_init_def);
  bind(library, "aoti_torch_library_init_impl", api.library_init_impl);
  bind(library, "aoti_torch_library_def", api.library_def);
  bind(library, "aoti_torch_library_impl", api.library_impl);
  bind(library, "aoti_torch_delete_library_object", api.delete_library);
  bind(library, "stabletorch_load_library", api.load_library);
  bind(library, "stabletorch_unload_library", api.unload_library);
  return "";
}

bool dtype_code(void* library, const std::string& name, int32_t& code) {
  for (const auto& [short_name, function] : kDtypes) {
    if (name != short_name) continue;
    int32_t (*getter)() = nullptr;
    if (!bind(library, function, getter)) return false;
    code = getter();
    return true;
  }
  return false;
}

std::string dtype_name(void* library, int32_t code) {
  for (const auto& [short_name, function] : kDtypes) {
    int32_t (*getter)() = nullptr;
    if (bind(library, function, getter) && getter() == code) return short_name;
  }
  return "dtype" + std::to_string(code);
}

}  // namespace conformance
