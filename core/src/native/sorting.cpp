// Sorting: sort (stable or not: always stable here, which PyTorch allows)
// and topk. NaN sorts above every number, as in PyTorch: last in ascending
// order, first in descending order and in topk(largest=True).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>
#include <tuple>
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/parallel.h>
#include <st/core/wrap_dim.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/row_offsets.h>
#include <st/native/tensor_iterator.h>

#include "host_memory.h"
#include "sort_checks.h"

namespace st::native {

namespace {

constexpr uint64_t kSortTypes = kAllTypes | kReducedFloatTypes | kBoolType | kUnsignedTypes;
constexpr uint64_t kTopkTypes = kAllTypes | kReducedFloatTypes | kUnsignedTypes;

// An unsigned key whose order is the sort order of v: signed integers
// with the sign bit flipped, floats by their bits (negative ones
// complemented). NaN gets the largest key and both zeros the same one,
// as PyTorch orders them (NaN above every number, -0.0 == 0.0).
template <typename O>
uint64_t order_key(O v) {
  if constexpr (std::is_same_v<O, bool>) {
    return v ? 1 : 0;
  } else if constexpr (std::is_floating_point_v<O>) {
    using U = std::conditional_t<sizeof(O) == 4, uint32_t, uint64_t>;
    static_assert(sizeof(O) == sizeof(U), "float key width");
    constexpr U sign = U(1) << (8 * sizeof(U) - 1);
    U bits;
    std::memcpy(&bits, &v, sizeof(bits));
    // Without branches: the signs of random data are not predictable.
    const U negative = U(U(0) - U(bits >> (8 * sizeof(U) - 1)));
    U key = U(bits ^ U(negative | sign));
    key = v == O(0) ? sign : key;
    return std::isnan(v) ? std::numeric_limits<U>::max() : key;
  } else if constexpr (std::is_signed_v<O>) {
    using U = std::make_unsigned_t<O>;
    return U(U(v) ^ (U(1) << (8 * sizeof(U) - 1)));
  } else {
    return v;
  }
}

// The largest key of O (descending order complements keys within it).
template <typename O>
constexpr uint64_t max_key() {
  if constexpr (std::is_same_v<O, bool>) {
    return 1;
  } else if constexpr (std::is_floating_point_v<O>) {
    return sizeof(O) == 4 ? std::numeric_limits<uint32_t>::max()
                          : std::numeric_limits<uint64_t>::max();
  } else {
    return std::numeric_limits<std::make_unsigned_t<O>>::max();
  }
}

int bit_width(uint64_t v) {
  int b = 0;
  while (v) {
    ++b;
    v >>= 1;
  }
  return b;
}

// Rows shorter than this sort by comparisons; longer ones by radix.
constexpr int64_t kRadixMinRow = 128;

// Selections of at most this many (topk with a small k) insert into a
// short ordered list while reading the row, once.
constexpr int64_t kFewFirst = 8;

// Stable LSD radix sort of `a` (n words) by bits [lo, hi), 8 bits a pass;
// `tmp` holds n words. Passes where every word has the same digit are
// skipped. The result ends in `a`.
void radix_sort_bits(uint64_t* a, uint64_t* tmp, int64_t n, int lo, int hi) {
  uint64_t* src = a;
  uint64_t* dst = tmp;
  for (int shift = lo; shift < hi; shift += 8) {
    int64_t count[256] = {};
    for (int64_t i = 0; i < n; ++i) ++count[(src[i] >> shift) & 0xff];
    if (count[(src[0] >> shift) & 0xff] == n) continue;
    int64_t sum = 0;
    for (int64_t& c : count) {
      const int64_t t = c;
      c = sum;
      sum += t;
    }
    for (int64_t i = 0; i < n; ++i) dst[count[(src[i] >> shift) & 0xff]++] = src[i];
    std::swap(src, dst);
  }
  if (src != a) std::memcpy(a, src, static_cast<size_t>(n) * sizeof(uint64_t));
}

// Whether v orders strictly before t in a selection (descending: larger
// first; NaN above every number, both zeros equal), on values: the order
// of order_key, without computing keys.
template <bool kDescending, typename O>
bool orders_before(O v, O t) {
  if constexpr (std::is_floating_point_v<O>) {
    if constexpr (kDescending) {
      return v > t || (v != v && t == t);
    } else {
      return v < t || (t != t && v == v);
    }
  } else {
    return kDescending ? t < v : v < t;
  }
}

// Elements per block of few_first's pre-check.
constexpr int64_t kFewBlock = 16;

// Contiguous float and double blocks are pre-checked in 16-byte vector
// registers (GCC vector extensions at the baseline's width: wider vectors'
// comparisons are lowered lane by lane).
template <typename T>
constexpr bool kVectorBlock = std::is_same_v<T, float> || std::is_same_v<T, double>;

// Whether any of the kFewBlock values at p orders strictly before t
// (orders_before, lane by lane).
template <bool kDescending, typename T>
bool block_orders_before(const T* p, T t) {
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  typedef T V __attribute__((vector_size(16)));
  typedef I M __attribute__((vector_size(16)));
  constexpr int64_t kLanes = 16 / sizeof(T);
  static_assert(kFewBlock % kLanes == 0, "whole registers per block");
  const V tv = t - V{};
  M hit = {};
  for (int64_t j = 0; j < kFewBlock; j += kLanes) {
    V v;
    std::memcpy(&v, p + j, sizeof(v));
    if (t != t) {
      // Nothing orders before NaN when descending; every number does
      // when ascending.
      if (!kDescending) hit |= (v == v);
    } else {
      hit |= kDescending ? ((v > tv) | (v != v)) : (v < tv);
    }
  }
  I any = 0;
  for (int64_t l = 0; l < kLanes; ++l) any |= hit[l];
  return any != 0;
}

// The first k (k <= kFewFirst, k < n) of a row of n elements (stride xs)
// in selection order, into few[0..k) as (key, index): one pass keeping
// them in order, where a key equal to the last kept one stays out, so
// ties keep their original order. Once k are kept, blocks of kFewBlock
// elements are first compared with the last kept value, and only a block
// with an element ordering before it is offered element by element:
// after the first few blocks most are passed over, with one vectorizable
// comparison per element instead of a key and a branch.
template <typename T, typename O>
void few_first(const T* row, int64_t xs, int64_t n, int64_t k, bool descending,
               std::pair<uint64_t, int64_t>* few) {
  const auto scan = [&](auto desc, auto unit) {
    constexpr bool kDescending = decltype(desc)::value;
    const int64_t step = decltype(unit)::value ? 1 : xs;
    // Offers the elements from i on to visit(i), in order, past those that
    // cannot enter: a block of kFewBlock only if one of its elements orders
    // before `bound` (read as it changes), the last partial block element
    // by element. A visit that is itself one compare with the bound
    // (cheap) is not compared first where no vector registers do it.
    const auto walk = [&](auto cheap, int64_t i, const O& bound, const auto& visit) {
      constexpr bool kVector = kVectorBlock<T> && decltype(unit)::value;
      constexpr bool kCompareFirst = !decltype(cheap)::value;
      for (; i + kFewBlock <= n; i += kFewBlock) {
        bool any = !kVector && !kCompareFirst;
        if constexpr (kVector) {
          any = block_orders_before<kDescending>(row + i, bound);
        } else if constexpr (kCompareFirst) {
          for (int64_t j = 0; j < kFewBlock; ++j) {
            any |= orders_before<kDescending>(to_opmath(row[(i + j) * step]), bound);
          }
        }
        if (!any) continue;
        for (int64_t j = 0; j < kFewBlock; ++j) visit(i + j);
      }
      for (; i < n; ++i) {
        if (!kCompareFirst || orders_before<kDescending>(to_opmath(row[i * step]), bound)) {
          visit(i);
        }
      }
    };
    if (k == 1) {
      // The first element in selection order: no keys and no list, one
      // compare per element. topk(k=1) over rows of 64 floats: 123 ns a
      // row through the list, 107 this way (PyTorch 113, same run).
      int64_t best = 0;
      O bv = to_opmath(row[0]);
      walk(std::true_type{}, 1, bv, [&](int64_t i) {
        const O v = to_opmath(row[i * step]);
        if (orders_before<kDescending>(v, bv)) {
          bv = v;
          best = i;
        }
      });
      few[0] = {0, best};  // (the key is not read once the selection is made)
      return;
    }
    int64_t kept = 0;
    O bound{};  // the value of few[k - 1] once k are kept
    const auto offer = [&](int64_t i) {
      const O v = to_opmath(row[i * step]);
      uint64_t kv = order_key<O>(v);
      if (kDescending) kv = max_key<O>() - kv;
      if (kept == k && kv >= few[k - 1].first) return;
      int64_t at = kept < k ? kept++ : k - 1;
      for (; at > 0 && few[at - 1].first > kv; --at) few[at] = few[at - 1];
      few[at] = {kv, i};
      if (kept == k) bound = to_opmath(row[few[k - 1].second * step]);
    };
    int64_t i = 0;
    for (; i < n && kept < k; ++i) offer(i);
    walk(std::false_type{}, i, bound, offer);
  };
  if (descending) {
    xs == 1 ? scan(std::true_type{}, std::true_type{}) : scan(std::true_type{}, std::false_type{});
  } else {
    xs == 1 ? scan(std::false_type{}, std::true_type{})
            : scan(std::false_type{}, std::false_type{});
  }
}

// Sorts (k == n) or selects the first k (k < n) of every row of x along
// d, writing values and Long indices into vals/idxs (x's shape with size
// k along d, any strides). Ties keep their original order (stable): a
// row's keys are packed with their index into one word when they fit
// (as they do for every dtype narrower than 64 bits), so the order is
// total and the word sort needs no tie rule.
void select_rows(const Tensor& x, int64_t d, int64_t k, bool descending, const Tensor& vals,
                 const Tensor& idxs, const char* op, bool allow_bool) {
  const bool scalar = x.dim() == 0;
  const int64_t n = scalar ? 1 : x.size(d);
  const int64_t rows = n ? x.numel() / n : 0;
  if (rows == 0 || k == 0) return;
  const RowOffsets xr(x, d), vr(vals, d), ir(idxs, d);
  const int64_t xs = scalar ? 0 : x.stride(d);
  const int64_t vs = scalar ? 0 : vals.stride(d);
  const int64_t is = scalar ? 0 : idxs.stride(d);
  const int idx_bits = bit_width(static_cast<uint64_t>(n - 1));
  auto run = [&](auto tag) {
    if (n == 1) {
      // Rows of one element are sorted (once the dtype is known to
      // sort): each row's set-up per element took 9.4 ms over dim 0 of
      // [1, 1024, 1024] floats (PyTorch 5.0).
      st::copy_(vals, x);
      st::fill_(idxs, 0);
      return;
    }
    using T = typename decltype(tag)::type;
    using O = opmath_t<T>;
    const T* xp = static_cast<const T*>(x.const_data_ptr());
    T* vp = static_cast<T*>(vals.data_ptr());
    int64_t* ip = static_cast<int64_t*>(idxs.data_ptr());
    const int64_t grain = std::max<int64_t>(1, 16384 / n);
    parallel_for(0, rows, grain, [&](int64_t r0, int64_t r1) {
      std::vector<uint64_t> key(static_cast<size_t>(n)), tmp(static_cast<size_t>(n));
      std::vector<std::pair<uint64_t, int64_t>> pairs;
      std::pair<uint64_t, int64_t> few[kFewFirst];
      // One row: its n elements at row[i * rs].
      const auto select = [&](const T* row, int64_t rs, T* vrow, int64_t* irow) {
        if (k <= kFewFirst && k < n) {
          few_first<T, O>(row, rs, n, k, descending, few);
          for (int64_t i = 0; i < k; ++i) {
            const int64_t j = few[i].second;
            vrow[i * vs] = row[j * rs];
            irow[i * is] = j;
          }
          return;
        }
        uint64_t lo = std::numeric_limits<uint64_t>::max(), hi = 0;
        for (int64_t i = 0; i < n; ++i) {
          uint64_t kv = order_key<O>(to_opmath(row[i * rs]));
          if (descending) kv = max_key<O>() - kv;
          key[static_cast<size_t>(i)] = kv;
          lo = std::min(lo, kv);
          hi = std::max(hi, kv);
        }
        const int range_bits = bit_width(hi - lo);
        if (range_bits + idx_bits <= 64) {
          uint64_t* w = key.data();
          if (range_bits > 0) {
            for (int64_t i = 0; i < n; ++i) {
              w[i] = ((w[i] - lo) << idx_bits) | static_cast<uint64_t>(i);
            }
            if (k < n && (n < kRadixMinRow || k * 8 <= n)) {
              std::partial_sort(w, w + k, w + n);
            } else if (n < kRadixMinRow) {
              std::sort(w, w + n);
            } else {
              radix_sort_bits(w, tmp.data(), n, idx_bits, idx_bits + range_bits);
            }
          } else {
            for (int64_t i = 0; i < n; ++i) w[i] = static_cast<uint64_t>(i);
          }
          const uint64_t mask = idx_bits ? (~uint64_t{0} >> (64 - idx_bits)) : 0;
          for (int64_t i = 0; i < k; ++i) {
            const int64_t j = static_cast<int64_t>(w[i] & mask);
            vrow[i * vs] = row[j * rs];
            irow[i * is] = j;
          }
        } else {
          pairs.resize(static_cast<size_t>(n));
          for (int64_t i = 0; i < n; ++i) pairs[static_cast<size_t>(i)] = {key[i], i};
          if (k < n) {
            std::partial_sort(pairs.begin(), pairs.begin() + k, pairs.end());
          } else {
            std::sort(pairs.begin(), pairs.end());
          }
          for (int64_t i = 0; i < k; ++i) {
            const int64_t j = pairs[static_cast<size_t>(i)].second;
            vrow[i * vs] = row[j * rs];
            irow[i * is] = j;
          }
        }
      };
      // A strided row is first copied into `lines`, so the selection reads
      // it as contiguous (vector compares, no cache line or page per
      // element). Rows that start one element apart (along an outer dim of
      // a row-major tensor) are copied kTile at a time, a cache line's
      // worth of each element position at once. Over dim 0 of [1024, 1024]
      // floats, against the strided walk (interleaved): topk(k=1) 3.4 ->
      // 0.97 ms (PyTorch 4.2-4.7), topk(k=4) 4.4 -> 1.9, sort 21.7 -> 17.3.
      constexpr int64_t kTile = 16;
      // Lines kTile elements longer than a row: n * sizeof(T) apart, a
      // power of two apart for the usual n, a tile's stores would all fall
      // in one set of the L1 cache (topk over dim 0 of [16384, 64] floats:
      // 3.1 ms, against 0.87 row by row).
      const int64_t pitch = n + kTile;
      std::unique_ptr<T[]> lines;  // (not std::vector: T may be bool)
      for (int64_t r = r0; r < r1;) {
        const int64_t at = xr.offset(r);
        if (xs == 1) {
          select(xp + at, xs, vp + vr.offset(r), ip + ir.offset(r));
          ++r;
          continue;
        }
        int64_t tile = 1;
        while (tile < kTile && r + tile < r1 && xr.offset(r + tile) == at + tile) ++tile;
        if (!lines) lines.reset(new T[static_cast<size_t>(kTile * pitch)]);
        const T* src = xp + at;
        for (int64_t i = 0; i < n; ++i) {
          for (int64_t t = 0; t < tile; ++t) lines[t * pitch + i] = src[i * xs + t];
        }
        for (int64_t t = 0; t < tile; ++t) {
          select(lines.get() + t * pitch, 1, vp + vr.offset(r + t), ip + ir.offset(r + t));
        }
        r += tile;
      }
    });
  };
  if (allow_bool) {
    dispatch_dtype<kSortTypes>(x.dtype(), op, run);
  } else {
    dispatch_dtype<kTopkTypes>(x.dtype(), op, run);
  }
}

// Values/indices with the shape of self except size k along dim. A full
// sort of a non-contiguous self lays its results out as self (dense
// strides in self's order), as PyTorch's does; otherwise they are
// contiguous.
std::tuple<Tensor, Tensor> sort_like(const Tensor& self, int64_t dim, int64_t k, bool descending,
                                     const char* op, bool allow_bool) {
  check_host_memory(self, op, "self");
  check_sortable(self, op);
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  Tensor values, indices;
  if (self.dim() > 0 && k == self.size(d) && !self.is_contiguous()) {
    values = empty_preserving(self, self.dtype());
    indices = empty_preserving(self, ScalarType::Long);
  } else {
    std::vector<int64_t> shape(self.sizes().begin(), self.sizes().end());
    if (self.dim() > 0) shape[static_cast<size_t>(d)] = k;
    values = st::detail::empty_generic(IntArrayRef(shape), self.dtype(), self.device());
    indices = st::detail::empty_generic(IntArrayRef(shape), ScalarType::Long, self.device());
  }
  select_rows(self, d, k, descending, values, indices, op, allow_bool);
  return {values, indices};
}

// The out= forms select straight into values and indices (through their
// strides) when both already have the result's shape, on the host, and
// share memory neither with self nor with each other; true when done.
// Otherwise the results go through temporaries (write_outs), which also
// resizes the outs.
bool select_into_outs(const Tensor& self, int64_t dim, int64_t k, bool descending,
                      const Tensor& values, const Tensor& indices, const char* op,
                      bool allow_bool) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  if (values.device() != self.device() || indices.device() != self.device()) return false;
  if (self.dim() > 0) {
    if (values.dim() != self.dim() || indices.dim() != self.dim()) return false;
    for (int64_t i = 0; i < self.dim(); ++i) {
      const int64_t want = i == d ? k : self.size(i);
      if (values.size(i) != want || indices.size(i) != want) return false;
    }
  } else if (values.dim() != 0 || indices.dim() != 0) {
    return false;
  }
  if (values.is_alias_of(self) || indices.is_alias_of(self) || values.is_alias_of(indices)) {
    return false;
  }
  check_host_memory(self, op, "self");
  check_sortable(self, op);
  check_sort_outs(self, values, indices, op);
  check_host_memory(values, op, "values");
  check_host_memory(indices, op, "indices");
  select_rows(self, d, k, descending, values, indices, op, allow_bool);
  return true;
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
  const int64_t n = self.dim() ? self.size(maybe_wrap_dim(dim, self.dim())) : 1;
  if (select_into_outs(self, dim, n, descending, values, indices, "sort", true)) {
    return {values, indices};
  }
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
  const int64_t n = self.dim() ? self.size(maybe_wrap_dim(dim, self.dim())) : 1;
  check_topk_k(k, n);
  if (select_into_outs(self, dim, k, largest, values, indices, "topk", false)) {
    return {values, indices};
  }
  auto [v, i] = native::topk(self, k, dim, largest, sorted);
  write_outs(v, i, values, indices, "topk");
  return {values, indices};
}

}  // namespace st::native
