// Factory kernels: empty*, zeros/ones/full(_like), new_*, scalar_tensor,
// arange, linspace, eye (the random factories are in random_ops.cpp).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/result_type.h>
#include <st/device/device_runtime.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/arange_length.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/loops.h>
#include <st/native/tensor_iterator.h>

#include "host_memory.h"

namespace st::native {

namespace {

void check_options(const char* op, std::optional<Layout> layout, std::optional<bool> pin_memory) {
  ST_CHECK(!layout.has_value() || *layout == Layout::Strided, op,
           ": only the strided layout is supported, got ", *layout);
  ST_CHECK(!pin_memory.value_or(false), op,
           ": pin_memory=True needs a pinned-memory allocator, which this build does not have");
}

Device device_or_cpu(std::optional<Device> d) { return d.value_or(Device(DeviceType::CPU)); }

// full(): the dtype a fill value implies when none is given.
ScalarType dtype_of_fill(const Scalar& s) {
  if (s.isBoolean()) return ScalarType::Bool;
  if (s.isIntegral(false)) return ScalarType::Long;
  if (s.isComplex()) return default_complex_dtype();
  return default_dtype();
}

}  // namespace

// empty and empty_strided are exported: the CUDA backend module (a library
// of its own) registers them as its factory kernels.
ST_API Tensor empty(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                    std::optional<Device> device, std::optional<bool> pin_memory,
                    std::optional<MemoryFormat> memory_format) {
  check_options("empty", layout, pin_memory);
  return st::detail::empty_generic(size, dtype.value_or(default_dtype()), device_or_cpu(device),
                                   memory_format.value_or(MemoryFormat::Contiguous));
}

Tensor empty_out(IntArrayRef size, std::optional<MemoryFormat> memory_format, const Tensor& out) {
  // The out= tensor decides the layout: any memory_format is refused, as
  // PyTorch does.
  ST_CHECK(!memory_format.has_value(),
           "empty: 'memory_format' argument is incompatible with 'out' tensor argument");
  resize_output(out, size);
  return out;
}

ST_API Tensor empty_strided(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                            std::optional<Layout> layout, std::optional<Device> device,
                            std::optional<bool> pin_memory) {
  check_options("empty_strided", layout, pin_memory);
  return st::detail::empty_strided_generic(size, stride, dtype.value_or(default_dtype()),
                                           device_or_cpu(device));
}

Tensor empty_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory,
                  std::optional<MemoryFormat> memory_format) {
  check_options("empty_like", layout, pin_memory);
  const ScalarType dt = dtype.value_or(self.dtype());
  const Device dev = device.value_or(self.device());
  const MemoryFormat mf = memory_format.value_or(MemoryFormat::Preserve);
  if (mf == MemoryFormat::Preserve) {
    if (self.is_non_overlapping_and_dense()) {
      return st::detail::empty_strided_generic(self.sizes(), self.strides(), dt, dev);
    }
    if (self.dim() == 4 && self.is_contiguous(MemoryFormat::ChannelsLast)) {
      return st::detail::empty_generic(self.sizes(), dt, dev, MemoryFormat::ChannelsLast);
    }
    return st::detail::empty_generic(self.sizes(), dt, dev, MemoryFormat::Contiguous);
  }
  return st::detail::empty_generic(self.sizes(), dt, dev, mf);
}

Tensor new_empty(const Tensor& self, IntArrayRef size, std::optional<ScalarType> dtype,
                 std::optional<Layout> layout, std::optional<Device> device,
                 std::optional<bool> pin_memory) {
  return st::empty(size, dtype.value_or(self.dtype()), layout, device.value_or(self.device()),
                   pin_memory);
}

Tensor new_empty_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                         std::optional<ScalarType> dtype, std::optional<Layout> layout,
                         std::optional<Device> device, std::optional<bool> pin_memory) {
  return st::empty_strided(size, stride, dtype.value_or(self.dtype()), layout,
                           device.value_or(self.device()), pin_memory);
}

