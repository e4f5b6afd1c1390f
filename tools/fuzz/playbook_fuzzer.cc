// libFuzzer target for the playbook front-matter parser and the set built
// from it. Whatever the bytes, nothing may crash or trip a sanitizer; a
// parsed playbook must satisfy the invariants the router relies on.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/playbooks/playbook.h"
#include "core/playbooks/playbook_set.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto parsed = ensemble::core::playbooks::ParsePlaybook(text, "fuzz.md");
  if (parsed.ok() && (parsed->name.empty() || parsed->tools.empty())) std::abort();
  // The same text as two files: a set must refuse the repeated name.
  auto set = ensemble::core::playbooks::PlaybookSet::Build({{"a.md", text}, {"b.md", text}});
  if (set.ok() && parsed.ok()) std::abort();
  return 0;
}
