// Indexing: index_select, gather, scatter (src and value), masked_select,
// nonzero, index.Tensor, index_put_. The kernels move elements as raw bytes
// of the element size (no arithmetic), so every dtype is supported; only
// index_put_ with accumulate=True adds, in the dtypes that have arithmetic.
#include <algorithm>
#include <array>
#include <cstring>
#include <optional>
#include <type_traits>
#include <vector>

#include <st/core/checked_arithmetic.h>
#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/parallel.h>
#include <st/core/wrap_dim.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/loops.h>
#include <st/native/memory_overlap.h>
#include <st/native/resize.h>
#include <st/native/scalar_ops.h>
#include <st/native/tensor_iterator.h>

#include "gather_scatter_checks.h"
#include "host_memory.h"
#include "index_preprocess.h"
#include "indexing_out_checks.h"
#include "cpu/vec_kernels.h"

namespace st::native {

namespace {

const char* dtype_name(ScalarType t) { return torch::headeronly::toString(t); }

struct Bytes16 {
  uint64_t lo, hi;
};

// Runs f(TypeTag<U>) with an unsigned type of the element size.
template <typename F>
void by_itemsize(int64_t size, const char* op, F&& f) {
  switch (size) {
    case 1:
      return f(TypeTag<uint8_t>{});
    case 2:
      return f(TypeTag<uint16_t>{});
    case 4:
      return f(TypeTag<uint32_t>{});
    case 8:
      return f(TypeTag<uint64_t>{});
    case 16:
      return f(TypeTag<Bytes16>{});
    default:
      ST_ERROR(op, ": unsupported element size ", size);
  }
}

// Visits every coordinate of `shape` in row-major order, keeping one
// element offset per stride set: f(offsets) with offsets[j] = sum_d
// coord[d] * strides[j][d]. The innermost dim runs as a plain loop with its
// strides in locals (a store through f cannot make the compiler reload
// them); the outer dims step once per row.
template <size_t N, typename F>
void walk(IntArrayRef shape, const std::array<const int64_t*, N>& strides, F&& f) {
  int64_t total = 1;
  for (int64_t s : shape) total *= s;
  if (total == 0) return;
  const size_t nd = shape.size();
  std::array<int64_t, N> base{};
  if (nd == 0) {
    f(base);
    return;
  }
  const int64_t inner = shape[nd - 1];
  std::array<int64_t, N> step{};
  for (size_t j = 0; j < N; ++j) step[j] = strides[j][nd - 1];
  std::vector<int64_t> idx(nd, 0);
  for (int64_t row = 0, rows = total / inner; row < rows; ++row) {
    std::array<int64_t, N> off = base;
    for (int64_t i = 0; i < inner; ++i) {
      f(static_cast<const std::array<int64_t, N>&>(off));
      for (size_t j = 0; j < N; ++j) off[j] += step[j];
    }
    for (size_t d = nd - 1; d-- > 0;) {
      for (size_t j = 0; j < N; ++j) base[j] += strides[j][d];
      if (++idx[d] < shape[d]) break;
      for (size_t j = 0; j < N; ++j) base[j] -= strides[j][d] * shape[d];
      idx[d] = 0;
    }
  }
}

std::vector<int64_t> strides_of(const Tensor& t) {
  return std::vector<int64_t>(t.strides().begin(), t.strides().end());
}

// The value of a 0-d tensor as a double.
double values_as_double(const Tensor& t) {
  double v = 0;
  dispatch_dtype<kEverything>(t.dtype(), "index", [&](auto tag) {
    using T = typename decltype(tag)::type;
    v = convert<double>(*static_cast<const T*>(t.const_data_ptr()));
  });
  return v;
}

// Reads an index element (Long or Int) at element offset `off`.
int64_t read_index(const Tensor& index, const void* base, int64_t off) {
  if (index.dtype() == ScalarType::Long) return static_cast<const int64_t*>(base)[off];
  return static_cast<const int32_t*>(base)[off];
}

// A result computed in a fresh tensor, copied into out= after resizing
// (a resized out= takes the result's layout).
Tensor finish_out(const Tensor& result, const Tensor& out, const char* op) {
  check_indexing_out(result, out, op);
  resize_output_like(out, result);
  copy_into(out, result);
  return out;
}

}  // namespace

// ---- index_select ------------------------------------------------------------------

namespace {

// index_select over self seen as [outer, size, inner]: out (contiguous
// [outer, n, inner]) row k, slice i is self's slice pos[i] of row k
// (pos[i] an element offset, the index times the dim's stride). Outer rows
// step outer_step, inner elements inner_step. Pointers and steps are
// arguments the loops keep in registers. A slice of contiguous inner
// elements of at least kCopyCallBytes is one call of the per-ISA byte copy
// (cpu::VecKernels::copy_bytes); shorter or strided ones run a typed
// element loop (a call per 4-byte element costs several times the copy).
constexpr size_t kCopyCallBytes = 64;

template <typename U>
void select_rows(U* out, const U* self, int64_t outer, int64_t outer_step, const int64_t* pos,
                 int64_t n, int64_t inner, int64_t inner_step) {
  if (inner == 1) {
    for (int64_t k = 0; k < outer; ++k) {
      const U* s = self + k * outer_step;
      U* o = out + k * n;
      for (int64_t i = 0; i < n; ++i) o[i] = s[pos[i]];
    }
    return;
  }
  const size_t bytes = static_cast<size_t>(inner) * sizeof(U);
  const bool whole = inner_step == 1 && bytes >= kCopyCallBytes;
  const auto copy = cpu::vec_kernels().copy_bytes;
  for (int64_t k = 0; k < outer; ++k) {
    const U* s = self + k * outer_step;
    U* o = out + k * n * inner;
    for (int64_t i = 0; i < n; ++i, o += inner) {
      const U* r = s + pos[i];
      if (whole) {
        copy(o, r, static_cast<int64_t>(bytes));
      } else {
        for (int64_t j = 0; j < inner; ++j) o[j] = r[j * inner_step];
      }
    }
  }
}

// Dims [from, to) of (sizes, strides) as one dim of `size` elements `step`
// apart, when their elements are evenly spaced in row-major order (size-1
// dims do not count). False when they are not.
bool as_one_dim(IntArrayRef sizes, IntArrayRef strides, size_t from, size_t to, int64_t& size,
                int64_t& step) {
  size = 1;
  step = 1;
  for (size_t d = from; d < to; ++d) {
    if (sizes[d] == 0) {
      size = 0;
      return true;
    }
  }
  for (size_t d = to; d-- > from;) {
    if (sizes[d] == 1) continue;
    if (size == 1) {
      size = sizes[d];
      step = strides[d];
    } else if (strides[d] == step * size) {
      size *= sizes[d];
    } else {
      return false;
    }
  }
  return true;
}

// The shape of index_select's result (index is 0-d or 1-d).
std::vector<int64_t> index_select_shape(const Tensor& self, int64_t d, const Tensor& index) {
  if (self.dim() == 0) {
    if (index.dim() == 0) return {};
    return {index.numel()};
  }
  std::vector<int64_t> shape(self.sizes().begin(), self.sizes().end());
  shape[static_cast<size_t>(d)] = index.numel();
  return shape;
}

void check_index_select(const Tensor& self, const Tensor& index) {
  ST_CHECK(index.dim() <= 1, "index_select(): Index is supposed to be a vector, got a ",
           index.dim(), "-D tensor");
  ST_CHECK(
      index.dtype() == ScalarType::Long || index.dtype() == ScalarType::Int,
      "index_select(): Expected dtype int32/int64 for index but got: ", dtype_name(index.dtype()));
  check_host_memory(self, "index_select()", "self");
  check_same_device(index, self.device(), "index_select()", "index");
}

// Writes index_select(self, d, index) into out, contiguous of
// index_select_shape and sharing no memory with self or index. Every index
// is checked before anything is written.
void index_select_into(const Tensor& out, const Tensor& self_in, int64_t d, const Tensor& index) {
  const Tensor self = self_in.dim() == 0 ? st::reshape(self_in, {1}) : self_in;
  const int64_t n = index.numel();
  const int64_t size = self.size(d);
  const int64_t istep = index.dim() == 0 ? 0 : index.stride(0);
  const void* ip = n == 0 ? nullptr : index.const_data_ptr();
  std::vector<int64_t> pos(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const int64_t v = read_index(index, ip, i * istep);
    // [0, size): as in PyTorch, index_select does not wrap a negative
    // index (index.Tensor does).
    ST_CHECK(v >= 0 && v < size, "index_select(): index ", v, " is out of bounds for dimension ", d,
             " with size ", size);
    pos[static_cast<size_t>(i)] = v;
  }
  if (out.numel() == 0) return;
  const size_t ud = static_cast<size_t>(d);
  int64_t outer = 0, outer_step = 0, inner = 0, inner_step = 0;
  Tensor src = self;
  if (!as_one_dim(self.sizes(), self.strides(), 0, ud, outer, outer_step) ||
      !as_one_dim(self.sizes(), self.strides(), ud + 1, static_cast<size_t>(self.dim()), inner,
                  inner_step)) {
    // Dims that do not flatten (a permuted or sliced 3-d self, say): read
    // a contiguous copy, whose dims do.
    src = st::contiguous(self);
    as_one_dim(src.sizes(), src.strides(), 0, ud, outer, outer_step);
    as_one_dim(src.sizes(), src.strides(), ud + 1, static_cast<size_t>(src.dim()), inner,
               inner_step);
  }
  const int64_t dstride = src.stride(d);
  for (int64_t& off : pos) off *= dstride;
  by_itemsize(self.itemsize(), "index_select", [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* s = static_cast<const U*>(src.const_data_ptr());
    U* o = static_cast<U*>(out.data_ptr());
    const int64_t* p = pos.data();
    const int64_t per_row = std::max<int64_t>(n * inner, 1);
    parallel_for(0, outer, std::max<int64_t>(1, 32768 / per_row), [&](int64_t a, int64_t b) {
      select_rows<U>(o + a * n * inner, s + a * outer_step, b - a, outer_step, p, n, inner,
                     inner_step);
    });
  });
}

Tensor index_select_impl(const Tensor& self, int64_t dim, const Tensor& index) {
  check_index_select(self, index);
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  Tensor out = st::detail::empty_generic(IntArrayRef(index_select_shape(self, d, index)),
                                         self.dtype(), self.device());
  index_select_into(out, self, d, index);
  return out;
}

}  // namespace

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  return index_select_impl(self, dim, index);
}

