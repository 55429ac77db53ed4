// aoti_torch_call_dispatcher / torch_call_dispatcher.
//
// Note [StableIValue stacks]
// The caller's stack holds max(num_args, num_returns) slots; arguments are
// in schema order in stack[0..num_args). The callee steals every argument
// (whether the call succeeds or fails) and on success leaves new references
// to the returns in stack[0..num_returns). Arguments are decoded in two
// phases: first all of them are read (borrowed) into IValues; only when all
// are good are the caller's handles released. When one is bad, every
// argument is checked again to name every bad one in one error, and all
// of them are released: nothing leaks either way.
//
// Note [Converter plans]
// How each argument and return crosses the boundary depends only on the
// operator's schema, so it is worked out once into a Plan (a converter per
// argument and return) instead of on every call. Plans live in a
// per-thread cache keyed by the operator's name (by content, never by the
// pointers alone), so the call path takes no lock and shares nothing
// between threads. A plan holds a reference to the AnnotatedSchema it was
// made from, and every call compares that object's address with the one
// in the operator's current dispatch table (one acquire load): when the
// operator's def was removed (a plugin unloading) or replaced by another
// (re-registered, possibly with a different schema), the addresses differ
// and the plan is rebuilt from the new schema, or the call fails with the
// dispatcher's "no schema" error. Because the plan keeps its schema alive,
// a new schema can never be allocated at the old one's address while a
// plan could mistake it for its own. A kernel may call the dispatcher
// again (nested calls); a plan replaced meanwhile is kept in
// CallState::retired until the outermost call has finished with it.
//
// Note [Dispatching from the checked table]
// The plan check loads the operator's current dispatch table; the call
// then dispatches through that same table (Dispatcher::callBoxedWithKeySet,
// with the key set gathered while the tensors were taken, or computed from
// the stack for plans with lists and optionals) instead of calling OperatorHandle::callBoxed, which would load it
// again through two more calls. The table is the one whose schema the plan
// was checked against, so the arguments converted by the plan always meet
// the kernels of that def. The call holds a DispatchReadGuard from before
// the table is loaded until the kernel has returned, so the table and the
// kernels it holds stay valid for the whole call even if another thread
// re-registers the operator meanwhile (Note [Publishing and reclaiming dispatch tables] in
// operator_entry.h).
//
// Note [Returns in the arguments' slots]
// Taking a tensor (or scalar) argument retires its handle (Note [Handle
// generations] in handle_registry.h): the caller's handle reads as deleted
// from then on. The slot itself is kept as a spare, and a tensor return is
// built in it and published under the slot's next generation: one free and
// one allocation less per call. Spares not used by a return are freed when
// the call ends, however it ends.
//
// Note [The fast call path]
// Most calls have a "fast" plan (only tensors, numbers and scalars in, at
// most kMaxSlots returns, not vararg) and run at a nesting depth that has a
// pooled stack: call_fast reads the plan's fixed arrays and does no heap
// work; when the plan's shape has a typed call and the kernel is typed, it
// calls the kernel unboxed (Note [Calling typed kernels unboxed]). Every
// other call takes call_general, which has the same checks.
#include "call_dispatcher.h"

#include <array>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <st/dispatch/dispatcher.h>
#include <st/dispatch/read_guard.h>
#include <torch/csrc/stable/c/shim.h>

#include "build_version.h"
#include "error_state.h"
#include "handle_types.h"
#include "loader/plugin_registry.h"
#include "stable_ivalue_codec.h"

namespace stc {
namespace {

// How one argument or return is converted (Note [Converter plans]).
enum class Conv : uint8_t {
  Tensor,  // an owning tensor handle, moved in (arguments) or made (returns)
  Int,     // int, SymInt: raw bits
  Float,   // float: raw bits
  Bool,    // bool: the low-order byte
  Scalar,  // a StableScalarHandle: copied, then deleted
  Other,   // decode / release / encode by schema type
};

Conv conv_of(const st::SchemaType& type) {
  switch (type.kind()) {
    case st::TypeKind::Tensor: return Conv::Tensor;
    case st::TypeKind::Int:
    case st::TypeKind::SymInt: return Conv::Int;
    case st::TypeKind::Float: return Conv::Float;
    case st::TypeKind::Bool: return Conv::Bool;
    case st::TypeKind::Scalar: return Conv::Scalar;
    default: return Conv::Other;
  }
}

// Arguments whose tensor slots phase 1 remembers for phase 2.
constexpr size_t kMaxSlots = 16;

struct Plan;
struct CheckedPlan;
struct SpareSlots;
// A call of the kernel's unboxed entry point for one shape of arguments
// (Note [Calling typed kernels unboxed]); false when the kernel has none.
using TypedCallFn = bool (*)(const CheckedPlan&, StableIValue*, SpareSlots&);
// Sets plan.typed_call and plan.typed_sig when the C ABI has a typed call
// for the plan's shape.
void select_typed_call(Plan& plan);

struct Plan {
  st::OperatorHandle op;
  // The schema this plan was made from; held so that its address stays
  // unique while the plan exists.
  std::shared_ptr<const st::AnnotatedSchema> schema;
  const std::vector<st::Argument>* args = nullptr;
  const std::vector<st::Argument>* rets = nullptr;
  std::vector<Conv> arg_conv;
  std::vector<Conv> ret_conv;
  size_t stack_size = 0;  // max(num args, num returns)
  bool vararg = false;
  bool simple = false;  // no argument is Conv::Other (and at most kMaxSlots)
  // For simple plans, the argument converters again in a fixed array next
  // to their count (no vector bounds to load on the call path).
  uint32_t num_args = 0;
  std::array<Conv, kMaxSlots> simple_conv{};
  // Takes call_fast: simple, not vararg, at most kMaxSlots returns.
  bool fast = false;
  uint32_t num_rets = 0;
  size_t ret_bytes = 0;  // num_rets * sizeof(IValue): the stack's size after the kernel
  std::array<Conv, kMaxSlots> fast_ret_conv{};
  // Note [Calling typed kernels unboxed]: the typed call for this shape (a
  // fast plan), the C++ signature it calls with, and the ids of the tables
  // last found to carry that signature and not to (kNoTable: none yet).
  // Plans are per thread, so these caches need no synchronisation.
  static constexpr uint64_t kNoTable = ~uint64_t{0};
  TypedCallFn typed_call = nullptr;
  std::optional<st::CppSignature> typed_sig;
  mutable uint64_t typed_table = kNoTable;
  mutable uint64_t untyped_table = kNoTable;

