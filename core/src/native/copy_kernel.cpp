// Same-dtype strided copy. The loop nest is reduced first: size-1 dims are
// dropped and adjacent dims that are contiguous with each other in both
// tensors are merged, so most copies run as one or two long loops. Elements
// move by size (1, 2, 4, 8, 16 bytes or a generic memcpy), so one kernel
// serves every dtype.
#include <st/native/copy.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include <st/core/error.h>
#include <st/core/parallel.h>
#include <st/device/device_runtime.h>

namespace st::native {
namespace {

struct Geometry {
  std::vector<int64_t> sizes;        // innermost last
  std::vector<int64_t> dst_strides;  // in bytes
  std::vector<int64_t> src_strides;  // in bytes
};

Geometry reduce(const Tensor& dst, const Tensor& src, int64_t itemsize) {
  Geometry g;
  const int64_t n = dst.dim();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t size = dst.size(i);
    if (size == 1) {
      continue;
    }
    const int64_t ds = dst.stride(i) * itemsize;
    const int64_t ss = src.stride(i) * itemsize;
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
    g.sizes.push_back(1);
    g.dst_strides.push_back(itemsize);
    g.src_strides.push_back(itemsize);
  }
  return g;
}

template <size_t kBytes>
void inner_loop(char* d, const char* s, int64_t n, int64_t ds, int64_t ss) {
  if (ds == static_cast<int64_t>(kBytes) && ss == static_cast<int64_t>(kBytes)) {
    std::memcpy(d, s, static_cast<size_t>(n) * kBytes);
    return;
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

void run_inner(char* d, const char* s, int64_t n, int64_t ds, int64_t ss, size_t itemsize) {
  switch (itemsize) {
    case 1:
      inner_loop<1>(d, s, n, ds, ss);
      break;
    case 2:
      inner_loop<2>(d, s, n, ds, ss);
      break;
    case 4:
      inner_loop<4>(d, s, n, ds, ss);
      break;
    case 8:
      inner_loop<8>(d, s, n, ds, ss);
      break;
    case 16:
      inner_loop<16>(d, s, n, ds, ss);
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
void copy_rows(char* d0, const char* s0, const Geometry& g, size_t itemsize, int64_t row_begin,
               int64_t row_end) {
  const size_t nd = g.sizes.size();
  const int64_t inner = g.sizes[nd - 1];
  const int64_t inner_ds = g.dst_strides[nd - 1];
  const int64_t inner_ss = g.src_strides[nd - 1];
  // Odometer over the outer dims, started at row_begin.
  std::vector<int64_t> counter(nd, 0);
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
    run_inner(d, s, inner, inner_ds, inner_ss, itemsize);
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
  const Geometry g = reduce(dst, src, static_cast<int64_t>(itemsize));
  const size_t nd = g.sizes.size();
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < nd; ++i) {
    rows *= g.sizes[i];
  }
  const int64_t row_len = g.sizes[nd - 1];
  const int64_t row_grain = std::max<int64_t>(1, kCopyGrain / row_len);
  parallel_for(0, rows, row_grain,
               [&](int64_t b, int64_t e) { copy_rows(d, s, g, itemsize, b, e); });
  return dst;
}

}  // namespace st::native