Tensor index_select_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out) {
  ST_CHECK(out.dtype() == self.dtype(),
           "index_select(): self and result must have the same scalar type, got ",
           dtype_name(self.dtype()), " and ", dtype_name(out.dtype()));
  if (out.is_alias_of(self) || out.is_alias_of(index)) {
    // Read before anything is written: computed apart, then copied.
    return finish_out(index_select_impl(self, dim, index), out, "index_select");
  }
  check_index_select(self, index);
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  resize_output(out, IntArrayRef(index_select_shape(self, d, index)));
  if (!out.is_contiguous()) {
    return finish_out(index_select_impl(self, dim, index), out, "index_select");
  }
  index_select_into(out, self, d, index);
  return out;
}

// ---- gather / scatter ------------------------------------------------------------------

void check_gather_scatter(const char* op, const Tensor& self, int64_t dim, const Tensor& index,
                          const Tensor* src) {
  ST_CHECK(index.dtype() == ScalarType::Long, op, "(): Expected dtype int64 for index, got ",
           dtype_name(index.dtype()));
  const int64_t sd = std::max<int64_t>(self.dim(), 1);
  const int64_t id = std::max<int64_t>(index.dim(), 1);
  ST_CHECK(sd == id, op, "(): Index tensor must have the same number of dimensions as ",
           src ? "self" : "input", " tensor (", id, " vs ", sd, ")");
  if (src) {
    const int64_t rd = std::max<int64_t>(src->dim(), 1);
    ST_CHECK(rd == id, op,
             "(): Index tensor must have the same number of dimensions as src "
             "tensor (",
             id, " vs ", rd, ")");
  }
  if (index.numel() == 0) return;
  for (int64_t d = 0; d < index.dim(); ++d) {
    const int64_t is = index.size(d);
    if (d != dim) {
      ST_CHECK(is <= (self.dim() ? self.size(d) : 1), op, "(): Size does not match at dimension ",
               d, " expected index ", shape_str(index.sizes()), " to be no larger than ",
               src ? "self " : "input ", shape_str(self.sizes()), " apart from dimension ", dim);
    }
    if (src) {
      ST_CHECK(is <= (src->dim() ? src->size(d) : 1), op, "(): Expected index ",
               shape_str(index.sizes()), " to be no larger than src ", shape_str(src->sizes()),
               " at dimension ", d);
    }
  }
}

