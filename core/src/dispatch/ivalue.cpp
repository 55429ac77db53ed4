#include <st/dispatch/ivalue.h>

#include <sstream>

namespace st {

const char* IValue::tagName(Tag t) {
  switch (t) {
    case Tag::None:
      return "None";
    case Tag::Tensor:
      return "Tensor";
    case Tag::Int:
      return "int";
    case Tag::Double:
      return "float";
    case Tag::Bool:
      return "bool";
    case Tag::String:
      return "str";
    case Tag::Scalar:
      return "Scalar";
    case Tag::Device:
      return "Device";
    case Tag::ScalarType:
      return "ScalarType";
    case Tag::Layout:
      return "Layout";
    case Tag::MemoryFormat:
      return "MemoryFormat";
    case Tag::IntList:
      return "int[]";
    case Tag::DoubleList:
      return "float[]";
    case Tag::BoolList:
      return "bool[]";
    case Tag::StringList:
      return "str[]";
    case Tag::TensorList:
      return "Tensor[]";
    case Tag::List:
      return "List";
    case Tag::Tuple:
      return "Tuple";
    case Tag::Generator:
      return "Generator";
  }
  return "?";
}

void IValue::throwTypeError(Tag expected) const {
  ST_ERROR("expected ", tagName(expected), " but got ", tagName());
}

Scalar IValue::toScalar() const {
  switch (tag()) {
    case Tag::Scalar:
      return std::get<6>(v_);
    case Tag::Int:
      return Scalar(std::get<2>(v_));
    case Tag::Double:
      return Scalar(std::get<3>(v_));
    case Tag::Bool:
      return Scalar(std::get<4>(v_));
    default:
      ST_ERROR("expected Scalar but got ", tagName());
  }
}

ScalarType IValue::toScalarType() const {
  if (isInt()) {
    int64_t i = toInt();
    ST_CHECK(i >= 0 && i < static_cast<int64_t>(ScalarType::NumOptions),
             "expected a ScalarType ordinal but got ", i);
    return static_cast<ScalarType>(i);
  }
  return get<8>(Tag::ScalarType);
}

Layout IValue::toLayout() const {
  if (isInt()) {
    int64_t i = toInt();
    ST_CHECK(i >= 0 && i < static_cast<int64_t>(Layout::NumOptions),
             "expected a Layout ordinal but got ", i);
    return static_cast<Layout>(i);
  }
  return get<9>(Tag::Layout);
}

MemoryFormat IValue::toMemoryFormat() const {
  if (isInt()) {
    int64_t i = toInt();
    ST_CHECK(i >= 0 && i < static_cast<int64_t>(MemoryFormat::NumOptions),
             "expected a MemoryFormat ordinal but got ", i);
    return static_cast<MemoryFormat>(i);
  }
  return get<10>(Tag::MemoryFormat);
}

std::vector<std::optional<Tensor>> IValue::toOptionalTensorVector() const {
  std::vector<std::optional<Tensor>> out;
  if (isTensorList()) {
    for (const Tensor& t : toTensorVector()) out.emplace_back(t);
    return out;
  }
  if (!isList()) ST_ERROR("expected Tensor?[] but got ", tagName());
  for (const IValue& v : toListRef()) {
    if (v.isNone()) {
      out.emplace_back(std::nullopt);
    } else if (v.isTensor()) {
      out.emplace_back(v.toTensor());
    } else {
      ST_ERROR("expected Tensor?[] but got a list holding ", v.tagName());
    }
  }
  return out;
}

bool operator==(const IValue& a, const IValue& b) {
  if (a.tag() != b.tag()) return false;
  using Tag = IValue::Tag;
  switch (a.tag()) {
    case Tag::None:
      return true;
    case Tag::Tensor:
      return a.toTensor().is_same(b.toTensor());
    case Tag::Int:
      return a.toInt() == b.toInt();
    case Tag::Double:
      return a.toDouble() == b.toDouble();
    case Tag::Bool:
      return a.toBool() == b.toBool();
    case Tag::String:
      return a.toStringRef() == b.toStringRef();
    case Tag::Scalar:
      return a.toScalar().equal(b.toScalar());
    case Tag::Device:
      return a.toDevice() == b.toDevice();
    case Tag::ScalarType:
      return a.toScalarType() == b.toScalarType();
    case Tag::Layout:
      return a.toLayout() == b.toLayout();
    case Tag::MemoryFormat:
      return a.toMemoryFormat() == b.toMemoryFormat();
    case Tag::IntList:
      return a.toIntVector() == b.toIntVector();
    case Tag::DoubleList:
      return a.toDoubleVector() == b.toDoubleVector();
    case Tag::BoolList:
      return a.toBoolVector() == b.toBoolVector();
    case Tag::StringList:
      return a.toStringVector() == b.toStringVector();
    case Tag::TensorList: {
      const auto& x = a.toTensorVector();
      const auto& y = b.toTensorVector();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (!x[i].is_same(y[i])) return false;
      }
      return true;
    }
    case Tag::List:
      return a.toListRef() == b.toListRef();
    case Tag::Tuple:
      return a.toTupleRef() == b.toTupleRef();
    case Tag::Generator:
      return a.toGenerator().get() == b.toGenerator().get();
  }
  return false;
}

