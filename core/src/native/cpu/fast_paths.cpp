// The engines' fast paths; see fast_paths.h.
#include "fast_paths.h"

#include <algorithm>
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/parallel.h>
#include <st/core/wrap_dim.h>

#include "vec_kernels.h"

namespace st::native::cpu {

namespace {

// The same grain as the elementwise engine's parallel loop.
constexpr int64_t kGrain = 32768;
// Outputs at least this large are written with non-temporal stores: they
// cannot stay in the caches anyway, and streaming skips reading the
// destination before writing it (memcpy does the same for large copies).
constexpr int64_t kStreamBytes = int64_t{16} << 20;

bool same_sizes(IntArrayRef a, IntArrayRef b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

// A usable out= tensor: same dtype, shape and contiguity as self, and
// either the very same memory as an input or no shared storage at all.
bool out_ok(const Tensor& out, const Tensor& self, const Tensor& other) {
  if (out.dtype() != self.dtype() || !out.is_cpu() || !out.is_contiguous() ||
      !same_sizes(out.sizes(), self.sizes())) {
    return false;
  }
  const bool same_as_self = out.const_data_ptr() == self.const_data_ptr();
  if (out.is_alias_of(self) && !same_as_self) return false;
  if (out.is_alias_of(other) &&
      !(out.const_data_ptr() == other.const_data_ptr() && same_sizes(out.sizes(), other.sizes()))) {
    return false;
  }
  return true;
}

template <typename T, typename F>
void run_blocks(int64_t n, const F& f) {
  if (n <= kGrain) {
    f(int64_t{0}, n);
    return;
  }
  parallel_for(0, n, kGrain, f);
}

}  // namespace

Tensor try_fast_binary(BinaryKind kind, const Tensor& out, const Tensor& self, const Tensor& other,
                       const Scalar& alpha, bool negate_alpha, bool inplace) {
  if (!self.defined() || !other.defined()) return Tensor();
  const ScalarType dt = self.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double) return Tensor();
  if (!self.is_cpu() || !other.is_cpu()) return Tensor();
  if (kind == BinaryKind::Add && (alpha.isComplex() || alpha.isBoolean())) return Tensor();
  // A wrapped Python-style number (x + 2.0, x * 3) of a real dtype: type
  // promotion keeps self's floating dtype, so its value is used converted.
  const bool wrapped = other.unsafeGetTensorImpl()->is_wrapped_number() && other.dim() == 0 &&
                       self.dim() > 0 &&
                       (other.dtype() == ScalarType::Double || other.dtype() == ScalarType::Long ||
                        other.dtype() == ScalarType::Bool);
  if (!wrapped && other.dtype() != dt) return Tensor();
  const bool scalar_other = wrapped || (other.numel() == 1 && other.dim() <= self.dim());
  if (!scalar_other && !same_sizes(self.sizes(), other.sizes())) return Tensor();
  if (!self.is_contiguous() || !other.is_contiguous()) return Tensor();
  double wrapped_value = 0;
  float wrapped_float = 0;  // converted from the original value (no double rounding)
  if (wrapped) {
    const void* p = other.const_data_ptr();
    switch (other.dtype()) {
      case ScalarType::Double:
        wrapped_value = *static_cast<const double*>(p);
        break;
      case ScalarType::Long:
        wrapped_value = static_cast<double>(*static_cast<const int64_t*>(p));
        wrapped_float = static_cast<float>(*static_cast<const int64_t*>(p));
        break;
      default:
        wrapped_value = *static_cast<const bool*>(p) ? 1.0 : 0.0;
        break;
    }
    if (other.dtype() != ScalarType::Long) wrapped_float = static_cast<float>(wrapped_value);
  }
  Tensor result;
  if (inplace) {
    if (other.is_alias_of(self) && !(other.const_data_ptr() == self.const_data_ptr() &&
                                     same_sizes(other.sizes(), self.sizes()))) {
      return Tensor();
    }
    result = self;
  } else if (out.defined()) {
    if (!out_ok(out, self, other)) return Tensor();
    result = out;
  } else {
    result = st::detail::empty_generic(self.sizes(), dt, self.device());
  }
  const int64_t n = self.numel();
  const bool stream = n * static_cast<int64_t>(self.itemsize()) >= kStreamBytes;
  const VecKernels& k = vec_kernels();
  if (dt == ScalarType::Float) {
    float* o = static_cast<float*>(result.data_ptr());
    const float* a = static_cast<const float*>(self.const_data_ptr());
    const float* b = wrapped ? &wrapped_float : static_cast<const float*>(other.const_data_ptr());
    if (kind == BinaryKind::Add) {
      float al = alpha.to<float>();
      if (negate_alpha) al = -al;
      run_blocks<float>(n, [&](int64_t i0, int64_t i1) {
        k.add_f32(o + i0, a + i0, scalar_other ? b : b + i0, al, i1 - i0, scalar_other, stream);
      });
    } else {
      run_blocks<float>(n, [&](int64_t i0, int64_t i1) {
        k.mul_f32(o + i0, a + i0, scalar_other ? b : b + i0, i1 - i0, scalar_other, stream);
      });
    }
  } else {
    double* o = static_cast<double*>(result.data_ptr());
    const double* a = static_cast<const double*>(self.const_data_ptr());
    const double* b = wrapped ? &wrapped_value : static_cast<const double*>(other.const_data_ptr());
    if (kind == BinaryKind::Add) {
      double al = alpha.to<double>();
      if (negate_alpha) al = -al;
      run_blocks<double>(n, [&](int64_t i0, int64_t i1) {
        k.add_f64(o + i0, a + i0, scalar_other ? b : b + i0, al, i1 - i0, scalar_other, stream);
      });
    } else {
      run_blocks<double>(n, [&](int64_t i0, int64_t i1) {
        k.mul_f64(o + i0, a + i0, scalar_other ? b : b + i0, i1 - i0, scalar_other, stream);
      });
    }
  }
  return result;
}

}  // namespace st::native::cpu
