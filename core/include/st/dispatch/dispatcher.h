// st::Dispatcher: the process-wide registry of operators and the router that
// calls the right kernel for a call's arguments. See docs/architecture.md
// ("Dispatcher") for how a call flows and how a table entry is chosen.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <st/core/error.h>
#include <st/core/export.h>
#include <st/dispatch/dispatch_key_set.h>
#include <st/dispatch/function_schema.h>
#include <st/dispatch/ivalue.h>
#include <st/dispatch/kernel_function.h>
#include <st/dispatch/operator_entry.h>
#include <st/dispatch/operator_name.h>
#include <st/dispatch/read_guard.h>

namespace st {

template <typename Sig>
class TypedOperatorHandle;

// Undoes one registration when destroyed (never throws). Move-only.
class ST_API RegistrationHandleRAII {
 public:
  RegistrationHandleRAII() = default;
  explicit RegistrationHandleRAII(std::function<void()> on_destroy)
      : on_destroy_(std::move(on_destroy)) {}
  RegistrationHandleRAII(RegistrationHandleRAII&& o) noexcept
      : on_destroy_(std::exchange(o.on_destroy_, nullptr)) {}
  RegistrationHandleRAII& operator=(RegistrationHandleRAII&& o) noexcept {
    if (this != &o) {
      reset();
      on_destroy_ = std::exchange(o.on_destroy_, nullptr);
    }
    return *this;
  }
  RegistrationHandleRAII(const RegistrationHandleRAII&) = delete;
  RegistrationHandleRAII& operator=(const RegistrationHandleRAII&) = delete;
  ~RegistrationHandleRAII() { reset(); }
  // Deregisters now.
  void reset() noexcept;

 private:
  std::function<void()> on_destroy_;
};

// A cheap, copyable reference to a registered operator. Valid as long as
// the dispatcher lives (Note [Publishing and reclaiming dispatch tables]).
class ST_API OperatorHandle {
 public:
  OperatorHandle() = default;
  explicit OperatorHandle(OperatorEntry* entry) : entry_(entry) {}

  const OperatorName& operatorName() const { return entry_->name(); }
  bool hasSchema() const {
    DispatchReadGuard guard;
    return entry_->table().schema != nullptr;
  }
  // Throws when the operator has no schema (never def'd, or removed). The
  // reference stays valid while the operator keeps this def, and in any
  // case until the DispatchReadGuard the caller holds ends (a kernel runs
  // inside its call's guard).
  const FunctionSchema& schema() const;
  const std::string& debug() const;
  // The tags its def gave, in order (same lifetime as schema(); throws
  // likewise).
  const std::vector<Tag>& tags() const;
  bool hasTag(Tag tag) const;
  // The Python module its library declared before the def, if any.
  std::optional<PythonModule> pythonModule() const;

  void callBoxed(Stack* stack) const;
  void callBoxed(Stack& stack) const { callBoxed(&stack); }
  void redispatchBoxed(DispatchKeySet ks, Stack* stack) const;

  // A typed handle; throws when Sig disagrees with the schema or with the
  // C++ signature of the operator's typed kernels.
  template <typename Sig>
  TypedOperatorHandle<Sig> typed() const;

  std::string dumpState() const;
  std::string dumpComputedTable() const;
  // Dispatch keys that have a kernel registered for this operator.
  std::vector<DispatchKey> registeredKernelKeys() const;
  void checkInvariants() const;

  OperatorEntry* entry() const { return entry_; }
  bool operator==(const OperatorHandle& o) const { return entry_ == o.entry_; }
  bool operator!=(const OperatorHandle& o) const { return entry_ != o.entry_; }

