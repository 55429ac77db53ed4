// Reductions: sum, mean, prod, amax/amin, max/min (full and .dim),
// argmax/argmin, all/any, cumsum, var/std, norm, linalg_vector_norm.
// Accumulation types follow PyTorch's CPU kernels: floating types
// accumulate in double, complex in complex<double>, integers in int64.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/wrap_dim.h>
#include <st/device/device_runtime.h>
#include <st/generated/functions.h>
#include <st/generated/native_kernels.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/memory_overlap.h>
#include <st/native/reduction.h>
#include <st/native/row_offsets.h>
#include <st/native/tensor_iterator.h>

#include "cumsum_checks.h"
#include "direct_output.h"
#include "host_memory.h"
#include "reduce_out_checks.h"
#include "vector_norm_checks.h"

#include "cpu/vec_kernels.h"
#include "cpu/vec_reduce_kernels.h"

namespace st::native {

namespace {

// ---- accumulation types ---------------------------------------------------------

template <typename T>
struct acc_type {
  using type = std::conditional_t<
      is_complex_v<T>, std::complex<double>,
      std::conditional_t<std::is_floating_point_v<opmath_t<T>>, double,
                         std::conditional_t<std::is_unsigned_v<T> && !std::is_same_v<T, bool>,
                                            uint64_t, int64_t>>>;
};
template <typename T>
using acc_t = typename acc_type<T>::type;

template <typename T>
bool is_nan_value(T v) {
  if constexpr (std::is_floating_point_v<opmath_t<T>>) {
    return std::isnan(to_opmath(v));
  } else {
    return false;
  }
}

// The tensor a reduction computes into: a given out= itself when it has
// the result's dtype and device, shares no storage with the input and,
// resized to the result's shape, is contiguous (reduce_loop writes the
// outputs row-major); else a new tensor, which reduce_into_output()
// copies into the out=. Writing directly saves a temporary and a copy.
Tensor make_result(const ReduceGeometry& g, ScalarType dtype, const Tensor& like,
                   const Tensor* out = nullptr) {
  if (out != nullptr && out->defined() && out->dtype() == dtype && out->device() == like.device() &&
      !out->is_alias_of(g.input)) {
    resize_output(*out, IntArrayRef(g.out_shape));
    if (out->is_contiguous()) return *out;
  }
  return st::detail::empty_generic(IntArrayRef(g.out_shape), dtype, like.device());
}

ScalarType integral_to_long(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype.has_value()) return *dtype;
  if (torch::headeronly::isIntegralType(self.dtype(), true)) return ScalarType::Long;
  return self.dtype();
}

// ---- the vector loops (reduction.h's run/row; cpu/vec_reduce_kernels.h) ----------------

// The input types the per-ISA reduction loops cover.
template <typename T>
constexpr bool kVecInput =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int64_t>;

// int64 sums and products wrap, as PyTorch's do.
inline int64_t wrap_add(int64_t a, uint64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + b);
}
inline int64_t wrap_mul(int64_t a, uint64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * b);
}

// acc (+)= or (*)= the run p[0..n).
template <bool kProd, typename T, typename A>
bool vec_sum_run(A& a, const T* p, int64_t n) {
  const cpu::VecReduceKernels& k = cpu::vec_reduce_kernels();
  if constexpr (std::is_same_v<T, float>) {
    if constexpr (kProd) {
      a *= k.prod_f32(p, n);
    } else {
      a += cpu::vec_kernels().sum_f32(p, n);
    }
  } else if constexpr (std::is_same_v<T, double>) {
    if constexpr (kProd) {
      a *= k.prod_f64(p, n);
    } else {
      a += cpu::vec_kernels().sum_f64(p, n);
    }
  } else if constexpr (std::is_same_v<T, int64_t>) {
    a = kProd ? wrap_mul(a, k.prod_i64(p, n)) : wrap_add(a, k.sum_i64(p, n));
  } else {
    return false;
  }
  return true;
}

// The table entry for T among its float, double and int64 ones; nullptr
// for a type the table has no loop for.
template <typename T, typename F32, typename F64, typename I64>
auto entry_for(F32 f32, F64 f64, I64 i64) {
  if constexpr (std::is_same_v<T, float>) {
    return f32;
  } else if constexpr (std::is_same_v<T, double>) {
    return f64;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return i64;
  } else {
    return nullptr;
  }
}

template <bool kProd, typename T, typename A>
bool vec_sum_rows(A* acc, const T* p, int64_t n, int64_t rows, int64_t stride) {
  const cpu::VecReduceKernels& k = cpu::vec_reduce_kernels();
  const auto fn =
      entry_for<T>(kProd ? k.rows_mul_f32 : k.rows_add_f32, kProd ? k.rows_mul_f64 : k.rows_add_f64,
                   kProd ? k.rows_mul_i64 : k.rows_add_i64);
  if constexpr (std::is_null_pointer_v<decltype(fn)>) {
    return false;
  } else {
    fn(acc, p, n, rows, stride);
    return true;
  }
}

// accs[r] (+)= or (*)= the fold of p[r][j * stride] over j < n, for
// kRunGroup runs of a one-dim reduction, with the bits of vec_sum_run for
// each run. Contiguous float rows go to one table call (sum_f32_runs,
// prod_f32_runs): rows of 128 floats, 1M elements, took 348 us when the
// runs shorter than a block were summed element by element, and take 64
// us now (one process; PyTorch 59 us against 65 in one interleaved run).
// Other contiguous runs of at least the vector loop's block go to
// vec_sum_run one after the other: the same call the engine would make per
// output, without the engine's walk around it. Sums of runs that the
// vector sum adds one by one (fewer than 16 floats, 32 doubles) are added
// in order, into 0.0, for the runs side by side, so the additions of
// different runs overlap instead of each run being one chain of dependent
// additions. False otherwise (other types, strided runs the vector sum
// takes in lanes, short strided products, int64 runs shorter than the
// vector loop's group).
template <bool kProd, typename T, typename A>
bool sum_runs(A (&accs)[kRunGroup], const T* const (&p)[kRunGroup], int64_t n, int64_t stride) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    constexpr int64_t kBlock = std::is_same_v<T, float> ? cpu::kSumF32Block : cpu::kSumF64Block;
    if constexpr (std::is_same_v<T, float>) {
      if (stride == 1) {
        double s[kRunGroup];
        if constexpr (kProd) {
          cpu::vec_reduce_kernels().prod_f32_runs(s, p, kRunGroup, n);
          for (int64_t r = 0; r < kRunGroup; ++r) accs[r] *= s[r];
        } else {
          cpu::vec_kernels().sum_f32_runs(s, p, kRunGroup, n);
          for (int64_t r = 0; r < kRunGroup; ++r) accs[r] += s[r];
        }
        return true;
      }
      // Strided runs the float lanes take: gathered, output by output.
      if (!kProd && n >= cpu::kSumF32Group) return false;
    }
    if (n >= kBlock) {
      if (stride != 1) return false;
      for (int64_t r = 0; r < kRunGroup; ++r) vec_sum_run<kProd>(accs[r], p[r], n);
      return true;
    }
    if constexpr (kProd) {
      return false;
    } else {
      double s[kRunGroup] = {};
      for (int64_t j = 0; j < n; ++j) {
        for (int64_t r = 0; r < kRunGroup; ++r) s[r] += static_cast<double>(p[r][j * stride]);
      }
      for (int64_t r = 0; r < kRunGroup; ++r) accs[r] += s[r];
      return true;
    }
  } else if constexpr (std::is_same_v<T, int64_t>) {
    // Wrapping integer sums and products: any grouping gives the same bits.
    if (stride != 1 || n < cpu::kIntRunGroup) return false;
    for (int64_t r = 0; r < kRunGroup; ++r) vec_sum_run<kProd>(accs[r], p[r], n);
    return true;
  } else {
    return false;
  }
}

