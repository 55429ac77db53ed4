// The boxed call of an operator from a StableIValue stack, shared by
// aoti_torch_call_dispatcher and torch_call_dispatcher.
#pragma once

#include <cstdint>

#include <torch/csrc/inductor/aoti_torch/c/shim.h>

namespace stc {

// Calls opName.overloadName on `stack` (Note [StableIValue stacks]).
// Throws st::Error naming the operator and, for a bad argument, its index,
// name, expected and actual kind. Failing before the operator is found
// (a null name or stack, a build version too new, an unknown operator),
// it leaves the stack to the caller; any later failure has released every
// argument. On success stack[0..num_returns) hold new references.
void call_dispatcher(const char* op_name, const char* overload_name, StableIValue* stack,
                     uint64_t extension_build_version);

}  // namespace stc
