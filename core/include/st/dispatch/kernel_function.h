// st::KernelFunction: one kernel as the dispatcher stores it, callable both
// boxed (over a Stack) and unboxed (with C++ arguments).
//
// Note [Kernel calling conventions]
// A KernelFunction holds up to three things:
//   functor_  an optional OperatorKernel object (the state of a functor or
//             lambda, or a runtime function pointer);
//   boxed_    void(OperatorKernel*, const OperatorHandle&, DispatchKeySet,
//             Stack*): always set for a valid kernel. For a typed kernel it is
//             the boxed-from-unboxed adapter (pops the arguments, calls the
//             C++ function, pushes the returns);
//   unboxed_  Ret(OperatorKernel*, DispatchKeySet, Args...) erased to a
//             function pointer: set only for typed kernels. A typed call
//             with exactly the kernel's C++ signature jumps straight to it;
//             a typed call of a boxed-only kernel boxes the arguments, calls
//             boxed_ and unboxes the returns (the unboxed-from-boxed adapter).
// The C++ signature of typed kernels is recorded (CppSignature) and every
// typed call is checked against it once, when the typed handle is made, so
// the cast of unboxed_ back to its real type is always right.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <utility>

#include <st/core/error.h>
#include <st/core/export.h>
#include <st/dispatch/boxing.h>
#include <st/dispatch/dispatch_key_set.h>
#include <st/dispatch/ivalue.h>

namespace st {

class OperatorHandle;

// Base of every kernel functor.
class ST_API OperatorKernel {
 public:
  virtual ~OperatorKernel();
};

// The C++ signature of a typed kernel, Ret(Args...) without a leading
// DispatchKeySet.
class ST_API CppSignature {
 public:
  template <typename Sig>
  static CppSignature make() {
    return CppSignature(typeid(typename detail::strip_keyset<Sig>::type));
  }
  std::string name() const;  // demangled
  bool operator==(const CppSignature& o) const { return type_ == o.type_; }
  bool operator!=(const CppSignature& o) const { return type_ != o.type_; }

 private:
  explicit CppSignature(const std::type_info& t) : type_(t) {}
  std::type_index type_;
};

using BoxedKernelFunction = void(const OperatorHandle&, DispatchKeySet, Stack*);

class ST_API KernelFunction {
 public:
  using InternalBoxedFn = void(OperatorKernel*, const OperatorHandle&, DispatchKeySet, Stack*);
  using AnyUnboxedFn = void (*)();

  // An invalid ("missing") kernel.
  KernelFunction() = default;

  bool isValid() const { return boxed_ != nullptr; }
  // The fallthrough kernel: the dispatcher skips its key and dispatches to
  // the next one down. Calling it directly is an error.
  bool isFallthrough() const { return boxed_ == &fallthroughKernel; }
  bool hasUnboxed() const { return unboxed_ != nullptr; }

  static KernelFunction makeFallthrough() {
    return KernelFunction(nullptr, &fallthroughKernel, nullptr);
  }

  // A boxed function known at compile time: makeFromBoxedFunction<&fn>().
  template <BoxedKernelFunction* fn>
  static KernelFunction makeFromBoxedFunction() {
    return KernelFunction(
        nullptr,
        [](OperatorKernel*, const OperatorHandle& op, DispatchKeySet ks, Stack* s) {
          fn(op, ks, s);
        },
        nullptr);
  }
  // A boxed function pointer known at run time (e.g. from a plugin).
  static KernelFunction makeFromBoxedFunction(BoxedKernelFunction* fn);
  // A boxed functor or lambda: callable as (const OperatorHandle&,
  // DispatchKeySet, Stack*).
  template <typename F>
  static KernelFunction makeFromBoxedLambda(F&& f) {
    struct Wrap final : OperatorKernel {
      explicit Wrap(std::decay_t<F> g) : fn(std::move(g)) {}
      std::decay_t<F> fn;
    };
    return KernelFunction(
        std::make_shared<Wrap>(std::forward<F>(f)),
        [](OperatorKernel* k, const OperatorHandle& op, DispatchKeySet ks, Stack* s) {
          static_cast<Wrap*>(k)->fn(op, ks, s);
        },
        nullptr);
  }

  // A typed functor (an OperatorKernel subclass with operator(), or any
  // lambda / callable object; it may take a DispatchKeySet first).
  template <typename Functor>
  static KernelFunction makeFromUnboxedFunctor(std::shared_ptr<Functor> functor);
  template <typename Lambda>
  static KernelFunction makeFromUnboxedLambda(Lambda&& lambda);
  // A function pointer known only at run time.
  template <typename FuncPtr>
  static KernelFunction makeFromUnboxedRuntimeFunction(FuncPtr f);
  // A function known at compile time (no functor: the adapters call it
  // directly). Use through ST_FN(fn).
  template <auto fn>
  static KernelFunction makeFromUnboxedFunction();

