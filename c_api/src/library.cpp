// Operator libraries of extensions: library_init_impl/def/fragment,
// library_def / torch_library_def_with_tags, library_impl /
// torch_library_impl (boxed StableIValue kernels in the core dispatcher),
// torch_library_set_python_module and delete_library_object.
//
// Note [Extension kernels]
// An extension kernel fn(stack, num_args, num_outputs) is registered as a
// boxed kernel of the core's dispatcher. When called, it
//   1. encodes the arguments (the top num_args IValues of the core stack)
//      as StableIValues by the operator's schema: new references that fn
//      steals;
//   2. calls fn on a buffer of max(num_args, num_outputs) slots, catching
//      any C++ exception it throws (same C++ runtime), which becomes an
//      st::Error carrying its message, the operator and the dispatch key;
//   3. decodes stack[0..num_outputs) by the schema's return types, taking
//      ownership of them, and pushes them on the core stack.
// If fn fails, what its buffer still holds is released where ownership is
// certain: live handles (generation-checked, so never one fn deleted) and
// the arguments still in place as handed over; an optional argument's
// slot is left alone, since fn may have freed it (a leak beats a double
// free).
//
// Note [Kernel signature check]
// StableIValues carry no type tag: a kernel whose C++ parameters disagree
// with the schema would misread its stack. A kernel registered through
// stabletorch_library_impl_with_signature (TORCH_BOX does) comes with its
// C++ signature as a schema; the dispatcher compares it with the operator's
// schema when both are known (at impl when the def came first, else at the
// def) and refuses a mismatch, listing every differing position.
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <st/dispatch/library.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <stabletorch/c/library.h>
#include <torch/csrc/stable/c/shim.h>

#include "abi_codes.h"
#include "build_version.h"
#include "error_state.h"
#include "handle_types.h"
#include "loader/plugin_registry.h"
#include "stable_ivalue_codec.h"

// As STC_API_END, and a failure while a plugin loads is also recorded
// against it, so stabletorch_load_library refuses the plugin whole instead
// of leaving it half registered (Note [Plugin ownership]).
#define STC_REGISTRATION_END                                                              \
  }                                                                                       \
  catch (const std::exception& stc_e) {                                                   \
    ::stc::plugins::note_registration_error(::stc::plugins::loading_plugin(),             \
                                            std::string(__func__) + ": " + stc_e.what()); \
    return ::stc::record_failure(__func__, stc_e);                                        \
  }                                                                                       \
  catch (...) {                                                                           \
    return ::stc::record_unknown_failure(__func__);                                       \
  }                                                                                       \
  return AOTI_TORCH_SUCCESS;

namespace stc {

using StableBoxedFn = void (*)(StableIValue*, uint64_t, uint64_t);

// A library object of the C ABI. One created while a plugin loads belongs
// to it: unloading the plugin detaches it (drops every registration) even
// if the plugin never deletes it (Note [Plugin ownership]).
class LibraryObject {
 public:
  LibraryObject(st::Library::Kind kind, std::string ns, std::optional<std::string> key,
                const char* file, uint32_t line)
      : ns_(ns),
        key_name_(key.value_or("CompositeImplicitAutograd")),
        where_(std::string(file != nullptr ? file : "?") + ":" + std::to_string(line)),
        library_(make(kind, std::move(ns), key, file, line)),
        plugin_(plugins::loading_plugin()),
        is_def_(kind == st::Library::DEF) {}
  ~LibraryObject() { plugins::forget_library(plugin_, plugin_token_); }
  LibraryObject(const LibraryObject&) = delete;
  LibraryObject& operator=(const LibraryObject&) = delete;

  st::Library& library() {
    ST_CHECK(library_.has_value(), "the library registered at ", where_,
             failure_.empty() ? " belongs to a plugin that was unloaded"
                              : " was dropped: its registration failed (" + failure_ + ")");
    return *library_;
  }
  const std::string& ns() const { return ns_; }
  const std::string& key_name() const { return key_name_; }
  const std::string& where() const { return where_; }
  plugins::Plugin* plugin() const { return plugin_; }
  bool is_def() const { return is_def_; }
  // Drops every registration (its plugin is being unloaded).
  void detach() { library_.reset(); }
  // Drops every registration: the extension reported that registering
  // into this library failed.
  void fail(std::string why) {
    failure_ = std::move(why);
    library_.reset();
  }
  void set_plugin_token(uint64_t token) { plugin_token_ = token; }

