// The at:: spellings of the header-only vocabulary that code written for
// PyTorch's stable API uses (at::ScalarType::Float, at::kFloat, at::Layout,
// ...). The c10:: spellings come with the torch/headeronly headers. These
// are using-declarations only: they name the same types, add no symbols.
#pragma once

#include <torch/headeronly/core/DeviceType.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/util/HeaderOnlyArrayRef.h>

namespace at {
using torch::headeronly::DeviceType;
using torch::headeronly::elementSize;
using torch::headeronly::IntHeaderOnlyArrayRef;
using torch::headeronly::Layout;
using torch::headeronly::MemoryFormat;
using torch::headeronly::ScalarType;
using torch::headeronly::toString;
#define STABLE_AT_EXPORT_DTYPE_CONSTANT_(cpp_type, name) using torch::headeronly::k##name;
AT_FORALL_SCALAR_TYPES_WITH_COMPLEX_AND_QINTS(STABLE_AT_EXPORT_DTYPE_CONSTANT_)
#undef STABLE_AT_EXPORT_DTYPE_CONSTANT_
using torch::headeronly::kCPU;
using torch::headeronly::kCUDA;
using torch::headeronly::kMeta;
using torch::headeronly::kMPS;
using torch::headeronly::kPrivateUse1;
using torch::headeronly::kStrided;
using torch::headeronly::kXPU;
}  // namespace at
