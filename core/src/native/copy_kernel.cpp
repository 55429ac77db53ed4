// Same-dtype strided copy. The loop nest is reduced first: size-1 dims are
// dropped and adjacent dims that are contiguous with each other in both
// tensors are merged, so most copies run as one or two long loops. Elements
// move by size (1, 2, 4, 8, 16 bytes or a generic memcpy), so one kernel
// serves every dtype. A transpose runs by tiles (Note [Transposing copies
// by tiles]).
#include <st/native/copy.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include <st/core/error.h>
#include <st/core/parallel.h>
#include <st/core/small_vector.h>
#include <st/device/device_runtime.h>
#include <st/native/reduction.h>

#include "cpu/vec_kernels.h"
#include "strided_block.h"

namespace st::native {
namespace {

struct Geometry {
  DimVector sizes;        // innermost last
  DimVector dst_strides;  // in bytes
  DimVector src_strides;  // in bytes
};

int64_t magnitude(int64_t stride) { return stride < 0 ? -stride : stride; }

// Drops size-1 dims and merges each dim into the one outside it when that
// one steps over it exactly in both tensors (negative strides merge too).
// Strides are in bytes. The dims are first put in the destination's
// memory order (the source's breaking ties): the copy writes each element
// once whatever the order, and walking a transposed pair (both strides
// (1, n)) in index order stepped a row per element, 14 ms for a
// 1024 x 1024 float clone that is one 4 MiB run in memory order.
Geometry reduce(const int64_t* sizes, const int64_t* dst_strides, const int64_t* src_strides,
                int64_t n, int64_t itemsize) {
  DimVector order(static_cast<size_t>(n), 0);
  for (int64_t i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i;
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    const int64_t da = magnitude(dst_strides[a]), db = magnitude(dst_strides[b]);
    if (da != db) return da > db;  // outermost first
    return magnitude(src_strides[a]) > magnitude(src_strides[b]);
  });
  Geometry g;
  for (const int64_t i : order) {
    const int64_t size = sizes[i];
    if (size == 1) {
      continue;
    }
    const int64_t ds = dst_strides[i];
    const int64_t ss = src_strides[i];
    if (!g.sizes.empty()) {
      const size_t last = g.sizes.size() - 1;
      // The previous (outer) dim steps over exactly this dim in both.
      if (g.dst_strides[last] == ds * size && g.src_strides[last] == ss * size) {
        g.sizes[last] *= size;
        g.dst_strides[last] = ds;
        g.src_strides[last] = ss;
        continue;
      }
    }
    g.sizes.push_back(size);
    g.dst_strides.push_back(ds);
    g.src_strides.push_back(ss);
  }
  if (g.sizes.empty()) {
    g.sizes.assign(1, 1);
    g.dst_strides.assign(1, itemsize);
    g.src_strides.assign(1, itemsize);
  }
  return g;
}

// dst[i] = src[-i]: a row read backwards (a flipped inner dim). Typed so the
// compiler turns it into vector loads and lane reversals.
template <size_t kBytes>
void reverse_run(char* d, const char* s, int64_t n) {
  // An element's unsigned integer; 16 bytes are two 8-byte words.
  using W = detail::unsigned_of_size_t<kBytes == 16 ? 8 : kBytes>;
  constexpr size_t kWords = kBytes / sizeof(W);
  W* out = reinterpret_cast<W*>(d);
  const W* in = reinterpret_cast<const W*>(s);
  for (int64_t i = 0; i < n; ++i) {
    for (size_t w = 0; w < kWords; ++w) {
      W v;
      std::memcpy(&v, in - i * static_cast<int64_t>(kWords) + static_cast<int64_t>(w), sizeof(W));
      std::memcpy(out + i * static_cast<int64_t>(kWords) + static_cast<int64_t>(w), &v, sizeof(W));
    }
  }
}

// Rows with every other element on one side or both (a sliced view) go
// through the per-ISA stride-2 loops (detail::gather_strided and
// scatter_strided), a stride-2 to stride-2 row by blocks through a stack
// buffer; false for other strides.
template <size_t kBytes>
bool stride2_run(char* d, const char* s, int64_t n, int64_t ds, int64_t ss) {
  constexpr auto k1 = static_cast<int64_t>(kBytes);
  constexpr int64_t kBlock = 256;
  if (ds == k1 && ss == 2 * k1) {
    detail::gather_strided(d, s, n, 2, kBytes);
  } else if (ds == 2 * k1 && ss == k1) {
    detail::scatter_strided(d, s, n, 2, kBytes);
  } else if (ds == 2 * k1 && ss == 2 * k1) {
    alignas(64) unsigned char buf[kBlock * kBytes];
    for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
      const int64_t m = std::min(kBlock, n - i0);
      detail::gather_strided(buf, s + i0 * ss, m, 2, kBytes);
      detail::scatter_strided(d + i0 * ds, buf, m, 2, kBytes);
    }
  } else {
    return false;
  }
  return true;
}

