// Decoding the integer codes that cross the C ABI (dtype, device type and
// index, layout, memory format, operator tag) into core values, with errors naming the
// argument and the bad code.
#pragma once

#include <cstdint>

#include <st/core/device.h>
#include <st/dispatch/tag.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>

namespace stc {

// The dtypes the C ABI can name (those with an aoti_torch_dtype_* or
// torch_dtype_* getter). No qint/bits/int1-7.
bool is_supported_dtype_code(int32_t code) noexcept;
torch::headeronly::ScalarType dtype_from_code(int32_t code, const char* what);
// The device types the C ABI can name: CPU, CUDA, Meta, XPU, MPS,
// PrivateUse1.
bool is_supported_device_type_code(int32_t code) noexcept;
// A device from a type code and an index in [-1, 127] (a CPU index 0
// becomes -1, as PyTorch reports it).
st::Device device_from_codes(int32_t type, int32_t index, const char* what);
torch::headeronly::Layout layout_from_code(int32_t code, const char* what);
torch::headeronly::MemoryFormat memory_format_from_code(int32_t code, const char* what);
// Any Tag ordinal (the torch_tag_* getters return them; Tag::inplace and
// Tag::out have no getter but are tags all the same).
st::Tag tag_from_code(int32_t code, const char* what);

}  // namespace stc