namespace {

template <typename Vec, typename F>
void printList(std::ostream& os, const Vec& v, F&& each, const char* open = "[",
               const char* close = "]") {
  os << open;
  bool first = true;
  for (const auto& x : v) {
    if (!first) os << ", ";
    first = false;
    each(x);
  }
  os << close;
}

void printTensor(std::ostream& os, const Tensor& t) {
  if (!t.defined()) {
    os << "Tensor(undefined)";
    return;
  }
  os << "Tensor(sizes=";
  printList(os, t.sizes(), [&](int64_t s) { os << s; });
  os << ", dtype=" << t.dtype() << ", device=" << t.device() << ")";
}

void printDouble(std::ostream& os, double d) {
  std::ostringstream s;
  s.precision(17);
  s << d;
  std::string str = s.str();
  if (str.find_first_of(".eEn") == std::string::npos) str += ".0";
  os << str;
}

}  // namespace

std::ostream& operator<<(std::ostream& os, const IValue& v) {
  using Tag = IValue::Tag;
  switch (v.tag()) {
    case Tag::None:
      return os << "None";
    case Tag::Tensor:
      printTensor(os, v.toTensor());
      return os;
    case Tag::Int:
      return os << v.toInt();
    case Tag::Double:
      printDouble(os, v.toDouble());
      return os;
    case Tag::Bool:
      return os << (v.toBool() ? "True" : "False");
    case Tag::String:
      return os << "'" << v.toStringRef() << "'";
    case Tag::Scalar:
      return os << v.toScalar();
    case Tag::Device:
      return os << v.toDevice();
    case Tag::ScalarType:
      return os << v.toScalarType();
    case Tag::Layout:
      return os << v.toLayout();
    case Tag::MemoryFormat:
      return os << v.toMemoryFormat();
    case Tag::IntList:
      printList(os, v.toIntVector(), [&](int64_t x) { os << x; });
      return os;
    case Tag::DoubleList:
      printList(os, v.toDoubleVector(), [&](double x) { printDouble(os, x); });
      return os;
    case Tag::BoolList:
      printList(os, v.toBoolVector(), [&](bool x) { os << (x ? "True" : "False"); });
      return os;
    case Tag::StringList:
      printList(os, v.toStringVector(), [&](const std::string& x) { os << "'" << x << "'"; });
      return os;
    case Tag::TensorList:
      printList(os, v.toTensorVector(), [&](const Tensor& t) { printTensor(os, t); });
      return os;
    case Tag::List:
      printList(os, v.toListRef(), [&](const IValue& x) { os << x; });
      return os;
    case Tag::Tuple:
      printList(
          os, v.toTupleRef(), [&](const IValue& x) { os << x; }, "(", ")");
      return os;
    case Tag::Generator: {
      const Generator& g = v.toGenerator();
      if (!g.defined()) return os << "Generator(undefined)";
      return os << "Generator(device=" << g.device() << ")";
    }
  }
  return os;
}

}  // namespace st
