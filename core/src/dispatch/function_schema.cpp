#include <st/dispatch/function_schema.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include <st/core/error.h>

namespace st {

// ---------------------------------------------------------------------------
// Printing and comparison
// ---------------------------------------------------------------------------

namespace {

void join_sets(std::ostringstream& os, const std::vector<std::string>& sets) {
  for (size_t i = 0; i < sets.size(); ++i) {
    if (i) os << '|';
    os << sets[i];
  }
}

}  // namespace

std::string AliasInfo::toString() const {
  if (before_sets.empty() && after_sets.empty()) return is_write ? "!" : "";
  std::ostringstream os;
  os << '(';
  join_sets(os, before_sets);
  if (is_write) os << '!';
  if (!after_sets.empty()) {
    os << " -> ";
    join_sets(os, after_sets);
  }
  os << ')';
  return os.str();
}

bool operator==(const AliasInfo& a, const AliasInfo& b) {
  return a.before_sets == b.before_sets && a.after_sets == b.after_sets && a.is_write == b.is_write;
}

const char* toString(TypeKind k) {
  switch (k) {
    case TypeKind::Tensor:
      return "Tensor";
    case TypeKind::Int:
      return "int";
    case TypeKind::SymInt:
      return "SymInt";
    case TypeKind::Float:
      return "float";
    case TypeKind::Bool:
      return "bool";
    case TypeKind::Str:
      return "str";
    case TypeKind::Scalar:
      return "Scalar";
    case TypeKind::ScalarType:
      return "ScalarType";
    case TypeKind::Layout:
      return "Layout";
    case TypeKind::MemoryFormat:
      return "MemoryFormat";
    case TypeKind::Device:
      return "Device";
    case TypeKind::Generator:
      return "Generator";
    case TypeKind::Stream:
      return "Stream";
    case TypeKind::Storage:
      return "Storage";
    case TypeKind::List:
      return "List";
    case TypeKind::Optional:
      return "Optional";
  }
  return "?";
}

SchemaType SchemaType::list(SchemaType elem, std::optional<int64_t> size) {
  SchemaType t(TypeKind::List);
  t.elem_ = std::make_shared<const SchemaType>(std::move(elem));
  t.size_ = size;
  return t;
}

SchemaType SchemaType::optional(SchemaType elem) {
  SchemaType t(TypeKind::Optional);
  t.elem_ = std::make_shared<const SchemaType>(std::move(elem));
  return t;
}

const AliasInfo* SchemaType::anyAliasInfo() const {
  if (alias_) return &*alias_;
  return elem_ ? elem_->anyAliasInfo() : nullptr;
}

bool SchemaType::isTensorLike() const { return baseKind() == TypeKind::Tensor; }

TypeKind SchemaType::baseKind() const { return elem_ ? elem_->baseKind() : kind_; }

std::string SchemaType::toString() const {
  std::string out;
  switch (kind_) {
    case TypeKind::List:
      out = elem_->toString() + "[" + (size_ ? std::to_string(*size_) : "") + "]";
      break;
    case TypeKind::Optional:
      out = elem_->toString() + "?";
      break;
    default:
      out = st::toString(kind_);
  }
  if (alias_) out += alias_->toString();
  return out;
}

bool operator==(const SchemaType& a, const SchemaType& b) {
  if (a.kind_ != b.kind_ || a.size_ != b.size_ || a.alias_ != b.alias_) return false;
  if (a.elem_ && b.elem_) return *a.elem_ == *b.elem_;
  return !a.elem_ && !b.elem_;
}

bool SchemaType::equivalentForKernel(const SchemaType& o) const {
  auto norm = [](TypeKind k) { return k == TypeKind::SymInt ? TypeKind::Int : k; };
  if (norm(kind_) != norm(o.kind_)) return false;
  if (elem_ && o.elem_) return elem_->equivalentForKernel(*o.elem_);
  return !elem_ && !o.elem_;
}

bool operator==(const DefaultValue& a, const DefaultValue& b) {
  return a.kind == b.kind && a.text == b.text;
}

std::optional<int64_t> enumDefaultValue(std::string_view id) {
  // ScalarType names as written in schemas (torch.long etc.), the memory
  // formats, the layouts and the reduction enum of the loss functions.
  struct Entry {
    const char* name;
    int64_t value;
  };
  static const Entry table[] = {
      {"uint8", 0},
      {"int8", 1},
      {"int16", 2},
      {"short", 2},
      {"int32", 3},
      {"int", 3},
      {"int64", 4},
      {"long", 4},
      {"float16", 5},
      {"half", 5},
      {"float32", 6},
      {"float", 6},
      {"float64", 7},
      {"double", 7},
      {"complex64", 9},
      {"complex128", 10},
      {"bool", 11},
      {"bfloat16", 15},
      {"contiguous_format", 0},
      {"preserve_format", 1},
      {"channels_last", 2},
      {"channels_last_3d", 3},
      {"strided", 0},
      {"sparse_coo", 1},
      {"Mean", 1},
      {"Sum", 2},
      {"None_", 0},
  };
  for (const Entry& e : table) {
    if (id == e.name) return e.value;
  }
  return std::nullopt;
}

bool Argument::isOut() const {
  const AliasInfo* a = type.anyAliasInfo();
  return kwarg_only && a && a->is_write;
}

std::string Argument::toString() const {
  std::string out = type.toString();
  if (!name.empty()) out += " " + name;
  if (default_value) out += "=" + default_value->text;
  return out;
}

bool operator==(const Argument& a, const Argument& b) {
  return a.name == b.name && a.type == b.type && a.kwarg_only == b.kwarg_only &&
         a.default_value == b.default_value;
}

FunctionSchema::FunctionSchema(OperatorName name, std::vector<Argument> arguments,
                               std::vector<Argument> returns, bool is_vararg, bool is_varret)
    : name_(std::move(name)),
      arguments_(std::move(arguments)),
      returns_(std::move(returns)),
      is_vararg_(is_vararg),
      is_varret_(is_varret) {}

std::optional<size_t> FunctionSchema::argumentIndexWithName(std::string_view n) const {
  for (size_t i = 0; i < arguments_.size(); ++i) {
    if (arguments_[i].name == n) return i;
  }
  return std::nullopt;
}

bool FunctionSchema::isMutable() const {
  for (const Argument& a : arguments_) {
    const AliasInfo* info = a.type.anyAliasInfo();
    if (info && info->is_write) return true;
  }
  return false;
}

std::string FunctionSchema::signatureString() const {
  std::ostringstream os;
  os << '(';
  bool seen_kwarg = false;
  for (size_t i = 0; i < arguments_.size(); ++i) {
    if (i) os << ", ";
    if (arguments_[i].kwarg_only && !seen_kwarg) {
      os << "*, ";
      seen_kwarg = true;
    }
    os << arguments_[i].toString();
  }
  if (is_vararg_) os << (arguments_.empty() ? "..." : ", ...");
  os << ") -> ";
  bool named = false;
  for (const Argument& r : returns_) named = named || !r.name.empty();
  if (is_varret_) {
    os << "...";
  } else if (returns_.size() == 1 && !named) {
    os << returns_[0].toString();
  } else {
    os << '(';
    for (size_t i = 0; i < returns_.size(); ++i) {
      if (i) os << ", ";
      os << returns_[i].toString();
    }
    os << ')';
  }
  return os.str();
}

std::string FunctionSchema::toString() const { return name_.toString() + signatureString(); }

bool operator==(const FunctionSchema& a, const FunctionSchema& b) {
  return a.operatorName() == b.operatorName() && a.arguments() == b.arguments() &&
         a.returns() == b.returns() && a.isVararg() == b.isVararg() && a.isVarret() == b.isVarret();
}

std::ostream& operator<<(std::ostream& os, const FunctionSchema& s) { return os << s.toString(); }

// ---------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------

namespace {

// Note [Schema parser]
// A hand-written recursive-descent parser over the raw characters (no
// separate token stream), so every error knows its exact column. Grammar:
//   schema   := opname '(' args ')' '->' returns
//   opname   := ident ('::' ident)? ('.' ident)?
//   args     := [ arg (',' arg)* ]       arg := '*' | '...' | type ident ['=' default]
//   type     := base [alias] ( '[' [int] ']' [alias] | '?' )*
//   alias    := '!' | '(' sets ['!'] ['->' sets] ')'     sets := set ('|' set)*
//   returns  := '...' | '(' [ret (',' ret)*] ')' | ret    ret := type [ident]
// Default values keep their source text so toString() prints them verbatim.
class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  FunctionSchema parseSchema() {
    OperatorName name = parseOperatorName();
    std::vector<Argument> args;
    std::vector<Argument> rets;
    bool vararg = false;
    bool varret = false;
    parseArguments(args, vararg);
    skipWs();
    expectLiteral("->", "'->' before the returns");
    parseReturns(rets, varret);
    skipWs();
    if (pos_ != s_.size()) fail("end of schema");
    return FunctionSchema(std::move(name), std::move(args), std::move(rets), vararg, varret);
  }

