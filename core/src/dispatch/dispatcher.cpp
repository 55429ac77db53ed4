#include <st/dispatch/dispatcher.h>

#include <algorithm>
#include <sstream>

#include <st/core/warning.h>
#include <st/dispatch/suggestion_hook.h>

#include "device/backend_module.h"
#include "table_reclaimer.h"

namespace st {

// ---------------------------------------------------------------------------
// Key extraction
// ---------------------------------------------------------------------------

namespace detail {

namespace {
constexpr std::array<uint64_t, torch::headeronly::COMPILE_TIME_MAX_DEVICE_TYPES>
makeDeviceKeySets() {
  std::array<uint64_t, torch::headeronly::COMPILE_TIME_MAX_DEVICE_TYPES> out{};
  for (int i = 0; i < torch::headeronly::COMPILE_TIME_MAX_DEVICE_TYPES; ++i) {
    out[i] = tensorKeySetForBackend(
                 backendKeyForDeviceType(static_cast<torch::headeronly::DeviceType>(i)))
                 .raw();
  }
  return out;
}
constexpr auto kDeviceKeySetsArray = makeDeviceKeySets();
}  // namespace

const uint64_t kDeviceTypeKeySets[torch::headeronly::COMPILE_TIME_MAX_DEVICE_TYPES] = {
#define ST_KS_(i) kDeviceKeySetsArray[i]
    ST_KS_(0),  ST_KS_(1),  ST_KS_(2),  ST_KS_(3),  ST_KS_(4),  ST_KS_(5),  ST_KS_(6),
    ST_KS_(7),  ST_KS_(8),  ST_KS_(9),  ST_KS_(10), ST_KS_(11), ST_KS_(12), ST_KS_(13),
    ST_KS_(14), ST_KS_(15), ST_KS_(16), ST_KS_(17), ST_KS_(18), ST_KS_(19), ST_KS_(20),
#undef ST_KS_
};
static_assert(torch::headeronly::COMPILE_TIME_MAX_DEVICE_TYPES == 21,
              "update kDeviceTypeKeySets for the new device types");

DispatchKeySet computeKeySetBoxedSlow(const DispatchTable& t, const Stack& stack) {
  ST_CHECK(stack.size() >= t.num_args, "boxed call of '",
           t.schema ? t.schema->schema.operatorName().toString() : std::string("?"),
           "': the schema has ", t.num_args, " argument(s) but the stack holds ", stack.size());
  DispatchKeySet ks;
  const IValue* base = stack.data() + (stack.size() - t.num_args);
  for (uint64_t bits = t.tensor_arg_mask; bits != 0; bits &= bits - 1) {
    const IValue& v = base[__builtin_ctzll(bits)];
    switch (v.tag()) {
      case IValue::Tag::Tensor:
        ks = ks | keysOf(v.toTensor());
        break;
      case IValue::Tag::TensorList:
        ks = ks | keysOf(v.toTensorVector());
        break;
      case IValue::Tag::List:
        for (const IValue& e : v.toListRef()) {
          if (e.isTensor()) ks = ks | keysOf(e.toTensor());
        }
        break;
      default:
        break;  // None for Tensor?
    }
  }
  return withBackendSelect(ks);
}

void throwNoSchema(const OperatorName& name) {
  ST_ERROR("operator '", name, "' has no schema: it was never def'd (or its def was removed)");
}

}  // namespace detail

DispatchKey computeDispatchKey(std::optional<ScalarType> dtype, std::optional<Layout> layout,
                               std::optional<Device> device) {
  (void)dtype;  // every dtype lives on every backend of this build
  ST_CHECK(!layout.has_value() || *layout == Layout::Strided, "computeDispatchKey: layout ",
           layout.value_or(Layout::Strided), " has no backend in stabletorch (only Strided)");
  if (!device.has_value()) return DispatchKey::CPU;
  DispatchKey k = backendKeyForDeviceType(device->type());
  ST_CHECK(k != DispatchKey::Undefined, "computeDispatchKey: device type ", device->type(),
           " has no dispatch key in stabletorch (CPU, CUDA, Meta, PrivateUse1)");
  return k;
}

namespace {

// A backend module's own kernels register before any other kernel for its
// key, as if they were built in (Note [Backend modules]).
void load_backend_module_for(DispatchKey key) noexcept {
  const std::optional<DeviceType> module = detail::backend_module_type(key);
  if (module.has_value()) detail::load_backend_module(*module);
}

// Note [Calls without tensor arguments]
// PyTorch computes a call's keys from its tensors only. A factory function
// (one taking a Device, as TensorOptions do) gets its backend from its
// dtype/layout/device arguments (BackendSelect); any other call with no
// tensor has no backend at all, so only a composite kernel can serve it,
// and without one it fails ("There were no tensor arguments ..."), even
// when the operator has a CPU kernel.
[[noreturn]] void throwNoTensorArguments(const OperatorHandle& op) {
  std::ostringstream os;
  os << op.operatorName()
     << ": There were no tensor arguments to this function (e.g., you passed an empty list of "
        "Tensors), but no fallback function is registered for schema "
     << op.operatorName()
     << ". This usually means that this function requires a non-empty list of Tensors, or "
        "that you (the operator writer) forgot to register a fallback function. Available "
        "functions are [";
  const uint32_t registered = op.entry()->table().registered_keys;
  bool first = true;
  for (int i = 1; i < static_cast<int>(DispatchKey::NumDispatchKeys); ++i) {
    if (registered & (uint32_t{1} << i)) {
      os << (first ? "" : ", ") << static_cast<DispatchKey>(i);
      first = false;
    }
  }
  os << "]";
  throw Error(os.str());
}

// The BackendSelect fallback: picks the backend from the call's Device,
// Layout and ScalarType arguments (by schema type) and redispatches
// (Note [Calls without tensor arguments]).
void backendSelectFallback(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const FunctionSchema& s = op.schema();
  const auto& args = s.arguments();
  ST_CHECK(stack->size() >= args.size(), "boxed call of '", op.operatorName(), "': needs ",
           args.size(), " argument(s) but the stack holds ", stack->size());
  const IValue* base = stack->data() + (stack->size() - args.size());
  bool factory = false;
  for (const Argument& a : args) factory = factory || a.type.baseKind() == TypeKind::Device;
  if (!factory) {
    const uint32_t registered = op.entry()->table().registered_keys;
    const uint32_t composite =
        (uint32_t{1} << static_cast<int>(DispatchKey::CompositeExplicitAutograd)) |
        (uint32_t{1} << static_cast<int>(DispatchKey::CompositeImplicitAutograd));
    if ((registered & composite) == 0) throwNoTensorArguments(op);
  }
  std::optional<ScalarType> dtype;
  std::optional<Layout> layout;
  std::optional<Device> device;
  for (size_t i = 0; i < args.size(); ++i) {
    const IValue& v = base[i];
    if (v.isNone()) continue;
    switch (args[i].type.baseKind()) {
      case TypeKind::Device:
        if (!device && v.isDevice()) device = v.toDevice();
        break;
      case TypeKind::Layout:
        if (!layout) layout = v.toLayout();
        break;
      case TypeKind::ScalarType:
        if (!dtype) dtype = v.toScalarType();
        break;
      default:
        break;
    }
  }
  DispatchKey k = computeDispatchKey(dtype, layout, device);
  op.redispatchBoxed(tensorKeySetForBackend(k), stack);
}

int editDistance(std::string_view a, std::string_view b) {
  std::vector<int> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = static_cast<int>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = static_cast<int>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

// ---------------------------------------------------------------------------
// RegistrationHandleRAII / OperatorHandle
// ---------------------------------------------------------------------------

void RegistrationHandleRAII::reset() noexcept {
  if (!on_destroy_) return;
  auto f = std::exchange(on_destroy_, nullptr);
  try {
    f();
  } catch (const std::exception& e) {
    warn(std::string("deregistration failed: ") + e.what());
  } catch (...) {
    warn("deregistration failed");
  }
}

const FunctionSchema& OperatorHandle::schema() const {
  DispatchReadGuard guard;
  const auto& s = entry_->table().schema;
  if (!s) detail::throwNoSchema(entry_->name());
  return s->schema;
}

const std::string& OperatorHandle::debug() const {
  DispatchReadGuard guard;
  const auto& s = entry_->table().schema;
  if (!s) detail::throwNoSchema(entry_->name());
  return s->debug;
}

const std::vector<Tag>& OperatorHandle::tags() const {
  DispatchReadGuard guard;
  const auto& s = entry_->table().schema;
  if (!s) detail::throwNoSchema(entry_->name());
  return s->tags;
}

bool OperatorHandle::hasTag(Tag tag) const {
  for (Tag t : tags()) {
    if (t == tag) return true;
  }
  return false;
}

std::optional<PythonModule> OperatorHandle::pythonModule() const {
  DispatchReadGuard guard;
  const auto& s = entry_->table().schema;
  if (!s) detail::throwNoSchema(entry_->name());
  return s->python_module;
}

void OperatorHandle::callBoxed(Stack* stack) const { Dispatcher::callBoxed(*this, stack); }

void OperatorHandle::redispatchBoxed(DispatchKeySet ks, Stack* stack) const {
  Dispatcher::redispatchBoxed(*this, ks, stack);
}

std::string OperatorHandle::dumpState() const { return Dispatcher::singleton().dumpState(*this); }
std::vector<DispatchKey> OperatorHandle::registeredKernelKeys() const {
  return Dispatcher::singleton().registeredKernelKeys(*this);
}
std::string OperatorHandle::dumpComputedTable() const {
  return Dispatcher::singleton().dumpComputedTable(*this);
}
void OperatorHandle::checkInvariants() const { Dispatcher::singleton().checkInvariants(*this); }

// ---------------------------------------------------------------------------
// Dispatcher
// ---------------------------------------------------------------------------

Dispatcher& Dispatcher::singleton() {
  // Leaked: Libraries in static storage of other libraries may deregister
  // after this library's statics are gone.
  static Dispatcher* d = new Dispatcher();
  return *d;
}

Dispatcher::Dispatcher() {
  auto builtin = [this](DispatchKey k, KernelFunction f, const char* debug) {
    AnnotatedKernel a;
    a.kernel = std::move(f);
    a.debug = debug;
    a.builtin = true;
    fallbacks_[static_cast<size_t>(k)].push_front(std::move(a));
  };
  builtin(DispatchKey::BackendSelect,
          KernelFunction::makeFromBoxedFunction<&backendSelectFallback>(),
          "registered by the dispatcher (picks the backend from dtype/layout/device)");
  builtin(DispatchKey::ADInplaceOrView, KernelFunction::makeFallthrough(),
          "registered by the dispatcher (fallthrough)");
  for (DispatchKey k : getRuntimeKeySetForAlias(DispatchKey::Autograd)) {
    builtin(k, KernelFunction::makeFallthrough(),
            "registered by the dispatcher (fallthrough: no autograd yet)");
  }
}

OperatorEntry& Dispatcher::findOrCreate(const OperatorName& name) {
  auto it = operators_.find(name);
  if (it != operators_.end()) return *it->second;
  // The new entry's table is empty until the caller's registration
  // publishes the first real one (every caller updates the table next).
  auto entry = std::make_unique<OperatorEntry>(name);
  OperatorEntry& ref = *entry;
  operators_.emplace(name, std::move(entry));
  return ref;
}

std::optional<OperatorHandle> Dispatcher::findSchema(const OperatorName& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = operators_.find(name);
  if (it == operators_.end() || !it->second->hasSchema()) return std::nullopt;
  return OperatorHandle(it->second.get());
}

std::optional<OperatorHandle> Dispatcher::findOp(const OperatorName& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = operators_.find(name);
  if (it == operators_.end() || it->second->isEmpty()) return std::nullopt;
  return OperatorHandle(it->second.get());
}

namespace {

// Note [Bounded operator suggestions]
// The name of a failed lookup comes from the caller, possibly a plugin or
// a fuzzer: suggestions must cost little and never hold the dispatcher
// mutex while they are computed (registration on every other thread waits
// on it). Under the lock only the candidates are copied: at most
// kMaxSuggestCandidates names whose length could be within the distance
// limit (an edit distance is at least the difference in length), and
// overloads of the same name; distances are computed after the lock is
// released. A name longer than kMaxSuggestNameLength gets no suggestions,
// and is shown shortened in the error.
constexpr size_t kMaxSuggestNameLength = 256;
constexpr size_t kMaxSuggestCandidates = 4096;
constexpr size_t kMaxShownNameLength = 200;

void (*g_suggestion_hook)() = nullptr;

std::string shownName(const std::string& full) {
  if (full.size() <= kMaxShownNameLength) return full;
  return full.substr(0, kMaxShownNameLength) + "... (" + std::to_string(full.size()) +
         " characters)";
}

}  // namespace

namespace detail {
void setSuggestionHookForTesting(void (*hook)()) { g_suggestion_hook = hook; }
}  // namespace detail

OperatorHandle Dispatcher::findSchemaOrThrow(std::string_view name, std::string_view overload) {
  OperatorName wanted{std::string(name), std::string(overload)};
  if (auto h = findSchema(wanted)) return *h;
  const std::string full = wanted.toString();
  std::ostringstream os;
  os << "could not find an operator named '" << shownName(full) << "'";
  if (full.size() > kMaxSuggestNameLength) {
    os << " (names longer than " << kMaxSuggestNameLength << " characters get no suggestions)";
    throw Error(os.str());
  }
  const size_t limit = std::max<size_t>(2, full.size() / 3);
  std::vector<std::pair<std::string, bool>> candidates;  // (name, same op name)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [n, e] : operators_) {
      if (candidates.size() == kMaxSuggestCandidates) break;
      if (!e->hasSchema()) continue;
      const bool same = n.name == wanted.name;
      const size_t len = n.name.size() + (n.overload_name.empty() ? 0 : n.overload_name.size() + 1);
      const size_t diff = len > full.size() ? len - full.size() : full.size() - len;
      if (same || diff <= limit) candidates.emplace_back(n.toString(), same);
    }
  }
  // Note [Bounded operator suggestions]: the lock is released.
  if (g_suggestion_hook != nullptr) g_suggestion_hook();
  std::vector<std::pair<size_t, std::string>> near;
  for (auto& [cand, same] : candidates) {
    const size_t d = same ? 0 : static_cast<size_t>(editDistance(full, cand));
    if (d <= limit) near.emplace_back(d, std::move(cand));
  }
  std::sort(near.begin(), near.end());
  if (!near.empty()) {
    os << "; did you mean: ";
    for (size_t i = 0; i < near.size() && i < 5; ++i)
      os << (i ? ", " : "") << "'" << near[i].second << "'";
    os << "?";
  }
  throw Error(os.str());
}

std::vector<OperatorName> Dispatcher::getAllOpNames() {
  std::vector<OperatorName> out;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [n, e] : operators_) {
      if (e->hasSchema()) out.push_back(n);
    }
  }
  std::sort(out.begin(), out.end(), [](const OperatorName& a, const OperatorName& b) {
    return a.name != b.name ? a.name < b.name : a.overload_name < b.overload_name;
  });
  return out;
}