// The per-ISA byte copy (cpu::VecKernels::copy_bytes), looked up once per
// range of rows.
using CopyBytes = void (*)(void* out, const void* in, int64_t bytes);

template <size_t kBytes>
void inner_loop(char* d, const char* s, int64_t n, int64_t ds, int64_t ss, CopyBytes copy) {
  if (ds == static_cast<int64_t>(kBytes) && ss == static_cast<int64_t>(kBytes)) {
    // (a row at a time: the per-ISA copy, not memcpy; see copy_bytes)
    copy(d, s, n * static_cast<int64_t>(kBytes));
    return;
  }
  if (ds == static_cast<int64_t>(kBytes) && ss == -static_cast<int64_t>(kBytes)) {
    reverse_run<kBytes>(d, s, n);
    return;
  }
  if constexpr (kBytes == 4 || kBytes == 8) {
    if (stride2_run<kBytes>(d, s, n, ds, ss)) return;
  }
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(d, s, kBytes);
    d += ds;
    s += ss;
  }
}

void inner_loop_generic(char* d, const char* s, int64_t n, int64_t ds, int64_t ss,
                        size_t itemsize) {
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(d, s, itemsize);
    d += ds;
    s += ss;
  }
}

void run_inner(char* d, const char* s, int64_t n, int64_t ds, int64_t ss, size_t itemsize,
               CopyBytes copy) {
  switch (itemsize) {
    case 1:
      inner_loop<1>(d, s, n, ds, ss, copy);
      break;
    case 2:
      inner_loop<2>(d, s, n, ds, ss, copy);
      break;
    case 4:
      inner_loop<4>(d, s, n, ds, ss, copy);
      break;
    case 8:
      inner_loop<8>(d, s, n, ds, ss, copy);
      break;
    case 16:
      inner_loop<16>(d, s, n, ds, ss, copy);
      break;
    default:
      inner_loop_generic(d, s, n, ds, ss, itemsize);
      break;
  }
}

// Elements per parallel chunk: below this a copy runs on one thread.
constexpr int64_t kCopyGrain = 32768;

bool has_internal_overlap(const Tensor& t) {
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.stride(d) == 0 && t.size(d) > 1) {
      return true;
    }
  }
  return false;
}

// True when both tensors are dense, share a storage and their byte ranges
// intersect without being the same elements (PyTorch's "partial overlap").
bool partially_overlaps(const Tensor& a, const Tensor& b) {
  if (!a.storage().is_alias_of(b.storage()) || !a.is_non_overlapping_and_dense() ||
      !b.is_non_overlapping_and_dense()) {
    return false;
  }
  const char* a0 = static_cast<const char*>(a.const_data_ptr());
  const char* b0 = static_cast<const char*>(b.const_data_ptr());
  const char* a1 = a0 + a.nbytes();
  const char* b1 = b0 + b.nbytes();
  if (a0 == b0 && a.strides() == b.strides()) {
    return false;  // the very same elements
  }
  return a0 < b1 && b0 < a1;
}