// ---- sum / prod / mean -----------------------------------------------------------------

template <typename T, bool kProd>
struct SumOps {
  using A = acc_t<T>;
  T* out;
  A init() const { return kProd ? A(1) : A(0); }
  void step(A& a, T v, int64_t) const {
    if constexpr (kProd) {
      a *= convert<A>(v);
    } else {
      a += convert<A>(v);
    }
  }
  void combine(A& a, const A& b) const {
    if constexpr (kProd) {
      a *= b;
    } else {
      a += b;
    }
  }
  void write(int64_t o, const A& a) const { out[o] = convert<T>(a); }
  static constexpr bool kVec = kVecInput<T>;
  // rows_add_f32 groups rows from each call's first row (reduction.h).
  static constexpr int64_t kRowsGroup = std::is_same_v<T, float> && !kProd ? cpu::kSumRowsGroup : 1;
  bool run(A& a, const T* p, int64_t n, int64_t) const { return vec_sum_run<kProd>(a, p, n); }
  bool rows(A* acc, const T* p, int64_t n, int64_t rows, int64_t stride, int64_t) const {
    return vec_sum_rows<kProd>(acc, p, n, rows, stride);
  }
  bool runs(A (&accs)[kRunGroup], const T* const (&p)[kRunGroup], int64_t n, int64_t stride) const {
    return sum_runs<kProd>(accs, p, n, stride);
  }
};

template <typename T>
struct MeanOps {
  using A = acc_t<T>;
  T* out;
  double n;
  A init() const { return A(0); }
  void step(A& a, T v, int64_t) const { a += convert<A>(v); }
  void combine(A& a, const A& b) const { a += b; }
  // (over size-1 dims, a division per element took 0.65 ms per 1M floats,
  // 0.24 without)
  void write(int64_t o, const A& a) const { out[o] = convert<T>(n == 1 ? a : a / n); }
  static constexpr bool kVec = kVecInput<T>;
  static constexpr int64_t kRowsGroup = std::is_same_v<T, float> ? cpu::kSumRowsGroup : 1;
  bool run(A& a, const T* p, int64_t len, int64_t) const { return vec_sum_run<false>(a, p, len); }
  bool rows(A* acc, const T* p, int64_t len, int64_t rows, int64_t stride, int64_t) const {
    return vec_sum_rows<false>(acc, p, len, rows, stride);
  }
  bool runs(A (&accs)[kRunGroup], const T* const (&p)[kRunGroup], int64_t n, int64_t stride) const {
    return sum_runs<false>(accs, p, n, stride);
  }
};
// The engine finds rows() and runs() by name: a misspelt one would be
// skipped silently, the reduction stepped element by element.
static_assert(detail::rows_group<SumOps<float, false>>::value == cpu::kSumRowsGroup &&
              detail::rows_group<MeanOps<float>>::value == cpu::kSumRowsGroup &&
              detail::reduce_rows<SumOps<float, false>>::value &&
              detail::reduce_runs<SumOps<float, false>>::value &&
              detail::reduce_rows<MeanOps<float>>::value &&
              detail::reduce_runs<MeanOps<float>>::value);

constexpr uint64_t kSumTypes =
    kAllTypes | kReducedFloatTypes | kComplexTypes | kBoolType | kUnsignedTypes;

// into: an out= to compute into directly when it can be (make_result).
Tensor sum_like(const char* name, const Tensor& self, std::optional<IntArrayRef> dims, bool keepdim,
                ScalarType out_dtype, bool prod, const Tensor* into = nullptr) {
  check_host_memory(self, name, "self");
  const Tensor input = to_dtype(self, out_dtype);
  ReduceGeometry g = make_reduce_geometry(input, dims, keepdim, name);
  Tensor result = make_result(g, out_dtype, self, into);
  dispatch_dtype<kSumTypes>(out_dtype, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* out = static_cast<T*>(result.data_ptr());
    if (prod) {
      reduce_loop<T>(g, SumOps<T, true>{out});
    } else {
      reduce_loop<T>(g, SumOps<T, false>{out});
    }
  });
  return result;
}

// ---- max / min --------------------------------------------------------------------------

template <typename T, bool kMax>
struct ExtremeOps {
  using O = opmath_t<T>;
  T* out;
  O init() const {
    if constexpr (std::is_floating_point_v<O>) {
      return kMax ? -std::numeric_limits<O>::infinity() : std::numeric_limits<O>::infinity();
    } else {
      return kMax ? std::numeric_limits<O>::lowest() : std::numeric_limits<O>::max();
    }
  }
  static bool better(O v, O a) {
    if constexpr (std::is_floating_point_v<O>) {
      if (std::isnan(a)) return false;
      if (std::isnan(v)) return true;
    }
    return kMax ? v > a : v < a;
  }
  void step(O& a, T v, int64_t) const {
    const O x = to_opmath(v);
    if (better(x, a)) a = x;
  }
  void combine(O& a, const O& b) const {
    if (better(b, a)) a = b;
  }
  void write(int64_t o, const O& a) const { out[o] = from_opmath<T>(a); }
  static constexpr bool kVec = kVecInput<T>;
  // The table's max or min for T, nullptr for a type without one.
  static auto kernel() {
    const cpu::VecReduceKernels& k = cpu::vec_reduce_kernels();
    return entry_for<T>(kMax ? k.max_f32 : k.min_f32, kMax ? k.max_f64 : k.min_f64,
                        kMax ? k.max_i64 : k.min_i64);
  }
  bool run(O& a, const T* p, int64_t n, int64_t) const {
    if constexpr (std::is_null_pointer_v<decltype(kernel())>) {
      return false;
    } else {
      combine(a, cpu::one_run(kernel(), p, n));
      return true;
    }
  }
  // Contiguous rows of a reduction over the last dim in one table call,
  // without the engine's walk around each (about 110 instructions per row:
  // amax over rows of 64 floats spent as much there as in the vector loop).
  bool runs(O (&accs)[kRunGroup], const T* const (&p)[kRunGroup], int64_t n, int64_t stride) const {
    if constexpr (std::is_null_pointer_v<decltype(kernel())>) {
      return false;
    } else {
      // accs come as init(), the identity: the rows' values are the result.
      static_assert(std::is_same_v<O, T>);
      if (stride != 1) return false;
      kernel()(accs, p, kRunGroup, n);
      return true;
    }
  }
  bool rows(O* acc, const T* p, int64_t n, int64_t rows, int64_t stride, int64_t) const {
    const cpu::VecReduceKernels& k = cpu::vec_reduce_kernels();
    const auto fn =
        entry_for<T>(kMax ? k.rows_max_f32 : k.rows_min_f32, kMax ? k.rows_max_f64 : k.rows_min_f64,
                     kMax ? k.rows_max_i64 : k.rows_min_i64);
    if constexpr (std::is_null_pointer_v<decltype(fn)>) {
      return false;
    } else {
      fn(acc, p, n, rows, stride);
      return true;
    }
  }
};
static_assert(detail::reduce_runs<ExtremeOps<float, true>>::value &&
              detail::reduce_runs<ExtremeOps<int64_t, false>>::value);

