// The reduction engine. make_reduce_geometry() turns (input, dims, keepdim)
// into "for each output element, walk these reduced elements"; reduce_loop()
// runs an accumulator over it:
//
//   struct SumOps {
//     double init() const { return 0; }
//     void step(double& acc, float v, int64_t k) const { acc += v; }
//     void combine(double& acc, const double& other) const { acc += other; }
//     void write(int64_t out_index, const double& acc) const { out[out_index] = acc; }
//   };
//
// k is the element's position in the reduced block (row-major over the
// reduced dims in their original order: the index along the dim for a
// one-dim reduction). Outputs are numbered row-major over the kept dims, so
// write() targets a contiguous result; reduce_into_output() copies that into
// a user's out= tensor (resizing it) when there is one.
//
// Work is split over the thread pool by output elements, or, for few
// outputs with a long reduction, by fixed blocks of the reduced range that
// are combined in order (so results do not depend on the thread count).
//
// Vectorized loops. Ops that declare `static constexpr bool kVec = true`
// also provide
//
//     // fold p[0..n), the elements k..k+n-1 of the reduced block, into acc
//     bool run(Acc& acc, const In* p, int64_t n, int64_t k) const;
//
// and may provide either or both of
//
//     // accs[j] <- step(accs[j], p[r * stride + j], k + r) for j < n, for
//     // r = 0 .. rows - 1 in order
//     bool rows(Acc* accs, const In* p, int64_t n, int64_t rows, int64_t stride,
//               int64_t k) const;
//     // accs[r] <- the fold of p[r][j * stride], j < n, for kRunGroup
//     // outputs of a one-dim reduction at once (accs come as init())
//     bool runs(Acc (&accs)[kRunGroup], const In* const (&p)[kRunGroup], int64_t n,
//               int64_t stride) const;
//
// which return false when they have no vector loop for the case at hand
// (the engine then steps element by element, as it does where an Ops has
// no such function). run() gets every contiguous
// stretch of a reduced range in increasing k (inner-dim reductions;
// strided ones are first gathered into a small buffer), or runs() the
// runs of kRunGroup outputs at once when one dim is reduced (for runs too
// short for run()'s vector loop to pay); rows() gets the
// reduced rows, a whole innermost reduced dim at a time, when the
// reduction is over outer dims and the outputs are contiguous in the input
// (sum(dim=0) of a row-major matrix; strided rows are gathered first), so
// it vectorizes across outputs and keeps them in registers over the rows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include <st/core/array_ref.h>
#include <st/core/export.h>
#include <st/core/parallel.h>
#include <st/core/tensor.h>
#include <st/native/row_offsets.h>

