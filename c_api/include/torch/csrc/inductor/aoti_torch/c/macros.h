/*
 * Core types of the stable C ABI: error codes, opaque handles, the export
 * macro and StableIValue. Valid C11 and C++; nothing here depends on how the
 * core was built.
 *
 * Conventions for every function of the C ABI:
 *  - The return value is AOTI_TORCH_SUCCESS (0) or AOTI_TORCH_FAILURE (1).
 *    On failure the out-parameters are untouched and the calling thread's
 *    last error message (torch_exception_get_what()) says which function
 *    failed and why. No C++ exception ever crosses a C function.
 *  - Out-parameters are documented "returns new reference" (the caller owns
 *    the result and must delete it) or "returns borrowed reference" (valid
 *    while the source object lives and is not modified).
 *  - Handles are validated on every use: a null, foreign or already deleted
 *    handle is reported as such, never dereferenced blindly.
 *  - NULL: a NULL handle or out-parameter fails, naming it, unless the
 *    declaration says otherwise. Every delete function (aoti_torch_delete_*,
 *    torch_delete_*, stabletorch_delete_*, the CUDA raw_delete) takes NULL
 *    as a harmless no-op that succeeds, as PyTorch's (a `delete` of null).
 *  - Strings and arrays passed in are read during the call only (copied
 *    when kept), unless the declaration says otherwise.
 *  - Thread-safety: every function may be called from any thread. Distinct
 *    handles are independent; one tensor handle may be read from several
 *    threads at once, but deleting or assigning it races with every other
 *    use of that same handle, as for any C object.
 */
#ifndef AOTI_TORCH_MACROS_H
#define AOTI_TORCH_MACROS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#if defined(EXPORT_AOTI_FUNCTIONS)
#define AOTI_TORCH_EXPORT __declspec(dllexport)
#else
#define AOTI_TORCH_EXPORT __declspec(dllimport)
#endif
#else
#define AOTI_TORCH_EXPORT __attribute__((__visibility__("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A tensor handle: one owning reference to a tensor (possibly undefined). */
struct AtenTensorOpaque;
typedef struct AtenTensorOpaque* AtenTensorHandle;

/* A random-number generator handle: one owning reference to a generator
 * (functions from 2.13, torch/csrc/stable/c/shim.h). */
struct AtenGeneratorOpaque;
typedef struct AtenGeneratorOpaque* AtenGeneratorHandle;

/* Reserved by PyTorch's AOTInductor; declared for source compatibility. */
struct AOTIProxyExecutorOpaque;
typedef struct AOTIProxyExecutorOpaque* AOTIProxyExecutorHandle;
struct C10IValueOpaque;
typedef struct C10IValueOpaque* C10IValueHandle;

typedef int32_t AOTITorchError;
#define AOTI_TORCH_SUCCESS 0
#define AOTI_TORCH_FAILURE 1

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* AOTI_TORCH_MACROS_H */
