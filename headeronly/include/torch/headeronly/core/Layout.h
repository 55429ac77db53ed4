// torch::headeronly::Layout with c10's ordinals (fixed: they cross the ABI).
#pragma once

#include <cstdint>
#include <ostream>

#include <torch/headeronly/util/Exception.h>

namespace torch::headeronly {

enum class Layout : int8_t {
  Strided = 0,
  Sparse = 1,
  SparseCsr = 2,
  Mkldnn = 3,
  SparseCsc = 4,
  SparseBsr = 5,
  SparseBsc = 6,
  Jagged = 7,
  NumOptions = 8,
};

constexpr Layout kStrided = Layout::Strided;
constexpr Layout kSparse = Layout::Sparse;
constexpr Layout kSparseCsr = Layout::SparseCsr;
constexpr Layout kMkldnn = Layout::Mkldnn;
constexpr Layout kSparseCsc = Layout::SparseCsc;
constexpr Layout kSparseBsr = Layout::SparseBsr;
constexpr Layout kSparseBsc = Layout::SparseBsc;
constexpr Layout kJagged = Layout::Jagged;

inline const char* toString(Layout layout) {
  switch (layout) {
    case Layout::Strided:
      return "Strided";
    case Layout::Sparse:
      return "Sparse";
    case Layout::SparseCsr:
      return "SparseCsr";
    case Layout::Mkldnn:
      return "Mkldnn";
    case Layout::SparseCsc:
      return "SparseCsc";
    case Layout::SparseBsr:
      return "SparseBsr";
    case Layout::SparseBsc:
      return "SparseBsc";
    case Layout::Jagged:
      return "Jagged";
    default:
      return "UNKNOWN_LAYOUT";
  }
}

inline std::ostream& operator<<(std::ostream& os, Layout layout) { return os << toString(layout); }

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::kJagged;
using torch::headeronly::kMkldnn;
using torch::headeronly::kSparse;
using torch::headeronly::kSparseBsc;
using torch::headeronly::kSparseBsr;
using torch::headeronly::kSparseCsc;
using torch::headeronly::kSparseCsr;
using torch::headeronly::kStrided;
using torch::headeronly::Layout;
}  // namespace c10