  // The operator's current dispatch table when this plan still matches it
  // (the def this plan was made from is still the current one), else null.
  // The caller dispatches through the same table (Note [Dispatching from
  // the checked table]) and holds a DispatchReadGuard from before this
  // load until the kernel has returned.
  const st::DispatchTable* current_table() const noexcept {
    const st::DispatchTable& t = op.entry()->table();
    return t.schema.get() == schema.get() ? &t : nullptr;
  }
};

// Per-thread state of call_dispatcher, reached through one __thread
// pointer (Note [Fast thread-local access] in handle_registry.h):
//  - the plan cache: name -> plan (Note [Converter plans]); operator
//    entries are never freed by the dispatcher, so a plan's handle stays
//    valid;
//  - reusable IValue stacks, one per nesting level (a kernel may call the
//    dispatcher again), so a call allocates no stack.
struct CallState {
  struct Entry {
    std::string name;
    std::string overload;
    std::unique_ptr<Plan> plan;  // null: empty entry
  };
  static constexpr size_t kPooledDepths = 8;
  std::array<Entry, 64> ops;
  std::vector<std::unique_ptr<Plan>> retired;  // replaced while a call was running
  std::array<st::Stack, kPooledDepths> stacks;
  size_t depth = 0;
  ~CallState();
};

__thread CallState* t_call_state = nullptr;
__thread bool t_call_state_gone = false;

CallState::~CallState() {
  t_call_state = nullptr;
  t_call_state_gone = true;
}

__attribute__((noinline)) CallState& init_call_state() {
  if (t_call_state_gone) {
    // Called after this thread's state was destroyed (e.g. from a static
    // destructor at exit): use a fresh one for the rest of the thread.
    static thread_local CallState* late = nullptr;
    if (late == nullptr) late = new CallState();
    return *late;
  }
  thread_local CallState s;
  t_call_state = &s;
  return s;
}

inline CallState& call_state() {
  CallState* s = t_call_state;
  if (__builtin_expect(s != nullptr, 1)) return *s;
  return init_call_state();
}

// A plan for the def in dispatch table `t` of `op`.
std::unique_ptr<Plan> make_plan(st::OperatorHandle op, const st::DispatchTable& t) {
  auto plan = std::make_unique<Plan>();
  plan->op = op;
  plan->schema = t.schema;
  if (!plan->schema) st::detail::throwNoSchema(op.operatorName());  // removed meanwhile
  const st::FunctionSchema& fs = plan->schema->schema;
  plan->args = &fs.arguments();
  plan->rets = &fs.returns();
  plan->arg_conv.reserve(plan->args->size());
  for (const st::Argument& a : *plan->args) plan->arg_conv.push_back(conv_of(a.type));
  plan->ret_conv.reserve(plan->rets->size());
  for (const st::Argument& r : *plan->rets) plan->ret_conv.push_back(conv_of(r.type));
  plan->stack_size = std::max(plan->args->size(), plan->rets->size());
  plan->vararg = fs.isVararg() || fs.isVarret();
  plan->simple = plan->args->size() <= kMaxSlots;
  for (Conv c : plan->arg_conv) plan->simple = plan->simple && c != Conv::Other;
  plan->num_args = static_cast<uint32_t>(plan->args->size());
  if (plan->simple) std::copy(plan->arg_conv.begin(), plan->arg_conv.end(), plan->simple_conv.begin());
  plan->num_rets = static_cast<uint32_t>(plan->rets->size());
  plan->ret_bytes = plan->rets->size() * sizeof(st::IValue);
  plan->fast = plan->simple && !plan->vararg && plan->rets->size() <= kMaxSlots;
  if (plan->fast) std::copy(plan->ret_conv.begin(), plan->ret_conv.end(), plan->fast_ret_conv.begin());
  if (plan->fast) select_typed_call(*plan);
  return plan;
}

// A plan and the dispatch table it was checked against.
struct CheckedPlan {
  const Plan& plan;
  const st::DispatchTable& table;
};

// s equals `cached` (the default overload "" without a call to strcmp).
inline bool same_name(const std::string& cached, const char* s) {
  if (cached.empty()) return s[0] == '\0';
  return std::strcmp(cached.c_str(), s) == 0;
}

__attribute__((noinline)) CheckedPlan find_plan_slow(CallState& cs, CallState::Entry& e,
                                                     const char* op_name,
                                                     const char* overload_name) {
  std::optional<st::OperatorHandle> found;
  try {
    found = st::Dispatcher::singleton().findSchemaOrThrow(op_name, overload_name);
  } catch (const st::Error&) {
    // An operator of a plugin since unloaded: say so rather than "unknown".
    if (auto note = plugins::unloaded_operator_note(op_name)) ST_ERROR(*note);
    throw;
  }
  // The plan is made from, and this call dispatches through, one table.
  const st::DispatchTable& table = found->entry()->table();
  std::unique_ptr<Plan> plan = make_plan(*found, table);
  std::string name(op_name), overload(overload_name);
  // Plans replaced at depth 0 belong to finished calls; deeper, an outer
  // call may still be using the one this entry holds.
  if (cs.depth == 0) cs.retired.clear();
  if (e.plan != nullptr) cs.retired.push_back(std::move(e.plan));
  // Nothing below throws: the entry never pairs a name with another's plan.
  e.name = std::move(name);
  e.overload = std::move(overload);
  e.plan = std::move(plan);
  return {*e.plan, table};
}

inline CheckedPlan find_plan(CallState& cs, const char* op_name, const char* overload_name) {
  // The bucket comes from the pointers (cheap); a hit still compares the
  // contents, so a reused buffer holding another name cannot alias.
  const uintptr_t h = reinterpret_cast<uintptr_t>(op_name) * 31 + reinterpret_cast<uintptr_t>(overload_name);
  CallState::Entry& e = cs.ops[(h >> 3) % cs.ops.size()];
  const Plan* p = e.plan.get();
  if (__builtin_expect(p != nullptr && same_name(e.name, op_name) &&
                           same_name(e.overload, overload_name),
                       1)) {
    if (const st::DispatchTable* t = p->current_table(); __builtin_expect(t != nullptr, 1)) {
      return {*p, *t};
    }
  }
  return find_plan_slow(cs, e, op_name, overload_name);
}

template <typename T>
T from_bits(StableIValue v) {
  T out;
  std::memcpy(&out, &v, sizeof(T));  // low-order bytes (little-endian hosts)
  return out;
}

const void* as_pointer(StableIValue v) {
  return reinterpret_cast<const void*>(static_cast<uintptr_t>(v));
}

// An optional slot is owned by one argument: the same slot pointer twice
// would be read after it was freed, and freed twice. The index of the
// earlier optional argument holding the slot of optional argument i, or -1.
inline ptrdiff_t repeated_slot(const Plan& plan, const StableIValue* stack, size_t i) noexcept {
  const std::vector<st::Argument>& args = *plan.args;
  if (stack[i] == 0 || !args[i].type.isOptional()) return -1;
  for (size_t j = 0; j < i; ++j) {
    if (stack[j] == stack[i] && args[j].type.isOptional()) return static_cast<ptrdiff_t>(j);
  }
  return -1;
}

// Releases the caller's arguments (they are stolen, success or not); a
// repeated optional slot once.
void release_all(const Plan& plan, const StableIValue* stack) noexcept {
  for (size_t i = 0; i < plan.args->size(); ++i) {
    if (repeated_slot(plan, stack, i) < 0) release((*plan.args)[i].type, stack[i]);
  }
}

// Gives `ivalues` room for the plan's stack; if that fails (out of
// memory), releases the caller's arguments, which are stolen on failure
// too, and rethrows.
__attribute__((noinline, cold)) void reserve_stack(const Plan& plan, const StableIValue* stack,
                                                   st::Stack& ivalues) {
  try {
    ivalues.reserve(plan.stack_size);
  } catch (...) {
    release_all(plan, stack);
    throw;
  }
}

// The IValue stack of a call at any depth: the pooled one of its depth, or
// beyond the pooled depths its own; cleared and given back however the
// call ends. Made before any argument is taken: if it cannot be made, the
// arguments are released (reserve_stack).
class StackLease {
 public:
  StackLease(CallState& cs, const Plan& plan, const StableIValue* stack) : cs_(cs) {
    if (__builtin_expect(cs.depth < CallState::kPooledDepths, 1)) {
      stack_ = &cs.stacks[cs.depth];
    } else {
      try {
        own_ = std::make_unique<st::Stack>();
      } catch (...) {
        release_all(plan, stack);
        throw;
      }
      stack_ = own_.get();
    }
    ++cs.depth;
    // Pooled stacks keep their capacity: after the first calls this only
    // compares.
    if (__builtin_expect(stack_->capacity() < plan.stack_size, 0)) reserve_stack(plan, stack, *stack_);
  }
  ~StackLease() {
    stack_->clear();
    --cs_.depth;
  }
  StackLease(const StackLease&) = delete;
  StackLease& operator=(const StackLease&) = delete;
  st::Stack& get() { return *stack_; }