template <typename O>
struct ValueIndex {
  O value{};
  int64_t index = -1;
};

template <typename T, bool kMax>
struct ArgOps {
  using O = opmath_t<T>;
  T* values;  // may be null (argmax)
  int64_t* indices;
  ValueIndex<O> init() const { return {}; }
  void step(ValueIndex<O>& a, T v, int64_t k) const {
    const O x = to_opmath(v);
    if (a.index < 0 || ExtremeOps<T, kMax>::better(x, a.value)) {
      a.value = x;
      a.index = k;
    }
  }
  void combine(ValueIndex<O>& a, const ValueIndex<O>& b) const {
    if (b.index < 0) return;
    if (a.index < 0 || ExtremeOps<T, kMax>::better(b.value, a.value)) a = b;
  }
  void write(int64_t o, const ValueIndex<O>& a) const {
    if (values != nullptr) values[o] = from_opmath<T>(a.value);
    indices[o] = a.index < 0 ? 0 : a.index;
  }
  // The run's extreme by the vector loop, then its first position (the
  // first NaN when it is NaN): the first occurrence wins, as step's does.
  static constexpr bool kVec = kVecInput<T>;
  bool run(ValueIndex<O>& a, const T* p, int64_t n, int64_t k) const {
    if (n == 0) return true;
    O m;
    if constexpr (std::is_null_pointer_v<decltype(ExtremeOps<T, kMax>::kernel())>) {
      return false;
    } else {
      m = cpu::one_run(ExtremeOps<T, kMax>::kernel(), p, n);
    }
    int64_t j = 0;
    if (is_nan_value(m)) {
      while (!is_nan_value(p[j])) ++j;
    } else {
      while (!(p[j] == m)) ++j;
    }
    combine(a, ValueIndex<O>{m, k + j});
    return true;
  }
  // The table's value-and-index rows for T, nullptr for a type without.
  static auto rows_kernel() {
    const cpu::VecReduceKernels& t = cpu::vec_reduce_kernels();
    return entry_for<T>(kMax ? t.rows_argmax_f32 : t.rows_argmin_f32,
                        kMax ? t.rows_argmax_f64 : t.rows_argmin_f64,
                        kMax ? t.rows_argmax_i64 : t.rows_argmin_i64);
  }
  // Over an outer dim (max(dim=1) of [16, 1024, 64]): the accumulators
  // split into value and index blocks for the table's loop, which compares
  // and blends across outputs; stepped element by element it took 1.0 ms
  // there, PyTorch 0.7.
  bool rows(ValueIndex<O>* acc, const T* p, int64_t n, int64_t rows, int64_t stride,
            int64_t k) const {
    if constexpr (std::is_null_pointer_v<decltype(rows_kernel())>) {
      return false;
    } else {
      static_assert(std::is_same_v<O, T>);
      if (rows == 0) return true;
      constexpr int64_t kBlock = 256;
      T val[kBlock];
      int64_t idx[kBlock];
      for (int64_t j0 = 0; j0 < n; j0 += kBlock) {
        const int64_t m = std::min(kBlock, n - j0);
        for (int64_t j = 0; j < m; ++j) {
          const ValueIndex<O>& a = acc[j0 + j];
          // An empty accumulator takes the first row (which the loop then
          // sees again and keeps: no element replaces itself).
          val[j] = a.index < 0 ? p[j0 + j] : a.value;
          idx[j] = a.index < 0 ? k : a.index;
        }
        rows_kernel()(val, idx, p + j0, m, rows, stride, k);
        for (int64_t j = 0; j < m; ++j) acc[j0 + j] = ValueIndex<O>{val[j], idx[j]};
      }
      return true;
    }
  }
};
static_assert(detail::reduce_rows<ArgOps<float, true>>::value);

constexpr uint64_t kOrderedTypes = kAllTypes | kReducedFloatTypes | kBoolType | kUnsignedTypes;

Tensor extreme(const char* name, const Tensor& self, IntArrayRef dims, bool keepdim, bool is_max) {
  ReduceGeometry g = make_reduce_geometry(self, dims, keepdim, name);
  check_nonempty_reduction(g, name);
  Tensor result = make_result(g, self.dtype(), self);
  dispatch_dtype<kOrderedTypes>(self.dtype(), name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* out = static_cast<T*>(result.data_ptr());
    if (is_max) {
      reduce_loop<T>(g, ExtremeOps<T, true>{out});
    } else {
      reduce_loop<T>(g, ExtremeOps<T, false>{out});
    }
  });
  return result;
}

std::tuple<Tensor, Tensor> arg_extreme(const char* name, const Tensor& self, int64_t dim,
                                       bool keepdim, bool is_max, bool want_values) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  ReduceGeometry g = make_reduce_geometry(self, IntArrayRef(&d, 1), keepdim, name);
  if (self.dim() > 0 && self.size(d) == 0 && g.num_outputs != 0) {
    ST_ERROR(name, "(): Expected reduction dim ", d, " to have non-zero size.");
  }
  Tensor values = want_values ? make_result(g, self.dtype(), self) : Tensor();
  Tensor indices = make_result(g, ScalarType::Long, self);
  dispatch_dtype<kOrderedTypes>(self.dtype(), name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* v = want_values ? static_cast<T*>(values.data_ptr()) : nullptr;
    int64_t* ix = static_cast<int64_t*>(indices.data_ptr());
    if (is_max) {
      reduce_loop<T>(g, ArgOps<T, true>{v, ix});
    } else {
      reduce_loop<T>(g, ArgOps<T, false>{v, ix});
    }
  });
  return {values, indices};
}

Tensor arg_impl(const char* name, const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                bool is_max) {
  ST_CHECK(!self.is_complex(), name, "(): does not support complex input");
  ST_CHECK(self.dtype() != ScalarType::Bool, name, "(): does not support bool input");
  if (dim.has_value()) {
    return std::get<1>(arg_extreme(name, self, *dim, keepdim, is_max, false));
  }
  ST_CHECK(self.numel() != 0, name,
           "(): Expected reduction dim to be specified for input.numel() == 0.");
  Tensor flat = st::reshape(self, {-1});
  Tensor r = std::get<1>(arg_extreme(name, flat, 0, false, is_max, false));
  if (keepdim) {
    std::vector<int64_t> ones(static_cast<size_t>(self.dim()), 1);
    r = st::reshape(r, ones);
  }
  return r;
}

