// See Note [Plugin ownership] in plugin_registry.h.
#include "loader/plugin_registry.h"

#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <stdlib.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include <st/core/error.h>
#include <torch/headeronly/version.h>

#include "loader/elf_file.h"
#include "loader/plugin_descriptor.h"

namespace stc::plugins {

struct Plugin {
  std::string path;  // canonical
  void* dl = nullptr;
  uintptr_t base = 0;  // load address (dli_fbase of its code)
  int64_t refcount = 0;
  bool loaded = false;
  std::optional<StableTorchPluginDescriptor> descriptor;
  std::vector<std::string> ops_defined;
  std::vector<std::string> kernels_registered;  // "ns::op for CPU"
  std::vector<std::string> namespaces_defined;
  std::vector<std::string> errors;
  std::vector<std::string> notes;
  struct Library {
    std::function<void()> detach;
    std::function<void()> destroy;
  };
  std::map<uint64_t, Library> libraries;  // token -> its library object
  std::map<uint64_t, std::string> live_tensors;          // id -> description
  std::atomic<int64_t> in_flight{0};
  // Set by tear_down before it waits for in_flight to drain: a call that
  // fetched a kernel before deregistration must not enter code about to be
  // unmapped (Note [Entering plugin code]).
  std::atomic<bool> closing{false};
  std::string report;
};

namespace {

// Guards every Plugin field but in_flight. Registration callbacks from a
// plugin's static initializers run on the loading thread while load()
// holds this mutex, hence recursive.
std::recursive_mutex& registry_mutex() {
  static std::recursive_mutex m;
  return m;
}

struct Registry {
  std::vector<std::unique_ptr<Plugin>> all;  // never shrinks
  std::set<const void*> live;                // handles given out
  std::map<std::string, std::string> unloaded_ops;  // op -> plugin path
  uint64_t next_token = 1;
};

Registry& registry() {
  static Registry* r = new Registry();  // leaked: outlives static dtors of plugins
  return *r;
}

thread_local Plugin* t_loading = nullptr;

std::string canonical_path(const std::string& path) {
  char buf[PATH_MAX];
  if (::realpath(path.c_str(), buf) == nullptr) {
    ST_ERROR("cannot load plugin '", path, "': ", std::strerror(errno));
  }
  return buf;
}

void build_report(Plugin& p) {
  std::ostringstream os;
  os << "plugin " << p.path << "\n";
  if (p.descriptor) {
    os << "  targets stable-ABI " << st::loader::format_abi_version(p.descriptor->target_abi_version)
       << " (headers " << st::loader::format_abi_version(p.descriptor->build_abi_version)
       << ", SDK " << st::loader::format_sdk_version(p.descriptor->sdk_version_number) << ")\n";
  }
  for (const std::string& n : p.notes) os << "  note: " << n << "\n";
  os << "  operators defined (" << p.ops_defined.size() << "):\n";
  for (const std::string& op : p.ops_defined) os << "    " << op << "\n";
  os << "  kernels registered (" << p.kernels_registered.size() << "):\n";
  for (const std::string& k : p.kernels_registered) os << "    " << k << "\n";
  if (!p.errors.empty()) {
    os << "  refused (" << p.errors.size() << "):\n";
    for (const std::string& e : p.errors) os << "    " << e << "\n";
  }
  p.report = os.str();
}

// Drops the plugin's registrations, waits for its calls in flight, unloads
// its code and remembers its operators. Precondition: registry mutex held.
void tear_down(Plugin& p) {
  for (auto& [token, lib] : p.libraries) {
    try {
      lib.detach();
    } catch (...) {
      // Deregistration of a half-registered library must not stop the rest.
    }
  }
  // Note [Entering plugin code]
  // A caller may have looked a kernel up just before detach() removed it.
  // PluginCall increments in_flight and then reads `closing`; tear_down
  // sets `closing` and then reads in_flight, both sequentially consistent:
  // either the caller sees `closing` and backs out with an error, or
  // tear_down sees the call in flight and waits for it. Found by
  // tests/stress/test_concurrency_stress.cpp (a segfault in unmapped code).
  p.closing.store(true, std::memory_order_seq_cst);
  while (p.in_flight.load(std::memory_order_seq_cst) != 0) {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  if (p.dl != nullptr) {
    ::dlclose(p.dl);  // its destructors delete (and forget) their libraries
    p.dl = nullptr;
  }
  // What the plugin never deleted: nobody can reach those handles any more.
  auto leftovers = std::move(p.libraries);
  p.libraries.clear();
  for (auto& [token, lib] : leftovers) {
    try {
      lib.destroy();
    } catch (...) {
    }
  }
  p.loaded = false;
  for (const std::string& op : p.ops_defined) registry().unloaded_ops[op] = p.path;
}

}  // namespace

Plugin* loading_plugin() noexcept { return t_loading; }

uint64_t note_library(Plugin* p, std::string ns, bool is_def, std::function<void()> detach,
                      std::function<void()> destroy) {
  if (p == nullptr) return 0;
  std::lock_guard<std::recursive_mutex> lock(registry_mutex());
  const uint64_t token = registry().next_token++;
  p->libraries.emplace(token, Plugin::Library{std::move(detach), std::move(destroy)});
  if (is_def) p->namespaces_defined.push_back(std::move(ns));
  return token;
}

void forget_library(Plugin* p, uint64_t token) noexcept {
  if (p == nullptr || token == 0) return;
  std::lock_guard<std::recursive_mutex> lock(registry_mutex());
  p->libraries.erase(token);
}

void note_def(Plugin* p, const std::string& op_name) {
  if (p == nullptr) return;
  std::lock_guard<std::recursive_mutex> lock(registry_mutex());
  p->ops_defined.push_back(op_name);
  registry().unloaded_ops.erase(op_name);
}

void note_impl(Plugin* p, const std::string& op_name, const std::string& key) {
  if (p == nullptr) return;
  std::lock_guard<std::recursive_mutex> lock(registry_mutex());
  p->kernels_registered.push_back(op_name + " for " + key);
}

void note_registration_error(Plugin* p, const std::string& message) {
  if (p == nullptr) return;
  std::lock_guard<std::recursive_mutex> lock(registry_mutex());
  // Name the plugin that already owns a namespace this one tries to define.
  std::string text = message;
  for (const auto& other : registry().all) {
    if (other.get() == p || !other->loaded) continue;
    for (const std::string& ns : other->namespaces_defined) {
      if (message.find("'" + ns + "'") != std::string::npos ||
          message.find(" " + ns + " ") != std::string::npos) {
        text += " [namespace '" + ns + "' is defined by plugin " + other->path + "]";
      }
    }
  }
  p->errors.push_back(std::move(text));
}

Plugin* plugin_containing(const void* address) noexcept {
  Dl_info info{};
  if (address == nullptr || ::dladdr(address, &info) == 0 || info.dli_fbase == nullptr) {
    return nullptr;
  }
  std::lock_guard<std::recursive_mutex> lock(registry_mutex());
  for (const auto& p : registry().all) {
    if (p->loaded && p->base == reinterpret_cast<uintptr_t>(info.dli_fbase)) return p.get();
  }
  return nullptr;
}

PluginCall::PluginCall(Plugin* p) noexcept : p_(p) {
  if (p_ != nullptr) {
    p_->in_flight.fetch_add(1, std::memory_order_seq_cst);
    entered_ = !p_->closing.load(std::memory_order_seq_cst);
  }
}

PluginCall::~PluginCall() {
  if (p_ != nullptr) p_->in_flight.fetch_sub(1, std::memory_order_seq_cst);
}

uint64_t tensor_created(Plugin* p, std::string description) {
  if (p == nullptr) return 0;
  std::lock_guard<std::recursive_mutex> lock(registry_mutex());
  const uint64_t id = registry().next_token++;
  p->live_tensors.emplace(id, std::move(description));
  return id;
}

void tensor_released(Plugin* p, uint64_t id) noexcept {
  if (p == nullptr || id == 0) return;
  std::lock_guard<std::recursive_mutex> lock(registry_mutex());
  p->live_tensors.erase(id);
}

std::optional<std::string> unloaded_operator_note(const std::string& op_name) {
  std::lock_guard<std::recursive_mutex> lock(registry_mutex());
  const auto it = registry().unloaded_ops.find(op_name);
  if (it == registry().unloaded_ops.end()) return std::nullopt;
  return "operator " + op_name + " has no kernel (its library was unloaded: " + it->second + ")";
}

Plugin* load(const std::string& path) {
  const std::string canonical = canonical_path(path);
  std::lock_guard<std::recursive_mutex> lock(registry_mutex());
  for (const auto& p : registry().all) {
    if (p->loaded && p->path == canonical) {
      ++p->refcount;  // loading a path twice is idempotent
      return p.get();
    }
  }
  // Read the file before running any of its code.
  const st::loader::ElfFile elf = st::loader::read_elf_file(canonical, STABLETORCH_PLUGIN_SECTION);
  auto plugin = std::make_unique<Plugin>();
  plugin->path = canonical;
  if (elf.section) {
    plugin->descriptor = st::loader::decode_descriptor(*elf.section, canonical);
    if (const auto why = st::loader::incompatibility(*plugin->descriptor, TORCH_ABI_VERSION, canonical)) {
      ST_ERROR("refusing to load: ", *why);
    }
  } else {
    plugin->notes.push_back(
        "no stabletorch descriptor (not built with the stabletorch SDK's registration macros): "
        "its stable-ABI level is unknown");
  }
  Plugin* p = plugin.get();
  registry().all.push_back(std::move(plugin));
  p->loaded = true;  // visible to plugin_containing while its initializers run

  ::dlerror();
  t_loading = p;
  void* dl = ::dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
  t_loading = nullptr;
  if (dl == nullptr) {
    const char* why = ::dlerror();
    tear_down(*p);
    ST_ERROR("cannot load plugin '", canonical, "': ", why != nullptr ? why : "dlopen failed");
  }
  p->dl = dl;
  // The load address, to recognize the plugin's code (kernels, deleters):
  // for a shared object the link map's l_addr is where it was mapped, the
  // dli_fbase dladdr reports for any address inside it.
  struct link_map* lm = nullptr;
  if (::dlinfo(dl, RTLD_DI_LINKMAP, &lm) == 0 && lm != nullptr) {
    p->base = static_cast<uintptr_t>(lm->l_addr);
  }
  if (!p->errors.empty()) {
    std::string all;
    for (const std::string& e : p->errors) all += "\n  " + e;
    tear_down(*p);
    ST_ERROR("plugin '", canonical, "' was not loaded: the core refused ", p->errors.size(),
             " registration", p->errors.size() == 1 ? "" : "s", ":", all);
  }
  p->refcount = 1;
  build_report(*p);
  registry().live.insert(p);
  return p;
}

void unload(Plugin* p) {
  std::lock_guard<std::recursive_mutex> lock(registry_mutex());
  if (p->refcount > 1) {
    --p->refcount;
    return;
  }
  if (!p->live_tensors.empty()) {
    std::string list;
    for (const auto& [id, what] : p->live_tensors) list += "\n  " + what;
    ST_ERROR("cannot unload plugin '", p->path, "': ", p->live_tensors.size(), " tensor",
             p->live_tensors.size() == 1 ? " whose deleter lives" : "s whose deleters live",
             " in it ", p->live_tensors.size() == 1 ? "is" : "are", " still alive:", list);
  }
  registry().live.erase(p);
  p->refcount = 0;
  tear_down(*p);
}

const std::string& report(const Plugin* p) { return p->report; }

void counts(const Plugin* p, int64_t* ops_defined, int64_t* kernels_registered) {
  std::lock_guard<std::recursive_mutex> lock(registry_mutex());
  *ops_defined = static_cast<int64_t>(p->ops_defined.size());
  *kernels_registered = static_cast<int64_t>(p->kernels_registered.size());
}

Plugin* checked(const void* handle, const char* what) {
  ST_CHECK(handle != nullptr, what, ": null plugin handle");
  std::lock_guard<std::recursive_mutex> lock(registry_mutex());
  if (registry().live.count(handle) == 0) {
    for (const auto& p : registry().all) {
      if (p.get() == handle) {
        ST_ERROR(what, ": plugin handle of '", p->path, "' was already unloaded");
      }
    }
    ST_ERROR(what, ": foreign plugin handle (not returned by stabletorch_load_library)");
  }
  return static_cast<Plugin*>(const_cast<void*>(handle));
}

}  // namespace stc::plugins