 private:
  CallState& cs_;
  st::Stack* stack_;
  std::unique_ptr<st::Stack> own_;  // beyond the pooled depths
};

// Each handle argument is its own owning reference: the same handle twice
// would be taken (destroyed, its slot freed) twice. True when stack[i] is
// the handle of an earlier tensor or scalar argument. Handles of other
// kinds never equal these (one slot, one kind at a time).
inline bool repeats_handle(const Conv* conv, const StableIValue* stack, size_t i) noexcept {
  for (size_t j = 0; j < i; ++j) {
    if ((conv[j] == Conv::Tensor || conv[j] == Conv::Scalar) && stack[j] == stack[i]) return true;
  }
  return false;
}

// Phase 1 (Note [StableIValue stacks]), any plan: reads every argument
// into `out` without taking anything; a top-level Tensor gets an undefined
// placeholder and its slot in `slots` (first kMaxSlots arguments). Returns
// false at the first bad argument; may throw (decode, out of memory).
bool read_arguments(const Plan& plan, const StableIValue* stack, st::Stack& out,
                    Slot** slots) {
  const size_t n = plan.arg_conv.size();
  for (size_t i = 0; i < n; ++i) {
    const StableIValue v = stack[i];
    switch (plan.arg_conv[i]) {
      case Conv::Tensor: {
        Slot* s = tensor_slot(v);
        if (s == nullptr || repeats_handle(plan.arg_conv.data(), stack, i)) return false;
        if (i < kMaxSlots) slots[i] = s;
        out.emplace_back(st::Tensor());
        break;
      }
      case Conv::Int: out.emplace_back(from_bits<int64_t>(v)); break;
      case Conv::Float: out.emplace_back(from_bits<double>(v)); break;
      case Conv::Bool: out.emplace_back((v & 0xffu) != 0); break;
      case Conv::Scalar: {
        Slot* s = live_slot(as_pointer(v), HandleKind::Scalar);
        if (s == nullptr || repeats_handle(plan.arg_conv.data(), stack, i)) return false;
        out.emplace_back(payload<st::Scalar>(s));
        break;
      }
      case Conv::Other:
        if (repeated_slot(plan, stack, i) >= 0) return false;
        out.push_back(decode((*plan.args)[i].type, v));
        break;
    }
  }
  return true;
}

// Slots of the handle arguments a call takes, kept for its returns (Note
// [Returns in the arguments' slots]). Phase 1 records the slots of the
// tensor and scalar arguments in argument order (`slots`); once phase 2
// has taken them, `n` counts the spares, and whatever the returns leave is
// freed when the call ends, however it ends.
struct SpareSlots {
  Slot* slots[kMaxSlots];
  uint32_t n = 0;
  SpareSlots() = default;
  SpareSlots(const SpareSlots&) = delete;
  SpareSlots& operator=(const SpareSlots&) = delete;
  ~SpareSlots() {
    while (n != 0) free_slot(slots[--n]);
  }
  // A free slot: a spare one, else a new one.
  Slot* take() { return n != 0 ? slots[--n] : allocate_slot(); }
};

constexpr uint32_t kBadArgument = ~uint32_t{0};

// The slot of a tensor or scalar argument's handle (`c` says which) when it
// is a live handle of that kind, else null.
inline Slot* handle_slot(Conv c, StableIValue v) noexcept {
  return c == Conv::Tensor ? tensor_slot(v) : live_slot(as_pointer(v), HandleKind::Scalar);
}

// Phase 1 for a simple plan (only tensors, numbers and scalars): checks
// every argument, taking nothing yet; the slots of the tensor and scalar
// handles go to spares.slots in argument order. Returns how many, or
// kBadArgument at the first bad argument. Never throws.
inline __attribute__((always_inline)) uint32_t check_simple_arguments(const Plan& plan,
                                                                      const StableIValue* stack,
                                                                      SpareSlots& spares) noexcept {
  // Tests in order of likelihood rather than a switch: a jump table costs
  // more than the one or two compares most arguments need.
  const uint32_t n = plan.num_args;
  uint32_t handles = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const StableIValue v = stack[i];
    const Conv c = plan.simple_conv[i];
    if (c != Conv::Tensor && c != Conv::Scalar) continue;
    Slot* s = handle_slot(c, v);
    if (s == nullptr || repeats_handle(plan.simple_conv.data(), stack, i)) return kBadArgument;
    spares.slots[handles++] = s;
  }
  return handles;
}

// ivalues.emplace_back(t), inlined: the stack's capacity was reserved, so
// this is a compare and a store, where the out-of-line emplace_back costs a
// call and its frame on every argument.
__attribute__((flatten)) inline void push_tensor(st::Stack& ivalues, st::Tensor&& t) noexcept {
  ivalues.emplace_back(std::move(t));
}

// Phase 2 for a simple plan: builds the IValues, moving each tensor out of
// its handle and deleting the handle, and deleting scalar handles; their
// slots (from phase 1) become spares. `out` has room for every argument
// (reserved), so this never throws. Returns the key set the call
// dispatches with, gathered from the tensors on the way (Note [Dispatching
// from the checked table]): in a simple plan the tensor arguments are
// exactly the schema's Tensor-like ones.
inline __attribute__((always_inline)) st::DispatchKeySet take_simple_arguments(
    const Plan& plan, const StableIValue* stack, st::Stack& out, SpareSlots& spares,
    uint32_t handles) noexcept {
  st::DispatchKeySet ks;
  const uint32_t n = plan.num_args;
  Slot* const* next = spares.slots;
  for (uint32_t i = 0; i < n; ++i) {
    const StableIValue v = stack[i];
    const Conv c = plan.simple_conv[i];
    if (__builtin_expect(c == Conv::Tensor, 1)) {
      Slot* s = *next++;
      st::Tensor& held = payload<st::Tensor>(s);
      ks = ks | st::detail::keysOf(held);
      push_tensor(out, std::move(held));
      held.~Tensor();
      retire(s, static_cast<uintptr_t>(v));
      continue;
    }
    switch (c) {
      case Conv::Tensor: break;  // above
      case Conv::Int: out.emplace_back(from_bits<int64_t>(v)); break;
      case Conv::Float: out.emplace_back(from_bits<double>(v)); break;
      case Conv::Bool: out.emplace_back((v & 0xffu) != 0); break;
      case Conv::Scalar: {
        Slot* s = *next++;
        st::Scalar& held = payload<st::Scalar>(s);
        out.emplace_back(held);
        held.~Scalar();
        retire(s, static_cast<uintptr_t>(v));
        break;
      }
      case Conv::Other: break;  // not in a simple plan
    }
  }
  spares.n = handles;
  return st::detail::withBackendSelect(ks);
}

// Phase 2: takes the tensors out of their handles and releases the other
// arguments' handles. Never throws.
void take_arguments(const Plan& plan, const StableIValue* stack, st::Stack& ivalues,
                    Slot* const* slots) noexcept {
  const size_t n = plan.arg_conv.size();
  for (size_t i = 0; i < n; ++i) {
    switch (plan.arg_conv[i]) {
      case Conv::Tensor:
        take_tensor(i < kMaxSlots ? slots[i] : tensor_slot(stack[i]), stack[i],
                    ivalues[i].toTensor());
        break;
      case Conv::Int:
      case Conv::Float:
      case Conv::Bool:
        break;
      case Conv::Scalar: destroy_if_live<st::Scalar>(as_pointer(stack[i])); break;
      case Conv::Other: release((*plan.args)[i].type, stack[i]); break;
    }
  }
}

// A bad argument: checks every argument again to name each bad one (index,
// name, expected and actual kind), releases them all and throws. `first`
// is what phase 1 threw, if anything; rethrown when no argument is at fault
// (e.g. out of memory).
[[noreturn]] __attribute__((noinline, cold)) void fail_arguments(const Plan& plan,
                                                                 const StableIValue* stack,
                                                                 std::exception_ptr first) {
  const std::vector<st::Argument>& args = *plan.args;
  std::string errors;
  try {
    for (size_t i = 0; i < args.size(); ++i) {
      try {
        if (plan.arg_conv[i] == Conv::Tensor) {
          check_tensor(args[i].type, stack[i]);
        } else {
          (void)decode(args[i].type, stack[i]);
        }
        if (const ptrdiff_t j = repeated_slot(plan, stack, i); j >= 0) {
          ST_ERROR("the same optional slot as argument ", j, " '", args[j].name,
                   "' (each optional needs its own slot)");
        }
        if (plan.arg_conv[i] == Conv::Tensor || plan.arg_conv[i] == Conv::Scalar) {
          for (size_t j = 0; j < i; ++j) {
            if (plan.arg_conv[j] == plan.arg_conv[i] && stack[j] == stack[i]) {
              const bool tensor = plan.arg_conv[i] == Conv::Tensor;
              ST_ERROR("the same ", tensor ? "tensor" : "scalar", " handle as argument ", j, " '",
                       args[j].name, "' (pass a new reference per argument: ",
                       tensor ? "aoti_torch_new_tensor_handle" : "a scalar handle each", ")");
            }
          }
        }
      } catch (const st::Error& e) {
        if (!errors.empty()) errors += "; ";
        errors += "argument " + std::to_string(i) + " '" + args[i].name + "': " + e.what();
      }
    }
  } catch (...) {
    // Out of memory while describing: report what phase 1 threw.
    errors.clear();
  }
  release_all(plan, stack);
  if (!errors.empty()) ST_ERROR(plan.op.operatorName(), ": ", errors);
  if (first) std::rethrow_exception(first);
  ST_ERROR(plan.op.operatorName(), ": an argument could not be read");
}

[[noreturn]] __attribute__((noinline, cold)) void fail_vararg(const Plan& plan,
                                                              const StableIValue* stack) {
  release_all(plan, stack);
  ST_ERROR(plan.op.operatorName(), ": vararg schemas cannot be called through the C ABI");
}

// Called from the handler of a kernel's st::Error: dispatcher and kernel
// errors carry their own text; prefix the op only when the message does
// not already name it.
[[noreturn]] __attribute__((noinline, cold)) void fail_kernel(const Plan& plan,
                                                              const st::Error& e) {
  const std::string opn = plan.op.operatorName().toString();
  if (std::strstr(e.what(), opn.c_str()) != nullptr) throw;
  ST_ERROR(opn, ": ", e.what());
}

[[noreturn]] __attribute__((noinline, cold)) void fail_return_count(const Plan& plan,
                                                                    size_t got) {
  ST_ERROR(plan.op.operatorName(), ": the kernel returned ", got,
           " value(s) but the schema declares ", plan.rets->size());
}

[[noreturn]] __attribute__((noinline, cold)) void fail_return(const Plan& plan,
                                                              StableIValue* stack, size_t done,
                                                              const std::exception& e) {
  for (size_t j = 0; j < done; ++j) release((*plan.rets)[j].type, stack[j]);
  ST_ERROR(plan.op.operatorName(), ": return ", done, ": ", e.what());
}

// The steps both call paths share, always inlined: the fast path must
// not pay a call for them (bench_c_api's no-op measures it).

// Runs the kernel from the table find_plan checked, with the arguments' key
// set `ks`; a kernel's st::Error is rethrown naming the op (fail_kernel,
// inside the handler).
inline __attribute__((always_inline)) void call_kernel(const CheckedPlan& checked,
                                                       st::DispatchKeySet ks,
                                                       st::Stack& ivalues) {
  try {
    // Note [Dispatching from the checked table]
    st::Dispatcher::callBoxedWithKeySet(checked.plan.op, checked.table, ks, &ivalues);
  } catch (const st::Error& e) {
    fail_kernel(checked.plan, e);
  }
}

// Return i (converted as `conv` says) into stack[i]: a tensor into a spare
// slot (Note [Returns in the arguments' slots]), anything else encoded.
inline __attribute__((always_inline)) void put_return(const Plan& plan, Conv conv,
                                                      st::IValue& r, size_t i,
                                                      SpareSlots& spares, StableIValue* stack) {
  if (conv == Conv::Tensor && r.isTensor()) {
    Slot* s = spares.take();
    new (s->payload) st::Tensor(std::move(r.toTensor()));
    stack[i] = static_cast<StableIValue>(publish(s, HandleKind::Tensor).bits);
  } else {
    stack[i] = encode((*plan.rets)[i].type, std::move(r));
  }
}

// The general path: any plan, any nesting depth. Throws on failure after
// releasing what the caller passed (Note [StableIValue stacks]).
__attribute__((noinline)) void call_general(CallState& cs, const CheckedPlan checked,
                                            StableIValue* stack) {
  const Plan& plan = checked.plan;
  if (__builtin_expect(plan.vararg, 0)) fail_vararg(plan, stack);

  SpareSlots spares;
  StackLease lease(cs, plan, stack);
  st::Stack& ivalues = lease.get();
  st::DispatchKeySet ks;
  if (plan.simple) {
    const uint32_t handles = check_simple_arguments(plan, stack, spares);
    if (__builtin_expect(handles == kBadArgument, 0)) fail_arguments(plan, stack, nullptr);
    ks = take_simple_arguments(plan, stack, ivalues, spares, handles);
  } else {
    Slot* slots[kMaxSlots];
    bool ok = false;
    std::exception_ptr first;
    try {
      ok = read_arguments(plan, stack, ivalues, slots);
    } catch (...) {
      first = std::current_exception();
    }
    if (!ok) fail_arguments(plan, stack, std::move(first));
    take_arguments(plan, stack, ivalues, slots);
    // Lists and optionals too: the core's pass over the stack.
    ks = st::detail::computeKeySetBoxed(checked.table, ivalues);
  }

  call_kernel(checked, ks, ivalues);

  const size_t num_rets = plan.ret_conv.size();
  if (__builtin_expect(ivalues.size() != num_rets, 0)) fail_return_count(plan, ivalues.size());
  size_t done = 0;
  try {
    for (; done < num_rets; ++done) {
      st::IValue& r = ivalues[done];
      put_return(plan, plan.ret_conv[done], r, done, spares, stack);
    }
  } catch (const std::exception& e) {
    fail_return(plan, stack, done, e);
  }
}

// Note [Calling typed kernels unboxed]
// Most kernels are typed C++ functions, which the boxed path reaches
// through their boxed adapter: the arguments are moved into an IValue
// stack, the adapter moves them out again, and the result makes the same
// trip back. When a fast plan's shape is one the C ABI has a typed call
// for (one to kMaxTypedArgs tensors, scalars, ints, floats or bools, one
// Tensor returned) and the dispatch table vouches that every unboxed entry
// point in it has exactly that C++ signature (DispatchTable::cpp_signature:
// all typed kernels of an operator share one, checked at registration),
// the call skips the stack: the kernel's unboxed entry point is called
// with references to the tensors and scalars in the argument handles'
// slots. The order of events is the boxed path's: arguments checked, the
// caller's handles retired before the kernel runs (they read as deleted
// from then on), the argument values released after it, the result built
// in an argument's slot, every argument stolen on failure too. A kernel
// without an unboxed entry point (a boxed kernel, a plugin's kernel)
// takes the boxed path. The signature is compared once per table (by its
// id, which is never reused) and the result kept in the per-thread plan.
constexpr size_t kMaxTypedArgs = 3;

template <Conv C>
struct TypedArg;
template <>
struct TypedArg<Conv::Tensor> {
  using type = const st::Tensor&;
};
template <>
struct TypedArg<Conv::Scalar> {
  using type = const st::Scalar&;
};
template <>
struct TypedArg<Conv::Int> {
  using type = int64_t;
};
template <>
struct TypedArg<Conv::Float> {
  using type = double;
};
template <>
struct TypedArg<Conv::Bool> {
  using type = bool;
};

constexpr bool is_handle(Conv c) { return c == Conv::Tensor || c == Conv::Scalar; }

template <Conv... Cs>
struct TypedCall {
  static constexpr size_t kArgs = sizeof...(Cs);
  static constexpr std::array<Conv, kArgs> kConv{Cs...};
  static constexpr uint32_t kHandles = (0u + ... + (is_handle(Cs) ? 1u : 0u));
  // Argument i's position among the handle arguments (phase 1 records
  // their slots in that order).
  static constexpr std::array<uint32_t, kArgs> kHandleIndex = [] {
    std::array<uint32_t, kArgs> at{};
    uint32_t h = 0;
    for (size_t i = 0; i < kArgs; ++i) {
      at[i] = h;
      if (is_handle(kConv[i])) ++h;
    }
    return at;
  }();
  using Sig = st::Tensor(typename TypedArg<Cs>::type...);

