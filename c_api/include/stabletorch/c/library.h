/*
 * stabletorch's additions to operator registration (prefix stabletorch_).
 * Conventions as in torch/csrc/inductor/aoti_torch/c/macros.h.
 */
#ifndef STABLETORCH_C_LIBRARY_H
#define STABLETORCH_C_LIBRARY_H

#include <torch/csrc/inductor/aoti_torch/c/shim.h>

#ifdef __cplusplus
extern "C" {
#endif

/* As torch_library_impl, plus the C++ signature of the kernel behind fn,
 * written as a schema signature with named arguments, e.g.
 * "(Tensor _0, float? _1, int[] _2) -> (Tensor, Tensor)" ("-> ()" for no
 * return). The SDK's TORCH_BOX produces it from the typed function it
 * boxes. The core checks it against the operator's schema as soon as both
 * are known (here, when the operator is already defined; otherwise when
 * its def arrives, which is then refused) and fails with a message listing
 * every differing argument and return position. A NULL kernel_signature
 * registers without the check, exactly as torch_library_impl.
 *
 * kernel_signature is read during the call only (not retained).
 * Thread-safe: registration is serialized inside the core. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_library_impl_with_signature(
    TorchLibraryHandle self, const char* name, void (*fn)(StableIValue*, uint64_t, uint64_t),
    uint64_t extension_build_version, const char* kernel_signature);

/* Reports that registering into self failed inside the extension, e.g. a
 * registration block threw after some of its defs: message says what. The
 * library drops every registration it made at once (later uses of self
 * fail; it must still be deleted with aoti_torch_delete_library_object).
 * While a plugin is being loaded by stabletorch_load_library, the load then
 * fails with the message and everything the plugin registered is rolled
 * back. The SDK's registration macros call it (looked up at run time) when
 * a block throws.
 *
 * self: NULL or a foreign handle fails. message: read during the call only;
 * NULL reads as "(no message)". Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_library_report_failure(TorchLibraryHandle self,
                                                                    const char* message);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STABLETORCH_C_LIBRARY_H */
