// Every StableIValue conversion, both ways: the host encodes with
// torch::stable::detail::from, the sdk_test kernel decodes with to<T>,
// transforms the value, encodes the result, and the host decodes it. Empty
// optionals, empty lists and non-ASCII strings included.
#include "stable_test_util.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stable_test {
namespace {

namespace ts = torch::stable;
using torch::headeronly::DeviceType;
using torch::headeronly::Layout;
using torch::headeronly::MemoryFormat;
using torch::headeronly::ScalarType;
using ts::detail::from;
using ts::detail::to;

class StableConversionsTest : public StableTest {};

template <typename R, typename A>
R round_trip(const char* op, const A& arg) {
  return to<R>(call(op, "", {from(arg)}, 1)[0]);
}

TEST_F(StableConversionsTest, Numbers) {
  EXPECT_EQ(round_trip<int64_t>("sdk_test::echo_int", int64_t{-(int64_t{1} << 62)}),
            int64_t{1} << 62);
  EXPECT_EQ(round_trip<double>("sdk_test::echo_float", 1e300), 2e300);
  EXPECT_EQ(round_trip<double>("sdk_test::echo_float", -0.125), -0.25);
  EXPECT_EQ(round_trip<bool>("sdk_test::echo_bool", true), false);
  EXPECT_EQ(round_trip<bool>("sdk_test::echo_bool", false), true);
}

TEST_F(StableConversionsTest, StringsIncludingNonAsciiAndEmpty) {
  EXPECT_EQ(round_trip<std::string>("sdk_test::echo_str", std::string("héllo wörld ✓ 日本")),
            "«héllo wörld ✓ 日本»");
  EXPECT_EQ(round_trip<std::string>("sdk_test::echo_str", std::string()), "«»");
  EXPECT_EQ(round_trip<std::string>("sdk_test::echo_str", std::string_view("view")), "«view»");
  const std::string with_nul("a\0b", 3);
  EXPECT_EQ(round_trip<std::string>("sdk_test::echo_str", with_nul), "«" + with_nul + "»");
}

TEST_F(StableConversionsTest, Enums) {
  EXPECT_EQ(round_trip<ScalarType>("sdk_test::echo_dtype", ScalarType::Float), ScalarType::Double);
  EXPECT_EQ(round_trip<ScalarType>("sdk_test::echo_dtype", ScalarType::BFloat16),
            ScalarType::Float);
  EXPECT_EQ(round_trip<Layout>("sdk_test::echo_layout", Layout::Strided), Layout::Strided);
  EXPECT_EQ(round_trip<MemoryFormat>("sdk_test::echo_memory_format", MemoryFormat::Contiguous),
            MemoryFormat::ChannelsLast);
  EXPECT_EQ(round_trip<MemoryFormat>("sdk_test::echo_memory_format", MemoryFormat::ChannelsLast),
            MemoryFormat::Contiguous);
}

// A Tag travels as the running core's torch_tag_* code, never its ordinal.
TEST_F(StableConversionsTest, Tags) {
  using torch::headeronly::Tag;
  EXPECT_EQ(from(Tag::pointwise), StableIValue(static_cast<uint32_t>(torch_tag_pointwise())));
  const std::pair<Tag, Tag> next[] = {{Tag::core, Tag::cudagraph_unsafe},
                                      {Tag::generated, Tag::inplace_view},
                                      {Tag::nondeterministic_seeded, Tag::out_variant},
                                      {Tag::out_variant, Tag::pointwise},
                                      {Tag::reduction, Tag::view_copy}};
  for (const auto& [t, after] : next) {
    EXPECT_EQ(to<Tag>(from(t)), t);
    EXPECT_EQ(round_trip<Tag>("sdk_test::next_tag", t), after);
  }
  EXPECT_EQ(round_trip<Tag>("sdk_test::next_tag", Tag::view_copy), Tag::core);
  // No C code for these two, as in PyTorch: the conversion refuses them.
  EXPECT_THROW(from(Tag::inplace), std::runtime_error);
  EXPECT_THROW(from(Tag::out), std::runtime_error);
  EXPECT_THROW(to<Tag>(from(int32_t{1000})), std::runtime_error);
}

TEST_F(StableConversionsTest, Devices) {
  EXPECT_EQ(round_trip<ts::Device>("sdk_test::echo_device", ts::Device(DeviceType::CUDA, 2)),
            ts::Device(DeviceType::CUDA, 3));
  // CPU has one device: the core reports its index as -1 whatever it got.
  EXPECT_EQ(round_trip<ts::Device>("sdk_test::echo_device", ts::Device(DeviceType::CPU)).type(),
            DeviceType::CPU);
  EXPECT_EQ(round_trip<ts::Device>("sdk_test::echo_device", ts::Device("privateuseone:1")),
            ts::Device(DeviceType::PrivateUse1, 2));
  // The bit layout: index low, type code high.
  const StableIValue v = from(ts::Device(DeviceType::CUDA, 5));
  EXPECT_EQ(v & 0xFFFFFFFFu, 5u);
  EXPECT_EQ(static_cast<int32_t>(v >> 32), aoti_torch_device_type_cuda());
  EXPECT_THROW(ts::Device("not-a-device"), std::runtime_error);
}

TEST_F(StableConversionsTest, Scalars) {
  EXPECT_EQ(round_trip<ts::Scalar>("sdk_test::echo_scalar", ts::Scalar(true)), ts::Scalar(false));
  const int64_t big = (int64_t{1} << 60) + 1;  // not representable as double
  EXPECT_EQ(round_trip<ts::Scalar>("sdk_test::echo_scalar", ts::Scalar(big)), ts::Scalar(big + 1));
  EXPECT_EQ(round_trip<ts::Scalar>("sdk_test::echo_scalar", ts::Scalar(3.0)), ts::Scalar(1.5));
  const ts::Scalar c(torch::headeronly::complex<double>(1.0, -2.0));
  EXPECT_EQ(round_trip<ts::Scalar>("sdk_test::echo_scalar", c),
            ts::Scalar(torch::headeronly::complex<double>(-2.0, 1.0)));
}

TEST_F(StableConversionsTest, TensorsAndOptionalTensors) {
  const Tensor x = ramp({3});
  const Tensor y = round_trip<Tensor>("sdk_test::echo_tensor", x);
  EXPECT_EQ(values(y), (std::vector<double>{-2, -1, 0}));
  // from() made a new handle: x is still fully usable.
  EXPECT_EQ(values(x), (std::vector<double>{-1, -0.5, 0}));
  const auto some =
      round_trip<std::optional<Tensor>>("sdk_test::echo_opt_tensor", std::optional<Tensor>(x));
  ASSERT_TRUE(some.has_value());
  EXPECT_TRUE(same_tensor(*some, y));
  EXPECT_FALSE(
      round_trip<std::optional<Tensor>>("sdk_test::echo_opt_tensor", std::optional<Tensor>()));
  EXPECT_FALSE(round_trip<std::optional<Tensor>>("sdk_test::echo_opt_tensor", std::nullopt));
}

TEST_F(StableConversionsTest, OptionalValues) {
  EXPECT_EQ(round_trip<std::optional<int64_t>>("sdk_test::echo_opt_int", std::optional<int64_t>(4)),
            std::optional<int64_t>(-4));
  EXPECT_EQ(round_trip<std::optional<int64_t>>("sdk_test::echo_opt_int", std::optional<int64_t>()),
            std::nullopt);
  EXPECT_EQ(
      round_trip<std::optional<double>>("sdk_test::echo_opt_float", std::optional<double>(0.75)),
      std::optional<double>(1.5));
  EXPECT_EQ(round_trip<std::optional<double>>("sdk_test::echo_opt_float", std::optional<double>()),
            std::nullopt);
  EXPECT_EQ(round_trip<std::optional<std::string>>("sdk_test::echo_opt_str",
                                                   std::optional<std::string>("ü")),
            std::optional<std::string>("«ü»"));
  EXPECT_EQ(round_trip<std::optional<std::string>>("sdk_test::echo_opt_str",
                                                   std::optional<std::string>()),
            std::nullopt);
  EXPECT_EQ(round_trip<std::optional<ScalarType>>("sdk_test::echo_opt_dtype",
                                                  std::optional<ScalarType>(ScalarType::Float)),
            std::optional<ScalarType>(ScalarType::Double));
  EXPECT_EQ(round_trip<std::optional<ScalarType>>("sdk_test::echo_opt_dtype",
                                                  std::optional<ScalarType>()),
            std::nullopt);
  EXPECT_EQ(
      round_trip<std::optional<ts::Device>>(
          "sdk_test::echo_opt_device", std::optional<ts::Device>(ts::Device(DeviceType::CUDA, 0))),
      std::optional<ts::Device>(ts::Device(DeviceType::CUDA, 1)));
  EXPECT_EQ(round_trip<std::optional<ts::Device>>("sdk_test::echo_opt_device",
                                                  std::optional<ts::Device>()),
            std::nullopt);
}

TEST_F(StableConversionsTest, ListsIncludingEmpty) {
  EXPECT_EQ(
      round_trip<std::vector<int64_t>>("sdk_test::echo_int_list", std::vector<int64_t>{1, 2, 3}),
      (std::vector<int64_t>{3, 2, 1}));
  EXPECT_EQ(round_trip<std::vector<int64_t>>("sdk_test::echo_int_list", std::vector<int64_t>{}),
            std::vector<int64_t>{});
  const std::vector<int64_t> backing{7, 8};
  EXPECT_EQ(round_trip<std::vector<int64_t>>("sdk_test::echo_int_list",
                                             torch::headeronly::IntHeaderOnlyArrayRef(backing)),
            (std::vector<int64_t>{8, 7}));
  EXPECT_EQ(
      round_trip<std::vector<double>>("sdk_test::echo_float_list", std::vector<double>{0.5, -1}),
      (std::vector<double>{-1, 0.5}));
  EXPECT_EQ(round_trip<std::vector<bool>>("sdk_test::echo_bool_list",
                                          std::vector<bool>{true, false, false}),
            (std::vector<bool>{false, true, true}));
  EXPECT_EQ(round_trip<std::vector<bool>>("sdk_test::echo_bool_list", std::vector<bool>{}),
            std::vector<bool>{});
  const Tensor a = ramp({1});
  const Tensor b = ramp({2});
  const auto ts_out =
      round_trip<std::vector<Tensor>>("sdk_test::echo_tensor_list", std::vector<Tensor>{a, b});
  ASSERT_EQ(ts_out.size(), 2u);
  EXPECT_EQ(ts_out[0].data_ptr(), b.data_ptr());
  EXPECT_EQ(ts_out[1].data_ptr(), a.data_ptr());
  EXPECT_TRUE(
      round_trip<std::vector<Tensor>>("sdk_test::echo_tensor_list", std::vector<Tensor>{}).empty());
  const auto opts = round_trip<std::vector<std::optional<Tensor>>>(
      "sdk_test::echo_opt_tensor_list", std::vector<std::optional<Tensor>>{a, std::nullopt});
  ASSERT_EQ(opts.size(), 2u);
  EXPECT_FALSE(opts[0].has_value());
  ASSERT_TRUE(opts[1].has_value());
  EXPECT_EQ(opts[1]->data_ptr(), a.data_ptr());
  EXPECT_EQ(round_trip<std::optional<std::vector<int64_t>>>(
                "sdk_test::echo_opt_int_list",
                std::optional<std::vector<int64_t>>(std::vector<int64_t>{1, 2})),
            (std::optional<std::vector<int64_t>>(std::vector<int64_t>{2, 1})));
  EXPECT_EQ(round_trip<std::optional<std::vector<int64_t>>>("sdk_test::echo_opt_int_list",
                                                            std::optional<std::vector<int64_t>>()),
            std::nullopt);
  EXPECT_EQ(round_trip<std::optional<std::vector<int64_t>>>(
                "sdk_test::echo_opt_int_list",
                std::optional<std::vector<int64_t>>(std::vector<int64_t>{})),
            std::optional<std::vector<int64_t>>(std::vector<int64_t>{}));
}

TEST_F(StableConversionsTest, LocalEncodings) {
  // Catch-all values sit in the low-order bytes with the rest zeroed.
  EXPECT_EQ(from(int32_t{-1}), StableIValue{0xFFFFFFFFu});
  EXPECT_EQ(to<int32_t>(from(int32_t{-5})), -5);
  EXPECT_EQ(from(true), StableIValue{1});
  EXPECT_EQ(from(std::nullopt), StableIValue{0});
  EXPECT_EQ(from(std::optional<int64_t>()), StableIValue{0});
  // A present optional is a heap slot holding the payload; to() frees it.
  const StableIValue slot = from(std::optional<int64_t>(9));
  ASSERT_NE(slot, 0u);
  EXPECT_EQ(*reinterpret_cast<StableIValue*>(slot), StableIValue{9});
  EXPECT_EQ(to<std::optional<int64_t>>(slot), std::optional<int64_t>(9));
  // From 2.13 the slot is the core's (torch_new_stable_ivalue): the core
  // knows it was freed.
  EXPECT_EQ(torch_delete_stable_ivalue(reinterpret_cast<StableIValue*>(slot)), AOTI_TORCH_FAILURE);
  // Every dtype the stable ABI encodes travels both ways.
  for (ScalarType t : {ScalarType::Byte,
                       ScalarType::Char,
                       ScalarType::Short,
                       ScalarType::Int,
                       ScalarType::Long,
                       ScalarType::Half,
                       ScalarType::Float,
                       ScalarType::Double,
                       ScalarType::ComplexHalf,
                       ScalarType::ComplexFloat,
                       ScalarType::ComplexDouble,
                       ScalarType::Bool,
                       ScalarType::BFloat16,
                       ScalarType::Float8_e5m2,
                       ScalarType::Float8_e4m3fn,
                       ScalarType::Float8_e5m2fnuz,
                       ScalarType::Float8_e4m3fnuz,
                       ScalarType::UInt16,
                       ScalarType::UInt32,
                       ScalarType::UInt64}) {
    EXPECT_EQ(to<ScalarType>(from(t)), t) << t;
  }
  EXPECT_THROW(from(ScalarType::QInt8), std::runtime_error);
}

TEST_F(StableConversionsTest, DeprecatedGlobalSpellingsStillWork) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(::to<int64_t>(::from(int64_t{42})), 42);
  EXPECT_EQ(::from(std::nullopt), StableIValue{0});
#pragma GCC diagnostic pop
}

}  // namespace
}  // namespace stable_test
