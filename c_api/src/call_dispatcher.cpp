// aoti_torch_call_dispatcher / torch_call_dispatcher.
//
// Note [StableIValue stacks]
// The caller's stack holds max(num_args, num_returns) slots; arguments are
// in schema order in stack[0..num_args). The callee steals every argument
// (whether the call succeeds or fails) and on success leaves new references
// to the returns in stack[0..num_returns). Arguments are decoded in two
// phases: first all of them are read (borrowed) into IValues, collecting
// every bad argument into one error; only when all are good are the
// caller's handles released. So a failure before the call releases them
// too, and nothing leaks either way.
#include "call_dispatcher.h"

#include <array>
#include <deque>
#include <cstring>
#include <optional>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>

#include <st/dispatch/dispatcher.h>
#include <torch/csrc/stable/c/shim.h>

#include "error_state.h"
#include "loader/plugin_registry.h"
#include "stable_ivalue_codec.h"

namespace stc {
namespace {

// Per-thread state of call_dispatcher, reached through one initial-exec
// pointer (Note [Fast thread-local access] in handle_registry.cpp):
//  - a cache of name -> operator (entries are never freed by the
//    dispatcher, so a handle stays valid; whether it still has a schema is
//    checked on every call). Keyed by the names' contents, never by the
//    pointers' identity alone;
//  - reusable IValue stacks, one per nesting level (a kernel may call the
//    dispatcher again), so a call allocates no stack.
struct CallState {
  struct Entry {
    std::string name;
    std::string overload;
    st::OperatorHandle op;
    bool valid = false;
  };
  std::array<Entry, 64> ops;
  std::deque<st::Stack> stacks;  // deque: references stay valid as it grows
  size_t depth = 0;
  ~CallState();
};

__attribute__((tls_model("initial-exec"))) thread_local CallState* t_call_state = nullptr;
__attribute__((tls_model("initial-exec"))) thread_local bool t_call_state_gone = false;

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

st::OperatorHandle find_operator(CallState& cs, const char* op_name, const char* overload_name) {
  // The bucket comes from the pointers (cheap); a hit still compares the
  // contents, so a reused buffer holding another name cannot alias.
  const uintptr_t h = reinterpret_cast<uintptr_t>(op_name) * 31 + reinterpret_cast<uintptr_t>(overload_name);
  CallState::Entry& e = cs.ops[(h >> 3) % cs.ops.size()];
  if (e.valid && std::strcmp(e.name.c_str(), op_name) == 0 &&
      std::strcmp(e.overload.c_str(), overload_name) == 0 && e.op.hasSchema()) {
    return e.op;
  }
  std::optional<st::OperatorHandle> found;
  try {
    found = st::Dispatcher::singleton().findSchemaOrThrow(op_name, overload_name);
  } catch (const st::Error&) {
    // An operator of a plugin since unloaded: say so rather than "unknown".
    if (auto note = plugins::unloaded_operator_note(op_name)) ST_ERROR(*note);
    throw;
  }
  st::OperatorHandle op = *found;
  e.name.assign(op_name);
  e.overload.assign(overload_name);
  e.op = op;
  e.valid = true;
  return op;
}

class StackLease {
 public:
  explicit StackLease(CallState& cs) : cs_(cs) {
    if (cs.depth == cs.stacks.size()) cs.stacks.emplace_back();
    stack_ = &cs.stacks[cs.depth++];
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
};

// Releases the caller's arguments (they are stolen, success or not).
void release_all(const std::vector<st::Argument>& args, const StableIValue* stack) noexcept {
  for (size_t i = 0; i < args.size(); ++i) release(args[i].type, stack[i]);
}

}  // namespace

void call_dispatcher(const char* op_name, const char* overload_name, StableIValue* stack,
                     uint64_t extension_build_version) {
  // Without a usable name or stack nothing can be released: the caller
  // keeps its arguments (documented in REVIEW.md).
  ST_CHECK(op_name != nullptr, "opName is null");
  ST_CHECK(overload_name != nullptr, "overloadName is null (use \"\" for the default overload)");
  ST_CHECK(stack != nullptr, "stack is null");
  (void)extension_build_version;  // no schema has changed since 2.9: no adapters yet
  CallState& cs = call_state();
  const st::OperatorHandle op = find_operator(cs, op_name, overload_name);
  const st::FunctionSchema& schema = op.schema();
  const std::vector<st::Argument>& args = schema.arguments();
  const std::vector<st::Argument>& rets = schema.returns();
  if (schema.isVararg() || schema.isVarret()) {
    release_all(args, stack);
    ST_ERROR(op.operatorName(), ": vararg schemas cannot be called through the C ABI");
  }

  StackLease lease(cs);
  st::Stack& ivalues = lease.get();
  ivalues.reserve(std::max(args.size(), rets.size()));
  std::string errors;
  // Slots of top-level Tensor arguments, found in phase 1 (small arity
  // only; larger ones are resolved again in phase 2).
  constexpr size_t kMaxCachedSlots = 16;
  Slot* tensor_slots[kMaxCachedSlots];
  // Phase 1: read every argument without taking anything. A top-level
  // Tensor is only checked here; phase 2 moves it out of its handle.
  for (size_t i = 0; i < args.size(); ++i) {
    try {
      if (args[i].type.kind() == st::TypeKind::Tensor) {
        Slot* slot = check_tensor(args[i].type, stack[i]);
        // Each argument is its own owning reference: the same handle twice
        // would be taken twice.
        for (size_t j = 0; j < i; ++j) {
          if (args[j].type.kind() == st::TypeKind::Tensor && stack[j] == stack[i]) {
            ST_ERROR("the same tensor handle as argument ", j, " '", args[j].name,
                     "' (pass a new reference per argument: aoti_torch_new_tensor_handle)");
          }
        }
        if (i < kMaxCachedSlots) tensor_slots[i] = slot;
        ivalues.emplace_back();
      } else {
        ivalues.push_back(decode(args[i].type, stack[i]));
      }
    } catch (const std::exception& e) {
      if (!errors.empty()) errors += "; ";
      errors += "argument " + std::to_string(i) + " '" + args[i].name + "': " + e.what();
      ivalues.emplace_back();
    }
  }
  if (!errors.empty()) {
    release_all(args, stack);
    ST_ERROR(op.operatorName(), ": ", errors);
  }
  // Phase 2: take ownership (never throws).
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].type.kind() == st::TypeKind::Tensor) {
      Slot* slot = i < kMaxCachedSlots ? tensor_slots[i] : check_tensor(args[i].type, stack[i]);
      ivalues[i] = st::IValue(take_tensor(slot));
    } else {
      release(args[i].type, stack[i]);
    }
  }

  try {
    op.callBoxed(&ivalues);
  } catch (const st::Error& e) {
    // Dispatcher and kernel errors carry their own text; prefix the op only
    // when the message does not already name it.
    const std::string opn = op.operatorName().toString();
    if (std::strstr(e.what(), opn.c_str()) != nullptr) throw;
    ST_ERROR(opn, ": ", e.what());
  }

  ST_CHECK(ivalues.size() == rets.size(), op.operatorName(), ": the kernel returned ",
           ivalues.size(), " value(s) but the schema declares ", rets.size());
  size_t done = 0;
  try {
    for (; done < rets.size(); ++done) {
      stack[done] = encode(rets[done].type, std::move(ivalues[done]));
    }
  } catch (const std::exception& e) {
    for (size_t j = 0; j < done; ++j) release(rets[j].type, stack[j]);
    ST_ERROR(op.operatorName(), ": return ", done, ": ", e.what());
  }
}

}  // namespace stc

extern "C" {

AOTITorchError aoti_torch_call_dispatcher(const char* opName, const char* overloadName,
                                          StableIValue* stack) {
  STC_API_BEGIN
  stc::call_dispatcher(opName, overloadName, stack, TORCH_ABI_VERSION);
  STC_API_END
}

AOTITorchError torch_call_dispatcher(const char* opName, const char* overloadName,
                                     StableIValue* stack, uint64_t extension_build_version) {
  STC_API_BEGIN
  stc::call_dispatcher(opName, overloadName, stack, extension_build_version);
  STC_API_END
}

}  // extern "C"