 private:
  OperatorEntry* entry_ = nullptr;
};

namespace detail {

// Note [Dispatch key extraction]
// A tensor contributes its backend key (from its device type), that
// backend's autograd key and ADInplaceOrView. Tensor, Tensor?, Tensor[] and
// Tensor?[] arguments contribute; undefined tensors do not. A call whose
// arguments contribute nothing (factory functions) dispatches to
// BackendSelect, whose kernel picks the backend from the dtype/layout/device
// arguments and redispatches (see computeDispatchKey).
ST_API extern const uint64_t kDeviceTypeKeySets[torch::headeronly::COMPILE_TIME_MAX_DEVICE_TYPES];

inline DispatchKeySet keysOf(const Tensor& t) {
  const TensorImpl* impl = t.unsafeGetTensorImpl();
  if (impl == nullptr) return DispatchKeySet();
  return DispatchKeySet::fromRaw(kDeviceTypeKeySets[static_cast<uint8_t>(impl->device().type())]);
}
inline DispatchKeySet keysOf(const std::optional<Tensor>& t) {
  return t.has_value() ? keysOf(*t) : DispatchKeySet();
}
inline DispatchKeySet keysOf(ArrayRef<Tensor> ts) {
  DispatchKeySet ks;
  for (const Tensor& t : ts) ks = ks | keysOf(t);
  return ks;
}
inline DispatchKeySet keysOf(const std::vector<Tensor>& ts) { return keysOf(ArrayRef<Tensor>(ts)); }
inline DispatchKeySet keysOf(const std::vector<std::optional<Tensor>>& ts) {
  DispatchKeySet ks;
  for (const auto& t : ts) ks = ks | keysOf(t);
  return ks;
}
template <typename T>
DispatchKeySet keysOf(const T&) {
  return DispatchKeySet();
}

// The set a call dispatches with, from the union of its arguments' keys:
// BackendSelect when they contribute nothing (Note [Dispatch key
// extraction]). The one place of that rule for every call path.
inline DispatchKeySet withBackendSelect(DispatchKeySet ks) {
  return __builtin_expect(ks.empty(), 0) ? DispatchKeySet(DispatchKey::BackendSelect) : ks;
}

template <typename... Args>
DispatchKeySet computeKeySet(const Args&... args) {
  return withBackendSelect((DispatchKeySet() | ... | keysOf(args)));
}

// The boxed counterpart: keys of the Tensor-like arguments at the top of
// the stack (their positions come from the schema, cached in the table).
// Lists and errors take the out-of-line path.
ST_API DispatchKeySet computeKeySetBoxedSlow(const DispatchTable& t, const Stack& stack);
inline DispatchKeySet computeKeySetBoxed(const DispatchTable& t, const Stack& stack) {
  // The size check in bytes: stack.size() would divide by sizeof(IValue).
  const IValue* begin = stack.data();
  const IValue* end = begin + stack.size();
  const size_t bytes = static_cast<size_t>(reinterpret_cast<const char*>(end) -
                                           reinterpret_cast<const char*>(begin));
  if (__builtin_expect(bytes < size_t{t.num_args} * sizeof(IValue), 0)) {
    return computeKeySetBoxedSlow(t, stack);
  }
  DispatchKeySet ks;
  const IValue* base = end - t.num_args;
  for (uint64_t bits = t.tensor_arg_mask; bits != 0; bits &= bits - 1) {
    const IValue& v = base[__builtin_ctzll(bits)];
    if (__builtin_expect(v.isTensor(), 1)) {
      ks = ks | keysOf(v.toTensor());
    } else if (!v.isNone()) {
      return computeKeySetBoxedSlow(t, stack);
    }
  }
  return withBackendSelect(ks);
}

[[noreturn]] ST_API void throwNoSchema(const OperatorName& name);

}  // namespace detail

// The backend key for a factory call's dtype/layout/device arguments:
// the device's backend when a device is given, CPU otherwise. Throws for a
// device type this build has no key for, or a non-strided layout.
ST_API DispatchKey computeDispatchKey(std::optional<ScalarType> dtype, std::optional<Layout> layout,
                                      std::optional<Device> device);

class ST_API Dispatcher {
 public:
  static Dispatcher& singleton();

  // --- lookup ---------------------------------------------------------------
  // The operator with this name if it has a schema.
  std::optional<OperatorHandle> findSchema(const OperatorName& name);
  // Throws st::Error when there is no such operator; the message suggests
  // operators with near names.
  OperatorHandle findSchemaOrThrow(std::string_view name, std::string_view overload_name);
  // The operator with this name, with or without a schema (e.g. only impls).
  std::optional<OperatorHandle> findOp(const OperatorName& name);
  // Every operator that has a schema, sorted by name.
  std::vector<OperatorName> getAllOpNames();

  // --- registration (thread-safe) --------------------------------------------
  // debug is "registered at file:line" (or similar), shown in errors; tags
  // and python_module are stored with the schema (AnnotatedSchema).
  RegistrationHandleRAII registerDef(FunctionSchema schema, std::string debug,
                                     std::vector<Tag> tags = {},
                                     std::optional<PythonModule> python_module = std::nullopt);
  // key nullopt = CompositeImplicitAutograd. May come before the def.
  RegistrationHandleRAII registerImpl(OperatorName name, std::optional<DispatchKey> key,
                                      KernelFunction kernel,
                                      std::optional<CppSignature> cpp_signature,
                                      std::shared_ptr<const FunctionSchema> inferred_schema,
                                      std::string debug);
  // A fallback for every operator without its own kernel for `key` (alias
  // keys register for each runtime key they stand for).
  RegistrationHandleRAII registerFallback(DispatchKey key, KernelFunction kernel,
                                          std::string debug);
  // Claims a namespace for a DEF library. Throws naming both places when it
  // is already claimed.
  RegistrationHandleRAII registerLibrary(std::string ns, std::string debug);

