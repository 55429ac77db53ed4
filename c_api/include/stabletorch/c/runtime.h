/*
 * stabletorch's own additions to the C ABI (prefix stabletorch_, never
 * torch_/aoti_): runtime version getters, the Scalar handle and generator
 * seeding.
 * Conventions as in torch/csrc/inductor/aoti_torch/c/macros.h.
 */
#ifndef STABLETORCH_C_RUNTIME_H
#define STABLETORCH_C_RUNTIME_H

#include <torch/csrc/inductor/aoti_torch/c/macros.h>
#include <torch/csrc/stable/version.h>

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
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_from_int(int64_t value,
                                                             StableScalarHandle* ret);
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_from_double(double value,
                                                                StableScalarHandle* ret);
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_from_complex(double real, double imag,
                                                                 StableScalarHandle* ret);
/* The readers below fail for a NULL, foreign, deleted or other-kind
 * scalar handle and a NULL out-parameter, leaving it untouched; they are
 * thread-safe (a scalar handle is never modified after it is made).
 * stabletorch_scalar_kind: one of STABLETORCH_SCALAR_*. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_kind(StableScalarHandle scalar,
                                                         int32_t* ret_kind);
/* Exact reads: fail when the kind differs (no silent narrowing). */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_to_bool(StableScalarHandle scalar, bool* ret);
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_to_int(StableScalarHandle scalar, int64_t* ret);
/* Any real kind as double (bool/int converted); a complex fails.
 * stabletorch_scalar_to_complex: any kind (real ones with imag 0). */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_to_double(StableScalarHandle scalar,
                                                              double* ret);
AOTI_TORCH_EXPORT AOTITorchError stabletorch_scalar_to_complex(StableScalarHandle scalar,
                                                               double* ret_real, double* ret_imag);
/* Deletes a scalar handle. NULL is a harmless no-op; a foreign, deleted or
 * other-kind handle fails. Races with every other use of the handle. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_delete_scalar(StableScalarHandle scalar);

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
/* Generators beyond PyTorch's stable ABI, which can only pass generators
 * along: making one, the default one, and seeding (as torch.Generator's
 * manual_seed / initial_seed / seed). Only CPU generators exist; other
 * device types fail saying so. Thread-safe. Level 2.13, with the
 * generator functions of torch/csrc/stable/c/shim.h.
 *
 * ret: returns new reference (free with torch_delete_generator) to a new
 * CPU generator seeded with `seed`. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_new_generator(int32_t device_type, uint64_t seed,
                                                           AtenGeneratorHandle* ret);
/* ret: returns new reference to the process-wide default generator of the
 * device type: the one random operators draw from when given none. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_default_generator(int32_t device_type,
                                                               AtenGeneratorHandle* ret);
/* Sets the seed and restarts the generator's stream. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_generator_manual_seed(AtenGeneratorHandle generator,
                                                                   uint64_t seed);
/* ret_seed: the seed the generator's stream started from. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_generator_initial_seed(AtenGeneratorHandle generator,
                                                                    uint64_t* ret_seed);
/* Reseeds from a non-deterministic source; ret_seed: the seed chosen. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_generator_seed(AtenGeneratorHandle generator,
                                                            uint64_t* ret_seed);
#endif /* TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0 */

/* The number of handles of every kind (tensors, lists, strings, scalars,
 * libraries, guards, streams) alive in this process, for leak checks (a
 * value). Exact while no other thread is inside a C ABI call; otherwise a
 * snapshot. Fails only for a NULL ret_count. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_live_handle_count(int64_t* ret_count);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STABLETORCH_C_RUNTIME_H */
