// st::FunctionSchema: an operator's signature in the schema language of
// native_functions.yaml, e.g.
//   add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)
// parsed, validated and printed back (toString() round-trips).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <st/core/export.h>
#include <st/dispatch/operator_name.h>

namespace st {

// An alias annotation: "(a)", "(a!)", "!", "(a! -> a|b)", "(*)".
// before_sets are the alias sets the value is in on entry; after_sets (only
// with "->") those it is in on exit. is_write is the "!".
struct ST_API AliasInfo {
  std::vector<std::string> before_sets;
  std::vector<std::string> after_sets;
  bool is_write = false;

  // "(a!)", "(a! -> a|b)", or "!" for a bare write marker.
  std::string toString() const;
};
ST_API bool operator==(const AliasInfo& a, const AliasInfo& b);
inline bool operator!=(const AliasInfo& a, const AliasInfo& b) { return !(a == b); }

enum class TypeKind : uint8_t {
  Tensor,
  Int,
  SymInt,
  Float,
  Bool,
  Str,
  Scalar,
  ScalarType,
  Layout,
  MemoryFormat,
  Device,
  Generator,
  Stream,
  Storage,
  List,      // elem[] or elem[N]
  Optional,  // elem?
};

ST_API const char* toString(TypeKind k);

// A schema type: a base type or a List/Optional of another type, with an
// optional alias annotation on any level ("Tensor(a!)[]" puts it on the
// element, "Tensor(a)?" on the Tensor).
class ST_API SchemaType {
 public:
  SchemaType() = default;
  explicit SchemaType(TypeKind kind) : kind_(kind) {}
  static SchemaType list(SchemaType elem, std::optional<int64_t> size = std::nullopt);
  static SchemaType optional(SchemaType elem);

  TypeKind kind() const { return kind_; }
  // Element of a List or Optional; precondition: isList() || isOptional().
  const SchemaType& elem() const { return *elem_; }
  bool isList() const { return kind_ == TypeKind::List; }
  bool isOptional() const { return kind_ == TypeKind::Optional; }
  // For int[2]: 2.
  std::optional<int64_t> fixedSize() const { return size_; }
  const std::optional<AliasInfo>& aliasInfo() const { return alias_; }
  void setAliasInfo(std::optional<AliasInfo> a) { alias_ = std::move(a); }

  // The first alias annotation found walking in from the outside.
  const AliasInfo* anyAliasInfo() const;
  // Tensor, Tensor?, Tensor[], Tensor?[] (the arguments keys come from).
  bool isTensorLike() const;
  // Kind with Optional/List stripped recursively.
  TypeKind baseKind() const;

  std::string toString() const;

  // Structural equality including alias annotations and fixed sizes.
  friend ST_API bool operator==(const SchemaType& a, const SchemaType& b);
  // Equality for kernel-signature checks: ignores alias annotations and
  // fixed list sizes, and treats SymInt as int.
  bool equivalentForKernel(const SchemaType& other) const;

 private:
  TypeKind kind_ = TypeKind::Tensor;
  std::shared_ptr<const SchemaType> elem_;
  std::optional<int64_t> size_;
  std::optional<AliasInfo> alias_;
};
inline bool operator!=(const SchemaType& a, const SchemaType& b) { return !(a == b); }

// A default value as parsed. `text` is exactly what the schema said and is
// what toString() prints; the typed fields hold the decoded value.
struct ST_API DefaultValue {
  enum class Kind : uint8_t {
    None,
    Bool,
    Int,
    Float,
    String,
    IntList,
    FloatList,
    BoolList,
    Enum,
  };
  Kind kind = Kind::None;
  bool b = false;
  int64_t i = 0;
  double d = 0;
  std::string s;  // String: the decoded string; Enum: the identifier
  std::vector<int64_t> ints;
  std::vector<double> doubles;
  std::vector<bool> bools;
  std::string text;
};
ST_API bool operator==(const DefaultValue& a, const DefaultValue& b);

// The value of an identifier default, e.g. contiguous_format ->
// MemoryFormat::Contiguous, long -> ScalarType::Long, strided ->
// Layout::Strided, Mean -> 1 (reduction). nullopt when unknown.
ST_API std::optional<int64_t> enumDefaultValue(std::string_view ident);

// An optional DefaultValue kept out of line. Most arguments have no
// default, and an inline one (two strings, three vectors) made every
// Argument ~340 bytes, which every schema parse built, moved and destroyed.
// Reads like std::optional; copies are deep.
class ST_API OptionalDefault {
 public:
  OptionalDefault() = default;
  OptionalDefault(std::nullopt_t) {}  // NOLINT: implicit, like std::optional's
  OptionalDefault(const OptionalDefault& o)
      : p_(o.p_ ? std::make_unique<DefaultValue>(*o.p_) : nullptr) {}
  OptionalDefault(OptionalDefault&&) noexcept = default;
  OptionalDefault& operator=(const OptionalDefault& o) {
    if (this != &o) p_ = o.p_ ? std::make_unique<DefaultValue>(*o.p_) : nullptr;
    return *this;
  }
  OptionalDefault& operator=(OptionalDefault&&) noexcept = default;

