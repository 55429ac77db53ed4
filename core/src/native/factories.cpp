// Factory kernels: empty*, zeros/ones/full(_like), new_*, scalar_tensor,
// arange, rand/randn/randint(_like).
#include <cmath>
#include <limits>
#include <type_traits>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/generator.h>
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

constexpr double kPi = 3.14159265358979323846;

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

Tensor empty(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
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

Tensor empty_strided(IntArrayRef size, IntArrayRef stride, std::optional<ScalarType> dtype,
                     std::optional<Layout> layout, std::optional<Device> device,
                     std::optional<bool> pin_memory) {
  check_options("empty_strided", layout, pin_memory);
  return st::detail::empty_strided_generic(size, stride, dtype.value_or(default_dtype()),
                                           device_or_cpu(device));
}

Tensor empty_like(const Tensor& self, std::optional<ScalarType> dtype,
                  std::optional<Layout> layout, std::optional<Device> device,
                  std::optional<bool> pin_memory, std::optional<MemoryFormat> memory_format) {
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
  Tensor t = st::empty(size, dtype.value_or(dtype_of_fill(fill_value)), layout, device,
                       pin_memory);
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

Tensor zeros_like(const Tensor& self, std::optional<ScalarType> dtype,
                  std::optional<Layout> layout, std::optional<Device> device,
                  std::optional<bool> pin_memory, std::optional<MemoryFormat> memory_format) {
  return native::full_like(self, 0, dtype, layout, device, pin_memory, memory_format);
}

Tensor ones_like(const Tensor& self, std::optional<ScalarType> dtype,
                 std::optional<Layout> layout, std::optional<Device> device,
                 std::optional<bool> pin_memory, std::optional<MemoryFormat> memory_format) {
  return native::full_like(self, 1, dtype, layout, device, pin_memory, memory_format);
}

Tensor scalar_tensor(const Scalar& s, std::optional<ScalarType> dtype,
                     std::optional<Layout> layout, std::optional<Device> device,
                     std::optional<bool> pin_memory) {
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

Tensor arange_out(const Scalar& end, const Tensor& out) { return native::arange_out(0, end, 1, out); }

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

// ---- random -----------------------------------------------------------------
// The default CPU generator; values are drawn serially in memory order of a
// contiguous result, so a seed fixes the output.

namespace {

template <typename Draw>
Tensor fill_random(const Tensor& out, const char* op, uint64_t allowed, Draw draw) {
  if (out.numel() == 0 || out.is_meta()) return out;
  check_host_memory(out, op, "self");
  Tensor r = out.is_contiguous() ? out : st::detail::empty_generic(out.sizes(), out.dtype(), out.device());
  CPUGeneratorImpl* gen = default_cpu_generator().cpu();
  const int64_t n = r.numel();
  (void)allowed;
  dispatch_dtype<kAllTypes | kReducedFloatTypes | kBoolType | kComplexTypes>(
      r.dtype(), op, [&](auto tag) {
        using T = typename decltype(tag)::type;
        draw(tag, static_cast<T*>(r.data_ptr()), n, gen);
      });
  if (!r.is_same(out)) copy_into(out, r);
  return out;
}

void check_floating(const char* op, ScalarType dt) {
  ST_CHECK(torch::headeronly::isFloatingType(dt) || torch::headeronly::isComplexType(dt), op,
           ": expected a floating point or complex dtype but got ",
           torch::headeronly::toString(dt));
}

Tensor uniform_fill(const Tensor& out) {
  check_floating("rand", out.dtype());
  return fill_random(out, "rand", kAllFloat | kComplexTypes, [](auto tag, auto* p, int64_t n, CPUGeneratorImpl* g) {
    using T = typename decltype(tag)::type;
    if constexpr (is_complex_v<T>) {
      using U = typename opmath_t<T>::value_type;
      for (int64_t i = 0; i < n; ++i) {
        const U re = static_cast<U>(g->uniform_double());
        const U im = static_cast<U>(g->uniform_double());
        p[i] = from_opmath<T>(opmath_t<T>(re, im));
      }
    } else if constexpr (std::is_same_v<T, double>) {
      for (int64_t i = 0; i < n; ++i) p[i] = g->uniform_double();
    } else if constexpr (std::is_floating_point_v<opmath_t<T>> && !std::is_same_v<T, bool>) {
      for (int64_t i = 0; i < n; ++i) {
        // Rounding to a narrow type may give 1.0: redraw so values stay < 1.
        T v;
        do {
          v = convert<T>(g->uniform_float());
        } while (!(static_cast<float>(v) < 1.0f));
        p[i] = v;
      }
    }
  });
}

Tensor normal_fill(const Tensor& out) {
  check_floating("randn", out.dtype());
  return fill_random(out, "randn", kAllFloat | kComplexTypes, [](auto tag, auto* p, int64_t n, CPUGeneratorImpl* g) {
    using T = typename decltype(tag)::type;
    auto gauss = [g]() {
      // Box-Muller on (0, 1] x [0, 1).
      const double u1 = 1.0 - g->uniform_double();
      const double u2 = g->uniform_double();
      return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * kPi * u2);
    };
    if constexpr (is_complex_v<T>) {
      using U = typename opmath_t<T>::value_type;
      const double s = std::sqrt(0.5);  // unit variance overall, as PyTorch
      for (int64_t i = 0; i < n; ++i) {
        const U re = static_cast<U>(gauss() * s);
        const U im = static_cast<U>(gauss() * s);
        p[i] = from_opmath<T>(opmath_t<T>(re, im));
      }
    } else if constexpr (!std::is_same_v<T, bool> && !std::is_integral_v<T>) {
      for (int64_t i = 0; i < n; ++i) p[i] = convert<T>(gauss());
    }
  });
}

// [from, to - 1] must hold values the dtype represents exactly: bool's 0
// and 1, an integer type's range, a float type's contiguous integers
// (+-2^digits), as PyTorch's random_(from, to) checks.
void check_random_bounds(int64_t from, int64_t to, ScalarType dtype) {
  int64_t lo = 0;
  int64_t hi = 0;
  bool bounded = true;
  dispatch_dtype<kAllTypes | kReducedFloatTypes | kBoolType>(dtype, "randint", [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>) {
      lo = 0;
      hi = 1;
    } else if constexpr (std::is_integral_v<T>) {
      if constexpr (sizeof(T) >= sizeof(int64_t)) {
        bounded = false;  // every int64 fits
      } else {
        lo = static_cast<int64_t>(std::numeric_limits<T>::lowest());
        hi = static_cast<int64_t>(std::numeric_limits<T>::max());
      }
    } else {
      const int digits = std::is_same_v<T, Half>       ? 11
                         : std::is_same_v<T, BFloat16> ? 8
                         : std::is_same_v<T, float>    ? 24
                                                       : 53;
      hi = int64_t{1} << digits;
      lo = -hi;
    }
  });
  if (!bounded) return;
  const char* name = torch::headeronly::toString(dtype);
  ST_CHECK(from >= lo && from <= hi, "from is out of bounds for ", name);
  ST_CHECK(to - 1 >= lo && to - 1 <= hi, "to - 1 is out of bounds for ", name);
}

Tensor randint_fill(int64_t low, int64_t high, const Tensor& out) {
  ST_CHECK(low < high, "random_ expects 'from' to be less than 'to', but got from=", low,
           " >= to=", high);
  check_random_bounds(low, high, out.dtype());
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  return fill_random(out, "randint", kAllTypes | kReducedFloatTypes | kBoolType,
                     [low, range](auto tag, auto* p, int64_t n, CPUGeneratorImpl* g) {
    using T = typename decltype(tag)::type;
    if constexpr (!is_complex_v<T>) {
      for (int64_t i = 0; i < n; ++i) {
        const uint64_t r = range <= 0xFFFFFFFFull ? g->random() % range : g->random64() % range;
        p[i] = convert<T>(static_cast<int64_t>(static_cast<uint64_t>(low) + r));
      }
    }
  });
}

}  // namespace

Tensor rand(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
            std::optional<Device> device, std::optional<bool> pin_memory) {
  return uniform_fill(st::empty(size, dtype, layout, device, pin_memory));
}
Tensor rand_out(IntArrayRef size, const Tensor& out) {
  resize_output(out, size);
  return uniform_fill(out);
}
Tensor rand_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  return uniform_fill(st::empty_like(self, dtype, layout, device, pin_memory, memory_format));
}
Tensor randn(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
             std::optional<Device> device, std::optional<bool> pin_memory) {
  return normal_fill(st::empty(size, dtype, layout, device, pin_memory));
}
Tensor randn_out(IntArrayRef size, const Tensor& out) {
  resize_output(out, size);
  return normal_fill(out);
}
Tensor randn_like(const Tensor& self, std::optional<ScalarType> dtype,
                  std::optional<Layout> layout, std::optional<Device> device,
                  std::optional<bool> pin_memory, std::optional<MemoryFormat> memory_format) {
  return normal_fill(st::empty_like(self, dtype, layout, device, pin_memory, memory_format));
}
Tensor randint(int64_t low, int64_t high, IntArrayRef size, std::optional<ScalarType> dtype,
               std::optional<Layout> layout, std::optional<Device> device,
               std::optional<bool> pin_memory) {
  return randint_fill(low, high,
                      st::empty(size, dtype.value_or(ScalarType::Long), layout, device, pin_memory));
}
Tensor randint(int64_t high, IntArrayRef size, std::optional<ScalarType> dtype,
               std::optional<Layout> layout, std::optional<Device> device,
               std::optional<bool> pin_memory) {
  return native::randint(0, high, size, dtype, layout, device, pin_memory);
}
Tensor randint_out(int64_t low, int64_t high, IntArrayRef size, const Tensor& out) {
  resize_output(out, size);
  return randint_fill(low, high, out);
}
Tensor randint_out(int64_t high, IntArrayRef size, const Tensor& out) {
  return native::randint_out(0, high, size, out);
}

}  // namespace st::native
