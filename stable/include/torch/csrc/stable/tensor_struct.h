// torch::stable::Tensor: the extension's view of a tensor of the core.
//
// It holds one AtenTensorHandle through a shared_ptr: copies share that one
// handle (no new reference in the core), and the last copy deletes it. The
// deleter never throws. A default-constructed Tensor is undefined.
//
// Every member is defined in this header (tensor_inl.h and tensor.h only add
// includes), so it is enough on its own to use and link all of Tensor.
#pragma once

#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/accelerator.h>
#include <torch/csrc/stable/at_aliases.h>
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/detail/version_gate.h>
#include <torch/csrc/stable/device_struct.h>
#include <torch/csrc/stable/enum_codes.h>
#include <torch/csrc/stable/macros.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/Exception.h>
#include <torch/headeronly/util/HeaderOnlyArrayRef.h>

#include <cstdint>
#include <limits>
#include <memory>

HIDDEN_NAMESPACE_BEGIN(torch, stable)

using accelerator::DeviceIndex;
using torch::headeronly::IntHeaderOnlyArrayRef;
using torch::headeronly::ScalarType;

class Tensor {
 public:
  // An undefined tensor.
  Tensor() {
    AtenTensorHandle handle = nullptr;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_new_uninitialized_tensor(&handle));
    ath_ = own(handle);
  }

  // Steals the handle (one owning reference).
  explicit Tensor(AtenTensorHandle ath) : ath_(own(ath)) {}

  Tensor(const Tensor&) = default;
  Tensor(Tensor&&) noexcept = default;
  Tensor& operator=(const Tensor&) = default;
  Tensor& operator=(Tensor&&) noexcept = default;
  ~Tensor() = default;

  // Borrowed handle, valid while this Tensor (or a copy) lives.
  AtenTensorHandle get() const noexcept { return ath_.get(); }

  void* data_ptr() const {
    void* data = nullptr;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_data_ptr(get(), &data));
    return data;
  }

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
  void* mutable_data_ptr() const {
    void* data = nullptr;
    STABLE_TORCH_ERROR_CODE_CHECK(torch_get_mutable_data_ptr(get(), &data));
    return data;
  }

  const void* const_data_ptr() const {
    const void* data = nullptr;
    STABLE_TORCH_ERROR_CODE_CHECK(torch_get_const_data_ptr(get(), &data));
    return data;
  }

  // Typed pointers: the tensor's dtype must be the dtype of T.
  template <typename T>
  T* mutable_data_ptr() const {
    check_element_type<T>();
    return static_cast<T*>(mutable_data_ptr());
  }

  template <typename T, std::enable_if_t<!std::is_const_v<T>, int> = 0>
  const T* const_data_ptr() const {
    check_element_type<T>();
    return static_cast<const T*>(const_data_ptr());
  }

  // This core has no autograd: true fails with the core's message.
  const Tensor& set_requires_grad(bool requires_grad) const {
    STABLE_TORCH_ERROR_CODE_CHECK(torch_set_requires_grad(get(), requires_grad));
    return *this;
  }