namespace {

std::vector<int64_t> shape1(const Tensor& t) {
  if (t.dim() == 0) return {1};
  return std::vector<int64_t>(t.sizes().begin(), t.sizes().end());
}
std::vector<int64_t> strides1(const Tensor& t) {
  if (t.dim() == 0) return {1};
  return strides_of(t);
}

// Out of line, arguments by value: the element loops that call it keep
// their index in a register (ST_CHECK's message takes its arguments by
// reference).
[[noreturn]] __attribute__((noinline, cold)) void index_out_of_bounds(const char* op, int64_t v,
                                                                      int64_t dim, int64_t size) {
  ST_ERROR(op, "(): index ", v, " is out of bounds for dimension ", dim, " with size ", size);
}

// An index of gather or scatter along a dim of `size` elements, checked.
// It must lie in [0, size): like PyTorch, gather and scatter do not wrap a
// negative index (index.Tensor does). One unsigned compare (a
// negative v is above any size) and a branch that is never taken, the
// error out of line.
inline int64_t checked_index(int64_t v, int64_t size, const char* op, int64_t dim) {
  if (__builtin_expect(static_cast<uint64_t>(v) >= static_cast<uint64_t>(size), 0)) {
    index_out_of_bounds(op, v, dim, size);
  }
  return v;
}

// One row of gather: out_row[j * out_step] = self_row[j * self_step +
// index[j] * dstride] for j < n, index[j] = idx[j * idx_step]. A function
// of its own for the reason given at scatter_row. kAlongDim: the row runs
// along dim itself over a contiguous index and out (idx_step == out_step
// == 1, self_step == 0), the loop of a gather along the last dim, with two
// fewer additions per element. Not inlined: inside the walk's loops the
// compiler ran out of registers and reloaded pointers from the stack per
// element.
template <bool kAlongDim, typename U>
__attribute__((noinline)) void gather_row(U* out_row, int64_t out_step, const U* self_row,
                                          int64_t self_step, int64_t dstride, const int64_t* idx,
                                          int64_t idx_step, int64_t n, int64_t size, int64_t dim) {
  if constexpr (kAlongDim) {
    for (int64_t j = 0; j < n; ++j) {
      out_row[j] = self_row[checked_index(idx[j], size, "gather", dim) * dstride];
    }
  } else {
    for (int64_t j = 0; j < n; ++j) {
      const int64_t w = checked_index(idx[j * idx_step], size, "gather", dim);
      out_row[j * out_step] = self_row[j * self_step + w * dstride];
    }
  }
}

// out[coord] = self[coord with coord[dim] = index[coord]] over index's
// shape, row by row over its last dim (gather_row).
void gather_into(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index) {
  const std::vector<int64_t> shape = shape1(index);
  std::vector<int64_t> ss = strides1(self);
  const int64_t dstride = ss[static_cast<size_t>(dim)];
  const int64_t size = self.dim() ? self.size(dim) : 1;
  ss[static_cast<size_t>(dim)] = 0;
  const std::vector<int64_t> is = strides1(index), os = strides1(out);
  if (index.numel() == 0) return;
  const int64_t* ip = static_cast<const int64_t*>(index.const_data_ptr());
  const size_t last = shape.size() - 1;
  const int64_t n = shape[last];
  const IntArrayRef outer(shape.data(), last);
  by_itemsize(self.itemsize(), "gather", [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* sp = static_cast<const U*>(self.const_data_ptr());
    U* op = static_cast<U*>(out.data_ptr());
    walk<3>(outer, {os.data(), is.data(), ss.data()}, [&](const auto& off) {
      if (is[last] == 1 && os[last] == 1 && ss[last] == 0) {
        gather_row<true>(op + off[0], 1, sp + off[2], 0, dstride, ip + off[1], 1, n, size, dim);
      } else {
        gather_row<false>(op + off[0], os[last], sp + off[2], ss[last], dstride, ip + off[1],
                          is[last], n, size, dim);
      }
    });
  });
}

Tensor gather_impl(const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  check_gather_scatter("gather", self, d, index, nullptr);
  Tensor out = st::detail::empty_generic(index.sizes(), self.dtype(), self.device());
  gather_into(out, self, d, index);
  return out;
}

// One row of scatter: self_row[j * self_step + index[j] * dstride] =
// src[j * src_step] for j < n, index[j] = idx[j * idx_step]. A function of
// its own, its pointers and steps are arguments the loop keeps in
// registers (a store through a U* inside the generic walk could alias
// them, which made the compiler reload each from the stack per element).
// kUnitIndex: idx_step == 1 (a contiguous index).
template <bool kUnitIndex, typename U>
void scatter_row(U* self_row, int64_t self_step, int64_t dstride, const int64_t* idx,
                 int64_t idx_step, const U* src, int64_t src_step, int64_t n, int64_t size,
                 int64_t dim) {
  const int64_t is = kUnitIndex ? 1 : idx_step;
  for (int64_t j = 0; j < n; ++j) {
    const int64_t w = checked_index(idx[j * is], size, "scatter", dim);
    self_row[j * self_step + w * dstride] = src[j * src_step];
  }
}

// scatter_row along a unit-stride dim (dstride == 1, self_step == 0) from
// a contiguous index, and a contiguous src or a value (kValue: src[0] for
// every element): the scatter along the last dim of a contiguous tensor.
// The store's address is then the index itself, not a product: 1024 x
// 1024 floats took 705 us with the general row (PyTorch 610) and 422 with
// this one on the Zen 4. (gather_row along its dim gained nothing from
// the same change: there the index feeds a load.)
template <bool kValue, typename U>
void scatter_row_along_unit_dim(U* self_row, const int64_t* idx, const U* src, int64_t n,
                                int64_t size, int64_t dim) {
  for (int64_t j = 0; j < n; ++j) {
    self_row[checked_index(idx[j], size, "scatter", dim)] = src[kValue ? 0 : j];
  }
}

// self[coord with coord[dim] = index[coord]] = src[coord] (or value), row
// by row over index's last dim (scatter_row).
void scatter_into(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src,
                  const Scalar* value) {
  assert_no_internal_overlap(self, "scatter_");
  const std::vector<int64_t> shape = shape1(index);
  std::vector<int64_t> ss = strides1(self);
  const int64_t dstride = ss[static_cast<size_t>(dim)];
  const int64_t size = self.dim() ? self.size(dim) : 1;
  ss[static_cast<size_t>(dim)] = 0;
  const std::vector<int64_t> is = strides1(index);
  const std::vector<int64_t> rs = src ? strides1(*src) : std::vector<int64_t>(shape.size(), 0);
  const int64_t* ip = static_cast<const int64_t*>(index.const_data_ptr());
  Tensor value_t;
  if (value) value_t = scalar_to_tensor(*value, self.dtype());
  const Tensor& from = src ? *src : value_t;
  // The rows: every dim but the last, walked by offsets; the last dim's
  // steps go to scatter_row.
  const size_t last = shape.size() - 1;
  const int64_t n = shape[last];
  const IntArrayRef outer(shape.data(), last);
  by_itemsize(self.itemsize(), "scatter", [&](auto tag) {
    using U = typename decltype(tag)::type;
    U* sp = static_cast<U*>(self.data_ptr());
    const U* rp = static_cast<const U*>(from.const_data_ptr());
    walk<3>(outer, {ss.data(), is.data(), rs.data()}, [&](const auto& off) {
      const bool along_unit_dim = is[last] == 1 && ss[last] == 0 && dstride == 1;
      if (along_unit_dim && rs[last] == 1) {
        scatter_row_along_unit_dim<false>(sp + off[0], ip + off[1], rp + off[2], n, size, dim);
      } else if (along_unit_dim && rs[last] == 0) {
        scatter_row_along_unit_dim<true>(sp + off[0], ip + off[1], rp + off[2], n, size, dim);
      } else if (is[last] == 1) {
        scatter_row<true>(sp + off[0], ss[last], dstride, ip + off[1], 1, rp + off[2], rs[last], n,
                          size, dim);
      } else {
        scatter_row<false>(sp + off[0], ss[last], dstride, ip + off[1], is[last], rp + off[2],
                           rs[last], n, size, dim);
      }
    });
  });
}

}  // namespace

