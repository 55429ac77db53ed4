// st::IValue: a tagged, owning value of any schema type, and st::Stack, the
// boxed calling convention (arguments pushed left to right; a kernel pops
// its arguments and pushes its returns).
//
// Note [IValue ownership]
// An IValue owns what it holds. Tensors are handles (copying an IValue
// holding a Tensor shares the TensorImpl, like copying the Tensor); lists,
// tuples and strings are values (copying copies the elements). Accessors
// are checked: asking an int for a Tensor throws "expected Tensor but got
// int".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <st/core/array_ref.h>
#include <st/core/device.h>
#include <st/core/error.h>
#include <st/core/export.h>
#include <st/core/generator.h>
#include <st/core/scalar.h>
#include <st/core/tensor.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>

namespace st {

using Layout = torch::headeronly::Layout;
using MemoryFormat = torch::headeronly::MemoryFormat;

class IValue;
using Stack = std::vector<IValue>;

class ST_API IValue {
 public:
  enum class Tag : uint8_t {
    None,
    Tensor,
    Int,
    Double,
    Bool,
    String,
    Scalar,
    Device,
    ScalarType,
    Layout,
    MemoryFormat,
    IntList,
    DoubleList,
    BoolList,
    StringList,
    TensorList,
    List,   // any other list, e.g. Tensor?[] (elements are IValues)
    Tuple,  // several returns
    Generator,
  };

  struct ListBox {
    std::vector<IValue> items;
  };
  struct TupleBox {
    std::vector<IValue> items;
  };
  // Alternative i holds Tag i.
  using Variant = std::variant<std::monostate, Tensor, int64_t, double, bool, std::string, Scalar,
                               Device, ScalarType, Layout, MemoryFormat, std::vector<int64_t>,
                               std::vector<double>, std::vector<bool>, std::vector<std::string>,
                               std::vector<Tensor>, ListBox, TupleBox, Generator>;

  IValue() = default;
  IValue(std::nullopt_t) {}
  IValue(Tensor t) : v_(std::in_place_index<1>, std::move(t)) {}
  IValue(int64_t i) : v_(std::in_place_index<2>, i) {}
  IValue(int i) : v_(std::in_place_index<2>, int64_t{i}) {}
  IValue(double d) : v_(std::in_place_index<3>, d) {}
  IValue(bool b) : v_(std::in_place_index<4>, b) {}
  IValue(std::string s) : v_(std::in_place_index<5>, std::move(s)) {}
  IValue(const char* s) : v_(std::in_place_index<5>, std::string(s)) {}
  IValue(std::string_view s) : v_(std::in_place_index<5>, std::string(s)) {}
  IValue(Scalar s) : v_(std::in_place_index<6>, std::move(s)) {}
  IValue(Device d) : v_(std::in_place_index<7>, d) {}
  IValue(ScalarType t) : v_(std::in_place_index<8>, t) {}
  IValue(Layout l) : v_(std::in_place_index<9>, l) {}
  IValue(MemoryFormat m) : v_(std::in_place_index<10>, m) {}
  IValue(std::vector<int64_t> v) : v_(std::in_place_index<11>, std::move(v)) {}
  IValue(IntArrayRef v) : v_(std::in_place_index<11>, std::vector<int64_t>(v.begin(), v.end())) {}
  IValue(std::vector<double> v) : v_(std::in_place_index<12>, std::move(v)) {}
  IValue(std::vector<bool> v) : v_(std::in_place_index<13>, std::move(v)) {}
  IValue(std::vector<std::string> v) : v_(std::in_place_index<14>, std::move(v)) {}
  IValue(std::vector<Tensor> v) : v_(std::in_place_index<15>, std::move(v)) {}
  IValue(Generator g) : v_(std::in_place_index<18>, std::move(g)) {}
  template <typename T>
  IValue(std::optional<T> o) {
    if (o.has_value()) *this = IValue(std::move(*o));
  }
  template <size_t N>
  IValue(std::array<bool, N> a) : IValue(std::vector<bool>(a.begin(), a.end())) {}
  // Tensor?[] and any other list of IValues.
  static IValue makeList(std::vector<IValue> items) {
    IValue v;
    v.v_.emplace<16>(ListBox{std::move(items)});
    return v;
  }
  static IValue makeTuple(std::vector<IValue> items) {
    IValue v;
    v.v_.emplace<17>(TupleBox{std::move(items)});
    return v;
  }

  Tag tag() const { return static_cast<Tag>(v_.index()); }
  // "None", "Tensor", "int", "float", "bool", "str", "Scalar", "Device",
  // "ScalarType", "Layout", "MemoryFormat", "int[]", "float[]", "bool[]",
  // "str[]", "Tensor[]", "List", "Tuple", "Generator".
  const char* tagName() const { return tagName(tag()); }
  static const char* tagName(Tag t);

