// torch_*_pyobject without Python: with no converters registered every
// function fails, saying what to import; arguments are checked first. Then
// with stand-in converters (the core's registry, as the Python module uses
// it) for the C side's ownership: new handles, untouched outputs on
// failure, no leaks. tests/python/test_pyobject.py runs them with Python.
#include "c_api_test_util.h"

#include <st/core/error.h>
#include <st/core/pyobject_converters.h>

using namespace stc_test;

namespace {

class PyObjectTest : public CApiTest {};

constexpr const char* kNotLoaded = "`import stabletorch` must have run first";

TEST_F(PyObjectTest, WithoutPythonEveryFunctionFailsClearly) {
  ASSERT_EQ(st::pyobject_converters(), nullptr);
  int dummy = 0;
  void* obj = &dummy;
  AtenTensorHandle h = make_tensor({2});
  AtenTensorHandle th = nullptr;
  void* out = nullptr;
  bool is = true;
  int32_t code = 77, index = 77;
  EXPECT_C_FAILURE(torch_tensor_from_pyobject(obj, &th), "torch_tensor_from_pyobject", kNotLoaded);
  EXPECT_C_FAILURE(torch_tensor_to_pyobject(h, nullptr, &out), "torch_tensor_to_pyobject",
                   kNotLoaded);
  EXPECT_C_FAILURE(torch_is_tensor_pyobject(obj, &is), "torch_is_tensor_pyobject", kNotLoaded);
  EXPECT_C_FAILURE(torch_dtype_from_pyobject(obj, &code), "torch_dtype_from_pyobject", kNotLoaded);
  EXPECT_C_FAILURE(torch_dtype_to_pyobject(aoti_torch_dtype_float32(), &out),
                   "torch_dtype_to_pyobject", kNotLoaded);
  EXPECT_C_FAILURE(torch_device_from_pyobject(obj, &code, &index), "torch_device_from_pyobject",
                   kNotLoaded);
  EXPECT_C_FAILURE(torch_device_to_pyobject(aoti_torch_device_type_cpu(), -1, &out),
                   "torch_device_to_pyobject", kNotLoaded);
  // Outputs untouched on failure.
  EXPECT_EQ(th, nullptr);
  EXPECT_EQ(out, nullptr);
  EXPECT_TRUE(is);
  EXPECT_EQ(code, 77);
  EXPECT_EQ(index, 77);
  aoti_torch_delete_tensor_object(h);
}

TEST_F(PyObjectTest, ArgumentsAreCheckedBeforeTheConverters) {
  int dummy = 0;
  AtenTensorHandle th = nullptr;
  void* out = nullptr;
  bool is = false;
  int32_t code = 0, index = 0;
  EXPECT_C_FAILURE(torch_tensor_from_pyobject(nullptr, &th), "torch_tensor_from_pyobject",
                   "py_obj: is NULL");
  EXPECT_C_FAILURE(torch_tensor_from_pyobject(&dummy, nullptr), "torch_tensor_from_pyobject",
                   "ret: null output pointer");
  EXPECT_C_FAILURE(torch_tensor_to_pyobject(nullptr, nullptr, &out), "torch_tensor_to_pyobject",
                   "ath: null tensor handle");
  EXPECT_C_FAILURE(torch_is_tensor_pyobject(nullptr, &is), "torch_is_tensor_pyobject",
                   "py_obj: is NULL");
  EXPECT_C_FAILURE(torch_is_tensor_pyobject(&dummy, nullptr), "torch_is_tensor_pyobject",
                   "ret: null output pointer");
  EXPECT_C_FAILURE(torch_dtype_from_pyobject(nullptr, &code), "torch_dtype_from_pyobject",
                   "py_obj: is NULL");
  EXPECT_C_FAILURE(torch_device_from_pyobject(nullptr, &code, &index), "torch_device_from_pyobject",
                   "py_obj: is NULL");
  EXPECT_C_FAILURE(torch_dtype_to_pyobject(1000, &out), "torch_dtype_to_pyobject",
                   "unsupported dtype code 1000");
  EXPECT_C_FAILURE(torch_dtype_to_pyobject(aoti_torch_dtype_float32(), nullptr),
                   "torch_dtype_to_pyobject", "ret: null output pointer");
  EXPECT_C_FAILURE(torch_device_from_pyobject(&dummy, &code, nullptr), "torch_device_from_pyobject",
                   "ret_device_index: null output pointer");
  EXPECT_C_FAILURE(torch_device_to_pyobject(99, 0, &out), "torch_device_to_pyobject",
                   "unsupported device type code 99");
  EXPECT_C_FAILURE(torch_device_to_pyobject(aoti_torch_device_type_cuda(), 500, &out),
                   "torch_device_to_pyobject", "device index 500 is out of range");
  EXPECT_EQ(out, nullptr);
}

// Stand-in "Python objects": a boxed tensor, dtype or device.
struct FakeObject {
  enum Kind { kTensor, kDType, kDevice, kOther } kind;
  st::Tensor tensor{};
  st::ScalarType dtype = st::ScalarType::Float;
  st::Device device = st::Device(st::DeviceType::CPU);
};

FakeObject& fake(void* obj) { return *static_cast<FakeObject*>(obj); }

const st::PyObjectConverters kFakeConverters = {
    [](void* obj) {
      ST_CHECK(fake(obj).kind == FakeObject::kTensor, "py_obj: expected a tensor");
      return fake(obj).tensor;
    },
    [](const st::Tensor& t, void* py_type) -> void* {
      ST_CHECK(py_type == nullptr, "py_type: no subclasses here");
      return new FakeObject{FakeObject::kTensor, t};
    },
    [](void* obj) { return fake(obj).kind == FakeObject::kTensor; },
    [](void* obj) {
      ST_CHECK(fake(obj).kind == FakeObject::kDType, "py_obj: expected a dtype");
      return fake(obj).dtype;
    },
    [](st::ScalarType t) -> void* {
      return new FakeObject{FakeObject::kDType, {}, t};
    },
    [](void* obj) {
      ST_CHECK(fake(obj).kind == FakeObject::kDevice, "py_obj: expected a device");
      return fake(obj).device;
    },
    [](st::Device d) -> void* {
      return new FakeObject{FakeObject::kDevice, {}, st::ScalarType::Float, d};
    },
};

// Registers the stand-ins for one test and removes them after.
class PyObjectConvertersTest : public CApiTest {
 protected:
  void SetUp() override {
    CApiTest::SetUp();
    st::set_pyobject_converters(&kFakeConverters);
  }
  void TearDown() override {
    st::set_pyobject_converters(nullptr);
    CApiTest::TearDown();
  }
};

TEST_F(PyObjectConvertersTest, TensorRoundTripSharesTheTensorAndOwnsTheHandle) {
  AtenTensorHandle h = make_tensor({3});
  void* obj = nullptr;
  ASSERT_C_OK(torch_tensor_to_pyobject(h, nullptr, &obj));
  FakeObject* box = static_cast<FakeObject*>(obj);
  bool is = false;
  ASSERT_C_OK(torch_is_tensor_pyobject(obj, &is));
  EXPECT_TRUE(is);
  AtenTensorHandle back = nullptr;
  ASSERT_C_OK(torch_tensor_from_pyobject(obj, &back));
  void* p1 = nullptr;
  void* p2 = nullptr;
  ASSERT_C_OK(aoti_torch_get_data_ptr(h, &p1));
  ASSERT_C_OK(aoti_torch_get_data_ptr(back, &p2));
  EXPECT_EQ(p1, p2);                      // the same tensor, not a copy
  EXPECT_EQ(box->tensor.use_count(), 3);  // h, the object, back
  ASSERT_C_OK(aoti_torch_delete_tensor_object(back));
  ASSERT_C_OK(aoti_torch_delete_tensor_object(h));
  EXPECT_EQ(box->tensor.use_count(), 1);  // the object's own reference remains
  delete box;
}

TEST_F(PyObjectConvertersTest, DTypeAndDeviceRoundTrip) {
  void* obj = nullptr;
  ASSERT_C_OK(torch_dtype_to_pyobject(aoti_torch_dtype_bfloat16(), &obj));
  int32_t code = -1;
  ASSERT_C_OK(torch_dtype_from_pyobject(obj, &code));
  EXPECT_EQ(code, aoti_torch_dtype_bfloat16());
  delete static_cast<FakeObject*>(obj);

  ASSERT_C_OK(torch_device_to_pyobject(aoti_torch_device_type_cuda(), 1, &obj));
  int32_t type = -1, index = -2;
  ASSERT_C_OK(torch_device_from_pyobject(obj, &type, &index));
  EXPECT_EQ(type, aoti_torch_device_type_cuda());
  EXPECT_EQ(index, 1);
  delete static_cast<FakeObject*>(obj);

  ASSERT_C_OK(torch_device_to_pyobject(aoti_torch_device_type_cpu(), -1, &obj));
  ASSERT_C_OK(torch_device_from_pyobject(obj, &type, &index));
  EXPECT_EQ(type, aoti_torch_device_type_cpu());
  EXPECT_EQ(index, -1);  // no index
  delete static_cast<FakeObject*>(obj);
}

TEST_F(PyObjectConvertersTest, ConverterFailuresReachTheCallerUnchanged) {
  FakeObject other{FakeObject::kOther};
  AtenTensorHandle th = nullptr;
  int32_t code = 5;
  bool is = true;
  EXPECT_C_FAILURE(torch_tensor_from_pyobject(&other, &th), "torch_tensor_from_pyobject",
                   "py_obj: expected a tensor");
  EXPECT_EQ(th, nullptr);
  EXPECT_C_FAILURE(torch_dtype_from_pyobject(&other, &code), "torch_dtype_from_pyobject",
                   "py_obj: expected a dtype");
  EXPECT_EQ(code, 5);
  ASSERT_C_OK(torch_is_tensor_pyobject(&other, &is));
  EXPECT_FALSE(is);
  AtenTensorHandle h = make_tensor({1});
  void* out = nullptr;
  int type_object = 0;
  EXPECT_C_FAILURE(torch_tensor_to_pyobject(h, &type_object, &out), "torch_tensor_to_pyobject",
                   "py_type: no subclasses here");
  EXPECT_EQ(out, nullptr);
  aoti_torch_delete_tensor_object(h);
}

}  // namespace
