// Tensor printing. Two passes over the elements that will be shown (all of
// them, or the edges when summarising): the first picks one number format
// for the whole tensor (integer-valued, fixed or scientific, as PyTorch),
// the second lays the elements out with that width.
#include <st/core/tensor_print.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <vector>

#include <torch/headeronly/core/ScalarType.h>

namespace st {
namespace {

using torch::headeronly::ScalarTypeToCPPTypeT;

enum class Kind { Bool, Signed, Unsigned, Floating, Complex, Opaque };

Kind kind_of(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
      return Kind::Bool;
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long:
      return Kind::Signed;
    case ScalarType::Byte:
    case ScalarType::UInt16:
    case ScalarType::UInt32:
    case ScalarType::UInt64:
      return Kind::Unsigned;
    case ScalarType::Half:
    case ScalarType::Float:
    case ScalarType::Double:
    case ScalarType::BFloat16:
    case ScalarType::Float8_e5m2:
    case ScalarType::Float8_e4m3fn:
    case ScalarType::Float8_e5m2fnuz:
    case ScalarType::Float8_e4m3fnuz:
    case ScalarType::Float8_e8m0fnu:
      return Kind::Floating;
    case ScalarType::ComplexHalf:
    case ScalarType::ComplexFloat:
    case ScalarType::ComplexDouble:
      return Kind::Complex;
    default:
      return Kind::Opaque;
  }
}

template <typename T>
T load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// One element, widened.
struct Value {
  double re = 0;
  double im = 0;
  int64_t i = 0;
  uint64_t u = 0;
};

Value read(const char* p, ScalarType t) {
  Value v;
  switch (t) {
    case ScalarType::Bool:
      v.i = load<bool>(p) ? 1 : 0;
      break;
    case ScalarType::Char:
      v.i = load<int8_t>(p);
      break;
    case ScalarType::Short:
      v.i = load<int16_t>(p);
      break;
    case ScalarType::Int:
      v.i = load<int32_t>(p);
      break;
    case ScalarType::Long:
      v.i = load<int64_t>(p);
      break;
    case ScalarType::Byte:
      v.u = load<uint8_t>(p);
      break;
    case ScalarType::UInt16:
      v.u = load<uint16_t>(p);
      break;
    case ScalarType::UInt32:
      v.u = load<uint32_t>(p);
      break;
    case ScalarType::UInt64:
      v.u = load<uint64_t>(p);
      break;
    case ScalarType::Float:
      v.re = load<float>(p);
      break;
    case ScalarType::Double:
      v.re = load<double>(p);
      break;
#define ST_PRINT_VIA_FLOAT_(name)                                               \
  case ScalarType::name:                                                        \
    v.re = static_cast<float>(load<ScalarTypeToCPPTypeT<ScalarType::name>>(p)); \
    break;
      ST_PRINT_VIA_FLOAT_(Half)
      ST_PRINT_VIA_FLOAT_(BFloat16)
      ST_PRINT_VIA_FLOAT_(Float8_e5m2)
      ST_PRINT_VIA_FLOAT_(Float8_e4m3fn)
      ST_PRINT_VIA_FLOAT_(Float8_e5m2fnuz)
      ST_PRINT_VIA_FLOAT_(Float8_e4m3fnuz)
      ST_PRINT_VIA_FLOAT_(Float8_e8m0fnu)
#undef ST_PRINT_VIA_FLOAT_
    case ScalarType::ComplexHalf: {
      using H = ScalarTypeToCPPTypeT<ScalarType::Half>;
      v.re = static_cast<float>(load<H>(p));
      v.im = static_cast<float>(load<H>(p + sizeof(H)));
      break;
    }
    case ScalarType::ComplexFloat:
      v.re = load<float>(p);
      v.im = load<float>(p + sizeof(float));
      break;
    case ScalarType::ComplexDouble:
      v.re = load<double>(p);
      v.im = load<double>(p + sizeof(double));
      break;
    default:
      break;
  }
  return v;
}

// Formats floating values in one style chosen from all shown values.
class FloatFormat {
 public:
  FloatFormat(const std::vector<double>& values, int precision) : precision_(precision) {
    double lo = 0, hi = 0;
    bool any = false;
    for (double v : values) {
      if (!std::isfinite(v) || v == 0) {
        continue;
      }
      const double a = std::fabs(v);
      lo = any ? std::min(lo, a) : a;
      hi = any ? std::max(hi, a) : a;
      any = true;
      if (v != std::ceil(v)) {
        int_mode_ = false;
      }
    }
    if (any) {
      if (int_mode_) {
        sci_ = hi / lo > 1000.0 || hi > 1e8;
      } else {
        sci_ = hi / lo > 1000.0 || hi > 1e8 || lo < 1e-4;
      }
    }
  }

