// aoti_torch_call_dispatcher / torch_call_dispatcher.
//
// Note [StableIValue stacks]
// The caller's stack holds max(num_args, num_returns) slots; arguments are
// in schema order in stack[0..num_args). Once the operator is found the
// callee owns every argument: it steals them whether the call succeeds or
// fails, and on success leaves new references to the returns in
// stack[0..num_returns). Before that (a null name or stack, a build version
// too new, an unknown operator or overload, no memory for the operator's
// plan) the stack is left untouched and the caller still owns its
// arguments: without the schema nothing says how many there are or what
// they hold. PyTorch behaves the same way (its dispatcher looks the
// operator up before it converts a single argument). Arguments are taken
// in two phases: first every one is checked and read (borrowed); only when
// all are good are the caller's handles taken. When one is bad, every
// argument is checked again to name every bad one in one error, and all of
// them are released: nothing leaks either way.
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
// the stack for plans with lists and optionals) instead of calling OperatorHandle::callBoxed, which
// would load it again through two more calls. The table is the one whose schema the plan was
// checked against, so the arguments converted by the plan always meet the kernels of that def. The
// call holds a DispatchReadGuard from before the table is loaded until the kernel has returned, so
// the table and the kernels it holds stay valid for the whole call even if another thread
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
// Note [One call path]
// Every call takes the same steps (call_plan): lease the IValue stacks of
// its nesting depth, check and read the arguments (phase 1), take them
// (phase 2), call the kernel from the checked table, build the returns.
// One optional step comes first: when the plan's shape has a typed call
// and the table vouches for it, the kernel is called unboxed (Note
// [Calling typed kernels unboxed]) with the same argument check, and the
// boxed steps are skipped; a kernel without an unboxed entry point leaves
// everything in place for them.
#include "call_dispatcher.h"

#include <array>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <st/dispatch/dispatcher.h>
#include <st/dispatch/read_guard.h>
#include <torch/csrc/stable/c/shim.h>

#include "build_version.h"
#include "error_state.h"
#include "handle_types.h"
#include "loader/plugin_registry.h"
#include "stable_ivalue_codec.h"
#include "stable_ivalue_slots.h"

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
  // The kinds below are decoded by schema type like Other on the boxed
  // steps; the typed call reads them in place (Note [Calling typed
  // kernels unboxed]).
  Str,     // str: a string handle
  OptStr,  // str?: 0, or an optional slot holding a string handle
};

// Whether phase 1 of the boxed steps decodes an argument of this kind by
// its schema type.
constexpr bool by_schema_type(Conv c) { return c >= Conv::Other; }
constexpr bool is_string(Conv c) { return c == Conv::Str || c == Conv::OptStr; }

Conv conv_of(const st::SchemaType& type) {
  switch (type.kind()) {
    case st::TypeKind::Tensor:
      return Conv::Tensor;
    case st::TypeKind::Int:
    case st::TypeKind::SymInt:
      return Conv::Int;
    case st::TypeKind::Float:
      return Conv::Float;
    case st::TypeKind::Bool:
      return Conv::Bool;
    case st::TypeKind::Scalar:
      return Conv::Scalar;
    case st::TypeKind::Str:
      return Conv::Str;
    case st::TypeKind::Optional:
      return type.elem().kind() == st::TypeKind::Str ? Conv::OptStr : Conv::Other;
    default:
      return Conv::Other;
  }
}

// Handle arguments whose slots phase 1 records for phase 2 and the
// returns (SpareSlots); a plan with more resolves the rest again.
constexpr size_t kMaxSlots = 16;

