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

/* The running core's project version, "0.1.0" (static storage). */
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

/* ret: returns new reference. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_from_bool(bool value, StableScalarHandle* ret);
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_from_int(int64_t value, StableScalarHandle* ret);
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_from_double(double value, StableScalarHandle* ret);
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_from_complex(double real, double imag, StableScalarHandle* ret);
/* One of STABLETORCH_SCALAR_*. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_kind(StableScalarHandle scalar, int32_t* ret_kind);
/* Exact reads: fail when the kind differs (no silent narrowing). */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_to_bool(StableScalarHandle scalar, bool* ret);
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_to_int(StableScalarHandle scalar, int64_t* ret);
/* Any real kind as double (bool/int converted). */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_to_double(StableScalarHandle scalar, double* ret);
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_to_complex(StableScalarHandle scalar, double* ret_real, double* ret_imag);
/* NULL is a harmless no-op. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_delete_scalar(StableScalarHandle scalar);

/* Live-object counters for leak checks (tensor handles, lists, strings,
 * scalars, libraries currently alive in this process). */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_live_handle_count(int64_t* ret_count);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STABLETORCH_C_RUNTIME_H */
