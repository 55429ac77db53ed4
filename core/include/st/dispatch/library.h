// st::Library: the registration front end. ST_LIBRARY(ns, m) defines a
// namespace's operators, ST_LIBRARY_IMPL(ns, key, m) adds kernels for one
// dispatch key, ST_LIBRARY_FRAGMENT(ns, m) adds definitions to a namespace
// defined elsewhere. A Library deregisters everything it registered when it
// is destroyed; Library objects may also be created at run time (the C ABI
// makes one per plugin library and deletes it on unload).
//
//   ST_LIBRARY(myops, m) {
//     m.def("myadd(Tensor self, Tensor other) -> Tensor");
//   }
//   ST_LIBRARY_IMPL(myops, CPU, m) {
//     m.impl("myadd", ST_FN(myadd_cpu));
//   }
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <st/core/export.h>
#include <st/dispatch/dispatcher.h>
#include <st/dispatch/function_schema.h>
#include <st/dispatch/kernel_function.h>
#include <st/dispatch/operator_entry.h>
#include <st/dispatch/tag.h>

namespace st {

// A kernel on its way into the dispatcher, with what registration checks:
// its C++ signature and inferred schema (typed kernels only), and an
// optional dispatch key (see st::dispatch).
class ST_API CppFunction {
 public:
  // A typed function pointer, or a boxed one
  // (void(const OperatorHandle&, DispatchKeySet, Stack*)).
  template <typename Func, std::enable_if_t<std::is_function_v<Func>, int> = 0>
  explicit CppFunction(Func* f) {
    if constexpr (std::is_same_v<Func, BoxedKernelFunction>) {
      func_ = KernelFunction::makeFromBoxedFunction(f);
    } else {
      func_ = KernelFunction::makeFromUnboxedRuntimeFunction(f);
      setTyped<Func>();
    }
  }
  // ST_FN(f): a function known at compile time.
  template <auto fn>
  explicit CppFunction(CompileTimeFunctionPointer<fn>) {
    using Func = std::remove_pointer_t<decltype(fn)>;
    if constexpr (std::is_same_v<Func, BoxedKernelFunction>) {
      func_ = KernelFunction::makeFromBoxedFunction<fn>();
    } else {
      func_ = KernelFunction::makeFromUnboxedFunction<fn>();
      setTyped<Func>();
    }
  }
  // A lambda or functor object (typed).
  template <typename Lambda,
            std::enable_if_t<std::is_class_v<std::decay_t<Lambda>> &&
                                 !std::is_same_v<std::decay_t<Lambda>, CppFunction>,
                             int> = 0>
  explicit CppFunction(Lambda&& l) {
    using L = std::decay_t<Lambda>;
    using Func = typename detail::function_traits<L>::func_type;
    func_ = KernelFunction::makeFromUnboxedLambda(std::forward<Lambda>(l));
    setTyped<Func>();
  }

  template <BoxedKernelFunction* fn>
  static CppFunction makeFromBoxedFunction() {
    return CppFunction(KernelFunction::makeFromBoxedFunction<fn>());
  }
  static CppFunction makeFromBoxedFunction(BoxedKernelFunction* fn) {
    return CppFunction(KernelFunction::makeFromBoxedFunction(fn));
  }
  template <typename F>
  static CppFunction makeFromBoxedLambda(F&& f) {
    return CppFunction(KernelFunction::makeFromBoxedLambda(std::forward<F>(f)));
  }
  // A boxed kernel whose typed signature is known (an extension kernel
  // boxed by TORCH_BOX): registration checks `signature` against the
  // operator's schema as it does for typed kernels.
  template <typename F>
  static CppFunction makeFromBoxedLambdaWithSchema(F&& f, FunctionSchema signature) {
    CppFunction c(KernelFunction::makeFromBoxedLambda(std::forward<F>(f)));
    c.schema_ = std::make_shared<const FunctionSchema>(std::move(signature));
    return c;
  }
  static CppFunction makeFallthrough() { return CppFunction(KernelFunction::makeFallthrough()); }
  static CppFunction makeFromKernelFunction(KernelFunction k) { return CppFunction(std::move(k)); }

  CppFunction(CppFunction&&) noexcept = default;
  CppFunction& operator=(CppFunction&&) noexcept = default;

