#include "cli_values.h"

#include <charconv>
#include <cmath>
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/generator.h>
#include <torch/headeronly/core/Dispatch_v2.h>

namespace st::cli {
namespace {

using torch::headeronly::ScalarType;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

bool parse_int(std::string_view s, int64_t* out) {
  s = trim(s);
  const auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty();
}

bool parse_double(std::string_view s, double* out) {
  const std::string str(trim(s));
  if (str.empty()) return false;
  char* end = nullptr;
  *out = std::strtod(str.c_str(), &end);
  return end == str.c_str() + str.size();
}

bool parse_bool(std::string_view s, bool* out) {
  s = trim(s);
  if (s == "true" || s == "True" || s == "1") return *out = true, true;
  if (s == "false" || s == "False" || s == "0") return *out = false, true;
  return false;
}

[[noreturn]] void bad(const std::string& arg, const SchemaType& type, std::string_view text,
                      const char* expected) {
  ST_ERROR("argument '", arg, "' (", type.toString(), "): expected ", expected, ", got '",
           std::string(text), "'");
}

// Fills t (contiguous) with values drawn as `kind` says.
void fill(Tensor& t, std::string_view kind, uint64_t seed) {
  Generator gen = make_cpu_generator(seed);
  CPUGeneratorImpl* g = gen.cpu();
  const int64_t n = t.numel();
  THO_DISPATCH_V2(t.scalar_type(), "stabletorch run (tensor argument)", AT_WRAP([&] {
                    scalar_t* p = static_cast<scalar_t*>(t.mutable_data_ptr());
                    for (int64_t i = 0; i < n; ++i) {
                      double v = 0;
                      if (kind == "zeros") {
                        v = 0;
                      } else if (kind == "ones") {
                        v = 1;
                      } else if (kind == "arange") {
                        v = static_cast<double>(i);
                      } else if (kind == "rand") {
                        v = g->uniform_double();
                      } else if (kind == "randint") {
                        v = std::floor(g->uniform_double() * 10);
                      } else if (kind == "mask") {
                        v = g->uniform_double() < 0.5 ? 1 : 0;
                      } else {  // randn: Box-Muller
                        const double u1 = 1.0 - g->uniform_double();
                        const double u2 = g->uniform_double();
                        v = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
                      }
                      p[i] = static_cast<scalar_t>(v);
                    }
                  }),
                  AT_EXPAND(AT_ALL_TYPES), ScalarType::Half, ScalarType::BFloat16,
                  ScalarType::Bool);
}

Tensor parse_tensor(std::string_view text, const std::string& arg, const SchemaType& type,
                    uint64_t seed) {
  const auto parts = split(text, ':');
  if (parts.size() < 2 || parts.size() > 3) {
    bad(arg, type, text, "KIND:SHAPE[:DTYPE] (e.g. randn:2x3:float32)");
  }
  const std::string_view kind = parts[0];
  if (kind != "randn" && kind != "rand" && kind != "zeros" && kind != "ones" && kind != "arange" &&
      kind != "randint" && kind != "mask") {
    bad(arg, type, text, "KIND one of randn, rand, zeros, ones, arange, randint, mask");
  }
  std::vector<int64_t> sizes;
  if (parts[1] != "scalar") {
    for (std::string_view d : split(parts[1], 'x')) {
      int64_t v = 0;
      if (!parse_int(d, &v) || v < 0) bad(arg, type, text, "SHAPE like 2x3, 6 or scalar");
      sizes.push_back(v);
    }
  }
  ScalarType dtype = kind == "mask"      ? ScalarType::Bool
                     : kind == "randint" ? ScalarType::Long
                                         : ScalarType::Float;
  if (parts.size() == 3) dtype = parse_dtype(parts[2]);
  Tensor t = detail::empty_generic(IntArrayRef(sizes), dtype, Device(DeviceType::CPU));
  fill(t, kind, seed);
  return t;
}

}  // namespace

ScalarType parse_dtype(std::string_view name) {
  struct Entry {
    const char* name;
    ScalarType type;
  };
  static const Entry table[] = {
      {"float32", ScalarType::Float},
      {"float", ScalarType::Float},
      {"float64", ScalarType::Double},
      {"double", ScalarType::Double},
      {"float16", ScalarType::Half},
      {"half", ScalarType::Half},
      {"bfloat16", ScalarType::BFloat16},
      {"int8", ScalarType::Char},
      {"uint8", ScalarType::Byte},
      {"int16", ScalarType::Short},
      {"int32", ScalarType::Int},
      {"int", ScalarType::Int},
      {"int64", ScalarType::Long},
      {"long", ScalarType::Long},
      {"bool", ScalarType::Bool},
      {"complex64", ScalarType::ComplexFloat},
      {"complex128", ScalarType::ComplexDouble},
  };
  for (const Entry& e : table) {
    if (name == e.name) return e.type;
  }
  ST_ERROR("unknown dtype '", std::string(name),
           "' (expected float32, float64, float16, bfloat16, int8, uint8, int16, int32, "
           "int64, bool, complex64 or complex128)");
}

IValue parse_value(const SchemaType& type, std::string_view text, const std::string& arg,
                   uint64_t seed) {
  text = trim(text);
  switch (type.kind()) {
    case TypeKind::Optional:
      if (text == "none" || text == "None") return IValue();
      return parse_value(type.elem(), text, arg, seed);
    case TypeKind::Tensor:
      return IValue(parse_tensor(text, arg, type, seed));
    case TypeKind::Int:
    case TypeKind::SymInt: {
      int64_t v = 0;
      if (!parse_int(text, &v)) bad(arg, type, text, "an integer");
      return IValue(v);
    }
    case TypeKind::Float: {
      double v = 0;
      if (!parse_double(text, &v)) bad(arg, type, text, "a number");
      return IValue(v);
    }
    case TypeKind::Bool: {
      bool v = false;
      if (!parse_bool(text, &v)) bad(arg, type, text, "true or false");
      return IValue(v);
    }
    case TypeKind::Str:
      return IValue(std::string(text));
    case TypeKind::Scalar: {
      int64_t i = 0;
      double d = 0;
      bool b = false;
      if (parse_int(text, &i)) return IValue(Scalar(i));
      if (parse_double(text, &d)) return IValue(Scalar(d));
      if (parse_bool(text, &b)) return IValue(Scalar(b));
      bad(arg, type, text, "a number or true/false");
    }
    case TypeKind::ScalarType:
      return IValue(parse_dtype(text));
    case TypeKind::Layout:
      if (text != "strided") bad(arg, type, text, "strided");
      return IValue(torch::headeronly::Layout::Strided);
    case TypeKind::MemoryFormat:
      if (text == "contiguous_format") return IValue(torch::headeronly::MemoryFormat::Contiguous);
      if (text == "preserve_format") return IValue(torch::headeronly::MemoryFormat::Preserve);
      if (text == "channels_last") return IValue(torch::headeronly::MemoryFormat::ChannelsLast);
      bad(arg, type, text, "contiguous_format, preserve_format or channels_last");
    case TypeKind::Device:
      return IValue(Device(std::string(text)));
    case TypeKind::List: {
      std::string_view body = text;
      if (!body.empty() && body.front() == '[') {
        if (body.back() != ']') bad(arg, type, text, "a list [a,b,...]");
        body = body.substr(1, body.size() - 2);
      }
      std::vector<IValue> items;
      if (!trim(body).empty()) {
        for (std::string_view part : split(body, ',')) {
          items.push_back(parse_value(type.elem(), part, arg, seed + items.size() + 1));
        }
      }
      const SchemaType& e = type.elem();
      switch (e.kind()) {
        case TypeKind::Int:
        case TypeKind::SymInt: {
          std::vector<int64_t> v;
          for (const IValue& i : items) v.push_back(i.toInt());
          return IValue(std::move(v));
        }
        case TypeKind::Float: {
          std::vector<double> v;
          for (const IValue& i : items) v.push_back(i.toDouble());
          return IValue(std::move(v));
        }
        case TypeKind::Bool: {
          std::vector<bool> v;
          for (const IValue& i : items) v.push_back(i.toBool());
          return IValue(std::move(v));
        }
        case TypeKind::Str: {
          std::vector<std::string> v;
          for (const IValue& i : items) v.push_back(i.toStringRef());
          return IValue(std::move(v));
        }
        case TypeKind::Tensor: {
          std::vector<Tensor> v;
          for (IValue& i : items) v.push_back(std::move(i).toTensor());
          return IValue(std::move(v));
        }
        default:
          return IValue::makeList(std::move(items));
      }
    }
    default:
      ST_ERROR("argument '", arg, "' has type ", type.toString(),
               ", which the command line cannot express");
  }
}

IValue default_value(const SchemaType& type, const DefaultValue& d) {
  const SchemaType& base = type.isOptional() ? type.elem() : type;
  switch (d.kind) {
    case DefaultValue::Kind::None:
      return IValue();
    case DefaultValue::Kind::Bool:
      return base.kind() == TypeKind::Scalar ? IValue(Scalar(d.b)) : IValue(d.b);
    case DefaultValue::Kind::Int:
      if (base.kind() == TypeKind::Scalar) return IValue(Scalar(d.i));
      if (base.kind() == TypeKind::Float) return IValue(static_cast<double>(d.i));
      if (base.kind() == TypeKind::List) {
        // int[2] stride=1 means [1, 1].
        return IValue(std::vector<int64_t>(static_cast<size_t>(base.fixedSize().value_or(1)), d.i));
      }
      return IValue(d.i);
    case DefaultValue::Kind::Float:
      return base.kind() == TypeKind::Scalar ? IValue(Scalar(d.d)) : IValue(d.d);
    case DefaultValue::Kind::String:
      return IValue(d.s);
    case DefaultValue::Kind::IntList:
      return IValue(d.ints);
    case DefaultValue::Kind::FloatList:
      return IValue(d.doubles);
    case DefaultValue::Kind::BoolList:
      return IValue(d.bools);
    case DefaultValue::Kind::Enum: {
      const auto v = enumDefaultValue(d.s);
      ST_CHECK(v.has_value(), "unknown default '", d.text, "'");
      switch (base.kind()) {
        case TypeKind::ScalarType:
          return IValue(static_cast<ScalarType>(*v));
        case TypeKind::Layout:
          return IValue(static_cast<torch::headeronly::Layout>(*v));
        case TypeKind::MemoryFormat:
          return IValue(static_cast<torch::headeronly::MemoryFormat>(*v));
        default:
          return IValue(*v);
      }
    }
  }
  ST_ERROR("unsupported default '", d.text, "'");
}

}  // namespace st::cli
