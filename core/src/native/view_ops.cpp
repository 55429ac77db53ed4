// View kernels. Each builds a new TensorImpl over the input's Storage with
// new sizes/strides/offset; only reshape, flatten and contiguous may copy.
// See Note [View stride computation] for how view() decides viability.
#include <st/native/view_ops.h>

#include <algorithm>
#include <bitset>
#include <sstream>
#include <vector>

#include <st/core/checked_arithmetic.h>
#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/wrap_dim.h>
#include <st/native/copy.h>

namespace st::native {
namespace {

using DimVector = std::vector<int64_t>;

void check_defined(const Tensor& self, const char* op) {
  ST_CHECK(self.defined(), op,
           ": expected a defined tensor, got an "
           "undefined one");
}

// A new tensor aliasing self's storage.
Tensor make_view(const Tensor& self, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                 ScalarType dtype) {
  auto impl = make_intrusive<TensorImpl>(self.storage(), dtype, self.device());
  impl->set_sizes_and_strides(sizes, strides, storage_offset);
  return Tensor(std::move(impl));
}

Tensor make_view(const Tensor& self, IntArrayRef sizes, IntArrayRef strides,
                 int64_t storage_offset) {
  return make_view(self, sizes, strides, storage_offset, self.scalar_type());
}

Tensor alias(const Tensor& self) {
  return make_view(self, self.sizes(), self.strides(), self.storage_offset());
}

// Resolves one -1 in `shape` against numel, checking the product.
DimVector infer_size(IntArrayRef shape, int64_t numel) {
  DimVector result(shape.begin(), shape.end());
  int64_t new_size = 1;
  int64_t infer_dim = -1;
  bool overflow = false;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      ST_CHECK(infer_dim < 0, "only one dimension can be inferred");
      infer_dim = static_cast<int64_t>(d);
    } else {
      ST_CHECK(shape[d] >= 0, "invalid shape dimension ", shape[d]);
      overflow |= __builtin_mul_overflow(new_size, shape[d], &new_size);
    }
  }
  if (!overflow) {
    if (numel == new_size) {
      if (infer_dim >= 0) {
        ST_CHECK(new_size != 0,
                 "cannot reshape tensor of 0 elements into "
                 "shape ",
                 shape,
                 " because the unspecified dimension size -1 "
                 "can be any value and is ambiguous");
        result[static_cast<size_t>(infer_dim)] = numel / new_size;
      }
      return result;
    }
    if (infer_dim >= 0 && new_size > 0 && numel % new_size == 0) {
      result[static_cast<size_t>(infer_dim)] = numel / new_size;
      return result;
    }
  }
  ST_ERROR("shape '", shape, "' is invalid for input of size ", numel);
}

// Note [View stride computation]
// A view can reuse the storage when every run of old dims that is
// contiguous with itself ("a contiguous subspace") maps onto a run of new
// dims with the same element count. Walk both shapes from the innermost
// dim: each time the old dims end a subspace (the next outer dim does not
// step over it exactly), consume new dims until their product matches,
// giving them strides relative to the subspace's base stride. A mismatch
// means some new dim would straddle two subspaces: no view exists.
bool compute_view_strides(IntArrayRef old_sizes, IntArrayRef old_strides, IntArrayRef new_sizes,
                          DimVector& new_strides) {
  new_strides.assign(new_sizes.size(), 1);
  if (old_sizes.size() == 0) {
    return true;  // A scalar views as any shape of one element.
  }
  int64_t numel = 1;
  for (int64_t s : old_sizes) {
    numel *= s;
  }
  if (numel == 0) {
    if (old_sizes == new_sizes) {
      new_strides.assign(old_strides.begin(), old_strides.end());
      return true;
    }
    // Any strides do; use contiguous ones.
    detail::contiguous_strides(new_sizes, new_strides.data());
    return true;
  }
  int64_t view_d = static_cast<int64_t>(new_sizes.size()) - 1;
  int64_t chunk_base_stride = old_strides[old_sizes.size() - 1];
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(old_sizes.size()) - 1; tensor_d >= 0; --tensor_d) {
    const size_t td = static_cast<size_t>(tensor_d);
    tensor_numel *= old_sizes[td];
    const bool subspace_ends =
        tensor_d == 0 ||
        (old_sizes[td - 1] != 1 && old_strides[td - 1] != tensor_numel * chunk_base_stride);
    if (!subspace_ends) {
      continue;
    }
    while (view_d >= 0 &&
           (view_numel < tensor_numel || new_sizes[static_cast<size_t>(view_d)] == 1)) {
      new_strides[static_cast<size_t>(view_d)] = view_numel * chunk_base_stride;
      view_numel *= new_sizes[static_cast<size_t>(view_d)];
      --view_d;
    }
    if (view_numel != tensor_numel) {
      return false;
    }
    if (tensor_d > 0) {
      chunk_base_stride = old_strides[td - 1];
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  return view_d == -1;
}

std::string dtype_pair(ScalarType from, ScalarType to) {
  std::ostringstream os;
  os << from << " as " << to;
  return os.str();
}

}  // namespace

Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> storage_offset) {
  check_defined(self, "as_strided");
  ST_CHECK(size.size() == stride.size(),
           "as_strided: mismatch in length of "
           "strides and shape: got ",
           size.size(), " sizes ", size, " and ", stride.size(), " strides ", stride);
  for (int64_t s : stride) {
    ST_CHECK(s >= 0,
             "as_strided: Negative strides are not supported at the "
             "moment, got strides: ",
             stride);
  }
  for (int64_t s : size) {
    ST_CHECK(s >= 0,
             "as_strided: Trying to create tensor with negative "
             "dimension ",
             s, ": ", size);
  }
  const int64_t offset = storage_offset.value_or(self.storage_offset());
  ST_CHECK(offset >= 0, "as_strided: Tensor: invalid storage offset ", offset);
  const size_t itemsize = static_cast<size_t>(self.element_size());
  const size_t needed = checked_storage_nbytes(size, stride, itemsize, offset, "as_strided");
  const size_t available = self.storage().nbytes();
  ST_CHECK(needed <= available, "setStorage: sizes ", size, ", strides ", stride,
           ", storage offset ", offset, ", and itemsize ", itemsize,
           " requiring a storage size of ", needed, " are out of bounds for storage of size ",
           available);
  return make_view(self, size, stride, offset);
}

