#include <st/dispatch/library.h>

#include <st/core/error.h>

namespace st {

Library::Library(Kind kind, std::string ns, std::optional<DispatchKey> key, const char* file,
                 uint32_t line)
    : kind_(kind),
      ns_(std::move(ns)),
      key_(key),
      file_(file ? file : "?"),
      line_(line),
      debug_("registered at " + file_ + ":" + std::to_string(line_)) {
  init();
}

Library::Library(Kind kind, std::string ns, std::string_view key_name, const char* file,
                 uint32_t line)
    : kind_(kind),
      ns_(std::move(ns)),
      file_(file ? file : "?"),
      line_(line),
      debug_("registered at " + file_ + ":" + std::to_string(line_)) {
  std::optional<DispatchKey> k = parseDispatchKey(key_name);
  if (k.has_value()) {
    key_ = k;
  } else {
    ST_CHECK(kind == IMPL, "Library ", debug(), ": unknown dispatch key '", key_name, "'");
    inert_ = true;
  }
  init();
}

void Library::init() {
  ST_CHECK(!ns_.empty(), "Library ", debug(), ": empty namespace");
  ST_CHECK(kind_ == IMPL || !key_.has_value(), "Library ", debug(),
           ": only IMPL libraries take a dispatch key");
  ST_CHECK(kind_ != IMPL || key_.has_value() || inert_, "Library ", debug(),
           ": an IMPL library needs a dispatch key");
  if (kind_ == DEF) {
    registrations_.push_back(Dispatcher::singleton().registerLibrary(ns_, debug()));
  }
}

Library::~Library() {
  // Undo in reverse order: impls before the defs they may refer to.
  while (!registrations_.empty()) registrations_.pop_back();
}

void Library::checkNamespace(const OperatorName& name, const char* what) const {
  auto ns = name.getNamespace();
  if (ns.has_value()) {
    ST_CHECK(*ns == ns_ || ns_ == "_", what, " '", name, "' (", debug(), ") is in namespace '", *ns,
             "' but the library is for namespace '", ns_, "'");
  } else {
    ST_CHECK(ns_ != "_", what, " '", name, "' (", debug(),
             "): a library for namespace '_' needs fully qualified names");
  }
}

void Library::qualify(OperatorName& name, const char* what) const {
  checkNamespace(name, what);
  name.setNamespaceIfNotSet(ns_);
}

Library& Library::def(std::string_view schema) { return def(schema, std::vector<Tag>()); }

Library& Library::def(FunctionSchema schema) { return def(std::move(schema), std::vector<Tag>()); }

Library& Library::def(std::string_view schema, std::vector<Tag> tags) {
  ST_CHECK(kind_ != IMPL, "def('", schema, "') ", debug(),
           ": an IMPL library cannot define operators; use ST_LIBRARY or ST_LIBRARY_FRAGMENT");
  return def(FunctionSchema::parse(schema), std::move(tags));
}

Library& Library::def(FunctionSchema schema, std::vector<Tag> tags) {
  ST_CHECK(kind_ != IMPL, "def('", schema, "') ", debug(),
           ": an IMPL library cannot define operators; use ST_LIBRARY or ST_LIBRARY_FRAGMENT");
  checkNamespace(schema.operatorName(), "def");
  schema.setNamespaceIfNotSet(ns_);
  registrations_.push_back(Dispatcher::singleton().registerDef(std::move(schema), debug(),
                                                               std::move(tags), python_module_));
  return *this;
}

Library& Library::set_python_module(std::string module, std::string context) {
  ST_CHECK(!module.empty(), "set_python_module ", debug(), ": empty Python module name");
  python_module_ = PythonModule{std::move(module), std::move(context)};
  return *this;
}

Library& Library::defWithKernel(std::string_view schema_or_name, CppFunction&& f) {
  ST_CHECK(kind_ != IMPL, "def('", schema_or_name, "') ", debug(),
           ": an IMPL library cannot define operators");
  SchemaOrName parsed = parseSchemaOrName(schema_or_name);
  OperatorName name = parsed.name;
  qualify(name, "def");
  if (parsed.schema.has_value()) {
    def(std::move(*parsed.schema));
  } else {
    ST_CHECK(f.schema_ != nullptr, "def('", schema_or_name, "') ", debug(),
             ": a boxed kernel cannot tell the schema; give the full schema");
    def(FunctionSchema(name, f.schema_->arguments(), f.schema_->returns()));
  }
  return implImpl(name.toString(), std::move(f));
}

Library& Library::implImpl(std::string_view name_text, CppFunction&& f) {
  if (inert_) return *this;
  OperatorName name = OperatorName::parse(name_text);
  qualify(name, "impl");
  std::optional<DispatchKey> key = key_;
  if (f.dispatch_key_.has_value()) {
    ST_CHECK(!key_.has_value() || *key_ == *f.dispatch_key_, "impl('", name, "') ", debug(),
             ": the kernel is pinned to ", *f.dispatch_key_, " but the library is for ", *key_);
    key = f.dispatch_key_;
  }
  registrations_.push_back(Dispatcher::singleton().registerImpl(
      std::move(name), key, std::move(f.func_), f.cpp_signature_, std::move(f.schema_), debug()));
  return *this;
}

Library& Library::fallback(CppFunction&& f) {
  ST_CHECK(kind_ == IMPL, "fallback ", debug(),
           ": only an IMPL library (ST_LIBRARY_IMPL(_, Key, m)) can register a fallback");
  if (inert_) return *this;
  registrations_.push_back(
      Dispatcher::singleton().registerFallback(*key_, std::move(f.func_), debug()));
  return *this;
}

}  // namespace st