void check_scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src) {
  check_gather_scatter("scatter", self, dim, index, src);
  if (src) {
    ST_CHECK(src->dtype() == self.dtype(),
             "scatter(): Expected self.dtype to be equal to "
             "src.dtype, got ",
             dtype_name(self.dtype()), " and ", dtype_name(src->dtype()));
  }
}

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/) {
  return gather_impl(self, dim, index);
}

Tensor gather_out(const Tensor& self, int64_t dim, const Tensor& index, bool /*sparse_grad*/,
                  const Tensor& out) {
  // Written in place unless out shares memory with an input (read before
  // anything is written: computed apart, then copied) or its dtype is
  // not self's (finish_out names it).
  if (out.dtype() != self.dtype() || out.is_alias_of(self) || out.is_alias_of(index)) {
    return finish_out(gather_impl(self, dim, index), out, "gather");
  }
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  check_gather_scatter("gather", self, d, index, nullptr);
  resize_output(out, index.sizes());
  if (has_internal_overlap(out)) return finish_out(gather_impl(self, dim, index), out, "gather");
  gather_into(out, self, d, index);
  return out;
}

Tensor scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  check_scatter(self, d, index, &src);
  scatter_into(self, d, index, &src, nullptr);
  return self;
}

Tensor scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  check_scatter(self, d, index, nullptr);
  scatter_into(self, d, index, nullptr, &value);
  return self;
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  // A contiguous result whatever self's layout, as PyTorch's scatter gives.
  Tensor out = st::detail::empty_generic(self.sizes(), self.dtype(), self.device());
  copy_into(out, self);
  return native::scatter_(out, dim, index, src);
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  Tensor out = st::clone(self);
  return native::scatter_(out, dim, index, value);
}

namespace {

// scatter's out= as gather_out's: self is copied into out and scattered
// there (one pass, no temporary), unless out shares memory with an input
// (read before anything is written: computed apart, then copied) or its
// dtype is not self's (finish_out names it). Returns whether out was
// written. The checks run first, so a bad argument leaves out untouched; a
// bad index, found by the scatter itself, leaves out part written, as
// PyTorch's out= does.
bool scattered_into_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src,
                        const Scalar* value, const Tensor& out) {
  if (out.dtype() != self.dtype() || out.is_alias_of(self) || out.is_alias_of(index) ||
      (src && out.is_alias_of(*src))) {
    return false;
  }
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  check_scatter(self, d, index, src);
  resize_output(out, self.sizes());
  if (has_internal_overlap(out)) return false;
  copy_into(out, self);
  scatter_into(out, d, index, src, value);
  return true;
}

}  // namespace

Tensor scatter_out(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                   const Tensor& out) {
  if (scattered_into_out(self, dim, index, &src, nullptr, out)) return out;
  return finish_out(native::scatter(self, dim, index, src), out, "scatter");
}

Tensor scatter_out(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value,
                   const Tensor& out) {
  if (scattered_into_out(self, dim, index, nullptr, &value, out)) return out;
  return finish_out(native::scatter(self, dim, index, value), out, "scatter");
}

// ---- masked_select / nonzero -----------------------------------------------------------

namespace {

Tensor masked_select_impl(const Tensor& self, const Tensor& mask) {
  ST_CHECK(mask.dtype() == ScalarType::Bool, "masked_select: expected BoolTensor for mask, got ",
           dtype_name(mask.dtype()));
  const std::vector<int64_t> shape = infer_size(self.sizes(), mask.sizes());
  const Tensor s = st::contiguous(st::expand(self, IntArrayRef(shape)));
  const Tensor m = st::contiguous(st::expand(mask, IntArrayRef(shape)));
  const bool* mp = static_cast<const bool*>(m.const_data_ptr());
  const int64_t n = m.numel();
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += mp[i] ? 1 : 0;
  Tensor out = st::detail::empty_generic({count}, self.dtype(), self.device());
  by_itemsize(self.itemsize(), "masked_select", [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* sp = static_cast<const U*>(s.const_data_ptr());
    U* op = static_cast<U*>(out.data_ptr());
    int64_t j = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (mp[i]) op[j++] = sp[i];
    }
  });
  return out;
}

// nonzero runs over self's rows (its last dim, `inner` elements `step`
// apart; a 0-d self is one row of one element) in two passes: a count, so
// the result is allocated once at its size, then the positions. The count
// of a row is a loop the compiler vectorizes for a unit step.
template <typename T>
int64_t count_nonzero_row(const T* p, int64_t step, int64_t inner) {
  int64_t count = 0;
  if (step == 1) {
    for (int64_t j = 0; j < inner; ++j) count += convert<bool>(p[j]) ? 1 : 0;
  } else {
    for (int64_t j = 0; j < inner; ++j) count += convert<bool>(p[j * step]) ? 1 : 0;
  }
  return count;
}

