// Random kernels: rand/randn/randint(_like), randperm, uniform_, normal_,
// bernoulli, each with PyTorch's optional `Generator? generator` argument.
// Each reads its generator in chunks of words (fill_words, or a
// RandomWordStream where the count is not known in advance: one lock per
// chunk, not per value), never fetching a word it does not consume, so the
// generator ends where the same draws one by one would leave it.
// Values are drawn serially, in memory order of a contiguous result, from
// the given CPU generator or else the default one, so a seed fixes the
// output.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/generator.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/tensor_iterator.h>

#include "cpu/vec_math.h"
#include "host_memory.h"

namespace st::native {

namespace {

constexpr double kPi = 3.14159265358979323846;

// The generator a CPU kernel draws from: `generator` when one is given (it
// must live on the CPU), else the default CPU generator.
CPUGeneratorImpl* cpu_generator(const std::optional<Generator>& generator, const char* op) {
  if (!generator.has_value() || !generator->defined()) return default_cpu_generator().cpu();
  ST_CHECK(generator->device().is_cpu(), op,
           ": expected a 'cpu' device type for generator but found '", generator->device(), "'");
  return generator->cpu();
}

// A generator may only draw for tensors on its own device type.
void check_generator_device(const std::optional<Generator>& generator, Device device,
                            const char* op) {
  if (!generator.has_value() || !generator->defined()) return;
  ST_CHECK(generator->device().type() == device.type(), op, ": expected a '", Device(device.type()),
           "' device type for generator but found '", generator->device(), "'");
}

// Draws are fetched in chunks of this many words (one lock each).
constexpr int64_t kWordChunk = 1024;

// uniform_float_from_bits through a signed conversion (the 24-bit value
// fits), which vectorizes without the unsigned conversion's fix-up.
inline float uniform_float_of(uint32_t bits) {
  return static_cast<float>(static_cast<int32_t>(bits >> 8)) * 0x1.0p-24f;
}

// x % d for 32-bit x and 0 < d < 2^32 without a division: with m =
// ceil(2^64 / d) (wrapping to 0 for d = 1), x % d is the high 64 bits of
// (m x mod 2^64) d (Lemire, Kaser and Kurz, "Faster remainder by direct
// computation", 2019).
struct Mod32 {
  explicit Mod32(uint32_t d) : d(d), m(~uint64_t{0} / d + 1) {}
  uint32_t operator()(uint32_t x) const {
    const uint64_t low = m * x;
    // The high 64 bits of low * d, d < 2^32: from the halves of low.
    const uint64_t part = (low & 0xFFFFFFFFull) * d;
    return static_cast<uint32_t>(((low >> 32) * d + (part >> 32)) >> 32);
  }
  uint64_t d;
  uint64_t m;
};

template <uint64_t Allowed, typename Draw>
Tensor fill_random(const Tensor& out, const char* op, CPUGeneratorImpl* gen, Draw draw) {
  if (out.numel() == 0 || out.is_meta()) return out;
  check_host_memory(out, op, "self");
  Tensor r =
      out.is_contiguous() ? out : st::detail::empty_generic(out.sizes(), out.dtype(), out.device());
  const int64_t n = r.numel();
  dispatch_dtype<Allowed>(r.dtype(), op, [&](auto tag) {
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

// Uniform in [from, to): rand is [0, 1). A value that rounds up to `to` in
// a narrow type is drawn again, unless from and to round to one value.
Tensor uniform_fill(const Tensor& out, double from, double to, CPUGeneratorImpl* gen,
                    const char* op) {
  check_floating(op, out.dtype());
  const double span = to - from;
  return fill_random<kAllFloat | kComplexTypes>(
      out, op, gen, [from, to, span](auto tag, auto* p, int64_t n, CPUGeneratorImpl* g) {
        using T = typename decltype(tag)::type;
        const uint64_t count = static_cast<uint64_t>(n);
        if constexpr (is_complex_v<T>) {
          using U = typename opmath_t<T>::value_type;
          RandomWordStream words(g, 4 * count);
          for (int64_t i = 0; i < n; ++i) {
            const U re = static_cast<U>(from + span * words.uniform_double());
            const U im = static_cast<U>(from + span * words.uniform_double());
            p[i] = from_opmath<T>(opmath_t<T>(re, im));
          }
        } else if constexpr (std::is_same_v<T, double>) {
          RandomWordStream words(g, 2 * count);
          for (int64_t i = 0; i < n; ++i) p[i] = from + span * words.uniform_double();
        } else {
          const T lo = convert<T>(from);
          const T hi = convert<T>(to);
          const bool redraw = static_cast<double>(lo) < static_cast<double>(hi);
          // A value grows with its draw (span >= 0, rounding is monotonic):
          // when the largest draw stays below `to`, none is drawn again, so
          // the words are one per value, fetched in chunks.
          const T top = convert<T>(from + span * static_cast<double>(1.0f - 0x1.0p-24f));
          if (!redraw || static_cast<double>(top) < static_cast<double>(hi)) {
            uint32_t w[kWordChunk];
            for (int64_t i0 = 0; i0 < n; i0 += kWordChunk) {
              const int64_t m = std::min(kWordChunk, n - i0);
              g->fill_words(w, static_cast<size_t>(m));
              T* dst = p + i0;
              for (int64_t k = 0; k < m; ++k) {
                dst[k] = convert<T>(from + span * static_cast<double>(uniform_float_of(w[k])));
              }
            }
            return;
          }
          RandomWordStream words(g, count);
          for (int64_t i = 0; i < n; ++i) {
            T v;
            do {
              v = convert<T>(from + span * static_cast<double>(words.uniform_float()));
            } while (redraw && !(static_cast<double>(v) < static_cast<double>(hi)));
            p[i] = v;
          }
        }
      });
}

Tensor normal_fill(const Tensor& out, double mean, double std, CPUGeneratorImpl* gen,
                   const char* op) {
  check_floating(op, out.dtype());
  ST_CHECK(std >= 0.0, op, ": expected std >= 0.0, but found std ", std);
  return fill_random<kAllFloat | kComplexTypes>(
      out, op, gen, [mean, std](auto tag, auto* p, int64_t n, CPUGeneratorImpl* g) {
        using T = typename decltype(tag)::type;
        // Box-Muller on (0, 1] x [0, 1): one pair of uniforms (4 words) gives
        // two independent standard normals, radius * cos and radius * sin.
        auto gauss_pair = [](RandomWordStream& words, double& a, double& b) {
          const double u1 = 1.0 - words.uniform_double();
          const double u2 = words.uniform_double();
          const double radius = std::sqrt(-2.0 * std::log(u1));
          const double angle = 2.0 * kPi * u2;
          a = radius * std::cos(angle);
          b = radius * std::sin(angle);
        };
        if constexpr (is_complex_v<T>) {
          using U = typename opmath_t<T>::value_type;
          const double s = std * std::sqrt(0.5);  // unit variance overall, as PyTorch
          RandomWordStream words(g, 4 * static_cast<uint64_t>(n));
          for (int64_t i = 0; i < n; ++i) {
            double re = 0, im = 0;
            gauss_pair(words, re, im);
            p[i] = from_opmath<T>(
                opmath_t<T>(static_cast<U>(mean + re * s), static_cast<U>(mean + im * s)));
          }
        } else if constexpr (std::is_same_v<T, float>) {
          // float32 draws 24-bit uniforms (one word each, two per pair) and
          // runs Box-Muller in float through the vector functions; the pair
          // order (cos, sin) is the double path's.
          const int64_t pairs = (n + 1) / 2;
          const auto normal_pairs = cpu::vec_math().normal_pairs_f32;
          constexpr int64_t kBlock = kWordChunk / 2;
          uint32_t w[2 * kBlock];
          float u1[kBlock], u2[kBlock], z[2 * kBlock];
          const float mean_f = static_cast<float>(mean);
          const float std_f = static_cast<float>(std);
          for (int64_t p0 = 0; p0 < pairs; p0 += kBlock) {
            const int64_t m = std::min(kBlock, pairs - p0);
            g->fill_words(w, static_cast<size_t>(2 * m));
            for (int64_t k = 0; k < m; ++k) {
              u1[k] = 1.0f - uniform_float_of(w[2 * k]);
              u2[k] = uniform_float_of(w[2 * k + 1]);
            }
            normal_pairs(z, u1, u2, m);
            const int64_t count = std::min(2 * m, n - 2 * p0);
            for (int64_t k = 0; k < count; ++k) p[2 * p0 + k] = mean_f + std_f * z[k];
          }
        } else {
          RandomWordStream words(g, 4 * ((static_cast<uint64_t>(n) + 1) / 2));
          for (int64_t i = 0; i < n; i += 2) {
            double a = 0, b = 0;
            gauss_pair(words, a, b);
            p[i] = convert<T>(mean + std * a);
            if (i + 1 < n) p[i + 1] = convert<T>(mean + std * b);
          }
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

Tensor randint_fill(int64_t low, int64_t high, const Tensor& out, CPUGeneratorImpl* gen) {
  ST_CHECK(low < high, "random_ expects 'from' to be less than 'to', but got from=", low,
           " >= to=", high);
  check_random_bounds(low, high, out.dtype());
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);
  return fill_random<kAllTypes | kReducedFloatTypes | kBoolType>(
      out, "randint", gen, [low, range](auto tag, auto* p, int64_t n, CPUGeneratorImpl* g) {
        using T = typename decltype(tag)::type;
        uint32_t w[kWordChunk];
        if (range <= 0xFFFFFFFFull) {  // one word per value
          const Mod32 mod(static_cast<uint32_t>(range));
          for (int64_t i0 = 0; i0 < n; i0 += kWordChunk) {
            const int64_t m = std::min(kWordChunk, n - i0);
            g->fill_words(w, static_cast<size_t>(m));
            T* dst = p + i0;
            for (int64_t k = 0; k < m; ++k) {
              dst[k] = convert<T>(static_cast<int64_t>(static_cast<uint64_t>(low) + mod(w[k])));
            }
          }
          return;
        }
        // Two words per value, the first one high (as random64()).
        for (int64_t i0 = 0; i0 < n; i0 += kWordChunk / 2) {
          const int64_t m = std::min(kWordChunk / 2, n - i0);
          g->fill_words(w, static_cast<size_t>(2 * m));
          T* dst = p + i0;
          for (int64_t k = 0; k < m; ++k) {
            const uint64_t r = ((static_cast<uint64_t>(w[2 * k]) << 32) | w[2 * k + 1]) % range;
            dst[k] = convert<T>(static_cast<int64_t>(static_cast<uint64_t>(low) + r));
          }
        }
      });
}

// Bernoulli draws: element i is 1 with probability prob(i).
template <typename Prob>
Tensor bernoulli_fill(const Tensor& out, CPUGeneratorImpl* gen, Prob prob) {
  return fill_random<kAllTypes | kReducedFloatTypes | kBoolType>(
      out, "bernoulli", gen, [&prob](auto tag, auto* p, int64_t n, CPUGeneratorImpl* g) {
        using T = typename decltype(tag)::type;
        RandomWordStream words(g, 2 * static_cast<uint64_t>(n));
        for (int64_t i = 0; i < n; ++i) p[i] = convert<T>(words.uniform_double() < prob(i) ? 1 : 0);
      });
}

void check_probability(double p, const char* op) {
  ST_CHECK(p >= 0.0 && p <= 1.0, op, ": expected p to be in [0, 1], but got p=", p);
}

}  // namespace

Tensor rand(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
            std::optional<Device> device, std::optional<bool> pin_memory) {
  return uniform_fill(st::empty(size, dtype, layout, device, pin_memory), 0.0, 1.0,
                      default_cpu_generator().cpu(), "rand");
}
Tensor rand(IntArrayRef size, std::optional<Generator> generator, std::optional<ScalarType> dtype,
            std::optional<Layout> layout, std::optional<Device> device,
            std::optional<bool> pin_memory) {
  if (!generator.has_value() || !generator->defined()) {
    return st::rand(size, dtype, layout, device, pin_memory);
  }
  check_generator_device(generator, device.value_or(Device(DeviceType::CPU)), "rand");
  return uniform_fill(st::empty(size, dtype, layout, device, pin_memory), 0.0, 1.0,
                      cpu_generator(generator, "rand"), "rand");
}
Tensor rand_out(IntArrayRef size, const Tensor& out) {
  return native::rand_out(size, std::nullopt, out);
}
Tensor rand_out(IntArrayRef size, std::optional<Generator> generator, const Tensor& out) {
  resize_output(out, size);
  return uniform_fill(out, 0.0, 1.0, cpu_generator(generator, "rand"), "rand");
}
Tensor rand_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format) {
  return uniform_fill(st::empty_like(self, dtype, layout, device, pin_memory, memory_format), 0.0,
                      1.0, default_cpu_generator().cpu(), "rand_like");
}
Tensor randn(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
             std::optional<Device> device, std::optional<bool> pin_memory) {
  return normal_fill(st::empty(size, dtype, layout, device, pin_memory), 0.0, 1.0,
                     default_cpu_generator().cpu(), "randn");
}
Tensor randn(IntArrayRef size, std::optional<Generator> generator, std::optional<ScalarType> dtype,
             std::optional<Layout> layout, std::optional<Device> device,
             std::optional<bool> pin_memory) {
  if (!generator.has_value() || !generator->defined()) {
    return st::randn(size, dtype, layout, device, pin_memory);
  }
  check_generator_device(generator, device.value_or(Device(DeviceType::CPU)), "randn");
  return normal_fill(st::empty(size, dtype, layout, device, pin_memory), 0.0, 1.0,
                     cpu_generator(generator, "randn"), "randn");
}
Tensor randn_out(IntArrayRef size, const Tensor& out) {
  return native::randn_out(size, std::nullopt, out);
}
Tensor randn_out(IntArrayRef size, std::optional<Generator> generator, const Tensor& out) {
  resize_output(out, size);
  return normal_fill(out, 0.0, 1.0, cpu_generator(generator, "randn"), "randn");
}
Tensor randn_like(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory,
                  std::optional<MemoryFormat> memory_format) {
  return normal_fill(st::empty_like(self, dtype, layout, device, pin_memory, memory_format), 0.0,
                     1.0, default_cpu_generator().cpu(), "randn_like");
}
Tensor randint(int64_t low, int64_t high, IntArrayRef size, std::optional<ScalarType> dtype,
               std::optional<Layout> layout, std::optional<Device> device,
               std::optional<bool> pin_memory) {
  return native::randint(low, high, size, std::nullopt, dtype, layout, device, pin_memory);
}
Tensor randint(int64_t high, IntArrayRef size, std::optional<ScalarType> dtype,
               std::optional<Layout> layout, std::optional<Device> device,
               std::optional<bool> pin_memory) {
  return native::randint(0, high, size, dtype, layout, device, pin_memory);
}
Tensor randint(int64_t low, int64_t high, IntArrayRef size, std::optional<Generator> generator,
               std::optional<ScalarType> dtype, std::optional<Layout> layout,
               std::optional<Device> device, std::optional<bool> pin_memory) {
  check_generator_device(generator, device.value_or(Device(DeviceType::CPU)), "randint");
  return randint_fill(low, high,
                      st::empty(size, dtype.value_or(ScalarType::Long), layout, device, pin_memory),
                      cpu_generator(generator, "randint"));
}
Tensor randint(int64_t high, IntArrayRef size, std::optional<Generator> generator,
               std::optional<ScalarType> dtype, std::optional<Layout> layout,
               std::optional<Device> device, std::optional<bool> pin_memory) {
  return native::randint(0, high, size, std::move(generator), dtype, layout, device, pin_memory);
}
Tensor randint_out(int64_t low, int64_t high, IntArrayRef size, const Tensor& out) {
  return native::randint_out(low, high, size, std::nullopt, out);
}
Tensor randint_out(int64_t high, IntArrayRef size, const Tensor& out) {
  return native::randint_out(0, high, size, out);
}
Tensor randint_out(int64_t low, int64_t high, IntArrayRef size, std::optional<Generator> generator,
                   const Tensor& out) {
  resize_output(out, size);
  return randint_fill(low, high, out, cpu_generator(generator, "randint"));
}
Tensor randint_out(int64_t high, IntArrayRef size, std::optional<Generator> generator,
                   const Tensor& out) {
  return native::randint_out(0, high, size, std::move(generator), out);
}

Tensor randperm(int64_t n, std::optional<Generator> generator, std::optional<ScalarType> dtype,
                std::optional<Layout> layout, std::optional<Device> device,
                std::optional<bool> pin_memory) {
  ST_CHECK(n >= 0, "randperm: n must be non-negative, got ", n);
  check_generator_device(generator, device.value_or(Device(DeviceType::CPU)), "randperm");
  Tensor out = st::empty({n}, dtype.value_or(ScalarType::Long), layout, device, pin_memory);
  if (n == 0 || out.is_meta()) return out;
  check_host_memory(out, "randperm", "out");
  // Every value below n must be exact in the dtype.
  dispatch_dtype<kAllTypes | kReducedFloatTypes>(out.dtype(), "randperm", [&](auto tag) {
    using T = typename decltype(tag)::type;
    ST_CHECK(static_cast<double>(convert<T>(n - 1)) == static_cast<double>(n - 1),
             "randperm: n is too large for result dtype ", torch::headeronly::toString(out.dtype()),
             ", got n=", n);
  });
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
  CPUGeneratorImpl* g = cpu_generator(generator, "randperm");
  // Fisher-Yates: position i takes a uniform pick of the n - i values left
  // (one word each while fewer than 2^32 are left, two before).
  RandomWordStream words(g, static_cast<uint64_t>(n - 1));
  for (int64_t i = 0; i + 1 < n; ++i) {
    const uint64_t left = static_cast<uint64_t>(n - i);
    const uint64_t r = left <= 0xFFFFFFFFull ? words.next() % left : words.next64() % left;
    std::swap(perm[static_cast<size_t>(i)], perm[static_cast<size_t>(i) + r]);
  }
  dispatch_dtype<kAllTypes | kReducedFloatTypes>(out.dtype(), "randperm", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = static_cast<T*>(out.data_ptr());
    for (int64_t i = 0; i < n; ++i) p[i] = convert<T>(perm[static_cast<size_t>(i)]);
  });
  return out;
}
Tensor randperm(int64_t n, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory) {
  return native::randperm(n, std::nullopt, dtype, layout, device, pin_memory);
}

Tensor uniform_(const Tensor& self, double from, double to, std::optional<Generator> generator) {
  ST_CHECK(from <= to, "uniform_: expected from <= to, but got from=", from, " > to=", to);
  ST_CHECK(std::isfinite(to - from), "uniform_: to - from must be finite, but got from=", from,
           " to=", to);
  return uniform_fill(self, from, to, cpu_generator(generator, "uniform_"), "uniform_");
}

Tensor normal_(const Tensor& self, double mean, double std, std::optional<Generator> generator) {
  return normal_fill(self, mean, std, cpu_generator(generator, "normal_"), "normal_");
}

Tensor bernoulli(const Tensor& self, std::optional<Generator> generator) {
  check_floating("bernoulli", self.dtype());
  check_host_memory(self, "bernoulli", "self");
  const Tensor probs = st::to(self, ScalarType::Double).contiguous();
  const double* p = static_cast<const double*>(probs.data_ptr());
  for (int64_t i = 0; i < probs.numel(); ++i) check_probability(p[i], "bernoulli");
  Tensor out = st::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                              MemoryFormat::Contiguous);
  return bernoulli_fill(out, cpu_generator(generator, "bernoulli"),
                        [p](int64_t i) { return p[i]; });
}

Tensor bernoulli(const Tensor& self, double p, std::optional<Generator> generator) {
  check_probability(p, "bernoulli");
  Tensor out = st::empty_like(self, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                              MemoryFormat::Contiguous);
  return bernoulli_fill(out, cpu_generator(generator, "bernoulli"), [p](int64_t) { return p; });
}

}  // namespace st::native
