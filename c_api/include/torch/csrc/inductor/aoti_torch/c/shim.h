/*
 * The baseline stable C ABI (PyTorch's aoti_torch_* shim, level 2.9 and
 * earlier, unversioned): constants, tensor handles and metadata, creation,
 * copies, scalars, grad mode, operator libraries, the dispatcher, device
 * guards, streams and the CUDA helpers.
 *
 * Valid C11 and C++. See macros.h for the conventions every function
 * follows (error codes, ownership words, handle validation, threads).
 *
 * Unlike PyTorch, the declared and exported set never depends on build
 * flags: the CUDA functions exist in every core; a core built without CUDA
 * returns AOTI_TORCH_FAILURE with "this core was built without CUDA".
 *
 * Never change a declaration here: add a new function (a `_v2`) instead,
 * in a version block, and record it in c_api/shim_function_versions.txt.
 */
#ifndef AOTI_TORCH_SHIM
#define AOTI_TORCH_SHIM

#include <torch/csrc/inductor/aoti_torch/c/macros.h>
#include <torch/csrc/stable/version.h>

#ifdef __cplusplus
#include <torch/headeronly/util/BFloat16.h>
#include <torch/headeronly/util/Half.h>
#include <torch/headeronly/util/complex.h>
/* In C++ the scalar read-out/wrap functions take the header-only numeric
 * types, as PyTorch's do; in C, layout-identical structs. */
typedef torch::headeronly::Half AOTITorchHalf;
typedef torch::headeronly::BFloat16 AOTITorchBFloat16;
typedef torch::headeronly::complex<float> AOTITorchComplex64;
typedef torch::headeronly::complex<double> AOTITorchComplex128;
#else
typedef struct AOTITorchHalf {
  uint16_t x;
} AOTITorchHalf;
typedef struct AOTITorchBFloat16 {
  uint16_t x;
} AOTITorchBFloat16;
typedef struct AOTITorchComplex64 {
  _Alignas(8) float real_;
  float imag_;
} AOTITorchComplex64;
typedef struct AOTITorchComplex128 {
  _Alignas(16) double real_;
  double imag_;
} AOTITorchComplex128;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Constants ---------------------------------------------------------
 * Each getter below (aoti_torch_device_type_*, aoti_torch_dtype_*,
 * aoti_torch_layout_*, aoti_torch_memory_format_*) returns the code of what
 * it names: c10's ordinal (torch::headeronly enums); the getters exist so
 * callers never hard-code them. They take no argument, never fail, never
 * touch the thread's last error, and may be called from any thread at any
 * time (even before any other call). */