  std::string operator()(double v) const {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    if (sci_) {
      std::snprintf(buf, sizeof(buf), "%.*e", precision_, v);
    } else if (int_mode_) {
      std::snprintf(buf, sizeof(buf), "%.0f.", v);
    } else {
      std::snprintf(buf, sizeof(buf), "%.*f", precision_, v);
    }
    return buf;
  }

 private:
  int precision_;
  bool int_mode_ = true;
  bool sci_ = false;
};

struct Printer {
  const Tensor& t;
  const PrintOptions& opt;
  Kind kind;
  bool summarize;
  std::vector<std::string> cells;  // formatted shown elements, in order
  size_t next_cell = 0;
  size_t width = 1;

  // Indices shown along a dim of `size` (-1 marks the "..." gap).
  std::vector<int64_t> shown(int64_t size) const {
    std::vector<int64_t> idx;
    if (summarize && size > 2 * opt.edgeitems) {
      for (int64_t i = 0; i < opt.edgeitems; ++i) idx.push_back(i);
      idx.push_back(-1);
      for (int64_t i = size - opt.edgeitems; i < size; ++i) idx.push_back(i);
    } else {
      for (int64_t i = 0; i < size; ++i) idx.push_back(i);
    }
    return idx;
  }

  void collect(const char* p, int64_t d, std::vector<Value>& out) const {
    if (d == t.dim()) {
      out.push_back(read(p, t.scalar_type()));
      return;
    }
    const int64_t step = t.stride(d) * t.element_size();
    for (int64_t i : shown(t.size(d))) {
      if (i >= 0) collect(p + i * step, d + 1, out);
    }
  }

  void format_all() {
    std::vector<Value> values;
    collect(static_cast<const char*>(t.const_data_ptr()), 0, values);
    switch (kind) {
      case Kind::Bool:
        for (const Value& v : values) cells.push_back(v.i ? "True" : "False");
        break;
      case Kind::Signed:
        for (const Value& v : values) cells.push_back(std::to_string(v.i));
        break;
      case Kind::Unsigned:
        for (const Value& v : values) cells.push_back(std::to_string(v.u));
        break;
      case Kind::Floating: {
        std::vector<double> re;
        for (const Value& v : values) re.push_back(v.re);
        FloatFormat f(re, opt.precision);
        for (double v : re) cells.push_back(f(v));
        break;
      }
      case Kind::Complex: {
        std::vector<double> re, im;
        for (const Value& v : values) {
          re.push_back(v.re);
          im.push_back(std::fabs(v.im));
        }
        FloatFormat fr(re, opt.precision), fi(im, opt.precision);
        for (const Value& v : values) {
          cells.push_back(fr(v.re) + (std::signbit(v.im) ? "-" : "+") + fi(std::fabs(v.im)) + "j");
        }
        break;
      }
      case Kind::Opaque:
        break;
    }
    for (const auto& c : cells) width = std::max(width, c.size());
  }

  std::string cell() {
    std::string c = cells[next_cell++];
    return std::string(width - c.size(), ' ') + c;
  }

  std::string render(int64_t d, int64_t indent) {
    if (t.dim() == 0) {
      return cell();
    }
    const std::vector<int64_t> idx = shown(t.size(d));
    std::vector<std::string> parts;
    if (d == t.dim() - 1) {
      // PyTorch marks the gap in a row as " ..." (one space wider).
      for (int64_t i : idx) parts.push_back(i < 0 ? " ..." : cell());
      const int64_t per_line =
          std::max<int64_t>(1, (opt.linewidth - indent) / static_cast<int64_t>(width + 2));
      std::string out = "[";
      for (size_t k = 0; k < parts.size(); ++k) {
        if (k > 0) {
          out += static_cast<int64_t>(k) % per_line == 0
                     ? ",\n" + std::string(static_cast<size_t>(indent + 1), ' ')
                     : ", ";
        }
        out += parts[k];
      }
      return out + "]";
    }
    for (int64_t i : idx) {
      parts.push_back(i < 0 ? "..." : render(d + 1, indent + 1));
    }
    const std::string sep = "," + std::string(static_cast<size_t>(t.dim() - d - 1), '\n') +
                            std::string(static_cast<size_t>(indent + 1), ' ');
    std::string out = "[";
    for (size_t k = 0; k < parts.size(); ++k) {
      if (k > 0) out += sep;
      out += parts[k];
    }
    return out + "]";
  }
};

std::string size_tuple(IntArrayRef sizes) {
  std::ostringstream os;
  os << "(";
  for (size_t i = 0; i < sizes.size(); ++i) {
    os << (i ? ", " : "") << sizes[i];
  }
  if (sizes.size() == 1) os << ",";
  os << ")";
  return os.str();
}

bool is_default_dtype(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Long || t == ScalarType::Bool ||
         t == ScalarType::ComplexFloat;
}

}  // namespace