Tensor view(const Tensor& self, IntArrayRef size) {
  check_defined(self, "view");
  const DimVector shape = infer_size(size, self.numel());
  DimVector strides;
  ST_CHECK(compute_view_strides(self.sizes(), self.strides(), shape, strides),
           "view size is not compatible with input tensor's size and stride "
           "(at least one dimension spans across two contiguous subspaces). "
           "Use .reshape(...) instead.");
  return make_view(self, shape, strides, self.storage_offset());
}

Tensor reshape(const Tensor& self, IntArrayRef size) {
  check_defined(self, "reshape");
  const DimVector shape = infer_size(size, self.numel());
  DimVector strides;
  if (compute_view_strides(self.sizes(), self.strides(), shape, strides)) {
    return make_view(self, shape, strides, self.storage_offset());
  }
  Tensor copy = contiguous(self);
  DimVector contiguous(shape.size());
  detail::contiguous_strides(shape, contiguous.data());
  return make_view(copy, shape, contiguous, copy.storage_offset());
}

Tensor view(const Tensor& self, ScalarType dtype) {
  check_defined(self, "view");
  const ScalarType from = self.scalar_type();
  if (from == dtype) {
    return alias(self);
  }
  ST_CHECK(dtype != ScalarType::Undefined && static_cast<int>(dtype) >= 0 &&
               static_cast<int>(dtype) < static_cast<int>(ScalarType::Undefined),
           "view: expected a concrete dtype, got ", torch::headeronly::toString(dtype));
  const int64_t from_size = self.element_size();
  const int64_t to_size = static_cast<int64_t>(torch::headeronly::elementSize(dtype));
  if (from_size == to_size) {
    return make_view(self, self.sizes(), self.strides(), self.storage_offset(), dtype);
  }
  const std::string pair = dtype_pair(from, dtype);
  ST_CHECK(self.dim() > 0, "self.dim() cannot be 0 to view ", pair, " (different element sizes)");
  ST_CHECK(self.stride(-1) == 1, "self.stride(-1) must be 1 to view ", pair,
           " (different element sizes), but got ", self.stride(-1));
  DimVector sizes = self.sizes().vec();
  DimVector strides = self.strides().vec();
  int64_t offset = self.storage_offset();
  const size_t last = sizes.size() - 1;
  if (from_size > to_size) {
    // Sizes, strides and the offset count smaller elements now. They fit
    // for the elements a tensor holds, not always for an empty tensor's
    // sizes or a size-1 dim's stride, which no element walks.
    const int64_t ratio = from_size / to_size;
    sizes[last] = checked_mul(sizes[last], ratio, "view", "the last size in the new dtype");
    for (size_t i = 0; i < last; ++i) {
      strides[i] = checked_mul(strides[i], ratio, "view", "a stride in the new dtype");
    }
    offset = checked_mul(offset, ratio, "view", "the storage offset in the new dtype");
  } else {
    const int64_t ratio = to_size / from_size;
    ST_CHECK(sizes[last] % ratio == 0, "self.size(-1) must be divisible by ", ratio, " to view ",
             pair, " (different element sizes), but got ", sizes[last]);
    ST_CHECK(offset % ratio == 0,
             "self.storage_offset() must be divisible "
             "by ",
             ratio, " to view ", pair, " (different element sizes), but got ", offset);
    for (size_t i = 0; i < last; ++i) {
      ST_CHECK(strides[i] % ratio == 0, "self.stride(", i, ") must be divisible by ", ratio,
               " to view ", pair, " (different element sizes), but got ", strides[i]);
      strides[i] /= ratio;
    }
    sizes[last] /= ratio;
    offset /= ratio;
  }
  return make_view(self, sizes, strides, offset, dtype);
}

Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  check_defined(self, "transpose");
  const int64_t n = self.dim();
  const size_t d0 = static_cast<size_t>(maybe_wrap_dim(dim0, n));
  const size_t d1 = static_cast<size_t>(maybe_wrap_dim(dim1, n));
  if (n == 0 || d0 == d1) {
    return alias(self);
  }
  DimVector sizes = self.sizes().vec();
  DimVector strides = self.strides().vec();
  std::swap(sizes[d0], sizes[d1]);
  std::swap(strides[d0], strides[d1]);
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor t(const Tensor& self) {
  check_defined(self, "t");
  ST_CHECK(self.dim() <= 2,
           "t() expects a tensor with <= 2 dimensions, but "
           "self is ",
           self.dim(), "D");
  if (self.dim() < 2) {
    return alias(self);
  }
  return transpose(self, 0, 1);
}

