// Sorting: sort (stable or not: always stable here, which PyTorch allows)
// and topk. NaN sorts above every number, as in PyTorch: last in ascending
// order, first in descending order and in topk(largest=True).
#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <tuple>
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/parallel.h>
#include <st/core/wrap_dim.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/tensor_iterator.h>

#include "host_memory.h"
#include "sort_checks.h"

namespace st::native {

namespace {

constexpr uint64_t kSortTypes = kAllTypes | kReducedFloatTypes | kBoolType | kUnsignedTypes;
constexpr uint64_t kTopkTypes = kAllTypes | kReducedFloatTypes | kUnsignedTypes;

template <typename O>
bool is_nan(O v) {
  if constexpr (std::is_floating_point_v<O>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

// a before b in ascending (descending = false) or descending order; ties
// keep the original order (the index decides), so the sort is stable.
template <typename O>
struct Order {
  const O* v;
  bool descending;
  bool operator()(int64_t a, int64_t b) const {
    const O x = v[a], y = v[b];
    const bool xn = is_nan(x), yn = is_nan(y);
    if (xn || yn) {
      if (xn && yn) return a < b;
      return descending ? xn : yn;
    }
    if (x != y) return descending ? x > y : x < y;
    return a < b;
  }
};

// Rows along `dim`: the input with dim moved last, contiguous.
Tensor rows_last(const Tensor& self, int64_t dim) {
  if (self.dim() == 0) return st::reshape(self, {1});
  return st::contiguous(st::transpose(self, dim, -1));
}

// Sorts (k == n) or selects the first k (k < n) of every row, writing
// values and Long indices of shape [rows..., k] (dim last, contiguous).
void select_rows(const Tensor& x, int64_t k, bool descending, const Tensor& vals,
                 const Tensor& idxs, uint64_t /*set*/, const char* op, bool allow_bool) {
  const int64_t n = x.dim() ? x.size(-1 + x.dim()) : 1;
  const int64_t rows = n ? x.numel() / n : 0;
  auto run = [&](auto tag) {
    using T = typename decltype(tag)::type;
    using O = opmath_t<T>;
    const T* xp = static_cast<const T*>(x.const_data_ptr());
    T* vp = static_cast<T*>(vals.data_ptr());
    int64_t* ip = static_cast<int64_t*>(idxs.data_ptr());
    const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(n, 1));
    parallel_for(0, rows, grain, [&](int64_t r0, int64_t r1) {
      // (not std::vector<O>: O may be bool)
      std::unique_ptr<O[]> v(new O[static_cast<size_t>(std::max<int64_t>(n, 1))]);
      std::vector<int64_t> order(static_cast<size_t>(n));
      for (int64_t r = r0; r < r1; ++r) {
        const T* row = xp + r * n;
        for (int64_t i = 0; i < n; ++i) v[i] = to_opmath(row[i]);
        std::iota(order.begin(), order.end(), int64_t{0});
        const Order<O> cmp{v.get(), descending};
        if (k == n) {
          std::sort(order.begin(), order.end(), cmp);
        } else {
          std::partial_sort(order.begin(), order.begin() + k, order.end(), cmp);
        }
        for (int64_t i = 0; i < k; ++i) {
          const int64_t j = order[static_cast<size_t>(i)];
          vp[r * k + i] = row[j];
          ip[r * k + i] = j;
        }
      }
    });
  };
  if (allow_bool) {
    dispatch_dtype<kSortTypes>(x.dtype(), op, run);
  } else {
    dispatch_dtype<kTopkTypes>(x.dtype(), op, run);
  }
}

// Values/indices with the shape of self except size k along dim.
std::tuple<Tensor, Tensor> sort_like(const Tensor& self, int64_t dim, int64_t k, bool descending,
                                     const char* op, bool allow_bool) {
  check_host_memory(self, op, "self");
  check_sortable(self, op);
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const Tensor x = rows_last(self, d);
  std::vector<int64_t> rshape(x.sizes().begin(), x.sizes().end());
  rshape.back() = k;
  Tensor v = st::detail::empty_generic(IntArrayRef(rshape), self.dtype(), self.device());
  Tensor i = st::detail::empty_generic(IntArrayRef(rshape), ScalarType::Long, self.device());
  select_rows(x, k, descending, v, i, 0, op, allow_bool);
  if (self.dim() == 0) return {st::reshape(v, {}), st::reshape(i, {})};
  Tensor vt = d == self.dim() - 1 ? v : st::transpose(v, d, -1);
  Tensor it = d == self.dim() - 1 ? i : st::transpose(i, d, -1);
  if (k != self.size(d) || self.is_contiguous()) {
    return {st::contiguous(vt), st::contiguous(it)};
  }
  // A full sort lays its results out as self (dense strides in self's
  // order), as PyTorch's does.
  Tensor values = empty_preserving(self, self.dtype());
  Tensor indices = empty_preserving(self, ScalarType::Long);
  copy_into(values, vt);
  copy_into(indices, it);
  return {values, indices};
}

void write_outs(const Tensor& v, const Tensor& i, const Tensor& values, const Tensor& indices,
                const char* op) {
  check_sort_outs(v, values, indices, op);
  resize_output_like(values, v);
  resize_output_like(indices, i);
  copy_into(values, v);
  copy_into(indices, i);
}

}  // namespace

void check_sortable(const Tensor& self, const char* op) {
  ST_CHECK(!self.is_complex(), op, "(): ", op, " is not supported for complex dtype ",
           torch::headeronly::toString(self.dtype()));
}

void check_topk_k(int64_t k, int64_t n) {
  ST_CHECK(k >= 0 && k <= n, "topk(): selected index k out of range: k = ", k,
           " but the dimension has size ", n);
}

void check_sort_outs(const Tensor& v, const Tensor& values, const Tensor& indices, const char* op) {
  ST_CHECK(values.dtype() == v.dtype(), op, "(): Expected out tensor values to have dtype ",
           torch::headeronly::toString(v.dtype()), ", but got ",
           torch::headeronly::toString(values.dtype()), " instead");
  ST_CHECK(indices.dtype() == ScalarType::Long, op,
           "(): Expected out tensor indices to have dtype Long, but got ",
           torch::headeronly::toString(indices.dtype()), " instead");
}

std::tuple<Tensor, Tensor> sort(const Tensor& self, std::optional<bool> /*stable*/, int64_t dim,
                                bool descending) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t n = self.dim() ? self.size(d) : 1;
  return sort_like(self, dim, n, descending, "sort", true);
}

std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending) {
  return st::sort(self, std::optional<bool>(false), dim, descending);
}

std::tuple<Tensor, Tensor> sort_out(const Tensor& self, std::optional<bool> stable, int64_t dim,
                                    bool descending, const Tensor& values, const Tensor& indices) {
  auto [v, i] = native::sort(self, stable, dim, descending);
  write_outs(v, i, values, indices, "sort");
  return {values, indices};
}

std::tuple<Tensor, Tensor> sort_out(const Tensor& self, int64_t dim, bool descending,
                                    const Tensor& values, const Tensor& indices) {
  return st::sort_outf(self, std::optional<bool>(false), dim, descending, values, indices);
}

std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest,
                                bool /*sorted*/) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t n = self.dim() ? self.size(d) : 1;
  check_topk_k(k, n);
  return sort_like(self, dim, k, largest, "topk", false);
}

std::tuple<Tensor, Tensor> topk_out(const Tensor& self, int64_t k, int64_t dim, bool largest,
                                    bool sorted, const Tensor& values, const Tensor& indices) {
  auto [v, i] = native::topk(self, k, dim, largest, sorted);
  write_outs(v, i, values, indices, "topk");
  return {values, indices};
}

}  // namespace st::native