namespace st::native {

struct ST_API ReduceGeometry {
  Tensor input;
  std::vector<bool> mask;                         // per input dim: reduced?
  std::vector<int64_t> kept_sizes, kept_strides;  // coalesced, outer first
  std::vector<int64_t> red_sizes, red_strides;    // coalesced, outer first
  int64_t num_outputs = 1;
  int64_t reduce_size = 1;
  std::vector<int64_t> out_shape;  // honours keepdim
};

// dims: nullopt or empty = every dim (PyTorch's sum(dim=[])). Throws for
// out-of-range or repeated dims ("dim 1 appears multiple times in the list
// of dims").
ST_API std::vector<bool> make_dim_mask(std::optional<IntArrayRef> dims, int64_t ndim,
                                       const char* op);
ST_API ReduceGeometry make_reduce_geometry(const Tensor& input, std::optional<IntArrayRef> dims,
                                           bool keepdim, const char* op);
// Throws "<op>(): Expected reduction dim 0 to have non-zero size." when a
// reduced dim is empty and the output is not (max, amax, argmax, ...).
ST_API void check_nonempty_reduction(const ReduceGeometry& g, const char* op);

// Throws "<op>(): Expected out tensor to have dtype Long, but got Float
// instead" unless out has exactly `want` (PyTorch's structured out= rule).
ST_API void check_out_dtype_exact(const Tensor& out, ScalarType want, const char* op);

// The result of a reduction: `computed` (contiguous, g.out_shape) is
// returned as is, or copied into `out` after resizing it (nothing to do
// when `computed` is `out` itself, already resized).
ST_API Tensor reduce_into_output(const Tensor& computed, const std::optional<Tensor>& out,
                                 const char* op);

// Outputs per runs() call (see above).
inline constexpr int64_t kRunGroup = 32;

namespace detail {

template <typename Ops, typename = void>
struct reduce_vec : std::false_type {};
template <typename Ops>
struct reduce_vec<Ops, std::enable_if_t<Ops::kVec>> : std::true_type {};
// Whether a kVec Ops has rows() / runs() (see above).
template <typename Ops, typename = void>
struct reduce_rows : std::false_type {};
template <typename Ops>
struct reduce_rows<Ops, std::void_t<decltype(&Ops::rows)>> : reduce_vec<Ops> {};
template <typename Ops, typename = void>
struct reduce_runs : std::false_type {};
template <typename Ops>
struct reduce_runs<Ops, std::void_t<decltype(&Ops::runs)>> : reduce_vec<Ops> {};
// An Ops whose rows() groups rows declares `static constexpr int64_t
// kRowsGroup` (the float sums: 16 rows summed in float, then in double).
// The engine then starts each rows() call at a multiple of it into the
// innermost reduced dim (only the dim's last call may be shorter), so the
// groups, counted from a call's first row, do not depend on how the rows
// are split into calls (which depends on the thread count). 1 otherwise.
template <typename Ops, typename = void>
struct rows_group : std::integral_constant<int64_t, 1> {};
template <typename Ops>
struct rows_group<Ops, std::void_t<decltype(Ops::kRowsGroup)>>
    : std::integral_constant<int64_t, Ops::kRowsGroup> {};

// Bytes of a strided stretch gathered per run() call (8 KiB: 2048 floats,
// well inside L1). Each run() call ends in a horizontal reduction of its
// vector accumulators (tens of cycles), so a small chunk would make that,
// not the gather or the memory, the cost of a strided reduction.
constexpr size_t kGatherBytes = 8192;
// Bytes of input per rows() call when reducing over outer dims.
constexpr int64_t kRowChunkBytes = 16384;
// Outputs folded side by side over outer dims at most (their accumulators
// 8-16 KiB, in L1 with the rows' chunk). Over dim 1 of [1, 64, 16384]
// floats (one process, Zen 4) all 16384 at once took prod 189 us, amax
// 126, sum 111; 1024 at a time 76, 80, 66 (4096: 153, 116, 78).
constexpr int64_t kSideBySide = 1024;
template <typename In>
constexpr int64_t gather_chunk() {
  return static_cast<int64_t>(std::max<size_t>(1, kGatherBytes / sizeof(In)));
}

// The unsigned integer of an item of N bytes: 1, 2, 4 or 8 (void for
// other sizes). Typed copies and selects of items whatever their dtype.
template <size_t N>
using unsigned_of_size_t = std::conditional_t<
    N == 1, uint8_t,
    std::conditional_t<
        N == 2, uint16_t,
        std::conditional_t<N == 4, uint32_t, std::conditional_t<N == 8, uint64_t, void>>>>;

// out[j] = src[j * stride] for j < n (stride in items): items of 1, 2, 4
// or 8 bytes by typed loops (the common stride 2 of 4- and 8-byte items by
// the per-ISA table's vector loop), other sizes item by item.
ST_API void gather_strided(void* out, const void* src, int64_t n, int64_t stride, size_t itemsize);
// Its inverse, the write-back of a block into a strided output:
// dst[j * stride] = src[j] for j < n (stride in items). Writes only those
// items (the gaps may belong to another view, or another thread); items of
// 1, 2, 4 or 8 bytes by typed loops, stride 2 fixed at compile time.
ST_API void scatter_strided(void* dst, const void* src, int64_t n, int64_t stride, size_t itemsize);
// Items per block of a row whose strided output (stride in items) is
// written back by scatter_strided: the whole buffer (kStridedBlock) when
// the write-back goes by vector stores, else fewer (kStridedOutBlock).
// Note [Strided operands by blocks] in loops.h.
ST_API int64_t strided_out_block(int64_t stride, size_t itemsize);

template <typename In, typename Ops, typename Acc>
void step_run(const In* p, int64_t stride, int64_t n, int64_t k, Acc& acc, const Ops& ops) {
  if (stride == 1) {
    if constexpr (reduce_vec<Ops>::value) {
      if (ops.run(acc, p, n, k)) return;
    }
    for (int64_t j = 0; j < n; ++j) ops.step(acc, p[j], k + j);
    return;
  }
  if constexpr (reduce_vec<Ops>::value) {
    constexpr int64_t kChunk = gather_chunk<In>();
    alignas(64) In buf[kChunk];
    for (int64_t j0 = 0; j0 < n; j0 += kChunk) {
      const int64_t m = std::min(kChunk, n - j0);
      const In* q = p + j0 * stride;
      if constexpr (std::is_trivially_copyable_v<In> && (sizeof(In) == 4 || sizeof(In) == 8)) {
        gather_strided(buf, q, m, stride, sizeof(In));
      } else {
        for (int64_t j = 0; j < m; ++j) buf[j] = q[j * stride];
      }
      if (!ops.run(acc, buf, m, k + j0)) {
        for (int64_t j = 0; j < m; ++j) ops.step(acc, buf[j], k + j0 + j);
      }
    }
    return;
  }
  for (int64_t j = 0; j < n; ++j) ops.step(acc, p[j * stride], k + j);
}

// accs[j] <- step(accs[j], p[r * row_stride + j * stride], k + r) for j < n
// and r < rows in order: by rows() on gathered chunks when the Ops has it,
// else element by element. A chunk is as many whole rows as fit (whole
// groups of rows_group<Ops>), or, for rows too long for that, a group of
// rows by as many columns as fit (one row at a time for an Ops without
// groups: each row read as one stretch).
template <typename In, typename Ops, typename Acc>
void step_strided_rows(Acc* accs, const In* p, int64_t stride, int64_t n, int64_t rows,
                       int64_t row_stride, int64_t k, const Ops& ops) {
  if constexpr (reduce_rows<Ops>::value && std::is_trivially_copyable_v<In> &&
                (sizeof(In) == 4 || sizeof(In) == 8)) {
    constexpr int64_t kChunk = gather_chunk<In>();
    constexpr int64_t kGroup = rows_group<Ops>::value;
    static_assert(kChunk % kGroup == 0, "whole groups of rows per chunk");
    alignas(64) In buf[kChunk];
    const int64_t width = std::min(n, kChunk / kGroup);
    const int64_t per = kChunk / width / kGroup * kGroup;  // rows per chunk
    for (int64_t r0 = 0; r0 < rows; r0 += per) {
      const int64_t nr = std::min(per, rows - r0);
      for (int64_t j0 = 0; j0 < n; j0 += width) {
        const int64_t m = std::min(width, n - j0);
        for (int64_t r = 0; r < nr; ++r) {
          gather_strided(buf + r * m, p + (r0 + r) * row_stride + j0 * stride, m, stride,
                         sizeof(In));
        }
        if (!ops.rows(accs + j0, buf, m, nr, m, k + r0)) {
          for (int64_t r = 0; r < nr; ++r) {
            for (int64_t j = 0; j < m; ++j) ops.step(accs[j0 + j], buf[r * m + j], k + r0 + r);
          }
        }
      }
    }
    return;
  }
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < n; ++j) ops.step(accs[j], p[r * row_stride + j * stride], k + r);
  }
}