RegistrationHandleRAII Dispatcher::registerDef(FunctionSchema schema, std::string debug,
                                               std::vector<Tag> tags,
                                               std::optional<PythonModule> python_module) {
  Garbage garbage;  // destroyed after the lock is released
  std::lock_guard<std::mutex> lock(mutex_);
  const OperatorName& name = schema.operatorName();  // not used once schema is moved
  ST_CHECK(name.getNamespace().has_value(), "def of '", name,
           "': the operator name needs a namespace (ns::name)");
  OperatorEntry& e = findOrCreate(name);
  try {
    e.registerSchema(std::move(schema), std::move(debug), std::move(tags),
                     std::move(python_module));
  } catch (...) {
    e.updateTable(fallbacks_);  // keep the invariant table == computed table
    throw;
  }
  // A schema changes no kernel entry (Note [Incremental table updates]).
  e.updateTableFor(fallbacks_, DispatchKeySet());
  collectRetired(garbage);
  return RegistrationHandleRAII([this, &e] {
    Garbage g;
    std::lock_guard<std::mutex> l(mutex_);
    e.deregisterSchema();
    e.updateTableFor(fallbacks_, DispatchKeySet());
    collectRetired(g);
  });
}

RegistrationHandleRAII Dispatcher::registerImpl(
    OperatorName name, std::optional<DispatchKey> key, KernelFunction kernel,
    std::optional<CppSignature> cpp_signature,
    std::shared_ptr<const FunctionSchema> inferred_schema, std::string debug) {
  if (key.has_value()) load_backend_module_for(*key);
  Garbage garbage;
  std::lock_guard<std::mutex> lock(mutex_);
  ST_CHECK(name.getNamespace().has_value(), "impl of '", name,
           "': the operator name needs a namespace (ns::name)");
  ST_CHECK(kernel.isValid(), "impl of '", name, "' (", debug, "): the kernel is empty");
  // DispatchTable::cpp_signature vouches for every unboxed entry point.
  ST_CHECK(!kernel.hasUnboxed() || cpp_signature.has_value(), "impl of '", name, "' (", debug,
           "): a kernel with an unboxed entry point needs its C++ signature");
  OperatorEntry& e = findOrCreate(name);
  AnnotatedKernel a;
  a.kernel = std::move(kernel);
  a.cpp_signature = cpp_signature;
  a.inferred_schema = std::move(inferred_schema);
  a.debug = std::move(debug);
  const DispatchKey k = key.value_or(DispatchKey::CompositeImplicitAutograd);
  OperatorEntry::KernelList::iterator it;
  try {
    it = e.registerKernel(k, std::move(a));
  } catch (...) {
    e.updateTable(fallbacks_);  // keep the invariant table == computed table
    throw;
  }
  const DispatchKeySet affected = OperatorEntry::keysAffectedBy(k);
  e.updateTableFor(fallbacks_, affected);
  collectRetired(garbage);
  // Two pointers: std::function keeps them without a heap allocation (the
  // dispatcher is the singleton; the kernel knows its key).
  OperatorEntry* entry = &e;
  return RegistrationHandleRAII([entry, it] {
    Dispatcher& d = Dispatcher::singleton();
    Garbage g;
    std::lock_guard<std::mutex> l(d.mutex_);
    const DispatchKeySet keys = OperatorEntry::keysAffectedBy(it->key);
    entry->deregisterKernel(it);
    entry->updateTableFor(d.fallbacks_, keys);
    d.collectRetired(g);
  });
}

