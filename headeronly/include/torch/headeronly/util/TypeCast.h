// convert<To>(from): the value conversion the tensor kernels use between
// any two dtypes. It follows static_cast except where PyTorch defines it
// differently:
//   - complex to real keeps the real part; complex to bool tests both parts;
//   - floating to uint8_t goes through int64_t, so negative values wrap
//     (-1.0 -> 255) the same way on every platform;
//   - floating to an integer is the truncating cast, without UBSan
//     reporting out-of-range values (kernels define that case themselves);
//   - complex<Half> / complex<BFloat16> convert through complex<float>.
// checked_convert<To>(from, name) throws std::runtime_error naming the type
// when the value does not fit (see overflows.h).
// Header-only: depends on the numeric type headers and overflows.h.
#pragma once

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/BFloat16.h>
#include <torch/headeronly/util/Float8_e4m3fn.h>
#include <torch/headeronly/util/Float8_e4m3fnuz.h>
#include <torch/headeronly/util/Float8_e5m2.h>
#include <torch/headeronly/util/Float8_e5m2fnuz.h>
#include <torch/headeronly/util/Float8_e8m0fnu.h>
#include <torch/headeronly/util/Half.h>
#include <torch/headeronly/util/complex.h>
#include <torch/headeronly/util/overflows.h>

namespace torch::headeronly {

// Whether converting src_t to dest_t drops an imaginary part.
template <typename dest_t, typename src_t>
struct needs_real {
  constexpr static bool value = is_complex<src_t>::value && !is_complex<dest_t>::value;
};

template <bool, typename src_t>
struct maybe_real {
  C10_HOST_DEVICE static inline src_t apply(src_t src) { return src; }
};
template <typename src_t>
struct maybe_real<true, src_t> {
  C10_HOST_DEVICE static inline decltype(auto) apply(src_t src) { return src.real(); }
};

template <bool, typename src_t>
struct maybe_bool {
  C10_HOST_DEVICE static inline src_t apply(src_t src) { return src; }
};
template <typename src_t>
struct maybe_bool<true, src_t> {
  C10_HOST_DEVICE static inline decltype(auto) apply(src_t src) { return src.real() || src.imag(); }
};

// The floating-to-integer cast, exempt from UBSan's range check.
template <typename dest_t, typename src_t>
C10_HOST_DEVICE __ubsan_ignore_undefined__ static inline dest_t unchecked_cast_to_int(src_t src) {
  return static_cast<dest_t>(src);
}

namespace detail {
template <typename T>
struct is_reduced_complex : std::false_type {};
template <>
struct is_reduced_complex<complex<Half>> : std::true_type {};
template <>
struct is_reduced_complex<complex<BFloat16>> : std::true_type {};
}  // namespace detail

template <typename dest_t, typename src_t>
struct static_cast_with_inter_type {
  C10_HOST_DEVICE __ubsan_ignore_undefined__ static inline dest_t apply(src_t src) {
    if constexpr (detail::is_reduced_complex<dest_t>::value && !std::is_same_v<dest_t, src_t>) {
      // complex<Half>/<BFloat16> are built from complex<float>.
      if constexpr (is_complex<src_t>::value) {
        return dest_t(
            complex<float>(static_cast<float>(src.real()), static_cast<float>(src.imag())));
      } else {
        return dest_t(complex<float>(static_cast<float>(src), 0.0f));
      }
    } else if constexpr (detail::is_reduced_complex<src_t>::value && is_complex<dest_t>::value &&
                         !std::is_same_v<dest_t, src_t>) {
      using V = typename dest_t::value_type;
      return dest_t(static_cast<V>(static_cast<float>(src.real())),
                    static_cast<V>(static_cast<float>(src.imag())));
    } else {
      constexpr bool real = needs_real<dest_t, src_t>::value;
      auto r = maybe_real<real, src_t>::apply(src);
      using R = decltype(r);
      if constexpr (std::is_integral_v<dest_t> && !std::is_integral_v<R>) {
        return unchecked_cast_to_int<dest_t>(r);
      } else if constexpr (std::is_same_v<R, Half> || std::is_same_v<R, BFloat16>) {
        // Half/BFloat16 convert to other types through float.
        return static_cast<dest_t>(static_cast<float>(r));
      } else {
        return static_cast<dest_t>(r);
      }
    }
  }
};

template <typename src_t>
struct static_cast_with_inter_type<bool, src_t> {
  C10_HOST_DEVICE static inline bool apply(src_t src) {
    constexpr bool complex_src = needs_real<bool, src_t>::value;
    return static_cast<bool>(maybe_bool<complex_src, src_t>::apply(src));
  }
};

template <typename src_t>
struct static_cast_with_inter_type<uint8_t, src_t> {
  C10_HOST_DEVICE __ubsan_ignore_undefined__ static inline uint8_t apply(src_t src) {
    constexpr bool real = needs_real<uint8_t, src_t>::value;
    auto r = maybe_real<real, src_t>::apply(src);
    if constexpr (std::is_integral_v<decltype(r)>) {
      return static_cast<uint8_t>(static_cast<int64_t>(r));
    } else {
      return static_cast<uint8_t>(unchecked_cast_to_int<int64_t>(static_cast<double>(r)));
    }
  }
};

template <typename To, typename From>
C10_HOST_DEVICE To convert(From f) {
  return static_cast_with_inter_type<To, From>::apply(f);
}

[[noreturn]] C10_NOINLINE inline void report_overflow(const char* name) {
  std::ostringstream oss;
  oss << "value cannot be converted to type " << name << " without overflow";
  throw std::runtime_error(oss.str());
}

// convert, refusing values that do not fit To (bool takes every value).
template <typename To, typename From>
To checked_convert(From f, const char* name) {
  if constexpr (!std::is_same_v<To, bool>) {
    if (overflows<To, From>(f)) {
      report_overflow(name);
    }
  }
  return convert<To, From>(f);
}

// PyTorch keeps this second spelling; it checks exactly as checked_convert.
template <typename To, typename From>
To unsafe_wrapping_convert(From f, const char* name) {
  return checked_convert<To, From>(f, name);
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::checked_convert;
using torch::headeronly::convert;
using torch::headeronly::maybe_bool;
using torch::headeronly::maybe_real;
using torch::headeronly::needs_real;
using torch::headeronly::report_overflow;
using torch::headeronly::static_cast_with_inter_type;
using torch::headeronly::unchecked_cast_to_int;
using torch::headeronly::unsafe_wrapping_convert;
}  // namespace c10
