// Which plugin owns what: the bookkeeping that lets the loader refuse,
// report and undo a plugin's registrations.
//
// Note [Plugin ownership]
// stabletorch_load_library runs dlopen with a thread-local "loading plugin"
// set, so every library object, def and impl that the plugin's static
// initializers create through the C ABI is attributed to it (library.cpp
// calls note_library / note_def / note_impl). Kernels registered while a
// plugin loads carry that plugin and enter it through a PluginCall guard,
// which counts calls in flight; tensors whose deleter is code of a plugin
// are counted by from_blob.cpp. Unloading then (1) refuses while such
// tensors live, (2) turns new calls away and waits, without holding the
// loader's lock, for its calls in flight to drain (refusing if they made
// such tensors), (3) deregisters the plugin's libraries, (4) dlcloses it,
// and (5) remembers the names of
// the operators it defined so that a later call says "its library was
// unloaded". Plugin records are never freed (they are small), so a pointer
// held by a kernel adapter or a deleter never dangles.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace stc::plugins {

struct Plugin;

// The plugin whose registrations are running on this thread, or null.
Plugin* loading_plugin() noexcept;

// Registers a library object of plugin p: `detach` drops its
// registrations (run before the plugin's code is unmapped), `destroy`
// deletes its handle (run after, if the plugin never deleted it). Returns a
// token for forget_library, which the library's destructor calls. No-op
// returning 0 when p is null.
uint64_t note_library(Plugin* p, std::string ns, bool is_def, std::function<void()> detach,
                      std::function<void()> destroy);
void forget_library(Plugin* p, uint64_t token) noexcept;
void note_def(Plugin* p, const std::string& op_name);
void note_impl(Plugin* p, const std::string& op_name, const std::string& key);
// A registration of plugin p that failed: refused by the core, or reported
// failed by the extension (stabletorch_library_report_failure). While p
// loads, stabletorch_load_library then undoes the load. No-op when p is
// null.
void note_registration_error(Plugin* p, const std::string& message);

// The plugin whose code contains `address`, or null (not plugin code).
Plugin* plugin_containing(const void* address) noexcept;

// Counts a call into plugin code while it runs. Null plugin: no-op.
// entered() is false when the plugin is being unloaded: its code may be
// unmapped any moment, so the caller must not run it (Note [Entering
// plugin code] in plugin_registry.cpp).
class PluginCall {
 public:
  explicit PluginCall(Plugin* p) noexcept;
  ~PluginCall();
  PluginCall(const PluginCall&) = delete;
  PluginCall& operator=(const PluginCall&) = delete;
  bool entered() const noexcept { return entered_; }

 private:
  friend void unload(Plugin* p);  // walks the calls on its thread
  Plugin* p_;
  const PluginCall* outer_ = nullptr;  // the enclosing call on this thread
  bool entered_ = true;
};

// Tensors whose deleter lives in plugin p: registered on creation (returns
// an id), released after the deleter ran.
uint64_t tensor_created(Plugin* p, std::string description);
void tensor_released(Plugin* p, uint64_t id) noexcept;

// "operator ns::op has no kernel (its library was unloaded)" when op_name
// (e.g. "sample_op::foo") was defined by a plugin since unloaded.
std::optional<std::string> unloaded_operator_note(const std::string& op_name);

// Loader entry points behind the C functions (loader.cpp). Both throw
// st::Error with the path and the reason. A load that fails leaves nothing
// registered (Note [Judging and loading one file] in plugin_registry.cpp);
// an unload never holds the loader's lock while it waits for calls (Note
// [Unloading never waits under the registry mutex]).
Plugin* load(const char* path);
void unload(Plugin* p);
// Written at the first call (a host that never asks pays nothing for it);
// the reference stays valid while the plugin record lives.
const std::string& report(Plugin* p);
void counts(const Plugin* p, int64_t* ops_defined, int64_t* kernels_registered);
// Validates a handle given to the C ABI (throws "not a plugin handle").
Plugin* checked(const void* handle, const char* what);

}  // namespace stc::plugins