template <typename In, typename Ops, typename Acc>
void reduce_range(const ReduceGeometry& g, const In* data, int64_t base, int64_t k0, int64_t k1,
                  Acc& acc, const Ops& ops, std::vector<int64_t>& idx) {
  // (nd >= 1: reduce_loop folds the one element of a size-1 reduction itself)
  const size_t nd = g.red_sizes.size();
  if (k0 >= k1) return;
  if (nd == 1) {
    // One run, straight to step_run: the odometer below costs a division
    // and a vector fill per call (a 1024 x 1024 float sum over its last
    // dim, one call per output, took 61 us with them on the Zen 4, 53-56
    // without).
    step_run(data + base + k0 * g.red_strides[0], g.red_strides[0], k1 - k0, k0, acc, ops);
    return;
  }
  idx.assign(nd, 0);
  int64_t rem = k0;
  for (size_t d = nd; d-- > 0;) {
    idx[d] = rem % g.red_sizes[d];
    rem /= g.red_sizes[d];
  }
  const int64_t inner_size = g.red_sizes[nd - 1];
  const int64_t inner_stride = g.red_strides[nd - 1];
  int64_t k = k0;
  while (k < k1) {
    int64_t off = base;
    for (size_t d = 0; d < nd; ++d) off += idx[d] * g.red_strides[d];
    const int64_t n = std::min(inner_size - idx[nd - 1], k1 - k);
    step_run(data + off, inner_stride, n, k, acc, ops);
    k += n;
    idx[nd - 1] += n;
    for (size_t d = nd - 1; d > 0 && idx[d] == g.red_sizes[d]; --d) {
      idx[d] = 0;
      ++idx[d - 1];
    }
  }
}

}  // namespace detail