 private:
  static st::Library make(st::Library::Kind kind, std::string ns,
                          const std::optional<std::string>& key, const char* file, uint32_t line) {
    if (key.has_value())
      return st::Library(kind, std::move(ns), std::string_view(*key), file, line);
    return st::Library(kind, std::move(ns), std::nullopt, file, line);
  }

  std::string ns_;
  std::string key_name_;
  std::string where_;
  std::optional<st::Library> library_;
  plugins::Plugin* plugin_;
  bool is_def_;
  uint64_t plugin_token_ = 0;
  std::string failure_;  // what the extension reported, if it did
};

void delete_library_object(LibraryObject* library) noexcept { delete library; }

namespace {

// Dispatch key names PyTorch extensions use that this core has no key for:
// an IMPL library for one of them is accepted and inert (its kernels are
// never selected), so plugins written for other builds still load.
bool is_known_foreign_key(std::string_view k) {
  static const char* const kKeys[] = {"XPU",
                                      "MPS",
                                      "HIP",
                                      "XLA",
                                      "Lazy",
                                      "MTIA",
                                      "HPU",
                                      "IPU",
                                      "VE",
                                      "Vulkan",
                                      "Metal",
                                      "MAIA",
                                      "FPGA",
                                      "SparseCPU",
                                      "SparseCUDA",
                                      "QuantizedCPU",
                                      "QuantizedCUDA",
                                      "MkldnnCPU",
                                      "NestedTensorCPU",
                                      "NestedTensorCUDA",
                                      "AutogradXPU",
                                      "AutogradMPS",
                                      "AutogradLazy",
                                      "AutogradXLA",
                                      "AutocastCPU",
                                      "AutocastCUDA",
                                      "AutocastXPU",
                                      "AutocastMPS",
                                      "Python",
                                      "Functionalize",
                                      "FuncTorchBatched",
                                      "CompositeExplicitAutogradNonFunctional",
                                      "AutogradNestedTensor",
                                      "PrivateUse2",
                                      "PrivateUse3",
                                      "SparseCsrCPU",
                                      "SparseCsrCUDA"};
  for (const char* key : kKeys) {
    if (k == key) return true;
  }
  return false;
}

void check_namespace(const char* ns) {
  ST_CHECK(ns != nullptr, "ns: null namespace");
  const std::string_view s(ns);
  ST_CHECK(!s.empty(), "ns: empty namespace");
  for (char c : s) {
    const bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    ST_CHECK(ok, "ns: namespace '", s, "' must be an identifier ([A-Za-z0-9_])");
  }
}

TorchLibraryHandle new_library(st::Library::Kind kind, const char* ns,
                               std::optional<std::string> key, const char* file, uint32_t line) {
  check_namespace(ns);
  std::unique_ptr<LibraryObject, LibraryDeleter> lib(
      new LibraryObject(kind, ns, std::move(key), file, line));
  LibraryObject* obj = lib.get();
  const auto h = to_handle<TorchLibraryHandle>(make_handle<LibraryBox>(LibraryBox{std::move(lib)}));
  obj->set_plugin_token(plugins::note_library(
      obj->plugin(), obj->ns(), obj->is_def(), [obj] { obj->detach(); },
      [h] { destroy<LibraryBox>(h, "library of an unloaded plugin"); }));
  return h;
}

LibraryObject& library_of(TorchLibraryHandle h, const char* what) {
  return *get<LibraryBox>(h, what).library;
}

// The boxed kernel around an extension's fn (Note [Extension kernels]).
struct StableKernel {
  StableBoxedFn fn;
  uint64_t extension_build_version;
  std::string key_name;
  std::string where;
  plugins::Plugin* plugin;  // whose code fn is, or null