Tensor new_full(const Tensor& self, IntArrayRef size, const Scalar& fill_value,
                std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory) {
  Tensor t = st::new_empty(self, size, dtype, layout, device, pin_memory);
  st::fill_(t, fill_value);
  return t;
}

Tensor new_zeros(const Tensor& self, IntArrayRef size, std::optional<ScalarType> dtype,
                 std::optional<Layout> layout, std::optional<Device> device,
                 std::optional<bool> pin_memory) {
  return native::new_full(self, size, 0, dtype, layout, device, pin_memory);
}

Tensor new_ones(const Tensor& self, IntArrayRef size, std::optional<ScalarType> dtype,
                std::optional<Layout> layout, std::optional<Device> device,
                std::optional<bool> pin_memory) {
  return native::new_full(self, size, 1, dtype, layout, device, pin_memory);
}

Tensor full(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype,
            std::optional<Layout> layout, std::optional<Device> device,
            std::optional<bool> pin_memory) {
  Tensor t = st::empty(size, dtype.value_or(dtype_of_fill(fill_value)), layout, device, pin_memory);
  st::fill_(t, fill_value);
  return t;
}

Tensor full_out(IntArrayRef size, const Scalar& fill_value, const Tensor& out) {
  resize_output(out, size);
  st::fill_(out, fill_value);
  return out;
}

Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
             std::optional<Device> device, std::optional<bool> pin_memory) {
  return native::full(size, 0, dtype.value_or(default_dtype()), layout, device, pin_memory);
}

Tensor zeros_out(IntArrayRef size, const Tensor& out) { return full_out(size, 0, out); }

Tensor ones(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
            std::optional<Device> device, std::optional<bool> pin_memory) {
  return native::full(size, 1, dtype.value_or(default_dtype()), layout, device, pin_memory);
}

Tensor ones_out(IntArrayRef size, const Tensor& out) { return full_out(size, 1, out); }

Tensor full_like(const Tensor& self, const Scalar& fill_value, std::optional<ScalarType> dtype,
                 std::optional<Layout> layout, std::optional<Device> device,
                 std::optional<bool> pin_memory, std::optional<MemoryFormat> memory_format) {
  Tensor t = st::empty_like(self, dtype, layout, device, pin_memory, memory_format);
  st::fill_(t, fill_value);
  return t;
}

Tensor zeros_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory,
                  std::optional<MemoryFormat> memory_format) {
  return native::full_like(self, 0, dtype, layout, device, pin_memory, memory_format);
}

Tensor ones_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  return native::full_like(self, 1, dtype, layout, device, pin_memory, memory_format);
}

Tensor scalar_tensor(const Scalar& s, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                     std::optional<Device> device, std::optional<bool> pin_memory) {
  Tensor t = st::empty({}, dtype.value_or(default_dtype()), layout, device, pin_memory);
  st::fill_(t, s);
  return t;
}

// ---- arange -----------------------------------------------------------------

Tensor arange_out(const Scalar& start, const Scalar& end, const Scalar& step, const Tensor& out) {
  const ScalarType dt = out.dtype();
  ST_CHECK(dt != ScalarType::Bool && !torch::headeronly::isComplexType(dt),
           "\"arange_cpu\" not implemented for '", torch::headeronly::toString(dt), "'");
  const int64_t size = arange_length(start, end, step, dt);
  const double xstart = start.toComplexDouble().real();
  const double xstep = step.toComplexDouble().real();
  resize_output(out, {size});
  if (out.is_meta() || size == 0) return out;
  Tensor result = out.is_contiguous() ? out : st::detail::empty_generic({size}, dt, out.device());
  dispatch_dtype<kAllTypes | kReducedFloatTypes | kUnsignedTypes>(dt, "arange_cpu", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(result.data_ptr());
    if constexpr (std::is_integral_v<T>) {
      const int64_t s0 = start.toLong(), st = step.toLong();
      for (int64_t i = 0; i < size; ++i) p[i] = static_cast<T>(s0 + st * i);
    } else {
      for (int64_t i = 0; i < size; ++i) {
        p[i] = convert<T>(xstart + xstep * static_cast<double>(i));
      }
    }
  });
  if (!result.is_same(out)) copy_into(out, result);
  return out;
}

