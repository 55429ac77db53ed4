// The elementwise engine: TensorIterator (a TensorIterator in PyTorch's
// spirit, written for this project). Given outputs and inputs it
//   - broadcasts the inputs to one shape;
//   - computes the common dtype with PyTorch's type promotion (dimensioned
//     tensors > zero-dim tensors > wrapped numbers, by category), converts
//     inputs to it, and checks that the result can be cast to a given
//     output ("result type Float can't be cast to the desired output type
//     Long");
//   - allocates undefined outputs (strides follow the inputs' memory
//     layout) or resizes out= tensors (warning when they had elements), and
//     refuses to broadcast an in-place self ("output with shape [3] doesn't
//     match the broadcast shape [2, 3]");
//   - orders dimensions fastest-first and coalesces them, so contiguous
//     operands run as one flat loop;
//   - runs a 2-d inner loop (rows of the fastest dim, several rows per
//     call) over [0, numel), split by parallel_for when the output is
//     large.
// Outputs whose dtype differs from what the kernel computes are converted
// chunk by chunk: the kernel writes a block into a stack buffer, which is
// then cast into the output (Note [Converting outputs by blocks]). The few
// cases that cannot (8-bit floats, an input aliasing the output in another
// layout, more than two such outputs) go through a temporary that finish()
// copies back (cpu_kernel calls it).
//
// Kernels live in st/native/loops.h (cpu_kernel).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include <st/core/array_ref.h>
#include <st/core/export.h>
#include <st/core/scalar.h>
#include <st/core/small_vector.h>
#include <st/core/tensor.h>
// The helpers elementwise operators use beside the iterator, each in its
// own header, included here so an operator file needs one include.
#include <st/native/broadcast.h>
#include <st/native/dense_layout.h>
#include <st/native/dtype_conversion.h>
#include <st/native/memory_overlap.h>
#include <st/native/resize.h>
#include <st/native/scalar_tensor.h>

namespace st::native {

// A 1-d inner loop: data[i] points at element 0 of operand i (outputs
// first), strides[i] is its step in bytes, n the number of elements.
using loop1d_t = std::function<void(char** data, const int64_t* strides, int64_t n)>;

// A 2-d inner loop: `rows` rows of n elements each; row j of operand i
// starts at data[i] + j * outer_strides[i], and strides[i] steps within a
// row (bytes). One call covers as many whole rows as the range holds, so a
// broadcast (32 rows of 32) pays the call and pointer set-up once, not per
// row.
using loop2d_t = std::function<void(char** data, const int64_t* strides,
                                    const int64_t* outer_strides, int64_t n, int64_t rows)>;

class TensorIterator;

class ST_API TensorIteratorConfig {
 public:
  // The op name used in error messages ("add").
  TensorIteratorConfig& name(const char* op_name) {
    name_ = op_name;
    return *this;
  }
  // An output; undefined means "allocate it".
  TensorIteratorConfig& add_output(const Tensor& t) {
    outputs_.push_back(t);
    return *this;
  }
  // An input. promote=false keeps its dtype and leaves it out of the
  // common dtype (e.g. the bool condition of where()).
  TensorIteratorConfig& add_input(const Tensor& t, bool promote = true) {
    inputs_.push_back(t);
    input_promote_.push_back(promote);
    return *this;
  }
  // Convert inputs to the common dtype (default true).
  TensorIteratorConfig& promote_inputs_to_common_dtype(bool v) {
    promote_ = v;
    return *this;
  }
  // Integral/bool common dtypes become the default float dtype (exp, div).
  TensorIteratorConfig& promote_integer_inputs_to_float(bool v) {
    int_to_float_ = v;
    return *this;
  }
  // Check canCast(common dtype, output dtype) for given outputs.
  TensorIteratorConfig& enforce_safe_casting_to_output(bool v) {
    safe_cast_ = v;
    return *this;
  }
  // The dtype the kernel writes (default: the common dtype), e.g. Bool for
  // comparisons, the real dtype for abs of complex.
  TensorIteratorConfig& kernel_output_dtype(ScalarType t) {
    kernel_out_dtype_ = t;
    return *this;
  }
  // The output is also input 0 (in-place): it may not be resized.
  TensorIteratorConfig& is_inplace(bool v) {
    inplace_ = v;
    return *this;
  }
  // A fixed common dtype instead of type promotion (all inputs converted).
  TensorIteratorConfig& common_dtype(ScalarType t) {
    forced_common_ = t;
    return *this;
  }
  // Refuse outputs whose elements share memory, or that partly overlap an
  // input (default true). Off for writes whose result does not depend on
  // the order (fill_, masked_fill_), which PyTorch lets write an expanded
  // tensor.
  TensorIteratorConfig& check_mem_overlap(bool v) {
    check_overlap_ = v;
    return *this;
  }

  TensorIterator build();

 private:
  friend class TensorIterator;
  // The steps of build(), in order; each fills part of `it`.
  void compute_shape(TensorIterator& it) const;
  Device compute_device() const;
  void compute_common_dtype(TensorIterator& it) const;
  DimVector compute_dim_order(const TensorIterator& it) const;
  void prepare_outputs(TensorIterator& it, IntArrayRef order, Device device) const;
  bool aliased_in_another_layout(const Tensor& out) const;
  void prepare_inputs(TensorIterator& it) const;
  static void coalesce_dims(TensorIterator& it, IntArrayRef order);

