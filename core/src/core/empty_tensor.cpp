#include <st/core/empty_tensor.h>

#include <st/core/allocator.h>
#include <st/core/checked_arithmetic.h>
#include <st/core/error.h>
#include <st/device/device_guard.h>
#include <st/device/device_runtime.h>

namespace st {
namespace detail {
namespace {

size_t itemsize_of(const char* op, ScalarType dtype) {
  const int v = static_cast<int>(dtype);
  ST_CHECK(v >= 0 && v < static_cast<int>(ScalarType::Undefined), op,
           ": expected a concrete dtype, got ", torch::headeronly::toString(dtype));
  return torch::headeronly::elementSize(dtype);
}

// stride * max(size, 1), or an st::Error. Strides cannot overflow when
// the tensor has elements (each is at most numel), but a tensor with a
// size-0 dim can still have strides past int64 (sizes [0, 2^62, 4]).
int64_t next_stride(int64_t stride, int64_t size, IntArrayRef sizes) {
  int64_t next = 0;
  ST_CHECK(!__builtin_mul_overflow(stride, size > 1 ? size : 1, &next),
           "Stride calculation overflowed for sizes ", sizes, ": ", stride, " * ", size);
  return next;
}

void channels_last_strides(IntArrayRef sizes, const int* order, size_t n, int64_t* out) {
  int64_t stride = 1;
  for (size_t i = 0; i < n; ++i) {
    const size_t d = static_cast<size_t>(order[i]);
    out[d] = stride;
    if (i + 1 < n) stride = next_stride(stride, sizes[d], sizes);
  }
}

// A tensor over new storage on `device`, in one block with it. The CPU
// path stays a plain allocation; a device with a runtime is first made
// concrete (index -1: the current device; out of range: an error) and
// allocated under a guard, because allocators allocate on the current
// device.
intrusive_ptr<TensorImpl> allocate_tensor(const char* op, size_t nbytes, Allocator* allocator,
                                          ScalarType dtype, Device device) {
  if (__builtin_expect(device.is_cpu(), 1) || try_get_device_runtime(device.type()) == nullptr) {
    return TensorImpl::make_with_storage(nbytes, allocator, dtype, device);
  }
  device = resolve_device(device, op);
  DeviceGuard guard(device);
  return TensorImpl::make_with_storage(nbytes, allocator, dtype, device);
}

}  // namespace

void contiguous_strides(IntArrayRef sizes, int64_t* out_strides) {
  int64_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    out_strides[i] = stride;
    if (i > 0) stride = next_stride(stride, sizes[i], sizes);
  }
}

Tensor empty_generic(IntArrayRef sizes, ScalarType dtype, Device device,
                     MemoryFormat memory_format) {
  const size_t itemsize = itemsize_of("empty", dtype);
  const size_t nbytes = checked_nbytes(checked_numel(sizes, "empty"), itemsize, "empty");
  Allocator* allocator = get_allocator(device.type());
  auto impl = allocate_tensor("empty", nbytes, allocator, dtype, device);
  if (__builtin_expect(memory_format == MemoryFormat::Contiguous, 1)) {
    impl->set_sizes_contiguous(sizes);
    return Tensor(std::move(impl));
  }
  int64_t strides[5];
  if (memory_format == MemoryFormat::ChannelsLast) {
    ST_CHECK(sizes.size() == 4,
             "empty: required rank 4 tensor to use channels_last format, got "
             "sizes ",
             sizes);
    static constexpr int kOrder[] = {1, 3, 2, 0};
    channels_last_strides(sizes, kOrder, 4, strides);
  } else if (memory_format == MemoryFormat::ChannelsLast3d) {
    ST_CHECK(sizes.size() == 5,
             "empty: required rank 5 tensor to use channels_last_3d format, "
             "got sizes ",
             sizes);
    static constexpr int kOrder[] = {1, 4, 3, 2, 0};
    channels_last_strides(sizes, kOrder, 5, strides);
  } else {
    ST_ERROR(
        "empty: expected memory format Contiguous, ChannelsLast or "
        "ChannelsLast3d, got ",
        memory_format);
  }
  impl->set_sizes_and_strides(sizes, IntArrayRef(strides, sizes.size()));
  return Tensor(std::move(impl));
}

Tensor empty_strided_generic(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
                             Device device) {
  const size_t itemsize = itemsize_of("empty_strided", dtype);
  ST_CHECK(sizes.size() == strides.size(), "empty_strided: dimensionality of sizes (", sizes.size(),
           ") must match dimensionality of strides (", strides.size(), ")");
  const int64_t numel = checked_numel(sizes, "empty_strided");
  const size_t nbytes = checked_storage_nbytes(sizes, strides, itemsize, 0, "empty_strided");
  Allocator* allocator = get_allocator(device.type());
  auto impl = allocate_tensor("empty_strided", nbytes, allocator, dtype, device);
  impl->set_validated_sizes_and_strides(sizes, strides, numel);
  return Tensor(std::move(impl));
}

}  // namespace detail
}  // namespace st