struct Plan;
struct CheckedPlan;
struct SpareSlots;
// A call of the kernel's unboxed entry point for one shape of arguments
// (Note [Calling typed kernels unboxed]); false when the kernel has none
// (nothing taken yet).
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
  // The converter of each argument, then of each return.
  std::vector<Conv> conv;
  uint32_t num_args = 0;
  uint32_t num_rets = 0;
  size_t stack_size = 0;  // max(num args, num returns)
  size_t ret_bytes = 0;   // num_rets * sizeof(IValue): the stack's size after the kernel
  bool vararg = false;
  // Some argument is decoded by schema type in phase 1 (by_schema_type), and
  // the key set comes from the whole stack (lists and optionals may hold
  // tensors), not from the tensor arguments alone.
  bool has_other = false;
  // Note [Calling typed kernels unboxed]: the typed call for this shape,
  // the C++ signature it calls with, and the ids of the tables last found
  // to carry that signature and not to (kNoTable: none yet). Plans are per
  // thread, so these caches need no synchronisation.
  static constexpr uint64_t kNoTable = ~uint64_t{0};
  TypedCallFn typed_call = nullptr;
  std::optional<st::CppSignature> typed_sig;
  mutable uint64_t typed_table = kNoTable;
  mutable uint64_t untyped_table = kNoTable;

  const Conv* arg_conv() const noexcept { return conv.data(); }
  Conv ret_conv(size_t i) const noexcept { return conv[num_args + i]; }

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