// ---- all / any ----------------------------------------------------------------------------

template <typename T, bool kAll>
struct BoolReduceOps {
  uint8_t* out;  // Bool and Byte results are both one byte
  bool init() const { return kAll; }
  // (& and |, not && and ||: no branch per element)
  void step(bool& a, T v, int64_t) const {
    if constexpr (kAll) {
      a = a & convert<bool>(v);
    } else {
      a = a | convert<bool>(v);
    }
  }
  void combine(bool& a, const bool& b) const { a = kAll ? (a && b) : (a || b); }
  void write(int64_t o, const bool& a) const { out[o] = a ? 1 : 0; }
  static constexpr bool kVec = std::is_arithmetic_v<T>;
  // A stretch by blocks of kBoolBlock elements tested at once (a loop the
  // compiler vectorizes); a decided result (a zero for all, a nonzero for
  // any) ends the stretch, as it would end a && or || chain.
  bool run(bool& a, const T* p, int64_t n, int64_t) const {
    constexpr int64_t kBoolBlock = 64;
    if (a != kAll) return true;
    int64_t i = 0;
    for (; i + kBoolBlock <= n; i += kBoolBlock) {
      // A count, not a bool: GCC vectorizes integer sums, not && chains.
      uint32_t nonzero = 0;
      for (int64_t j = 0; j < kBoolBlock; ++j) nonzero += p[i + j] != T(0) ? 1u : 0u;
      if (kAll ? nonzero != kBoolBlock : nonzero != 0) {
        a = !kAll;
        return true;
      }
    }
    for (; i < n; ++i) step(a, p[i], 0);
    return true;
  }
};

// Over outer dims, items of up to 4 bytes: the outputs' flags updated row
// by row, a loop across the outputs that the compiler vectorizes (no order
// changes a flag). all(dim=1) of [4, 256, 1024] floats: 752 us stepped one
// element at a time, 137 so (PyTorch 573-583, interleaved). The baseline
// ISA the engine is compiled for has no 64-bit compare: int64 rows stay
// scalar, and strided ones, gathered first for rows(), took twice the time
// of the engine's steps (1260 against 536 us over dim 0 of every other
// column of [64, 32768]).
template <typename T, bool kAll>
struct BoolReduceRowsOps : BoolReduceOps<T, kAll> {
  bool rows(bool* acc, const T* p, int64_t n, int64_t rows, int64_t stride, int64_t) const {
    // The flags as bytes (a bool's bytes are 0 or 1; unsigned char may
    // access any object): GCC vectorizes byte masks, not bool updates.
    unsigned char* const flags = reinterpret_cast<unsigned char*>(acc);
    for (int64_t r = 0; r < rows; ++r) {
      const T* row = p + r * stride;
      for (int64_t j = 0; j < n; ++j) {
        const unsigned char nonzero = row[j] != T(0) ? 1 : 0;
        flags[j] = kAll ? (flags[j] & nonzero) : (flags[j] | nonzero);
      }
    }
    return true;
  }
};
template <typename T, bool kAll>
using BoolOps =
    std::conditional_t<(sizeof(T) <= 4), BoolReduceRowsOps<T, kAll>, BoolReduceOps<T, kAll>>;

// all/any over size-1 dims from this many outputs on: each output is
// x != 0, one vectorized compare (over dim 0 of [1, 1024, 1024] floats 86
// us, the engine's one-element folds 125; PyTorch's call 149 through the
// conformance driver). Below it the compare's iterator set-up costs more
// than it saves: 4096 outputs 1.4 us against 0.8, even at 32768 (4.8 us
// each, one process).
constexpr int64_t kBoolAsCompare = 32768;

Tensor bool_reduce(const char* name, const Tensor& self, std::optional<IntArrayRef> dims,
                   bool keepdim, bool is_all) {
  ReduceGeometry g = make_reduce_geometry(self, dims, keepdim, name);
  const ScalarType out_dtype =
      self.dtype() == ScalarType::Byte ? ScalarType::Byte : ScalarType::Bool;
  Tensor result = make_result(g, out_dtype, self);
  if (g.reduce_size == 1 && g.num_outputs >= kBoolAsCompare) {
    st::ne_out(result, st::reshape(self, result.sizes()), Scalar(0));
    return result;
  }
  dispatch_dtype<kEverything>(self.dtype(), name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    uint8_t* out = static_cast<uint8_t*>(result.data_ptr());
    const auto reduce = [&](auto ops) {
      ops.out = out;
      reduce_loop<T>(g, ops);
    };
    if (is_all) {
      reduce(BoolOps<T, true>{});
    } else {
      reduce(BoolOps<T, false>{});
    }
  });
  return result;
}

// ---- var / std -----------------------------------------------------------------------------

// Note [Variance of a chunk]
// A contiguous run is cut into chunks of m <= 4096 elements; each chunk's
// mean and sum of squared deviations m2 are merged into the running
// Welford state.
//   - float: one pass (at the memory's speed) of the sums, in double
//     lanes, of d = x - K and d^2, shifted by the chunk's first element K:
//     mean = K + S1/m, m2 = S2 - S1^2/m. Each sum adds at most 280 terms
//     in a chain (relative error below 2^-44 for S2, absolute below
//     2^-44 sqrt(m S2) for S1), so m2's error is below 2^-42 S2; and S2 =
//     m2 + m (mean - K)^2 <= (1 + m) m2, since (K - mean)^2 is one of
//     m2's terms. m2 is within 2^-30 (relative) of the exact value however
//     large the mean is against the spread, far below a float result's
//     rounding (2^-24). (A first pass for the mean in float lanes would
//     leave an error of the mean that m2 magnifies by the mean's size.)
//   - double: two passes over the chunk (the mean, then the sum of squared
//     deviations from it), in double lanes.

struct Welford {
  double mean = 0, m2 = 0;
  int64_t n = 0;
  void add(double x) {
    ++n;
    const double d = x - mean;
    mean += d / static_cast<double>(n);
    m2 += d * (x - mean);
  }
  void merge(const Welford& o) {
    if (o.n == 0) return;
    if (n == 0) {
      *this = o;
      return;
    }
    const double total = static_cast<double>(n + o.n);
    const double d = o.mean - mean;
    mean += d * static_cast<double>(o.n) / total;
    m2 += o.m2 + d * d * static_cast<double>(n) * static_cast<double>(o.n) / total;
    n += o.n;
  }
};

struct Welford2 {
  Welford re, im;
};

