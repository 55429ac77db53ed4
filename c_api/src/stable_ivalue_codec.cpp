// StableIValue <-> IValue by schema type (see stable_ivalue_codec.h).
#include "stable_ivalue_codec.h"

#include <cstring>
#include <sstream>

#include <stabletorch/c/runtime.h>
#include <torch/csrc/stable/c/shim.h>

#include "abi_codes.h"
#include "handle_types.h"
#include "stable_ivalue_slots.h"

namespace stc {
namespace {

using st::IValue;
using st::SchemaType;
using st::TypeKind;

template <typename T>
StableIValue to_bits(T value) {
  StableIValue out = 0;
  std::memcpy(&out, &value, sizeof(T));
  return out;
}

[[noreturn]] void mismatch(const SchemaType& type, const char* expected_handle, StableIValue v) {
  ST_ERROR("expected ", type.toString(), " (", expected_handle, ") but got ", describe_payload(v));
}

template <typename T>
T& handle_payload(const SchemaType& type, const char* expected_handle, StableIValue v) {
  Slot* s = handle_slot(HandleTraits<T>::kind, v);
  if (s == nullptr) mismatch(type, expected_handle, v);
  return payload<T>(s);
}

st::Device decode_device(StableIValue v) {
  const int32_t index = static_cast<int32_t>(static_cast<uint32_t>(v & 0xffffffffu));
  const int32_t type = static_cast<int32_t>(static_cast<uint32_t>(v >> 32));
  return device_from_codes(type, index, "Device");
}

StableIValue encode_device(st::Device d) {
  const uint32_t index = static_cast<uint32_t>(static_cast<int32_t>(d.index()));
  const uint32_t type = static_cast<uint32_t>(static_cast<int32_t>(d.type()));
  return (static_cast<uint64_t>(type) << 32) | index;
}

IValue decode_list(const SchemaType& type, const StableList& items) {
  const SchemaType& elem = type.elem();
  switch (elem.kind()) {
    case TypeKind::Int:
    case TypeKind::SymInt: {
      std::vector<int64_t> out;
      out.reserve(items.size());
      for (StableIValue e : items) out.push_back(from_bits<int64_t>(e));
      return IValue(std::move(out));
    }
    case TypeKind::Float: {
      std::vector<double> out;
      out.reserve(items.size());
      for (StableIValue e : items) out.push_back(from_bits<double>(e));
      return IValue(std::move(out));
    }
    case TypeKind::Bool: {
      std::vector<bool> out;
      out.reserve(items.size());
      for (StableIValue e : items) out.push_back(decode_bool(e));
      return IValue(std::move(out));
    }
    case TypeKind::Str: {
      std::vector<std::string> out;
      out.reserve(items.size());
      for (StableIValue e : items)
        out.push_back(handle_payload<std::string>(elem, "a string handle", e));
      return IValue(std::move(out));
    }
    case TypeKind::Tensor: {
      std::vector<st::Tensor> out;
      out.reserve(items.size());
      for (StableIValue e : items)
        out.push_back(handle_payload<st::Tensor>(elem, "a tensor handle", e));
      return IValue(std::move(out));
    }
    default: {
      std::vector<IValue> out;
      out.reserve(items.size());
      for (size_t i = 0; i < items.size(); ++i) {
        try {
          out.push_back(decode(elem, items[i]));
        } catch (const st::Error& e) {
          ST_ERROR("list element ", i, ": ", e.what());
        }
      }
      return IValue::makeList(std::move(out));
    }
  }
}

// The IValue list forms as a vector of element IValues.
std::vector<IValue> list_items(IValue&& v) {
  std::vector<IValue> out;
  switch (v.tag()) {
    case IValue::Tag::IntList:
      for (int64_t x : v.toIntVector()) out.emplace_back(x);
      break;
    case IValue::Tag::DoubleList:
      for (double x : v.toDoubleVector()) out.emplace_back(x);
      break;
    case IValue::Tag::BoolList:
      for (bool x : v.toBoolVector()) out.emplace_back(x);
      break;
    case IValue::Tag::StringList:
      for (const std::string& x : v.toStringVector()) out.emplace_back(x);
      break;
    case IValue::Tag::TensorList: {
      std::vector<st::Tensor> ts = std::move(v).toTensorVector();
      for (st::Tensor& t : ts) out.emplace_back(std::move(t));
      break;
    }
    case IValue::Tag::List:
      out = std::move(v.toListRef());
      break;
    default:
      ST_ERROR("expected a list but got ", v.tagName());
  }
  return out;
}

}  // namespace

std::string describe_payload(StableIValue v) {
  const HandleInfo info = classify(as_pointer(v));
  std::ostringstream os;
  switch (info.cls) {
    case Classification::Null:
      os << "a null pointer (0)";
      break;
    case Classification::Dead:
      os << "an already deleted handle";
      break;
    case Classification::Live:
      os << "a " << kind_name(info.kind) << " handle";
      break;
    case Classification::Foreign:
      os << "0x" << std::hex << v << " (not a handle made by this library)";
      break;
  }
  return os.str();
}

IValue decode(const SchemaType& type, StableIValue v) {
  switch (type.kind()) {
    case TypeKind::Tensor:
      return IValue(handle_payload<st::Tensor>(type, "a tensor handle", v));
    case TypeKind::Int:
    case TypeKind::SymInt:
      return IValue(from_bits<int64_t>(v));
    case TypeKind::Float:
      return IValue(from_bits<double>(v));
    case TypeKind::Bool:
      return IValue(decode_bool(v));
    case TypeKind::Str:
      return IValue(handle_payload<std::string>(type, "a string handle", v));
    case TypeKind::Scalar:
      return IValue(handle_payload<st::Scalar>(type, "a StableScalarHandle", v));
    case TypeKind::ScalarType:
      return IValue(dtype_from_code(from_bits<int32_t>(v), "ScalarType"));
    case TypeKind::Layout:
      return IValue(layout_from_code(from_bits<int32_t>(v), "Layout"));
    case TypeKind::MemoryFormat:
      return IValue(memory_format_from_code(from_bits<int32_t>(v), "MemoryFormat"));
    case TypeKind::Device:
      return IValue(decode_device(v));
    case TypeKind::Optional: {
      const StableIValue* slot = checked_optional_slot(type, v);
      if (slot == nullptr) return IValue();
      return decode(type.elem(), *slot);
    }
    case TypeKind::List:
      return decode_list(type, handle_payload<StableList>(type, "a StableListHandle", v));
    case TypeKind::Generator:
      return IValue(handle_payload<st::Generator>(type, "an AtenGeneratorHandle", v));
    case TypeKind::Stream:
    case TypeKind::Storage:
      break;
  }
  ST_ERROR("Not yet supported conversion from StableIValue to ", type.toString(),
           " (the C ABI cannot pass this schema type)");
}

void release(const SchemaType& type, StableIValue v) noexcept {
  switch (type.kind()) {
    case TypeKind::Tensor:
    case TypeKind::Str:
    case TypeKind::Scalar:
    case TypeKind::Generator:
      // A stolen slot: whatever live handle it holds is ours to delete,
      // even one of the wrong kind.
      destroy_any_if_live(as_pointer(v));
      return;
    case TypeKind::Optional: {
      // Note [Checked optional slots]: only a usable pointer is read and
      // freed; a bare live handle where the slot belongs was stolen like
      // any other and is deleted; anything else is left alone.
      const SlotPointer kind = classify_slot_pointer(v);
      if (kind == SlotPointer::Handle) {
        destroy_any_if_live(as_pointer(v));
      } else if (usable(kind)) {
        StableIValue* slot = static_cast<StableIValue*>(const_cast<void*>(as_pointer(v)));
        release(type.elem(), *slot);
        free_usable_slot(slot, kind);
      }
      return;
    }
    case TypeKind::List: {
      const HandleInfo info = classify(as_pointer(v));
      if (info.cls != Classification::Live) return;
      if (info.kind == HandleKind::List) {
        for (StableIValue e : payload<StableList>(info.slot)) release(type.elem(), e);
      }
      destroy_any_if_live(as_pointer(v));
      return;
    }
    default:
      return;  // plain values own nothing
  }
}

StableIValue encode(const SchemaType& type, IValue&& v) {
  switch (type.kind()) {
    case TypeKind::Tensor:
      if (v.isNone()) return to_bits(new_tensor_handle(st::Tensor()));
      return to_bits(new_tensor_handle(std::move(v).toTensor()));
    case TypeKind::Int:
    case TypeKind::SymInt:
      return to_bits(v.toInt());
    case TypeKind::Float:
      return to_bits(v.toDouble());
    case TypeKind::Bool:
      return to_bits(v.toBool());
    case TypeKind::Str:
      return to_bits(to_handle<StringHandle>(make_handle<std::string>(v.toStringRef())));
    case TypeKind::Scalar:
      return to_bits(to_handle<StableScalarHandle>(make_handle<st::Scalar>(v.toScalar())));
    case TypeKind::ScalarType:
      return to_bits(static_cast<int32_t>(v.toScalarType()));
    case TypeKind::Layout:
      return to_bits(static_cast<int32_t>(v.toLayout()));
    case TypeKind::MemoryFormat:
      return to_bits(static_cast<int32_t>(v.toMemoryFormat()));
    case TypeKind::Device:
      return encode_device(v.toDevice());
    case TypeKind::Optional: {
      if (v.isNone()) return 0;
      const StableIValue inner = encode(type.elem(), std::move(v));
      StableIValue* slot;
      try {
        slot = new StableIValue(inner);
      } catch (...) {
        release(type.elem(), inner);
        throw;
      }
      return to_bits(slot);
    }
    case TypeKind::List: {
      std::vector<IValue> items = list_items(std::move(v));
      const Handle h = make_handle<StableList>();
      const StableIValue s = to_bits(to_handle<StableListHandle>(h));
      StableList& out = payload<StableList>(h);
      try {
        out.reserve(items.size());
        for (size_t i = 0; i < items.size(); ++i) {
          try {
            out.push_back(encode(type.elem(), std::move(items[i])));
          } catch (const st::Error& e) {
            ST_ERROR("list element ", i, ": ", e.what());
          }
        }
      } catch (...) {
        release(type, s);
        throw;
      }
      return s;
    }
    case TypeKind::Generator:
      return to_bits(to_handle<AtenGeneratorHandle>(make_handle<st::Generator>(v.toGenerator())));
    case TypeKind::Stream:
    case TypeKind::Storage:
      break;
  }
  ST_ERROR("Not yet supported conversion from ", type.toString(),
           " to StableIValue (the C ABI cannot pass this schema type)");
}

}  // namespace stc