// The IValue stacks of one call: the kernel's stack, and the arguments
// phase 1 decoded by schema type (by_schema_type) until phase 2 moves them in.
struct CallStacks {
  st::Stack ivalues;
  st::Stack decoded;
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
  std::array<CallStacks, kPooledDepths> stacks;
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
  plan->conv.reserve(plan->args->size() + plan->rets->size());
  for (const st::Argument& a : *plan->args) plan->conv.push_back(conv_of(a.type));
  for (const st::Argument& r : *plan->rets) plan->conv.push_back(conv_of(r.type));
  plan->num_args = static_cast<uint32_t>(plan->args->size());
  plan->num_rets = static_cast<uint32_t>(plan->rets->size());
  plan->stack_size = std::max(plan->args->size(), plan->rets->size());
  plan->ret_bytes = plan->rets->size() * sizeof(st::IValue);
  plan->vararg = fs.isVararg() || fs.isVarret();
  for (uint32_t i = 0; i < plan->num_args; ++i) {
    plan->has_other = plan->has_other || by_schema_type(plan->conv[i]);
  }
  if (!plan->vararg) select_typed_call(*plan);
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
  const uintptr_t h =
      reinterpret_cast<uintptr_t>(op_name) * 31 + reinterpret_cast<uintptr_t>(overload_name);
  CallState::Entry& e = cs.ops[(h >> 3) % cs.ops.size()];
  const Plan* p = e.plan.get();
  if (__builtin_expect(
          p != nullptr && same_name(e.name, op_name) && same_name(e.overload, overload_name), 1)) {
    if (const st::DispatchTable* t = p->current_table(); __builtin_expect(t != nullptr, 1)) {
      return {*p, *t};
    }
  }
  return find_plan_slow(cs, e, op_name, overload_name);
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
  for (size_t i = 0; i < plan.num_args; ++i) {
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

// The IValue stacks of a call at any depth: the pooled ones of its depth,
// or beyond the pooled depths its own; cleared and given back however the
// call ends. Made before any argument is taken: if they cannot be made,
// the arguments are released (reserve_stack). Spans the typed call too,
// whose kernel may call the dispatcher again (Note [Converter plans]: a
// plan replaced at a depth above 0 is kept in `retired`).
class StackLease {
 public:
  inline __attribute__((always_inline))
  StackLease(CallState& cs, const Plan& plan, const StableIValue* stack)
      : cs_(cs) {
    if (__builtin_expect(cs.depth < CallState::kPooledDepths, 1)) {
      stacks_ = &cs.stacks[cs.depth];
    } else {
      own_stacks(plan, stack);
    }
    ++cs.depth;
    // Pooled stacks keep their capacity: after the first calls this only
    // compares.
    if (__builtin_expect(stacks_->ivalues.capacity() < plan.stack_size, 0)) {
      reserve_stack(plan, stack, stacks_->ivalues);
    }
  }
  inline __attribute__((always_inline)) ~StackLease() {
    stacks_->ivalues.clear();
    stacks_->decoded.clear();
    --cs_.depth;
  }
  StackLease(const StackLease&) = delete;
  StackLease& operator=(const StackLease&) = delete;
  st::Stack& ivalues() { return stacks_->ivalues; }
  st::Stack& decoded() { return stacks_->decoded; }

 private:
  __attribute__((noinline, cold)) void own_stacks(const Plan& plan, const StableIValue* stack) {
    try {
      own_ = std::make_unique<CallStacks>();
    } catch (...) {
      release_all(plan, stack);
      throw;
    }
    stacks_ = own_.get();
  }

  CallState& cs_;
  CallStacks* stacks_ = nullptr;
  std::unique_ptr<CallStacks> own_;  // beyond the pooled depths
};

constexpr bool is_handle(Conv c) { return c == Conv::Tensor || c == Conv::Scalar; }
constexpr HandleKind handle_kind(Conv c) {
  return c == Conv::Tensor ? HandleKind::Tensor : HandleKind::Scalar;
}

// Each handle argument is its own owning reference: the same handle twice
// would be taken (destroyed, its slot freed) twice. True when stack[i] is
// the handle of an earlier tensor or scalar argument. Handles of other
// kinds never equal these (one slot, one kind at a time).
inline bool repeats_handle(const Conv* conv, const StableIValue* stack, size_t i) noexcept {
  for (size_t j = 0; j < i; ++j) {
    if (is_handle(conv[j]) && stack[j] == stack[i]) return true;
  }
  return false;
}

// Phase 1's check of handle argument i (conv[i] is Tensor or Scalar): its
// slot when stack[i] is a live handle of that kind that no earlier argument
// passed too, else null. Shared by read_arguments and the typed call, which
// inlines it once per argument of a fixed shape.
inline __attribute__((always_inline)) Slot* argument_slot(const Conv* conv,
                                                          const StableIValue* stack,
                                                          size_t i) noexcept {
  Slot* s = handle_slot(handle_kind(conv[i]), stack[i]);
  return s != nullptr && !repeats_handle(conv, stack, i) ? s : nullptr;
}

// Slots of the handle arguments a call takes, kept for its returns (Note
// [Returns in the arguments' slots]). Phase 1 records the slots of the
// first kMaxSlots tensor and scalar arguments in argument order; once
// phase 2 has taken them, `n` counts the spares, and whatever the returns
// leave is freed when the call ends, however it ends.
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

// Phase 1 (Note [StableIValue stacks]): checks every argument, taking
// nothing. A tensor or scalar argument must be a live handle of its kind
// that no earlier argument passed too; its slot goes to spares.slots. An
// argument of a by_schema_type kind is decoded into `decoded`
// (borrowed: tensors shared, lists and strings copied). Returns the number
// of handle arguments, or kBadArgument at the first bad one; throws what
// decode throws (a bad value, out of memory).
inline __attribute__((always_inline)) uint32_t read_arguments(const Plan& plan,
                                                              const StableIValue* stack,
                                                              st::Stack& decoded,
                                                              SpareSlots& spares) {
  // Tests in order of likelihood rather than a switch: a jump table costs
  // more than the one or two compares most arguments need.
  const Conv* conv = plan.arg_conv();
  const uint32_t n = plan.num_args;
  uint32_t handles = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const Conv c = conv[i];
    if (is_handle(c)) {
      Slot* s = argument_slot(conv, stack, i);
      if (s == nullptr) return kBadArgument;
      if (__builtin_expect(handles < kMaxSlots, 1)) spares.slots[handles] = s;
      ++handles;
    } else if (__builtin_expect(by_schema_type(c), 0)) {
      if (repeated_slot(plan, stack, i) >= 0) return kBadArgument;
      decoded.push_back(decode((*plan.args)[i].type, stack[i]));
    }
  }
  return handles;
}

// ivalues.emplace_back(t), inlined: the stack's capacity was reserved, so
// this is a compare and a store, where the out-of-line emplace_back costs a
// call and its frame on every argument.
__attribute__((flatten)) inline void push_tensor(st::Stack& ivalues, st::Tensor&& t) noexcept {
  ivalues.emplace_back(std::move(t));
}

// Phase 2: builds the kernel's stack in argument order, moving each tensor
// and scalar out of its handle (which is retired: Note [Returns in the
// arguments' slots]) and the decoded values out of `decoded` (releasing
// what their payloads owned). The first kMaxSlots handle slots become
// spares; the others are freed. `out` has room for every argument
// (reserved), so this never throws. Returns the key set the call
// dispatches with (Note [Dispatching from the checked table]): gathered
// from the tensor arguments on the way, or, when a list or optional could
// hold a tensor, computed from the whole stack.
inline __attribute__((always_inline)) st::DispatchKeySet take_arguments(
    const CheckedPlan& checked, const StableIValue* stack, st::Stack& out, st::Stack& decoded,
    SpareSlots& spares, uint32_t handles) noexcept {
  const Plan& plan = checked.plan;
  st::DispatchKeySet ks;
  const Conv* conv = plan.arg_conv();
  const uint32_t n = plan.num_args;
  uint32_t h = 0;
  size_t d = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const StableIValue v = stack[i];
    const Conv c = conv[i];
    if (is_handle(c)) {
      Slot* s =
          __builtin_expect(h < kMaxSlots, 1) ? spares.slots[h] : handle_slot(handle_kind(c), v);
      if (__builtin_expect(c == Conv::Tensor, 1)) {
        st::Tensor& held = payload<st::Tensor>(s);
        ks = ks | st::detail::keysOf(held);
        push_tensor(out, std::move(held));
        held.~Tensor();
        retire(s, static_cast<uintptr_t>(v));
      } else {
        st::Scalar& held = payload<st::Scalar>(s);
        out.emplace_back(std::move(held));
        held.~Scalar();
        retire(s, static_cast<uintptr_t>(v));
      }
      if (__builtin_expect(h >= kMaxSlots, 0)) free_slot(s);
      ++h;
      continue;
    }
    switch (c) {
      case Conv::Int:
        out.emplace_back(from_bits<int64_t>(v));
        break;
      case Conv::Float:
        out.emplace_back(from_bits<double>(v));
        break;
      case Conv::Bool:
        out.emplace_back(decode_bool(v));
        break;
      case Conv::Other:
      case Conv::Str:
      case Conv::OptStr:
        out.push_back(std::move(decoded[d++]));
        release((*plan.args)[i].type, v);
        break;
      case Conv::Tensor:
      case Conv::Scalar:
        break;  // above
    }
  }
  spares.n = handles < kMaxSlots ? handles : static_cast<uint32_t>(kMaxSlots);
  if (__builtin_expect(plan.has_other, 0))
    return st::detail::computeKeySetBoxed(checked.table, out);
  return st::detail::withBackendSelect(ks);
}

