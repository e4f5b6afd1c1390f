// libFuzzer target for the typed-mention scanner and the refs collectors: a
// person's message and a tool's result are untrusted. Nothing may crash or
// trip a sanitizer; the resolved list stays within kMaxMentions with unique,
// valid ids; every unresolved mention points at an "@" in the input; text
// without any resolved or linked mention is passed through unchanged.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/id.h"
#include "core/refs/collect.h"
#include "core/refs/mention_json.h"
#include "core/refs/mentions.h"

namespace {

using ensemble::core::refs::MapMentionDirectory;
using ensemble::core::refs::Mention;

const MapMentionDirectory& Directory() {
  static const auto* directory = [] {
    auto* d = new MapMentionDirectory();
    d->Add("person", "Mira Chen", "01JCPERS000000000000000001");
    d->Add("person", "Mira", "01JCPERS000000000000000005");
    d->Add("person", "Sam Lee", "01JCPERS000000000000000002");
    d->Add("person", "Sam Lee", "01JCPERS000000000000000003");
    d->Add("task", "Fix [bug]", "01JCTASK000000000000000002");
    d->Add("task", "a b c d e f g h", "01JCTASK000000000000000003");
    return d;
  }();
  return *directory;
}

void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace refs = ensemble::core::refs;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::vector<Mention> menu = {{"person", "01JCPERS000000000000000001", "Mira Chen"},
                                     {"task", "01JCTASK000000000000000002", "Fix [bug]"}};
  auto resolved = refs::ResolveMentions(text, menu, Directory());
  Check(resolved.ok());
  Check(resolved->mentions.size() <= refs::kMaxMentions);
  for (size_t i = 0; i < resolved->mentions.size(); ++i) {
    Check(refs::ValidateMention(resolved->mentions[i]).ok());
    for (size_t j = 0; j < i; ++j) Check(resolved->mentions[i].id != resolved->mentions[j].id);
  }
  for (const refs::UnresolvedMention& u : resolved->unresolved) {
    Check(u.offset < text.size() && text[u.offset] == '@');
  }
  if (text.find('@') == std::string_view::npos) Check(resolved->model_text == text);

  for (const refs::Ref& r : refs::RecordLinksIn(text)) {
    Check(ensemble::core::IsValidId(r.id) && !r.label.empty());
  }
  nlohmann::json result = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!result.is_discarded()) {
    std::vector<refs::Ref> found = refs::RefsFromResult("hub_list_tasks", result);
    Check(found.size() <= refs::kMaxRefsPerCall);
    for (const refs::Ref& r : found) Check(ensemble::core::IsValidId(r.id) && !r.kind.empty());
  }
  return 0;
}
