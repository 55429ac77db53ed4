// st::OperatorEntry: everything the dispatcher knows about one operator:
// its schema, its kernels per dispatch key, and the flat dispatch table the
// call path reads.
#pragma once

#include <array>
#include <atomic>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <st/core/export.h>
#include <st/dispatch/dispatch_key_set.h>
#include <st/dispatch/function_schema.h>
#include <st/dispatch/kernel_function.h>
#include <st/dispatch/operator_name.h>
#include <st/dispatch/tag.h>

namespace st {

struct ST_API AnnotatedKernel {
  KernelFunction kernel;
  std::optional<CppSignature> cpp_signature;
  std::shared_ptr<const FunctionSchema> inferred_schema;  // null for boxed kernels
  std::string debug;                                      // "registered at file:line"
  bool builtin = false;  // installed by the dispatcher itself (fallbacks)
  // The key it is registered for (set by registerKernel), so that undoing a
  // registration needs only the list position.
  DispatchKey key = DispatchKey::Undefined;
};

// The Python module that holds an operator's Python-side pieces (e.g. its
// fake kernel), as declared by Library::set_python_module before the def;
// named to the user when such a piece is missing. context: free text for
// that message ("" when none).
struct ST_API PythonModule {
  std::string module;
  std::string context;
};

// An operator's definition: its schema, where it was registered, and what
// the def said about it besides the schema.
struct ST_API AnnotatedSchema {
  FunctionSchema schema;
  std::string debug;
  std::vector<Tag> tags;  // as given to def(), in order
  std::optional<PythonModule> python_module;
};

// Note [Why the dispatch table is flat]
// The call path must be cheap and lock-free, so an operator's kernels are
// flattened into one immutable array indexed by runtime dispatch key: a call
// computes its key set, masks out the keys whose entry is a fallthrough,
// takes the highest remaining key and indexes the array. Everything the call
// path reads (kernels, the fallthrough mask, the schema, which arguments
// carry dispatch keys) lives in that one DispatchTable object, so a caller
// sees either the old table or the new one, never a mix.
//
// Note [Publishing and reclaiming dispatch tables]
// Registration (under the dispatcher mutex) builds a new table and publishes
// it with a release store into OperatorEntry::table_; callers load it with
// acquire and take no lock. The replaced table cannot be freed at once: a
// concurrent caller may still be reading it, or be inside one of its
// kernels (a plugin may be unloading while a thread runs its kernel; the
// caller runs the old kernel, which for plugin code backs out with an error
// per Note [Entering plugin code] in c_api). So every reader of table()
// outside the dispatcher mutex holds a DispatchReadGuard for as long as it
// uses what it read (the call path across the kernel call), and a replaced
// table is handed to the TableReclaimer (core/src/dispatch/
// table_reclaimer.h), which frees it, with the kernel functors and the
// schema only it still holds, once every read section that was running
// when it was retired has ended (Note [Read sections] in read_guard.h).
// Grace periods begin per batch of retired tables, so their cost (one
// process-wide barrier) is shared by many registrations; the frees happen
// after the dispatcher mutex is released, because a functor's destructor
// may call into the dispatcher. A caller blocked in a kernel holds back
// only the tables retired while it runs. Without the barrier (no
// membarrier) tables are kept, as they were before reclamation existed.
// Freeing tables as soon as the operator became empty, with no grace
// period, crashed tests/stress/test_concurrency_stress (docs/reliability.md).
// Entries themselves are never freed while the dispatcher lives, so
// OperatorHandles stay valid (calling a handle whose operator was removed
// raises an error).
//
// Note [Incremental table updates]
// A registration changes few entries: a def changes none (only the schema
// fields), a CPU kernel changes CPU and AutogradCPU (Note [Computing a
// dispatch table entry], rule 3), an alias kernel the keys of its alias. So
// a new table starts as a copy of the current one and only the affected
// entries are recomputed (keysAffectedBy); a new entry starts with a shared
// empty table and gets its first full table with its first registration.
// Fallback changes rebuild every table. checkInvariants compares the
// published table with a full rebuild, so a wrong affected set shows up in
// every test that checks invariants.
struct ST_API DispatchTable {
  std::array<KernelFunction, kNumRuntimeKeys> kernels;  // [0] = Undefined: missing
  DispatchKeySet non_fallthrough;                       // keys whose entry is not a fallthrough
  uint32_t registered_keys = 0;  // bit k: a kernel list for DispatchKey k is non-empty
  uint32_t num_args = 0;
  uint64_t tensor_arg_mask = 0;  // bit i: argument i is Tensor, Tensor?, Tensor[] or Tensor?[]
  std::shared_ptr<const AnnotatedSchema> schema;  // null until def'd
  // Unique to this table among all tables ever built (0: the shared empty
  // table), so a caller can remember a table without keeping it alive:
  // the address of a freed table can be reused, its id never is.
  uint64_t id = 0;
  // The C++ signature of every kernel of this table that has an unboxed
  // entry point (the operator's, when the table was built), if any. A
  // caller that matches it may call those entry points directly.
  std::optional<CppSignature> cpp_signature;
};

class ST_API OperatorEntry {
 public:
  using KernelList = std::list<AnnotatedKernel>;
  using Fallbacks = std::array<KernelList, kNumRuntimeKeys>;

