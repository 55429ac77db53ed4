// Shape kernels that are not plain views: expand(implicit), flip, pad,
// constant_pad_nd. The view kernels themselves are in view_ops.cpp.
#include <cstring>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/parallel.h>
#include <st/core/wrap_dim.h>
#include <st/device/device_runtime.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/copy.h>
#include <st/native/reduction.h>
#include <st/native/resize.h>
#include <st/native/scalar_ops.h>
#include <st/native/tensor_iterator.h>

namespace st::native {

Tensor expand(const Tensor& self, IntArrayRef size, bool implicit) {
  (void)implicit;  // only meaningful to autograd tracing
  return native::expand(self, size);
}

Tensor flip(const Tensor& self, IntArrayRef dims) {
  const int64_t nd = self.dim();
  std::vector<bool> flipped(static_cast<size_t>(nd), false);
  if (!dims.empty()) flipped = make_dim_mask(dims, nd, "flip");
  // Laid out as self (empty_like with Preserve), as PyTorch's flip is.
  Tensor out = empty_preserving(self, self.dtype());
  if (self.numel() == 0 || self.is_meta()) return out;
  copy_flipped_(out, self, flipped);
  return out;
}

Tensor flip_out(const Tensor& self, IntArrayRef dims, const Tensor& out) {
  // Straight into out when it can take the elements as they are; through a
  // temporary when it shares memory with self or needs a dtype conversion.
  if (out.defined() && out.scalar_type() == self.scalar_type() && out.device() == self.device() &&
      is_host_accessible(self.device()) && !out.storage().is_alias_of(self.storage())) {
    const int64_t nd = self.dim();
    std::vector<bool> flipped(static_cast<size_t>(nd), false);
    if (!dims.empty()) flipped = make_dim_mask(dims, nd, "flip");
    resize_output(out, self.sizes());
    if (self.numel() == 0) return out;
    copy_flipped_(out, self, flipped);
    return out;
  }
  return reduce_into_output(native::flip(self, dims), out, "flip");
}

Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value) {
  const int64_t nd = self.dim();
  const int64_t np = static_cast<int64_t>(pad.size());
  ST_CHECK(np % 2 == 0, "Length of pad must be even but instead it equals ", np);
  ST_CHECK(np / 2 <= nd,
           "Length of pad should be no more than twice the number of dimensions "
           "of the input. Pad length is ",
           np, " while the input has ", nd, " dimensions.");
  std::vector<int64_t> new_shape(self.sizes().begin(), self.sizes().end());
  for (int64_t i = 0; i < np / 2; ++i) {
    const int64_t d = nd - 1 - i;
    const int64_t lo = pad[2 * i], hi = pad[2 * i + 1];
    int64_t s = 0;
    ST_CHECK(!__builtin_add_overflow(self.size(d), lo, &s) && !__builtin_add_overflow(s, hi, &s),
             "constant_pad_nd: padding (", lo, ", ", hi, ") of dimension ", d, " of size ",
             self.size(d), " overflows int64");
    ST_CHECK(s >= 0, "The input size ", self.size(d), ", plus negative padding ", lo, " and ", hi,
             " resulted in a negative output size, which is invalid. Check dimension ", d,
             " of your input.");
    new_shape[static_cast<size_t>(d)] = s;
  }
  Tensor out = st::empty(new_shape, self.dtype(), std::nullopt, self.device());
  st::fill_(out, value);
  // The part of self that survives negative padding, and where it lands.
  Tensor src = self;
  Tensor dst = out;
  for (int64_t i = 0; i < np / 2; ++i) {
    const int64_t d = nd - 1 - i;
    const int64_t lo = pad[2 * i], hi = pad[2 * i + 1];
    const int64_t keep = self.size(d) + std::min<int64_t>(lo, 0) + std::min<int64_t>(hi, 0);
    if (keep <= 0) return out;
    src = native::narrow(src, d, std::max<int64_t>(-lo, 0), keep);
    dst = native::narrow(dst, d, std::max<int64_t>(lo, 0), keep);
  }
  st::copy_(dst, src);
  return out;
}

Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode,
           std::optional<double> value) {
  if (mode == "constant") {
    return st::constant_pad_nd(self, pad, value.value_or(0.0));
  }
  ST_CHECK(!value.has_value() || *value == 0.0, "Padding mode \"", mode,
           "\" doesn't take in value argument");
  ST_CHECK(mode == "reflect" || mode == "replicate" || mode == "circular",
           "Unrecognised padding mode ", mode);
  ST_ERROR("pad: padding mode \"", mode,
           "\" is not implemented yet in stabletorch (only \"constant\")");
}

}  // namespace st::native
