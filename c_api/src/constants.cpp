// Constant getters and version getters of the C ABI: the c10 codes of the
// header-only enums, and the running core's versions. None can fail, except
// dtype_element_size on an unknown code (0, with the thread's last error set).
#include <stabletorch/c/runtime.h>
#include <stabletorch/version.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>
#include <torch/headeronly/core/DeviceType.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/core/enum_tag.h>
#include <torch/headeronly/version.h>

#include "abi_codes.h"
#include "error_state.h"

namespace {

using torch::headeronly::DeviceType;
using torch::headeronly::Layout;
using torch::headeronly::MemoryFormat;
using torch::headeronly::ScalarType;
using torch::headeronly::Tag;

template <typename Enum>
constexpr int32_t code(Enum e) {
  return static_cast<int32_t>(e);
}

}  // namespace

extern "C" {

int32_t aoti_torch_device_type_cpu(void) { return code(DeviceType::CPU); }
int32_t aoti_torch_device_type_cuda(void) { return code(DeviceType::CUDA); }
int32_t aoti_torch_device_type_meta(void) { return code(DeviceType::Meta); }
int32_t aoti_torch_device_type_xpu(void) { return code(DeviceType::XPU); }
int32_t aoti_torch_device_type_mps(void) { return code(DeviceType::MPS); }
int32_t aoti_torch_device_type_privateuse1(void) { return code(DeviceType::PrivateUse1); }

int32_t aoti_torch_dtype_float8_e5m2(void) { return code(ScalarType::Float8_e5m2); }
int32_t aoti_torch_dtype_float8_e4m3fn(void) { return code(ScalarType::Float8_e4m3fn); }
int32_t aoti_torch_dtype_float8_e5m2fnuz(void) { return code(ScalarType::Float8_e5m2fnuz); }
int32_t aoti_torch_dtype_float8_e4m3fnuz(void) { return code(ScalarType::Float8_e4m3fnuz); }
int32_t aoti_torch_dtype_bfloat16(void) { return code(ScalarType::BFloat16); }
int32_t aoti_torch_dtype_float16(void) { return code(ScalarType::Half); }
int32_t aoti_torch_dtype_float32(void) { return code(ScalarType::Float); }
int32_t aoti_torch_dtype_float64(void) { return code(ScalarType::Double); }
int32_t aoti_torch_dtype_uint8(void) { return code(ScalarType::Byte); }
int32_t aoti_torch_dtype_uint16(void) { return code(ScalarType::UInt16); }
int32_t aoti_torch_dtype_uint32(void) { return code(ScalarType::UInt32); }
int32_t aoti_torch_dtype_uint64(void) { return code(ScalarType::UInt64); }
int32_t aoti_torch_dtype_int8(void) { return code(ScalarType::Char); }
int32_t aoti_torch_dtype_int16(void) { return code(ScalarType::Short); }
int32_t aoti_torch_dtype_int32(void) { return code(ScalarType::Int); }
int32_t aoti_torch_dtype_int64(void) { return code(ScalarType::Long); }
int32_t aoti_torch_dtype_bool(void) { return code(ScalarType::Bool); }
int32_t aoti_torch_dtype_complex32(void) { return code(ScalarType::ComplexHalf); }
int32_t aoti_torch_dtype_complex64(void) { return code(ScalarType::ComplexFloat); }
int32_t aoti_torch_dtype_complex128(void) { return code(ScalarType::ComplexDouble); }

size_t aoti_torch_dtype_element_size(int32_t dtype) {
  if (!stc::is_supported_dtype_code(dtype)) {
    stc::record_failure_message(__func__, "unsupported dtype code (returned 0)");
    return 0;
  }
  return torch::headeronly::elementSize(static_cast<ScalarType>(dtype));
}

int32_t aoti_torch_layout_strided(void) { return code(Layout::Strided); }
int32_t aoti_torch_layout_sparse_coo(void) { return code(Layout::Sparse); }
int32_t aoti_torch_layout_sparse_csr(void) { return code(Layout::SparseCsr); }
int32_t aoti_torch_layout_sparse_csc(void) { return code(Layout::SparseCsc); }
int32_t aoti_torch_layout_sparse_bsr(void) { return code(Layout::SparseBsr); }
int32_t aoti_torch_layout_sparse_bsc(void) { return code(Layout::SparseBsc); }
int32_t aoti_torch_layout__mkldnn(void) { return code(Layout::Mkldnn); }
int32_t aoti_torch_layout_jagged(void) { return code(Layout::Jagged); }

int32_t aoti_torch_memory_format_contiguous_format(void) { return code(MemoryFormat::Contiguous); }
int32_t aoti_torch_memory_format_channels_last(void) { return code(MemoryFormat::ChannelsLast); }
int32_t aoti_torch_memory_format_channels_last_3d(void) {
  return code(MemoryFormat::ChannelsLast3d);
}
int32_t aoti_torch_memory_format_preserve_format(void) { return code(MemoryFormat::Preserve); }

// 2.11 and 2.12 getters: declared in blocks newer than these headers' own
// level, so exported explicitly.
AOTI_TORCH_EXPORT int32_t torch_dtype_float8_e8m0fnu(void) {
  return code(ScalarType::Float8_e8m0fnu);
}
AOTI_TORCH_EXPORT int32_t torch_dtype_float4_e2m1fn_x2(void) {
  return code(ScalarType::Float4_e2m1fn_x2);
}
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_float8_e8m0fnu(void) {
  return code(ScalarType::Float8_e8m0fnu);
}
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_float4_e2m1fn_x2(void) {
  return code(ScalarType::Float4_e2m1fn_x2);
}

// Tag codes: the Tag ordinals, which abi_codes.cpp decodes.
int32_t torch_tag_core(void) { return code(Tag::core); }
int32_t torch_tag_cudagraph_unsafe(void) { return code(Tag::cudagraph_unsafe); }
int32_t torch_tag_data_dependent_output(void) { return code(Tag::data_dependent_output); }
int32_t torch_tag_dynamic_output_shape(void) { return code(Tag::dynamic_output_shape); }
int32_t torch_tag_flexible_layout(void) { return code(Tag::flexible_layout); }
int32_t torch_tag_generated(void) { return code(Tag::generated); }
int32_t torch_tag_inplace_view(void) { return code(Tag::inplace_view); }
int32_t torch_tag_maybe_aliasing_or_mutating(void) { return code(Tag::maybe_aliasing_or_mutating); }
int32_t torch_tag_needs_contiguous_strides(void) { return code(Tag::needs_contiguous_strides); }
int32_t torch_tag_needs_exact_strides(void) { return code(Tag::needs_exact_strides); }
int32_t torch_tag_needs_fixed_stride_order(void) { return code(Tag::needs_fixed_stride_order); }
int32_t torch_tag_nondeterministic_bitwise(void) { return code(Tag::nondeterministic_bitwise); }
int32_t torch_tag_nondeterministic_seeded(void) { return code(Tag::nondeterministic_seeded); }
int32_t torch_tag_out_variant(void) { return code(Tag::out_variant); }
int32_t torch_tag_pointwise(void) { return code(Tag::pointwise); }
int32_t torch_tag_pt2_compliant_tag(void) { return code(Tag::pt2_compliant_tag); }
int32_t torch_tag_reduction(void) { return code(Tag::reduction); }
int32_t torch_tag_view_copy(void) { return code(Tag::view_copy); }

uint64_t aoti_torch_abi_version(void) { return TORCH_ABI_VERSION; }

const char* stabletorch_version_string(void) { return STABLETORCH_VERSION_STRING; }
uint32_t stabletorch_version_number(void) { return STABLETORCH_VERSION_NUMBER; }
uint64_t stabletorch_abi_level(void) { return TORCH_ABI_VERSION; }

}  // extern "C"