  void callBoxed(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) const {
    boxed_(functor_.get(), op, ks, stack);
  }

  // Precondition: Ret(Args...) is the kernel's C++ signature if it has an
  // unboxed entry point (checked when typed handles are made).
  template <typename Ret, typename... Args>
  Ret call(const OperatorHandle& op, DispatchKeySet ks, Args... args) const {
    if (__builtin_expect(unboxed_ != nullptr, 1)) {
      using Fn = Ret (*)(OperatorKernel*, DispatchKeySet, Args...);
      return reinterpret_cast<Fn>(unboxed_)(functor_.get(), ks, std::forward<Args>(args)...);
    }
    return callBoxedFromUnboxed<Ret, Args...>(op, ks, std::forward<Args>(args)...);
  }

  // Same functor and entry points (the table holds copies of kernels).
  bool identicalTo(const KernelFunction& o) const {
    return functor_ == o.functor_ && boxed_ == o.boxed_ && unboxed_ == o.unboxed_;
  }

  // For debugging output: "boxed", "unboxed", "fallthrough", "missing".
  const char* kindName() const;

  // The fallthrough marker kernel (never runs; raises if called).
  static void fallthroughKernel(OperatorKernel*, const OperatorHandle&, DispatchKeySet, Stack*);

 private:
  KernelFunction(std::shared_ptr<OperatorKernel> functor, InternalBoxedFn* boxed,
                 AnyUnboxedFn unboxed)
      : functor_(std::move(functor)), boxed_(boxed), unboxed_(unboxed) {}

  template <typename Ret, typename... Args>
  Ret callBoxedFromUnboxed(const OperatorHandle& op, DispatchKeySet ks, Args... args) const;

  template <typename Functor, bool direct_fn, auto fn, bool takes_ks, typename Sig>
  struct Adapters;

  std::shared_ptr<OperatorKernel> functor_;
  InternalBoxedFn* boxed_ = nullptr;
  AnyUnboxedFn unboxed_ = nullptr;
};

// A compile-time function pointer for Library::impl/def: ST_FN(my_kernel).
template <auto fn>
struct CompileTimeFunctionPointer {
  using FuncType = std::remove_pointer_t<decltype(fn)>;
  static constexpr auto func_ptr() { return fn; }
};
#define ST_FN(f) (::st::CompileTimeFunctionPointer<&(f)>())

namespace detail {

[[noreturn]] ST_API void throwStackUnderflow(size_t needed, size_t have);
[[noreturn]] ST_API void throwReferenceReturnFromBoxed();

// Holds a lambda (or a runtime function pointer) as an OperatorKernel.
template <typename L>
struct LambdaFunctor final : OperatorKernel {
  explicit LambdaFunctor(L l) : fn(std::move(l)) {}
  L fn;
};

template <typename F>
F& functorTarget(F* f) {
  return *f;
}
template <typename L>
L& functorTarget(LambdaFunctor<L>* f) {
  return f->fn;
}

template <typename Ret, typename Tuple, size_t... I>
Ret tupleFromStack(Stack& stack, std::index_sequence<I...>) {
  return Ret(returnFromIValue<std::tuple_element_t<I, Ret>>(std::move(stack[I]))...);
}

}  // namespace detail

// Adapters for one typed kernel. Functor is the functor type (or void for a
// compile-time function), Sig its signature without DispatchKeySet.
template <typename Functor, bool direct_fn, auto fn, bool takes_ks, typename R, typename... A>
struct KernelFunction::Adapters<Functor, direct_fn, fn, takes_ks, R(A...)> {
  template <typename... Args>
  static R invoke(OperatorKernel* k, DispatchKeySet ks, Args&&... args) {
    if constexpr (direct_fn) {
      (void)k;
      if constexpr (takes_ks) {
        return fn(ks, std::forward<Args>(args)...);
      } else {
        (void)ks;
        return fn(std::forward<Args>(args)...);
      }
    } else {
      auto& target = detail::functorTarget(static_cast<Functor*>(k));
      if constexpr (takes_ks) {
        return target(ks, std::forward<Args>(args)...);
      } else {
        (void)ks;
        return target(std::forward<Args>(args)...);
      }
    }
  }

  // unboxed entry: Ret(OperatorKernel*, DispatchKeySet, Args...)
  static R unboxed(OperatorKernel* k, DispatchKeySet ks, A... args) {
    return invoke(k, ks, std::forward<A>(args)...);
  }

