// Copies and conversions: fill_, zero_, copy_, clone, _to_copy, to.
#include <algorithm>
#include <cstring>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/parallel.h>
#include <st/core/warning.h>
#include <st/device/device_runtime.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/loops.h>
#include <st/native/scalar_ops.h>
#include <st/native/tensor_iterator.h>

#include "cpu/vec_kernels.h"
#include "fill_checks.h"
#include "host_memory.h"

namespace st::native {

Scalar item_scalar(const Tensor& t) {
  ST_CHECK(t.numel() == 1, "a Tensor with ", t.numel(), " elements cannot be converted to Scalar");
  check_host_memory(t, "item", "self");
  return dispatch_dtype<kEverything>(t.dtype(), "item", [&](auto tag) -> Scalar {
    using T = typename decltype(tag)::type;
    const T v = *static_cast<const T*>(t.const_data_ptr());
    if constexpr (std::is_same_v<T, bool>) {
      return Scalar(v);
    } else if constexpr (is_complex_v<T>) {
      return Scalar(convert<std::complex<double>>(v));
    } else if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_same_v<T, uint64_t>) {
        return Scalar(static_cast<int64_t>(v));
      } else {
        return Scalar(static_cast<int64_t>(v));
      }
    } else {
      return Scalar(static_cast<double>(to_opmath(v)));
    }
  });
}

namespace {

// Elements per parallel chunk of a dense fill, as cpu_kernel's grain.
constexpr int64_t kFillGrain = 32768;

// A dense self (contiguous or a permutation of it) holds its numel elements
// in one run from its first element: filled as a flat array, without an
// iterator, by memset when v is all zero bits.
template <typename T>
void fill_dense(const Tensor& self, const T& v) {
  T* p = static_cast<T*>(self.data_ptr());
  unsigned char zero_bytes[sizeof(T)] = {};
  const bool zero = std::memcmp(&v, zero_bytes, sizeof(T)) == 0;
  constexpr int width_log2 = sizeof(T) == 1   ? 0
                             : sizeof(T) == 2 ? 1
                             : sizeof(T) == 4 ? 2
                             : sizeof(T) == 8 ? 3
                                              : 4;
  static_assert(sizeof(T) == (size_t{1} << width_log2), "element widths are 1 to 16 bytes");
  // Non-zero values through the per-ISA store loop: this file is compiled
  // for baseline x86-64, whose 16-byte stores take 1.3-1.4x the time of
  // AVX2's on a 4-8 MiB fill.
  const auto fill_bits = cpu::vec_kernels().fill_bits[width_log2];
  parallel_for(0, self.numel(), kFillGrain, [&](int64_t b, int64_t e) {
    if (zero) {
      std::memset(static_cast<void*>(p + b), 0, static_cast<size_t>(e - b) * sizeof(T));
    } else {
      fill_bits(static_cast<void*>(p + b), static_cast<const void*>(&v), e - b);
    }
  });
}

// fill_ refuses a self whose elements share memory; zero_ writes it (every
// element gets the same value), as PyTorch's do.
Tensor fill_impl(const Tensor& self, const Scalar& value, bool allow_overlap) {
  if (self.is_meta() || self.numel() == 0) return self;
  if (!allow_overlap) assert_no_internal_overlap(self, "fill_");
  if (self.is_non_overlapping_and_dense() && is_host_accessible(self.device())) {
    if (is_float8(self.dtype())) {
      const float f = checked_scalar_as<float>(value);
      dispatch_float8(self.dtype(), "fill_", [&](auto tag) {
        using T = typename decltype(tag)::type;
        fill_dense(self, T(f));
      });
      return self;
    }
    dispatch_dtype<kEverything>(self.dtype(), "fill_", [&](auto tag) {
      using T = typename decltype(tag)::type;
      fill_dense(self, checked_scalar_as<T>(value));
    });
    return self;
  }
  TensorIterator iter = TensorIteratorConfig()
                            .name("fill_")
                            .check_mem_overlap(false)
                            .add_output(self)
                            .kernel_output_dtype(self.dtype())
                            .is_inplace(true)
                            .build();
  if (is_float8(self.dtype())) {
    // Through float, as copies into these types go.
    const float f = checked_scalar_as<float>(value);
    dispatch_float8(self.dtype(), "fill_", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T v(f);
      cpu_kernel(iter, [v]() -> T { return v; });
    });
    return self;
  }
  dispatch_dtype<kEverything>(self.dtype(), "fill_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = checked_scalar_as<T>(value);
    cpu_kernel(iter, [v]() -> T { return v; });
  });
  return self;
}

}  // namespace

Tensor fill_(const Tensor& self, const Scalar& value) {
  return fill_impl(self, value, /*allow_overlap=*/false);
}