  SchemaOrName parseSchemaOrName() {
    size_t save = pos_;
    OperatorName name = parseOperatorName();
    skipWs();
    if (pos_ == s_.size()) return SchemaOrName{std::nullopt, std::move(name)};
    pos_ = save;
    FunctionSchema schema = parseSchema();
    OperatorName n = schema.operatorName();
    return SchemaOrName{std::move(schema), std::move(n)};
  }

 private:
  [[noreturn]] void fail(std::string_view expected) const {
    std::string found;
    if (pos_ >= s_.size()) {
      found = "end of input";
    } else {
      size_t end = pos_;
      if (isIdentChar(s_[end])) {
        while (end < s_.size() && isIdentChar(s_[end])) ++end;
      } else {
        ++end;
      }
      found = "'" + std::string(s_.substr(pos_, end - pos_)) + "'";
    }
    failMsg(std::string("expected ") + std::string(expected) + " but found " + found);
  }

  [[noreturn]] void failMsg(const std::string& what) const { failAt(pos_, what); }

  [[noreturn]] void failAt(size_t pos, const std::string& what) const {
    ST_ERROR("schema parse error at column ", pos + 1, ": ", what, "\n  ", s_, "\n  ",
             std::string(pos, ' '), "^");
  }

  static bool isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }
  static bool isIdentChar(char c) { return isIdentStart(c) || (c >= '0' && c <= '9'); }
  static bool isDigit(char c) { return c >= '0' && c <= '9'; }

