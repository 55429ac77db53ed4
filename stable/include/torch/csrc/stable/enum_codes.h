// Translation between the header-only enums (ScalarType, DeviceType, Layout,
// MemoryFormat, and Tag from 2.12) and the integer codes the C shim speaks, always through the
// shim's constant getters so that the extension never hard-codes an ordinal.
// Only the values the stable ABI supports translate; anything else throws
// "Not yet supported <enum> ...".
#pragma once

#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/version.h>
#include <torch/headeronly/core/DeviceType.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/core/enum_tag.h>
#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/Exception.h>

#include <cstdint>

HIDDEN_NAMESPACE_BEGIN(torch, stable, detail)

inline int32_t to_shim_dtype(torch::headeronly::ScalarType t) {
  using torch::headeronly::ScalarType;
  switch (t) {
    case ScalarType::Byte:
      return aoti_torch_dtype_uint8();
    case ScalarType::Char:
      return aoti_torch_dtype_int8();
    case ScalarType::Short:
      return aoti_torch_dtype_int16();
    case ScalarType::Int:
      return aoti_torch_dtype_int32();
    case ScalarType::Long:
      return aoti_torch_dtype_int64();
    case ScalarType::Half:
      return aoti_torch_dtype_float16();
    case ScalarType::Float:
      return aoti_torch_dtype_float32();
    case ScalarType::Double:
      return aoti_torch_dtype_float64();
    case ScalarType::ComplexHalf:
      return aoti_torch_dtype_complex32();
    case ScalarType::ComplexFloat:
      return aoti_torch_dtype_complex64();
    case ScalarType::ComplexDouble:
      return aoti_torch_dtype_complex128();
    case ScalarType::Bool:
      return aoti_torch_dtype_bool();
    case ScalarType::BFloat16:
      return aoti_torch_dtype_bfloat16();
    case ScalarType::Float8_e5m2:
      return aoti_torch_dtype_float8_e5m2();
    case ScalarType::Float8_e4m3fn:
      return aoti_torch_dtype_float8_e4m3fn();
    case ScalarType::Float8_e5m2fnuz:
      return aoti_torch_dtype_float8_e5m2fnuz();
    case ScalarType::Float8_e4m3fnuz:
      return aoti_torch_dtype_float8_e4m3fnuz();
    case ScalarType::UInt16:
      return aoti_torch_dtype_uint16();
    case ScalarType::UInt32:
      return aoti_torch_dtype_uint32();
    case ScalarType::UInt64:
      return aoti_torch_dtype_uint64();
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0
    case ScalarType::Float8_e8m0fnu:
      return torch_dtype_float8_e8m0fnu();
    case ScalarType::Float4_e2m1fn_x2:
      return torch_dtype_float4_e2m1fn_x2();
#endif
    default:
      break;
  }
  STD_TORCH_CHECK_MSG(false, "Not yet supported ScalarType ", t,
                      ", please file an issue describing your use case.");
}

inline torch::headeronly::ScalarType from_shim_dtype(int32_t code) {
  using torch::headeronly::ScalarType;
  // Ordered by how often kernels see them.
  if (code == aoti_torch_dtype_float32()) return ScalarType::Float;
  if (code == aoti_torch_dtype_int64()) return ScalarType::Long;
  if (code == aoti_torch_dtype_float64()) return ScalarType::Double;
  if (code == aoti_torch_dtype_int32()) return ScalarType::Int;
  if (code == aoti_torch_dtype_bool()) return ScalarType::Bool;
  if (code == aoti_torch_dtype_float16()) return ScalarType::Half;
  if (code == aoti_torch_dtype_bfloat16()) return ScalarType::BFloat16;
  if (code == aoti_torch_dtype_uint8()) return ScalarType::Byte;
  if (code == aoti_torch_dtype_int8()) return ScalarType::Char;
  if (code == aoti_torch_dtype_int16()) return ScalarType::Short;
  if (code == aoti_torch_dtype_complex32()) return ScalarType::ComplexHalf;
  if (code == aoti_torch_dtype_complex64()) return ScalarType::ComplexFloat;
  if (code == aoti_torch_dtype_complex128()) return ScalarType::ComplexDouble;
  if (code == aoti_torch_dtype_float8_e5m2()) return ScalarType::Float8_e5m2;
  if (code == aoti_torch_dtype_float8_e4m3fn()) return ScalarType::Float8_e4m3fn;
  if (code == aoti_torch_dtype_float8_e5m2fnuz()) return ScalarType::Float8_e5m2fnuz;
  if (code == aoti_torch_dtype_float8_e4m3fnuz()) return ScalarType::Float8_e4m3fnuz;
  if (code == aoti_torch_dtype_uint16()) return ScalarType::UInt16;
  if (code == aoti_torch_dtype_uint32()) return ScalarType::UInt32;
  if (code == aoti_torch_dtype_uint64()) return ScalarType::UInt64;
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0
  if (code == torch_dtype_float8_e8m0fnu()) return ScalarType::Float8_e8m0fnu;
  if (code == torch_dtype_float4_e2m1fn_x2()) return ScalarType::Float4_e2m1fn_x2;
#endif
  STD_TORCH_CHECK_MSG(false, "Not yet supported ScalarType ", code,
                      ", please file an issue describing your use case.");
}

