// Scalars as 0-dim tensors; see st/native/scalar_tensor.h.
#include <st/native/scalar_tensor.h>

#include <st/core/empty_tensor.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/loops.h>

namespace st::native {

Tensor wrapped_scalar_tensor(const Scalar& s) {
  Tensor t = scalar_to_tensor(s, s.type());
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

Tensor scalar_to_tensor(const Scalar& s, ScalarType dtype) {
  Tensor t = st::detail::empty_generic({}, dtype, Device(DeviceType::CPU));
  dispatch_dtype<kEverything>(dtype, "scalar_tensor", [&](auto tag) {
    using T = typename decltype(tag)::type;
    *static_cast<T*>(t.data_ptr()) = scalar_as<T>(s);
  });
  return t;
}

}  // namespace st::native
