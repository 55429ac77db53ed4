// Conversions between dtypes; see st/native/dtype_conversion.h.
#include <st/native/dtype_conversion.h>

#include <algorithm>

#include <st/core/empty_tensor.h>
#include <st/native/copy.h>
#include <st/native/dense_layout.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/loops.h>
#include <st/native/tensor_iterator.h>
#include <st/native/view_ops.h>

namespace st::native {

namespace {

template <typename To>
void cast_loop(TensorIterator& iter, ScalarType from) {
  dispatch_dtype<kEverything>(from, "copy_", [&](auto tag) {
    using From = typename decltype(tag)::type;
    cpu_kernel(iter, [](From v) -> To { return convert<To>(v); });
  });
}

// Casts where one side is an 8-bit floating type: through float, as
// PyTorch converts them.
void float8_cast_loop(TensorIterator& iter, ScalarType to, ScalarType from) {
  if (is_float8(to) && is_float8(from)) {
    dispatch_float8(to, "copy_", [&](auto to_tag) {
      using To = typename decltype(to_tag)::type;
      dispatch_float8(from, "copy_", [&](auto from_tag) {
        using From = typename decltype(from_tag)::type;
        cpu_kernel(iter, [](From v) -> To { return To(static_cast<float>(v)); });
      });
    });
  } else if (is_float8(to)) {
    dispatch_float8(to, "copy_", [&](auto to_tag) {
      using To = typename decltype(to_tag)::type;
      dispatch_dtype<kEverything>(from, "copy_", [&](auto from_tag) {
        using From = typename decltype(from_tag)::type;
        cpu_kernel(iter, [](From v) -> To { return To(convert<float>(v)); });
      });
    });
  } else {
    dispatch_dtype<kEverything>(to, "copy_", [&](auto to_tag) {
      using To = typename decltype(to_tag)::type;
      dispatch_float8(from, "copy_", [&](auto from_tag) {
        using From = typename decltype(from_tag)::type;
        cpu_kernel(iter, [](From v) -> To { return convert<To>(static_cast<float>(v)); });
      });
    });
  }
}

template <typename From, typename To>
void cast_to_strided_loop(const char* src, char* dst, int64_t dst_stride, int64_t n) {
  const From* in = reinterpret_cast<const From*>(src);
  if (dst_stride == static_cast<int64_t>(sizeof(To))) {
    To* out = reinterpret_cast<To*>(dst);
    for (int64_t i = 0; i < n; ++i) out[i] = convert<To>(in[i]);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<To*>(dst + i * dst_stride) = convert<To>(in[i]);
  }
}

}  // namespace

cast_to_strided_fn cast_to_strided(ScalarType from, ScalarType to) {
  if (from == to || (kEverything & dtype_bit(from)) == 0 || (kEverything & dtype_bit(to)) == 0) {
    return nullptr;  // kEverything holds no 8-bit float
  }
  return dispatch_dtype<kEverything>(from, "copy_", [&](auto from_tag) {
    using From = typename decltype(from_tag)::type;
    return dispatch_dtype<kEverything>(to, "copy_", [&](auto to_tag) -> cast_to_strided_fn {
      using To = typename decltype(to_tag)::type;
      return &cast_to_strided_loop<From, To>;
    });
  });
}

Tensor to_dtype(const Tensor& t, ScalarType dtype) {
  if (t.dtype() == dtype) return t;
  Tensor out = empty_preserving(t, dtype);
  copy_into(out, t);
  if (t.unsafeGetTensorImpl()->is_wrapped_number()) {
    out.unsafeGetTensorImpl()->set_wrapped_number(true);
  }
  return out;
}

void copy_into(const Tensor& dst, const Tensor& src) {
  if (dst.numel() == 0) return;
  Tensor s = src;
  const IntArrayRef ss = src.sizes(), ds = dst.sizes();
  if (ss.size() != ds.size() || !std::equal(ss.begin(), ss.end(), ds.begin())) {
    s = native::expand(src, dst.sizes());
  }
  if (s.dtype() == dst.dtype()) {
    native::copy_same_dtype_(dst, s);
    return;
  }
  if (s.device() != dst.device()) {
    // Across host-accessible devices: move first, then convert on dst's
    // device (the iterator keeps its operands on one device).
    Tensor moved = st::detail::empty_generic(s.sizes(), s.dtype(), dst.device());
    native::copy_same_dtype_(moved, s);
    s = moved;
  }
  TensorIterator iter = TensorIteratorConfig()
                            .name("copy_")
                            .add_output(dst)
                            .add_input(s, false)
                            .promote_inputs_to_common_dtype(false)
                            .enforce_safe_casting_to_output(false)
                            .kernel_output_dtype(dst.dtype())
                            .is_inplace(true)
                            .build();
  if (is_float8(dst.dtype()) || is_float8(s.dtype())) {
    float8_cast_loop(iter, dst.dtype(), s.dtype());
    return;
  }
  dispatch_dtype<kEverything>(dst.dtype(), "copy_", [&](auto tag) {
    using To = typename decltype(tag)::type;
    cast_loop<To>(iter, s.dtype());
  });
}

}  // namespace st::native