 private:
  friend class Library;
  template <typename F>
  friend CppFunction dispatch(DispatchKey k, F&& f);

  explicit CppFunction(KernelFunction k) : func_(std::move(k)) {}
  // The schema a C++ signature implies is the same every time, so it is
  // inferred once per signature (one function-local static per template
  // instantiation) and shared by every kernel with that signature.
  template <typename Func>
  static const std::shared_ptr<const FunctionSchema>& inferredSchemaOf() {
    static const std::shared_ptr<const FunctionSchema> s =
        std::make_shared<const FunctionSchema>(inferFunctionSchema<Func>());
    return s;
  }
  template <typename Func>
  void setTyped() {
    cpp_signature_ = CppSignature::make<Func>();
    schema_ = inferredSchemaOf<Func>();
  }

  KernelFunction func_;
  std::optional<CppSignature> cpp_signature_;
  std::shared_ptr<const FunctionSchema> schema_;
  std::optional<DispatchKey> dispatch_key_;
};

// Pins a kernel given to def()/impl() of a DEF or FRAGMENT library to a key.
template <typename F>
CppFunction dispatch(DispatchKey k, F&& f) {
  CppFunction c = [&] {
    if constexpr (std::is_same_v<std::decay_t<F>, CppFunction>) {
      return std::move(f);
    } else {
      return CppFunction(std::forward<F>(f));
    }
  }();
  c.dispatch_key_ = k;
  return c;
}

class ST_API Library final {
 public:
  enum Kind { DEF, IMPL, FRAGMENT };

  // key: for IMPL libraries, the key every impl() registers for.
  Library(Kind kind, std::string ns, std::optional<DispatchKey> key, const char* file,
          uint32_t line);
  // The run-time form: key by name. A key name this build has no key for
  // (e.g. "XLA") makes an inert IMPL library: its impl()s and fallback()s are
  // accepted and ignored, so code written for other builds still loads.
  Library(Kind kind, std::string ns, std::string_view key_name, const char* file, uint32_t line);
  ~Library();
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  Library(Library&&) = default;
  Library& operator=(Library&&) = default;

  // A schema ("name.overload(args) -> returns"; the namespace is optional
  // and must be the library's).
  Library& def(std::string_view schema);
  Library& def(FunctionSchema schema);
  // With tags, stored on the operator (OperatorHandle::tags()). By value:
  // the overload a vector (or a braced list of tags) selects over the
  // kernel-taking template below.
  Library& def(std::string_view schema, std::vector<Tag> tags);
  Library& def(FunctionSchema schema, std::vector<Tag> tags);
  // Declares that the operators this library defines from now on have
  // Python-side pieces (e.g. fake kernels) in Python module `module`; the
  // error for a missing kernel then says to import it. Later defs only, as
  // in PyTorch. Throws for an empty module name.
  Library& set_python_module(std::string module, std::string context = "");
  // A schema or just a name (the schema is then inferred from the kernel),
  // plus a kernel (CompositeImplicitAutograd unless st::dispatch says
  // otherwise).
  template <typename Func>
  Library& def(std::string_view schema_or_name, Func&& f) {
    return defWithKernel(schema_or_name, toCppFunction(std::forward<Func>(f)));
  }
  // A kernel for an operator ("name.overload", namespace optional).
  template <typename Func>
  Library& impl(std::string_view name, Func&& f) {
    return implImpl(name, toCppFunction(std::forward<Func>(f)));
  }
  // A backend fallback for this IMPL library's key.
  Library& fallback(CppFunction&& f);

  Kind kind() const { return kind_; }
  const std::string& ns() const { return ns_; }
  std::optional<DispatchKey> key() const { return key_; }
  bool inert() const { return inert_; }
  // Number of registrations this library holds.
  size_t size() const { return registrations_.size(); }

 private:
  template <typename Func>
  static CppFunction toCppFunction(Func&& f) {
    if constexpr (std::is_same_v<std::decay_t<Func>, CppFunction>) {
      return std::move(f);
    } else {
      return CppFunction(std::forward<Func>(f));
    }
  }
  Library& defWithKernel(std::string_view schema_or_name, CppFunction&& f);
  Library& implImpl(std::string_view name, CppFunction&& f);
  void init();
  const std::string& debug() const { return debug_; }
  // Checks the namespace of `name` against the library's (throws naming
  // `what`, e.g. "def").
  void checkNamespace(const OperatorName& name, const char* what) const;
  // checkNamespace, then adds the library's namespace when the name has none.
  void qualify(OperatorName& name, const char* what) const;