Tensor arange_out(const Scalar& end, const Tensor& out) {
  return native::arange_out(0, end, 1, out);
}

Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
              std::optional<ScalarType> dtype, std::optional<Layout> layout,
              std::optional<Device> device, std::optional<bool> pin_memory) {
  ScalarType dt;
  if (dtype.has_value()) {
    dt = *dtype;
  } else if (start.isIntegral(true) && end.isIntegral(true) && step.isIntegral(true)) {
    dt = ScalarType::Long;
  } else {
    dt = default_dtype();
  }
  Tensor out = st::empty({0}, dt, layout, device, pin_memory);
  return st::arange_outf(start, end, step, out);
}

Tensor arange(const Scalar& start, const Scalar& end, std::optional<ScalarType> dtype,
              std::optional<Layout> layout, std::optional<Device> device,
              std::optional<bool> pin_memory) {
  return native::arange(start, end, 1, dtype, layout, device, pin_memory);
}

Tensor arange(const Scalar& end, std::optional<ScalarType> dtype, std::optional<Layout> layout,
              std::optional<Device> device, std::optional<bool> pin_memory) {
  return native::arange(0, end, 1, dtype, layout, device, pin_memory);
}

// ---- linspace ---------------------------------------------------------------

namespace {

// Value i of `steps` values from start to end: the first half counted up
// from start, the second down from end, so both ends are exact. Integral
// dtypes step in double (the range may not fit the type) and truncate;
// floating and complex dtypes compute in their own type, rounding after
// every operation as PyTorch's scalar types do (Half and BFloat16 too).
template <typename T>
void fill_linspace(T* p, int64_t n, int64_t steps, const Scalar& start, const Scalar& end) {
  const T lo = checked_scalar_as<T>(start);
  const T hi = checked_scalar_as<T>(end);
  if (steps == 1) {
    for (int64_t i = 0; i < n; ++i) p[i] = lo;
    return;
  }
  const int64_t half = steps / 2;
  if constexpr (std::is_integral_v<T>) {
    const double step =
        (static_cast<double>(hi) - static_cast<double>(lo)) / static_cast<double>(steps - 1);
    for (int64_t i = 0; i < n; ++i) {
      const double v = i < half
                           ? static_cast<double>(lo) + step * static_cast<double>(i)
                           : static_cast<double>(hi) - step * static_cast<double>(steps - i - 1);
      p[i] = static_cast<T>(v);
    }
  } else if constexpr (std::is_same_v<opmath_t<T>, T> || is_complex_v<T>) {
    using C = opmath_t<T>;
    using R = real_value_t<C>;
    const C a = to_opmath(lo), b = to_opmath(hi);
    const C step = (b - a) / static_cast<R>(steps - 1);
    for (int64_t i = 0; i < n; ++i) {
      const C v =
          i < half ? a + step * static_cast<R>(i) : b - step * static_cast<R>(steps - i - 1);
      p[i] = from_opmath<T>(v);
    }
  } else {
    // Half / BFloat16: each operation rounds to T.
    auto r = [](float x) { return static_cast<float>(T(x)); };
    const float a = static_cast<float>(lo), b = static_cast<float>(hi);
    const float step = r(r(b - a) / r(static_cast<float>(steps - 1)));
    for (int64_t i = 0; i < n; ++i) {
      const float v = i < half ? r(a + r(step * r(static_cast<float>(i))))
                               : r(b - r(step * r(static_cast<float>(steps - i - 1))));
      p[i] = T(v);
    }
  }
}

}  // namespace