// Copies the outer rows [row_begin, row_end) of a reduced geometry.
void copy_row_range(char* d0, const char* s0, const Geometry& g, size_t itemsize, int64_t row_begin,
                    int64_t row_end) {
  const size_t nd = g.sizes.size();
  const int64_t inner = g.sizes[nd - 1];
  const int64_t inner_ds = g.dst_strides[nd - 1];
  const int64_t inner_ss = g.src_strides[nd - 1];
  const int64_t item = static_cast<int64_t>(itemsize);
  if (nd == 2 && inner_ds == item && inner_ss == item) {
    // Contiguous rows of a matrix (a broadcast row has source stride 0):
    // one call for all of them.
    cpu::vec_kernels().copy_rows(d0 + row_begin * g.dst_strides[0], g.dst_strides[0],
                                 s0 + row_begin * g.src_strides[0], g.src_strides[0], inner * item,
                                 row_end - row_begin);
    return;
  }
  const CopyBytes copy = cpu::vec_kernels().copy_bytes;
  // Odometer over the outer dims, started at row_begin.
  DimVector counter(nd, 0);
  char* d = d0;
  const char* s = s0;
  int64_t rest = row_begin;
  for (size_t i = nd - 1; i-- > 0;) {
    counter[i] = rest % g.sizes[i];
    rest /= g.sizes[i];
    d += counter[i] * g.dst_strides[i];
    s += counter[i] * g.src_strides[i];
  }
  for (int64_t o = row_begin; o < row_end; ++o) {
    run_inner(d, s, inner, inner_ds, inner_ss, itemsize, copy);
    for (size_t i = nd - 1; i-- > 0;) {
      if (++counter[i] < g.sizes[i]) {
        d += g.dst_strides[i];
        s += g.src_strides[i];
        break;
      }
      counter[i] = 0;
      d -= g.dst_strides[i] * (g.sizes[i] - 1);
      s -= g.src_strides[i] * (g.sizes[i] - 1);
    }
  }
}

// Note [Transposing copies by tiles]
// A copy whose last two dims cross (dst's last dim contiguous, src's
// elements closer along the dim before it, as in contiguous() of a
// transpose) walked by rows reads src a row apart per element; with a row
// length of a power of two those reads fall in a few cache sets, and each
// src line is evicted before the next rows come back for the rest of it:
// a 1024 x 1024 float transpose took 3.8 ms (PyTorch's blocked copy 1.7).
// The copy runs in bands of kTileRows rows, each band in tiles of
// kTileCols columns: a tile reads kTileCols src lines (one per column,
// the L1's eight ways) down kTileRows rows, and writes kTileCols elements
// of each dst row. Medians of seven processes, one thread (Zen 4), in
// microseconds, untiled against 256 x 8 tiles (64 x 8 in brackets):
// float 768^2 594 / 227 (397), 1000^2 1034 / 790 (483), 1024^2 3754 / 461
// (888), 2048^2 23022 / 2399 (3537); double 768^2 1319 / 232, 1000^2 938 /
// 519, 2048^2 25044 / 4130. Square tiles (8 x 8 to 64 x 64) were slower
// at every power of two.
constexpr int64_t kTileRows = 256;
constexpr int64_t kTileCols = 8;

// Bands [band_begin, band_end) of kTileRows rows of the last two dims
// (for every plane of the outer dims, plane-major), each band in tiles of
// kTileCols columns, a tile row by row (dst's rows contiguous, each row
// crossing kTileCols src lines).
void copy_bands(char* d0, const char* s0, const Geometry& g, size_t itemsize, int64_t band_begin,
                int64_t band_end) {
  const size_t nd = g.sizes.size();
  const int64_t rows = g.sizes[nd - 2], cols = g.sizes[nd - 1];
  const int64_t bands = (rows + kTileRows - 1) / kTileRows;
  const auto item = static_cast<int64_t>(itemsize);
  BlockSteps tile;
  tile.dst_outer = g.dst_strides[nd - 2];
  tile.src_outer = g.src_strides[nd - 2];
  tile.dst_inner = item;
  tile.src_inner = g.src_strides[nd - 1];
  for (int64_t b = band_begin; b < band_end; ++b) {
    // The plane's offset: the outer dims' odometer, from the plane number.
    int64_t plane = b / bands;
    char* d = d0;
    const char* s = s0;
    for (size_t i = nd - 2; i-- > 0;) {
      const int64_t k = plane % g.sizes[i];
      plane /= g.sizes[i];
      d += k * g.dst_strides[i];
      s += k * g.src_strides[i];
    }
    const int64_t r0 = (b % bands) * kTileRows;
    tile.outer = std::min(kTileRows, rows - r0);
    d += r0 * tile.dst_outer;
    s += r0 * tile.src_outer;
    for (int64_t c0 = 0; c0 < cols; c0 += kTileCols) {
      tile.inner = std::min(kTileCols, cols - c0);
      copy_block<false, kTileCols>(d + c0 * item, s + c0 * tile.src_inner, tile, itemsize);
    }
  }
}

