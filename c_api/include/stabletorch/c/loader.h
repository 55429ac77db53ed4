/*
 * Loading and unloading operator plugins (shared objects built with the
 * stable SDK). Conventions as in torch/csrc/inductor/aoti_torch/c/macros.h.
 *
 * Before any of a plugin's code runs (before dlopen), the loader opens the
 * file once (a regular file only: directories, FIFOs and devices are
 * refused without being read), reads the plugin's descriptor
 * (stabletorch/c/plugin_descriptor.h) from it and refuses a plugin that
 * targets a newer stable-ABI level than this core serves, or that carries
 * more than one descriptor. The same open file is then loaded, so what was
 * judged is what runs. A plugin without a descriptor (e.g. built against
 * PyTorch's own headers) loads, with a note that its level is unknown.
 *
 * A C++ exception escaping a plugin's static initializers or destructors
 * ends the process (C++ calls std::terminate there); the loader first
 * prints the plugin's path and the exception's message on stderr.
 *
 * Thread-safety: loading and unloading are serialized internally; they may
 * run while other threads call operators. Unloading turns new calls into
 * the plugin away and waits for those in flight without holding the
 * loader's lock (they may load, unload or make tensors meanwhile); it is
 * refused while tensors whose deleters live in the plugin are alive, and
 * from inside a call into the plugin itself.
 */
#ifndef STABLETORCH_C_LOADER_H
#define STABLETORCH_C_LOADER_H

#include <torch/csrc/inductor/aoti_torch/c/macros.h>

#ifdef __cplusplus
extern "C" {
#endif

struct StableTorchPluginOpaque;
typedef struct StableTorchPluginOpaque* StableTorchPluginHandle;

/* Loads the plugin at path (its registrations run). Loading a file that is
 * already loaded (the same file, by device and inode, under this path or
 * another one) returns a new reference to the same plugin; another file
 * put at the path since is judged and loaded as another plugin. Messages
 * and the report name the plugin by path as given, a relative one
 * prefixed with the working directory (symbolic links are not resolved).
 * ret_plugin: returns new reference; release it with
 * stabletorch_unload_library. Fails, with the path and the reason (missing
 * file, not a regular file, not a shared object, wrong architecture, newer
 * ABI level, several descriptors, missing symbols, a registration the core
 * refused, the file already opened by the process without the loader),
 * leaving nothing loaded or registered. path (read during the call only)
 * and ret_plugin: NULL fails. Thread-safe (see above). */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_load_library(const char* path,
                                                          StableTorchPluginHandle* ret_plugin);

/* Drops one reference; the last one deregisters every operator and kernel
 * the plugin registered and unloads it. Refused (the plugin stays loaded,
 * its operators registered and the handle valid) while tensors whose
 * deleters live in the plugin are alive, including tensors that calls
 * running when the unload began made meanwhile: the error lists them.
 * Refused from inside a call into the same plugin. NULL or an unknown
 * handle fails: unlike the delete functions, this one reports NULL (an
 * unload that did nothing is a bug in the host). Thread-safe (see above). */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_unload_library(StableTorchPluginHandle plugin);

/* The load report: descriptor, operators defined, kernels registered, and
 * notes, as text. ret_report: returns borrowed reference, valid while the
 * handle lives (until its stabletorch_unload_library succeeds). Fails for
 * a NULL or unknown plugin handle and a NULL ret_report. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_plugin_report(StableTorchPluginHandle plugin,
                                                           const char** ret_report);

/* Counts from the load report: operators the plugin defined and kernels
 * it registered (values). Fails for a NULL or unknown plugin handle and a
 * NULL out-parameter. Thread-safe. */
AOTI_TORCH_EXPORT AOTITorchError stabletorch_plugin_counts(StableTorchPluginHandle plugin,
                                                           int64_t* ret_ops_defined,
                                                           int64_t* ret_kernels_registered);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STABLETORCH_C_LOADER_H */