  void skipWs() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }
  bool peek(char c) {
    skipWs();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  bool peekLiteral(std::string_view lit) {
    skipWs();
    // First character first: most probes ("...", "->") fail on it.
    return pos_ < s_.size() && s_[pos_] == lit[0] && s_.substr(pos_, lit.size()) == lit;
  }
  bool accept(char c) {
    if (!peek(c)) return false;
    ++pos_;
    return true;
  }
  bool acceptLiteral(std::string_view lit) {
    if (!peekLiteral(lit)) return false;
    pos_ += lit.size();
    return true;
  }
  void expect(char c, std::string_view what) {
    if (!accept(c)) fail(what);
  }
  void expectLiteral(std::string_view lit, std::string_view what) {
    if (!acceptLiteral(lit)) fail(what);
  }

  std::string_view parseIdentView(std::string_view what) {
    skipWs();
    if (pos_ >= s_.size() || !isIdentStart(s_[pos_])) fail(what);
    size_t start = pos_;
    while (pos_ < s_.size() && isIdentChar(s_[pos_])) ++pos_;
    return s_.substr(start, pos_ - start);
  }
  std::string parseIdent(std::string_view what) { return std::string(parseIdentView(what)); }

  // Overload names may start with a digit in principle; accept [A-Za-z0-9_]+.
  std::string parseOverload() {
    if (pos_ >= s_.size() || !isIdentChar(s_[pos_])) fail("an overload name after '.'");
    size_t start = pos_;
    while (pos_ < s_.size() && isIdentChar(s_[pos_])) ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }

  OperatorName parseOperatorName() {
    // "ns::name" is contiguous in the text: one string, no concatenation.
    std::string_view first = parseIdentView("an operator name");
    const char* start = first.data();
    if (pos_ < s_.size() && s_[pos_] == ':') {
      if (s_.substr(pos_, 2) != "::") fail("'::' after the namespace");
      pos_ += 2;
      (void)parseIdentView("an operator name after '::'");
    }
    std::string name(start, static_cast<size_t>(s_.data() + pos_ - start));
    std::string overload;
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      overload = parseOverload();
    }
    return OperatorName(std::move(name), std::move(overload));
  }

  // How many arguments the list starting at pos_ (just after '(') seems to
  // have: top-level commas + 1, skipping brackets and quoted strings. Only
  // a capacity hint (an Argument is large: growing the vector moves them
  // all); the real parse checks the syntax.
  size_t countArgumentsHint() const {
    // One table load per character (an if-chain over the six interesting
    // characters cost more than the rest of the parse of an argument).
    enum : uint8_t { kOther, kOpen, kClose, kCloseParen, kComma, kQuote };
    static constexpr std::array<uint8_t, 256> kClass = [] {
      std::array<uint8_t, 256> t{};
      t['('] = kOpen;
      t['['] = kOpen;
      t[']'] = kClose;
      t[')'] = kCloseParen;
      t[','] = kComma;
      t['\''] = kQuote;
      t['"'] = kQuote;
      return t;
    }();
    size_t n = 1;
    int depth = 0;
    for (size_t i = pos_; i < s_.size(); ++i) {
      const char c = s_[i];
      switch (kClass[static_cast<unsigned char>(c)]) {
        case kOther:
          break;
        case kOpen:
          ++depth;
          break;
        case kClose:
          --depth;
          break;
        case kCloseParen:
          if (depth-- == 0) return std::min<size_t>(n, 64);
          break;
        case kComma:
          n += depth == 0;
          break;
        case kQuote:
          for (++i; i < s_.size() && s_[i] != c; ++i) {
            if (s_[i] == '\\') ++i;
          }
          break;
      }
    }
    return std::min<size_t>(n, 64);
  }

  void parseArguments(std::vector<Argument>& args, bool& vararg) {
    expect('(', "'(' after the operator name");
    args.reserve(countArgumentsHint());
    bool kwarg_only = false;
    if (accept(')')) return;
    while (true) {
      if (vararg) fail("')' after '...'");
      skipWs();
      if (acceptLiteral("...")) {
        vararg = true;
      } else if (accept('*')) {
        if (kwarg_only) failAt(pos_ - 1, "'*' may appear only once");
        kwarg_only = true;
      } else {
        // Parsed in place: an Argument is large, and moving it costs more
        // than parsing it (registration parses every operator's schema).
        Argument& a = args.emplace_back();
        parseArgument(a, /*is_return=*/false);
        a.kwarg_only = kwarg_only;
        for (size_t i = 0; i + 1 < args.size(); ++i) {
          if (args[i].name == a.name) failMsg("duplicate argument name '" + a.name + "'");
        }
      }
      if (accept(')')) break;
      expect(',', "',' or ')' after an argument");
    }
  }

  void parseReturns(std::vector<Argument>& rets, bool& varret) {
    skipWs();
    if (acceptLiteral("...")) {
      varret = true;
      return;
    }
    if (accept('(')) {
      if (accept(')')) return;
      rets.reserve(4);
      while (true) {
        parseArgument(rets.emplace_back(), /*is_return=*/true);
        if (accept(')')) break;
        expect(',', "',' or ')' after a return");
      }
      return;
    }
    rets.reserve(1);
    parseArgument(rets.emplace_back(), /*is_return=*/true);
  }

  // Fills a default-constructed Argument.
  void parseArgument(Argument& a, bool is_return) {
    a.type = parseType();
    skipWs();
    if (is_return) {
      if (pos_ < s_.size() && isIdentStart(s_[pos_])) a.name = parseIdent("a name");
      return;
    }
    // The message names the type; build it only when the name is missing
    // (parsing registers every operator at start-up, so keep it cheap).
    if (pos_ >= s_.size() || !isIdentStart(s_[pos_])) {
      fail("an argument name after the type " + a.type.toString());
    }
    a.name = parseIdent("an argument name");
    if (accept('=')) parseDefault(a.type, a.default_value.emplace());
  }

  SchemaType parseBaseType() {
    skipWs();
    size_t start = pos_;
    if (pos_ >= s_.size() || !isIdentStart(s_[pos_])) fail("a type");
    const std::string_view id = parseIdentView("a type");
    struct Named {
      std::string_view name;
      TypeKind kind;
    };  // no strlen per compare
    static constexpr Named names[] = {
        {"Tensor", TypeKind::Tensor}, {"int", TypeKind::Int},
        {"SymInt", TypeKind::SymInt}, {"float", TypeKind::Float},
        {"bool", TypeKind::Bool},     {"str", TypeKind::Str},
        {"Scalar", TypeKind::Scalar}, {"ScalarType", TypeKind::ScalarType},
        {"Layout", TypeKind::Layout}, {"MemoryFormat", TypeKind::MemoryFormat},
        {"Device", TypeKind::Device}, {"Generator", TypeKind::Generator},
        {"Stream", TypeKind::Stream}, {"Storage", TypeKind::Storage},
    };
    for (const Named& n : names) {
      if (id == n.name) return SchemaType(n.kind);
    }
    if (id == "Dimname" || id == "DimnameList") {
      failAt(start, "type '" + std::string(id) +
                        "' (named tensors) is not supported by stabletorch; "
                        "declare the overload without Dimname arguments");
    }
    pos_ = start;
    fail(
        "a type (Tensor, int, SymInt, float, bool, str, Scalar, ScalarType, "
        "Layout, MemoryFormat, Device, Generator, Stream, Storage)");
  }

  std::string parseAliasSet() {
    skipWs();
    if (accept('*')) return "*";
    return parseIdent("an alias set name (e.g. 'a') or '*'");
  }

  std::optional<AliasInfo> parseAliasAnnotation() {
    // Called right after a type; no whitespace allowed between type and '('
    // is not required by the grammar, but '(' here always starts an alias.
    if (pos_ < s_.size() && s_[pos_] == '!') {
      ++pos_;
      AliasInfo a;
      a.is_write = true;
      return a;
    }
    if (pos_ < s_.size() && s_[pos_] == '(') {
      ++pos_;
      AliasInfo a;
      a.before_sets.push_back(parseAliasSet());
      while (accept('|')) a.before_sets.push_back(parseAliasSet());
      if (accept('!')) a.is_write = true;
      if (acceptLiteral("->")) {
        a.after_sets.push_back(parseAliasSet());
        while (accept('|')) a.after_sets.push_back(parseAliasSet());
      }
      expect(')', "')' closing the alias annotation (or '!', '|', '->')");
      return a;
    }
    return std::nullopt;
  }

  SchemaType parseType() {
    SchemaType t = parseBaseType();
    if (pos_ < s_.size() && (s_[pos_] == '!' || s_[pos_] == '(')) {
      t.setAliasInfo(parseAliasAnnotation());
    }
    while (pos_ < s_.size()) {
      if (s_[pos_] == '[') {
        ++pos_;
        std::optional<int64_t> size;
        skipWs();
        if (pos_ < s_.size() && isDigit(s_[pos_])) {
          // Bounded before it can overflow (found by tests/fuzz/fuzz_function_schema).
          constexpr int64_t kMaxListSize = 1 << 20;
          const size_t start = pos_;
          int64_t n = 0;
          while (pos_ < s_.size() && isDigit(s_[pos_])) {
            n = n * 10 + (s_[pos_++] - '0');
            if (n > kMaxListSize) failAt(start, "list size too large (at most 1048576)");
          }
          size = n;
        }
        expect(']', "']' or a list size");
        t = SchemaType::list(std::move(t), size);
        if (pos_ < s_.size() && (s_[pos_] == '!' || s_[pos_] == '(')) {
          t.setAliasInfo(parseAliasAnnotation());
        }
      } else if (s_[pos_] == '?') {
        ++pos_;
        if (t.isOptional()) failAt(pos_ - 1, "a single '?' (type is already optional)");
        t = SchemaType::optional(std::move(t));
      } else {
        break;
      }
    }
    return t;
  }

  // One scalar default item; fills d (kind and value), not d.text.
  void parseScalarDefault(DefaultValue& d) {
    skipWs();
    if (pos_ >= s_.size()) fail("a default value");
    char c = s_[pos_];
    if (c == '\'' || c == '"') {
      size_t start = pos_++;
      std::string out;
      while (true) {
        if (pos_ >= s_.size()) failAt(start, "unterminated string default");
        char ch = s_[pos_++];
        if (ch == c) break;
        if (ch == '\\' && pos_ < s_.size()) {
          char e = s_[pos_++];
          out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
        } else {
          out += ch;
        }
      }
      d.kind = DefaultValue::Kind::String;
      d.s = std::move(out);
      return;
    }
    if (isDigit(c) || c == '-' || c == '+' || c == '.') {
      size_t start = pos_;
      if (c == '-' || c == '+') ++pos_;
      if (s_.substr(pos_, 3) == "inf") {
        pos_ += 3;
        d.kind = DefaultValue::Kind::Float;
        d.d = c == '-' ? -HUGE_VAL : HUGE_VAL;
        return;
      }
      bool is_float = false;
      size_t digits = 0;
      while (pos_ < s_.size() && isDigit(s_[pos_])) ++pos_, ++digits;
      if (pos_ < s_.size() && s_[pos_] == '.') {
        is_float = true;
        ++pos_;
        while (pos_ < s_.size() && isDigit(s_[pos_])) ++pos_, ++digits;
      }
      if (digits == 0) {
        pos_ = start;
        fail("a number");
      }
      if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
        is_float = true;
        ++pos_;
        if (pos_ < s_.size() && (s_[pos_] == '-' || s_[pos_] == '+')) ++pos_;
        if (pos_ >= s_.size() || !isDigit(s_[pos_])) fail("exponent digits");
        while (pos_ < s_.size() && isDigit(s_[pos_])) ++pos_;
      }
      if (!is_float && digits <= 18) {  // cannot overflow: no strtoll needed
        int64_t v = 0;
        for (size_t i = start + (c == '-' || c == '+'); i < pos_; ++i) v = v * 10 + (s_[i] - '0');
        d.kind = DefaultValue::Kind::Int;
        d.i = c == '-' ? -v : v;
        return;
      }
      // Out-of-range numbers are errors, never clamped: an int outside
      // int64, and a float whose magnitude overflows double (to inf) or
      // underflows it (ERANGE), as PyTorch's stoll/stod reject them. A
      // default that means infinity is written inf.
      std::string num(s_.substr(start, pos_ - start));
      errno = 0;
      if (is_float) {
        d.kind = DefaultValue::Kind::Float;
        d.d = std::strtod(num.c_str(), nullptr);
        if (errno == ERANGE) {
          failAt(start, "float default " + num +
                            (std::fabs(d.d) > 1.0 ? " overflows double (write inf for infinity)"
                                                  : " underflows double"));
        }
      } else {
        d.kind = DefaultValue::Kind::Int;
        d.i = std::strtoll(num.c_str(), nullptr, 10);
        if (errno == ERANGE) {
          failAt(start, "int default " + num +
                            " is out of range for int64 [-9223372036854775808, "
                            "9223372036854775807]");
        }
      }
      return;
    }
    if (isIdentStart(c)) {
      size_t start = pos_;
      std::string id = parseIdent("a default value");
      if (id == "None") {
        d.kind = DefaultValue::Kind::None;
      } else if (id == "True" || id == "False") {
        d.kind = DefaultValue::Kind::Bool;
        d.b = id == "True";
      } else if (id == "inf" || id == "nan") {
        d.kind = DefaultValue::Kind::Float;
        d.d = id == "inf" ? HUGE_VAL : std::nan("");
      } else if (enumDefaultValue(id)) {
        d.kind = DefaultValue::Kind::Enum;
        d.s = id;
        d.i = *enumDefaultValue(id);
      } else {
        failAt(start,
               "a default value (number, True, False, None, a string, a list, "
               "or a known enum such as contiguous_format or long) but found '" +
                   id + "'");
      }
      return;
    }
    fail("a default value");
  }

  // Fills a default-constructed DefaultValue.
  void parseDefault(const SchemaType& type, DefaultValue& d) {
    skipWs();
    size_t start = pos_;
    if (accept('[')) {
      std::vector<DefaultValue> items;
      if (!accept(']')) {
        while (true) {
          DefaultValue item;
          parseScalarDefault(item);
          items.push_back(std::move(item));
          if (accept(']')) break;
          expect(',', "',' or ']' in a list default");
        }
      }
      // The list's kind comes from the items, or from the declared type.
      TypeKind elem = TypeKind::Int;
      const SchemaType* lt = type.isOptional() ? &type.elem() : &type;
      if (lt->isList()) elem = lt->elem().baseKind();
      bool any_float = false, any_bool = false;
      for (const DefaultValue& it : items) {
        if (it.kind == DefaultValue::Kind::Float)
          any_float = true;
        else if (it.kind == DefaultValue::Kind::Bool)
          any_bool = true;
        else if (it.kind != DefaultValue::Kind::Int)
          failAt(start, "a list of numbers or booleans");
      }
      if (any_bool || (items.empty() && elem == TypeKind::Bool)) {
        d.kind = DefaultValue::Kind::BoolList;
        for (const DefaultValue& it : items) d.bools.push_back(it.b);
      } else if (any_float || (items.empty() && elem == TypeKind::Float)) {
        d.kind = DefaultValue::Kind::FloatList;
        for (const DefaultValue& it : items) {
          d.doubles.push_back(it.kind == DefaultValue::Kind::Float ? it.d
                                                                   : static_cast<double>(it.i));
        }
      } else {
        d.kind = DefaultValue::Kind::IntList;
        for (const DefaultValue& it : items) d.ints.push_back(it.i);
      }
    } else {
      parseScalarDefault(d);
    }
    d.text = std::string(s_.substr(start, pos_ - start));
    if (d.kind == DefaultValue::Kind::None && !type.isOptional()) {
      failAt(start, "default None for non-optional type " + type.toString() + " (write " +
                        type.toString() + "?)");
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

FunctionSchema FunctionSchema::parse(std::string_view text) { return Parser(text).parseSchema(); }

SchemaOrName parseSchemaOrName(std::string_view text) { return Parser(text).parseSchemaOrName(); }

std::string diffKernelSchema(const FunctionSchema& declared, const FunctionSchema& inferred) {
  // Every differing position is listed, so one registration attempt shows
  // the whole fix. The common case (a match) builds no strings.
  const auto& da = declared.arguments();
  const auto& ia = inferred.arguments();
  const auto& dr = declared.returns();
  const auto& ir = inferred.returns();
  // The common case (a match) first, without building anything.
  if (da.size() == ia.size() && dr.size() == ir.size()) {
    bool same = true;
    for (size_t i = 0; same && i < da.size(); ++i)
      same = da[i].type.equivalentForKernel(ia[i].type);
    for (size_t i = 0; same && i < dr.size(); ++i)
      same = dr[i].type.equivalentForKernel(ir[i].type);
    if (same) return std::string();
  }
  std::vector<std::string> mismatches;
  auto note = [&](const auto&... parts) {
    std::ostringstream os;
    (os << ... << parts);
    mismatches.push_back(os.str());
  };
  if (da.size() != ia.size()) {
    note("the schema has ", da.size(), " argument(s) but the kernel takes ", ia.size());
  }
  for (size_t i = 0; i < std::max(da.size(), ia.size()); ++i) {
    if (i >= ia.size()) {
      note("argument ", i, " ('", da[i].name, "') is ", da[i].type.toString(),
           " in the schema but missing in the kernel");
    } else if (i >= da.size()) {
      note("argument ", i, " is ", ia[i].type.toString(),
           " in the kernel but missing in the schema");
    } else if (!da[i].type.equivalentForKernel(ia[i].type)) {
      note("argument ", i, " ('", da[i].name, "') is ", da[i].type.toString(),
           " in the schema but ", ia[i].type.toString(), " in the kernel");
    }
  }
  if (dr.size() != ir.size()) {
    note("the schema returns ", dr.size(), " value(s) but the kernel returns ", ir.size());
  }
  for (size_t i = 0; i < std::max(dr.size(), ir.size()); ++i) {
    if (i >= ir.size()) {
      note("return ", i, " is ", dr[i].type.toString(), " in the schema but missing in the kernel");
    } else if (i >= dr.size()) {
      note("return ", i, " is ", ir[i].type.toString(), " in the kernel but missing in the schema");
    } else if (!dr[i].type.equivalentForKernel(ir[i].type)) {
      note("return ", i, " is ", dr[i].type.toString(), " in the schema but ",
           ir[i].type.toString(), " in the kernel");
    }
  }
  if (mismatches.empty()) return std::string();
  std::ostringstream os;
  os << "the C++ kernel's signature does not match the operator's schema\n"
     << "  schema:   " << declared.toString() << "\n"
     << "  expected: " << declared.signatureString() << "\n"
     << "  kernel:   " << inferred.signatureString();
  for (const std::string& m : mismatches) os << "\n  mismatch: " << m;
  return os.str();
}

}  // namespace st