AOTI_TORCH_EXPORT int32_t aoti_torch_device_type_cpu(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_device_type_cuda(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_device_type_meta(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_device_type_xpu(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_device_type_mps(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_device_type_privateuse1(void);

AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_float8_e5m2(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_float8_e4m3fn(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_float8_e5m2fnuz(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_float8_e4m3fnuz(void);
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0
/* The aoti_torch_* spellings of torch_dtype_float8_e8m0fnu and
 * torch_dtype_float4_e2m1fn_x2 (the same codes). */
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_float8_e8m0fnu(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_float4_e2m1fn_x2(void);
#endif /* TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0 */
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_bfloat16(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_float16(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_float32(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_float64(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_uint8(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_uint16(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_uint32(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_uint64(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_int8(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_int16(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_int32(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_int64(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_bool(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_complex32(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_complex64(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_dtype_complex128(void);
/* Bytes per element of a dtype code (a value, no reference). An unknown
 * code returns 0 and sets the calling thread's last error (the only way
 * this function reports failure). Thread-safe. */
AOTI_TORCH_EXPORT size_t aoti_torch_dtype_element_size(int32_t dtype);

AOTI_TORCH_EXPORT int32_t aoti_torch_layout_strided(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_layout_sparse_coo(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_layout_sparse_csr(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_layout_sparse_csc(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_layout_sparse_bsr(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_layout_sparse_bsc(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_layout__mkldnn(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_layout_jagged(void);

AOTI_TORCH_EXPORT int32_t aoti_torch_memory_format_contiguous_format(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_memory_format_channels_last(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_memory_format_channels_last_3d(void);
AOTI_TORCH_EXPORT int32_t aoti_torch_memory_format_preserve_format(void);

/* TORCH_ABI_VERSION of the running core (the stable-ABI level it serves),
 * as opposed to the level an extension was built with. A value; never
 * fails; thread-safe. */
AOTI_TORCH_EXPORT uint64_t aoti_torch_abi_version(void);

/* ---- Scalar read-out ----------------------------------------------------
 * Each aoti_torch_item_<type> writes the value of a one-element tensor,
 * converted to <type>, to *ret_value (a value, no reference). Fails, leaving
 * *ret_value untouched, for a NULL, foreign or deleted tensor handle, an
 * undefined tensor, a tensor with other than one element, a tensor not on
 * the CPU, a NULL ret_value, and an unconvertible dtype (complex to real).
 * Thread-safe; reading races only with a concurrent write of the tensor's
 * data. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_item_float16(AtenTensorHandle tensor,
                                                         AOTITorchHalf* ret_value);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_item_float32(AtenTensorHandle tensor, float* ret_value);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_item_float64(AtenTensorHandle tensor,
                                                         double* ret_value);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_item_uint8(AtenTensorHandle tensor, uint8_t* ret_value);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_item_uint16(AtenTensorHandle tensor,
                                                        uint16_t* ret_value);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_item_uint32(AtenTensorHandle tensor,
                                                        uint32_t* ret_value);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_item_uint64(AtenTensorHandle tensor,
                                                        uint64_t* ret_value);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_item_int8(AtenTensorHandle tensor, int8_t* ret_value);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_item_int16(AtenTensorHandle tensor, int16_t* ret_value);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_item_int32(AtenTensorHandle tensor, int32_t* ret_value);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_item_int64(AtenTensorHandle tensor, int64_t* ret_value);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_item_bool(AtenTensorHandle tensor, bool* ret_value);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_item_bfloat16(AtenTensorHandle tensor,
                                                          AOTITorchBFloat16* ret_value);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_item_complex64(AtenTensorHandle tensor,
                                                           AOTITorchComplex64* ret_value);

/* ---- Scalar to tensor ---------------------------------------------------
 * Each aoti_torch_scalar_to_tensor_<type> makes a new zero-dim CPU tensor
 * of that dtype holding value. ret_new_tensor: returns new reference
 * (delete with aoti_torch_delete_tensor_object). Fails only for a NULL
 * ret_new_tensor or when memory runs out. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError
aoti_torch_scalar_to_tensor_float32(float value, AtenTensorHandle* ret_new_tensor);
AOTI_TORCH_EXPORT AOTITorchError
aoti_torch_scalar_to_tensor_float64(double value, AtenTensorHandle* ret_new_tensor);
AOTI_TORCH_EXPORT AOTITorchError
aoti_torch_scalar_to_tensor_uint8(uint8_t value, AtenTensorHandle* ret_new_tensor);
AOTI_TORCH_EXPORT AOTITorchError
aoti_torch_scalar_to_tensor_uint16(uint16_t value, AtenTensorHandle* ret_new_tensor);
AOTI_TORCH_EXPORT AOTITorchError
aoti_torch_scalar_to_tensor_uint32(uint32_t value, AtenTensorHandle* ret_new_tensor);
AOTI_TORCH_EXPORT AOTITorchError
aoti_torch_scalar_to_tensor_uint64(uint64_t value, AtenTensorHandle* ret_new_tensor);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_scalar_to_tensor_int8(int8_t value,
                                                                  AtenTensorHandle* ret_new_tensor);
AOTI_TORCH_EXPORT AOTITorchError
aoti_torch_scalar_to_tensor_int16(int16_t value, AtenTensorHandle* ret_new_tensor);
AOTI_TORCH_EXPORT AOTITorchError
aoti_torch_scalar_to_tensor_int32(int32_t value, AtenTensorHandle* ret_new_tensor);
AOTI_TORCH_EXPORT AOTITorchError
aoti_torch_scalar_to_tensor_int64(int64_t value, AtenTensorHandle* ret_new_tensor);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_scalar_to_tensor_bool(bool value,
                                                                  AtenTensorHandle* ret_new_tensor);
AOTI_TORCH_EXPORT AOTITorchError
aoti_torch_scalar_to_tensor_complex64(AOTITorchComplex64 value, AtenTensorHandle* ret_new_tensor);
AOTI_TORCH_EXPORT AOTITorchError
aoti_torch_scalar_to_tensor_complex128(AOTITorchComplex128 value, AtenTensorHandle* ret_new_tensor);

/* ---- Grad mode ----------------------------------------------------------
 * A per-thread flag, true on every new thread, as in PyTorch. This core has
 * no autograd; the flag is kept so extensions can save and restore it. */
/* The calling thread's flag. Never fails; thread-safe (each thread reads
 * its own). */
AOTI_TORCH_EXPORT bool aoti_torch_grad_mode_is_enabled(void);
/* Sets the calling thread's flag only. Never fails; thread-safe. */
AOTI_TORCH_EXPORT void aoti_torch_grad_mode_set_enabled(bool enabled);

/* ---- Tensor handle lifetime ---------------------------------------------
 * A tensor handle is one owning reference to a tensor; several handles may
 * refer to the same tensor, which lives while any of them (or any view of
 * its storage) does. */
/* Deletes one handle (drops its reference; the tensor's memory goes when
 * its last reference does). NULL is a harmless no-op that succeeds, as
 * for every delete function of this ABI; a foreign, already deleted or
 * other-kind handle fails and nothing changes. Thread-safe, but deleting a
 * handle races with every other use of that same handle. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_delete_tensor_object(AtenTensorHandle tensor);
/* new_handle: returns new reference to the same tensor as orig_handle (an
 * undefined tensor included); orig_handle stays the caller's. Fails for a
 * NULL, foreign or deleted orig_handle and a NULL new_handle. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_new_tensor_handle(AtenTensorHandle orig_handle,
                                                              AtenTensorHandle* new_handle);
/* ret: returns new reference to an undefined tensor (aoti_torch_is_defined
 * says false; the other getters fail on it). Fails only for a NULL ret or
 * when memory runs out. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_new_uninitialized_tensor(AtenTensorHandle* ret);
/* Makes dst refer to src's tensor (dst's previous tensor loses that
 * reference); both handles stay owned by their holders. src may be
 * undefined. Fails for a NULL, foreign or deleted src or dst. Races with
 * every other use of dst. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_assign_tensors(AtenTensorHandle src,
                                                           AtenTensorHandle dst);
/* ret_dst: returns new reference to src's tensor (as
 * aoti_torch_new_tensor_handle). Fails for a bad src or a NULL ret_dst.
 * Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_assign_tensors_out(AtenTensorHandle src,
                                                               AtenTensorHandle* ret_dst);

/* ---- Metadata -----------------------------------------------------------
 * Every getter below reads one property of the tensor behind `tensor` into
 * its ret_* out-parameter and fails, leaving it untouched, for a NULL,
 * foreign or deleted handle, a NULL out-parameter, and (all but
 * aoti_torch_is_defined) an undefined tensor. Values are copies unless
 * said otherwise. Thread-safe: reading races only with a concurrent change
 * of the same tensor (assign, an in-place resize). */
/* ret_data_ptr: returns borrowed reference to the first element (storage
 * offset applied), NULL for a tensor without storage; valid while the
 * tensor's storage lives (any handle or view of it). The three spellings
 * differ only in the pointer's constness. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_data_ptr(AtenTensorHandle tensor,
                                                         void** ret_data_ptr);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_mutable_data_ptr(AtenTensorHandle tensor,
                                                                 void** ret_data_ptr);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_const_data_ptr(AtenTensorHandle tensor,
                                                               const void** ret_data_ptr);
/* Size of the underlying storage in bytes (0 without storage). */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_storage_size(AtenTensorHandle tensor,
                                                             int64_t* ret_size);
/* Number of dimensions; number of elements (the product of the sizes). */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_dim(AtenTensorHandle tensor, int64_t* ret_dim);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_numel(AtenTensorHandle tensor, int64_t* ret_numel);
/* Elements the storage can hold (storage bytes / element size). */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_storage_numel(AtenTensorHandle tensor,
                                                              int64_t* ret_numel);
/* ret_sizes / ret_strides: return borrowed references to dim() values,
 * valid while the tensor lives and its metadata is unchanged; never write
 * through them. aoti_torch_get_size / _stride read dimension d, which may
 * be negative (counted from the end, as in PyTorch); a d out of range
 * fails. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_sizes(AtenTensorHandle tensor, int64_t** ret_sizes);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_size(AtenTensorHandle tensor, int64_t d,
                                                     int64_t* ret_size);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_strides(AtenTensorHandle tensor,
                                                        int64_t** ret_strides);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_stride(AtenTensorHandle tensor, int64_t d,
                                                       int64_t* ret_stride);
/* The dtype and device-type codes (as the constant getters return them). */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_dtype(AtenTensorHandle tensor, int32_t* ret_dtype);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_device_type(AtenTensorHandle tensor,
                                                            int32_t* ret_device_type);
/* -1 for CPU tensors, whatever index they were created with. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_device_index(AtenTensorHandle tensor,
                                                             int32_t* ret_device_index);
/* The layout code, the storage offset in elements, and whether the tensor
 * is contiguous in row-major order. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_layout(AtenTensorHandle tensor,
                                                       int32_t* ret_layout);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_storage_offset(AtenTensorHandle tensor,
                                                               int64_t* ret_storage_offset);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_is_contiguous(AtenTensorHandle tensor,
                                                          bool* ret_is_contiguous);
/* Whether the tensor is defined; the one getter that accepts an undefined
 * tensor (the handle itself must still be live). */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_is_defined(AtenTensorHandle tensor,
                                                       bool* ret_is_defined);

/* ---- Creation and views -------------------------------------------------
 * Every ret* parameter below: returns new reference (delete with
 * aoti_torch_delete_tensor_object); a NULL ret fails. sizes_ptr must hold
 * ndim values (NULL only when ndim is 0); strides_ptr NULL means
 * contiguous where noted. Sizes and strides must be non-negative and every
 * byte size is overflow-checked: a bad geometry fails naming the value.
 * An input tensor handle must be live and defined. Thread-safe. */
/* A new uninitialised tensor; strides_ptr NULL: contiguous. Fails for an
 * unknown dtype or device type, a device index the device does not have,
 * and when memory runs out. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_empty_strided(int64_t ndim, const int64_t* sizes_ptr,
                                                          const int64_t* strides_ptr, int32_t dtype,
                                                          int32_t device_type, int32_t device_index,
                                                          AtenTensorHandle* ret_new_tensor);
/* As aoti_torch_empty_strided, in pinned (page-locked) host memory: the
 * operator aten::empty_strided with pin_memory=True. Fails, with that
 * operator's message, while the core has no pinned-memory allocator (today:
 * always, as PyTorch built without CUDA). */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_empty_strided_pinned(
    int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr, int32_t dtype,
    int32_t device_type, int32_t device_index, AtenTensorHandle* ret_new_tensor);
/* A view of self with the given sizes and strides (self's dim count, both
 * arrays required unless self is zero-dim) at self's storage offset. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_as_strided(AtenTensorHandle self,
                                                       const int64_t* sizes_ptr,
                                                       const int64_t* strides_ptr,
                                                       AtenTensorHandle* ret);
/* A view of self's storage with ndim sizes/strides (both required unless
 * ndim is 0) at storage_offset. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch__reinterpret_tensor(AtenTensorHandle self, int64_t ndim,
                                                                const int64_t* sizes_ptr,
                                                                const int64_t* strides_ptr,
                                                                int64_t storage_offset,
                                                                AtenTensorHandle* ret_new_tensor);
/* Wraps caller-owned memory without copying and without a deleter: the
 * memory must outlive every tensor viewing it (the core never frees it). Fails for a data pointer
 * not aligned to the dtype's element alignment (its element size), negative sizes, strides or
 * offset, or an extent whose byte size overflows int64. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_create_tensor_from_blob(
    void* data, int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr,
    int64_t storage_offset, int32_t dtype, int32_t device_type, int32_t device_index,
    AtenTensorHandle* ret);
/* As above with a layout (only strided is supported) and opaque metadata
 * (must be empty: no layout here uses it). */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_create_tensor_from_blob_v2(
    void* data, int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr,
    int64_t storage_offset, int32_t dtype, int32_t device_type, int32_t device_index,
    AtenTensorHandle* ret, int32_t layout, const uint8_t* opaque_metadata,
    int64_t opaque_metadata_size);

/* ---- Copies -------------------------------------------------------------
 * Tensor arguments must be live, defined handles; they stay the caller's.
 * Thread-safe; a copy into a tensor races with any other use of it. */
/* Deprecated spelling of aoti_torch_copy_(dst, src, 0); note the order. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_tensor_copy_(AtenTensorHandle src,
                                                         AtenTensorHandle dst);
/* self.copy_(src): any dtype to any dtype, src broadcast to self; fails
 * when src does not broadcast to self's shape. non_blocking: 0 or not
 * (the CPU copies synchronously either way). */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_copy_(AtenTensorHandle self, AtenTensorHandle src,
                                                  int32_t non_blocking);
/* ret: returns new reference (contiguous copy). */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_clone(AtenTensorHandle self, AtenTensorHandle* ret);
/* ret: returns new reference (copy with self's strides). */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_clone_preserve_strides(AtenTensorHandle self,
                                                                   AtenTensorHandle* ret);
/* Fills self with zeros in place. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_zero_(AtenTensorHandle self);

/* ---- Operator libraries and the dispatcher -----------------------------*/
typedef uint64_t StableIValue;

struct TorchLibraryOpaque;
typedef struct TorchLibraryOpaque* TorchLibraryHandle;

/* Create a library object (IMPL for dispatch key k, DEF, FRAGMENT) for
 * namespace ns; file/line name the place in error messages (file NULL
 * prints as "?"). ret_new_torch_lib: returns new reference; delete it with
 * aoti_torch_delete_library_object, which deregisters what it registered.
 * Fails for a NULL ret_new_torch_lib, a NULL, empty or non-identifier ns,
 * a NULL or unknown k, and a second DEF of one namespace (naming both
 * places). The strings are copied. Thread-safe: registration is serialized
 * inside the core. */
AOTI_TORCH_EXPORT AOTITorchError
aoti_torch_library_init_impl(const char* ns, const char* k, const char* file, uint32_t line,
                             TorchLibraryHandle* ret_new_torch_lib);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_library_init_def(const char* ns, const char* file,
                                                             uint32_t line,
                                                             TorchLibraryHandle* ret_new_torch_lib);
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_library_init_fragment(
    const char* ns, const char* file, uint32_t line, TorchLibraryHandle* ret_new_torch_lib);
/* Registers a boxed kernel fn for operator `name` ("op" or "op.overload")
 * under the library's dispatch key. Fails for a NULL, foreign or deleted
 * self, a NULL name or fn, and a name in another namespace than the
 * library's. name is copied; fn must stay callable until the library
 * object is deleted. Thread-safe: registration is serialized inside the
 * core. fn(stack, num_args, num_outputs) finds
 * num_args arguments on the stack (it steals them) and must leave
 * num_outputs new references in stack[0..num_outputs). The extension is
 * assumed to be built with the running core's level. If fn throws, the
 * core deletes the live handles left in stack[] and the arguments still in
 * place as handed over, except an optional argument's slot (fn may have
 * freed it: it and what it holds then leak). A return the core cannot
 * decode (a bare handle in a `T?` slot, the wrong kind of handle) is an
 * error naming the return, and what fn left is released. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_library_impl(TorchLibraryHandle self, const char* name,
                                                         void (*fn)(StableIValue*, uint64_t,
                                                                    uint64_t));
/* Declares an operator from a schema string (copied). Fails for a NULL,
 * foreign or deleted self, a NULL schema, a schema that does not parse
 * (naming the column), an IMPL library, a name in another namespace than
 * the library's, and an operator already defined. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_library_def(TorchLibraryHandle self,
                                                        const char* schema);
/* Deletes the library object and deregisters everything it registered.
 * NULL is a harmless no-op; a foreign, deleted or other-kind handle fails.
 * Thread-safe; races with every other use of tlh. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_delete_library_object(TorchLibraryHandle tlh);

/* Calls opName.overloadName ("" for the default overload) on a stack of
 * max(num_args, num_returns) StableIValues, arguments in schema order. On
 * success stack[0..num_returns) hold new references to the returns (the
 * caller owns them) and every argument has been consumed.
 *
 * Ownership on failure, one rule (PyTorch's: its dispatcher looks the
 * operator up before it converts any argument): a failure before the
 * operator is found (opName, overloadName or stack NULL, an unknown
 * operator or overload) leaves the stack untouched and the arguments the
 * caller's, to release; once the operator is found, every failure (a bad
 * argument, no kernel for the arguments' device, the kernel's error, a
 * bad return) has released every argument, and stack holds nothing owned.
 * Thread-safe; a kernel may call the dispatcher again.
 *
 * Checked before use: every handle (null, foreign, deleted, wrong kind:
 * an error naming the argument's index, name and schema type), and every
 * optional slot (`T?`: 0, or a pointer to a heap StableIValue): a bare
 * handle, a deleted handle, a value that cannot be a heap pointer
 * (misaligned, below 64 KiB, above 48 bits), one slot in two optional
 * arguments, and a slot from torch_new_stable_ivalue that was already
 * freed are errors. Not
 * detectable: an aligned, plausible address that is no slot (a pointer to
 * the stack, to freed memory, into another object) is read, and freed
 * with operator delete, as a slot. A bare live handle found in any slot is
 * released with the other arguments (it was stolen). */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_call_dispatcher(const char* opName,
                                                            const char* overloadName,
                                                            StableIValue* stack);

/* ---- Device guards and streams (device-generic) ------------------------*/
struct DeviceGuardOpaque;
typedef struct DeviceGuardOpaque* DeviceGuardHandle;

/* ---- Device guards and streams: on the current accelerator (CUDA when a
 * GPU is present), or the CPU's when there is none: then index -1 or 0 is
 * accepted and nothing changes, any other index fails. */
/* Makes device_index current (-1: keep the current one) on the calling
 * thread until the guard is deleted, which restores the previous device.
 * ret_guard: returns new reference (delete it on the thread that created
 * it). Fails for a NULL ret_guard and a device index out of range. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_create_device_guard(int32_t device_index,
                                                                DeviceGuardHandle* ret_guard);
/* Restores the device current before the guard. NULL is a harmless no-op;
 * a foreign or deleted handle fails. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_delete_device_guard(DeviceGuardHandle guard);
/* Makes device_index current while the guard lives; fails for a bad guard
 * or index. Use on the guard's thread only. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_device_guard_set_index(DeviceGuardHandle guard,
                                                                   int32_t device_index);

struct StreamOpaque;
typedef struct StreamOpaque* StreamHandle;

/* Deletes a stream handle (not the stream). NULL is a harmless no-op; a
 * foreign or deleted handle fails. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_delete_stream(StreamHandle stream);
/* The stream's id (0: the default stream). Fails for a bad handle or a
 * NULL ret_stream_id. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_stream_id(StreamHandle stream, int64_t* ret_stream_id);
/* ret_stream: returns new reference to a snapshot of the current stream of
 * device_index (-1: the current device); later stream changes do not alter
 * it. Fails for a NULL ret_stream and an index out of range. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_current_stream(int32_t device_index,
                                                               StreamHandle* ret_stream);
/* The calling thread's current device index (-1 without an accelerator).
 * Fails only for a NULL ret_device_index. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_current_device_index(int32_t* ret_device_index);

/* ---- CUDA (declared and exported in every build) ------------------------
 * In a core built without CUDA every function below fails with "this core
 * was built without CUDA", except that the delete functions take NULL as a
 * harmless no-op there too. With CUDA, the first call loads the CUDA
 * backend (libstabletorch_cuda.so beside the core); when it or a CUDA
 * library it needs cannot be loaded they fail with "CUDA is not available:
 * ..."; with no GPU, with "no cuda device is available". A device_index is -1 (the current device)
 * or a device the process has; anything else fails naming it. Guards act on the calling thread
 * (delete them on the thread that created them); the other functions are thread-safe. */
struct CUDAGuardOpaque;
typedef struct CUDAGuardOpaque* CUDAGuardHandle;
struct CUDAStreamGuardOpaque;
typedef struct CUDAStreamGuardOpaque* CUDAStreamGuardHandle;

/* Makes CUDA device device_index current until deleted. ret_guard: returns
 * new reference. Fails for a NULL ret_guard or a bad index. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_create_cuda_guard(int32_t device_index,
                                                              CUDAGuardHandle* ret_guard);
/* Restores the device current before the guard. NULL is a harmless no-op;
 * a foreign or deleted handle fails. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_delete_cuda_guard(CUDAGuardHandle guard);
/* Makes device_index current while the guard lives; fails for a bad guard
 * or index. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_cuda_guard_set_index(CUDAGuardHandle guard,
                                                                 int32_t device_index);
/* Makes `stream` (a cudaStream_t of device_index, borrowed: the caller
 * keeps it alive) current until deleted. ret_guard: returns new reference.
 * Fails for a NULL ret_guard or a bad index. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_create_cuda_stream_guard(
    void* stream, int32_t device_index, CUDAStreamGuardHandle* ret_guard);
/* Restores the stream and device current before the guard. NULL is a
 * harmless no-op; a foreign or deleted handle fails. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_delete_cuda_stream_guard(CUDAStreamGuardHandle guard);
/* ret_stream: returns borrowed cudaStream_t, the current stream of the
 * device; it lives as long as the process (pool and default streams are
 * never destroyed). Fails for a NULL ret_stream or a bad index. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_get_current_cuda_stream(int32_t device_index,
                                                                    void** ret_stream);
/* nbytes of device memory on the current device, from the caching
 * allocator, associated with the current stream. ret_ptr: returns new
 * reference (free with aoti_torch_cuda_caching_allocator_raw_delete).
 * Fails for a NULL ret_ptr, no device, and when device memory runs out. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_cuda_caching_allocator_raw_alloc(uint64_t nbytes,
                                                                             void** ret_ptr);
/* Gives memory from raw_alloc back to the caching allocator. NULL is a
 * harmless no-op; a pointer the allocator did not hand out fails. */
AOTI_TORCH_EXPORT AOTITorchError aoti_torch_cuda_caching_allocator_raw_delete(void* ptr);

/* ---- Diagnostics -------------------------------------------------------*/
/* Delivers a warning "msg" naming func and file:line through the core's
 * warning handler (NULL strings print as "" for msg and "?" otherwise).
 * Returns nothing and never fails; thread-safe (one process-wide handler,
 * stderr by default). The strings are read during the call only. */
AOTI_TORCH_EXPORT void aoti_torch_warn(const char* func, const char* file, uint32_t line,
                                       const char* msg);

/* A failed check inside C++ kernel code: when cond is false, THROWS a
 * std::runtime_error whose message is msg followed by where it failed
 * (func, file:line; NULL strings print as "?"), as PyTorch's does. It is
 * the one function of this ABI that throws: it exists for C++ code running
 * under a boundary that catches (a kernel, whose error then reaches the
 * caller of the operator). Never call it with cond false from C, or from
 * C++ with no handler above it. When cond is true it does nothing.
 * Thread-safe. */
AOTI_TORCH_EXPORT void aoti_torch_check(bool cond, const char* func, const char* file,
                                        uint32_t line, const char* msg);

#ifdef __cplusplus
} /* extern "C" */

#include <torch/headeronly/util/Exception.h>

/* AOTI_TORCH_CHECK(cond, message parts...): throws through aoti_torch_check
 * when cond is false (C++ only). AOTI_TORCH_WARN(message): a warning naming
 * the function, file and line; -DDISABLE_WARN drops it. */
#define AOTI_TORCH_CHECK(cond, ...)                                                      \
  if (!(cond)) {                                                                         \
    aoti_torch_check(false, __func__, __FILE__, static_cast<uint32_t>(__LINE__),         \
                     ::torch::headeronly::detail::check_message(                         \
                         "Expected " #cond " to be true, but got false.", ##__VA_ARGS__) \
                         .c_str());                                                      \
  }
#ifdef DISABLE_WARN
#define AOTI_TORCH_WARN(...) ((void)0);
#else
#define AOTI_TORCH_WARN(...) \
  aoti_torch_warn(__func__, __FILE__, static_cast<uint32_t>(__LINE__), #__VA_ARGS__);
#endif

/* The dtype code of a C++ element type (C++ only, header inline). */
template <typename T>
int32_t aoti_torch_dtype() = delete;
template <>
inline int32_t aoti_torch_dtype<torch::headeronly::BFloat16>() {
  return aoti_torch_dtype_bfloat16();
}
template <>
inline int32_t aoti_torch_dtype<torch::headeronly::Half>() {
  return aoti_torch_dtype_float16();
}
template <>
inline int32_t aoti_torch_dtype<torch::headeronly::complex<float>>() {
  return aoti_torch_dtype_complex64();
}
template <>
inline int32_t aoti_torch_dtype<torch::headeronly::complex<double>>() {
  return aoti_torch_dtype_complex128();
}
template <>
inline int32_t aoti_torch_dtype<float>() {
  return aoti_torch_dtype_float32();
}
template <>
inline int32_t aoti_torch_dtype<double>() {
  return aoti_torch_dtype_float64();
}
template <>
inline int32_t aoti_torch_dtype<uint8_t>() {
  return aoti_torch_dtype_uint8();
}
template <>
inline int32_t aoti_torch_dtype<int8_t>() {
  return aoti_torch_dtype_int8();
}
template <>
inline int32_t aoti_torch_dtype<int16_t>() {
  return aoti_torch_dtype_int16();
}
template <>
inline int32_t aoti_torch_dtype<int32_t>() {
  return aoti_torch_dtype_int32();
}
template <>
inline int32_t aoti_torch_dtype<int64_t>() {
  return aoti_torch_dtype_int64();
}
template <>
inline int32_t aoti_torch_dtype<bool>() {
  return aoti_torch_dtype_bool();
}
#endif

#endif /* AOTI_TORCH_SHIM */