void Dispatcher::updateAllTables() {
  for (auto& [n, e] : operators_) e->updateTable(fallbacks_);
}

void Dispatcher::collectRetired(Garbage& garbage, bool force) {
  detail::TableReclaimer::singleton().collect(garbage, force);
}

Dispatcher::RetiredTableStats Dispatcher::retiredTableStats() {
  std::lock_guard<std::mutex> lock(mutex_);
  const detail::TableReclaimer& r = detail::TableReclaimer::singleton();
  const detail::TableReclaimer::Stats s = r.stats();
  RetiredTableStats out;
  out.retired = s.retired;
  out.freed = s.freed;
  out.waiting = s.waiting;
  out.reclaiming = r.enabled();
  return out;
}

void Dispatcher::reclaimRetiredTables() {
  Garbage garbage;
  std::lock_guard<std::mutex> lock(mutex_);
  collectRetired(garbage, /*force=*/true);
}

RegistrationHandleRAII Dispatcher::registerFallback(DispatchKey key, KernelFunction kernel,
                                                    std::string debug) {
  load_backend_module_for(key);
  Garbage garbage;
  std::lock_guard<std::mutex> lock(mutex_);
  ST_CHECK(key != DispatchKey::Undefined && key < DispatchKey::NumDispatchKeys,
           "cannot register a fallback for dispatch key ", key);
  ST_CHECK(kernel.isValid(), "fallback for ", key, " (", debug, "): the kernel is empty");
  // A fallback serves operators of every signature: boxed only.
  ST_CHECK(!kernel.hasUnboxed(), "fallback for ", key, " (", debug,
           "): a fallback must be a boxed kernel (it serves operators of every signature)");
  std::vector<std::pair<DispatchKey, OperatorEntry::KernelList::iterator>> added;
  for (DispatchKey k : getRuntimeKeySetForAlias(key)) {
    auto& list = fallbacks_[static_cast<size_t>(k)];
    if (!list.empty() && !list.front().builtin) {
      ST_WARN("overriding a previously registered backend fallback for dispatch key ", k,
              "\n  previous fallback: ", list.front().debug, "\n       new fallback: ", debug);
    }
    AnnotatedKernel a;
    a.kernel = kernel;
    a.debug = debug;
    list.push_front(std::move(a));
    added.emplace_back(k, list.begin());
  }
  updateAllTables();
  collectRetired(garbage);
  return RegistrationHandleRAII([this, added] {
    Garbage g;
    std::lock_guard<std::mutex> l(mutex_);
    for (const auto& [k, it] : added) fallbacks_[static_cast<size_t>(k)].erase(it);
    updateAllTables();
    collectRetired(g);
  });
}

