// Tensors over external memory (zero-copy): the one place that decides which
// blobs a tensor may wrap. Every wrapper of outside memory (the C ABI's
// create_tensor_from_blob(_v2) and torch_from_blob) goes through it.
//
// The rule: the data pointer must be aligned to the dtype's alignment
// (alignof its element type, which here equals its element size: complex
// types are aligned to their full size), because kernels load and store
// whole elements through typed pointers, and a misaligned one is undefined
// behaviour (a fault on some targets). PyTorch's from_blob does not check;
// refusing at creation turns a later crash into an error naming the cause.
// The blob must also be large enough for the geometry, which is checked for
// overflow (checked_arithmetic.h) but cannot be checked against the
// caller's allocation.
#pragma once

#include <cstddef>
#include <cstdint>

#include <st/core/allocator.h>
#include <st/core/array_ref.h>
#include <st/core/device.h>
#include <st/core/export.h>
#include <st/core/tensor.h>
#include <torch/headeronly/core/ScalarType.h>

namespace st {
namespace detail {

// The alignment in bytes an element of `dtype` needs. Throws st::Error for
// a dtype without a C++ element type (Undefined, out of range).
ST_API size_t dtype_alignment(ScalarType dtype);

// Checks that `data` can back a tensor of this geometry and dtype and
// returns the bytes the storage must span. Throws st::Error "<op>: data
// pointer 0x... is not aligned to the 8-byte alignment of Long" for a
// misaligned pointer, and the checked_arithmetic errors for negative sizes
// or strides, a negative offset, or an extent that overflows.
ST_API size_t check_blob(const char* op, const void* data, IntArrayRef sizes, IntArrayRef strides,
                         int64_t storage_offset, ScalarType dtype);

// A tensor viewing `data` (check_blob first), never resizable. Without a
// deleter the caller keeps ownership and must keep the blob alive. With
// one, deleter(context) runs when the last reference goes; when check_blob
// fails the deleter is not run and the caller keeps ownership of data and
// context; after it passed, the tensor owns them (an allocation failure then
// runs the deleter).
ST_API Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                        ScalarType dtype, Device device);
ST_API Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                        ScalarType dtype, Device device, void* context, DeleterFn deleter);

}  // namespace detail
}  // namespace st
