// st::OperatorName: the key of an operator in the dispatcher,
// "ns::name" plus an overload name ("aten::add" + "Tensor" prints as
// "aten::add.Tensor"; an empty overload prints without the dot).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include <st/core/export.h>

namespace st {

struct ST_API OperatorName {
  std::string name;           // "ns::name" (or "name" before a Library adds ns)
  std::string overload_name;  // may be empty

  OperatorName() = default;
  OperatorName(std::string n, std::string overload)
      : name(std::move(n)), overload_name(std::move(overload)) {}

  // Parses "ns::name.overload", "name.overload", "ns::name" or "name".
  // Throws st::Error on an empty name, an empty overload after '.', or
  // characters outside [A-Za-z0-9_] (besides the "::" separator).
  static OperatorName parse(std::string_view text);

  // The namespace ("aten" for "aten::add"), or nullopt when there is none.
  std::optional<std::string_view> getNamespace() const;
  // Prefixes ns:: when the name has no namespace yet; returns true when it
  // did so.
  bool setNamespaceIfNotSet(std::string_view ns);

  std::string toString() const;
};

inline bool operator==(const OperatorName& a, const OperatorName& b) {
  return a.name == b.name && a.overload_name == b.overload_name;
}
inline bool operator!=(const OperatorName& a, const OperatorName& b) { return !(a == b); }

ST_API std::ostream& operator<<(std::ostream& os, const OperatorName& n);

}  // namespace st

template <>
struct std::hash<st::OperatorName> {
  size_t operator()(const st::OperatorName& n) const noexcept {
    size_t h = std::hash<std::string>()(n.name);
    return h ^ (std::hash<std::string>()(n.overload_name) + 0x9e3779b97f4a7c15ULL + (h << 6) +
                (h >> 2));
  }
};
