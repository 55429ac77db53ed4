// Prints the dtype vocabulary of torch/headeronly: each dtype's name, c10
// ordinal, element size and category, then the type-promotion matrix of the
// dtypes that take part in promotion. Exit code 0 on success.
#include <stabletorch/version.h>
#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/version.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using torch::headeronly::ScalarType;
namespace tho = torch::headeronly;

std::string category(ScalarType t) {
  if (t == ScalarType::Bool) return "bool";
  if (tho::isComplexType(t)) return "complex";
  if (tho::isFloatingType(t)) return "floating";
  if (tho::isIntegralType(t, false)) return "integral";
  if (tho::isQIntType(t)) return "quantized";
  if (tho::isBitsType(t)) return "bits";
  return "storage-only";
}

// Short spelling for the promotion matrix, PyTorch's Python names.
const char* short_name(ScalarType t) {
  switch (t) {
    case ScalarType::Byte:
      return "u8";
    case ScalarType::Char:
      return "i8";
    case ScalarType::Short:
      return "i16";
    case ScalarType::Int:
      return "i32";
    case ScalarType::Long:
      return "i64";
    case ScalarType::Half:
      return "f16";
    case ScalarType::Float:
      return "f32";
    case ScalarType::Double:
      return "f64";
    case ScalarType::ComplexHalf:
      return "c32";
    case ScalarType::ComplexFloat:
      return "c64";
    case ScalarType::ComplexDouble:
      return "c128";
    case ScalarType::Bool:
      return "b8";
    case ScalarType::BFloat16:
      return "bf16";
    case ScalarType::UInt16:
      return "u16";
    case ScalarType::UInt32:
      return "u32";
    case ScalarType::UInt64:
      return "u64";
    default:
      return tho::toString(t);
  }
}

int print_tables();

}  // namespace

int main() {
  try {
    return print_tables();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "stabletorch-dtypes: %s\n", e.what());
    return 1;
  }
}

namespace {
int print_tables() {
  std::printf("stabletorch %s — header-only dtype table (stable-ABI level %s)\n\n",
              STABLETORCH_VERSION_STRING, TORCH_VERSION);
  std::printf("%-18s %7s %5s  %s\n", "dtype", "ordinal", "bytes", "category");
  for (int i = 0; i < static_cast<int>(ScalarType::Undefined); ++i) {
    const auto t = static_cast<ScalarType>(i);
    std::printf("%-18s %7d %5zu  %s\n", tho::toString(t), i, tho::elementSize(t),
                category(t).c_str());
  }

  const std::vector<ScalarType> promotable = {
      ScalarType::Bool,         ScalarType::Byte,        ScalarType::Char,
      ScalarType::Short,        ScalarType::Int,         ScalarType::Long,
      ScalarType::UInt16,       ScalarType::UInt32,      ScalarType::UInt64,
      ScalarType::Half,         ScalarType::BFloat16,    ScalarType::Float,
      ScalarType::Double,       ScalarType::ComplexHalf, ScalarType::ComplexFloat,
      ScalarType::ComplexDouble};
  std::printf("\npromote_types(row, column)   ('-' = PyTorch refuses the pair)\n%6s", "");
  for (ScalarType b : promotable) std::printf("%6s", short_name(b));
  std::printf("\n");
  for (ScalarType a : promotable) {
    std::printf("%6s", short_name(a));
    for (ScalarType b : promotable) {
      try {
        std::printf("%6s", short_name(tho::promoteTypes(a, b)));
      } catch (const std::runtime_error&) {
        std::printf("%6s", "-");
      }
    }
    std::printf("\n");
  }
  return 0;
}
}  // namespace
