// Registration and boxing (library.h, detail/box.h): TORCH_BOX with every
// parameter form, tuple / void / single-tuple returns, an in-place
// Tensor(a!) operator, a throwing kernel, a hand-boxed kernel, an impl
// before its def, the Tensor methods seen from a kernel, and the core's
// registration-time refusal of a kernel whose C++ signature disagrees
// with its schema.
#include "stable_test_util.h"

#include <torch/csrc/stable/library.h>

#include <optional>
#include <string>
#include <vector>

namespace stable_test {
namespace {

namespace ts = torch::stable;
using torch::headeronly::DeviceType;
using torch::headeronly::Layout;
using torch::headeronly::ScalarType;
using ts::detail::from;
using ts::detail::to;

class StableLibraryTest : public StableTest {};

TEST_F(StableLibraryTest, EveryParameterFormAndATupleReturn) {
  const Tensor a = ramp({2});
  std::vector<StableIValue> args{from(a),
                                 from(a),
                                 from(a),
                                 from(std::optional<Tensor>(a)),
                                 from(std::vector<Tensor>{a, a}),
                                 from(std::string("const")),
                                 from(std::string("ref")),
                                 from(std::string("view")),
                                 from(std::vector<int64_t>{1, 2}),
                                 from(std::optional<std::vector<int64_t>>(std::vector<int64_t>{3})),
                                 from(std::string("vref")),
                                 from(std::optional<double>())};
  auto r = call("sdk_test::forms", "", std::move(args), 3);
  const Tensor sum = to<Tensor>(r[0]);
  EXPECT_EQ(values(sum), (std::vector<double>{-6, -3}));  // 6 * a
  EXPECT_EQ(to<int64_t>(r[1]), 303);
  EXPECT_EQ(to<std::string>(r[2]), "const|ref!|view|vref|tensor|2|none");

  // Empty optionals and empty lists in the same positions.
  std::vector<StableIValue> empty_args{from(a),
                                       from(a),
                                       from(a),
                                       from(std::nullopt),
                                       from(std::vector<Tensor>{}),
                                       from(std::string()),
                                       from(std::string("é")),
                                       from(std::string()),
                                       from(std::vector<int64_t>{}),
                                       from(std::optional<std::vector<int64_t>>()),
                                       from(std::string()),
                                       from(std::optional<double>(0.5))};
  r = call("sdk_test::forms", "", std::move(empty_args), 3);
  EXPECT_EQ(values(to<Tensor>(r[0])), (std::vector<double>{-3, -1.5}));
  EXPECT_EQ(to<int64_t>(r[1]), 0);
  EXPECT_EQ(to<std::string>(r[2]), "|é!|||none|0|0.500000");
}

TEST_F(StableLibraryTest, InPlaceOperatorWritesItsArgumentAndReturnsIt) {
  const Tensor x = ramp({4});
  const Tensor r = call_tensor("sdk_test::scale_", "", {from(x), from(2.0)});
  EXPECT_EQ(r.data_ptr(), x.data_ptr());
  EXPECT_EQ(values(x), (std::vector<double>{-2, -1, 0, 1}));
}

TEST_F(StableLibraryTest, VoidReturnLeavesNothingOnTheStack) {
  const Tensor x = ramp({2});
  EXPECT_TRUE(call("sdk_test::increment_", "", {from(x)}, 0).empty());
  EXPECT_EQ(values(x), (std::vector<double>{0, 0.5}));
}

TEST_F(StableLibraryTest, SingleTupleNoexceptAndHandBoxedKernels) {
  EXPECT_EQ(to<int64_t>(call("sdk_test::single_tuple", "", {from<int64_t>(5)}, 1)[0]), 15);
  EXPECT_EQ(to<int64_t>(call("sdk_test::hand_boxed", "", {from<int64_t>(5)}, 1)[0]), 12);
}

TEST_F(StableLibraryTest, AKernelThatThrowsReachesTheCallerWithItsMessage) {
  try {
    (void)call("sdk_test::thrower", "", {from<int64_t>(-3)}, 1);
    ADD_FAILURE() << "expected a failure";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("sdk_test::thrower: x must be positive, got -3"), std::string::npos)
        << what;
    EXPECT_NE(what.find("sdk_test::thrower"), std::string::npos) << what;
  }
  EXPECT_EQ(to<int64_t>(call("sdk_test::thrower", "", {from<int64_t>(3)}, 1)[0]), 3);
}

TEST_F(StableLibraryTest, AnImplBeforeItsDefWorks) {
  EXPECT_EQ(to<int64_t>(call("sdk_test::late_def", "", {from<int64_t>(8)}, 1)[0]), 8);
}

TEST_F(StableLibraryTest, TensorMethodsSeenFromAKernel) {
  const Tensor base = ramp({3, 4});
  const Tensor x = ts::narrow(base, 1, 1, 2);  // sizes {3, 2}, strides {4, 1}, offset 1
  const auto r = call("sdk_test::tensor_info", "", {from(x)}, 16);
  EXPECT_EQ(to<int64_t>(r[0]), 2);
  EXPECT_EQ(to<int64_t>(r[1]), 6);
  EXPECT_EQ(to<std::vector<int64_t>>(r[2]), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(to<std::vector<int64_t>>(r[3]), (std::vector<int64_t>{4, 1}));
  EXPECT_EQ(to<int64_t>(r[4]), 2);
  EXPECT_EQ(to<int64_t>(r[5]), 4);
  EXPECT_FALSE(to<bool>(r[6]));
  EXPECT_EQ(to<int64_t>(r[7]), -1001);  // get_device() -1, get_device_index() -1
  EXPECT_TRUE(to<bool>(r[8]));
  EXPECT_FALSE(to<bool>(r[9]));
  EXPECT_TRUE(to<bool>(r[10]));
  EXPECT_EQ(to<int64_t>(r[11]), 1);
  EXPECT_EQ(to<int64_t>(r[12]), 4);
  EXPECT_EQ(to<ScalarType>(r[13]), ScalarType::Float);
  EXPECT_EQ(to<ts::Device>(r[14]), ts::Device(DeviceType::CPU));
  EXPECT_EQ(to<Layout>(r[15]), Layout::Strided);

  const Tensor f = ramp({4});
  EXPECT_EQ(to<double>(call("sdk_test::float_sum", "", {from(f)}, 1)[0]), -1.0);
  const Tensor same = call_tensor("sdk_test::float_set_first", "", {from(f), from(7.0)});
  EXPECT_EQ(same.data_ptr(), f.data_ptr());
  EXPECT_EQ(values(f)[0], 7.0);
  // The typed accessors check the dtype.
  try {
    (void)call("sdk_test::float_sum", "", {from(ramp({2}, ScalarType::Double))}, 1);
    ADD_FAILURE() << "expected a dtype error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("expected scalar type Float but found Double"),
              std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(to<bool>(call("sdk_test::no_grad", "", {from(f)}, 1)[0]));
  EXPECT_TRUE(to<bool>(call("sdk_test::undefined_tensor_is_undefined", "", {}, 1)[0]));
}

TEST_F(StableLibraryTest, HasStorageSeenFromAKernel) {
  const auto r = call("sdk_test::has_storage", "", {from(ramp({0}))}, 2);
  EXPECT_TRUE(to<bool>(r[0]));   // even with no element
  EXPECT_FALSE(to<bool>(r[1]));  // an undefined tensor
}

// The operators def'd after m.set_python_module: a missing kernel's error
// names the module (their tags are checked by `stabletorch ops` in
// tests/tools).
TEST_F(StableLibraryTest, SetPythonModuleIsNamedWhenAKernelIsMissing) {
  try {
    (void)call("sdk_test::with_python_module", "", {from(ramp({1}))}, 1);
    ADD_FAILURE() << "expected a missing-kernel error";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("has no kernel for CPU"), std::string::npos) << what;
    EXPECT_NE(what.find("module 'sdk_test_py.fake' (sdk_test's fake kernels); import it first"),
              std::string::npos)
        << what;
  }
  try {
    (void)call("sdk_test::tagged", "", {from(ramp({1}))}, 1);
    ADD_FAILURE() << "expected a missing-kernel error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).find("Python"), std::string::npos) << e.what();
  }
}

TEST_F(StableLibraryTest, BoxedKernelCountsAreChecked) {
  // Calling the boxed function directly with a wrong count: the message is
  // PyTorch's.
  auto box = TORCH_BOX(&ts::transpose);
  StableIValue stack[3] = {0, 0, 0};
  try {
    box(stack, 2, 1);
    ADD_FAILURE() << "expected a count error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(
        std::string(e.what()).find("Registered schema has 2 args, but the kernel to box has 3"),
        std::string::npos)
        << e.what();
  }
  EXPECT_STREQ(box.signature(), "(Tensor _0, int _1, int _2) -> Tensor");
}

// Loads a plugin expected to be refused; returns the loader's message.
std::string refused_load(const char* path) {
  StableTorchPluginHandle plugin = nullptr;
  if (stabletorch_load_library(path, &plugin) == AOTI_TORCH_SUCCESS) {
    (void)stabletorch_unload_library(plugin);
    return "";
  }
  return last_error();
}

TEST_F(StableLibraryTest, AMismatchedKernelIsRefusedListingEveryPosition) {
  for (const char* path : {SDK_MISMATCH_PLUGIN, SDK_MISMATCH_LATE_PLUGIN}) {
    const std::string msg = refused_load(path);
    ASSERT_FALSE(msg.empty()) << path << " loaded although its kernel mismatches";
    EXPECT_NE(msg.find("does not match the operator's schema"), std::string::npos) << msg;
    EXPECT_NE(msg.find("argument 1 ('n') is int in the schema but float in the kernel"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("argument 2 ('y') is float? in the schema but int? in the kernel"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("return 0 is Tensor in the schema but int in the kernel"), std::string::npos)
        << msg;
    EXPECT_EQ(msg.find("argument 0"), std::string::npos) << msg;  // matching positions stay quiet
  }
  // Refused whole: nothing of it stays registered.
  EXPECT_THROW((void)call("sdk_mismatch::bad", "", {0, 0, 0}, 1), std::runtime_error);
}

}  // namespace
}  // namespace stable_test
