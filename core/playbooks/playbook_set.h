// PlaybookSet: every playbook the assistant can route to, checked as a whole.
//
// Built from (file name, text) pairs so the core stays free of the filesystem:
// the server reads playbooks/*.md, the wasm build gets them embedded. Building
// parses each file and checks what no single file can: names are unique and
// every `include` names a playbook in the set.
//
// Thread-safety: immutable after Build(); safe to share between threads.

#ifndef ENSEMBLE_CORE_PLAYBOOKS_PLAYBOOK_SET_H_
#define ENSEMBLE_CORE_PLAYBOOKS_PLAYBOOK_SET_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/playbooks/playbook.h"

namespace ensemble::core::playbooks {

inline constexpr std::size_t kMaxPlaybooks = 64;

struct PlaybookSource {
  std::string file_name;  // For messages only, e.g. "tasks.md".
  std::string text;
};

class PlaybookSet {
 public:
  PlaybookSet() = default;

  // Parses every source; the first error (a file's, a repeated name or an
  // unknown include) is returned as INVALID_ARGUMENT naming the file.
  static Result<PlaybookSet> Build(const std::vector<PlaybookSource>& sources);

  // The playbook called `name`, or nullptr.
  const Playbook* Find(std::string_view name) const;

  // Every playbook, sorted by name (so listings do not depend on the order
  // the files were read in).
  const std::vector<Playbook>& all() const { return playbooks_; }
  std::size_t size() const { return playbooks_.size(); }

 private:
  std::vector<Playbook> playbooks_;
};

}  // namespace ensemble::core::playbooks

#endif  // ENSEMBLE_CORE_PLAYBOOKS_PLAYBOOK_SET_H_