template <typename T, typename R>
struct VarOps {
  R* out;
  double correction;
  bool take_sqrt;
  Welford2 init() const { return {}; }
  void step(Welford2& a, T v, int64_t) const {
    if constexpr (is_complex_v<T>) {
      const auto z = to_opmath(v);
      a.re.add(static_cast<double>(z.real()));
      a.im.add(static_cast<double>(z.imag()));
    } else {
      a.re.add(static_cast<double>(to_opmath(v)));
    }
  }
  void combine(Welford2& a, const Welford2& b) const {
    a.re.merge(b.re);
    a.im.merge(b.im);
  }
  void write(int64_t o, const Welford2& a) const {
    const double denom = std::max(0.0, static_cast<double>(a.re.n) - correction);
    double v = (a.re.m2 + a.im.m2) / denom;
    if (take_sqrt) v = std::sqrt(v);
    out[o] = convert<R>(v);
  }
  // Chunks of kChunk elements are summarized and merged into the
  // accumulator (Note [Variance of a chunk]).
  static constexpr bool kVec = std::is_same_v<T, float> || std::is_same_v<T, double>;
  bool run(Welford2& a, const T* p, int64_t n, int64_t) const {
    constexpr int64_t kChunk = 4096;
    for (int64_t i = 0; i < n; i += kChunk) {
      const int64_t m = std::min(kChunk, n - i);
      const double count = static_cast<double>(m);
      Welford c;
      c.n = m;
      if constexpr (std::is_same_v<T, float>) {
        const double shift = static_cast<double>(p[i]);
        double sq = 0;
        const double dev = cpu::vec_reduce_kernels().sum_dev_f32(p + i, m, shift, &sq);
        c.mean = shift + dev / count;
        c.m2 = sq - dev * (dev / count);
      } else {
        c.mean = cpu::vec_kernels().sum_f64(p + i, m) / count;
        c.m2 = cpu::vec_reduce_kernels().sum_sqdev_f64(p + i, m, c.mean);
      }
      a.re.merge(c);
    }
    return true;
  }
};

Tensor var_std(const char* name, const Tensor& self, std::optional<IntArrayRef> dim,
               const std::optional<Scalar>& correction, bool keepdim, bool take_sqrt) {
  ST_CHECK(self.is_floating_point() || self.is_complex(), name,
           ": std and var only support floating point and complex dtypes");
  const double corr = correction.has_value() ? correction->toDouble() : 1.0;
  ReduceGeometry g = make_reduce_geometry(self, dim, keepdim, name);
  const ScalarType out_dtype = torch::headeronly::toRealValueType(self.dtype());
  Tensor result = make_result(g, out_dtype, self);
  dispatch_dtype<kAllFloat | kComplexTypes>(self.dtype(), name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    dispatch_dtype<kAllFloat>(out_dtype, name, [&](auto rtag) {
      using R = typename decltype(rtag)::type;
      reduce_loop<T>(g, VarOps<T, R>{static_cast<R*>(result.data_ptr()), corr, take_sqrt});
    });
  });
  return result;
}

// ---- vector norm ---------------------------------------------------------------------------

template <typename T, typename R>
struct NormOps {
  R* out;
  double p;  // inf / -inf / 0 / other
  double init() const {
    if (std::isinf(p)) return p > 0 ? 0.0 : std::numeric_limits<double>::infinity();
    return 0.0;
  }
  static double absval(T v) {
    if constexpr (is_complex_v<T>) {
      return static_cast<double>(std::abs(to_opmath(v)));
    } else {
      return std::fabs(static_cast<double>(to_opmath(v)));
    }
  }
  void step(double& a, T v, int64_t) const {
    const double x = absval(v);
    if (std::isinf(p)) {
      if (std::isnan(x) || std::isnan(a)) {
        a = std::numeric_limits<double>::quiet_NaN();
      } else {
        a = p > 0 ? std::max(a, x) : std::min(a, x);
      }
    } else if (p == 0) {
      a += x != 0 ? 1.0 : 0.0;
    } else if (p == 1) {
      a += x;
    } else if (p == 2) {
      a += x * x;
    } else {
      a += std::pow(x, p);
    }
  }
  void combine(double& a, const double& b) const {
    if (std::isinf(p)) {
      if (std::isnan(a) || std::isnan(b)) {
        a = std::numeric_limits<double>::quiet_NaN();
      } else {
        a = p > 0 ? std::max(a, b) : std::min(a, b);
      }
    } else {
      a += b;
    }
  }
  void write(int64_t o, const double& a) const {
    double r = a;
    if (!std::isinf(p) && p != 0 && p != 1) r = p == 2 ? std::sqrt(a) : std::pow(a, 1.0 / p);
    out[o] = convert<R>(r);
  }
  // Orders 1 and 2 (the common norms) have vector loops.
  static constexpr bool kVec = std::is_same_v<T, float> || std::is_same_v<T, double>;
  bool run(double& a, const T* x, int64_t n, int64_t) const {
    const cpu::VecReduceKernels& k = cpu::vec_reduce_kernels();
    if (p != 1 && p != 2) return false;
    if constexpr (std::is_same_v<T, float>) {
      a += p == 1 ? k.sum_abs_f32(x, n) : k.sum_sq_f32(x, n);
    } else {
      a += p == 1 ? k.sum_abs_f64(x, n) : k.sum_sq_f64(x, n);
    }
    return true;
  }
};

Tensor vector_norm_impl(const Tensor& self, const Scalar& ord, std::optional<IntArrayRef> dim,
                        bool keepdim, std::optional<ScalarType> dtype) {
  const char* name = "linalg.vector_norm";
  const double p = check_vector_norm(self, ord, dtype);
  const Tensor input = dtype.has_value() ? to_dtype(self, *dtype) : self;
  ReduceGeometry g = make_reduce_geometry(input, dim, keepdim, name);
  check_vector_norm_identity(g, p);
  const ScalarType out_dtype = torch::headeronly::toRealValueType(input.dtype());
  Tensor result = make_result(g, out_dtype, self);
  dispatch_dtype<kAllFloat | kComplexTypes>(input.dtype(), name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    dispatch_dtype<kAllFloat>(out_dtype, name, [&](auto rtag) {
      using R = typename decltype(rtag)::type;
      reduce_loop<T>(g, NormOps<T, R>{static_cast<R*>(result.data_ptr()), p});
    });
  });
  return result;
}

}  // namespace

namespace {

// A 0-dim tensor of self's dtype holding max's (is_max) or min's identity.
Tensor extreme_identity(const Tensor& self, bool is_max) {
  const char* name = is_max ? "max" : "min";
  ST_CHECK(!self.is_complex(), name, "(): does not support complex input");
  Tensor r = st::detail::empty_generic({}, self.dtype(), Device(DeviceType::CPU));
  dispatch_dtype<kAllTypes | kReducedFloatTypes | kBoolType | kUnsignedTypes>(
      self.dtype(), name, [&](auto tag) {
        using T = typename decltype(tag)::type;
        *static_cast<T*>(r.data_ptr()) = is_max ? convert<T>(ExtremeOps<T, true>{nullptr}.init())
                                                : convert<T>(ExtremeOps<T, false>{nullptr}.init());
      });
  return r;
}

}  // namespace

// ---- linalg_vector_norm's checks ---------------------------------------------------------