// Whether the last two dims cross (Note [Transposing copies by tiles]),
// for the element sizes copy_block takes, and at least two tiles' columns
// and rows (below that the rows fit in the L1 as they are).
bool crossed(const Geometry& g, size_t itemsize) {
  const size_t nd = g.sizes.size();
  return nd >= 2 && block_copyable(itemsize) &&
         g.dst_strides[nd - 1] == static_cast<int64_t>(itemsize) &&
         g.sizes[nd - 1] >= 2 * kTileCols && g.sizes[nd - 2] >= 2 * kTileCols &&
         g.src_strides[nd - 2] != 0 &&  // (a broadcast row is copy_rows')
         magnitude(g.src_strides[nd - 2]) < magnitude(g.src_strides[nd - 1]);
}

void copy_crossed(char* d, const char* s, const Geometry& g, size_t itemsize) {
  const size_t nd = g.sizes.size();
  int64_t planes = 1;
  for (size_t i = 0; i + 2 < nd; ++i) planes *= g.sizes[i];
  const int64_t bands = planes * ((g.sizes[nd - 2] + kTileRows - 1) / kTileRows);
  const int64_t band_grain = std::max<int64_t>(1, kCopyGrain / (kTileRows * g.sizes[nd - 1]));
  parallel_for(0, bands, band_grain,
               [&](int64_t b, int64_t e) { copy_bands(d, s, g, itemsize, b, e); });
}

// Runs a reduced geometry, rows (or, for a crossed pair of last dims,
// bands of tiles) split across threads.
void copy_geometry(char* d, const char* s, const Geometry& g, size_t itemsize) {
  if (crossed(g, itemsize)) {
    return copy_crossed(d, s, g, itemsize);
  }
  const size_t nd = g.sizes.size();
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < nd; ++i) {
    rows *= g.sizes[i];
  }
  const int64_t row_len = g.sizes[nd - 1];
  const int64_t row_grain = std::max<int64_t>(1, kCopyGrain / row_len);
  parallel_for(0, rows, row_grain,
               [&](int64_t b, int64_t e) { copy_row_range(d, s, g, itemsize, b, e); });
}

}  // namespace

