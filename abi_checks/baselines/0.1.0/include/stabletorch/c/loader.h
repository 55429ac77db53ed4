/*
 * Loading and unloading operator plugins (shared objects built with the
 * stable SDK). Conventions as in torch/csrc/inductor/aoti_torch/c/macros.h.
 *
 * Before any of a plugin's code runs (before dlopen), the loader reads the
 * plugin's descriptor (stabletorch/c/plugin_descriptor.h) from the file and
 * refuses a plugin that targets a newer stable-ABI level than this core
 * serves. A plugin without a descriptor (e.g. built against PyTorch's own
 * headers) loads, with a note that its level is unknown.
 *
 * Thread-safety: loading and unloading are serialized internally; they may
 * run while other threads call operators. Unloading waits for calls into
 * the plugin that are in flight, and is refused while tensors whose
 * deleters live in the plugin are alive.
 */
#ifndef STABLETORCH_C_LOADER_H
#define STABLETORCH_C_LOADER_H

#include <torch/csrc/inductor/aoti_torch/c/macros.h>

#ifdef __cplusplus
extern "C" {
#endif

struct StableTorchPluginOpaque;
typedef struct StableTorchPluginOpaque* StableTorchPluginHandle;

/* Loads the plugin at path (its registrations run). Loading a path that is
 * already loaded returns a new reference to the same plugin.
 * ret_plugin: returns new reference; release it with
 * stabletorch_unload_library. Fails, with the path and the reason (missing
 * file, not a shared object, wrong architecture, newer ABI level, missing
 * symbols, a registration the core refused), leaving nothing loaded. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_load_library(const char* path, StableTorchPluginHandle* ret_plugin);

/* Drops one reference; the last one deregisters every operator and kernel
 * the plugin registered and unloads it. Refused (the plugin stays loaded
 * and the handle valid) while tensors whose deleters live in the plugin
 * are alive: the error lists them. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_unload_library(StableTorchPluginHandle plugin);

/* The load report: descriptor, operators defined, kernels registered, and
 * notes, as text. ret_report: returns borrowed reference, valid while the
 * handle lives. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_plugin_report(StableTorchPluginHandle plugin, const char** ret_report);

/* Counts from the load report. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_plugin_counts(StableTorchPluginHandle plugin, int64_t* ret_ops_defined, int64_t* ret_kernels_registered);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STABLETORCH_C_LOADER_H */
