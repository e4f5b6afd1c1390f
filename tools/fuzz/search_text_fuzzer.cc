// libFuzzer target for the text the search and ingest take from outside: a
// query as typed (SplitQuery), any text as tokens and the index keeps them,
// the record handles a text links (its mentions, and a ref as a request
// gives it), and the redaction pass every ingest runs. Nothing may crash or trip a
// sanitizer; a split stays within its bounds; redaction keeps valid UTF-8
// valid, the ingest cap holds, and every handle found is in the text with a
// valid id. (Redacting twice is not always redacting
// once on hostile text: a redacted value can end a PEM header sooner, so a
// second pass may find a key block the first did not. The vectors hold the
// property for real shapes.)

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/base/id.h"
#include "core/context/search_rank.h"
#include "core/refs/record_handle.h"
#include "core/text/redact.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"

namespace {

void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace context = ensemble::core::context;
  namespace text = ensemble::core::text;
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  const context::SearchQuery query = context::SplitQuery(input);
  Check(query.words.size() <= context::kMaxQueryWords);
  Check(query.phrase.size() <= context::kMaxPhraseTokens);
  for (const auto& word : query.words) {
    Check(!word.empty() && word.size() <= context::kMaxWordTokens);
    for (const std::string& token : word) Check(!token.empty() && text::IsValidUtf8(token));
  }
  // A record titled with the input holds every word of its own query.
  context::SearchRecord record{"task", "01JCTASK000000000000000001", std::string(input)};
  const auto score = context::ScoreRecord(query, record, 0, nullptr);
  Check(query.words.empty() || score.has_value());

  namespace refs = ensemble::core::refs;
  const auto links = refs::FindRecordLinks(input, 8);
  Check(links.size() <= 8);
  for (const refs::RecordHandle& h : links) {
    Check(ensemble::core::IsValidId(h.id) && !h.kind.empty());
    Check(input.find(refs::HandleOf(h.kind, h.id)) != std::string_view::npos);
  }
  if (auto ref = refs::ParseItemRef(input); ref.ok()) {
    // Exactly one handle, or the app's address of a record, ending in its id.
    const std::string_view trimmed = text::Trim(input);
    const bool handle = links.size() == 1 && links[0] == *ref;
    const bool app = trimmed.find("#/") != std::string_view::npos &&
                     trimmed.ends_with("/" + ref->id) && ensemble::core::IsValidId(ref->id);
    Check(handle || app);
  }

  const std::string redacted = text::RedactSecrets(input);
  if (text::IsValidUtf8(input)) Check(text::IsValidUtf8(redacted));
  const std::string capped = text::RedactForIngest(input, 64);
  if (text::IsValidUtf8(input)) Check(text::CountCodePoints(capped) <= 64);
  return 0;
}
