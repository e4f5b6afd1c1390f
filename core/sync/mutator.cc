#include "core/sync/mutator.h"

#include <algorithm>

namespace ensemble::core::sync {

Status MutationContext::WillWrite(std::string_view kind, const std::string& id) {
  auto key = std::make_pair(std::string(kind), id);
  if (std::find(written_.begin(), written_.end(), key) != written_.end()) return Status::Ok();
  if (before_write_) ENSEMBLE_RETURN_IF_ERROR(before_write_(kind, id));
  written_.push_back(std::move(key));
  return Status::Ok();
}

const Mutator* MutatorRegistry::Find(std::string_view name) const {
  auto it = mutators_.find(name);
  return it == mutators_.end() ? nullptr : &it->second;
}

}  // namespace ensemble::core::sync
