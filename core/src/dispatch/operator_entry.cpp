#include <st/dispatch/operator_entry.h>

#include <sstream>

#include <st/core/error.h>
#include <st/core/warning.h>

#include "device/backend_module.h"
#include "table_reclaimer.h"

namespace st {

namespace {

constexpr size_t keyIndex(DispatchKey k) { return static_cast<size_t>(k); }

// The backend an autograd key belongs to (Undefined for AutogradOther).
DispatchKey backendOfAutogradKey(DispatchKey k) {
  switch (k) {
    case DispatchKey::AutogradCPU:
      return DispatchKey::CPU;
    case DispatchKey::AutogradCUDA:
      return DispatchKey::CUDA;
    case DispatchKey::AutogradMeta:
      return DispatchKey::Meta;
    case DispatchKey::AutogradPrivateUse1:
      return DispatchKey::PrivateUse1;
    default:
      return DispatchKey::Undefined;
  }
}

// The table of an entry that has had no registration yet: no schema, no
// kernels. Shared by all such entries; leaked, because entries are.
const DispatchTable& emptyTable() {
  static const DispatchTable* t = new DispatchTable();
  return *t;
}

}  // namespace

OperatorEntry::OperatorEntry(OperatorName name) : name_(std::move(name)) {
  table_.store(&emptyTable(), std::memory_order_release);
}

OperatorEntry::~OperatorEntry() = default;

void OperatorEntry::checkKernelAgainstSchema(const AnnotatedKernel& k,
                                             const FunctionSchema& s) const {
  if (!k.inferred_schema) return;
  std::string diff = diffKernelSchema(s, *k.inferred_schema);
  ST_CHECK(diff.empty(), "operator '", name_, "': ", diff, "\n  kernel ", k.debug, "\n  schema ",
           schema_ ? schema_->debug : std::string("being registered"));
}

void OperatorEntry::registerSchema(FunctionSchema schema, std::string debug, std::vector<Tag> tags,
                                   std::optional<PythonModule> python_module) {
  ST_CHECK(!schema_, "operator '", name_, "' is already defined (", schema_->debug,
           "); duplicate def ", debug,
           ". Each overload's schema must be registered by exactly one def()");
  for (size_t i = 64; i < schema.arguments().size(); ++i) {
    ST_CHECK(!schema.arguments()[i].type.isTensorLike(), "operator '", name_,
             "': Tensor arguments after the 64th are not supported (argument ", i, ")");
  }
  for (const KernelList& list : kernels_) {
    for (const AnnotatedKernel& k : list) {
      if (!k.inferred_schema) continue;
      std::string diff = diffKernelSchema(schema, *k.inferred_schema);
      ST_CHECK(diff.empty(), "operator '", name_, "': ", diff, "\n  kernel ", k.debug,
               "\n  schema ", debug);
    }
  }
  schema_ = std::make_shared<const AnnotatedSchema>(AnnotatedSchema{
      std::move(schema), std::move(debug), std::move(tags), std::move(python_module)});
}

void OperatorEntry::deregisterSchema() { schema_.reset(); }

OperatorEntry::KernelList::iterator OperatorEntry::registerKernel(std::optional<DispatchKey> key,
                                                                  AnnotatedKernel kernel) {
  const DispatchKey k = key.value_or(DispatchKey::CompositeImplicitAutograd);
  ST_CHECK(k != DispatchKey::Undefined && k < DispatchKey::NumDispatchKeys, "operator '", name_,
           "': cannot register a kernel for dispatch key ", k);
  if (schema_) checkKernelAgainstSchema(kernel, schema_->schema);
  if (kernel.cpp_signature) {
    if (cpp_signature_) {
      ST_CHECK(*cpp_signature_ == *kernel.cpp_signature, "operator '", name_, "': kernel ",
               kernel.debug, " has C++ signature ", kernel.cpp_signature->name(), " but ",
               cpp_signature_debug_, " uses ", cpp_signature_->name(),
               "; all typed kernels of an operator must share one C++ signature");
    }
  }
  auto other_composite = k == DispatchKey::CompositeImplicitAutograd
                             ? DispatchKey::CompositeExplicitAutograd
                             : DispatchKey::CompositeImplicitAutograd;
  if (k == DispatchKey::CompositeImplicitAutograd || k == DispatchKey::CompositeExplicitAutograd) {
    const KernelList& other = kernels_[keyIndex(other_composite)];
    ST_CHECK(other.empty(), "operator '", name_, "': cannot register a ", k, " kernel (",
             kernel.debug, ") because it already has a ", other_composite, " kernel (",
             other.front().debug, "); an operator is either implicitly or explicitly composite");
  }
  KernelList& list = kernels_[keyIndex(k)];
  if (!list.empty()) {
    ST_WARN(
        "overriding a previously registered kernel for the same operator and the same "
        "dispatch key\n  operator: ",
        name_, (schema_ ? "\n    " + schema_->schema.toString() : std::string()),
        "\n  dispatch key: ", k, "\n  previous kernel: ", list.front().debug,
        "\n       new kernel: ", kernel.debug);
  }
  if (kernel.cpp_signature && !cpp_signature_) {
    cpp_signature_ = kernel.cpp_signature;
    cpp_signature_debug_ = "kernel " + kernel.debug;
  }
  kernel.key = k;
  list.push_front(std::move(kernel));
  return list.begin();
}

void OperatorEntry::deregisterKernel(KernelList::iterator it) {
  kernels_[keyIndex(it->key)].erase(it);
  // Forget the C++ signature once no typed kernel carries it (typed handles
  // made earlier keep working: they only ever reach kernels with it).
  bool any_typed = false;
  for (const KernelList& list : kernels_) {
    for (const AnnotatedKernel& k : list) any_typed = any_typed || k.cpp_signature.has_value();
  }
  // Once a typed handle exists the signature is pinned for good: the handle
  // casts unboxed entry points to it.
  if (!any_typed && !typed_access_) {
    cpp_signature_.reset();
    cpp_signature_debug_.clear();
  }
}

void OperatorEntry::recordTypedAccess(const CppSignature& sig, const FunctionSchema& inferred) {
  ST_CHECK(schema_, "operator '", name_,
           "' has no schema: it was never def'd (or its "
           "def was removed), so it cannot be called");
  std::string diff = diffKernelSchema(schema_->schema, inferred);
  ST_CHECK(diff.empty(), "operator '", name_, "' was accessed through typed<", sig.name(),
           ">() which does not fit its schema: ", diff);
  if (cpp_signature_) {
    ST_CHECK(*cpp_signature_ == sig, "operator '", name_, "' was accessed through typed<",
             sig.name(), ">() but ", cpp_signature_debug_, " has C++ signature ",
             cpp_signature_->name());
  } else {
    cpp_signature_ = sig;
    cpp_signature_debug_ = "a typed<>() handle";
  }
  typed_access_ = true;
}

std::vector<DispatchKey> OperatorEntry::registeredKernelKeys() const {
  std::vector<DispatchKey> keys;
  for (size_t i = 0; i < kernels_.size(); ++i) {
    if (!kernels_[i].empty()) keys.push_back(static_cast<DispatchKey>(i));
  }
  return keys;
}

bool OperatorEntry::isEmpty() const {
  if (schema_) return false;
  for (const KernelList& l : kernels_) {
    if (!l.empty()) return false;
  }
  return true;
}

// Note [Computing a dispatch table entry]
// For runtime key k, the first of these that exists wins:
//   1. a kernel registered for k itself ("kernel");
//   2. k is a backend key: the CompositeExplicitAutograd kernel;
//   3. k is a backend or autograd key: the CompositeImplicitAutograd kernel
//      - but for an autograd key only when the operator has neither a kernel
//      for that autograd key's backend nor a CompositeExplicitAutograd
//      kernel (their autograd is the backend fallback's business);
//   4. k is an autograd key: the Autograd alias kernel;
//   5. the dispatcher's backend fallback for k (ADInplaceOrView and the
//      autograd keys have fallthrough fallbacks; BackendSelect has one that
//      picks the backend from the arguments);
//   6. missing: calling raises the "no kernel" error.
OperatorEntry::Computed OperatorEntry::computeEntry(DispatchKey k,
                                                    const Fallbacks& fallbacks) const {
  const KernelList& direct = kernels_[keyIndex(k)];
  if (!direct.empty()) return {&direct.front(), "kernel"};
  const KernelList& cea = kernels_[keyIndex(DispatchKey::CompositeExplicitAutograd)];
  const KernelList& cia = kernels_[keyIndex(DispatchKey::CompositeImplicitAutograd)];
  const KernelList& ag = kernels_[keyIndex(DispatchKey::Autograd)];
  if (isIncludedInAlias(k, DispatchKey::CompositeExplicitAutograd) && !cea.empty()) {
    return {&cea.front(), "CompositeExplicitAutograd"};
  }
  if (isIncludedInAlias(k, DispatchKey::CompositeImplicitAutograd) && !cia.empty()) {
    bool use = true;
    if (isAutogradDispatchKey(k)) {
      DispatchKey backend = backendOfAutogradKey(k);
      bool has_backend_kernel =
          backend != DispatchKey::Undefined && !kernels_[keyIndex(backend)].empty();
      use = !has_backend_kernel && cea.empty();
    }
    if (use) return {&cia.front(), "CompositeImplicitAutograd"};
  }
  if (isIncludedInAlias(k, DispatchKey::Autograd) && !ag.empty()) {
    return {&ag.front(), "Autograd"};
  }
  const KernelList& fb = fallbacks[keyIndex(k)];
  if (!fb.empty()) return {&fb.front(), "backend fallback"};
  return {nullptr, "missing"};
}

std::unique_ptr<DispatchTable> OperatorEntry::buildTable(const Fallbacks& fallbacks) const {
  auto t = std::make_unique<DispatchTable>();
  DispatchKeySet non_fallthrough = DispatchKeySet::full();
  for (int i = 1; i < kNumRuntimeKeys; ++i) {
    const auto k = static_cast<DispatchKey>(i);
    Computed c = computeEntry(k, fallbacks);
    if (c.kernel) {
      t->kernels[i] = c.kernel->kernel;
      if (c.kernel->kernel.isFallthrough()) non_fallthrough = non_fallthrough.remove(k);
    }
  }
  t->non_fallthrough = non_fallthrough;
  fillSummary(*t);
  return t;
}

void OperatorEntry::fillSummary(DispatchTable& t) const {
  // Every table passes here before it is published (a copy too).
  static std::atomic<uint64_t> next_id{1};
  t.id = next_id.fetch_add(1, std::memory_order_relaxed);
  t.cpp_signature = cpp_signature_;
  uint32_t registered = 0;
  for (size_t i = 0; i < kernels_.size(); ++i) {
    if (!kernels_[i].empty()) registered |= uint32_t{1} << i;
  }
  t.registered_keys = registered;
  if (t.schema == schema_ && (schema_ || t.num_args == 0)) return;  // fields already right
  t.schema = schema_;
  t.num_args = 0;
  t.tensor_arg_mask = 0;
  if (schema_) {
    const auto& args = schema_->schema.arguments();
    t.num_args = static_cast<uint32_t>(args.size());
    for (size_t i = 0; i < args.size() && i < 64; ++i) {
      if (args[i].type.isTensorLike()) t.tensor_arg_mask |= uint64_t{1} << i;
    }
  }
}

void OperatorEntry::publish(std::unique_ptr<DispatchTable> fresh) {
  table_.store(fresh.get(), std::memory_order_release);
  // Note [Publishing and reclaiming dispatch tables]: freed after a grace period.
  if (current_) detail::TableReclaimer::singleton().retire(std::move(current_));
  current_ = std::move(fresh);
}

void OperatorEntry::updateTable(const Fallbacks& fallbacks) { publish(buildTable(fallbacks)); }

DispatchKeySet OperatorEntry::keysAffectedBy(DispatchKey key) {
  // computeEntry's rule 3 also reads the CompositeExplicitAutograd list for
  // autograd keys; the two composite keys never coexist, but recomputing
  // every entry keeps that fact out of this function.
  if (key == DispatchKey::CompositeExplicitAutograd) return DispatchKeySet::full();
  DispatchKeySet keys = getRuntimeKeySetForAlias(key);
  // A backend kernel decides the same for its autograd key (rule 3).
  if (isBackendDispatchKey(key)) keys = keys.add(autogradKeyForBackend(key));
  return keys;
}

void OperatorEntry::updateTableFor(const Fallbacks& fallbacks, DispatchKeySet keys) {
  if (!current_) {  // still the shared empty table: the first real one is built whole
    updateTable(fallbacks);
    return;
  }
  auto fresh = std::make_unique<DispatchTable>(*current_);
  DispatchKeySet non_fallthrough = fresh->non_fallthrough;
  for (DispatchKey k : keys) {
    Computed c = computeEntry(k, fallbacks);
    const auto i = static_cast<size_t>(k);
    if (c.kernel) {
      fresh->kernels[i] = c.kernel->kernel;
    } else {
      fresh->kernels[i] = KernelFunction();
    }
    const bool fallthrough = c.kernel && c.kernel->kernel.isFallthrough();
    non_fallthrough = fallthrough ? non_fallthrough.remove(k) : non_fallthrough.add(k);
  }
  fresh->non_fallthrough = non_fallthrough;
  fillSummary(*fresh);
  publish(std::move(fresh));
}

const KernelFunction& OperatorEntry::lookupMissing(const DispatchTable& t,
                                                   DispatchKeySet ks) const {
  const auto key = static_cast<DispatchKey>((ks & t.non_fallthrough).highestPriorityIndex());
  const std::optional<DeviceType> module = detail::backend_module_type(key);
  if (module.has_value() && !detail::backend_module_loaded(*module)) {
    if (!detail::load_backend_module(*module)) {
      const std::string why = detail::backend_module_error(*module);
      ST_CHECK(why.empty(), "could not run '", name_, "' with arguments from the '", key,
               "' backend: ", why);
    }
    const DispatchTable& now = table();
    const KernelFunction& k = now.kernels[(ks & now.non_fallthrough).highestPriorityIndex()];
    if (k.isValid()) return k;
    reportMissingKernel(now, key);
  }
  reportMissingKernel(t, key);
}

void OperatorEntry::reportMissingKernel(const DispatchTable& t, DispatchKey key) const {
  std::ostringstream os;
  if (!t.schema) {
    os << "operator '" << name_ << "' has no schema: it was never def'd (or its def was "
       << "removed)";
    if (t.registered_keys) os << "; it has kernels for:";
  } else {
    os << "could not run '" << name_ << "' with arguments from the '" << key
       << "' backend: the operator has no kernel for " << key << ". '" << name_
       << "' has kernels for: [";
  }
  bool first = true;
  for (int i = 1; i < static_cast<int>(DispatchKey::NumDispatchKeys); ++i) {
    if (t.registered_keys & (uint32_t{1} << i)) {
      if (!first || !t.schema) os << (first ? " " : ", ");
      first = false;
      os << static_cast<DispatchKey>(i);
    }
  }
  if (t.schema) os << "]";
  if (t.schema && t.schema->python_module) {
    // The library said some of the operator's pieces are registered from
    // Python: the usual cause of a missing kernel is that module not
    // having been imported.
    const PythonModule& py = *t.schema->python_module;
    os << ". Its library declares that its Python-side registrations live in module '" << py.module
       << "'";
    if (!py.context.empty()) os << " (" << py.context << ")";
    os << "; import it first";
  }
  throw Error(os.str());
}

std::string OperatorEntry::dumpState() const {
  std::ostringstream os;
  os << "name: " << name_ << "\n";
  os << "schema: " << (schema_ ? schema_->schema.toString() : std::string("(none)")) << "\n";
  if (schema_) os << "debug: " << schema_->debug << "\n";
  if (schema_ && !schema_->tags.empty()) {
    os << "tags:";
    for (size_t i = 0; i < schema_->tags.size(); ++i) {
      os << (i == 0 ? " " : ", ") << schema_->tags[i];
    }
    os << "\n";
  }
  if (schema_ && schema_->python_module) {
    os << "python module: " << schema_->python_module->module;
    if (!schema_->python_module->context.empty()) {
      os << " (" << schema_->python_module->context << ")";
    }
    os << "\n";
  }
  if (cpp_signature_)
    os << "C++ signature: " << cpp_signature_->name() << " (from " << cpp_signature_debug_ << ")\n";
  for (size_t i = 0; i < kernels_.size(); ++i) {
    const KernelList& list = kernels_[i];
    bool first = true;
    for (const AnnotatedKernel& k : list) {
      os << (first ? "" : "  (overridden) ") << static_cast<DispatchKey>(i) << ": "
         << k.kernel.kindName() << " [" << k.debug << "]\n";
      first = false;
    }
  }
  return os.str();
}

std::string OperatorEntry::dumpComputedTable(const Fallbacks& fallbacks) const {
  std::ostringstream os;
  for (int i = 1; i < kNumRuntimeKeys; ++i) {
    const auto k = static_cast<DispatchKey>(i);
    Computed c = computeEntry(k, fallbacks);
    os << k << ": ";
    if (!c.kernel) {
      os << "missing\n";
      continue;
    }
    os << c.kernel->kernel.kindName() << " [" << c.kernel->debug << "] (" << c.source << ")\n";
  }
  return os.str();
}

void OperatorEntry::checkInvariants(const Fallbacks& fallbacks) const {
  ST_CHECK(kernels_[keyIndex(DispatchKey::CompositeExplicitAutograd)].empty() ||
               kernels_[keyIndex(DispatchKey::CompositeImplicitAutograd)].empty(),
           "invariant violated for '", name_, "': kernels for both composite keys");
  ST_CHECK(kernels_[keyIndex(DispatchKey::Undefined)].empty(), "invariant violated for '", name_,
           "': a kernel for Undefined");
  const DispatchTable& t = table();
  ST_CHECK(t.schema == schema_, "invariant violated for '", name_,
           "': published table has a stale schema");
  ST_CHECK(!t.kernels[0].isValid(), "invariant violated for '", name_,
           "': the Undefined slot holds a kernel");
  std::unique_ptr<DispatchTable> expected = buildTable(fallbacks);
  for (int i = 1; i < kNumRuntimeKeys; ++i) {
    ST_CHECK(t.kernels[i].identicalTo(expected->kernels[i]), "invariant violated for '", name_,
             "': table entry for ", static_cast<DispatchKey>(i), " differs from the computed one\n",
             dumpComputedTable(fallbacks));
  }
  ST_CHECK(t.non_fallthrough == expected->non_fallthrough, "invariant violated for '", name_,
           "': stale fallthrough mask");
  ST_CHECK(t.tensor_arg_mask == expected->tensor_arg_mask && t.num_args == expected->num_args,
           "invariant violated for '", name_, "': stale dispatch argument positions");
  ST_CHECK(t.registered_keys == expected->registered_keys, "invariant violated for '", name_,
           "': stale registered key list");
  if (schema_) {
    for (const KernelList& list : kernels_) {
      for (const AnnotatedKernel& k : list) checkKernelAgainstSchema(k, schema_->schema);
    }
  }
  for (const KernelList& list : kernels_) {
    for (const AnnotatedKernel& k : list) {
      ST_CHECK(!k.cpp_signature || (cpp_signature_ && *cpp_signature_ == *k.cpp_signature),
               "invariant violated for '", name_, "': kernel ", k.debug,
               " has a different C++ signature");
    }
  }
}

}  // namespace st
