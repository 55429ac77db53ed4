// CPU/meta kernels of the view operations. Every result shares its input's
// storage (except reshape/flatten/contiguous when a copy is unavoidable).
// The dispatcher layer exposes them as st::view, Tensor::view, ...; call
// these directly only from the core itself and from tests.
//
// Semantics and error messages follow PyTorch's.
#pragma once

#include <cstdint>
#include <optional>

#include <st/core/array_ref.h>
#include <st/core/export.h>
#include <st/core/tensor.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>

namespace st::native {

// A view of self's storage with the given geometry. The storage must hold
// every element reachable; strides must be non-negative.
ST_API Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                         std::optional<int64_t> storage_offset = std::nullopt);

// A view with new sizes (one may be -1). Fails when self's strides make it
// impossible; use reshape then.
ST_API Tensor view(const Tensor& self, IntArrayRef size);
// Reinterprets the bytes as another dtype (PyTorch's element-size rules).
ST_API Tensor view(const Tensor& self, ScalarType dtype);

// A view when possible, else a contiguous copy.
ST_API Tensor reshape(const Tensor& self, IntArrayRef size);

ST_API Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
// Transposes dims 0 and 1 of a tensor with at most 2 dims.
ST_API Tensor t(const Tensor& self);
ST_API Tensor permute(const Tensor& self, IntArrayRef dims);

ST_API Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length);
// Python-style slicing along dim: start/end may be negative or out of
// range (clamped); step must be positive.
ST_API Tensor slice(const Tensor& self, int64_t dim = 0,
                    std::optional<int64_t> start = std::nullopt,
                    std::optional<int64_t> end = std::nullopt, int64_t step = 1);
ST_API Tensor select(const Tensor& self, int64_t dim, int64_t index);

ST_API Tensor squeeze(const Tensor& self);
ST_API Tensor squeeze(const Tensor& self, int64_t dim);
ST_API Tensor squeeze(const Tensor& self, IntArrayRef dims);
ST_API Tensor unsqueeze(const Tensor& self, int64_t dim);

// -1 keeps a size; new leading dims are added with stride 0.
ST_API Tensor expand(const Tensor& self, IntArrayRef size);

ST_API Tensor flatten(const Tensor& self, int64_t start_dim = 0, int64_t end_dim = -1);
ST_API Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes);

// self when already contiguous in `memory_format`, else a copy that is.
ST_API Tensor contiguous(const Tensor& self, torch::headeronly::MemoryFormat memory_format =
                                                 torch::headeronly::MemoryFormat::Contiguous);

// A new uninitialised tensor like self (same sizes, dtype, device) in
// memory_format; Preserve keeps self's strides when it is dense.
ST_API Tensor empty_like(const Tensor& self, torch::headeronly::MemoryFormat memory_format =
                                                 torch::headeronly::MemoryFormat::Contiguous);

}  // namespace st::native
