// StringHandle: an owned byte string (schema `str`), may hold NULs.
#include <string>

#include <torch/csrc/stable/c/shim.h>

#include "error_state.h"
#include "handle_types.h"

extern "C" {

AOTITorchError torch_new_string_handle(const char* data, size_t length, StringHandle* handle) {
  STC_API_BEGIN
  stc::check_out(handle, "handle");
  ST_CHECK(data != nullptr || length == 0, "data: null pointer with length ", length);
  std::string s = data != nullptr ? std::string(data, length) : std::string();
  *handle = stc::to_handle<StringHandle>(stc::make_handle<std::string>(std::move(s)));
  STC_API_END
}

AOTITorchError torch_delete_string(StringHandle handle) {
  STC_API_BEGIN
  stc::destroy<std::string>(handle, "handle");
  STC_API_END
}

AOTITorchError torch_string_length(StringHandle handle, size_t* length) {
  STC_API_BEGIN
  stc::check_out(length, "length");
  *length = stc::get<std::string>(handle, "handle").size();
  STC_API_END
}

AOTITorchError torch_string_c_str(StringHandle handle, const char** data) {
  STC_API_BEGIN
  stc::check_out(data, "data");
  *data = stc::get<std::string>(handle, "handle").c_str();
  STC_API_END
}

}  // extern "C"
