// Backend modules (internal): device backends built as shared modules of
// their own, loaded by the core the first time their device type is asked
// for.
//
// Note [Backend modules]
// The CUDA backend lives in libstabletorch_cuda.so, installed next to
// libstabletorch_core and linked to the CUDA runtime and cuBLAS; the core
// does not link them, so a process that never asks for CUDA maps none of
// the CUDA libraries. The module registers everything the backend brings
// from its static initializers: its device runtime, its allocator, its
// CUDA-key kernels and its hooks (st/cuda/cuda_backend.h). The core loads
// it on the first request that needs it:
// - a lookup in the device-runtime or allocator registries that finds
//   nothing for the type (device_count, resolve_device, guards, streams,
//   the accelerator, a CUDA tensor), or a set_allocator for the type (so
//   that the module's allocator cannot replace the host's);
// - a kernel or backend fallback registered for the backend's dispatch key,
//   so that the backend's own kernels are registered first and a plugin's
//   kernel overrides them as it would if they had been built in;
// - a dispatch that finds no kernel for the backend's key.
// Lookups that succeed never reach the loader; once it has been tried, the
// loader costs one atomic load.
//
// Why no lock of our own around dlopen: glibc runs a module's initializers
// under its loader lock, and a plugin's initializers (under that same lock)
// may register a CUDA kernel and so load the module. A mutex of ours held
// around dlopen would then order itself against the loader lock in both
// directions (deadlock). dlopen is already a one-time, thread-safe
// operation: a second thread's dlopen of the same file waits for the first
// and returns the same handle, with the initializers run once. The state
// below only records the outcome. The module's own registrations, which
// re-enter the loader on the loading thread, return at once (a thread-local
// flag, or glibc's answer for a module whose initializers are running when
// a host dlopened the module itself).
#pragma once

#include <optional>
#include <string>

#include <st/core/device.h>
#include <st/dispatch/dispatch_key.h>

namespace st::detail {

// Loads the module of `type`'s backend if this core has one and it is not
// loaded yet. True when the module is loaded (just now, earlier, or being
// loaded by this thread); false when the type has no module in this build
// or the module could not be loaded (backend_module_error says why; the
// attempt is not repeated). Never throws; thread-safe.
bool load_backend_module(DeviceType type) noexcept;
// The device type whose module brings the kernels of `key` (CUDA -> CUDA
// in a CUDA build); nullopt for every other key.
std::optional<DeviceType> backend_module_type(DispatchKey key) noexcept;
// True when this core has a module for `type` (a CUDA build: CUDA).
bool has_backend_module(DeviceType type) noexcept;
// True once the module of `type` is loaded; never loads it.
bool backend_module_loaded(DeviceType type) noexcept;
// "CUDA is not available: <why>" after a failed load; empty when the
// module loaded, was not tried yet, or the type has none.
std::string backend_module_error(DeviceType type);

}  // namespace st::detail