  // After fn failed: releases what its buffer still holds that is known to
  // be owned here (Note [Extension kernels]). An argument still in place
  // as handed over is released by its schema type, except an optional,
  // whose slot the kernel may have freed (only its address is left to
  // compare); any other live handle in the buffer was put there by the
  // kernel (a return, or one it made) and is deleted. Handles are
  // generation-checked, so one the kernel already deleted is skipped even
  // if its slot was reused since.
  static void release_after_failure(const std::vector<st::Argument>& args,
                                    const StableIValue* handed, const StableIValue* buf,
                                    size_t n) noexcept {
    for (size_t i = 0; i < n; ++i) {
      if (i < args.size() && buf[i] == handed[i]) {
        if (args[i].type.kind() != st::TypeKind::Optional) release(args[i].type, buf[i]);
      } else {
        destroy_any_if_live(reinterpret_cast<const void*>(static_cast<uintptr_t>(buf[i])));
      }
    }
  }

  [[noreturn]] void fail(const st::OperatorHandle& op, st::DispatchKeySet ks,
                         const std::string& what) const {
    st::DispatchKey backend = st::DispatchKey::Undefined;
    for (st::DispatchKey k : ks) {
      if (st::isBackendDispatchKey(k)) backend = k;  // ascending: the highest wins
    }
    ST_ERROR(
        op.operatorName(), " (extension kernel for dispatch key ", key_name, ", called for ",
        st::toString(backend != st::DispatchKey::Undefined ? backend : ks.highestPriorityKey()),
        ", registered at ", where, "): ", what);
  }

