/*
 * The versioned stable C ABI (PyTorch's torch_* shim). Every declaration
 * sits in the block of the stable-ABI level that introduced it, so an
 * extension built with TORCH_TARGET_VERSION set to an older level cannot
 * use (or import) anything that level lacks.
 *
 * Valid C11 and C++; conventions (errors, ownership, handles, threads) are
 * those of torch/csrc/inductor/aoti_torch/c/macros.h. The levels each
 * function belongs to are recorded in c_api/shim_function_versions.txt; a
 * test keeps that file and these blocks equal.
 */
#ifndef STABLE_TORCH_SHIM
#define STABLE_TORCH_SHIM

#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/version.h>

#ifdef __cplusplus
extern "C" {
#endif

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0

/* As aoti_torch_call_dispatcher (same stack, same ownership rule on
 * failure), plus the TORCH_ABI_VERSION of the headers the caller was built
 * with (not its target), so the core can serve the stack as that level
 * encodes it. A version of a level newer than the newest this runtime knows
 * (2.15) fails, naming both, before the stack is read (the caller keeps its
 * arguments). The slot of a present optional the runtime returns is made
 * with operator new: a caller built before 2.13 frees it with delete, a
 * newer one with torch_delete_stable_ivalue. aoti_torch_call_dispatcher is
 * this with build version 2.9.0. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError torch_call_dispatcher(const char* opName, const char* overloadName,
                                                       StableIValue* stack,
                                                       uint64_t extension_build_version);

/* As aoti_torch_library_impl (same failures, same thread-safety),
 * recording the extension's build level; a level newer than the newest
 * this runtime knows (2.15) fails, naming both, and registers nothing. The
 * kernel's optional arguments arrive in slots made with operator new, which
 * it may free with delete (built before 2.13) or torch_delete_stable_ivalue.
 * aoti_torch_library_impl is this with build version 2.9.0. */
AOTI_TORCH_EXPORT AOTITorchError torch_library_impl(TorchLibraryHandle self, const char* name,
                                                    void (*fn)(StableIValue*, uint64_t, uint64_t),
                                                    uint64_t extension_build_version);

/* A list of StableIValues (schema `T[]`). Elements are payloads whose
 * ownership moves with them. */
struct StableListOpaque;
typedef struct StableListOpaque* StableListHandle;

/* The list functions below fail for a NULL, foreign or deleted list_handle
 * (and a handle of another kind). A list is not synchronized: using one
 * list from several threads at once, with any of them changing it, races;
 * distinct lists are independent. */
/* ret: returns new reference to an empty list with room for size items
 * (delete with torch_delete_list). Fails for a NULL ret, a size above
 * 2^40, and when memory runs out. */
AOTI_TORCH_EXPORT AOTITorchError torch_new_list_reserve_size(size_t size, StableListHandle* ret);
/* The number of elements. Fails for a NULL size. */
AOTI_TORCH_EXPORT AOTITorchError torch_list_size(StableListHandle list_handle, size_t* size);
/* element: the payload at index, borrowed: what it refers to (a handle, an
 * optional slot) stays owned by the list, valid until the item is replaced
 * or the list is deleted. Fails for a NULL element or an index out of
 * range. */
AOTI_TORCH_EXPORT AOTITorchError torch_list_get_item(StableListHandle list_handle, size_t index,
                                                     StableIValue* element);
/* Stores element at index: the list takes ownership of what it refers to.
 * The payload it replaces is not released (the list does not know its
 * element type): if that payload owned something, the caller takes it
 * back and must release it (read it with torch_list_get_item first). Fails
 * for an index out of range; element then stays the caller's. */
AOTI_TORCH_EXPORT AOTITorchError torch_list_set_item(StableListHandle list_handle, size_t index,
                                                     StableIValue element);
/* Appends element; the list takes ownership of what it refers to. On
 * failure (out of memory) element stays the caller's. */
AOTI_TORCH_EXPORT AOTITorchError torch_list_push_back(StableListHandle list_handle,
                                                      StableIValue element);
/* Deletes the list, not the objects its payloads may refer to (the list
 * does not know their type; a receiver that knows the schema releases
 * them). NULL is a harmless no-op; a foreign, deleted or other-kind handle
 * fails. */
AOTI_TORCH_EXPORT AOTITorchError torch_delete_list(StableListHandle list_handle);

/* Parses "cpu", "cuda:1", "privateuseone:0", ... into a device-type code
 * and index (-1 when the string has none; 0 for "cpu:0"). Fails for a
 * NULL device_string or out-parameter and a string that names no
 * supported device; the outputs are then untouched. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError torch_parse_device_string(const char* device_string,
                                                           uint32_t* out_device_type,
                                                           int32_t* out_device_index);

/* Intra-op parallelism on the core's thread pool: func(begin, end, ctx) is
 * called on disjoint chunks of [begin, end) of at least grain_size items;
 * nested calls run inline; begin >= end calls nothing. Fails, before func
 * runs, for a NULL func, a negative grain_size, or a range with more than
 * INT64_MAX items (end - begin overflows int64). Thread-safe. */
typedef void (*ParallelFunc)(int64_t begin, int64_t end, void* ctx);
AOTI_TORCH_EXPORT AOTITorchError torch_parallel_for(int64_t begin, int64_t end, int64_t grain_size,
                                                    ParallelFunc func, void* ctx);
/* The calling thread's index in the core's thread pool, 0 outside a
 * parallel region. Fails only for a NULL out_thread_idx. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError torch_get_thread_idx(uint32_t* out_thread_idx);
/* The number of threads torch_parallel_for may use. Fails only for a NULL
 * out_num_threads. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError torch_get_num_threads(uint32_t* out_num_threads);

/* As aoti_torch_get_mutable_data_ptr / aoti_torch_get_const_data_ptr
 * (same failures). ret_data_ptr: returns borrowed reference, valid while
 * the tensor's storage lives. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError torch_get_mutable_data_ptr(AtenTensorHandle tensor,
                                                            void** ret_data_ptr);
AOTI_TORCH_EXPORT AOTITorchError torch_get_const_data_ptr(AtenTensorHandle tensor,
                                                          const void** ret_data_ptr);

/* A string (schema `str`): bytes and a length; may hold NULs. */
struct StringOpaque;
typedef struct StringOpaque* StringHandle;

/* handle: returns new reference holding a copy of data[0..length) (delete
 * with torch_delete_string). data may be NULL only when length is 0.
 * Fails for a NULL handle and when memory runs out. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError torch_new_string_handle(const char* data, size_t length,
                                                         StringHandle* handle);
/* NULL is a harmless no-op; a foreign, deleted or other-kind handle fails.
 * Races with every other use of the handle. */
AOTI_TORCH_EXPORT AOTITorchError torch_delete_string(StringHandle handle);
/* The length in bytes. Fails for a bad handle or a NULL length.
 * Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError torch_string_length(StringHandle handle, size_t* length);
/* data: returns borrowed reference, NUL-terminated, valid while the handle
 * lives. Fails for a bad handle or a NULL data. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError torch_string_c_str(StringHandle handle, const char** data);

/* CUDA helpers (declared and exported in every build; a core without CUDA
 * fails with "this core was built without CUDA", with CUDA but no GPU
 * "no cuda device is available"). device_index: -1 (the current device)
 * or a device the process has. Thread-safe. */
/* ret_handle: returns borrowed cublasHandle_t of the current device and
 * thread, valid until the thread exits. Fails for a NULL ret_handle. */
AOTI_TORCH_EXPORT AOTITorchError torch_get_current_cuda_blas_handle(void** ret_handle);
/* Makes `stream` (a cudaStream_t of device_index, borrowed) the current
 * stream of that device for the calling thread. */
AOTI_TORCH_EXPORT AOTITorchError torch_set_current_cuda_stream(void* stream, int32_t device_index);
/* ret_stream: returns borrowed cudaStream_t from the device's pool (never
 * destroyed). Fails for a NULL ret_stream or a bad index. */
AOTI_TORCH_EXPORT AOTITorchError torch_get_cuda_stream_from_pool(bool isHighPriority,
                                                                 int32_t device_index,
                                                                 void** ret_stream);
/* Waits until the work queued on `stream` has finished; fails with the
 * CUDA error if the work failed. */
AOTI_TORCH_EXPORT AOTITorchError torch_cuda_stream_synchronize(void* stream, int32_t device_index);
/* Describes a CUDA error code without throwing (needs no device).
 * *error_msg: returns new reference (free with
 * torch_c10_cuda_free_error_msg), NULL for success. Fails for a NULL
 * error_msg. */
AOTI_TORCH_EXPORT AOTITorchError torch_c10_cuda_check_msg(int32_t err, const char* filename,
                                                          const char* function_name,
                                                          uint32_t line_number,
                                                          bool include_device_assertions,
                                                          char** error_msg);
/* Frees a message from torch_c10_cuda_check_msg. NULL is a harmless
 * no-op. Returns nothing, never fails; thread-safe. */
AOTI_TORCH_EXPORT void torch_c10_cuda_free_error_msg(char* error_msg);

/* This core has no autograd: setting true fails with a message saying so;
 * setting false succeeds. Fails for a NULL, foreign or deleted handle and
 * an undefined tensor. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError torch_set_requires_grad(AtenTensorHandle tensor,
                                                         bool requires_grad);

#endif /* TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0 */

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0

/* Codes of the dtypes added at 2.11 (c10 ordinals). Pure, never fail,
 * thread-safe. */
AOTI_TORCH_EXPORT int32_t torch_dtype_float8_e8m0fnu(void);
AOTI_TORCH_EXPORT int32_t torch_dtype_float4_e2m1fn_x2(void);

/* Wraps data without copying; deleter(data, deleter_ctx) runs when the
 * last tensor viewing it dies (NULL deleter: caller keeps ownership). With
 * data == NULL, allocates like empty_strided. ret: returns new reference.
 * Fails as aoti_torch_create_tensor_from_blob does (a misaligned data
 * pointer and a NULL ret included), and for a layout other than strided or
 * non-empty opaque metadata; on failure the deleter is not run. The
 * deleter may run on any thread (the one dropping the last reference).
 * Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError torch_from_blob(
    void* data, int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr,
    int64_t storage_offset, int32_t dtype, int32_t device_type, int32_t device_index,
    AtenTensorHandle* ret, int32_t layout, const uint8_t* opaque_metadata,
    int64_t opaque_metadata_size, void (*deleter)(void* data, void* ctx), void* deleter_ctx);

#endif /* TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0 */

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0

/* Codes of the operator tags (torch::headeronly::Tag), for
 * torch_library_def_with_tags and the StableIValue of a Tag: use these,
 * never the enum's ordinals. Tag::inplace and Tag::out have no getter (as
 * in PyTorch). Pure: never fail; thread-safe. */
AOTI_TORCH_EXPORT int32_t torch_tag_core(void);
AOTI_TORCH_EXPORT int32_t torch_tag_cudagraph_unsafe(void);
AOTI_TORCH_EXPORT int32_t torch_tag_data_dependent_output(void);
AOTI_TORCH_EXPORT int32_t torch_tag_dynamic_output_shape(void);
AOTI_TORCH_EXPORT int32_t torch_tag_flexible_layout(void);
AOTI_TORCH_EXPORT int32_t torch_tag_generated(void);
AOTI_TORCH_EXPORT int32_t torch_tag_inplace_view(void);
AOTI_TORCH_EXPORT int32_t torch_tag_maybe_aliasing_or_mutating(void);
AOTI_TORCH_EXPORT int32_t torch_tag_needs_contiguous_strides(void);
AOTI_TORCH_EXPORT int32_t torch_tag_needs_exact_strides(void);
AOTI_TORCH_EXPORT int32_t torch_tag_needs_fixed_stride_order(void);
AOTI_TORCH_EXPORT int32_t torch_tag_nondeterministic_bitwise(void);
AOTI_TORCH_EXPORT int32_t torch_tag_nondeterministic_seeded(void);
AOTI_TORCH_EXPORT int32_t torch_tag_out_variant(void);
AOTI_TORCH_EXPORT int32_t torch_tag_pointwise(void);
AOTI_TORCH_EXPORT int32_t torch_tag_pt2_compliant_tag(void);
AOTI_TORCH_EXPORT int32_t torch_tag_reduction(void);
AOTI_TORCH_EXPORT int32_t torch_tag_view_copy(void);

/* As aoti_torch_library_def, and the operator carries tags[0..num_tags)
 * (codes from the torch_tag_* getters, kept in order; `stabletorch ops`
 * shows them). tags may be NULL when num_tags is 0. Fails, defining
 * nothing, as aoti_torch_library_def does, and for num_tags < 0 or > 64,
 * NULL tags with num_tags > 0, and a code that is no tag (the error names
 * its position and value). tags is read during the call only. Thread-safe:
 * registration is serialized inside the core. */
AOTI_TORCH_EXPORT AOTITorchError torch_library_def_with_tags(TorchLibraryHandle self,
                                                             const char* schema,
                                                             const int32_t* tags, int32_t num_tags);

#endif /* TORCH_FEATURE_VERSION >= TORCH_VERSION_2_12_0 */

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0

/* Declares that the operators self defines from now on have Python-side
 * pieces (e.g. fake kernels) in Python module pymodule; context is free
 * text (NULL reads as ""). Stored with each later def (earlier defs keep
 * what they had); the error for a missing kernel of such an operator then
 * says to import the module, and `stabletorch ops` shows it. Both strings
 * are copied. Fails for a NULL, foreign or deleted self and a NULL or empty
 * pymodule. Thread-safe for distinct libraries; calls on one library must
 * not race with its defs. */
AOTI_TORCH_EXPORT AOTITorchError torch_library_set_python_module(TorchLibraryHandle self,
                                                                 const char* pymodule,
                                                                 const char* context);

/* The calling thread's last error: "what" (message and context) and the
 * message alone. Returns borrowed reference, never NULL; valid until the
 * thread's next failure or exit. Empty string when no failure happened
 * yet. Never fail; thread-safe (each thread reads its own). */
AOTI_TORCH_EXPORT const char* torch_exception_get_what(void);
AOTI_TORCH_EXPORT const char* torch_exception_get_what_without_backtrace(void);

/* A heap StableIValue slot (the payload of a present optional), set to 0.
 * ret_value: returns new reference; free with torch_delete_stable_ivalue or
 * hand it to the core inside a stack, which frees it. The core tracks the
 * slots it hands out (thread-safe), so that one freed by either way and
 * then used or freed again is an error while its memory waits in the
 * core's quarantine (the last 1024 freed). Fails for a NULL ret_value and
 * when memory runs out. */
AOTI_TORCH_EXPORT AOTITorchError torch_new_stable_ivalue(StableIValue** ret_value);
/* Frees a slot from torch_new_stable_ivalue, or one an extension made with
 * `new StableIValue` (same allocator). NULL is a harmless no-op, as for
 * every delete function. Fails, freeing nothing, for a handle of any kind (live or deleted: delete
 * it with its own function), a value that cannot be a heap pointer, and a tracked slot already
 * freed. Not detectable: an untracked aligned address that is no slot (freed with operator delete
 * regardless), a tracked slot freed again after 1024 later frees. Thread-safe; freeing one slot
 * from two threads at once is invalid. */
AOTI_TORCH_EXPORT AOTITorchError torch_delete_stable_ivalue(StableIValue* value);

/* Generators (schema `Generator`). An AtenGeneratorHandle is one owning
 * reference to a random-number generator; references made from one
 * another share its state (seed and position), so draws through any of
 * them advance all. On a stack a Generator is a handle the receiver
 * steals. Drawing locks the generator, so one generator may be used from
 * several threads; these functions are thread-safe.
 *
 * ret_new_generator: returns new reference to the generator `self` refers
 * to (free with torch_delete_generator). Fails for a NULL, foreign or
 * deleted handle, or a NULL ret_new_generator. */
AOTI_TORCH_EXPORT AOTITorchError torch_new_generator_handle(AtenGeneratorHandle self,
                                                            AtenGeneratorHandle* ret_new_generator);
/* Deletes one reference; the generator dies with its last one. NULL is a
 * harmless no-op. Fails, deleting nothing, for a foreign or already
 * deleted handle or a handle of another kind. */
AOTI_TORCH_EXPORT AOTITorchError torch_delete_generator(AtenGeneratorHandle generator);
/* The generator's device: its type code (aoti_torch_device_type_*()) and
 * index (-1 for the CPU). Fails for a bad handle or a NULL out-pointer. */
AOTI_TORCH_EXPORT AOTITorchError torch_generator_get_device(AtenGeneratorHandle generator,
                                                            int32_t* ret_device_type,
                                                            int32_t* ret_device_index);

/* The backend's own object for stream (CUDA: its cudaStream_t; NULL for
 * the default stream, as CUDA's). *ret_native_handle: returns borrowed
 * reference, valid while the device's runtime lives (the process). Fails,
 * leaving it unchanged, for a CPU stream (the CPU has none, as in PyTorch),
 * a NULL, foreign or deleted stream, and a NULL ret_native_handle.
 * Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError torch_stream_native_handle(StreamHandle stream,
                                                            void** ret_native_handle);

#endif /* TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0 */

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_14_0

/* *ret_has_storage: whether tensor has a storage: false for an undefined
 * tensor and for one made without storage, true for every tensor the
 * factories, views and from_blob make (also with 0 elements). Fails for a
 * NULL, foreign or deleted handle and a NULL ret_has_storage. Thread-safe
 * as any read of a tensor. */
AOTI_TORCH_EXPORT AOTITorchError torch_has_storage(AtenTensorHandle tensor, bool* ret_has_storage);

/* Python interop. A PyObject* crosses as void*, so this header needs no
 * Python.h, and the library links no Python: the conversions come from the
 * stabletorch Python module, which registers them when it is imported.
 * Before `import stabletorch` has run in the process (or in a process
 * without Python) every function below fails, saying so. The objects are
 * stabletorch.Tensor (or a subclass), stabletorch.dtype, stabletorch.device.
 * The calling thread must hold the GIL; a call without it fails. Thread-
 * safe under that rule. A NULL py_obj or output pointer fails; on failure
 * the outputs are untouched and no reference is taken or leaked. */

/* ret: returns new reference: a handle to the TensorImpl that the Python
 * tensor py_obj holds (shared, not copied; py_obj is only borrowed). Fails
 * when py_obj is not a stabletorch.Tensor. */
AOTI_TORCH_EXPORT AOTITorchError torch_tensor_from_pyobject(void* py_obj, AtenTensorHandle* ret);

/* ret: returns new reference (a PyObject*): a new stabletorch.Tensor
 * sharing ath's TensorImpl; ath stays the caller's. py_type: NULL for
 * stabletorch.Tensor, or a PyTypeObject* of a subclass of it, which the
 * result then has exactly. Fails for an invalid handle and for a py_type
 * that is not stabletorch.Tensor or a subclass. */
AOTI_TORCH_EXPORT AOTITorchError torch_tensor_to_pyobject(AtenTensorHandle ath, void* py_type,
                                                          void** ret);

#endif /* TORCH_FEATURE_VERSION >= TORCH_VERSION_2_14_0 */

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_15_0

/* More Python interop, under the rules of the 2.14 block above. */

/* ret: whether py_obj (borrowed, any Python object) is a stabletorch.Tensor
 * or an instance of a subclass: a check before torch_tensor_from_pyobject,
 * which fails for anything else. */
AOTI_TORCH_EXPORT AOTITorchError torch_is_tensor_pyobject(void* py_obj, bool* ret);

/* ret_dtype: the dtype code (aoti_torch_dtype_*() encoding) of the
 * stabletorch.dtype py_obj (borrowed). Fails for any other object. */
AOTI_TORCH_EXPORT AOTITorchError torch_dtype_from_pyobject(void* py_obj, int32_t* ret_dtype);

/* ret: returns new reference (a PyObject*) to the stabletorch.dtype of a
 * dtype code (aoti_torch_dtype_*() encoding): the one object per dtype,
 * so `is` comparisons hold in Python. Fails for an unknown code. */
AOTI_TORCH_EXPORT AOTITorchError torch_dtype_to_pyobject(int32_t dtype, void** ret);

/* ret_device_type, ret_device_index: the device-type code
 * (aoti_torch_device_type_*() encoding) and index (-1 when the device has
 * none) of the stabletorch.device py_obj (borrowed). Fails for any other
 * object. */
AOTI_TORCH_EXPORT AOTITorchError torch_device_from_pyobject(void* py_obj, int32_t* ret_device_type,
                                                            int32_t* ret_device_index);

/* ret: returns new reference (a PyObject*) to a new stabletorch.device of a
 * device-type code and an index (-1 for none). Fails for an unknown type
 * code or an index outside -1..127 (a CPU device takes -1 or 0). */
AOTI_TORCH_EXPORT AOTITorchError torch_device_to_pyobject(int32_t device_type, int32_t device_index,
                                                          void** ret);

#endif /* TORCH_FEATURE_VERSION >= TORCH_VERSION_2_15_0 */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STABLE_TORCH_SHIM */