  template <size_t I>
  static typename TypedArg<kConv[I]>::type arg(const StableIValue* stack, Slot* const* slots) {
    constexpr Conv c = kConv[I];
    if constexpr (c == Conv::Tensor) {
      return payload<st::Tensor>(slots[kHandleIndex[I]]);
    } else if constexpr (c == Conv::Scalar) {
      return payload<st::Scalar>(slots[kHandleIndex[I]]);
    } else if constexpr (c == Conv::Int) {
      return from_bits<int64_t>(stack[I]);
    } else if constexpr (c == Conv::Float) {
      return from_bits<double>(stack[I]);
    } else {
      return (stack[I] & 0xffu) != 0;
    }
  }

  // Phase 1 for argument I: a live handle of its kind, not the handle of
  // an earlier argument (repeats_handle); its slot goes to `slots`.
  template <size_t I>
  static bool check(const StableIValue* stack, Slot** slots) {
    constexpr Conv c = kConv[I];
    if constexpr (is_handle(c)) {
      Slot* s = handle_slot(c, stack[I]);
      if (s == nullptr || repeats_handle(kConv.data(), stack, I)) return false;
      slots[kHandleIndex[I]] = s;
    }
    return true;
  }

  template <size_t I>
  static st::DispatchKeySet keys(Slot* const* slots) {
    if constexpr (kConv[I] == Conv::Tensor) {
      return st::detail::keysOf(payload<st::Tensor>(slots[kHandleIndex[I]]));
    } else {
      return st::DispatchKeySet();
    }
  }

