/*
 * Fallback shims for aten operators that the stable C++ API (torch/csrc/
 * stable/ops.h) calls directly: one C function per operator overload, with
 * the operator's arguments spelled in C. PyTorch's ops.h calls exactly these
 * names, so a plugin compiled against PyTorch's headers imports them, and
 * one compiled against ours imports the same ones; each runs its operator
 * through the dispatcher, as aoti_torch_call_dispatcher would.
 *
 * Conventions (beyond macros.h):
 *  - An optional argument is a pointer: NULL means "not given", otherwise
 *    the pointee is read (dtype, layout, device type and pin_memory use the
 *    aoti_torch_* codes; pin_memory is 0 or 1). A device is the pair
 *    (*device, device_index_); device_index_ is ignored when device is NULL.
 *  - An int list is (pointer, length): length in [0, 64] (a pad list: [0,
 *    128]), the pointer may be NULL only when the length is 0; the pointer
 *    must hold `length` values (a longer length than the array is a read
 *    past it, which no C function can detect).
 *  - ret0 receives a new reference on success and is untouched on failure;
 *    a NULL ret0 is a failure. Every tensor argument must be a live,
 *    defined tensor handle.
 *  - Thread-safety: as every function of the C ABI (macros.h); an in-place
 *    operator (fill_) races with any other use of the same tensor.
 */
#ifndef AOTI_TORCH_GENERATED_C_SHIM_ATEN_H
#define AOTI_TORCH_GENERATED_C_SHIM_ATEN_H

#include <torch/csrc/inductor/aoti_torch/c/macros.h>
#include <torch/csrc/stable/version.h>

#ifdef __cplusplus
extern "C" {
#endif

/* aten::amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor.
 * Fails for an empty reduced dimension, a dim out of range or repeated, and
 * a complex self. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_aten_amax(AtenTensorHandle self, const int64_t* dim,
                                                      int64_t dim_len_, int32_t keepdim,
                                                      AtenTensorHandle* ret0);

/* aten::fill_.Scalar(Tensor(a!) self, Scalar value): fills self in place
 * with value converted to self's dtype (fails when it does not fit, e.g. a
 * non-integral or out-of-range value for an integer dtype). self keeps its
 * handle; nothing is returned. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_aten_fill__Scalar(AtenTensorHandle self, double value);

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
/* aten::full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None,
 * Layout? layout=None, Device? device=None, bool? pin_memory=None): a new
 * tensor of `size` filled with fill_value; dtype defaults to float32.
 * Fails for a negative size, a size whose byte count overflows, and an
 * unknown code. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_aten_full(const int64_t* size, int64_t size_len_,
                                                      double fill_value, int32_t* dtype,
                                                      int32_t* layout, int32_t* device,
                                                      int32_t device_index_, int32_t* pin_memory,
                                                      AtenTensorHandle* ret0);
#endif /* TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0 */

/* aten::narrow(Tensor(a) self, int dim, SymInt start, SymInt length): a
 * view (ret0 shares self's storage) of `length` items of dim from start; a
 * negative start counts from the end. Fails when the range leaves the
 * dimension. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_aten_narrow(AtenTensorHandle self, int64_t dim,
                                                        int64_t start, int64_t length,
                                                        AtenTensorHandle* ret0);

/* aten::new_empty / aten::new_zeros(Tensor self, SymInt[] size, *, ...): a
 * new tensor of `size`, uninitialised / zeroed, whose dtype and device
 * default to self's. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_aten_new_empty(
    AtenTensorHandle self, const int64_t* size, int64_t size_len_, int32_t* dtype, int32_t* layout,
    int32_t* device, int32_t device_index_, int32_t* pin_memory, AtenTensorHandle* ret0);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_aten_new_zeros(
    AtenTensorHandle self, const int64_t* size, int64_t size_len_, int32_t* dtype, int32_t* layout,
    int32_t* device, int32_t device_index_, int32_t* pin_memory, AtenTensorHandle* ret0);

/* aten::pad(Tensor self, SymInt[] pad, str mode="constant", float? value=None):
 * mode is "constant", "reflect", "replicate" or "circular" (NULL is
 * refused); value, only for "constant", defaults to 0. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_aten_pad(AtenTensorHandle self, const int64_t* pad,
                                                     int64_t pad_len_, const char* mode,
                                                     double* value, AtenTensorHandle* ret0);

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
/* aten::subtract.Tensor(Tensor self, Tensor other, *, Scalar alpha=1):
 * self - alpha * other, broadcast, with type promotion. Fails for bool
 * operands, as aten::sub does. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_aten_subtract_Tensor(AtenTensorHandle self,
                                                                 AtenTensorHandle other,
                                                                 double alpha,
                                                                 AtenTensorHandle* ret0);
#endif /* TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0 */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AOTI_TORCH_GENERATED_C_SHIM_ATEN_H */