  // Inline room for the usual operand counts: set-up allocates nothing
  // but the outputs it creates.
  const char* name_ = "op";
  SmallVector<Tensor, 2> outputs_;
  SmallVector<Tensor, 3> inputs_;
  SmallVector<bool, 3> input_promote_;
  bool promote_ = true;
  bool int_to_float_ = false;
  bool safe_cast_ = true;
  bool inplace_ = false;
  bool check_overlap_ = true;
  std::optional<ScalarType> kernel_out_dtype_;
  std::optional<ScalarType> forced_common_;
};

class ST_API TensorIterator {
 public:
  int noutputs() const { return static_cast<int>(noutputs_); }
  int ninputs() const { return static_cast<int>(operands_.size() - noutputs_); }
  int ntensors() const { return static_cast<int>(operands_.size()); }
  ScalarType common_dtype() const { return common_dtype_; }
  // The dtype of operand `i` as the kernel sees it (outputs first).
  ScalarType dtype(int i) const {
    if (i < kMaxBlockCastOutputs && out_cast_[i] != nullptr) return kernel_out_dtype_;
    return operands_[i].scalar_type();
  }
  ScalarType input_dtype(int i = 0) const { return dtype(noutputs() + i); }
  // The user-visible output (valid after finish()).
  const Tensor& output(int i = 0) const { return outputs_[i]; }
  // The broadcast shape (original dim order).
  IntArrayRef shape() const { return shape_; }
  int64_t numel() const { return numel_; }
  const char* name() const { return name_; }
  // The operand tensors as the kernel sees them (converted inputs, possibly
  // temporary outputs).
  const Tensor& operand(int i) const { return operands_[i]; }

  // Calls loop over every element, in chunks of >= grain_size elements on
  // the thread pool when numel is large.
  void for_each(const loop1d_t& loop, int64_t grain_size = 32768) const;
  // The same over a 2-d loop (rows at a time).
  void for_each_2d(const loop2d_t& loop, int64_t grain_size = 32768) const;
  // Runs loop on the single-threaded path (for kernels that are not
  // thread-safe, like random number generation).
  void serial_for_each(const loop1d_t& loop) const;
  // Copies temporary outputs back into the user's outputs.
  void finish();

 private:
  friend class TensorIteratorConfig;
  TensorIterator() = default;
  void run_range(const loop2d_t& loop, int64_t begin, int64_t end) const;
  void run_block_cast(const loop2d_t& loop, char** ptrs, const int64_t* strides,
                      const int64_t* outer_strides, int64_t n, int64_t rows) const;
  void run_block(const loop2d_t& loop, char** ptrs, const int64_t* strides,
                 const int64_t* outer_strides, int64_t n, int64_t rows) const;
  void run_crossed(const loop2d_t& loop, char** ptrs, const int64_t* strides,
                   const int64_t* outer_strides, int64_t n, int64_t rows) const;
  void find_crossed_inputs();

  // Outputs 0 and 1 may be converted by blocks; more are rare (none of the
  // operators has two outputs of another dtype than the kernel's).
  static constexpr int kMaxBlockCastOutputs = 2;
  // Crossed inputs (Note [Crossed inputs by tiles] in tensor_iterator.cpp),
  // those whose step along the rows is a multiple of kCrossedStrideBytes:
  // at most kMaxCrossedInputs transposed per tile (others read as they
  // are), in tiles of kCrossedTileRows rows by kCrossedTileBytes of
  // elements, for rows of at least kCrossedMinRow elements.
  static constexpr size_t kMaxCrossedInputs = 2;
  static constexpr int64_t kCrossedTileRows = 16;
  static constexpr int64_t kCrossedTileBytes = 1024;
  static constexpr int64_t kCrossedMinRow = 16;
  static constexpr int64_t kCrossedStrideBytes = 4096;

  const char* name_ = "op";
  size_t noutputs_ = 0;
  SmallVector<Tensor, 4> operands_;  // outputs first, then inputs
  SmallVector<Tensor, 2> outputs_;   // what the user gets
  DimVector shape_;                  // broadcast shape, original order
  int64_t numel_ = 0;
  ScalarType common_dtype_ = ScalarType::Undefined;
  ScalarType kernel_out_dtype_ = ScalarType::Undefined;
  // Per output: the cast from the kernel's dtype into it, nullptr when the
  // kernel writes it directly.
  cast_to_strided_fn out_cast_[kMaxBlockCastOutputs] = {nullptr, nullptr};
  bool any_out_cast_ = false;
  // Iteration geometry after reordering and coalescing (fastest dim first).
  DimVector iter_shape_;
  SmallVector<int64_t, 16> iter_strides_;  // [operand * ndims + dim], bytes
  // The crossed inputs' operand indices (find_crossed_inputs).
  size_t crossed_[kMaxCrossedInputs] = {0, 0};
  size_t ncrossed_ = 0;
};

}  // namespace st::native