  bool isNone() const { return tag() == Tag::None; }
  bool isTensor() const { return tag() == Tag::Tensor; }
  bool isInt() const { return tag() == Tag::Int; }
  bool isDouble() const { return tag() == Tag::Double; }
  bool isBool() const { return tag() == Tag::Bool; }
  bool isString() const { return tag() == Tag::String; }
  bool isScalar() const { return tag() == Tag::Scalar; }
  bool isDevice() const { return tag() == Tag::Device; }
  bool isScalarType() const { return tag() == Tag::ScalarType; }
  bool isLayout() const { return tag() == Tag::Layout; }
  bool isMemoryFormat() const { return tag() == Tag::MemoryFormat; }
  bool isIntList() const { return tag() == Tag::IntList; }
  bool isDoubleList() const { return tag() == Tag::DoubleList; }
  bool isBoolList() const { return tag() == Tag::BoolList; }
  bool isStringList() const { return tag() == Tag::StringList; }
  bool isTensorList() const { return tag() == Tag::TensorList; }
  bool isList() const { return tag() == Tag::List; }
  bool isTuple() const { return tag() == Tag::Tuple; }
  bool isGenerator() const { return tag() == Tag::Generator; }

  const Tensor& toTensor() const& { return get<1>(Tag::Tensor); }
  Tensor& toTensor() & { return get<1>(Tag::Tensor); }
  Tensor toTensor() && { return std::move(get<1>(Tag::Tensor)); }
  int64_t toInt() const { return get<2>(Tag::Int); }
  double toDouble() const { return get<3>(Tag::Double); }
  bool toBool() const { return get<4>(Tag::Bool); }
  const std::string& toStringRef() const { return get<5>(Tag::String); }
  std::string_view toStringView() const { return get<5>(Tag::String); }
  // Scalar, int, float and bool all convert to a Scalar.
  Scalar toScalar() const;
  Device toDevice() const { return get<7>(Tag::Device); }
  // ScalarType, Layout and MemoryFormat also accept an int holding the
  // enum's ordinal (how schema defaults like `long` arrive).
  ScalarType toScalarType() const;
  Layout toLayout() const;
  MemoryFormat toMemoryFormat() const;
  const std::vector<int64_t>& toIntVector() const { return get<11>(Tag::IntList); }
  IntArrayRef toIntList() const { return IntArrayRef(toIntVector()); }
  const std::vector<double>& toDoubleVector() const { return get<12>(Tag::DoubleList); }
  const std::vector<bool>& toBoolVector() const { return get<13>(Tag::BoolList); }
  const std::vector<std::string>& toStringVector() const { return get<14>(Tag::StringList); }
  const std::vector<Tensor>& toTensorVector() const& { return get<15>(Tag::TensorList); }
  std::vector<Tensor> toTensorVector() && { return std::move(get<15>(Tag::TensorList)); }
  const std::vector<IValue>& toListRef() const { return get<16>(Tag::List).items; }
  std::vector<IValue>& toListRef() { return get<16>(Tag::List).items; }
  const std::vector<IValue>& toTupleRef() const { return get<17>(Tag::Tuple).items; }
  std::vector<IValue>& toTupleRef() { return get<17>(Tag::Tuple).items; }
  const Generator& toGenerator() const { return get<18>(Tag::Generator); }
  // Tensor?[]: a List of None/Tensor (a TensorList also converts).
  std::vector<std::optional<Tensor>> toOptionalTensorVector() const;

  // Replaces the value with `t`. Cheaper than assigning an IValue when the
  // slot already holds a Tensor (the boxed adapters write a kernel's result
  // over its first argument's slot; see KernelFunction::Adapters).
  void setTensor(Tensor&& t) {
    if (Tensor* p = std::get_if<1>(&v_)) {
      *p = std::move(t);
    } else {
      v_.emplace<1>(std::move(t));
    }
  }

  // Structural equality; Tensors compare by identity (same TensorImpl).
  friend ST_API bool operator==(const IValue& a, const IValue& b);
  friend bool operator!=(const IValue& a, const IValue& b) { return !(a == b); }

 private:
  template <size_t I>
  const std::variant_alternative_t<I, Variant>& get(Tag expected) const {
    if (__builtin_expect(v_.index() != I, 0)) throwTypeError(expected);
    return *std::get_if<I>(&v_);
  }
  template <size_t I>
  std::variant_alternative_t<I, Variant>& get(Tag expected) {
    if (__builtin_expect(v_.index() != I, 0)) throwTypeError(expected);
    return *std::get_if<I>(&v_);
  }
  [[noreturn]] void throwTypeError(Tag expected) const;

  Variant v_;
};

// Prints like a Python repr: None, 3, 2.5, True, 'abc', [1, 2],
// Tensor(sizes=[2, 3], dtype=Float, device=cpu), (a, b).
ST_API std::ostream& operator<<(std::ostream& os, const IValue& v);

}  // namespace st