  void operator()(const st::OperatorHandle& op, st::DispatchKeySet ks, st::Stack* stack) const {
    const st::FunctionSchema& schema = op.schema();
    const auto& args = schema.arguments();
    const auto& rets = schema.returns();
    const size_t n_args = args.size();
    const size_t n_rets = rets.size();
    if (stack->size() < n_args) {
      fail(op, ks,
           "the stack holds " + std::to_string(stack->size()) + " value(s) but the schema has " +
               std::to_string(n_args) + " argument(s)");
    }
    const size_t n = std::max(n_args, n_rets);
    // The kernel's buffer, then the arguments as they were handed to it
    // (for the failure path).
    StableIValue small[2 * 16];
    std::vector<StableIValue> big;
    StableIValue* buf = small;
    if (n > 16) {
      big.resize(2 * n);
      buf = big.data();
    }
    StableIValue* handed = buf + n;
    std::fill(buf, buf + n, StableIValue{0});

    st::IValue* base = stack->data() + (stack->size() - n_args);
    for (size_t i = 0; i < n_args; ++i) {
      try {
        buf[i] = encode(args[i].type, std::move(base[i]));
      } catch (const std::exception& e) {
        for (size_t j = 0; j < i; ++j) release(args[j].type, buf[j]);
        fail(op, ks, "argument " + std::to_string(i) + " '" + args[i].name + "': " + e.what());
      }
    }
    stack->erase(stack->end() - static_cast<std::ptrdiff_t>(n_args), stack->end());
    std::copy(buf, buf + n_args, handed);

    plugins::PluginCall in_plugin(plugin);
    if (!in_plugin.entered()) {
      // Looked up just before its plugin began unloading: release what the
      // kernel would have stolen and fail instead of running its code.
      for (size_t j = 0; j < n_args; ++j) release(args[j].type, buf[j]);
      fail(op, ks, "its plugin is being unloaded (stabletorch_unload_library)");
    }
    try {
      fn(buf, n_args, n_rets);
    } catch (const std::exception& e) {
      release_after_failure(args, handed, buf, n);
      fail(op, ks, std::string("the kernel threw: ") + e.what());
    } catch (...) {
      release_after_failure(args, handed, buf, n);
      fail(op, ks, "the kernel threw an exception of unknown type");
    }

    stack->reserve(stack->size() + n_rets);
    for (size_t j = 0; j < n_rets; ++j) {
      try {
        stack->push_back(decode(rets[j].type, buf[j]));
      } catch (const std::exception& e) {
        for (size_t k = j; k < n_rets; ++k) release(rets[k].type, buf[k]);
        fail(op, ks, "return " + std::to_string(j) + ": " + e.what());
      }
      release(rets[j].type, buf[j]);
    }
  }
};

// The kernel's C++ signature ("(Tensor _0, float? _1) -> Tensor") as a
// schema the dispatcher checks against the operator's (Note [Kernel
// signature check]).
st::FunctionSchema parse_kernel_signature(const char* name, const char* signature) {
  try {
    return st::FunctionSchema::parse(std::string("kernel") + signature);
  } catch (const std::exception& e) {
    ST_ERROR("kernel_signature: '", signature, "' given for operator '", name,
             "' is not a schema signature like \"(Tensor _0, int _1) -> Tensor\": ", e.what());
  }
}

void library_impl(TorchLibraryHandle self, const char* name, StableBoxedFn fn,
                  uint64_t extension_build_version, const char* kernel_signature = nullptr) {
  LibraryObject& lib = library_of(self, "self");
  ST_CHECK(name != nullptr, "name: null operator name");
  ST_CHECK(fn != nullptr, "fn: null kernel for operator '", name, "'");
  check_extension_build_version(extension_build_version);
  StableKernel k{fn, extension_build_version, lib.key_name(), lib.where(), lib.plugin()};
  if (kernel_signature != nullptr) {
    lib.library().impl(name, st::CppFunction::makeFromBoxedLambdaWithSchema(
                                 std::move(k), parse_kernel_signature(name, kernel_signature)));
  } else {
    lib.library().impl(name, st::CppFunction::makeFromBoxedLambda(std::move(k)));
  }
  const std::string_view n(name);
  plugins::note_impl(lib.plugin(),
                     n.find("::") == std::string_view::npos ? lib.ns() + "::" + name : name,
                     lib.key_name());
}

// More tags than any def can mean (there are 20, a repeat is pointless)
// is a garbage count: refused before the array is read.
constexpr int32_t kMaxTags = 64;

std::vector<st::Tag> tags_from_codes(const int32_t* tags, int32_t num_tags) {
  ST_CHECK(num_tags >= 0 && num_tags <= kMaxTags, "num_tags: ", num_tags,
           " is not a tag count (expected 0 to ", kMaxTags, ")");
  ST_CHECK(tags != nullptr || num_tags == 0, "tags: null array with num_tags ", num_tags);
  std::vector<st::Tag> out;
  out.reserve(static_cast<size_t>(num_tags));
  for (int32_t i = 0; i < num_tags; ++i) {
    const std::string what = "tags[" + std::to_string(i) + "]";
    out.push_back(tag_from_code(tags[i], what.c_str()));
  }
  return out;
}

// "ns::name.overload" of a schema string def'd in namespace ns.
std::string defined_name(const std::string& ns, std::string_view schema) {
  std::string_view name = schema.substr(0, schema.find('('));
  while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
  return name.find("::") == std::string_view::npos ? ns + "::" + std::string(name)
                                                   : std::string(name);
}

void library_def(TorchLibraryHandle self, const char* schema, std::vector<st::Tag> tags) {
  LibraryObject& lib = library_of(self, "self");
  ST_CHECK(schema != nullptr, "schema: null schema string");
  lib.library().def(std::string_view(schema), std::move(tags));
  plugins::note_def(lib.plugin(), defined_name(lib.ns(), schema));
}

}  // namespace
}  // namespace stc

