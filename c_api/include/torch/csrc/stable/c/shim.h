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

/* As aoti_torch_call_dispatcher, plus the TORCH_ABI_VERSION of the headers
 * the caller was built with (not its target), so the core can adapt the
 * stack of an operator whose schema grew since. A version of a newer level
 * than the runtime's TORCH_ABI_VERSION fails, naming both, before the stack
 * is read (the caller keeps its arguments). */
AOTI_TORCH_EXPORT AOTITorchError torch_call_dispatcher(const char* opName, const char* overloadName, StableIValue* stack, uint64_t extension_build_version);

/* As aoti_torch_library_impl, recording the extension's build level; a
 * level newer than the runtime's TORCH_ABI_VERSION fails, naming both. */
AOTI_TORCH_EXPORT AOTITorchError torch_library_impl(TorchLibraryHandle self, const char* name, void (*fn)(StableIValue*, uint64_t, uint64_t), uint64_t extension_build_version);

/* A list of StableIValues (schema `T[]`). Elements are payloads whose
 * ownership moves with them. */
struct StableListOpaque;
typedef struct StableListOpaque* StableListHandle;

/* ret: returns new reference to an empty list with room for size items. */
AOTI_TORCH_EXPORT AOTITorchError torch_new_list_reserve_size(size_t size, StableListHandle* ret);
AOTI_TORCH_EXPORT AOTITorchError torch_list_size(StableListHandle list_handle, size_t* size);
/* element: the payload at index (ownership stays with the list). */
AOTI_TORCH_EXPORT AOTITorchError torch_list_get_item(StableListHandle list_handle, size_t index, StableIValue* element);
AOTI_TORCH_EXPORT AOTITorchError torch_list_set_item(StableListHandle list_handle, size_t index, StableIValue element);
AOTI_TORCH_EXPORT AOTITorchError torch_list_push_back(StableListHandle list_handle, StableIValue element);
/* Deletes the list (not the objects its payloads may refer to). */
AOTI_TORCH_EXPORT AOTITorchError torch_delete_list(StableListHandle list_handle);

/* Parses "cpu", "cuda:1", "privateuseone:0", ... into a device-type code
 * and index (-1 when the string has none). */
AOTI_TORCH_EXPORT AOTITorchError torch_parse_device_string(const char* device_string, uint32_t* out_device_type, int32_t* out_device_index);

/* Intra-op parallelism on the core's thread pool: func(begin, end, ctx) is
 * called on disjoint chunks of [begin, end) of at least grain_size items;
 * nested calls run inline; begin >= end calls nothing. Fails, before func
 * runs, for a NULL func, a negative grain_size, or a range with more than
 * INT64_MAX items (end - begin overflows int64). Thread-safe. */
typedef void (*ParallelFunc)(int64_t begin, int64_t end, void* ctx);
AOTI_TORCH_EXPORT AOTITorchError torch_parallel_for(int64_t begin, int64_t end, int64_t grain_size, ParallelFunc func, void* ctx);
/* 0 outside a parallel region. */
AOTI_TORCH_EXPORT AOTITorchError torch_get_thread_idx(uint32_t* out_thread_idx);
AOTI_TORCH_EXPORT AOTITorchError torch_get_num_threads(uint32_t* out_num_threads);

/* ret_data_ptr: returns borrowed reference. */
AOTI_TORCH_EXPORT AOTITorchError torch_get_mutable_data_ptr(AtenTensorHandle tensor, void** ret_data_ptr);
AOTI_TORCH_EXPORT AOTITorchError torch_get_const_data_ptr(AtenTensorHandle tensor, const void** ret_data_ptr);

/* A string (schema `str`): bytes and a length; may hold NULs. */
struct StringOpaque;
typedef struct StringOpaque* StringHandle;

/* handle: returns new reference holding a copy of data[0..length). */
AOTI_TORCH_EXPORT AOTITorchError torch_new_string_handle(const char* data, size_t length, StringHandle* handle);
AOTI_TORCH_EXPORT AOTITorchError torch_delete_string(StringHandle handle);
AOTI_TORCH_EXPORT AOTITorchError torch_string_length(StringHandle handle, size_t* length);
/* data: returns borrowed reference, NUL-terminated, valid while the handle
 * lives. */
AOTI_TORCH_EXPORT AOTITorchError torch_string_c_str(StringHandle handle, const char** data);

/* CUDA helpers (declared and exported in every build; a core without CUDA
 * fails with "this core was built without CUDA"). */