Tensor linspace_out(const Scalar& start, const Scalar& end, int64_t steps, const Tensor& out) {
  ST_CHECK(steps >= 0, "linspace(): number of steps must be non-negative, got ", steps);
  // As PyTorch: out keeps its shape when it already has `steps` elements
  // (filled in memory order), and is resized without a warning otherwise.
  if (out.numel() != steps) resize_impl(out, {steps});
  if (out.is_meta() || steps == 0) return out;
  check_host_memory(out, "linspace", "out");
  const ScalarType dt = out.dtype();
  Tensor result =
      out.is_contiguous() ? out : st::detail::empty_generic(out.sizes(), dt, out.device());
  dispatch_dtype<kAllTypes | kReducedFloatTypes | kUnsignedTypes | kComplexTypes>(
      dt, "linspace_cpu", [&](auto tag) {
        using T = typename decltype(tag)::type;
        fill_linspace<T>(static_cast<T*>(result.data_ptr()), result.numel(), steps, start, end);
      });
  if (!result.is_same(out)) copy_into(out, result);
  return out;
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps,
                std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory) {
  ST_CHECK(steps >= 0, "linspace(): number of steps must be non-negative, got ", steps);
  ScalarType dt = dtype.value_or(default_dtype());
  if (start.isComplex() || end.isComplex()) {
    // Complex ends need a complex result: PyTorch infers its default
    // complex dtype and refuses a real one.
    ST_CHECK(!dtype.has_value() || torch::headeronly::isComplexType(*dtype),
             "linspace(): inferred dtype ", torch::headeronly::toString(default_complex_dtype()),
             " can't be safely cast to passed dtype ", torch::headeronly::toString(dt));
    if (!dtype.has_value()) dt = default_complex_dtype();
  }
  Tensor out = st::empty({steps}, dt, layout, device, pin_memory);
  return st::linspace_outf(start, end, steps, out);
}

// ---- eye --------------------------------------------------------------------

Tensor eye_out(int64_t n, int64_t m, const Tensor& out) {
  ST_CHECK(n >= 0, "eye(): n must be greater or equal to 0, got ", n);
  ST_CHECK(m >= 0, "eye(): m must be greater or equal to 0, got ", m);
  const int64_t shape[2] = {n, m};
  if (out.dim() != 2 || out.size(0) != n || out.size(1) != m) resize_impl(out, shape);
  if (out.is_meta()) return out;
  st::zero_(out);
  const int64_t k = std::min(n, m);
  if (k == 0) return out;
  check_host_memory(out, "eye", "out");
  // The bytes of a one in out's dtype, written along the diagonal.
  const Tensor one = scalar_to_tensor(1, out.dtype());
  const size_t item = static_cast<size_t>(out.itemsize());
  const int64_t step = out.stride(0) + out.stride(1);
  char* base = static_cast<char*>(out.data_ptr());
  for (int64_t i = 0; i < k; ++i) {
    std::memcpy(base + static_cast<size_t>(i * step) * item, one.const_data_ptr(), item);
  }
  return out;
}

Tensor eye_out(int64_t n, const Tensor& out) {
  ST_CHECK(n >= 0, "eye(): n must be greater or equal to 0, got ", n);
  return st::eye_outf(n, n, out);
}

Tensor eye(int64_t n, int64_t m, std::optional<ScalarType> dtype, std::optional<Layout> layout,
           std::optional<Device> device, std::optional<bool> pin_memory) {
  Tensor out = st::empty({0}, dtype.value_or(default_dtype()), layout, device, pin_memory);
  return st::eye_outf(n, m, out);
}

Tensor eye(int64_t n, std::optional<ScalarType> dtype, std::optional<Layout> layout,
           std::optional<Device> device, std::optional<bool> pin_memory) {
  return native::eye(n, n, dtype, layout, device, pin_memory);
}

}  // namespace st::native