#else
  // Stubs: using a 2.10 method when targeting 2.9 is a compile error that
  // names the level it needs.
  template <typename T = void, typename... Args>
  void* mutable_data_ptr(Args&&...) const {
    static_assert(detail::dependent_false_v<T, Args...>,
                  STABLE_VERSION_ERROR_("torch::stable::Tensor::mutable_data_ptr",
                                        "TORCH_VERSION_2_10_0", "2.10"));
    return nullptr;
  }
  template <typename T = void, typename... Args>
  const void* const_data_ptr(Args&&...) const {
    static_assert(detail::dependent_false_v<T, Args...>,
                  STABLE_VERSION_ERROR_("torch::stable::Tensor::const_data_ptr",
                                        "TORCH_VERSION_2_10_0", "2.10"));
    return nullptr;
  }
  template <typename T = void, typename... Args>
  const Tensor& set_requires_grad(Args&&...) const {
    static_assert(detail::dependent_false_v<T, Args...>,
                  STABLE_VERSION_ERROR_("torch::stable::Tensor::set_requires_grad",
                                        "TORCH_VERSION_2_10_0", "2.10"));
    return *this;
  }
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0

  int64_t dim() const {
    int64_t dim = 0;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_dim(get(), &dim));
    return dim;
  }

  int64_t numel() const {
    int64_t numel = 0;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_numel(get(), &numel));
    return numel;
  }

  // Borrowed: valid while the tensor lives and its shape is unchanged.
  IntHeaderOnlyArrayRef sizes() const {
    int64_t* sizes = nullptr;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_sizes(get(), &sizes));
    return IntHeaderOnlyArrayRef(sizes, static_cast<size_t>(dim()));
  }

  IntHeaderOnlyArrayRef strides() const {
    int64_t* strides = nullptr;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_strides(get(), &strides));
    return IntHeaderOnlyArrayRef(strides, static_cast<size_t>(dim()));
  }

  // Negative d counts from the end.
  int64_t size(int64_t d) const {
    int64_t size = 0;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_size(get(), d, &size));
    return size;
  }

  int64_t stride(int64_t d) const {
    int64_t stride = 0;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_stride(get(), d, &stride));
    return stride;
  }

  // Contiguous in the default (row-major) memory format.
  bool is_contiguous() const {
    bool contiguous = false;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_is_contiguous(get(), &contiguous));
    return contiguous;
  }

  // As at::Tensor::get_device, range-checked to int8_t.
  int8_t get_device() const {
    DeviceIndex index = get_device_index();
    STD_TORCH_CHECK(
        index >= std::numeric_limits<int8_t>::min() && index <= std::numeric_limits<int8_t>::max(),
        "Device index is out of range of return type int8_t, "
        "please use get_device_index() instead.");
    return static_cast<int8_t>(index);
  }

  DeviceIndex get_device_index() const {
    int32_t index = -1;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_device_index(get(), &index));
    return index;
  }

  bool is_cuda() const { return device_type_code() == aoti_torch_device_type_cuda(); }
  bool is_cpu() const { return device_type_code() == aoti_torch_device_type_cpu(); }

  bool defined() const {
    bool is_defined = false;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_is_defined(get(), &is_defined));
    return is_defined;
  }

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_14_0
  // False for an undefined tensor and for one without storage.
  bool has_storage() const {
    bool has = false;
    STABLE_TORCH_ERROR_CODE_CHECK(torch_has_storage(get(), &has));
    return has;
  }
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_14_0

  int64_t storage_offset() const {
    int64_t offset = 0;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_storage_offset(get(), &offset));
    return offset;
  }

  size_t element_size() const {
    int32_t dtype = 0;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_dtype(get(), &dtype));
    return aoti_torch_dtype_element_size(dtype);
  }

  ScalarType scalar_type() const {
    int32_t dtype = 0;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_dtype(get(), &dtype));
    return detail::from_shim_dtype(dtype);
  }

  Device device() const {
    return Device(detail::from_shim_device_type(device_type_code()), get_device_index());
  }

  torch::headeronly::Layout layout() const {
    int32_t layout = 0;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_layout(get(), &layout));
    return detail::from_shim_layout(layout);
  }

 private:
  static std::shared_ptr<AtenTensorOpaque> own(AtenTensorHandle handle) {
    // The deleter never throws: a failing delete (which only a corrupted
    // handle can cause) is ignored, never turned into an exception while a
    // destructor runs.
    return std::shared_ptr<AtenTensorOpaque>(
        handle, [](AtenTensorHandle h) noexcept { (void)aoti_torch_delete_tensor_object(h); });
  }

  int32_t device_type_code() const {
    int32_t type = 0;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_device_type(get(), &type));
    return type;
  }

  template <typename T>
  void check_element_type() const {
    constexpr ScalarType expected =
        torch::headeronly::CppTypeToScalarType<std::remove_cv_t<T>>::value;
    const ScalarType actual = scalar_type();
    STD_TORCH_CHECK_MSG(actual == expected, "expected scalar type ", expected, " but found ",
                        actual);
  }

  std::shared_ptr<AtenTensorOpaque> ath_;
};

HIDDEN_NAMESPACE_END(torch, stable)