inline int32_t to_shim_device_type(torch::headeronly::DeviceType t) {
  using torch::headeronly::DeviceType;
  switch (t) {
    case DeviceType::CPU:
      return aoti_torch_device_type_cpu();
    case DeviceType::CUDA:
      return aoti_torch_device_type_cuda();
    case DeviceType::Meta:
      return aoti_torch_device_type_meta();
    case DeviceType::XPU:
      return aoti_torch_device_type_xpu();
    case DeviceType::MPS:
      return aoti_torch_device_type_mps();
    case DeviceType::PrivateUse1:
      return aoti_torch_device_type_privateuse1();
    default:
      break;
  }
  STD_TORCH_CHECK_MSG(false, "Not yet supported DeviceType ", torch::headeronly::DeviceTypeName(t),
                      ", please file an issue describing your use case.");
}

inline torch::headeronly::DeviceType from_shim_device_type(int32_t code) {
  using torch::headeronly::DeviceType;
  if (code == aoti_torch_device_type_cpu()) return DeviceType::CPU;
  if (code == aoti_torch_device_type_cuda()) return DeviceType::CUDA;
  if (code == aoti_torch_device_type_meta()) return DeviceType::Meta;
  if (code == aoti_torch_device_type_xpu()) return DeviceType::XPU;
  if (code == aoti_torch_device_type_mps()) return DeviceType::MPS;
  if (code == aoti_torch_device_type_privateuse1()) return DeviceType::PrivateUse1;
  STD_TORCH_CHECK_MSG(false, "Not yet supported DeviceType ", code,
                      ", please file an issue describing your use case.");
}

inline int32_t to_shim_layout(torch::headeronly::Layout l) {
  using torch::headeronly::Layout;
  switch (l) {
    case Layout::Strided:
      return aoti_torch_layout_strided();
    case Layout::Sparse:
      return aoti_torch_layout_sparse_coo();
    case Layout::SparseCsr:
      return aoti_torch_layout_sparse_csr();
    case Layout::SparseCsc:
      return aoti_torch_layout_sparse_csc();
    case Layout::SparseBsr:
      return aoti_torch_layout_sparse_bsr();
    case Layout::SparseBsc:
      return aoti_torch_layout_sparse_bsc();
    case Layout::Mkldnn:
      return aoti_torch_layout__mkldnn();
    case Layout::Jagged:
      return aoti_torch_layout_jagged();
    default:
      break;
  }
  STD_TORCH_CHECK_MSG(false, "Not yet supported Layout ", static_cast<int>(l),
                      ", please file an issue describing your use case.");
}

inline torch::headeronly::Layout from_shim_layout(int32_t code) {
  using torch::headeronly::Layout;
  if (code == aoti_torch_layout_strided()) return Layout::Strided;
  if (code == aoti_torch_layout_sparse_coo()) return Layout::Sparse;
  if (code == aoti_torch_layout_sparse_csr()) return Layout::SparseCsr;
  if (code == aoti_torch_layout_sparse_csc()) return Layout::SparseCsc;
  if (code == aoti_torch_layout_sparse_bsr()) return Layout::SparseBsr;
  if (code == aoti_torch_layout_sparse_bsc()) return Layout::SparseBsc;
  if (code == aoti_torch_layout__mkldnn()) return Layout::Mkldnn;
  if (code == aoti_torch_layout_jagged()) return Layout::Jagged;
  STD_TORCH_CHECK_MSG(false, "Not yet supported Layout ", code,
                      ", please file an issue describing your use case.");
}

inline int32_t to_shim_memory_format(torch::headeronly::MemoryFormat m) {
  using torch::headeronly::MemoryFormat;
  switch (m) {
    case MemoryFormat::Contiguous:
      return aoti_torch_memory_format_contiguous_format();
    case MemoryFormat::Preserve:
      return aoti_torch_memory_format_preserve_format();
    case MemoryFormat::ChannelsLast:
      return aoti_torch_memory_format_channels_last();
    case MemoryFormat::ChannelsLast3d:
      return aoti_torch_memory_format_channels_last_3d();
    default:
      break;
  }
  STD_TORCH_CHECK_MSG(false, "Not yet supported MemoryFormat ", static_cast<int>(m),
                      ", please file an issue describing your use case.");
}

