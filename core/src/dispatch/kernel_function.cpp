#include <st/dispatch/kernel_function.h>

#include <cxxabi.h>

#include <cstdlib>

#include <st/dispatch/dispatcher.h>

namespace st {

OperatorKernel::~OperatorKernel() = default;

std::string CppSignature::name() const {
  int status = 0;
  char* demangled = abi::__cxa_demangle(type_.name(), nullptr, nullptr, &status);
  std::string out = (status == 0 && demangled) ? demangled : type_.name();
  std::free(demangled);
  return out;
}

namespace {

struct BoxedFunctionPointer final : OperatorKernel {
  explicit BoxedFunctionPointer(BoxedKernelFunction* f) : fn(f) {}
  BoxedKernelFunction* fn;
};

void callBoxedFunctionPointer(OperatorKernel* k, const OperatorHandle& op, DispatchKeySet ks,
                              Stack* s) {
  static_cast<BoxedFunctionPointer*>(k)->fn(op, ks, s);
}

}  // namespace

KernelFunction KernelFunction::makeFromBoxedFunction(BoxedKernelFunction* fn) {
  ST_CHECK(fn != nullptr, "makeFromBoxedFunction: null function pointer");
  return KernelFunction(std::make_shared<BoxedFunctionPointer>(fn), &callBoxedFunctionPointer,
                        nullptr);
}

void KernelFunction::fallthroughKernel(OperatorKernel*, const OperatorHandle& op, DispatchKeySet ks,
                                       Stack*) {
  ST_ERROR("the fallthrough kernel of operator '", op.operatorName(),
           "' was called directly (dispatch key set ", ks,
           "); a fallthrough only tells the dispatcher to skip its key");
}

const char* KernelFunction::kindName() const {
  if (!isValid()) return "missing";
  if (isFallthrough()) return "fallthrough";
  return unboxed_ ? "unboxed kernel" : "boxed kernel";
}

namespace detail {

void throwStackUnderflow(size_t needed, size_t have) {
  ST_ERROR("boxed call: the kernel takes ", needed, " argument(s) but the stack holds only ", have);
}

void throwReferenceReturnFromBoxed() {
  ST_ERROR(
      "a typed call returning a reference reached a boxed-only kernel; call the "
      "operator through callBoxed or register an unboxed kernel");
}

}  // namespace detail
}  // namespace st