double check_vector_norm(const Tensor& self, const Scalar& ord, std::optional<ScalarType> dtype) {
  const char* name = "linalg.vector_norm";
  ST_CHECK(self.is_floating_point() || self.is_complex(), name,
           ": Expected a floating point or complex tensor as input. Got ",
           torch::headeronly::toString(self.dtype()));
  if (dtype.has_value()) {
    ST_CHECK(torch::headeronly::isFloatingType(*dtype) || torch::headeronly::isComplexType(*dtype),
             name, ": dtype should be floating point or complex. Got ",
             torch::headeronly::toString(*dtype));
  }
  return ord.isComplex() ? ord.toComplexDouble().real() : ord.toDouble();
}

void check_vector_norm_identity(const ReduceGeometry& g, double p) {
  const char* name = "linalg.vector_norm";
  if (std::isinf(p) && p < 0) {
    ST_CHECK(g.reduce_size != 0 || g.num_outputs == 0, name,
             " cannot compute the -inf norm on an empty tensor because the operation does not "
             "have an identity");
  }
  if (p < 0 && !std::isinf(p)) {
    ST_CHECK(g.reduce_size != 0 || g.num_outputs == 0, name, " cannot compute the ", p,
             " norm on an empty tensor because the operation does not have an identity");
  }
}

// ---- sum ---------------------------------------------------------------------------------
Tensor sum(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
           std::optional<ScalarType> dtype) {
  return sum_like("sum", self, dim, keepdim, integral_to_long(self, dtype), false);
}
Tensor sum(const Tensor& self, std::optional<ScalarType> dtype) {
  return st::sum(self, std::optional<IntArrayRef>(), false, dtype);
}
Tensor sum_out(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
               std::optional<ScalarType> dtype, const Tensor& out) {
  // With dims, the out= decides the dtype unless one is given; then the
  // two must agree (PyTorch's rule for these structured out= overloads).
  const ScalarType dt = dtype.value_or(out.dtype());
  check_out_dtype_exact(out, dt, "sum");
  return reduce_into_output(sum_like("sum", self, dim, keepdim, dt, false, &out), out, "sum");
}

Tensor sum_out(const Tensor& self, std::optional<ScalarType> dtype, const Tensor& out) {
  // Without dims, the dtype comes from self (integers sum to Long), and the
  // out= must have it.
  const ScalarType dt = integral_to_long(self, dtype);
  check_out_dtype_exact(out, dt, "sum");
  return st::sum_outf(self, std::nullopt, false, dt, out);
}

// ---- mean --------------------------------------------------------------------------------
namespace {

// mean into a new tensor, or into out when make_result can.
Tensor mean_into(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                 std::optional<ScalarType> dtype, const Tensor* out) {
  const ScalarType dt = dtype.value_or(self.dtype());
  ST_CHECK(
      torch::headeronly::isFloatingType(dt) || torch::headeronly::isComplexType(dt),
      "mean(): could not infer output dtype. ",
      dtype.has_value() ? "Optional dtype" : "Input dtype",
      " must be either a floating point or complex dtype. Got: ", torch::headeronly::toString(dt));
  const Tensor input = to_dtype(self, dt);
  ReduceGeometry g = make_reduce_geometry(input, dim, keepdim, "mean");
  Tensor result = make_result(g, dt, self, out);
  dispatch_dtype<kAllFloat | kComplexTypes>(dt, "mean", [&](auto tag) {
    using T = typename decltype(tag)::type;
    reduce_loop<T>(
        g, MeanOps<T>{static_cast<T*>(result.data_ptr()), static_cast<double>(g.reduce_size)});
  });
  return result;
}

}  // namespace

Tensor mean(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
            std::optional<ScalarType> dtype) {
  return mean_into(self, dim, keepdim, dtype, nullptr);
}
Tensor mean(const Tensor& self, std::optional<ScalarType> dtype) {
  return st::mean(self, std::optional<IntArrayRef>(), false, dtype);
}
Tensor mean_out(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
                std::optional<ScalarType> dtype, const Tensor& out) {
  const ScalarType dt = dtype.value_or(out.dtype());
  check_out_dtype_exact(out, dt, "mean");
  return reduce_into_output(mean_into(self, dim, keepdim, dt, &out), out, "mean");
}

// ---- prod --------------------------------------------------------------------------------
Tensor prod(const Tensor& self, std::optional<ScalarType> dtype) {
  return sum_like("prod", self, std::nullopt, false, integral_to_long(self, dtype), true);
}
Tensor prod(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  return sum_like("prod", self, IntArrayRef(&dim, 1), keepdim, integral_to_long(self, dtype), true);
}
Tensor prod_out(const Tensor& self, std::optional<ScalarType> dtype, const Tensor& out) {
  const ScalarType dt = integral_to_long(self, dtype);
  check_out_dtype_exact(out, dt, "prod");
  return reduce_into_output(sum_like("prod", self, std::nullopt, false, dt, true, &out), out,
                            "prod");
}
Tensor prod_out(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype,
                const Tensor& out) {
  const ScalarType dt = dtype.value_or(out.dtype());
  check_out_dtype_exact(out, dt, "prod");
  return reduce_into_output(sum_like("prod", self, IntArrayRef(&dim, 1), keepdim, dt, true, &out),
                            out, "prod");
}

// ---- amax / amin ---------------------------------------------------------------------------
Tensor amax(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return extreme("amax", self, dim, keepdim, true);
}
Tensor amin(const Tensor& self, IntArrayRef dim, bool keepdim) {
  return extreme("amin", self, dim, keepdim, false);
}
void check_same_dtype_out(const Tensor& self, const Tensor& out) {
  ST_CHECK(out.dtype() == self.dtype(), "Expected the dtype for input and out to match, but got ",
           torch::headeronly::toString(self.dtype()), " for input's dtype and ",
           torch::headeronly::toString(out.dtype()), " for out's dtype.");
}
Tensor amax_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  check_same_dtype_out(self, out);
  return reduce_into_output(native::amax(self, dim, keepdim), out, "amax");
}
Tensor amin_out(const Tensor& self, IntArrayRef dim, bool keepdim, const Tensor& out) {
  check_same_dtype_out(self, out);
  return reduce_into_output(native::amin(self, dim, keepdim), out, "amin");
}