  template <size_t I>
  static void retire_handle(const StableIValue* stack, Slot* const* slots) {
    if constexpr (is_handle(kConv[I])) {
      retire(slots[kHandleIndex[I]], static_cast<uintptr_t>(stack[I]));
    }
  }

  template <size_t I>
  static void destroy_value(Slot* const* slots) {
    if constexpr (kConv[I] == Conv::Tensor) {
      payload<st::Tensor>(slots[kHandleIndex[I]]).~Tensor();
    } else if constexpr (kConv[I] == Conv::Scalar) {
      payload<st::Scalar>(slots[kHandleIndex[I]]).~Scalar();
    }
  }

  template <size_t... I>
  static bool call(const CheckedPlan& checked, StableIValue* stack, SpareSlots& spares,
                   std::index_sequence<I...>) {
    const Plan& plan = checked.plan;
    Slot** slots = spares.slots;
    if (__builtin_expect(!(check<I>(stack, slots) && ...), 0)) fail_arguments(plan, stack, nullptr);
    const st::DispatchKeySet ks =
        st::detail::withBackendSelect((st::DispatchKeySet() | ... | keys<I>(slots)));
    const st::KernelFunction* k = nullptr;
    try {
      k = &plan.op.entry()->lookup(checked.table, ks);
    } catch (const st::Error& e) {
      release_all(plan, stack);  // stolen on failure too
      fail_kernel(plan, e);
    }
    if (!k->hasUnboxed()) return false;  // nothing taken: the boxed path starts over
    (retire_handle<I>(stack, slots), ...);
    // The argument values are this call's now; destroyed after the kernel,
    // however it ends, and their slots are spares.
    struct Values {
      SpareSlots& spares;
      ~Values() {
        (destroy_value<I>(spares.slots), ...);
        spares.n = kHandles;
      }
    };
    st::Tensor result = [&] {
      Values values{spares};
      try {
        return k->call<st::Tensor, typename TypedArg<Cs>::type...>(plan.op, ks,
                                                                   arg<I>(stack, slots)...);
      } catch (const st::Error& e) {
        fail_kernel(plan, e);
      }
    }();
    Slot* s = spares.take();
    new (s->payload) st::Tensor(std::move(result));
    stack[0] = static_cast<StableIValue>(publish(s, HandleKind::Tensor).bits);
    return true;
  }