// A bad argument: checks every argument again to name each bad one (index,
// name, expected and actual kind), releases them all and throws. `first`
// is what phase 1 threw, if anything; rethrown when no argument is at fault
// (e.g. out of memory).
[[noreturn]] __attribute__((noinline, cold)) void fail_arguments(const Plan& plan,
                                                                 const StableIValue* stack,
                                                                 std::exception_ptr first) {
  const std::vector<st::Argument>& args = *plan.args;
  const Conv* conv = plan.arg_conv();
  std::string errors;
  try {
    for (size_t i = 0; i < args.size(); ++i) {
      try {
        (void)decode(args[i].type, stack[i]);
        if (const ptrdiff_t j = repeated_slot(plan, stack, i); j >= 0) {
          ST_ERROR("the same optional slot as argument ", j, " '", args[j].name,
                   "' (each optional needs its own slot)");
        }
        if (is_handle(conv[i])) {
          for (size_t j = 0; j < i; ++j) {
            if (conv[j] == conv[i] && stack[j] == stack[i]) {
              const bool tensor = conv[i] == Conv::Tensor;
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

[[noreturn]] __attribute__((noinline, cold)) void fail_return_count(const Plan& plan, size_t got) {
  ST_ERROR(plan.op.operatorName(), ": the kernel returned ", got,
           " value(s) but the schema declares ", plan.num_rets);
}

[[noreturn]] __attribute__((noinline, cold)) void fail_return(const Plan& plan, StableIValue* stack,
                                                              size_t done,
                                                              const std::exception& e) {
  for (size_t j = 0; j < done; ++j) release((*plan.rets)[j].type, stack[j]);
  ST_ERROR(plan.op.operatorName(), ": return ", done, ": ", e.what());
}

// Return i (converted as `conv` says) into stack[i]: a tensor into a spare
// slot (Note [Returns in the arguments' slots]), anything else encoded.
inline __attribute__((always_inline)) void put_return(const Plan& plan, Conv conv, st::IValue& r,
                                                      size_t i, SpareSlots& spares,
                                                      StableIValue* stack) {
  if (conv == Conv::Tensor && r.isTensor()) {
    Slot* s = spares.take();
    new (s->payload) st::Tensor(std::move(r.toTensor()));
    stack[i] = static_cast<StableIValue>(publish(s, HandleKind::Tensor).bits);
  } else {
    stack[i] = encode((*plan.rets)[i].type, std::move(r));
  }
}

// Note [Calling typed kernels unboxed]
// Most kernels are typed C++ functions, which the boxed steps reach
// through their boxed adapter: the arguments are moved into an IValue
// stack, the adapter moves them out again, and the result makes the same
// trip back. When a plan's shape is one the C ABI has a typed call
// for (one Tensor returned; one to kMaxTypedArgs tensors, scalars, ints,
// floats or bools; when the first is a Tensor, one of the others may be a
// str or str? instead, and a shape of three with a string may have a
// fourth argument, a Tensor: the out= forms of operators taking a string)
// and the dispatch table vouches that every unboxed entry
// point in it has exactly that C++ signature (DispatchTable::cpp_signature:
// all typed kernels of an operator share one, checked at registration),
// the call skips the stack: the kernel's unboxed entry point is called
// with references to the tensors and scalars in the argument handles'
// slots. The order of events is the boxed steps': arguments checked (the
// same check, argument_slot, unrolled for the shape), the
// caller's handles retired before the kernel runs (they read as deleted
// from then on), the argument values released after it, the result built
// in an argument's slot, every argument stolen on failure too. A kernel
// without an unboxed entry point (a boxed kernel, a plugin's kernel)
// takes the boxed steps. The signature is compared once per table (by its
// id, which is never reused) and the result kept in the per-thread plan.
// A string argument is passed as a std::string_view (std::optional of one
// for str?, None for 0) into the string handle's own payload, as the
// kernels' C++ signatures take it: the handle is retired with the others
// before the kernel runs and an optional's heap slot freed, and the string
// itself destroyed after the kernel has returned, so no view outlives the
// call. Strings only after a first Tensor (as every operator taking one
// has it) and at most one per shape keep the number of shapes small (each
// is a function of its own: with a string allowed in any position this
// file's code grew 3.5 times, this way by 40%), and mean no string handle
// can be taken twice.
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
template <>
struct TypedArg<Conv::Str> {
  using type = std::string_view;
};
template <>
struct TypedArg<Conv::OptStr> {
  using type = std::optional<std::string_view>;
};

// The string argument of a typed call, between its check and the end of
// the call: the string handle's slot (null for None) and, for str?, what
// the optional slot pointer is (to free it).
struct StringArg {
  Slot* slot = nullptr;
  SlotPointer optional = SlotPointer::Null;
};

// Phase 1's check of str? argument i: true when stack[i] is 0 (None), or a
// usable optional slot (Note [Checked optional slots]) holding a live
// string handle; `out` says which. The only optional of a typed shape, so
// no other argument can hold the same slot.
inline bool optional_string(const StableIValue* stack, size_t i, StringArg& out) noexcept {
  out.optional = classify_slot_pointer(stack[i]);
  if (out.optional == SlotPointer::Null) return true;
  if (!usable(out.optional)) return false;
  out.slot =
      handle_slot(HandleKind::String, *static_cast<const StableIValue*>(as_pointer(stack[i])));
  return out.slot != nullptr;
}

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
  static typename TypedArg<kConv[I]>::type arg(const StableIValue* stack, Slot* const* slots,
                                               const StringArg& str) {
    constexpr Conv c = kConv[I];
    if constexpr (c == Conv::Str) {
      return std::string_view(payload<std::string>(str.slot));
    } else if constexpr (c == Conv::OptStr) {
      if (str.slot == nullptr) return std::nullopt;
      return std::string_view(payload<std::string>(str.slot));
    } else if constexpr (c == Conv::Tensor) {
      return payload<st::Tensor>(slots[kHandleIndex[I]]);
    } else if constexpr (c == Conv::Scalar) {
      return payload<st::Scalar>(slots[kHandleIndex[I]]);
    } else if constexpr (c == Conv::Int) {
      return from_bits<int64_t>(stack[I]);
    } else if constexpr (c == Conv::Float) {
      return from_bits<double>(stack[I]);
    } else {
      return decode_bool(stack[I]);
    }
  }

  // Phase 1 for argument I (argument_slot): its slot goes to `slots`, a
  // string's to `str`.
  template <size_t I>
  static bool check(const StableIValue* stack, Slot** slots, StringArg& str) {
    if constexpr (is_handle(kConv[I])) {
      Slot* s = argument_slot(kConv.data(), stack, I);
      if (s == nullptr) return false;
      slots[kHandleIndex[I]] = s;
    } else if constexpr (kConv[I] == Conv::Str) {
      str.slot = handle_slot(HandleKind::String, stack[I]);
      return str.slot != nullptr;
    } else if constexpr (kConv[I] == Conv::OptStr) {
      return optional_string(stack, I, str);
    }
    (void)str;
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
  static void retire_handle(const StableIValue* stack, Slot* const* slots, const StringArg& str) {
    if constexpr (is_handle(kConv[I])) {
      retire(slots[kHandleIndex[I]], static_cast<uintptr_t>(stack[I]));
    } else if constexpr (kConv[I] == Conv::Str) {
      retire(str.slot, static_cast<uintptr_t>(stack[I]));
    } else if constexpr (kConv[I] == Conv::OptStr) {
      if (str.optional != SlotPointer::Null) {
        auto* opt = static_cast<StableIValue*>(const_cast<void*>(as_pointer(stack[I])));
        retire(str.slot, static_cast<uintptr_t>(*opt));
        free_usable_slot(opt, str.optional);
      }
    }
    (void)str;
  }

  template <size_t I>
  static void destroy_value(Slot* const* slots, const StringArg& str) {
    if constexpr (kConv[I] == Conv::Tensor) {
      payload<st::Tensor>(slots[kHandleIndex[I]]).~Tensor();
    } else if constexpr (kConv[I] == Conv::Scalar) {
      payload<st::Scalar>(slots[kHandleIndex[I]]).~Scalar();
    } else if constexpr (is_string(kConv[I])) {
      if (str.slot != nullptr) {
        using std::string;
        payload<string>(str.slot).~string();
        free_slot(str.slot);
      }
    }
    (void)str;
  }

  template <size_t... I>
  static bool call(const CheckedPlan& checked, StableIValue* stack, SpareSlots& spares,
                   std::index_sequence<I...>) {
    const Plan& plan = checked.plan;
    Slot** slots = spares.slots;
    StringArg str;
    if (__builtin_expect(!(check<I>(stack, slots, str) && ...), 0)) {
      fail_arguments(plan, stack, nullptr);
    }
    const st::DispatchKeySet ks =
        st::detail::withBackendSelect((st::DispatchKeySet() | ... | keys<I>(slots)));
    const st::KernelFunction* k = nullptr;
    try {
      k = &plan.op.entry()->lookup(checked.table, ks);
    } catch (const st::Error& e) {
      release_all(plan, stack);  // stolen on failure too
      fail_kernel(plan, e);
    }
    if (!k->hasUnboxed()) return false;  // nothing taken: the boxed steps start over
    (retire_handle<I>(stack, slots, str), ...);
    // The argument values are this call's now; destroyed after the kernel,
    // however it ends, and their slots are spares (a string's is freed).
    struct Values {
      SpareSlots& spares;
      const StringArg& str;
      ~Values() {
        (destroy_value<I>(spares.slots, str), ...);
        spares.n = kHandles;
      }
    };
    st::Tensor result = [&] {
      Values values{spares, str};
      try {
        return k->call<st::Tensor, typename TypedArg<Cs>::type...>(plan.op, ks,
                                                                   arg<I>(stack, slots, str)...);
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
template <Conv First = Conv::Other, Conv... Rest>
constexpr bool tensor_first() {
  return First == Conv::Tensor;
}

template <Conv... Cs>
std::pair<TypedCallFn, std::optional<st::CppSignature>> typed_call_for(const Conv* conv, size_t n) {
  constexpr size_t kStrings = (size_t{0} + ... + (is_string(Cs) ? 1 : 0));
  // Whether the next argument may be a string.
  constexpr bool kStringNext = kStrings == 0 && tensor_first<Cs...>();
  if (n == 0) {
    if constexpr (sizeof...(Cs) == 0) {
      return {nullptr, std::nullopt};
    } else {
      return {&TypedCall<Cs...>::entry, st::CppSignature::make<typename TypedCall<Cs...>::Sig>()};
    }
  } else if constexpr (sizeof...(Cs) == kMaxTypedArgs && kStrings == 1) {
    // The out= form of a shape with a string: one more argument, a Tensor.
    if (n == 1 && conv[0] == Conv::Tensor) return typed_call_for<Cs..., Conv::Tensor>(conv + 1, 0);
  } else if constexpr (sizeof...(Cs) < kMaxTypedArgs) {
    switch (conv[0]) {
      case Conv::Tensor:
        return typed_call_for<Cs..., Conv::Tensor>(conv + 1, n - 1);
      case Conv::Scalar:
        return typed_call_for<Cs..., Conv::Scalar>(conv + 1, n - 1);
      case Conv::Int:
        return typed_call_for<Cs..., Conv::Int>(conv + 1, n - 1);
      case Conv::Float:
        return typed_call_for<Cs..., Conv::Float>(conv + 1, n - 1);
      case Conv::Bool:
        return typed_call_for<Cs..., Conv::Bool>(conv + 1, n - 1);
      case Conv::Str:
        if constexpr (kStringNext) return typed_call_for<Cs..., Conv::Str>(conv + 1, n - 1);
        break;
      case Conv::OptStr:
        if constexpr (kStringNext) return typed_call_for<Cs..., Conv::OptStr>(conv + 1, n - 1);
        break;
      case Conv::Other:
        break;
    }
  }
  return {nullptr, std::nullopt};
}

void select_typed_call(Plan& plan) {
  if (plan.num_rets != 1 || plan.ret_conv(0) != Conv::Tensor) return;
  auto [fn, sig] = typed_call_for<>(plan.arg_conv(), plan.num_args);
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

// The call (Note [One call path]). Throws on failure after releasing what
// the caller passed (Note [StableIValue stacks]).
inline __attribute__((always_inline)) void call_plan(CallState& cs, const CheckedPlan checked,
                                                     StableIValue* stack) {
  const Plan& plan = checked.plan;
  // Declared before the lease: the returns' slots outlive the stack.
  SpareSlots spares;
  if (plan.typed_call != nullptr) {
    const uint64_t id = checked.table.id;
    if (id == plan.typed_table ||
        (id != plan.untyped_table && typed_table_matches(plan, checked.table))) {
      // The kernel may call the dispatcher again: a nested call must not
      // lease this depth's stacks, and a plan it replaces meanwhile is kept
      // in `retired` (Note [Converter plans]), as a lease would do.
      struct Depth {
        CallState& cs;
        ~Depth() { --cs.depth; }
      } depth{cs};
      ++cs.depth;
      if (plan.typed_call(checked, stack, spares)) return;
    }
  }

  if (__builtin_expect(plan.vararg, 0)) fail_vararg(plan, stack);
  StackLease lease(cs, plan, stack);
  st::Stack& ivalues = lease.ivalues();

  uint32_t handles = kBadArgument;
  try {
    handles = read_arguments(plan, stack, lease.decoded(), spares);
  } catch (...) {
    fail_arguments(plan, stack, std::current_exception());
  }
  if (__builtin_expect(handles == kBadArgument, 0)) fail_arguments(plan, stack, nullptr);

  const st::DispatchKeySet ks =
      take_arguments(checked, stack, ivalues, lease.decoded(), spares, handles);
  try {
    // Note [Dispatching from the checked table]
    st::Dispatcher::callBoxedWithKeySet(plan.op, checked.table, ks, &ivalues);
  } catch (const st::Error& e) {
    fail_kernel(plan, e);
  }

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
    for (; done < num_rets; ++done)
      put_return(plan, plan.ret_conv(done), rets[done], done, spares, stack);
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
  // Until find_plan has the schema nothing says what the stack holds: a
  // failure up to there leaves the arguments to the caller (Note
  // [StableIValue stacks]).
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
  call_plan(cs, checked, stack);
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