const Tensor& copy_same_dtype_(const Tensor& dst, const Tensor& src) {
  ST_CHECK(dst.defined() && src.defined(),
           "copy_same_dtype_: expected defined tensors, got an undefined ",
           dst.defined() ? "src" : "dst");
  ST_CHECK(dst.scalar_type() == src.scalar_type(), "copy_same_dtype_: expected src dtype ",
           dst.scalar_type(), " (the dtype of dst), got ", src.scalar_type());
  ST_CHECK(dst.sizes() == src.sizes(),
           "copy_same_dtype_: expected src of "
           "size ",
           dst.sizes(), " (the size of dst), got ", src.sizes());
  ST_CHECK(is_host_accessible(dst.device()) && is_host_accessible(src.device()),
           "copy_same_dtype_: expected tensors in host memory (CPU or a host-accessible "
           "backend), got dst on ",
           dst.device(), " and src on ", src.device());
  if (dst.numel() == 0 || dst.data_ptr() == src.data_ptr()) {
    if (dst.numel() == 0 || dst.strides() == src.strides()) {
      return dst;
    }
  }
  ST_CHECK(!has_internal_overlap(dst),
           "copy_same_dtype_: unsupported "
           "operation: more than one element of the written-to tensor refers "
           "to a single memory location. Please clone() the tensor before "
           "performing the operation.");
  ST_CHECK(!partially_overlaps(dst, src),
           "copy_same_dtype_: unsupported "
           "operation: some elements of the input tensor and the written-to "
           "tensor refer to a single memory location. Please clone() the "
           "tensor before performing the operation.");
  const size_t itemsize = static_cast<size_t>(dst.element_size());
  char* d = static_cast<char*>(dst.data_ptr());
  const char* s = static_cast<const char*>(src.const_data_ptr());
  if (dst.is_contiguous() && src.is_contiguous()) {
    const int64_t n = dst.numel();
    parallel_for(0, n, kCopyGrain, [&](int64_t b, int64_t e) {
      std::memcpy(d + b * static_cast<int64_t>(itemsize), s + b * static_cast<int64_t>(itemsize),
                  static_cast<size_t>(e - b) * itemsize);
    });
    return dst;
  }
  const int64_t nd = dst.dim();
  DimVector dst_strides(static_cast<size_t>(nd), 0);
  DimVector src_strides(static_cast<size_t>(nd), 0);
  for (int64_t i = 0; i < nd; ++i) {
    dst_strides[static_cast<size_t>(i)] = dst.stride(i) * static_cast<int64_t>(itemsize);
    src_strides[static_cast<size_t>(i)] = src.stride(i) * static_cast<int64_t>(itemsize);
  }
  copy_geometry(d, s,
                reduce(dst.sizes().data(), dst_strides.data(), src_strides.data(), nd,
                       static_cast<int64_t>(itemsize)),
                itemsize);
  return dst;
}

const Tensor& copy_flipped_(const Tensor& dst, const Tensor& src,
                            const std::vector<bool>& flipped) {
  ST_CHECK(dst.defined() && src.defined(),
           "copy_flipped_: expected defined tensors, got an undefined ",
           dst.defined() ? "src" : "dst");
  ST_CHECK(dst.scalar_type() == src.scalar_type(), "copy_flipped_: expected src dtype ",
           dst.scalar_type(), " (the dtype of dst), got ", src.scalar_type());
  ST_CHECK(dst.sizes() == src.sizes(), "copy_flipped_: expected src of size ", dst.sizes(),
           " (the size of dst), got ", src.sizes());
  ST_CHECK(static_cast<int64_t>(flipped.size()) == dst.dim(), "copy_flipped_: expected ", dst.dim(),
           " flags in the dim mask (one per dim), got ", flipped.size());
  ST_CHECK(is_host_accessible(dst.device()) && is_host_accessible(src.device()),
           "copy_flipped_: expected tensors in host memory (CPU or a host-accessible "
           "backend), got dst on ",
           dst.device(), " and src on ", src.device());
  if (dst.numel() == 0) {
    return dst;
  }
  ST_CHECK(!has_internal_overlap(dst),
           "copy_flipped_: unsupported operation: more than one element of the written-to "
           "tensor refers to a single memory location. Please clone() the tensor before "
           "performing the operation.");
  ST_CHECK(!dst.storage().is_alias_of(src.storage()),
           "copy_flipped_: unsupported operation: the written-to tensor shares memory with "
           "the input (a flip reads elements after writing others). Please clone() the "
           "input first.");
  const size_t itemsize = static_cast<size_t>(dst.element_size());
  const int64_t item = static_cast<int64_t>(itemsize);
  char* d = static_cast<char*>(dst.data_ptr());
  const char* s = static_cast<const char*>(src.const_data_ptr());
  const int64_t nd = dst.dim();
  DimVector dst_strides(static_cast<size_t>(nd), 0);
  DimVector src_strides(static_cast<size_t>(nd), 0);
  for (int64_t i = 0; i < nd; ++i) {
    const size_t k = static_cast<size_t>(i);
    dst_strides[k] = dst.stride(i) * item;
    src_strides[k] = src.stride(i) * item;
    // A flipped dim starts at its last element and steps backwards.
    if (flipped[k] && dst.size(i) > 1) {
      s += (dst.size(i) - 1) * src_strides[k];
      src_strides[k] = -src_strides[k];
    }
  }
  copy_geometry(d, s, reduce(dst.sizes().data(), dst_strides.data(), src_strides.data(), nd, item),
                itemsize);
  return dst;
}

}  // namespace st::native