  // boxed-from-unboxed adapter
  template <size_t... I>
  static void boxedImpl(OperatorKernel* k, DispatchKeySet ks, Stack* s, std::index_sequence<I...>) {
    constexpr size_t n = sizeof...(A);
    if (__builtin_expect(s->size() < n, 0)) detail::throwStackUnderflow(n, s->size());
    IValue* base = s->data() + (s->size() - n);
    (void)base;
    if constexpr (std::is_void_v<R>) {
      invoke(k, ks, detail::argFromIValue<A>(base[I])...);
      s->resize(s->size() - n);
    } else if constexpr (n >= 1 && !detail::is_tuple<std::decay_t<R>>::value) {
      // One result: it takes the first argument's slot, and the other
      // arguments are dropped. No push, so no capacity check and no
      // destroy-then-construct of that slot (Note [Boxed call cost] in
      // dispatcher.cpp).
      std::decay_t<R> out = invoke(k, ks, detail::argFromIValue<A>(base[I])...);
      IValue* first = s->data() + (s->size() - n);
      detail::assignReturn(*first, std::move(out));
      if constexpr (n > 1) s->erase(s->end() - static_cast<std::ptrdiff_t>(n - 1), s->end());
    } else {
      std::decay_t<R> out = invoke(k, ks, detail::argFromIValue<A>(base[I])...);
      s->resize(s->size() - n);
      detail::pushReturn(std::move(out), s);
    }
  }
  static void boxed(OperatorKernel* k, const OperatorHandle&, DispatchKeySet ks, Stack* s) {
    boxedImpl(k, ks, s, std::index_sequence_for<A...>());
  }
};

template <typename Functor>
KernelFunction KernelFunction::makeFromUnboxedFunctor(std::shared_ptr<Functor> functor) {
  static_assert(std::is_base_of_v<OperatorKernel, Functor>,
                "a kernel functor must derive from st::OperatorKernel");
  using Full = typename detail::function_traits<Functor>::func_type;
  using Strip = detail::strip_keyset<Full>;
  using Ad = Adapters<Functor, false, nullptr, Strip::takes_keyset, typename Strip::type>;
  return KernelFunction(std::move(functor), &Ad::boxed,
                        reinterpret_cast<AnyUnboxedFn>(&Ad::unboxed));
}

template <typename Lambda>
KernelFunction KernelFunction::makeFromUnboxedLambda(Lambda&& lambda) {
  using L = std::decay_t<Lambda>;
  using Full = typename detail::function_traits<L>::func_type;
  using Strip = detail::strip_keyset<Full>;
  using F = detail::LambdaFunctor<L>;
  using Ad = Adapters<F, false, nullptr, Strip::takes_keyset, typename Strip::type>;
  return KernelFunction(std::make_shared<F>(std::forward<Lambda>(lambda)), &Ad::boxed,
                        reinterpret_cast<AnyUnboxedFn>(&Ad::unboxed));
}

template <typename FuncPtr>
KernelFunction KernelFunction::makeFromUnboxedRuntimeFunction(FuncPtr f) {
  static_assert(std::is_pointer_v<FuncPtr> && std::is_function_v<std::remove_pointer_t<FuncPtr>>,
                "makeFromUnboxedRuntimeFunction takes a function pointer");
  ST_CHECK(f != nullptr, "makeFromUnboxedRuntimeFunction: null function pointer");
  return makeFromUnboxedLambda(f);
}

template <auto fn>
KernelFunction KernelFunction::makeFromUnboxedFunction() {
  using Strip = detail::strip_keyset<std::remove_pointer_t<decltype(fn)>>;
  using Ad = Adapters<void, true, fn, Strip::takes_keyset, typename Strip::type>;
  return KernelFunction(nullptr, &Ad::boxed, reinterpret_cast<AnyUnboxedFn>(&Ad::unboxed));
}

template <typename Ret, typename... Args>
Ret KernelFunction::callBoxedFromUnboxed(const OperatorHandle& op, DispatchKeySet ks,
                                         Args... args) const {
  if constexpr (std::is_reference_v<Ret>) {
    (void)op;
    (void)ks;
    ((void)args, ...);
    detail::throwReferenceReturnFromBoxed();
  } else {
    Stack stack;
    stack.reserve(std::max(sizeof...(Args), detail::numReturns<Ret>()));
    (stack.push_back(detail::toIValue(std::forward<Args>(args))), ...);
    callBoxed(op, ks, &stack);
    if constexpr (std::is_void_v<Ret>) {
      return;
    } else if constexpr (detail::is_tuple<Ret>::value) {
      ST_CHECK(stack.size() == std::tuple_size_v<Ret>, "boxed kernel returned ", stack.size(),
               " values but the C++ signature expects ", std::tuple_size_v<Ret>);
      return detail::tupleFromStack<Ret, Ret>(stack,
                                              std::make_index_sequence<std::tuple_size_v<Ret>>());
    } else {
      ST_CHECK(stack.size() == 1, "boxed kernel returned ", stack.size(),
               " values but the C++ signature expects 1");
      return detail::returnFromIValue<Ret>(std::move(stack[0]));
    }
  }
}

}  // namespace st