  explicit OperatorEntry(OperatorName name);
  ~OperatorEntry();
  OperatorEntry(const OperatorEntry&) = delete;
  OperatorEntry& operator=(const OperatorEntry&) = delete;

  const OperatorName& name() const { return name_; }

  // --- call path (lock-free) -----------------------------------------------
  // Precondition: a DispatchReadGuard is alive, or the dispatcher mutex is
  // held; the table lives as long as either.
  const DispatchTable& table() const { return *table_.load(std::memory_order_acquire); }
  // The kernel for a key set; throws the "no kernel" error for a missing
  // entry. `ks` is the unmasked set computed from the arguments.
  const KernelFunction& lookup(const DispatchTable& t, DispatchKeySet ks) const {
    const int idx = (ks & t.non_fallthrough).highestPriorityIndex();
    const KernelFunction& k = t.kernels[idx];
    if (__builtin_expect(!k.isValid(), 0)) return lookupMissing(t, ks);
    return k;
  }
  // lookup's slow path: a backend module not loaded yet (Note [Backend
  // modules] in core/src/device/backend_module.h) is loaded and the lookup
  // retried in the table it published; otherwise the "no kernel" error.
  // Same precondition as table().
  const KernelFunction& lookupMissing(const DispatchTable& t, DispatchKeySet ks) const;
  [[noreturn]] void reportMissingKernel(const DispatchTable& t, DispatchKey key) const;
  // --- registration (precondition: the dispatcher mutex is held) -----------
  bool hasSchema() const { return schema_ != nullptr; }
  const AnnotatedSchema* schema() const { return schema_.get(); }
  void registerSchema(FunctionSchema schema, std::string debug, std::vector<Tag> tags = {},
                      std::optional<PythonModule> python_module = std::nullopt);
  void deregisterSchema();
  // key nullopt means CompositeImplicitAutograd. Warns when it overrides a
  // kernel for the same key. Returns the position to deregister.
  KernelList::iterator registerKernel(std::optional<DispatchKey> key, AnnotatedKernel kernel);
  void deregisterKernel(KernelList::iterator it);
  // Records the C++ signature a typed handle is used with.
  void recordTypedAccess(const CppSignature& sig, const FunctionSchema& inferred);
  bool isEmpty() const;
  // Keys with at least one registered kernel, in key order.
  // Precondition: the dispatcher mutex is held.
  std::vector<DispatchKey> registeredKernelKeys() const;
  // Recomputes and publishes the whole dispatch table.
  void updateTable(const Fallbacks& fallbacks);
  // Publishes a copy of the current table with the entries for `keys`
  // recomputed and the schema fields refreshed (Note [Incremental table
  // updates]). Precondition: only kernels for keys whose
  // keysAffectedBy() is within `keys` changed since the last update.
  void updateTableFor(const Fallbacks& fallbacks, DispatchKeySet keys);
  // The runtime keys whose table entries can change when a kernel for `key`
  // (runtime or alias) is added or removed.
  static DispatchKeySet keysAffectedBy(DispatchKey key);

  // --- debugging (precondition: the dispatcher mutex is held) --------------
  std::string dumpState() const;
  std::string dumpComputedTable(const Fallbacks& fallbacks) const;
  // Throws st::Error describing the first violated invariant.
  void checkInvariants(const Fallbacks& fallbacks) const;

 private:
  struct Computed {
    const AnnotatedKernel* kernel;  // null: missing
    const char* source;             // "kernel", "CompositeExplicitAutograd", ...
  };
  Computed computeEntry(DispatchKey k, const Fallbacks& fallbacks) const;
  std::unique_ptr<DispatchTable> buildTable(const Fallbacks& fallbacks) const;
  // registered_keys and the schema fields of `t` from the entry's state.
  void fillSummary(DispatchTable& t) const;
  void publish(std::unique_ptr<DispatchTable> fresh);
  void checkKernelAgainstSchema(const AnnotatedKernel& k, const FunctionSchema& s) const;

  OperatorName name_;
  std::shared_ptr<const AnnotatedSchema> schema_;
  std::array<KernelList, static_cast<size_t>(DispatchKey::NumDispatchKeys)> kernels_;
  std::optional<CppSignature> cpp_signature_;
  std::string cpp_signature_debug_;
  bool typed_access_ = false;  // a TypedOperatorHandle was made: signature pinned
  std::atomic<const DispatchTable*> table_{nullptr};
  // What table_ points to; null while table_ is the shared empty table.
  // Replaced tables go to the TableReclaimer.
  std::unique_ptr<const DispatchTable> current_;
};

}  // namespace st