// ---- max / min ----------------------------------------------------------------------------
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim) {
  ST_CHECK(!self.is_complex(), "max(): does not support complex input");
  return arg_extreme("max", self, dim, keepdim, true, true);
}
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim) {
  ST_CHECK(!self.is_complex(), "min(): does not support complex input");
  return arg_extreme("min", self, dim, keepdim, false, true);
}
std::tuple<Tensor, Tensor> max_out(const Tensor& self, int64_t dim, bool keepdim, const Tensor& max,
                                   const Tensor& max_values) {
  check_out_dtype_exact(max, self.dtype(), "max");
  check_out_dtype_exact(max_values, ScalarType::Long, "max");
  auto r = native::max(self, dim, keepdim);
  reduce_into_output(std::get<0>(r), max, "max");
  reduce_into_output(std::get<1>(r), max_values, "max");
  return {max, max_values};
}
std::tuple<Tensor, Tensor> min_out(const Tensor& self, int64_t dim, bool keepdim, const Tensor& min,
                                   const Tensor& min_indices) {
  check_out_dtype_exact(min, self.dtype(), "min");
  check_out_dtype_exact(min_indices, ScalarType::Long, "min");
  auto r = native::min(self, dim, keepdim);
  reduce_into_output(std::get<0>(r), min, "min");
  reduce_into_output(std::get<1>(r), min_indices, "min");
  return {min, min_indices};
}
Tensor max(const Tensor& self) {
  ST_CHECK(self.numel() > 0,
           "max(): Expected reduction dim to be specified for input.numel() == "
           "0. Specify the reduction dim with the 'dim' argument.");
  ST_CHECK(!self.is_complex(), "max(): does not support complex input");
  return extreme("max", self, {}, false, true);
}
Tensor min(const Tensor& self) {
  ST_CHECK(self.numel() > 0,
           "min(): Expected reduction dim to be specified for input.numel() == "
           "0. Specify the reduction dim with the 'dim' argument.");
  ST_CHECK(!self.is_complex(), "min(): does not support complex input");
  return extreme("min", self, {}, false, false);
}
// max()/min() into an out= of an empty tensor give the reduction's
// identity (-inf / inf, an integer type's lowest / highest), as PyTorch's
// out= overloads do; the functional forms refuse it.
Tensor max_out(const Tensor& self, const Tensor& out) {
  if (self.numel() == 0) return reduce_into_output(extreme_identity(self, true), out, "max");
  return reduce_into_output(native::max(self), out, "max");
}
Tensor min_out(const Tensor& self, const Tensor& out) {
  if (self.numel() == 0) return reduce_into_output(extreme_identity(self, false), out, "min");
  return reduce_into_output(native::min(self), out, "min");
}

// ---- argmax / argmin ----------------------------------------------------------------------
Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_impl("argmax", self, dim, keepdim, true);
}
Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_impl("argmin", self, dim, keepdim, false);
}
Tensor argmax_out(const Tensor& self, std::optional<int64_t> dim, bool keepdim, const Tensor& out) {
  check_out_dtype_exact(out, ScalarType::Long, "argmax");
  return reduce_into_output(native::argmax(self, dim, keepdim), out, "argmax");
}
Tensor argmin_out(const Tensor& self, std::optional<int64_t> dim, bool keepdim, const Tensor& out) {
  check_out_dtype_exact(out, ScalarType::Long, "argmin");
  return reduce_into_output(native::argmin(self, dim, keepdim), out, "argmin");
}

// ---- all / any ------------------------------------------------------------------------------
#define ST_BOOL_REDUCE_FAMILY(NAME, IS_ALL)                                             \
  Tensor NAME(const Tensor& self) {                                                     \
    return bool_reduce(#NAME, self, std::nullopt, false, IS_ALL);                       \
  }                                                                                     \
  Tensor NAME(const Tensor& self, int64_t dim, bool keepdim) {                          \
    return bool_reduce(#NAME, self, IntArrayRef(&dim, 1), keepdim, IS_ALL);             \
  }                                                                                     \
  Tensor NAME(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim) {       \
    return bool_reduce(#NAME, self, dim, keepdim, IS_ALL);                              \
  }                                                                                     \
  Tensor NAME##_out(const Tensor& self, int64_t dim, bool keepdim, const Tensor& out) { \
    return reduce_into_output(native::NAME(self, dim, keepdim), out, #NAME);            \
  }                                                                                     \
  Tensor NAME##_out(const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,   \
                    const Tensor& out) {                                                \
    return reduce_into_output(native::NAME(self, dim, keepdim), out, #NAME);            \
  }                                                                                     \
  Tensor NAME##_out(const Tensor& self, const Tensor& out) {                            \
    return reduce_into_output(native::NAME(self), out, #NAME);                          \
  }

ST_BOOL_REDUCE_FAMILY(all, true)
ST_BOOL_REDUCE_FAMILY(any, false)
#undef ST_BOOL_REDUCE_FAMILY

// ---- cumsum -----------------------------------------------------------------------------------
namespace {

// Floating lines summed side by side: each line's running sum is a chain
// of dependent adds, so one line at a time runs at the adder's latency (4
// cycles per float element, summed in double); four independent chains,
// unrolled so their sums stay in registers, run at the loads' and stores'
// pace instead. Integer adds take a cycle, and four lines' streams ran
// slower than one: cumsum_ and cumsum.out of 1024 x 1024 along the last
// dim in the conformance driver, one line against four, interleaved:
// float32 0.88-1.66 -> 0.66-1.46 ms; int64 (cumsum, cumsum_, cumsum.out)
// 10% less time in total with one. A contiguous int64 line is one vector
// scan (scan_add_i64, a vector of running sums per add).
template <typename A>
constexpr int64_t kCumLines = std::is_integral_v<A> ? 1 : 4;

// result[..., j, ...] = sum of input[..., 0..j, ...] along d, accumulated
// in acc_t (double for float, as PyTorch's CPU kernel), each line in
// order of j (the bits do not depend on how lines are grouped). result
// and input have self's shape and dtype dt; they may be the same tensor
// (each element is read before it is written).
void cumsum_into(const Tensor& result, const Tensor& input, int64_t d, ScalarType dt) {
  if (input.numel() == 0) return;
  const bool scalar = input.dim() == 0;
  const int64_t n = scalar ? 1 : input.size(d);
  if (n == 1) {
    // Lines of one element: each is 0 + x (which turns -0.0 into 0.0, as a
    // line's first running sum does), one elementwise op where the walk
    // took a line's set-up per element (over dim 0 of [1, 1024, 1024]
    // floats 2.8 ms, PyTorch 1.8).
    st::add_out(result, input, Scalar(0));
    return;
  }
  const int64_t outer = input.numel() / n;
  const RowOffsets in_lines(input, d), out_lines(result, d);
  const int64_t in_step = scalar ? 0 : input.stride(d);
  const int64_t out_step = scalar ? 0 : result.stride(d);
  dispatch_dtype<kSumTypes>(dt, "cumsum", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using A = acc_t<T>;
    const T* in = static_cast<const T*>(input.const_data_ptr());
    T* out = static_cast<T*>(result.data_ptr());
    // Lines [line, line + kLines), each from its own start.
    const auto sum_lines = [&](auto lines, int64_t line) {
      constexpr int64_t kLines = decltype(lines)::value;
      const T* src[kLines];
      T* dst[kLines];
      A acc[kLines];
      for (int64_t g = 0; g < kLines; ++g) {
        src[g] = in + in_lines.offset(line + g);
        dst[g] = out + out_lines.offset(line + g);
        acc[g] = A(0);
      }
      // Locals, not the captured variables: an int64 result's stores
      // could alias those, which made the loop reload them every element.
      const int64_t len = n, is = in_step, os = out_step;
      if constexpr (std::is_same_v<T, int64_t> && kLines == 1) {
        if (is == 1 && os == 1) {
          cpu::vec_reduce_kernels().scan_add_i64(dst[0], src[0], len, 0);
          return;
        }
      }
      for (int64_t j = 0; j < len; ++j) {
        const int64_t ji = j * is, jo = j * os;
#pragma GCC unroll 4
        for (int64_t g = 0; g < kLines; ++g) {
          acc[g] += convert<A>(src[g][ji]);
          dst[g][jo] = convert<T>(acc[g]);
        }
      }
    };
    parallel_for(0, outer, std::max<int64_t>(kCumLines<A>, 16384 / n), [&](int64_t b, int64_t e) {
      int64_t line = b;
      for (; line + kCumLines<A> <= e; line += kCumLines<A>) {
        sum_lines(std::integral_constant<int64_t, kCumLines<A>>{}, line);
      }
      for (; line < e; ++line) sum_lines(std::integral_constant<int64_t, 1>{}, line);
    });
  });
}

// The accumulation dtype of cumsum(self, dtype): Bool sums to Long; a Bool
// accumulation (cumsum_ of a bool tensor, or dtype=Bool) is refused, as
// PyTorch's kernel has no Bool.
ScalarType cumsum_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  const ScalarType dt = integral_to_long(self, dtype);
  if (dt == ScalarType::Bool) throw_dtype_not_implemented("cumsum_out_cpu", dt);
  return dt;
}

}  // namespace

Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const ScalarType dt = cumsum_dtype(self, dtype);
  const Tensor input = to_dtype(self, dt);
  Tensor result = st::detail::empty_generic(self.sizes(), dt, self.device());
  cumsum_into(result, input, d, dt);
  return result;
}
void check_cumsum_inplace_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype.has_value()) {
    ST_CHECK(*dtype == self.dtype(),
             "provided dtype must match the dtype of self tensor in cumsum. Got ",
             torch::headeronly::toString(*dtype), " and ",
             torch::headeronly::toString(self.dtype()), ".");
  }
}
Tensor cumsum_(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  check_cumsum_inplace_dtype(self, dtype);
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const ScalarType dt = cumsum_dtype(self, self.dtype());
  // In place when no two elements of self share memory (the lines are
  // then disjoint); otherwise through a temporary, like any write.
  if (dt == self.dtype() && self.device().is_cpu() && !has_internal_overlap(self)) {
    cumsum_into(self, self, d, dt);
    return self;
  }
  Tensor r = native::cumsum(self, dim, self.dtype());
  copy_into(self, r);
  return self;
}
Tensor cumsum_out(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype,
                  const Tensor& out) {
  const ScalarType dt = dtype.value_or(out.dtype());
  check_out_dtype_exact(out, dt, "cumsum");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  // Straight into out when it already has self's shape, lives with self,
  // and shares no memory with it other than being self itself.
  const Tensor input = to_dtype(self, cumsum_dtype(self, dt));
  if (out.sizes() == self.sizes() && out.device() == self.device() && self.device().is_cpu() &&
      !has_internal_overlap(out) && !aliased_in_another_view(input, out)) {
    cumsum_into(out, input, d, dt);
    return out;
  }
  Tensor r = st::detail::empty_generic(self.sizes(), dt, self.device());
  cumsum_into(r, input, d, dt);
  return reduce_into_output(r, out, "cumsum");
}

