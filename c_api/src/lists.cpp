// StableListHandle: a list of StableIValue payloads (schema `T[]`). The
// list does not know its element type, so deleting it never releases what
// the payloads refer to (that is the receiver's job, by the schema).
#include <torch/csrc/stable/c/shim.h>

#include "error_state.h"
#include "handle_types.h"

using stc::StableList;

namespace {
StableList& list_of(StableListHandle h) { return stc::get<StableList>(h, "list_handle"); }

void check_index(const StableList& l, size_t index) {
  ST_CHECK(index < l.size(), "index ", index, " is out of range for a list of size ", l.size());
}
}  // namespace

extern "C" {

AOTITorchError torch_new_list_reserve_size(size_t size, StableListHandle* ret) {
  STC_API_BEGIN
  stc::check_out(ret, "ret");
  ST_CHECK(size <= (size_t{1} << 40), "size: cannot reserve ", size, " elements");
  const stc::Handle s = stc::make_handle<StableList>();
  try {
    stc::payload<StableList>(s).reserve(size);
  } catch (...) {
    stc::destroy_if_live<StableList>(s);
    throw;
  }
  *ret = stc::to_handle<StableListHandle>(s);
  STC_API_END
}

AOTITorchError torch_list_size(StableListHandle list_handle, size_t* size) {
  STC_API_BEGIN
  stc::check_out(size, "size");
  *size = list_of(list_handle).size();
  STC_API_END
}

AOTITorchError torch_list_get_item(StableListHandle list_handle, size_t index,
                                   StableIValue* element) {
  STC_API_BEGIN
  stc::check_out(element, "element");
  const StableList& l = list_of(list_handle);
  check_index(l, index);
  *element = l[index];
  STC_API_END
}

AOTITorchError torch_list_set_item(StableListHandle list_handle, size_t index,
                                   StableIValue element) {
  STC_API_BEGIN
  StableList& l = list_of(list_handle);
  check_index(l, index);
  l[index] = element;
  STC_API_END
}

AOTITorchError torch_list_push_back(StableListHandle list_handle, StableIValue element) {
  STC_API_BEGIN
  list_of(list_handle).push_back(element);
  STC_API_END
}

AOTITorchError torch_delete_list(StableListHandle list_handle) {
  STC_API_BEGIN
  stc::destroy<StableList>(list_handle, "list_handle");
  STC_API_END
}

}  // extern "C"
