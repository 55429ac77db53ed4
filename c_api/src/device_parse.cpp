// torch_parse_device_string: "cpu", "cuda:1", "privateuseone:0", ... into a
// device-type code and index (-1 when the string has none). The core's
// parser does the work; "cpu:0" keeps its explicit index 0, as c10 does.
#include <cstring>
#include <string>

#include <st/core/device.h>
#include <torch/csrc/stable/c/shim.h>

#include "abi_codes.h"
#include "error_state.h"
#include "handle_types.h"

extern "C" {

AOTITorchError torch_parse_device_string(const char* device_string, uint32_t* out_device_type,
                                         int32_t* out_device_index) {
  STC_API_BEGIN
  ST_CHECK(device_string != nullptr, "device_string: null string");
  stc::check_out(out_device_type, "out_device_type");
  stc::check_out(out_device_index, "out_device_index");
  const st::Device d{std::string(device_string)};
  const int32_t type = static_cast<int32_t>(d.type());
  ST_CHECK(stc::is_supported_device_type_code(type), "device_string: device type of '",
           device_string, "' cannot be used through the C ABI");
  int32_t index = d.index();
  if (d.is_cpu() && std::strchr(device_string, ':') != nullptr) index = 0;
  *out_device_type = static_cast<uint32_t>(type);
  *out_device_index = index;
  STC_API_END
}

}  // extern "C"
