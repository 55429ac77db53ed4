// Memory-overlap checks for the tensors an operator writes: a written
// tensor may not have elements sharing memory, nor partly overlap an input
// (the result would depend on the order the elements are visited).
#pragma once

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// True when `t` has elements sharing memory (stride-0 dims of size > 1).
ST_API bool has_internal_overlap(const Tensor& t);

// Throws when `t` has elements sharing memory (stride-0 dims of size > 1)
// and would be written to; `op` names the operator in the message.
ST_API void assert_no_internal_overlap(const Tensor& t, const char* op);

// Throws when a and b share memory without covering the same bytes. Only
// non-overlapping and dense tensors are compared (others are not refused).
ST_API void assert_no_partial_overlap(const Tensor& a, const Tensor& b, const char* op);

}  // namespace st::native
