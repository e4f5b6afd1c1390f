#include "core/playbooks/playbook_set.h"

#include <algorithm>
#include <map>
#include <utility>

namespace ensemble::core::playbooks {

Result<PlaybookSet> PlaybookSet::Build(const std::vector<PlaybookSource>& sources) {
  if (sources.size() > kMaxPlaybooks) {
    return Status(codes::kInvalidArgument, std::to_string(sources.size()) +
                                               " playbooks; at most " +
                                               std::to_string(kMaxPlaybooks) + " are allowed");
  }
  PlaybookSet set;
  std::map<std::string, std::string, std::less<>> file_of;  // name -> file.
  for (const PlaybookSource& source : sources) {
    ENSEMBLE_ASSIGN_OR_RETURN(Playbook pb, ParsePlaybook(source.text, source.file_name));
    auto [it, inserted] = file_of.emplace(pb.name, source.file_name);
    if (!inserted) {
      return Status(codes::kInvalidArgument, source.file_name + ": playbook name '" + pb.name +
                                                 "' is already used by " + it->second);
    }
    set.playbooks_.push_back(std::move(pb));
  }
  for (const Playbook& pb : set.playbooks_) {
    for (const std::string& name : pb.include) {
      if (file_of.find(name) == file_of.end()) {
        return Status(codes::kInvalidArgument, file_of[pb.name] + ": field 'include': no playbook called '" + name + "'");
      }
    }
  }
  std::sort(set.playbooks_.begin(), set.playbooks_.end(),
            [](const Playbook& a, const Playbook& b) { return a.name < b.name; });
  return set;
}

const Playbook* PlaybookSet::Find(std::string_view name) const {
  auto it = std::lower_bound(playbooks_.begin(), playbooks_.end(), name,
                             [](const Playbook& pb, std::string_view n) { return pb.name < n; });
  return it != playbooks_.end() && it->name == name ? &*it : nullptr;
}

}  // namespace ensemble::core::playbooks