// The positions of one row's non-zero elements, written from result row r
// on: column d (d < nd - 1) holds coord[d], the last column the position in
// the row. The row runs in blocks: the positions of a block are compacted
// into a stack buffer without a branch per element (each position is
// stored, the count advances by 1 when its element is non-zero), then each
// column's segment is filled or copied by a loop the compiler vectorizes.
// Returns the next result row.
constexpr int64_t kNonzeroBlock = 256;

template <typename T>
int64_t nonzero_row(const T* p, int64_t step, int64_t inner, int64_t* out, int64_t row_stride,
                    int64_t col_stride, const int64_t* coord, int64_t nd, int64_t r) {
  int64_t buf[kNonzeroBlock];
  for (int64_t j0 = 0; j0 < inner; j0 += kNonzeroBlock) {
    const int64_t m = std::min(kNonzeroBlock, inner - j0);
    int64_t k = 0;
    for (int64_t j = 0; j < m; ++j) {
      buf[k] = j0 + j;
      k += convert<bool>(p[(j0 + j) * step]) ? 1 : 0;
    }
    if (k == 0) continue;  // past the last row, o would point out of out
    int64_t* o = out + r * row_stride;
    if (row_stride == 1) {  // column-major, the layout nonzero gives
      for (int64_t d = 0; d + 1 < nd; ++d, o += col_stride) std::fill_n(o, k, coord[d]);
      std::copy_n(buf, k, o);
    } else {
      for (int64_t d = 0; d + 1 < nd; ++d, o += col_stride) {
        const int64_t c = coord[d];
        for (int64_t q = 0; q < k; ++q) o[q * row_stride] = c;
      }
      for (int64_t q = 0; q < k; ++q) o[q * row_stride] = buf[q];
    }
    r += k;
  }
  return r;
}

// Calls row(p, coord) for each row of self (the last dim), p its first
// element, coord the coordinates of its other dims.
template <typename T, typename Row>
void for_each_nonzero_row(const Tensor& self, const T* base, const Row& row) {
  const int64_t nd = self.dim();
  if (nd == 0) {
    row(base, static_cast<const int64_t*>(nullptr));
    return;
  }
  std::vector<int64_t> coord(static_cast<size_t>(nd), 0);
  const int64_t rows = self.numel() / self.size(nd - 1);
  const T* p = base;
  for (int64_t k = 0; k < rows; ++k) {
    row(p, static_cast<const int64_t*>(coord.data()));
    for (int64_t d = nd - 1; d-- > 0;) {
      p += self.stride(d);
      if (++coord[static_cast<size_t>(d)] < self.size(d)) break;
      p -= self.stride(d) * self.size(d);
      coord[static_cast<size_t>(d)] = 0;
    }
  }
}

// The number of non-zero elements of self.
int64_t count_nonzero(const Tensor& self) {
  if (self.numel() == 0) return 0;
  int64_t count = 0;
  dispatch_dtype<kEverything>(self.dtype(), "nonzero", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const int64_t nd = self.dim();
    const int64_t inner = nd == 0 ? 1 : self.size(nd - 1);
    const int64_t step = nd == 0 ? 1 : self.stride(nd - 1);
    for_each_nonzero_row(
        self, static_cast<const T*>(self.const_data_ptr()),
        [&](const T* p, const int64_t*) { count += count_nonzero_row(p, step, inner); });
  });
  return count;
}

// Writes the positions of self's `count` non-zero elements into out
// ([count, self.dim()], any strides, sharing no memory with self).
void nonzero_into(const Tensor& out, const Tensor& self, int64_t count) {
  const int64_t nd = self.dim();
  if (count == 0 || nd == 0) return;
  int64_t* op = static_cast<int64_t*>(out.data_ptr());
  const int64_t row_stride = out.stride(0), col_stride = out.stride(1);
  dispatch_dtype<kEverything>(self.dtype(), "nonzero", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const int64_t inner = self.size(nd - 1);
    const int64_t step = self.stride(nd - 1);
    int64_t r = 0;
    for_each_nonzero_row(
        self, static_cast<const T*>(self.const_data_ptr()), [&](const T* p, const int64_t* coord) {
          r = nonzero_row(p, step, inner, op, row_stride, col_stride, coord, nd, r);
        });
  });
}

// nonzero's result of `count` rows: column-major [count, nd] (strides
// [1, count]), as PyTorch lays it out: each dim's coordinates are
// contiguous.
Tensor nonzero_result(const Tensor& self, int64_t count) {
  return st::transpose(
      st::detail::empty_generic({self.dim(), count}, ScalarType::Long, self.device()), 0, 1);
}

Tensor nonzero_impl(const Tensor& self) {
  check_host_memory(self, "nonzero", "self");
  const int64_t count = count_nonzero(self);
  Tensor out = nonzero_result(self, count);
  nonzero_into(out, self, count);
  return out;
}

}  // namespace

Tensor masked_select(const Tensor& self, const Tensor& mask) {
  return masked_select_impl(self, mask);
}

Tensor masked_select_out(const Tensor& self, const Tensor& mask, const Tensor& out) {
  return finish_out(masked_select_impl(self, mask), out, "masked_select");
}

Tensor nonzero(const Tensor& self) { return nonzero_impl(self); }

Tensor nonzero_out(const Tensor& self, const Tensor& out) {
  check_nonzero_out_dtype(out);
  if (out.is_alias_of(self)) return finish_out(nonzero_impl(self), out, "nonzero");
  check_host_memory(self, "nonzero", "self");
  const int64_t count = count_nonzero(self);
  // A resized out takes the result's column-major layout (an empty one
  // keeps its contiguous strides, as resize_output_like leaves them).
  if (resize_output(out, {count, self.dim()}) && count > 0) {
    out.unsafeGetTensorImpl()->set_sizes_and_strides({count, self.dim()}, {1, count});
  }
  if (has_internal_overlap(out)) {
    Tensor result = nonzero_result(self, count);
    nonzero_into(result, self, count);
    return finish_out(result, out, "nonzero");
  }
  nonzero_into(out, self, count);
  return out;
}

// ---- index.Tensor (advanced indexing) ----------------------------------------------------