RegistrationHandleRAII Dispatcher::registerLibrary(std::string ns, std::string debug) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = libraries_.find(ns);
  ST_CHECK(it == libraries_.end(), "only one ST_LIBRARY may define namespace '", ns,
           "'; it was already defined (", it->second, "), and is defined again (", debug,
           "). Use ST_LIBRARY_FRAGMENT to add operators to an existing namespace");
  libraries_.emplace(ns, std::move(debug));
  return RegistrationHandleRAII([this, ns] {
    std::lock_guard<std::mutex> l(mutex_);
    libraries_.erase(ns);
  });
}

void Dispatcher::recordTypedAccess(const OperatorHandle& op, const CppSignature& sig,
                                   const FunctionSchema& inferred) {
  std::lock_guard<std::mutex> lock(mutex_);
  op.entry()->recordTypedAccess(sig, inferred);
}

// Note [Boxed call cost]
// A boxed call of a one-tensor operator is measured in instructions by
// bench/bench_dispatcher (--instructions under callgrind; figures in
// docs/performance.md). What it costs beyond the kernel: loading the table,
// the tensor-argument keys (computeKeySetBoxed: a byte-size check and one
// pass over the schema's tensor positions), the lookup, the adapter of a
// typed kernel, which writes a single result over its first argument's slot
// instead of popping the arguments and pushing the result, and the read
// guard (Note [Read sections]): its thread-local sequence number is located
// once per call (the guard keeps the address across the kernel call, so the
// TLS descriptor call is not repeated on the way out); the rest of its cost
// is that the kernel call can no longer be a tail call.
void Dispatcher::callBoxed(const OperatorHandle& op, Stack* stack) {
  DispatchReadGuard guard;  // the table and its kernel outlive the call
  callBoxedWithTable(op, op.entry()->table(), stack);
}