void check_fill_value(const Tensor& value) {
  ST_CHECK(value.dim() == 0, "fill_ only supports 0-dimension value tensor but got tensor with ",
           value.dim(), " dimensions.");
}

Tensor fill_(const Tensor& self, const Tensor& value) {
  check_fill_value(value);
  return native::fill_(self, item_scalar(value));
}

Tensor zero_(const Tensor& self) {
  return fill_impl(self, Scalar(int64_t{0}), /*allow_overlap=*/true);
}

Tensor copy_(const Tensor& self, const Tensor& src, bool non_blocking) {
  (void)non_blocking;  // CPU copies are synchronous
  ST_CHECK(self.defined() && src.defined(), "copy_: expected defined tensors");
  if (self.is_same(src)) return self;
  if (self.is_meta()) {
    infer_size(self.sizes(), src.sizes());
    return self;
  }
  // Host-accessible backends run synchronously (Note [Device runtime
  // contract]): this kernel copies between any two of them and the CPU.
  ST_CHECK(is_host_accessible(src.device()) && is_host_accessible(self.device()),
           "copy_: copying from ", src.device(), " to ", self.device(),
           " is not supported by the host copy kernel (it serves the CPU and host-accessible "
           "backends)");
  if (self.numel() == 0) return self;
  assert_no_internal_overlap(self, "copy_");
  assert_no_partial_overlap(self, src, "copy_");
  if (src.is_complex() && !self.is_complex()) {
    ST_WARN("Casting complex values to real discards the imaginary part");
  }
  copy_into(self, src);
  return self;
}

Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  Tensor out = st::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                              memory_format.value_or(MemoryFormat::Preserve));
  st::copy_(out, self);
  return out;
}

Tensor _to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
                std::optional<MemoryFormat> memory_format) {
  Tensor out = st::empty_like(self, dtype, layout, device, pin_memory,
                              memory_format.value_or(MemoryFormat::Preserve));
  st::copy_(out, self, non_blocking);
  return out;
}

namespace {

// The memory format self's strides suggest: channels-last for a 4-D (5-D)
// tensor laid out so, else contiguous, whatever the strides of a tensor
// below 4-D. to() returns self when a requested format equals this one,
// as PyTorch's to() decides (so a transposed 2-D tensor asked for
// contiguous_format comes back as it is).
MemoryFormat suggest_memory_format(const Tensor& self) {
  if (self.is_contiguous()) return MemoryFormat::Contiguous;
  if (self.dim() == 4 && self.is_contiguous(MemoryFormat::ChannelsLast)) {
    return MemoryFormat::ChannelsLast;
  }
  if (self.dim() == 5 && self.is_contiguous(MemoryFormat::ChannelsLast3d)) {
    return MemoryFormat::ChannelsLast3d;
  }
  return MemoryFormat::Contiguous;
}

Tensor to_impl(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
               std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
               bool copy, std::optional<MemoryFormat> memory_format) {
  const MemoryFormat mf = memory_format.value_or(MemoryFormat::Preserve);
  const bool same_dtype = !dtype.has_value() || *dtype == self.dtype();
  const bool same_layout = !layout.has_value() || *layout == Layout::Strided;
  bool same_device = true;
  if (device.has_value()) {
    same_device = device->type() == self.device().type() &&
                  (!device->has_index() || device->index() == self.device().index());
  }
  const bool same_format = mf == MemoryFormat::Preserve || suggest_memory_format(self) == mf;
  if (!copy && same_dtype && same_layout && same_device && same_format &&
      !pin_memory.value_or(false)) {
    return self;
  }
  return st::_to_copy(self, dtype, layout, device, pin_memory, non_blocking, memory_format);
}

}  // namespace

Tensor to(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
          std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
          bool copy, std::optional<MemoryFormat> memory_format) {
  return to_impl(self, dtype, layout, device, pin_memory, non_blocking, copy, memory_format);
}

Tensor to(const Tensor& self, Device device, ScalarType dtype, bool non_blocking, bool copy,
          std::optional<MemoryFormat> memory_format) {
  return to_impl(self, dtype, std::nullopt, device, std::nullopt, non_blocking, copy,
                 memory_format);
}

Tensor to(const Tensor& self, ScalarType dtype, bool non_blocking, bool copy,
          std::optional<MemoryFormat> memory_format) {
  return to_impl(self, dtype, std::nullopt, std::nullopt, std::nullopt, non_blocking, copy,
                 memory_format);
}

Tensor to(const Tensor& self, const Tensor& other, bool non_blocking, bool copy,
          std::optional<MemoryFormat> memory_format) {
  return to_impl(self, other.dtype(), std::nullopt, other.device(), std::nullopt, non_blocking,
                 copy, memory_format);
}

}  // namespace st::native