// ---- var / std ------------------------------------------------------------------------------
Tensor var(const Tensor& self, std::optional<IntArrayRef> dim,
           const std::optional<Scalar>& correction, bool keepdim) {
  return var_std("var", self, dim, correction, keepdim, false);
}
Tensor std(const Tensor& self, std::optional<IntArrayRef> dim,
           const std::optional<Scalar>& correction, bool keepdim) {
  return var_std("std", self, dim, correction, keepdim, true);
}
Tensor var_out(const Tensor& self, std::optional<IntArrayRef> dim,
               const std::optional<Scalar>& correction, bool keepdim, const Tensor& out) {
  return reduce_into_output(native::var(self, dim, correction, keepdim), out, "var");
}
Tensor std_out(const Tensor& self, std::optional<IntArrayRef> dim,
               const std::optional<Scalar>& correction, bool keepdim, const Tensor& out) {
  return reduce_into_output(native::std(self, dim, correction, keepdim), out, "std");
}
Tensor var(const Tensor& self, bool unbiased) {
  return st::var(self, std::nullopt, Scalar(int64_t{unbiased ? 1 : 0}), false);
}
Tensor std(const Tensor& self, bool unbiased) {
  return st::std(self, std::nullopt, Scalar(int64_t{unbiased ? 1 : 0}), false);
}
Tensor var(const Tensor& self, std::optional<IntArrayRef> dim, bool unbiased, bool keepdim) {
  return st::var(self, dim, Scalar(int64_t{unbiased ? 1 : 0}), keepdim);
}
Tensor std(const Tensor& self, std::optional<IntArrayRef> dim, bool unbiased, bool keepdim) {
  return st::std(self, dim, Scalar(int64_t{unbiased ? 1 : 0}), keepdim);
}
Tensor var_out(const Tensor& self, std::optional<IntArrayRef> dim, bool unbiased, bool keepdim,
               const Tensor& out) {
  return st::var_outf(self, dim, Scalar(int64_t{unbiased ? 1 : 0}), keepdim, out);
}
Tensor std_out(const Tensor& self, std::optional<IntArrayRef> dim, bool unbiased, bool keepdim,
               const Tensor& out) {
  return st::std_outf(self, dim, Scalar(int64_t{unbiased ? 1 : 0}), keepdim, out);
}

// ---- norm / linalg_vector_norm -----------------------------------------------------------------
Tensor linalg_vector_norm(const Tensor& self, const Scalar& ord, std::optional<IntArrayRef> dim,
                          bool keepdim, std::optional<ScalarType> dtype) {
  return vector_norm_impl(self, ord, dim, keepdim, dtype);
}
Tensor linalg_vector_norm_out(const Tensor& self, const Scalar& ord, std::optional<IntArrayRef> dim,
                              bool keepdim, std::optional<ScalarType> dtype, const Tensor& out) {
  return reduce_into_output(vector_norm_impl(self, ord, dim, keepdim, dtype), out,
                            "linalg.vector_norm");
}
Tensor norm(const Tensor& self, const std::optional<Scalar>& p, ScalarType dtype) {
  return st::linalg_vector_norm(self, p.value_or(2), std::nullopt, false, dtype);
}
Tensor norm(const Tensor& self, const Scalar& p) {
  return st::linalg_vector_norm(self, p, std::nullopt, false, std::nullopt);
}
Tensor norm(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim,
            ScalarType dtype) {
  return st::linalg_vector_norm(self, p.value_or(2), dim, keepdim, dtype);
}
Tensor norm(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim) {
  return st::linalg_vector_norm(self, p.value_or(2), dim, keepdim, std::nullopt);
}
Tensor norm_out(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim,
                ScalarType dtype, const Tensor& out) {
  return st::linalg_vector_norm_outf(self, p.value_or(2), dim, keepdim, dtype, out);
}
Tensor norm_out(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim,
                const Tensor& out) {
  return st::linalg_vector_norm_outf(self, p.value_or(2), dim, keepdim, std::nullopt, out);
}

}  // namespace st::native