IndexPlan plan_index(const Tensor& self_in, const std::vector<std::optional<Tensor>>& indices,
                     ZeroDimMaskIndex zero_dim_mask_index) {
  int64_t consumed = 0;
  for (const auto& given : indices) {
    const bool mask = given.has_value() && given->defined() &&
                      (given->dtype() == ScalarType::Byte || given->dtype() == ScalarType::Bool);
    consumed += mask ? given->dim() : 1;
  }
  ST_CHECK(consumed <= self_in.dim(), "index: too many indices for tensor of dimension ",
           self_in.dim(), " (got ", consumed, ")");
  // 1. Boolean/byte masks become one long index per masked dim; a 0-d
  //    mask inserts a dim of size 1 indexed by [0] (true) or [] (false).
  IndexPlan plan;
  plan.self = self_in;
  Tensor& self = plan.self;
  std::vector<std::optional<Tensor>>& idx = plan.idx;
  for (const auto& given : indices) {
    if (!given.has_value() || !given->defined()) {
      idx.emplace_back(std::nullopt);
      continue;
    }
    const Tensor& t = *given;
    const ScalarType dt = t.dtype();
    ST_CHECK(dt == ScalarType::Long || dt == ScalarType::Int || dt == ScalarType::Byte ||
                 dt == ScalarType::Bool,
             "index: tensors used as indices must be long, int, byte or bool tensors, got ",
             dtype_name(dt));
    if (dt == ScalarType::Byte || dt == ScalarType::Bool) {
      const int64_t start = static_cast<int64_t>(idx.size());
      if (t.dim() == 0) {
        self = st::unsqueeze(self, start);
        idx.emplace_back(zero_dim_mask_index(t, self_in.device()));
        continue;
      }
      for (int64_t j = 0; j < t.dim(); ++j) {
        ST_CHECK(start + j < self.dim() && t.size(j) == self.size(start + j),
                 "index: The shape of the mask ", shape_str(t.sizes()), " at index ", j,
                 " does not match the shape of the indexed tensor ", shape_str(self.sizes()),
                 " at index ", start + j);
      }
      const Tensor nz = st::nonzero(t);
      for (int64_t j = 0; j < t.dim(); ++j) idx.emplace_back(st::select(nz, 1, j));
    } else {
      idx.emplace_back(t);
    }
  }
  while (static_cast<int64_t>(idx.size()) < self.dim()) idx.emplace_back(std::nullopt);

  // 2. Broadcast the index tensors; note where they sit.
  bool first = true;
  for (size_t d = 0; d < idx.size(); ++d) {
    if (!idx[d].has_value()) {
      plan.rest.push_back(static_cast<int64_t>(d));
      continue;
    }
    plan.indexed.push_back(static_cast<int64_t>(d));
    if (first) {
      plan.bshape.assign(idx[d]->sizes().begin(), idx[d]->sizes().end());
      first = false;
    } else {
      plan.bshape = infer_size(IntArrayRef(plan.bshape), idx[d]->sizes());
    }
  }
  return plan;
}

Tensor place_broadcast_dims(const Tensor& out, const IndexPlan& plan) {
  const std::vector<int64_t>& indexed = plan.indexed;
  const bool adjacent =
      indexed.back() - indexed.front() + 1 == static_cast<int64_t>(indexed.size());
  if (!adjacent || indexed.front() == 0) return out;
  const int64_t nb = static_cast<int64_t>(plan.bshape.size());
  const int64_t before = indexed.front();
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < before; ++i) perm.push_back(nb + i);
  for (int64_t i = 0; i < nb; ++i) perm.push_back(i);
  for (int64_t i = nb + before; i < out.dim(); ++i) perm.push_back(i);
  return st::contiguous(st::permute(out, IntArrayRef(perm)));
}

