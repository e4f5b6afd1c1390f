// The playbooks of playbooks/*.md compiled into the binary, for builds that
// cannot read the repository at run time (the browser's wasm core, the CLI).
// Defined by the generated library ensemble::playbooks_embedded (see
// playbooks/CMakeLists.txt), not by ensemble_core: link it where needed.
//
// Thread-safety: a pure function over constant data.

#ifndef ENSEMBLE_CORE_PLAYBOOKS_EMBEDDED_H_
#define ENSEMBLE_CORE_PLAYBOOKS_EMBEDDED_H_

#include <vector>

#include "core/playbooks/playbook_set.h"

namespace ensemble::core::playbooks {

// Every playbooks/*.md but README.md, sorted by file name, byte for byte.
std::vector<PlaybookSource> EmbeddedPlaybooks();

}  // namespace ensemble::core::playbooks

#endif  // ENSEMBLE_CORE_PLAYBOOKS_EMBEDDED_H_