inline torch::headeronly::MemoryFormat from_shim_memory_format(int32_t code) {
  using torch::headeronly::MemoryFormat;
  if (code == aoti_torch_memory_format_contiguous_format()) return MemoryFormat::Contiguous;
  if (code == aoti_torch_memory_format_preserve_format()) return MemoryFormat::Preserve;
  if (code == aoti_torch_memory_format_channels_last()) return MemoryFormat::ChannelsLast;
  if (code == aoti_torch_memory_format_channels_last_3d()) return MemoryFormat::ChannelsLast3d;
  STD_TORCH_CHECK_MSG(false, "Not yet supported MemoryFormat ", code,
                      ", please file an issue describing your use case.");
}

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0
// Tag::inplace and Tag::out have no getter: like PyTorch's headers, they do
// not translate.
inline int32_t to_shim_tag(torch::headeronly::Tag t) {
  using torch::headeronly::Tag;
  switch (t) {
    case Tag::core:
      return torch_tag_core();
    case Tag::cudagraph_unsafe:
      return torch_tag_cudagraph_unsafe();
    case Tag::data_dependent_output:
      return torch_tag_data_dependent_output();
    case Tag::dynamic_output_shape:
      return torch_tag_dynamic_output_shape();
    case Tag::flexible_layout:
      return torch_tag_flexible_layout();
    case Tag::generated:
      return torch_tag_generated();
    case Tag::inplace_view:
      return torch_tag_inplace_view();
    case Tag::maybe_aliasing_or_mutating:
      return torch_tag_maybe_aliasing_or_mutating();
    case Tag::needs_contiguous_strides:
      return torch_tag_needs_contiguous_strides();
    case Tag::needs_exact_strides:
      return torch_tag_needs_exact_strides();
    case Tag::needs_fixed_stride_order:
      return torch_tag_needs_fixed_stride_order();
    case Tag::nondeterministic_bitwise:
      return torch_tag_nondeterministic_bitwise();
    case Tag::nondeterministic_seeded:
      return torch_tag_nondeterministic_seeded();
    case Tag::out_variant:
      return torch_tag_out_variant();
    case Tag::pointwise:
      return torch_tag_pointwise();
    case Tag::pt2_compliant_tag:
      return torch_tag_pt2_compliant_tag();
    case Tag::reduction:
      return torch_tag_reduction();
    case Tag::view_copy:
      return torch_tag_view_copy();
    default:
      break;
  }
  STD_TORCH_CHECK_MSG(false, "Not yet supported Tag ", static_cast<int>(t),
                      ", please file an issue describing your use case.");
}

inline torch::headeronly::Tag from_shim_tag(int32_t code) {
  using torch::headeronly::Tag;
  if (code == torch_tag_core()) return Tag::core;
  if (code == torch_tag_cudagraph_unsafe()) return Tag::cudagraph_unsafe;
  if (code == torch_tag_data_dependent_output()) return Tag::data_dependent_output;
  if (code == torch_tag_dynamic_output_shape()) return Tag::dynamic_output_shape;
  if (code == torch_tag_flexible_layout()) return Tag::flexible_layout;
  if (code == torch_tag_generated()) return Tag::generated;
  if (code == torch_tag_inplace_view()) return Tag::inplace_view;
  if (code == torch_tag_maybe_aliasing_or_mutating()) return Tag::maybe_aliasing_or_mutating;
  if (code == torch_tag_needs_contiguous_strides()) return Tag::needs_contiguous_strides;
  if (code == torch_tag_needs_exact_strides()) return Tag::needs_exact_strides;
  if (code == torch_tag_needs_fixed_stride_order()) return Tag::needs_fixed_stride_order;
  if (code == torch_tag_nondeterministic_bitwise()) return Tag::nondeterministic_bitwise;
  if (code == torch_tag_nondeterministic_seeded()) return Tag::nondeterministic_seeded;
  if (code == torch_tag_out_variant()) return Tag::out_variant;
  if (code == torch_tag_pointwise()) return Tag::pointwise;
  if (code == torch_tag_pt2_compliant_tag()) return Tag::pt2_compliant_tag;
  if (code == torch_tag_reduction()) return Tag::reduction;
  if (code == torch_tag_view_copy()) return Tag::view_copy;
  STD_TORCH_CHECK_MSG(false, "Not yet supported Tag ", code,
                      ", please file an issue describing your use case.");
}
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0

HIDDEN_NAMESPACE_END(torch, stable, detail)
