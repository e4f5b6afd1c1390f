// Mentions in a person's message (spec §3 "Mentions"): the records the
// message points at, stored as [{kind, id, label}] and shown to the model as
// [Label](ensemble://kind/id) links.
//
// Two sources:
//  - @-menu mentions arrive with kind and id (the dock's chips). The id is
//    an exact lookup key: it is checked for shape, never searched by label.
//  - Typed mentions, "@people:Mira Chen" in the text, are resolved by EXACT
//    name in the space through a MentionDirectory. A name may hold spaces,
//    so the longest run of words after the colon is tried first (at most
//    kMaxTypedMentionWords), then shorter ones; the first run that names any
//    record decides. A name that names no record, or several, stays as typed
//    text and is reported so the caller can tell the person. Text shaped
//    like an id is never passed to the directory as a name.
//
// Menu mentions in the text: the dock sends text such as "@Mira Chen" along
// with the list. The first "@Label" occurrence of each menu mention (ending
// at a word boundary, not inside a typed mention) becomes its link; a menu
// mention whose "@Label" is not in the text stays in the list only.
//
// Thread-safety: pure functions; ResolveMentions calls the directory's const
// method only.

#ifndef ENSEMBLE_CORE_REFS_MENTIONS_H_
#define ENSEMBLE_CORE_REFS_MENTIONS_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace ensemble::core::refs {

// A message's stored list holds at most this many mentions.
inline constexpr size_t kMaxMentions = 50;
// A mention's label (a record's title or name) is at most this many bytes.
inline constexpr size_t kMaxMentionLabelBytes = 200;
// A typed name is at most this many words long ("@people:Mira Chen" is 2).
inline constexpr size_t kMaxTypedMentionWords = 8;

struct Mention {
  std::string kind;   // canonical: "person", "task", ...
  std::string id;     // a record id (core/base/id.h IsValidId)
  std::string label;  // the record's title or name as the chip shows it

  bool operator==(const Mention&) const = default;
};

// Looks records up by exact name in the person's space (the server's store;
// a map in tests and in the wasm binding).
class MentionDirectory {
 public:
  virtual ~MentionDirectory() = default;
  // Ids of the records of canonical `kind` whose title or name is exactly
  // `name` (byte for byte). Empty when there is none.
  virtual std::vector<std::string> IdsNamed(std::string_view kind, std::string_view name) const = 0;
};

// The canonical kind for a kind word, singular or plural, ASCII case
// ignored ("people" -> "person", "Tasks" -> "task"); empty if unknown.
std::string_view CanonicalMentionKind(std::string_view word);

// OK if `mention` can be stored: a known canonical kind, a record id, a
// non-empty label of at most kMaxMentionLabelBytes without line breaks.
Status ValidateMention(const Mention& mention);

// A typed mention left as typed text.
struct UnresolvedMention {
  std::string kind;         // canonical kind
  std::string name;         // the ambiguous name; for no match, the first word
  size_t matches = 0;       // records named so: 0 (none) or >= 2 (ambiguous)
  size_t offset = 0;        // byte offset of its "@" in the input text
  bool over_limit = false;  // it named one record but the list was full
};

struct ResolvedMentions {
  std::vector<Mention> mentions;  // menu ones first, then typed; unique ids
  std::string model_text;         // the text with links for resolved mentions
  std::vector<UnresolvedMention> unresolved;
};

// Resolves the typed mentions of `text` and links the menu ones.
// INVALID_ARGUMENT when a menu mention fails ValidateMention or there are
// more than kMaxMentions distinct ones. A repeated id keeps its first entry.
Result<ResolvedMentions> ResolveMentions(std::string_view text, const std::vector<Mention>& menu,
                                         const MentionDirectory& directory);

// The link the model sees for a mention: [Label](ensemble://kind/id), with
// "[", "]" and "\" in the label escaped as FormatEntityText writes them.
std::string MentionLink(const Mention& mention);

}  // namespace ensemble::core::refs

#endif  // ENSEMBLE_CORE_REFS_MENTIONS_H_
