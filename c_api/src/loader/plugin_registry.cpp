// See Note [Plugin ownership] in plugin_registry.h.
#include "loader/plugin_registry.h"

#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
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
#include "loader/plugin_file.h"
#include "loader/plugin_imports.h"

namespace stc::plugins {

struct Plugin {
  // The path the host gave, made absolute (display_path): what messages and
  // the report name. The file itself is known by its (st_dev, st_ino).
  std::string path;
  // The open file that was judged and handed to dlopen, kept open while
  // the object is mapped (Note [Judging and loading one file]).
  std::optional<st::loader::PluginFile> file;
  std::string dl_name;  // "/proc/self/fd/N": the object's name in the link map
  void* dl = nullptr;
  uintptr_t base = 0;       // load address (dli_fbase of its code)
  void* dynamic = nullptr;  // its dynamic section (l_ld): an address inside its mapping
  int64_t refcount = 0;
  bool loaded = false;
  // Between stabletorch_unload_library's first and last step (the registry
  // mutex is released while calls in flight drain).
  bool unloading = false;
  // dlclose left the object mapped (RTLD_NODELETE, unique symbols): its
  // static initializers cannot run again, so it cannot be loaded again.
  bool resident = false;
  std::optional<StableTorchPluginDescriptor> descriptor;
  // For a plugin without a descriptor: the verdict on its imports, which the
  // report's first note spells out.
  std::optional<st::loader::ImportVerdict> undescribed;
  std::vector<std::string> ops_defined;
  std::vector<std::string> kernels_registered;  // "ns::op for CPU"
  std::vector<std::string> namespaces_defined;
  std::vector<std::string> errors;
  std::vector<std::string> notes;
  struct Library {
    std::function<void()> detach;
    std::function<void()> destroy;
  };
  std::map<uint64_t, Library> libraries;         // token -> its library object
  std::map<uint64_t, std::string> live_tensors;  // id -> description
  std::atomic<int64_t> in_flight{0};
  // Set before calls in flight drain: a call that fetched a kernel before
  // deregistration must not enter code about to be unmapped (Note
  // [Entering plugin code]). Cleared again only if the unload is refused.
  std::atomic<bool> closing{false};
  std::string report;  // built at the first stabletorch_plugin_report
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
  // The plugins of `all` that are loaded, unloading or resident: the only
  // ones a load, an address or a registration error can concern. A host
  // that loads and unloads plugins all day keeps `all` growing; the
  // searches look here instead, so a load costs the same the thousandth
  // time as the first.
  std::vector<Plugin*> active;
  // Descriptors whose /proc/self/fd name ld.so gave to an object loaded
  // outside the loader: kept open so that no later file gets that name.
  std::vector<st::loader::PluginFile> reserved_files;
  std::set<const void*> live;                       // handles given out
  std::map<std::string, std::string> unloaded_ops;  // op -> plugin path
  uint64_t next_token = 1;
};

Registry& registry() {
  static Registry* r = new Registry();  // leaked: outlives static dtors of plugins
  return *r;
}

thread_local Plugin* t_loading = nullptr;
// The innermost call into plugin code on this thread (PluginCall links the
// rest), so that unloading a plugin from inside its own call is refused
// instead of waiting for itself.
thread_local const PluginCall* t_innermost_call = nullptr;

// The name of a plugin in messages and its report: the host's path, a
// relative one prefixed with the working directory. Not resolved through
// symbolic links: realpath costs one readlink per component, more than the
// rest of the loader, and nothing needs it (the registry knows a file by
// its open descriptor's (st_dev, st_ino), Note [Judging and loading one
// file]).
std::string display_path(const char* path) {
  if (path[0] == '/' || path[0] == '\0') return path;  // "" names no file
  char cwd[PATH_MAX];
  if (::getcwd(cwd, sizeof(cwd)) == nullptr) return path;
  while (path[0] == '.' && path[1] == '/') path += 2;
  return std::string(cwd) + "/" + path;
}

// Precondition: registry mutex held.
void build_report(Plugin& p) {
  std::ostringstream os;
  os << "plugin " << p.path << "\n";
  if (p.descriptor) {
    os << "  targets stable-ABI "
       << st::loader::format_abi_version(p.descriptor->target_abi_version) << " (headers "
       << st::loader::format_abi_version(p.descriptor->build_abi_version) << ", SDK "
       << st::loader::format_sdk_version(p.descriptor->sdk_version_number) << ")\n";
  }
  if (p.undescribed) {
    const st::loader::ImportVerdict& v = *p.undescribed;
    os << "  note: no stabletorch descriptor (built with " << v.built_with << "): judged by its "
       << v.c_abi.size() << " C-ABI imports, which need stable-ABI level "
       << (v.needed_level.empty() ? std::string("(none)") : v.needed_level) << "\n";
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

// Note [Exceptions from plugin initializers and finalizers]
// A C++ exception that leaves a plugin's static initializers (run by
// dlopen) or finalizers (run by dlclose) cannot be contained, measured with
// glibc 2.36 and GCC 12 on x86-64:
// - for a namespace-scope object the plugin's own compiler makes the
//   initialization noexcept ([except.terminate]), and destructors are
//   noexcept: std::terminate runs inside the plugin's frame;
// - any other initializer (__attribute__((constructor))) lets the exception
//   unwind through ld.so's frames, which release nothing: the dynamic
//   linker's load lock stays held by this thread, and the next dlopen or
//   dlclose on any other thread hangs for ever (measured: the exception
//   caught, a second thread's dlopen never returned).
// Where such an exception surfaces depends on the frame that called
// dlopen. glibc declares dlopen noexcept, so a direct call gets no entry in
// its caller's exception table: if that caller has an exception table the
// unwinder stops there (std::terminate, no unwinding), but if the compiler
// gave it none, the exception keeps going up, skipping the cleanups of the
// frames it leaves (the loader's terminate handler, t_loading), to the C
// boundary's catch-all, which turns it into an error return over a broken
// dynamic linker: the report is never printed and the process fails later,
// elsewhere. So dlopen is called through a pointer of a type that may
// throw, in a frame that catches everything (open_object): the exception
// always lands there, the report names the plugin, the step and the
// exception, and the process ends at once (std::terminate with the
// report's handler installed), before another thread can hang on the
// linker's lock. dlclose is called the same way. SDK plugins never get
// there: the registration macros catch what a registration block throws.
thread_local const char* t_terminate_plugin = nullptr;
thread_local const char* t_terminate_step = nullptr;
// The handler installed before the outermost TerminateReport.
std::terminate_handler g_previous_terminate = nullptr;

[[noreturn]] void report_plugin_terminate() noexcept {
  if (t_terminate_plugin != nullptr) {
    std::string what = "an exception of unknown type";
    if (const std::exception_ptr e = std::current_exception()) {
      try {
        std::rethrow_exception(e);
      } catch (const std::exception& ex) {
        what = std::string("'") + ex.what() + "'";
      } catch (...) {
      }
    }
    std::fprintf(stderr,
                 "stabletorch: plugin '%s' threw %s out of its %s; a C++ exception cannot "
                 "leave a plugin's static initializers or finalizers (catch it in the plugin), "
                 "so the process ends\n",
                 t_terminate_plugin, what.c_str(), t_terminate_step);
    std::fflush(stderr);
  }
  if (g_previous_terminate != nullptr && g_previous_terminate != &report_plugin_terminate) {
    g_previous_terminate();
  }
  std::abort();
}

// Installs report_plugin_terminate while plugin code runs under dlopen or
// dlclose on this thread. Nests (a plugin's initializer may load another
// plugin). Precondition: registry mutex held (so one thread at a time).
class TerminateReport {
 public:
  TerminateReport(const std::string& plugin, const char* step)
      : outer_plugin_(t_terminate_plugin), outer_step_(t_terminate_step) {
    t_terminate_plugin = plugin.c_str();
    t_terminate_step = step;
    previous_ = std::set_terminate(&report_plugin_terminate);
    if (previous_ != &report_plugin_terminate) g_previous_terminate = previous_;
  }
  ~TerminateReport() {
    std::set_terminate(previous_);
    t_terminate_plugin = outer_plugin_;
    t_terminate_step = outer_step_;
  }
  TerminateReport(const TerminateReport&) = delete;
  TerminateReport& operator=(const TerminateReport&) = delete;

 private:
  const char* outer_plugin_;
  const char* outer_step_;
  std::terminate_handler previous_ = nullptr;
};

// dlopen and dlclose through pointers of types that may throw, so that an
// exception from plugin code always reaches the catch below (Note
// [Exceptions from plugin initializers and finalizers]). volatile keeps
// the compiler from seeing the noexcept callee through the pointer.
void* (*volatile g_dlopen)(const char*, int) = &::dlopen;
int (*volatile g_dlclose)(void*) = &::dlclose;

// Runs the plugin's static initializers. Precondition: registry mutex held.
void* open_object(const std::string& plugin, const std::string& name, int flags) {
  TerminateReport report(plugin, "static initializers (at load)");
  try {
    return g_dlopen(name.c_str(), flags);
  } catch (...) {
    std::terminate();  // inside the handler: the report sees the exception
  }
}

// Runs the plugin's static destructors. Precondition: registry mutex held.
void close_object(const std::string& plugin, void* dl) {
  TerminateReport report(plugin, "static destructors (at unload)");
  try {
    g_dlclose(dl);
  } catch (...) {
    std::terminate();
  }
}

// Whether an object named `name` is in the process's link map.
bool in_link_map(const std::string& name) {
  struct Query {
    const std::string* name;
    bool found;
  } q{&name, false};
  ::dl_iterate_phdr(
      [](struct dl_phdr_info* info, size_t, void* data) -> int {
        auto* query = static_cast<Query*>(data);
        if (info->dlpi_name != nullptr && std::strcmp(query->name->c_str(), info->dlpi_name) == 0) {
          query->found = true;
          return 1;
        }
        return 0;
      },
      &q);
  return q.found;
}

// dlerror's text with the /proc/self/fd name replaced by the user's path.
std::string dl_error_text(const Plugin& p) {
  const char* e = ::dlerror();
  std::string text = e != nullptr ? e : "dlopen failed";
  for (size_t at = text.find(p.dl_name); !p.dl_name.empty() && at != std::string::npos;
       at = text.find(p.dl_name, at + p.path.size())) {
    text.replace(at, p.dl_name.size(), p.path);
  }
  return text;
}

// Note [Entering plugin code]
// A caller may have looked a kernel up just before its library was
// detached. PluginCall increments in_flight and then reads `closing`; the
// unloading thread sets `closing` and then reads in_flight, both
// sequentially consistent: either the caller sees `closing` and backs out
// with an error, or the unloading thread sees the call in flight and waits
// for it. Found by tests/stress/test_concurrency_stress.cpp (a segfault in
// unmapped code).
//
// Waits until no call is running plugin code. Precondition: `closing` is
// set, and the registry mutex is NOT held: a running kernel may need it
// (Note [Unloading never waits under the registry mutex]).
void drain_calls(Plugin& p) {
  while (p.in_flight.load(std::memory_order_seq_cst) != 0) {
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

// Drops the plugin's registrations. Precondition: registry mutex held,
// `closing` set (Note [Entering plugin code]).
void detach_libraries(Plugin& p) {
  for (auto& [token, lib] : p.libraries) {
    try {
      lib.detach();
    } catch (...) {
      // Deregistration of a half-registered library must not stop the rest.
    }
  }
}

// Whether the plugin's object is still in the link map after dlclose.
// Precondition: registry mutex held.
bool still_mapped(const Plugin& p) {
  if (p.dl_name.empty()) return false;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
  // The common case, answered without walking the link map: no object
  // holds an address of its mapping any more. Something found there is
  // checked by name (another thread may have mapped another object there).
  struct dl_find_object found;
  if (p.dynamic != nullptr && ::_dl_find_object(p.dynamic, &found) != 0) return false;
#endif
  return in_link_map(p.dl_name);
}

// Takes a plugin that is no longer loaded, unloading or resident out of
// Registry::active. Precondition: registry mutex held.
void forget_active(Plugin& p) {
  auto& active = registry().active;
  const auto it = std::find(active.begin(), active.end(), &p);
  if (it != active.end()) active.erase(it);
}

// Unloads the plugin's code once nothing can run it, and remembers its
// operators. Preconditions: registry mutex held, libraries detached, calls
// drained, no tensor whose deleter lives in it.
void close_plugin(Plugin& p) {
  if (p.dl != nullptr) {
    close_object(p.path, p.dl);  // its destructors delete (and forget) their libraries
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
  // The name stays taken while the object stays mapped: keep its
  // descriptor open so that no other file gets that /proc/self/fd name.
  p.resident = still_mapped(p);
  if (!p.resident) {
    p.file.reset();
    forget_active(p);
  }
  for (const std::string& op : p.ops_defined) registry().unloaded_ops[op] = p.path;
}

// Undoes a load that failed after dlopen: every registration is dropped
// and, unless a tensor whose deleter lives in it was made meanwhile, the
// code is unloaded. `lock` holds the registry mutex on entry and exit.
void undo_load(Plugin& p, std::unique_lock<std::recursive_mutex>& lock) {
  p.unloading = true;
  p.closing.store(true, std::memory_order_seq_cst);
  detach_libraries(p);
  lock.unlock();
  drain_calls(p);
  lock.lock();
  p.unloading = false;
  if (p.live_tensors.empty()) {
    close_plugin(p);
  } else {
    // Its code must stay mapped for those deleters; it is never unloaded.
    p.notes.push_back("left mapped: tensors whose deleters live in it are alive");
  }
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
  for (const Plugin* other : registry().active) {
    if (other == p || !other->loaded) continue;
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
  for (Plugin* p : registry().active) {
    if (p->loaded && p->base == reinterpret_cast<uintptr_t>(info.dli_fbase)) return p;
  }
  return nullptr;
}

PluginCall::PluginCall(Plugin* p) noexcept : p_(p) {
  if (p_ != nullptr) {
    p_->in_flight.fetch_add(1, std::memory_order_seq_cst);
    entered_ = !p_->closing.load(std::memory_order_seq_cst);
    outer_ = t_innermost_call;
    t_innermost_call = this;
  }
}

PluginCall::~PluginCall() {
  if (p_ != nullptr) {
    t_innermost_call = outer_;
    p_->in_flight.fetch_sub(1, std::memory_order_seq_cst);
  }
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

// Note [Judging and loading one file]
// The loader opens the plugin once, judges that open file (ELF header,
// descriptor), and hands dlopen the same file as /proc/self/fd/N: replacing
// the file at the path between the two steps cannot make it load a file it
// did not judge. Consequences, all handled here:
// - ld.so recognizes an object already loaded by its name, then by
//   (st_dev, st_ino). The registry knows a plugin by the (st_dev, st_ino)
//   of its open file: a second load of the same file, under this path or
//   another, is the same plugin (a new reference); a file put at the path
//   since is another file, judged on its own.
// - The object's name in the link map is "/proc/self/fd/N" (also in
//   backtraces and dladdr). A later dlopen of that name would find this
//   object, so N stays open while the object is mapped and no other file
//   can get that name; a name already in the link map (someone else's
//   /proc/self/fd load) is skipped by duplicating the descriptor.
// - If ld.so returns an object of another name, the same file was already
//   loaded outside the loader (a bare dlopen): its initializers did not run
//   for us, so the load is refused; ld.so now knows that object by our
//   name too, so the descriptor stays open (Registry::reserved_files).
// - An object that dlclose leaves mapped (RTLD_NODELETE, unique symbols)
//   keeps its descriptor, and loading that file again is refused: its
//   initializers would not run again.
// - Messages keep the user's path: dlerror's text is rewritten.
// What this adds to a bare dlopen: the open and fstat of the file, one
// pread of its first 16 KiB, which hold a small plugin's ELF tables (read
// in place, PluginFile::view), the close, ld.so's open of /proc/self/fd/N
// (a procfs walk) instead of the path, and two walks of the link map. The
// path is not resolved (display_path), and the report is written when
// first asked for.
namespace {

// The name under which dlopen will open `file`: /proc/self/fd/N for a
// descriptor N whose name no loaded object has. Duplicates of the
// descriptor made on the way are closed, except the one returned.
std::string link_map_name(st::loader::PluginFile& file) {
  std::vector<st::loader::PluginFile> skipped;
  for (int attempt = 0; attempt < 64; ++attempt) {
    std::string name = "/proc/self/fd/" + std::to_string(file.fd());
    if (!in_link_map(name)) return name;
    st::loader::PluginFile dup = file.duplicate();
    skipped.push_back(std::move(file));
    file = std::move(dup);
  }
  ST_ERROR("cannot load plugin '", file.path(),
           "': 64 descriptors in a row name objects already loaded as /proc/self/fd/N");
}

Plugin* find_loaded(const std::string& path, const st::loader::PluginFile& file) {
  for (Plugin* p : registry().active) {
    const bool same =
        p->file && p->file->device() == file.device() && p->file->inode() == file.inode();
    if (!same) continue;
    if (p->unloading) {
      ST_ERROR("cannot load plugin '", path,
               "': another thread is unloading it; load it again once "
               "stabletorch_unload_library has returned");
    }
    if (p->loaded) return p;
    if (p->resident) {
      ST_ERROR("cannot load plugin '", path,
               "' again: its code stayed mapped when it was unloaded (RTLD_NODELETE or "
               "unique symbols), so its static initializers would not run again");
    }
  }
  return nullptr;
}

}  // namespace

Plugin* load(const char* given_path) {
  // The record is made first so that its path is the one copy of the name
  // (it joins the registry only once the file was judged).
  auto plugin = std::make_unique<Plugin>();
  plugin->path = display_path(given_path);
  const std::string& path = plugin->path;
  std::unique_lock<std::recursive_mutex> lock(registry_mutex());
  st::loader::PluginFile file = st::loader::PluginFile::open(path, "cannot load plugin");
  if (Plugin* p = find_loaded(path, file)) {
    ++p->refcount;  // loading a plugin twice is idempotent
    return p;
  }
  // Judge the open file before running any of its code.
  // Only C-ABI imports are judged: the other names are not copied.
  const st::loader::ElfFile elf =
      st::loader::read_elf_file(file, STABLETORCH_PLUGIN_SECTION, &st::loader::is_c_abi_symbol);
  if (elf.section) {
    const auto verdict = st::loader::judge_descriptors(
        st::loader::decode_descriptors(*elf.section, path), TORCH_ABI_VERSION, path);
    if (verdict.refusal) ST_ERROR("refusing to load: ", *verdict.refusal);
    plugin->descriptor = verdict.judged;
  }
  // Every plugin, ours or PyTorch-built, by what it imports: dlopen would
  // name only the first missing function, after the plugin's own
  // dependencies were mapped.
  st::loader::ImportVerdict imports = st::loader::judge_imports(elf);
  if (!imports.missing.empty()) ST_ERROR(st::loader::missing_imports_message(imports, path));
  if (!elf.section) plugin->undescribed.emplace(std::move(imports));
  plugin->dl_name = link_map_name(file);
  plugin->file.emplace(std::move(file));
  Plugin* p = plugin.get();
  registry().all.push_back(std::move(plugin));
  registry().active.push_back(p);
  p->loaded = true;  // visible to plugin_containing while its initializers run

  ::dlerror();
  // A plugin's initializer may load another plugin: its own registrations
  // after that load are still its own.
  Plugin* const outer = t_loading;
  t_loading = p;
  void* const dl = open_object(p->path, p->dl_name, RTLD_NOW | RTLD_LOCAL);
  t_loading = outer;
  if (dl == nullptr) {
    const std::string why = dl_error_text(*p);
    undo_load(*p, lock);
    ST_ERROR("cannot load plugin '", path, "': ", why);
  }
  p->dl = dl;
  // The load address, to recognize the plugin's code (kernels, deleters):
  // for a shared object the link map's l_addr is where it was mapped, the
  // dli_fbase dladdr reports for any address inside it.
  struct link_map* lm = nullptr;
  if (::dlinfo(dl, RTLD_DI_LINKMAP, &lm) == 0 && lm != nullptr) {
    p->base = static_cast<uintptr_t>(lm->l_addr);
    p->dynamic = lm->l_ld;
    if (lm->l_name == nullptr || p->dl_name != lm->l_name) {
      // ld.so's name for this file is the one it got first: someone else.
      const std::string other = lm->l_name != nullptr ? lm->l_name : "?";
      p->dl_name.clear();
      p->base = 0;
      p->dynamic = nullptr;
      ::dlclose(dl);
      p->dl = nullptr;
      p->loaded = false;
      // ld.so now also knows that object by our /proc/self/fd name.
      registry().reserved_files.push_back(std::move(*p->file));
      p->file.reset();
      forget_active(*p);
      ST_ERROR("cannot load plugin '", path, "': the process already loaded this file as '", other,
               "' without stabletorch_load_library, so its static initializers "
               "would not run again; load it only through the loader");
    }
  }
  if (!p->errors.empty()) {
    std::string all;
    for (const std::string& e : p->errors) all += "\n  " + e;
    undo_load(*p, lock);
    ST_ERROR("plugin '", path,
             "' was not loaded (everything it registered was rolled "
             "back): ",
             p->errors.size(), " registration", p->errors.size() == 1 ? "" : "s", " failed:", all);
  }
  p->refcount = 1;
  registry().live.insert(p);
  return p;
}

namespace {

std::string live_tensor_list(const Plugin& p) {
  std::string list;
  for (const auto& [id, what] : p.live_tensors) list += "\n  " + what;
  return list;
}

}  // namespace

void unload(Plugin* p) {
  std::unique_lock<std::recursive_mutex> lock(registry_mutex());
  if (p->refcount > 1) {
    --p->refcount;
    return;
  }
  if (p->unloading) {
    ST_ERROR("cannot unload plugin '", p->path, "': another thread is unloading it");
  }
  for (const PluginCall* c = t_innermost_call; c != nullptr; c = c->outer_) {
    if (c->p_ == p) {
      ST_ERROR("cannot unload plugin '", p->path,
               "' from inside one of its own calls (it would wait for itself)");
    }
  }
  if (!p->live_tensors.empty()) {
    ST_ERROR("cannot unload plugin '", p->path, "': ", p->live_tensors.size(), " tensor",
             p->live_tensors.size() == 1 ? " whose deleter lives" : "s whose deleters live",
             " in it ", p->live_tensors.size() == 1 ? "is" : "are",
             " still alive:", live_tensor_list(*p));
  }
  // Note [Unloading never waits under the registry mutex]
  // Calls into the plugin may be running, and a running kernel may need the
  // registry mutex (torch_from_blob with the plugin's deleter counts the
  // tensor; a kernel may load another plugin). So new calls are turned
  // away (`closing`, Note [Entering plugin code]) and the running ones
  // drain with the mutex released. They may have made tensors whose
  // deleters live in the plugin meanwhile: then the unload is refused and
  // the plugin stays loaded, registrations intact.
  p->unloading = true;
  p->closing.store(true, std::memory_order_seq_cst);
  lock.unlock();
  drain_calls(*p);
  lock.lock();
  p->unloading = false;
  if (!p->live_tensors.empty()) {
    p->closing.store(false, std::memory_order_seq_cst);
    ST_ERROR("cannot unload plugin '", p->path, "': calls running when the unload began made ",
             p->live_tensors.size(), " tensor", p->live_tensors.size() == 1 ? "" : "s",
             " whose deleter", p->live_tensors.size() == 1 ? " lives" : "s live",
             " in it; it stays loaded:", live_tensor_list(*p));
  }
  registry().live.erase(p);
  p->refcount = 0;
  detach_libraries(*p);
  close_plugin(*p);
}

const std::string& report(Plugin* p) {
  std::lock_guard<std::recursive_mutex> lock(registry_mutex());
  if (p->report.empty()) build_report(*p);
  return p->report;
}

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