Tensor permute(const Tensor& self, IntArrayRef dims) {
  check_defined(self, "permute");
  const int64_t n = self.dim();
  ST_CHECK(n == static_cast<int64_t>(dims.size()),
           "permute(): number of dimensions in the tensor input does not "
           "match the length of the desired ordering of dimensions i.e. "
           "input.dim() = ",
           n, " is not equal to len(dims) = ", dims.size());
  DimVector sizes(static_cast<size_t>(n));
  DimVector strides(static_cast<size_t>(n));
  std::vector<bool> seen(static_cast<size_t>(n), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    const size_t d = static_cast<size_t>(maybe_wrap_dim(dims[i], n));
    ST_CHECK(!seen[d], "permute(): duplicate dims are not allowed.");
    seen[d] = true;
    sizes[i] = self.sizes()[d];
    strides[i] = self.strides()[d];
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  check_defined(self, "narrow");
  ST_CHECK(self.dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  ST_CHECK(length >= 0, "narrow(): length must be non-negative.");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t cur_size = self.size(d);
  ST_CHECK(start >= -cur_size && start <= cur_size,
           "start out of range (expected to be in range of [", -cur_size, ", ", cur_size,
           "], but got ", start, ")");
  if (start < 0) {
    start += cur_size;
  }
  ST_CHECK(start <= cur_size - length, "start (", start, ") + length (", length,
           ") exceeds dimension size (", cur_size, ").");
  return slice(self, d, start, start + length, 1);
}

Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> end, int64_t step) {
  check_defined(self, "slice");
  ST_CHECK(self.dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  ST_CHECK(step > 0, "slice step must be positive");
  const size_t d = static_cast<size_t>(maybe_wrap_dim(dim, self.dim()));
  const int64_t size = self.sizes()[d];
  int64_t s = start.value_or(0);
  int64_t e = end.value_or(INT64_MAX);
  if (s < 0) {
    s = s < -size ? 0 : s + size;
  }
  if (e < 0) {
    e = e < -size ? 0 : e + size;
  }
  s = std::min(std::max<int64_t>(s, 0), size);
  e = std::min(e, size);
  if (e < s) {
    e = s;
  }
  DimVector sizes = self.sizes().vec();
  DimVector strides = self.strides().vec();
  // s * stride can pass the extent only when s == size (an empty slice),
  // where a size-1 dim's stride may be anything up to INT64_MAX.
  const int64_t offset =
      checked_add(self.storage_offset(), checked_mul(s, strides[d], "slice", "start * stride"),
                  "slice", "the storage offset");
  // Written so that no step (up to INT64_MAX) overflows: ceil((e - s) / step).
  sizes[d] = e == s ? 0 : (e - s - 1) / step + 1;
  // A dim of size 0 or 1 never moves by its stride, so when stride * step
  // does not fit (only possible then) the old stride serves as well.
  int64_t stepped = 0;
  if (!__builtin_mul_overflow(strides[d], step, &stepped)) strides[d] = stepped;
  return make_view(self, sizes, strides, offset);
}

Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  check_defined(self, "select");
  ST_CHECK(self.dim() > 0, "select() cannot be applied to a 0-dim tensor.");
  const size_t d = static_cast<size_t>(maybe_wrap_dim(dim, self.dim()));
  const int64_t size = self.sizes()[d];
  ST_CHECK(index >= -size && index < size, "select(): index ", index,
           " out of range for tensor of size ", self.sizes(), " at dimension ", dim);
  if (index < 0) {
    index += size;
  }
  DimVector sizes = self.sizes().vec();
  DimVector strides = self.strides().vec();
  const int64_t offset = self.storage_offset() + index * strides[d];
  sizes.erase(sizes.begin() + static_cast<std::ptrdiff_t>(d));
  strides.erase(strides.begin() + static_cast<std::ptrdiff_t>(d));
  return make_view(self, sizes, strides, offset);
}

namespace {
Tensor squeeze_mask(const Tensor& self, const std::vector<bool>& drop) {
  DimVector sizes;
  DimVector strides;
  for (size_t i = 0; i < drop.size(); ++i) {
    if (!(drop[i] && self.sizes()[i] == 1)) {
      sizes.push_back(self.sizes()[i]);
      strides.push_back(self.strides()[i]);
    }
  }
  return make_view(self, sizes, strides, self.storage_offset());
}
}  // namespace

Tensor squeeze(const Tensor& self) {
  check_defined(self, "squeeze");
  return squeeze_mask(self, std::vector<bool>(static_cast<size_t>(self.dim()), true));
}

Tensor squeeze(const Tensor& self, int64_t dim) {
  check_defined(self, "squeeze");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  std::vector<bool> drop(static_cast<size_t>(self.dim()), false);
  if (self.dim() > 0) {
    drop[static_cast<size_t>(d)] = true;
  }
  return squeeze_mask(self, drop);
}

Tensor squeeze(const Tensor& self, IntArrayRef dims) {
  check_defined(self, "squeeze");
  std::vector<bool> drop(static_cast<size_t>(self.dim()), false);
  std::vector<bool> seen(static_cast<size_t>(std::max<int64_t>(self.dim(), 1)), false);
  for (int64_t dim : dims) {
    const size_t d = static_cast<size_t>(maybe_wrap_dim(dim, self.dim()));
    ST_CHECK(!seen[d], "dim ", d,
             " appears multiple times in the list of "
             "dims");
    seen[d] = true;
    if (self.dim() > 0) {
      drop[d] = true;
    }
  }
  return squeeze_mask(self, drop);
}

Tensor unsqueeze(const Tensor& self, int64_t dim) {
  check_defined(self, "unsqueeze");
  const size_t d = static_cast<size_t>(maybe_wrap_dim(dim, self.dim() + 1));
  DimVector sizes = self.sizes().vec();
  DimVector strides = self.strides().vec();
  const int64_t new_stride = d >= sizes.size() ? 1 : sizes[d] * strides[d];
  sizes.insert(sizes.begin() + static_cast<std::ptrdiff_t>(d), 1);
  strides.insert(strides.begin() + static_cast<std::ptrdiff_t>(d), new_stride);
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor expand(const Tensor& self, IntArrayRef size) {
  check_defined(self, "expand");
  const int64_t ndim = static_cast<int64_t>(size.size());
  const int64_t tensor_dim = self.dim();
  ST_CHECK(ndim >= tensor_dim, "expand(torch.", self.scalar_type(), "Tensor{", self.sizes(),
           "}, size=", size, "): the number of sizes provided (", ndim,
           ") must be greater or equal to the number of dimensions in the "
           "tensor (",
           tensor_dim, ")");
  DimVector sizes(static_cast<size_t>(ndim));
  DimVector strides(static_cast<size_t>(ndim));
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const size_t ui = static_cast<size_t>(i);
    const int64_t offset = ndim - 1 - i;
    const int64_t d = tensor_dim - 1 - offset;
    int64_t cur_size = d >= 0 ? self.sizes()[static_cast<size_t>(d)] : 1;
    int64_t cur_stride = d >= 0 ? self.strides()[static_cast<size_t>(d)]
                                : (i == ndim - 1 ? 1 : sizes[ui + 1] * strides[ui + 1]);
    int64_t target = size[ui];
    if (target == -1) {
      ST_CHECK(d >= 0,
               "The expanded size of the tensor (-1) isn't allowed "
               "in a leading, non-existing dimension ",
               i);
      target = cur_size;
    }
    ST_CHECK(target >= 0,
             "expand: Trying to create tensor with negative "
             "dimension ",
             target, ": ", size);
    if (cur_size != target) {
      ST_CHECK(cur_size == 1, "The expanded size of the tensor (", target,
               ") must match the existing size (", cur_size, ") at non-singleton dimension ", i,
               ".  Target sizes: ", size, ".  Tensor sizes: ", self.sizes());
      cur_size = target;
      cur_stride = 0;
    }
    sizes[ui] = cur_size;
    strides[ui] = cur_stride;
  }
  return make_view(self, sizes, strides, self.storage_offset());
}

Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  check_defined(self, "flatten");
  const int64_t n = self.dim();
  const int64_t s = maybe_wrap_dim(start_dim, n);
  const int64_t e = maybe_wrap_dim(end_dim, n);
  ST_CHECK(s <= e,
           "flatten() has invalid args: start_dim cannot come after "
           "end_dim");
  if (n == 0) {
    const int64_t one = 1;
    return reshape(self, IntArrayRef(&one, 1));
  }
  if (s == e) {
    return self;
  }
  DimVector shape;
  for (int64_t i = 0; i < s; ++i) {
    shape.push_back(self.sizes()[static_cast<size_t>(i)]);
  }
  int64_t flat = 1;
  for (int64_t i = s; i <= e; ++i) {
    flat *= self.sizes()[static_cast<size_t>(i)];
  }
  shape.push_back(flat);
  for (int64_t i = e + 1; i < n; ++i) {
    shape.push_back(self.sizes()[static_cast<size_t>(i)]);
  }
  return reshape(self, shape);
}