namespace {

// A 0-d mask on the CPU: read in place, the index made on the default
// device.
Tensor zero_dim_mask_index(const Tensor& mask, Device /*device*/) {
  const bool on = convert<bool>(values_as_double(mask));
  return st::zeros({on ? 1 : 0}, ScalarType::Long);
}

// The element offset in plan.self of every position of the index tensors'
// broadcast shape (row-major), each index checked against its dim's size.
// index_strides, when given, receives the strides of each index tensor
// expanded to that shape (the layout of index's result follows them).
std::vector<int64_t> indexed_offsets(const IndexPlan& plan,
                                     std::vector<std::vector<int64_t>>* index_strides = nullptr) {
  const Tensor& self = plan.self;
  const std::vector<int64_t>& bshape = plan.bshape;
  std::vector<Tensor> bidx;
  std::vector<std::vector<int64_t>> bstr;
  for (int64_t d : plan.indexed) {
    Tensor e = st::expand(to_dtype(*plan.idx[static_cast<size_t>(d)], ScalarType::Long),
                          IntArrayRef(bshape));
    bstr.push_back(strides_of(e));
    bidx.push_back(e);
  }
  if (index_strides != nullptr) *index_strides = bstr;
  // The shape can multiply past int64 before reaching a 0 (an empty index
  // of sizes [2^62, 4, 0]); checked_numel gives 0 then.
  const int64_t bnum = checked_numel(IntArrayRef(bshape), "index");
  std::vector<int64_t> base(static_cast<size_t>(bnum));
  std::vector<int64_t> coord(bshape.size(), 0);
  for (int64_t b = 0; b < bnum; ++b) {
    int64_t off = 0;
    for (size_t j = 0; j < plan.indexed.size(); ++j) {
      int64_t e = 0;
      for (size_t d = 0; d < bshape.size(); ++d) e += coord[d] * bstr[j][d];
      int64_t v = static_cast<const int64_t*>(bidx[j].const_data_ptr())[e];
      const int64_t size = self.size(plan.indexed[j]);
      ST_CHECK(v >= -size && v < size, "index ", v, " is out of bounds for dimension ",
               plan.indexed[j], " with size ", size);
      if (v < 0) v += size;
      off += v * self.stride(plan.indexed[j]);
    }
    base[static_cast<size_t>(b)] = off;
    for (size_t d = bshape.size(); d-- > 0;) {
      if (++coord[d] < bshape[d]) break;
      coord[d] = 0;
    }
  }
  return base;
}

// PyTorch computes index.Tensor as one elementwise pass over self (with 0
// strides along the broadcast dims) and the index tensors (0 along self's
// other dims), so its result takes the dim order those operands give. The
// result's dims: the other dims before the first indexed one (when the
// indexed dims are adjacent), the broadcast dims, the other dims after.
Tensor lay_out_index_result(const Tensor& result, const IndexPlan& plan,
                            const std::vector<std::vector<int64_t>>& index_strides) {
  const std::vector<int64_t>& indexed = plan.indexed;
  const bool adjacent =
      indexed.back() - indexed.front() + 1 == static_cast<int64_t>(indexed.size());
  // Nothing to lay out without two elements; an empty result's sizes may
  // multiply past int64 (an empty index of sizes [2^62, 4, 0]).
  if (result.numel() <= 1) return result;
  // One row of the result's dims per operand: self, then each index; a
  // dim an operand does not step along has stride 0.
  const size_t nops = 1 + index_strides.size();
  const size_t nd = static_cast<size_t>(result.dim());
  std::vector<int64_t> strides(nops * nd, 0);
  size_t dim = 0;
  auto add_self_dim = [&](int64_t d) {
    strides[dim++] = plan.self.size(d) == 1 ? 0 : plan.self.stride(d);
  };
  size_t r = 0;
  if (adjacent) {
    for (; r < plan.rest.size() && plan.rest[r] < indexed.front(); ++r) add_self_dim(plan.rest[r]);
  }
  for (size_t b = 0; b < plan.bshape.size(); ++b, ++dim) {
    for (size_t k = 1; k < nops; ++k) {
      strides[k * nd + dim] = plan.bshape[b] == 1 ? 0 : index_strides[k - 1][b];
    }
  }
  for (; r < plan.rest.size(); ++r) add_self_dim(plan.rest[r]);
  const DimVector want = permuted_dense_strides(result.sizes(), strides);
  if (result.strides() == IntArrayRef(want)) return result;
  Tensor out =
      st::detail::empty_strided_generic(result.sizes(), want, result.dtype(), result.device());
  copy_into(out, result);
  return out;
}

Tensor index_impl(const Tensor& self_in, const std::vector<std::optional<Tensor>>& indices) {
  // 1. and 2.: masks to long indices, the index tensors broadcast.
  const IndexPlan plan = plan_index(self_in, indices, zero_dim_mask_index);
  const Tensor& self = plan.self;
  const std::vector<int64_t>& bshape = plan.bshape;
  if (plan.indexed.empty()) return st::clone(self);

  // 3. Gather: result[b..., r...] = self[idx_0[b], ..., r...] with the
  //    indexed dims moved first.
  std::vector<int64_t> rsizes, rstrides;
  for (int64_t d : plan.rest) {
    rsizes.push_back(self.size(d));
    rstrides.push_back(self.stride(d));
  }
  std::vector<int64_t> out_shape(bshape);
  out_shape.insert(out_shape.end(), rsizes.begin(), rsizes.end());
  Tensor out = st::detail::empty_generic(IntArrayRef(out_shape), self.dtype(), self.device());
  // rcontig's products are suffixes of out's contiguous strides, so they fit.
  std::vector<std::vector<int64_t>> bstr;
  const std::vector<int64_t> base = indexed_offsets(plan, &bstr);
  const int64_t bnum = static_cast<int64_t>(base.size());
  const int64_t rnum = checked_numel(IntArrayRef(rsizes), "index");
  std::vector<int64_t> rcontig(rsizes.size(), 1);
  for (size_t d = rsizes.size(); d-- > 1;) rcontig[d - 1] = rcontig[d] * rsizes[d];
  // Nothing to copy when the other dims are empty: self has no data then
  // (a null pointer, which an offset must not be added to), though the
  // indices were checked above.
  if (rnum == 0 || bnum == 0) {
    return lay_out_index_result(place_broadcast_dims(out, plan), plan, bstr);
  }
  // The other dims as one (a slice of rnum elements rstep apart per index
  // position) when they flatten: index_select's rows.
  int64_t rflat = 0, rstep = 0;
  const bool flat =
      as_one_dim(IntArrayRef(rsizes), IntArrayRef(rstrides), 0, rsizes.size(), rflat, rstep);
  by_itemsize(self.itemsize(), "index", [&](auto tag) {
    using U = typename decltype(tag)::type;
    const U* sp = static_cast<const U*>(self.const_data_ptr());
    U* op = static_cast<U*>(out.data_ptr());
    parallel_for(0, bnum, std::max<int64_t>(1, 32768 / std::max<int64_t>(rnum, 1)),
                 [&](int64_t b0, int64_t b1) {
                   if (flat) {
                     select_rows<U>(op + b0 * rnum, sp, 1, 0, base.data() + b0, b1 - b0, rnum,
                                    rstep);
                     return;
                   }
                   for (int64_t b = b0; b < b1; ++b) {
                     const U* s = sp + base[static_cast<size_t>(b)];
                     U* o = op + b * rnum;
                     walk<2>(IntArrayRef(rsizes), {rstrides.data(), rcontig.data()},
                             [&](const auto& off) { o[off[1]] = s[off[0]]; });
                   }
                 });
  });
  // 4. Adjacent indexed dims keep their place.
  return lay_out_index_result(place_broadcast_dims(out, plan), plan, bstr);
}

}  // namespace

Tensor index(const Tensor& self, const std::vector<std::optional<Tensor>>& indices) {
  check_host_memory(self, "index", "self");
  return index_impl(self, indices);
}

Tensor index_out(const Tensor& self, const std::vector<std::optional<Tensor>>& indices,
                 const Tensor& out) {
  return finish_out(native::index(self, indices), out, "index");
}

// ---- index_put_ (assignment through advanced indices) ------------------------------------

namespace {

// a += b in T's own arithmetic, as PyTorch's accumulating index_put_ does:
// integers wrap, Half/BFloat16 round the float sum, bool is "or".
template <typename T>
T accumulated(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (std::is_integral_v<T>) {
    using W = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<W>(static_cast<W>(a) + static_cast<W>(b)));
  } else {
    return from_opmath<T>(to_opmath(a) + to_opmath(b));
  }
}

bool expandable_to(IntArrayRef from, IntArrayRef to) {
  if (from.size() > to.size()) return false;
  const size_t lead = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] != 1 && from[i] != to[lead + i]) return false;
  }
  return true;
}

}  // namespace