AOTI_TORCH_EXPORT AOTITorchError torch_get_current_cuda_blas_handle(void** ret_handle);
AOTI_TORCH_EXPORT AOTITorchError torch_set_current_cuda_stream(void* stream, int32_t device_index);
AOTI_TORCH_EXPORT AOTITorchError torch_get_cuda_stream_from_pool(bool isHighPriority, int32_t device_index, void** ret_stream);
AOTI_TORCH_EXPORT AOTITorchError torch_cuda_stream_synchronize(void* stream, int32_t device_index);
/* Describes a CUDA error code without throwing. *error_msg: returns new
 * reference (free with torch_c10_cuda_free_error_msg), NULL for success. */
AOTI_TORCH_EXPORT AOTITorchError torch_c10_cuda_check_msg(int32_t err, const char* filename, const char* function_name, uint32_t line_number, bool include_device_assertions, char** error_msg);
AOTI_TORCH_EXPORT void torch_c10_cuda_free_error_msg(char* error_msg);

/* This core has no autograd: setting true fails with a message saying so;
 * setting false succeeds. */
AOTI_TORCH_EXPORT AOTITorchError torch_set_requires_grad(AtenTensorHandle tensor, bool requires_grad);

#endif /* TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0 */

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0

/* Codes of the dtypes added at 2.11 (c10 ordinals). Pure, never fail. */
AOTI_TORCH_EXPORT int32_t torch_dtype_float8_e8m0fnu(void);
AOTI_TORCH_EXPORT int32_t torch_dtype_float4_e2m1fn_x2(void);

/* Wraps data without copying; deleter(data, deleter_ctx) runs when the
 * last tensor viewing it dies (NULL deleter: caller keeps ownership). With
 * data == NULL, allocates like empty_strided. ret: returns new reference.
 * Fails as aoti_torch_create_tensor_from_blob does (a misaligned data
 * pointer included); on failure the deleter is not run. */
AOTI_TORCH_EXPORT AOTITorchError torch_from_blob(void* data, int64_t ndim, const int64_t* sizes_ptr, const int64_t* strides_ptr, int64_t storage_offset, int32_t dtype, int32_t device_type, int32_t device_index, AtenTensorHandle* ret, int32_t layout, const uint8_t* opaque_metadata, int64_t opaque_metadata_size, void (*deleter)(void* data, void* ctx), void* deleter_ctx);

#endif /* TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0 */

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0

/* The calling thread's last error: "what" (message and context) and the
 * message alone. Borrowed; valid until the thread's next failure or exit.
 * Empty string when no failure happened yet. */
AOTI_TORCH_EXPORT const char* torch_exception_get_what(void);
AOTI_TORCH_EXPORT const char* torch_exception_get_what_without_backtrace(void);

/* A heap StableIValue slot (the payload of a present optional), set to 0.
 * ret_value: returns new reference; free with torch_delete_stable_ivalue or
 * hand it to the core inside a stack, which frees it. The core tracks the
 * slots it hands out (thread-safe), so that one freed by either way and
 * then used or freed again is an error while its memory waits in the
 * core's quarantine (the last 1024 freed). */
AOTI_TORCH_EXPORT AOTITorchError torch_new_stable_ivalue(StableIValue** ret_value);
/* Frees a slot from torch_new_stable_ivalue, or one an extension made with
 * `new StableIValue` (same allocator). Fails, freeing nothing, for NULL, a
 * handle of any kind (live or deleted: delete it with its own function),
 * a value that cannot be a heap pointer, and a tracked slot already freed.
 * Not detectable: an untracked aligned address that is no slot (freed
 * with operator delete regardless), a tracked slot freed again after 1024
 * later frees. Thread-safe; freeing one slot from two threads at once is
 * invalid. */
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
AOTI_TORCH_EXPORT AOTITorchError torch_new_generator_handle(AtenGeneratorHandle self, AtenGeneratorHandle* ret_new_generator);
/* Deletes one reference; the generator dies with its last one. NULL is a
 * harmless no-op. Fails, deleting nothing, for a foreign or already
 * deleted handle or a handle of another kind. */
AOTI_TORCH_EXPORT AOTITorchError torch_delete_generator(AtenGeneratorHandle generator);
/* The generator's device: its type code (aoti_torch_device_type_*()) and
 * index (-1 for the CPU). Fails for a bad handle or a NULL out-pointer. */
AOTI_TORCH_EXPORT AOTITorchError torch_generator_get_device(AtenGeneratorHandle generator, int32_t* ret_device_type, int32_t* ret_device_index);

#endif /* TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0 */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STABLE_TORCH_SHIM */