  // --- calling ---------------------------------------------------------------
  // Static: the call path needs nothing from the registry itself (Note [Why
  // the dispatch table is flat]); callable as Dispatcher::singleton().call().
  static void callBoxed(const OperatorHandle& op, Stack* stack);
  static void redispatchBoxed(const OperatorHandle& op, DispatchKeySet ks, Stack* stack);
  // callBoxed with a table the caller already loaded from op's entry.
  // Precondition: a DispatchReadGuard has been held since `t` was loaded
  // and is held until this returns.
  static void callBoxedWithTable(const OperatorHandle& op, const DispatchTable& t, Stack* stack) {
    callBoxedWithKeySet(op, t, detail::computeKeySetBoxed(t, *stack), stack);
  }
  // callBoxedWithTable with the arguments' key set given: the C ABI checks
  // its converter plan against `t`, dispatches through the same table and
  // gathers the keys as it takes each tensor out of its handle. `ks` must
  // be what detail::computeKeySetBoxed(t, *stack) returns, i.e.
  // withBackendSelect of the union of keysOf over the tensor arguments.
  // Same precondition on the read guard.
  static void callBoxedWithKeySet(const OperatorHandle& op, const DispatchTable& t,
                                  DispatchKeySet ks, Stack* stack) {
    op.entry()->lookup(t, ks).callBoxed(op, ks, stack);
  }
  template <typename Ret, typename... Args>
  static Ret call(const TypedOperatorHandle<Ret(Args...)>& op, Args... args);
  template <typename Ret, typename... Args>
  static Ret redispatch(const TypedOperatorHandle<Ret(Args...)>& op, DispatchKeySet ks,
                        Args... args);

  // --- debugging -------------------------------------------------------------
  std::string dumpState(const OperatorHandle& op);
  std::vector<DispatchKey> registeredKernelKeys(const OperatorHandle& op);
  std::string dumpComputedTable(const OperatorHandle& op);
  void checkInvariants(const OperatorHandle& op);
  // Checks every operator.
  void checkInvariants();
  std::string dumpFallbacks();

  // Replaced dispatch tables (Note [Publishing and reclaiming dispatch
  // tables]): how many were retired and freed, how many wait for their
  // grace period, and whether they are freed at all on this system.
  struct RetiredTableStats {
    uint64_t retired = 0;
    uint64_t freed = 0;
    size_t waiting = 0;
    bool reclaiming = false;
  };
  RetiredTableStats retiredTableStats();
  // Begins a grace period now (instead of at the next full batch) and frees
  // every retired table no read section can still use.
  void reclaimRetiredTables();

  // Internal: used by OperatorHandle::typed.
  void recordTypedAccess(const OperatorHandle& op, const CppSignature& sig,
                         const FunctionSchema& inferred);

 private:
  Dispatcher();
  ~Dispatcher() = delete;  // leaked on purpose: static Libraries may outlive it
  OperatorEntry& findOrCreate(const OperatorName& name);  // mutex held
  void updateAllTables();                                 // mutex held
  // Moves the retired tables whose grace period is over into `garbage`,
  // which the caller destroys after releasing the mutex. Mutex held.
  using Garbage = std::vector<std::unique_ptr<const DispatchTable>>;
  void collectRetired(Garbage& garbage, bool force = false);

  mutable std::mutex mutex_;
  std::unordered_map<OperatorName, std::unique_ptr<OperatorEntry>> operators_;
  OperatorEntry::Fallbacks fallbacks_;
  std::unordered_map<std::string, std::string> libraries_;
};

template <typename Sig>
class TypedOperatorHandle;

// An OperatorHandle checked for one C++ signature: call() takes exactly
// these argument types and goes straight to unboxed kernels.
template <typename Ret, typename... Args>
class TypedOperatorHandle<Ret(Args...)> : public OperatorHandle {
 public:
  TypedOperatorHandle() = default;
  __attribute__((always_inline)) Ret call(Args... args) const {
    return Dispatcher::call<Ret, Args...>(*this, std::forward<Args>(args)...);
  }
  Ret redispatch(DispatchKeySet ks, Args... args) const {
    return Dispatcher::redispatch<Ret, Args...>(*this, ks, std::forward<Args>(args)...);
  }

 private:
  friend class OperatorHandle;
  explicit TypedOperatorHandle(OperatorHandle h) : OperatorHandle(h) {}
};

template <typename Sig>
TypedOperatorHandle<Sig> OperatorHandle::typed() const {
  Dispatcher::singleton().recordTypedAccess(*this, CppSignature::make<Sig>(),
                                            inferFunctionSchema<Sig>());
  return TypedOperatorHandle<Sig>(*this);
}

template <typename Ret, typename... Args>
inline __attribute__((always_inline)) Ret Dispatcher::call(
    const TypedOperatorHandle<Ret(Args...)>& op, Args... args) {
  OperatorEntry* e = op.entry();
  DispatchReadGuard guard;  // the table and its kernel outlive the call
  const DispatchTable& t = e->table();
  const DispatchKeySet ks = detail::computeKeySet<std::decay_t<Args>...>(args...);
  const KernelFunction& k = e->lookup(t, ks);
  return k.template call<Ret, Args...>(op, ks, std::forward<Args>(args)...);
}

template <typename Ret, typename... Args>
inline Ret Dispatcher::redispatch(const TypedOperatorHandle<Ret(Args...)>& op, DispatchKeySet ks,
                                  Args... args) {
  OperatorEntry* e = op.entry();
  DispatchReadGuard guard;
  const DispatchTable& t = e->table();
  const KernelFunction& k = e->lookup(t, ks);
  return k.template call<Ret, Args...>(op, ks, std::forward<Args>(args)...);
}

}  // namespace st