  static bool entry(const CheckedPlan& checked, StableIValue* stack, SpareSlots& spares) {
    return call(checked, stack, spares, std::make_index_sequence<kArgs>());
  }
};

// The typed call for the argument shape conv[0..n), after the shape's
// first arguments Cs...; {nullptr, nullopt} when there is none.
template <Conv... Cs>
std::pair<TypedCallFn, std::optional<st::CppSignature>> typed_call_for(const Conv* conv, size_t n) {
  if (n == 0) {
    if constexpr (sizeof...(Cs) == 0) {
      return {nullptr, std::nullopt};
    } else {
      return {&TypedCall<Cs...>::entry, st::CppSignature::make<typename TypedCall<Cs...>::Sig>()};
    }
  } else if constexpr (sizeof...(Cs) < kMaxTypedArgs) {
    switch (conv[0]) {
      case Conv::Tensor: return typed_call_for<Cs..., Conv::Tensor>(conv + 1, n - 1);
      case Conv::Scalar: return typed_call_for<Cs..., Conv::Scalar>(conv + 1, n - 1);
      case Conv::Int: return typed_call_for<Cs..., Conv::Int>(conv + 1, n - 1);
      case Conv::Float: return typed_call_for<Cs..., Conv::Float>(conv + 1, n - 1);
      case Conv::Bool: return typed_call_for<Cs..., Conv::Bool>(conv + 1, n - 1);
      case Conv::Other: break;
    }
  }
  return {nullptr, std::nullopt};
}

void select_typed_call(Plan& plan) {
  if (plan.num_rets != 1 || plan.fast_ret_conv[0] != Conv::Tensor) return;
  auto [fn, sig] = typed_call_for<>(plan.simple_conv.data(), plan.num_args);
  plan.typed_call = fn;
  plan.typed_sig = std::move(sig);
}

// Whether table `t` vouches for the plan's typed call (Note [Calling typed
// kernels unboxed]); remembered per table id.
__attribute__((noinline)) bool typed_table_matches(const Plan& plan, const st::DispatchTable& t) {
  const bool ok = t.cpp_signature.has_value() && *t.cpp_signature == *plan.typed_sig;
  (ok ? plan.typed_table : plan.untyped_table) = t.id;
  return ok;
}

// The common path (Note [The fast call path]): a fast plan at a pooled
// depth. The same steps and checks as call_general, with the plan's
// fixed arrays and without StackLease's heap fallback.
inline __attribute__((always_inline)) void call_fast(CallState& cs, const CheckedPlan checked,
                                                     StableIValue* stack) {
  const Plan& plan = checked.plan;
  SpareSlots spares;
  if (plan.typed_call != nullptr) {
    const uint64_t id = checked.table.id;
    if (id == plan.typed_table || (id != plan.untyped_table && typed_table_matches(plan, checked.table))) {
      // A nested call during the kernel may replace this plan in the cache;
      // at a depth above 0 it keeps the plan in `retired` (Note [Converter
      // plans]), which the failure path still reads.
      struct Depth {
        CallState& cs;
        ~Depth() { --cs.depth; }
      } depth{cs};
      ++cs.depth;
      if (plan.typed_call(checked, stack, spares)) return;
    }
  }
  const uint32_t handles = check_simple_arguments(plan, stack, spares);
  if (__builtin_expect(handles == kBadArgument, 0)) fail_arguments(plan, stack, nullptr);
  // The pooled stack of this depth; cleared and given back however the
  // call ends.
  struct Lease {
    CallState& cs;
    st::Stack& ivalues;
    ~Lease() {
      ivalues.clear();
      --cs.depth;
    }
  } lease{cs, cs.stacks[cs.depth++]};
  st::Stack& ivalues = lease.ivalues;
  if (__builtin_expect(ivalues.capacity() < plan.stack_size, 0)) reserve_stack(plan, stack, ivalues);
  const st::DispatchKeySet ks = take_simple_arguments(plan, stack, ivalues, spares, handles);

  call_kernel(checked, ks, ivalues);

  // The size check in bytes (size() would divide by sizeof(IValue)).
  st::IValue* const rets = ivalues.data();
  if (__builtin_expect(static_cast<size_t>(reinterpret_cast<char*>(rets + ivalues.size()) -
                                           reinterpret_cast<char*>(rets)) != plan.ret_bytes,
                       0)) {
    fail_return_count(plan, ivalues.size());
  }
  const uint32_t num_rets = plan.num_rets;
  uint32_t done = 0;
  try {
    for (; done < num_rets; ++done) {
      st::IValue& r = rets[done];
      put_return(plan, plan.fast_ret_conv[done], r, done, spares, stack);
    }
  } catch (const std::exception& e) {
    fail_return(plan, stack, done, e);
  }
}

// call_dispatcher's body, inlined into both exported functions (one call
// less on every call).
inline __attribute__((always_inline)) void call_inline(const char* op_name,
                                                       const char* overload_name,
                                                       StableIValue* stack,
                                                       uint64_t extension_build_version) {
  // Without a usable name, stack or build version nothing can be released:
  // the caller keeps its arguments (documented in REVIEW.md).
  ST_CHECK(op_name != nullptr, "opName is null");
  ST_CHECK(overload_name != nullptr, "overloadName is null (use \"\" for the default overload)");
  ST_CHECK(stack != nullptr, "stack is null");
  // Note [Build versions newer than the runtime]; older ones: Note [Build
  // versions older than the runtime].
  check_extension_build_version(extension_build_version);
  CallState& cs = call_state();
  // Note [Dispatching from the checked table]: spans the table load in
  // find_plan and the kernel call.
  st::DispatchReadGuard guard;
  const CheckedPlan checked = find_plan(cs, op_name, overload_name);
  if (__builtin_expect(checked.plan.fast && cs.depth < CallState::kPooledDepths, 1)) {
    call_fast(cs, checked, stack);
  } else {
    call_general(cs, checked, stack);
  }
}

}  // namespace

void call_dispatcher(const char* op_name, const char* overload_name, StableIValue* stack,
                     uint64_t extension_build_version) {
  call_inline(op_name, overload_name, stack, extension_build_version);
}

}  // namespace stc

extern "C" {

AOTITorchError aoti_torch_call_dispatcher(const char* opName, const char* overloadName,
                                          StableIValue* stack) {
  STC_API_BEGIN
  stc::call_inline(opName, overloadName, stack, stc::kUnversionedBuildVersion);
  STC_API_END
}

AOTITorchError torch_call_dispatcher(const char* opName, const char* overloadName,
                                     StableIValue* stack, uint64_t extension_build_version) {
  STC_API_BEGIN
  stc::call_inline(opName, overloadName, stack, extension_build_version);
  STC_API_END
}

}  // extern "C"