Tensor unflatten(const Tensor& self, int64_t dim, IntArrayRef sizes) {
  check_defined(self, "unflatten");
  // A 0-dim tensor has no dimension to unflatten (PyTorch does not wrap
  // scalars here).
  const int64_t d = maybe_wrap_dim(dim, self.dim(), /*wrap_scalar=*/false);
  ST_CHECK(sizes.size() > 0, "unflatten: sizes must be non-empty");
  const int64_t dim_size = self.dim() > 0 ? self.size(d) : 1;
  DimVector inferred;
  try {
    inferred = infer_size(sizes, dim_size);
  } catch (const Error&) {
    // Re-raise with unflatten's own wording (invalid -1 use included).
    int minus_ones = 0;
    for (int64_t s : sizes) {
      minus_ones += s == -1 ? 1 : 0;
    }
    ST_CHECK(minus_ones <= 1, "unflatten: only one dimension can be inferred");
    ST_ERROR("unflatten: Provided sizes ", sizes, " don't multiply up to the size of dim ", dim,
             " (", dim_size, ") in the input tensor");
  }
  DimVector shape;
  for (int64_t i = 0; i < d; ++i) {
    shape.push_back(self.sizes()[static_cast<size_t>(i)]);
  }
  shape.insert(shape.end(), inferred.begin(), inferred.end());
  for (int64_t i = d + 1; i < self.dim(); ++i) {
    shape.push_back(self.sizes()[static_cast<size_t>(i)]);
  }
  return view(self, shape);
}

Tensor empty_like(const Tensor& self, MemoryFormat memory_format) {
  check_defined(self, "empty_like");
  if (memory_format == MemoryFormat::Preserve) {
    if (self.is_non_overlapping_and_dense()) {
      return detail::empty_strided_generic(self.sizes(), self.strides(), self.scalar_type(),
                                           self.device());
    }
    memory_format = MemoryFormat::Contiguous;
    if (self.dim() == 4 && self.is_contiguous(MemoryFormat::ChannelsLast)) {
      memory_format = MemoryFormat::ChannelsLast;
    }
  }
  return detail::empty_generic(self.sizes(), self.scalar_type(), self.device(), memory_format);
}

Tensor contiguous(const Tensor& self, MemoryFormat memory_format) {
  check_defined(self, "contiguous");
  ST_CHECK(memory_format != MemoryFormat::Preserve,
           "contiguous: memory format Preserve is not supported (expected "
           "Contiguous, ChannelsLast or ChannelsLast3d)");
  if (self.is_contiguous(memory_format)) {
    return self;
  }
  Tensor result = empty_like(self, memory_format);
  copy_same_dtype_(result, self);
  return result;
}

}  // namespace st::native
