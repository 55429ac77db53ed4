#include <st/dispatch/operator_name.h>

#include <st/core/error.h>

namespace st {
namespace {

bool is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

void check_ident(std::string_view part, std::string_view what, std::string_view whole) {
  ST_CHECK(!part.empty(), "OperatorName: empty ", what, " in '", whole, "'");
  for (char c : part) {
    ST_CHECK(is_ident_char(c), "OperatorName: invalid character '", c, "' in ", what, " of '",
             whole, "'");
  }
}

}  // namespace

OperatorName OperatorName::parse(std::string_view text) {
  std::string_view rest = text;
  std::string_view ns;
  size_t sep = rest.find("::");
  if (sep != std::string_view::npos) {
    ns = rest.substr(0, sep);
    check_ident(ns, "namespace", text);
    rest = rest.substr(sep + 2);
  }
  std::string_view overload;
  size_t dot = rest.find('.');
  if (dot != std::string_view::npos) {
    overload = rest.substr(dot + 1);
    rest = rest.substr(0, dot);
    check_ident(overload, "overload name", text);
  }
  check_ident(rest, "operator name", text);
  std::string full = sep == std::string_view::npos ? std::string(rest)
                                                   : std::string(ns) + "::" + std::string(rest);
  return OperatorName(std::move(full), std::string(overload));
}

std::optional<std::string_view> OperatorName::getNamespace() const {
  // A plain loop: registration asks this for every def and impl.
  const char* p = name.data();
  for (size_t i = 0, n = name.size(); i + 1 < n; ++i) {
    if (p[i] == ':' && p[i + 1] == ':') return std::string_view(p, i);
  }
  return std::nullopt;
}

bool OperatorName::setNamespaceIfNotSet(std::string_view ns) {
  if (getNamespace().has_value()) return false;
  std::string full;
  full.reserve(ns.size() + 2 + name.size());
  full.append(ns).append("::").append(name);
  name = std::move(full);
  return true;
}

std::string OperatorName::toString() const {
  if (overload_name.empty()) return name;
  return name + "." + overload_name;
}

std::ostream& operator<<(std::ostream& os, const OperatorName& n) {
  os << n.name;
  if (!n.overload_name.empty()) os << '.' << n.overload_name;
  return os;
}

}  // namespace st
