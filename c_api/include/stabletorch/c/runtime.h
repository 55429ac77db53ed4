/*
 * stabletorch's own additions to the C ABI (prefix stabletorch_, never
 * torch_/aoti_): runtime version getters and the Scalar handle.
 * Conventions as in torch/csrc/inductor/aoti_torch/c/macros.h.
 */
#ifndef STABLETORCH_C_RUNTIME_H
#define STABLETORCH_C_RUNTIME_H

#include <torch/csrc/inductor/aoti_torch/c/macros.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The running core's project version, "0.1.0": returns borrowed reference
 * to static storage, valid for the life of the process. The three version
 * getters never fail and are thread-safe. */
AOTI_TORCH_EXPORT const char* stabletorch_version_string(void);
/* The running core's project version as major * 10000 + minor * 100 +
 * patch (STABLETORCH_VERSION_NUMBER of the core's own build). */
AOTI_TORCH_EXPORT uint32_t stabletorch_version_number(void);
/* The stable-ABI level the running core serves (TORCH_ABI_VERSION shape);
 * the same value as aoti_torch_abi_version(). */
AOTI_TORCH_EXPORT uint64_t stabletorch_abi_level(void);

/* A Scalar value (schema `Scalar`), which PyTorch's stable ABI cannot pass:
 * bool, int64, double or complex<double>. On a stack, a Scalar argument is
 * a StableScalarHandle the callee steals. */
struct StableScalarOpaque;
typedef struct StableScalarOpaque* StableScalarHandle;

#define STABLETORCH_SCALAR_BOOL 0
#define STABLETORCH_SCALAR_INT 1
#define STABLETORCH_SCALAR_DOUBLE 2
#define STABLETORCH_SCALAR_COMPLEX 3

/* ret: returns new reference (delete with stabletorch_delete_scalar, or
 * hand it to the core on a stack, which steals it). Fails only for a NULL
 * ret and when memory runs out. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_from_bool(bool value, StableScalarHandle* ret);
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_from_int(int64_t value, StableScalarHandle* ret);
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_from_double(double value, StableScalarHandle* ret);
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_from_complex(double real, double imag, StableScalarHandle* ret);
/* The readers below fail for a NULL, foreign, deleted or other-kind
 * scalar handle and a NULL out-parameter, leaving it untouched; they are
 * thread-safe (a scalar handle is never modified after it is made).
 * stabletorch_scalar_kind: one of STABLETORCH_SCALAR_*. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_kind(StableScalarHandle scalar, int32_t* ret_kind);
/* Exact reads: fail when the kind differs (no silent narrowing). */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_to_bool(StableScalarHandle scalar, bool* ret);
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_to_int(StableScalarHandle scalar, int64_t* ret);
/* Any real kind as double (bool/int converted); a complex fails.
 * stabletorch_scalar_to_complex: any kind (real ones with imag 0). */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_to_double(StableScalarHandle scalar, double* ret);
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_to_complex(StableScalarHandle scalar, double* ret_real, double* ret_imag);
/* Deletes a scalar handle. NULL is a harmless no-op; a foreign, deleted or
 * other-kind handle fails. Races with every other use of the handle. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_delete_scalar(StableScalarHandle scalar);

/* The number of handles of every kind (tensors, lists, strings, scalars,
 * libraries, guards, streams) alive in this process, for leak checks (a
 * value). Exact while no other thread is inside a C ABI call; otherwise a
 * snapshot. Fails only for a NULL ret_count. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_live_handle_count(int64_t* ret_count);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STABLETORCH_C_RUNTIME_H */
