// Operators the C ABI tests call, registered once in the core dispatcher
// through st::Library (as the core's own kernels would be).
#pragma once

namespace stc_test {
// stc_test::noop(Tensor t) -> Tensor                (CPU, typed)
// stc_test::echo(<every supported type>) -> (<the same>)   (boxed, returns its arguments)
// stc_test::two(Tensor a, Tensor b) -> Tensor       (CPU, returns a)
// stc_test::throws(Tensor t) -> Tensor              (CPU, throws st::Error "boom")
// stc_test::wrong_return(Tensor t) -> Tensor        (boxed, returns an int)
// stc_test::gen(Generator? g) -> ()                 (boxed, does nothing)
// stc_test::nothing() -> ()                         (CompositeExplicitAutograd)
void register_test_ops();
}  // namespace stc_test
