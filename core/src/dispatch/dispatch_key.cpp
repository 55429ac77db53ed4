#include <st/dispatch/dispatch_key.h>
#include <st/dispatch/dispatch_key_set.h>

#include <sstream>

namespace st {

const char* toString(DispatchKey k) {
  switch (k) {
    case DispatchKey::Undefined:
      return "Undefined";
    case DispatchKey::CPU:
      return "CPU";
    case DispatchKey::CUDA:
      return "CUDA";
    case DispatchKey::Meta:
      return "Meta";
    case DispatchKey::PrivateUse1:
      return "PrivateUse1";
    case DispatchKey::BackendSelect:
      return "BackendSelect";
    case DispatchKey::ADInplaceOrView:
      return "ADInplaceOrView";
    case DispatchKey::AutogradOther:
      return "AutogradOther";
    case DispatchKey::AutogradCPU:
      return "AutogradCPU";
    case DispatchKey::AutogradCUDA:
      return "AutogradCUDA";
    case DispatchKey::AutogradMeta:
      return "AutogradMeta";
    case DispatchKey::AutogradPrivateUse1:
      return "AutogradPrivateUse1";
    case DispatchKey::CompositeExplicitAutograd:
      return "CompositeExplicitAutograd";
    case DispatchKey::CompositeImplicitAutograd:
      return "CompositeImplicitAutograd";
    case DispatchKey::Autograd:
      return "Autograd";
    case DispatchKey::NumDispatchKeys:
      break;
  }
  return "UNKNOWN_DISPATCH_KEY";
}

std::ostream& operator<<(std::ostream& os, DispatchKey k) { return os << toString(k); }

std::optional<DispatchKey> parseDispatchKey(std::string_view name) {
  for (int i = 0; i < static_cast<int>(DispatchKey::NumDispatchKeys); ++i) {
    auto k = static_cast<DispatchKey>(i);
    if (name == toString(k)) return k;
  }
  return std::nullopt;
}

std::string toString(DispatchKeySet s) {
  std::ostringstream os;
  os << s;
  return os.str();
}

std::ostream& operator<<(std::ostream& os, DispatchKeySet s) {
  os << "DispatchKeySet(";
  bool first = true;
  for (DispatchKey k : s) {
    if (!first) os << ", ";
    first = false;
    os << k;
  }
  return os << ")";
}

}  // namespace st
