// The reduction engine's geometry; see st/native/reduction.h.
#include <st/native/reduction.h>

#include <cstdint>
#include <cstring>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/wrap_dim.h>
#include <st/native/loops.h>
#include <st/native/tensor_iterator.h>

#include "cpu/vec_reduce_kernels.h"

namespace st::native {

namespace detail {

namespace {

// Items of the size of U (1, 2, 4 or 8 bytes) with the stride a template
// parameter when it is 2 (the compiler then turns the loop into shuffles)
// or a run-time value (kStride 0). memcpy of a fixed size is one load and
// one store; of a run-time size it is a library call per item.
template <typename U, int64_t kStride>
struct GatherItems {
  static void run(char* o, const char* x, int64_t n, int64_t stride) {
    constexpr auto kSize = static_cast<int64_t>(sizeof(U));
    const int64_t step = kStride != 0 ? kStride : stride;
    for (int64_t j = 0; j < n; ++j) std::memcpy(o + j * kSize, x + j * step * kSize, sizeof(U));
  }
};
template <typename U, int64_t kStride>
struct ScatterItems {
  static void run(char* o, const char* x, int64_t n, int64_t stride) {
    constexpr auto kSize = static_cast<int64_t>(sizeof(U));
    const int64_t step = kStride != 0 ? kStride : stride;
    for (int64_t j = 0; j < n; ++j) std::memcpy(o + j * step * kSize, x + j * kSize, sizeof(U));
  }
};

// Runs Loop<U, 2> or Loop<U, 0> for the unsigned type U of itemsize bytes;
// false for other sizes.
template <template <typename, int64_t> class Loop>
bool copy_items(char* o, const char* x, int64_t n, int64_t stride, size_t itemsize) {
  auto run = [&](auto tag) {
    using U = decltype(tag);
    if (stride == 2) {
      Loop<U, 2>::run(o, x, n, stride);
    } else {
      Loop<U, 0>::run(o, x, n, stride);
    }
    return true;
  };
  switch (itemsize) {
    case 1:
      return run(uint8_t{});
    case 2:
      return run(uint16_t{});
    case 4:
      return run(uint32_t{});
    case 8:
      return run(uint64_t{});
    default:
      return false;
  }
}

// Whether a stride-2 run of these items goes through the ISA table's
// stride-2 loops (gather2_*, scatter2_*).
bool table_stride2(int64_t stride, size_t itemsize) {
  return stride == 2 && (itemsize == 4 || itemsize == 8);
}

}  // namespace

void gather_strided(void* out, const void* src, int64_t n, int64_t stride, size_t itemsize) {
  const cpu::VecReduceKernels& k = cpu::vec_reduce_kernels();
  if (table_stride2(stride, itemsize)) {
    if (itemsize == 4) {
      return k.gather2_32(static_cast<uint32_t*>(out), static_cast<const uint32_t*>(src), n);
    }
    return k.gather2_64(static_cast<uint64_t*>(out), static_cast<const uint64_t*>(src), n);
  }
  auto* o = static_cast<char*>(out);
  const auto* x = static_cast<const char*>(src);
  if (copy_items<GatherItems>(o, x, n, stride, itemsize)) return;
  const auto size = static_cast<int64_t>(itemsize);
  for (int64_t j = 0; j < n; ++j) std::memcpy(o + j * size, x + j * stride * size, itemsize);
}

void scatter_strided(void* dst, const void* src, int64_t n, int64_t stride, size_t itemsize) {
  const cpu::VecReduceKernels& k = cpu::vec_reduce_kernels();
  if (table_stride2(stride, itemsize)) {
    if (itemsize == 4) {
      return k.scatter2_32(static_cast<uint32_t*>(dst), static_cast<const uint32_t*>(src), n);
    }
    return k.scatter2_64(static_cast<uint64_t*>(dst), static_cast<const uint64_t*>(src), n);
  }
  auto* o = static_cast<char*>(dst);
  const auto* x = static_cast<const char*>(src);
  if (copy_items<ScatterItems>(o, x, n, stride, itemsize)) return;
  const auto size = static_cast<int64_t>(itemsize);
  for (int64_t j = 0; j < n; ++j) std::memcpy(o + j * stride * size, x + j * size, itemsize);
}

int64_t strided_out_block(int64_t stride, size_t itemsize) {
  const bool by_vectors =
      table_stride2(stride, itemsize) && cpu::vec_reduce_kernels().scatter2_by_vectors;
  return by_vectors ? kStridedBlock : kStridedOutBlock;
}

}  // namespace detail

std::vector<bool> make_dim_mask(std::optional<IntArrayRef> dims, int64_t ndim, const char* op) {
  std::vector<bool> mask(static_cast<size_t>(ndim), false);
  if (!dims.has_value() || dims->empty()) {
    mask.assign(static_cast<size_t>(ndim), true);
    return mask;
  }
  for (int64_t d : *dims) {
    const int64_t w = maybe_wrap_dim(d, ndim);
    if (ndim == 0) continue;
    ST_CHECK(!mask[static_cast<size_t>(w)], op, ": dim ", w,
             " appears multiple times in the list of dims");
    mask[static_cast<size_t>(w)] = true;
  }
  return mask;
}

ReduceGeometry make_reduce_geometry(const Tensor& input, std::optional<IntArrayRef> dims,
                                    bool keepdim, const char* op) {
  ReduceGeometry g;
  g.input = input;
  const int64_t nd = input.dim();
  g.mask = make_dim_mask(dims, nd, op);
  for (int64_t d = 0; d < nd; ++d) {
    const int64_t size = input.size(d);
    const int64_t stride = input.stride(d);
    if (g.mask[static_cast<size_t>(d)]) {
      g.reduce_size *= size;
      if (keepdim) g.out_shape.push_back(1);
      append_walk_dim(g.red_sizes, g.red_strides, size, stride);
    } else {
      g.num_outputs *= size;
      g.out_shape.push_back(size);
      append_walk_dim(g.kept_sizes, g.kept_strides, size, stride);
    }
  }
  return g;
}

void check_nonempty_reduction(const ReduceGeometry& g, const char* op) {
  if (g.reduce_size != 0 || g.num_outputs == 0) return;
  for (size_t d = 0; d < g.mask.size(); ++d) {
    if (g.mask[d] && g.input.size(static_cast<int64_t>(d)) == 0) {
      ST_ERROR(op, "(): Expected reduction dim ", d, " to have non-zero size.");
    }
  }
  ST_ERROR(op, "(): Expected reduction dim to have non-zero size.");
}

void check_out_dtype_exact(const Tensor& out, ScalarType want, const char* op) {
  ST_CHECK(out.dtype() == want, op, "(): Expected out tensor to have dtype ",
           torch::headeronly::toString(want), ", but got ",
           torch::headeronly::toString(out.dtype()), " instead");
}

Tensor reduce_into_output(const Tensor& computed, const std::optional<Tensor>& out,
                          const char* op) {
  if (!out.has_value() || !out->defined()) return computed;
  const Tensor& o = *out;
  if (o.is_same(computed)) return o;  // computed in place (already resized)
  ST_CHECK(o.device() == computed.device(), op, ": expected out on ", computed.device(),
           " but got ", o.device());
  resize_output(o, computed.sizes());
  copy_into(o, computed);
  return o;
}

}  // namespace st::native
