// Internal: when an operator whose natural result is Bool (a comparison,
// a logical op) writes its out= or in-place output's dtype itself.
#pragma once

#include <algorithm>

#include <st/core/result_type.h>
#include <st/core/tensor.h>
#include <st/native/tensor_iterator.h>

namespace st::native {

// Whether `in` shares memory with `out` in another view: the iterator then
// computes into a temporary (the result must not depend on the order the
// elements are written), which needs the Bool kernel's output dtype.
inline bool aliased_in_another_view(const Tensor& in, const Tensor& out) {
  if (!in.has_storage() || !out.has_storage() || !in.is_alias_of(out)) return false;
  auto same = [](IntArrayRef x, IntArrayRef y) {
    return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin());
  };
  return !(in.const_data_ptr() == out.const_data_ptr() && same(in.sizes(), out.sizes()) &&
           same(in.strides(), out.strides()));
}

// True when the kernel writes the given output's dtype (1 or 0 of it) in
// one pass: out is given, not Bool, of the inputs' common dtype, and no
// input aliases it in another view. Otherwise the kernel writes Bool and
// the iterator converts it (Note [Converting outputs by blocks]).
// canCast(common, out) holds when they are equal, as canCast(Bool, out)
// does for any out: the iterator's checks are the same either way.
inline bool writes_output_dtype(const Tensor& out, const Tensor& a, const Tensor& b) {
  return out.defined() && out.dtype() != ScalarType::Bool && out.dtype() == st::result_type(a, b) &&
         !aliased_in_another_view(a, out) && !aliased_in_another_view(b, out);
}

// The iterator of an operator whose natural result is Bool, over one
// input (b undefined) or two: its kernel writes out's dtype when
// writes_output_dtype says so (`direct` is set to that), else Bool.
inline TensorIterator bool_result_iterator(const char* name, const Tensor& out, const Tensor& a,
                                           const Tensor& b, bool inplace, bool& direct) {
  const bool unary = !b.defined();
  direct = writes_output_dtype(out, a, unary ? a : b);
  TensorIteratorConfig config;
  config.name(name).add_output(out).add_input(a);
  if (!unary) config.add_input(b);
  return config.kernel_output_dtype(direct ? out.dtype() : ScalarType::Bool)
      .is_inplace(inplace)
      .build();
}

}  // namespace st::native