Tensor index_put_(const Tensor& self, const std::vector<std::optional<Tensor>>& indices,
                  const Tensor& values, bool accumulate) {
  check_host_memory(self, "index_put_", "self");
  ST_CHECK(values.dtype() == self.dtype(),
           "index_put_(): Index put requires the source and destination dtypes match, got ",
           dtype_name(self.dtype()), " for the destination and ", dtype_name(values.dtype()),
           " for the source.");
  for (const auto& i : indices) {
    if (i.has_value() && i->defined()) check_host_memory(*i, "index_put_", "indices");
  }
  Tensor src = values;
  if (src.device() != self.device() && src.dim() == 0) {
    // A 0-d value may live anywhere, as in PyTorch.
    src = st::_to_copy(src, std::nullopt, std::nullopt, self.device(), std::nullopt, false,
                       std::nullopt);
  }
  check_same_device(src, self.device(), "index_put_", "values");
  // Values that share memory with self are read from a copy, so no write
  // can change a value before it is read.
  if (src.numel() > 0 && self.numel() > 0 && src.is_alias_of(self)) src = st::clone(src);

  const IndexPlan plan = plan_index(self, indices, zero_dim_mask_index);
  const Tensor& target = plan.self;
  const std::vector<int64_t>& bshape = plan.bshape;
  std::vector<int64_t> rsizes, rstrides;
  for (int64_t d : plan.rest) {
    rsizes.push_back(target.size(d));
    rstrides.push_back(target.stride(d));
  }
  // The shape index() gives for these indices, which values broadcast to,
  // and for each dim of [broadcast dims..., other dims...] its place in it.
  const size_t nb = bshape.size();
  const std::vector<int64_t>& indexed = plan.indexed;
  const bool moved = !indexed.empty() && indexed.front() != 0 &&
                     indexed.back() - indexed.front() + 1 == static_cast<int64_t>(indexed.size());
  const size_t before = moved ? static_cast<size_t>(indexed.front()) : 0;
  std::vector<int64_t> result_shape(rsizes.begin(), rsizes.begin() + static_cast<int64_t>(before));
  result_shape.insert(result_shape.end(), bshape.begin(), bshape.end());
  result_shape.insert(result_shape.end(), rsizes.begin() + static_cast<int64_t>(before),
                      rsizes.end());
  std::vector<int64_t> perm;
  for (size_t k = 0; k < nb; ++k) perm.push_back(static_cast<int64_t>(before + k));
  for (size_t j = 0; j < rsizes.size(); ++j) {
    perm.push_back(static_cast<int64_t>(j < before ? j : nb + j));
  }
  ST_CHECK(expandable_to(src.sizes(), IntArrayRef(result_shape)),
           "index_put_(): shape mismatch: value tensor of shape ", shape_str(src.sizes()),
           " cannot be broadcast to indexing result of shape ",
           shape_str(IntArrayRef(result_shape)));
  const Tensor v = st::permute(st::expand(src, IntArrayRef(result_shape)), IntArrayRef(perm));
  const std::vector<int64_t> vstr = strides_of(v);
  const std::vector<int64_t> vrest(vstr.begin() + static_cast<int64_t>(nb), vstr.end());

  // Every index is checked before anything is written.
  const std::vector<int64_t> base = indexed_offsets(plan);
  const int64_t bnum = static_cast<int64_t>(base.size());
  const int64_t rnum = checked_numel(IntArrayRef(rsizes), "index_put_");
  if (bnum == 0 || rnum == 0) return self;
  std::vector<int64_t> vbase(static_cast<size_t>(bnum));
  std::vector<int64_t> coord(nb, 0);
  for (int64_t b = 0; b < bnum; ++b) {
    int64_t off = 0;
    for (size_t d = 0; d < nb; ++d) off += coord[d] * vstr[d];
    vbase[static_cast<size_t>(b)] = off;
    for (size_t d = nb; d-- > 0;) {
      if (++coord[d] < bshape[d]) break;
      coord[d] = 0;
    }
  }
  // Serial, in index order: with repeated indices the last value wins, or
  // every value is summed when accumulating.
  auto write = [&](auto tag, auto combine) {
    using U = typename decltype(tag)::type;
    U* tp = static_cast<U*>(target.data_ptr());
    const U* vp = static_cast<const U*>(v.const_data_ptr());
    for (int64_t b = 0; b < bnum; ++b) {
      U* t = tp + base[static_cast<size_t>(b)];
      const U* s = vp + vbase[static_cast<size_t>(b)];
      walk<2>(IntArrayRef(rsizes), {rstrides.data(), vrest.data()},
              [&](const auto& off) { t[off[0]] = combine(t[off[0]], s[off[1]]); });
    }
  };
  if (accumulate) {
    dispatch_dtype<kEverything>(self.dtype(), "index_put_ with accumulate=True", [&](auto tag) {
      using T = typename decltype(tag)::type;
      write(tag, [](T a, T b) { return accumulated<T>(a, b); });
    });
  } else {
    by_itemsize(self.itemsize(), "index_put_", [&](auto tag) {
      using U = typename decltype(tag)::type;
      write(tag, [](U, U b) { return b; });
    });
  }
  return self;
}

Tensor index_put(const Tensor& self, const std::vector<std::optional<Tensor>>& indices,
                 const Tensor& values, bool accumulate) {
  Tensor out = st::clone(self);
  return st::index_put_(out, indices, values, accumulate);
}

// PyTorch's index_put.out is the generated out= form of index_put: a resized
// out is contiguous, whatever self's layout.
Tensor index_put_out(const Tensor& self, const std::vector<std::optional<Tensor>>& indices,
                     const Tensor& values, bool accumulate, const Tensor& out) {
  Tensor result = st::clone(self, MemoryFormat::Contiguous);
  st::index_put_(result, indices, values, accumulate);
  return finish_out(result, out, "index_put");
}

// ---- the out= checks the CUDA kernels share (indexing_out_checks.h) -----------------------

void check_indexing_out(const Tensor& result, const Tensor& out, const char* op) {
  ST_CHECK(out.dtype() == result.dtype(), op, "(): Expected out tensor to have dtype ",
           dtype_name(result.dtype()), ", but got ", dtype_name(out.dtype()), " instead");
  ST_CHECK(!(out.numel() > 0 && result.numel() > 0 && out.is_alias_of(result)), op,
           "(): out must not share memory with the result");
}

void check_nonzero_out_dtype(const Tensor& out) {
  ST_CHECK(out.dtype() == ScalarType::Long,
           "nonzero: Expected out tensor to have scalar type Long but got scalar type ",
           dtype_name(out.dtype()));
}

}  // namespace st::native
