// Resizing written tensors; see st/native/resize.h.
#include <st/native/resize.h>

#include <algorithm>

#include <st/core/checked_arithmetic.h>
#include <st/core/warning.h>
#include <st/native/scalar_ops.h>

namespace st::native {

void resize_impl(const Tensor& t, IntArrayRef shape) {
  TensorImpl* impl = t.unsafeGetTensorImpl();
  // Sized and checked before anything changes, so a shape whose bytes do
  // not fit leaves the tensor as it was.
  const int64_t numel = checked_numel(shape, "resize");
  const size_t needed = numel == 0
                            ? 0
                            : checked_nbytes(checked_add(impl->storage_offset(), numel, "resize",
                                                         "storage offset + number of elements"),
                                             impl->itemsize(), "resize");
  if (needed > impl->storage().nbytes()) {
    impl->storage().unsafeGetStorageImpl()->resize(needed);
  }
  impl->set_sizes_contiguous(shape);
}

bool resize_output(const Tensor& out, IntArrayRef shape) {
  const IntArrayRef sizes = out.sizes();
  if (sizes.size() == shape.size() && std::equal(sizes.begin(), sizes.end(), shape.begin())) {
    return false;
  }
  if (out.numel() != 0) {
    ST_WARN("An output with one or more elements was resized since it had shape ",
            shape_str(out.sizes()), ", which does not match the required output shape ",
            shape_str(shape),
            ". This behavior is deprecated, and in a future PyTorch release outputs will not "
            "be resized unless they have zero elements. You can explicitly reuse an out tensor "
            "t by resizing it, inplace, to zero elements with t.resize_(0).");
  }
  resize_impl(out, shape);
  return true;
}

bool resize_output_like(const Tensor& out, const Tensor& result) {
  if (!resize_output(out, result.sizes())) return false;
  if (result.is_non_overlapping_and_dense()) {
    out.unsafeGetTensorImpl()->set_sizes_and_strides(result.sizes(), result.strides());
  }
  return true;
}

}  // namespace st::native