void Dispatcher::redispatchBoxed(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  OperatorEntry* e = op.entry();
  DispatchReadGuard guard;
  const DispatchTable& t = e->table();
  e->lookup(t, ks).callBoxed(op, ks, stack);
}

std::vector<DispatchKey> Dispatcher::registeredKernelKeys(const OperatorHandle& op) {
  std::lock_guard<std::mutex> lock(mutex_);
  return op.entry()->registeredKernelKeys();
}

std::string Dispatcher::dumpState(const OperatorHandle& op) {
  std::lock_guard<std::mutex> lock(mutex_);
  return op.entry()->dumpState();
}

std::string Dispatcher::dumpComputedTable(const OperatorHandle& op) {
  std::lock_guard<std::mutex> lock(mutex_);
  return op.entry()->dumpComputedTable(fallbacks_);
}

void Dispatcher::checkInvariants(const OperatorHandle& op) {
  std::lock_guard<std::mutex> lock(mutex_);
  op.entry()->checkInvariants(fallbacks_);
}

void Dispatcher::checkInvariants() {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& [n, e] : operators_) e->checkInvariants(fallbacks_);
}

std::string Dispatcher::dumpFallbacks() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::ostringstream os;
  for (int i = 1; i < kNumRuntimeKeys; ++i) {
    const auto& list = fallbacks_[static_cast<size_t>(i)];
    if (list.empty()) continue;
    os << static_cast<DispatchKey>(i) << ": " << list.front().kernel.kindName() << " ["
       << list.front().debug << "]\n";
  }
  return os.str();
}

}  // namespace st