  Kind kind_;
  std::string ns_;
  std::optional<DispatchKey> key_;
  bool inert_ = false;
  std::string file_;
  uint32_t line_;
  std::string debug_;  // "registered at file:line", made once (every registration copies it)
  std::optional<PythonModule> python_module_;  // given to every later def
  std::vector<RegistrationHandleRAII> registrations_;
};

namespace detail {

// Runs a static library's init function at load time; the Library lives
// (and keeps its registrations) until the program or plugin unloads.
class ST_API LibraryInit {
 public:
  LibraryInit(Library::Kind kind, void (*init)(Library&), const char* ns,
              std::optional<DispatchKey> key, const char* file, uint32_t line)
      : lib_(kind, ns, key, file, line) {
    init(lib_);
  }
  LibraryInit(Library::Kind kind, void (*init)(Library&), const char* ns, const char* key_name,
              const char* file, uint32_t line)
      : lib_(kind, ns, std::string_view(key_name), file, line) {
    init(lib_);
  }

 private:
  Library lib_;
};

}  // namespace detail
}  // namespace st

#define ST_LIBRARY_CONCAT_INNER_(a, b) a##b
#define ST_LIBRARY_CONCAT_(a, b) ST_LIBRARY_CONCAT_INNER_(a, b)

// Defines namespace `ns` (once per process). `m` is the Library.
#define ST_LIBRARY(ns, m)                                                                \
  static void ST_LIBRARY_init_##ns(::st::Library&);                                      \
  static const ::st::detail::LibraryInit ST_LIBRARY_static_init_##ns(                    \
      ::st::Library::DEF, &ST_LIBRARY_init_##ns, #ns, std::nullopt, __FILE__, __LINE__); \
  void ST_LIBRARY_init_##ns(::st::Library& m)

// Adds definitions to namespace `ns` (any number of times).
#define ST_LIBRARY_FRAGMENT(ns, m) ST_LIBRARY_FRAGMENT_UID_(ns, m, __COUNTER__)
#define ST_LIBRARY_FRAGMENT_UID_(ns, m, uid)                                                    \
  static void ST_LIBRARY_CONCAT_(ST_LIBRARY_fragment_init_##ns##_, uid)(::st::Library&);        \
  static const ::st::detail::LibraryInit ST_LIBRARY_CONCAT_(                                    \
      ST_LIBRARY_fragment_static_init_##ns##_, uid)(                                            \
      ::st::Library::FRAGMENT, &ST_LIBRARY_CONCAT_(ST_LIBRARY_fragment_init_##ns##_, uid), #ns, \
      std::nullopt, __FILE__, __LINE__);                                                        \
  void ST_LIBRARY_CONCAT_(ST_LIBRARY_fragment_init_##ns##_, uid)(::st::Library & m)

// Registers kernels of namespace `ns` for dispatch key `k` (CPU, CUDA,
// Meta, PrivateUse1, CompositeExplicitAutograd, ...; `_` as ns for
// fallbacks). A key this build does not have makes an inert library.
#define ST_LIBRARY_IMPL(ns, k, m) ST_LIBRARY_IMPL_UID_(ns, k, m, __COUNTER__)
#define ST_LIBRARY_IMPL_UID_(ns, k, m, uid)                                                       \
  static void ST_LIBRARY_CONCAT_(ST_LIBRARY_impl_init_##ns##_##k##_, uid)(::st::Library&);        \
  static const ::st::detail::LibraryInit ST_LIBRARY_CONCAT_(                                      \
      ST_LIBRARY_impl_static_init_##ns##_##k##_, uid)(                                            \
      ::st::Library::IMPL, &ST_LIBRARY_CONCAT_(ST_LIBRARY_impl_init_##ns##_##k##_, uid), #ns, #k, \
      __FILE__, __LINE__);                                                                        \
  void ST_LIBRARY_CONCAT_(ST_LIBRARY_impl_init_##ns##_##k##_, uid)(::st::Library & m)