std::string dtype_python_name(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
      return "stabletorch.uint8";
    case ScalarType::Char:
      return "stabletorch.int8";
    case ScalarType::Short:
      return "stabletorch.int16";
    case ScalarType::Int:
      return "stabletorch.int32";
    case ScalarType::Long:
      return "stabletorch.int64";
    case ScalarType::Half:
      return "stabletorch.float16";
    case ScalarType::Float:
      return "stabletorch.float32";
    case ScalarType::Double:
      return "stabletorch.float64";
    case ScalarType::ComplexHalf:
      return "stabletorch.complex32";
    case ScalarType::ComplexFloat:
      return "stabletorch.complex64";
    case ScalarType::ComplexDouble:
      return "stabletorch.complex128";
    case ScalarType::Bool:
      return "stabletorch.bool";
    case ScalarType::BFloat16:
      return "stabletorch.bfloat16";
    case ScalarType::UInt16:
      return "stabletorch.uint16";
    case ScalarType::UInt32:
      return "stabletorch.uint32";
    case ScalarType::UInt64:
      return "stabletorch.uint64";
    case ScalarType::Float8_e5m2:
      return "stabletorch.float8_e5m2";
    case ScalarType::Float8_e4m3fn:
      return "stabletorch.float8_e4m3fn";
    case ScalarType::Float8_e5m2fnuz:
      return "stabletorch.float8_e5m2fnuz";
    case ScalarType::Float8_e4m3fnuz:
      return "stabletorch.float8_e4m3fnuz";
    case ScalarType::Float8_e8m0fnu:
      return "stabletorch.float8_e8m0fnu";
    case ScalarType::Float4_e2m1fn_x2:
      return "stabletorch.float4_e2m1fn_x2";
    default:
      return std::string("stabletorch.") + torch::headeronly::toString(t);
  }
}

void print(std::ostream& os, const Tensor& t, const PrintOptions& opt) {
  if (!t.defined()) {
    os << "[ Tensor (undefined) ]";
    return;
  }
  const char* prefix = "tensor(";
  const int64_t indent = 7;
  std::vector<std::string> suffixes;
  std::string body;
  const Kind kind = kind_of(t.scalar_type());
  if (!t.is_cpu() || kind == Kind::Opaque || t.const_data_ptr() == nullptr) {
    if (t.numel() == 0) {
      body = "[]";
    } else {
      body = "...";
    }
    if (!(t.dim() == 1 && t.numel() == 0)) {
      suffixes.push_back("size=" + size_tuple(t.sizes()));
    }
  } else if (t.numel() == 0) {
    body = "[]";
    if (t.dim() != 1) {
      suffixes.push_back("size=" + size_tuple(t.sizes()));
    }
  } else {
    Printer p{t, opt, kind, t.numel() > opt.threshold, {}, 0, 1};
    p.format_all();
    body = p.render(0, indent);
  }
  if (!t.is_cpu()) {
    suffixes.insert(suffixes.begin(), "device='" + t.device().str() + "'");
  }
  if (!is_default_dtype(t.scalar_type())) {
    suffixes.push_back("dtype=" + dtype_python_name(t.scalar_type()));
  }
  os << prefix << body;
  for (const auto& s : suffixes) {
    os << ", " << s;
  }
  os << ")";
}

std::string to_string(const Tensor& t, const PrintOptions& opt) {
  std::ostringstream os;
  print(os, t, opt);
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) {
  print(os, t);
  return os;
}

}  // namespace st
