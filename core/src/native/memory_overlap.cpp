// Memory-overlap checks; see st/native/memory_overlap.h.
#include <st/native/memory_overlap.h>

#include <st/core/error.h>

namespace st::native {

bool has_internal_overlap(const Tensor& t) {
  if (t.is_non_overlapping_and_dense()) return false;
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.stride(d) == 0 && t.size(d) > 1) return true;
  }
  return false;
}

void assert_no_internal_overlap(const Tensor& t, const char* op) {
  ST_CHECK(!has_internal_overlap(t), op,
           ": unsupported operation: more than one element of the written-to tensor refers "
           "to a single memory location. Please clone() the tensor before performing the "
           "operation.");
}

void assert_no_partial_overlap(const Tensor& a, const Tensor& b, const char* op) {
  if (!a.defined() || !b.defined() || a.numel() == 0 || b.numel() == 0) return;
  if (!a.has_storage() || !b.has_storage() || !a.is_alias_of(b)) return;
  if (!a.is_non_overlapping_and_dense() || !b.is_non_overlapping_and_dense()) return;
  const char* a0 = static_cast<const char*>(a.const_data_ptr());
  const char* b0 = static_cast<const char*>(b.const_data_ptr());
  const char* a1 = a0 + a.nbytes();
  const char* b1 = b0 + b.nbytes();
  if (a0 == b0 && a1 == b1) {
    return;  // the same memory range: full overlap is allowed, as in PyTorch
  }
  ST_CHECK(a1 <= b0 || b1 <= a0, op,
           ": unsupported operation: some elements of the input tensor and the written-to "
           "tensor refer to a single memory location. Please clone() the tensor before "
           "performing the operation.");
}

}  // namespace st::native