template <typename In, typename Ops>
void reduce_loop(const ReduceGeometry& g, const Ops& ops) {
  using Acc = decltype(ops.init());
  const In* data = static_cast<const In*>(g.input.const_data_ptr());
  const int64_t nout = g.num_outputs;
  const int64_t nred = g.reduce_size;
  if (nout == 0) return;
  if (nred == 0) {
    // Every output is the empty fold. No offsets: an empty tensor's other
    // strides are unbounded, and so would be the outputs' offsets.
    for (int64_t o = 0; o < nout; ++o) ops.write(o, ops.init());
    return;
  }
  if (nred == 1) {
    // Every reduced dim has size 1: each output folds one element. The
    // outputs a run at a time (amax(dim=0) of [1, 1024, 1024] floats took
    // 4.7 ms one output and one offset computation at a time).
    const int64_t run = g.kept_sizes.empty() ? 1 : g.kept_sizes.back();
    const int64_t step = g.kept_sizes.empty() ? 0 : g.kept_strides.back();
    parallel_for(0, nout, 32768, [&](int64_t o0, int64_t o1) {
      // (a copy: its pointers in registers, where a byte store through the
      // caller's could change them for all the compiler knows)
      const Ops local = ops;
      for (int64_t o = o0; o < o1;) {
        const int64_t end = std::min(o1, (o / run + 1) * run);
        const In* p = data + row_major_offset(g.kept_sizes, g.kept_strides, o);
        const auto fold_one = [&](int64_t j, const In& x) {
          Acc acc = local.init();
          local.step(acc, x, 0);
          local.write(o + j, acc);
        };
        // (contiguous on its own: a loop the compiler may vectorize)
        if (step == 1) {
          for (int64_t j = 0; j < end - o; ++j) fold_one(j, p[j]);
        } else {
          for (int64_t j = 0; j < end - o; ++j) fold_one(j, p[j * step]);
        }
        o = end;
      }
    });
    return;
  }
  constexpr int64_t kBlock = 16384;
  // The choice depends on the shape only (not on the thread count), so a
  // result is the same on every machine.
  if (nred >= 4 * kBlock && nout < 16) {
    // Few outputs, long reductions: blocks of the reduced range.
    const int64_t nblocks = (nred + kBlock - 1) / kBlock;
    std::vector<Acc> partial(static_cast<size_t>(nblocks));
    for (int64_t o = 0; o < nout; ++o) {
      const int64_t base = row_major_offset(g.kept_sizes, g.kept_strides, o);
      parallel_for(0, nblocks, 1, [&](int64_t b0, int64_t b1) {
        std::vector<int64_t> idx;
        for (int64_t b = b0; b < b1; ++b) {
          Acc acc = ops.init();
          detail::reduce_range(g, data, base, b * kBlock, std::min(nred, (b + 1) * kBlock), acc,
                               ops, idx);
          partial[static_cast<size_t>(b)] = acc;
        }
      });
      Acc acc = partial[0];
      for (int64_t b = 1; b < nblocks; ++b) ops.combine(acc, partial[static_cast<size_t>(b)]);
      ops.write(o, acc);
    }
    return;
  }
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(nred, 1));
  // The innermost kept dim's stride, when it is inside the reduced
  // elements' innermost step (1, or a strided view's 2 against a row's
  // 2 * width): the outputs of a run are then nearer in memory than the
  // elements each one reduces.
  const int64_t ks = g.kept_sizes.empty() ? 0 : g.kept_strides.back();
  const int64_t rs = g.red_strides.empty() ? 1 : g.red_strides.back();
  if (rs != 1 && (ks == 1 || (ks > 1 && ks < rs))) {
    // Reducing outer dims (sum(dim=0) of a row-major matrix, or of every
    // other column of one): walk the reduced elements once per run of
    // adjacent outputs, updating the run's accumulators side by side (a
    // strided run gathered into a small buffer first), instead of one
    // strided walk per output. Memory is then read row by row, and a
    // strided input gives the same values as a contiguous one.
    const int64_t run = g.kept_sizes.back();
    const size_t nd = g.red_sizes.size();
    parallel_for(0, nout, grain, [&](int64_t o0, int64_t o1) {
      // (not std::vector: std::vector<bool> has no real references)
      const int64_t most = std::min({o1 - o0, run, detail::kSideBySide});
      std::unique_ptr<Acc[]> accs(new Acc[static_cast<size_t>(most)]);
      std::vector<int64_t> idx(nd);
      for (int64_t o = o0; o < o1;) {
        const int64_t end = std::min({o1, (o / run + 1) * run, o + detail::kSideBySide});
        const int64_t n = end - o;
        const int64_t base = row_major_offset(g.kept_sizes, g.kept_strides, o);
        std::fill(accs.get(), accs.get() + n, ops.init());
        std::fill(idx.begin(), idx.end(), 0);
        int64_t off = 0;
        // The innermost reduced dim a call at a time; the outer reduced
        // dims (row-major) between calls.
        const int64_t inner = g.red_sizes[nd - 1], inner_stride = g.red_strides[nd - 1];
        for (int64_t k = 0; k < nred; k += inner) {
          const In* p = data + base + off;
          if (ks == 1) {
            bool done = false;
            if constexpr (detail::reduce_rows<Ops>::value) {
              // Rows by chunks of about kRowChunkBytes: a chunk is read
              // as a few sequential streams and stays in L1 while the
              // rows() call walks it one register block of outputs at a
              // time (whole long rows per call would make it a walk down
              // columns, one cache line per page).
              constexpr int64_t kGroup = detail::rows_group<Ops>::value;
              const int64_t per =
                  kGroup *
                  std::max<int64_t>(
                      1, detail::kRowChunkBytes / (kGroup * n * static_cast<int64_t>(sizeof(In))));
              done = true;
              for (int64_t r0 = 0; r0 < inner && done; r0 += per) {
                done = ops.rows(accs.get(), p + r0 * inner_stride, n, std::min(per, inner - r0),
                                inner_stride, k + r0);
              }
            }
            if (!done) {
              for (int64_t r = 0; r < inner; ++r) {
                for (int64_t j = 0; j < n; ++j) ops.step(accs[j], p[r * inner_stride + j], k + r);
              }
            }
          } else {
            detail::step_strided_rows(accs.get(), p, ks, n, inner, inner_stride, k, ops);
          }
          for (size_t d = nd - 1; d-- > 0;) {
            off += g.red_strides[d];
            if (++idx[d] < g.red_sizes[d]) break;
            off -= g.red_strides[d] * g.red_sizes[d];
            idx[d] = 0;
          }
        }
        for (int64_t j = 0; j < n; ++j) ops.write(o + j, accs[j]);
        o = end;
      }
    });
    return;
  }
  parallel_for(0, nout, grain, [&](int64_t o0, int64_t o1) {
    std::vector<int64_t> idx;
    int64_t o = o0;
    if constexpr (detail::reduce_runs<Ops>::value) {
      // One reduced dim: each output reduces one run; short runs go
      // kRunGroup outputs at a time.
      if (g.red_sizes.size() == 1) {
        // One kept dim (the rows of a matrix): a multiply per row by a
        // stride read once, where row_major_offset reads the geometry's
        // vectors and tests their size per call.
        const bool one_kept = g.kept_sizes.size() == 1;
        const int64_t row_stride = one_kept ? g.kept_strides[0] : 0;
        for (; o + kRunGroup <= o1; o += kRunGroup) {
          Acc accs[kRunGroup];
          const In* p[kRunGroup];
          for (int64_t r = 0; r < kRunGroup; ++r) {
            accs[r] = ops.init();
            p[r] = data + (one_kept ? (o + r) * row_stride
                                    : row_major_offset(g.kept_sizes, g.kept_strides, o + r));
          }
          if (!ops.runs(accs, p, nred, g.red_strides[0])) break;
          for (int64_t r = 0; r < kRunGroup; ++r) ops.write(o + r, accs[r]);
        }
      }
    }
    for (; o < o1; ++o) {
      Acc acc = ops.init();
      detail::reduce_range(g, data, row_major_offset(g.kept_sizes, g.kept_strides, o), 0, nred, acc,
                           ops, idx);
      ops.write(o, acc);
    }
  });
}

}  // namespace st::native