  bool has_value() const { return p_ != nullptr; }
  explicit operator bool() const { return p_ != nullptr; }
  const DefaultValue& operator*() const { return *p_; }
  const DefaultValue* operator->() const { return p_.get(); }
  // A fresh default (replacing any), for the parser to fill in.
  DefaultValue& emplace() {
    p_ = std::make_unique<DefaultValue>();
    return *p_;
  }
  void reset() { p_.reset(); }

  friend bool operator==(const OptionalDefault& a, const OptionalDefault& b) {
    if (!a.p_ || !b.p_) return a.p_ == b.p_;
    return *a.p_ == *b.p_;
  }

 private:
  std::unique_ptr<DefaultValue> p_;
};

struct ST_API Argument {
  std::string name;  // may be empty for returns
  SchemaType type;
  OptionalDefault default_value;
  bool kwarg_only = false;

  // An "out=" argument: kwarg-only and written to.
  bool isOut() const;
  std::string toString() const;  // "Tensor(a!) out", "Scalar alpha=1"
};
ST_API bool operator==(const Argument& a, const Argument& b);
inline bool operator!=(const Argument& a, const Argument& b) { return !(a == b); }

class ST_API FunctionSchema {
 public:
  FunctionSchema() = default;
  FunctionSchema(OperatorName name, std::vector<Argument> arguments, std::vector<Argument> returns,
                 bool is_vararg = false, bool is_varret = false);

  // Parses a full schema "ns::name.overload(args) -> returns". Throws
  // st::Error "schema parse error at column N: expected X but found Y" with
  // the schema and a caret under the column.
  static FunctionSchema parse(std::string_view text);

  const OperatorName& operatorName() const { return name_; }
  const std::string& name() const { return name_.name; }
  const std::string& overloadName() const { return name_.overload_name; }
  const std::vector<Argument>& arguments() const { return arguments_; }
  const std::vector<Argument>& returns() const { return returns_; }
  bool isVararg() const { return is_vararg_; }
  bool isVarret() const { return is_varret_; }

  std::optional<size_t> argumentIndexWithName(std::string_view name) const;
  // True when any argument is written to ("!").
  bool isMutable() const;
  // Adds ns:: to the name when it has none; returns whether it did.
  bool setNamespaceIfNotSet(std::string_view ns) { return name_.setNamespaceIfNotSet(ns); }

  std::string toString() const;
  // "(Tensor self, int dim) -> Tensor": the signature without the name.
  std::string signatureString() const;

 private:
  OperatorName name_;
  std::vector<Argument> arguments_;
  std::vector<Argument> returns_;
  bool is_vararg_ = false;
  bool is_varret_ = false;
};

ST_API bool operator==(const FunctionSchema& a, const FunctionSchema& b);
inline bool operator!=(const FunctionSchema& a, const FunctionSchema& b) { return !(a == b); }
ST_API std::ostream& operator<<(std::ostream& os, const FunctionSchema& s);

// Either a full schema, or just "ns::name.overload" (def() with an inferred
// schema accepts the latter). Throws on a malformed string.
struct ST_API SchemaOrName {
  std::optional<FunctionSchema> schema;
  OperatorName name;
};
ST_API SchemaOrName parseSchemaOrName(std::string_view text);

// Checks that a kernel's inferred schema matches a declared one (argument
// and return counts and types, per SchemaType::equivalentForKernel). Returns
// an empty string on success, otherwise a readable diff naming the first
// mismatch.
ST_API std::string diffKernelSchema(const FunctionSchema& declared, const FunctionSchema& inferred);

}  // namespace st