extern "C" {

AOTITorchError aoti_torch_library_init_impl(const char* ns, const char* k, const char* file,
                                            uint32_t line, TorchLibraryHandle* ret_new_torch_lib) {
  STC_API_BEGIN
  stc::check_out(ret_new_torch_lib, "ret_new_torch_lib");
  ST_CHECK(k != nullptr, "k: null dispatch key");
  ST_CHECK(st::parseDispatchKey(k).has_value() || stc::is_known_foreign_key(k),
           "k: unknown dispatch key '", k,
           "' (expected e.g. CPU, CUDA, Meta, PrivateUse1, CompositeExplicitAutograd, "
           "CompositeImplicitAutograd, Autograd)");
  *ret_new_torch_lib = stc::new_library(st::Library::IMPL, ns, std::string(k), file, line);
  STC_REGISTRATION_END
}

AOTITorchError aoti_torch_library_init_def(const char* ns, const char* file, uint32_t line,
                                           TorchLibraryHandle* ret_new_torch_lib) {
  STC_API_BEGIN
  stc::check_out(ret_new_torch_lib, "ret_new_torch_lib");
  *ret_new_torch_lib = stc::new_library(st::Library::DEF, ns, std::nullopt, file, line);
  STC_REGISTRATION_END
}

AOTITorchError aoti_torch_library_init_fragment(const char* ns, const char* file, uint32_t line,
                                                TorchLibraryHandle* ret_new_torch_lib) {
  STC_API_BEGIN
  stc::check_out(ret_new_torch_lib, "ret_new_torch_lib");
  *ret_new_torch_lib = stc::new_library(st::Library::FRAGMENT, ns, std::nullopt, file, line);
  STC_REGISTRATION_END
}

AOTITorchError aoti_torch_library_impl(TorchLibraryHandle self, const char* name,
                                       void (*fn)(StableIValue*, uint64_t, uint64_t)) {
  STC_API_BEGIN
  stc::library_impl(self, name, fn, stc::kUnversionedBuildVersion);
  STC_REGISTRATION_END
}

AOTITorchError torch_library_impl(TorchLibraryHandle self, const char* name,
                                  void (*fn)(StableIValue*, uint64_t, uint64_t),
                                  uint64_t extension_build_version) {
  STC_API_BEGIN
  stc::library_impl(self, name, fn, extension_build_version);
  STC_REGISTRATION_END
}

AOTITorchError stabletorch_library_impl_with_signature(
    TorchLibraryHandle self, const char* name, void (*fn)(StableIValue*, uint64_t, uint64_t),
    uint64_t extension_build_version, const char* kernel_signature) {
  STC_API_BEGIN
  stc::library_impl(self, name, fn, extension_build_version, kernel_signature);
  STC_REGISTRATION_END
}

AOTITorchError aoti_torch_library_def(TorchLibraryHandle self, const char* schema) {
  STC_API_BEGIN
  stc::library_def(self, schema, {});
  STC_REGISTRATION_END
}

AOTITorchError torch_library_def_with_tags(TorchLibraryHandle self, const char* schema,
                                           const int32_t* tags, int32_t num_tags) {
  STC_API_BEGIN(void) stc::library_of(self, "self");  // a bad handle is named before the tags
  stc::library_def(self, schema, stc::tags_from_codes(tags, num_tags));
  STC_REGISTRATION_END
}

AOTITorchError torch_library_set_python_module(TorchLibraryHandle self, const char* pymodule,
                                               const char* context) {
  STC_API_BEGIN
  stc::LibraryObject& lib = stc::library_of(self, "self");
  ST_CHECK(pymodule != nullptr, "pymodule: null Python module name");
  ST_CHECK(*pymodule != '\0', "pymodule: empty Python module name");
  lib.library().set_python_module(pymodule, context != nullptr ? context : "");
  STC_REGISTRATION_END
}

AOTITorchError stabletorch_library_report_failure(TorchLibraryHandle self, const char* message) {
  STC_API_BEGIN
  stc::LibraryObject& lib = stc::library_of(self, "self");
  const std::string what = message != nullptr ? message : "(no message)";
  lib.fail(what);
  // Against the plugin the library belongs to: its load fails and rolls
  // back (Note [Plugin ownership]).
  stc::plugins::note_registration_error(
      lib.plugin(), "the extension reported that registering its library for namespace " +
                        lib.ns() + ", at " + lib.where() + ", failed: " + what);
  STC_API_END
}

AOTITorchError aoti_torch_delete_library_object(TorchLibraryHandle tlh) {
  STC_API_BEGIN
  stc::destroy<stc::LibraryBox>(tlh, "tlh");
  STC_API_END
}

}  // extern "C"
