#include "core/refs/mentions.h"

#include <algorithm>
#include <utility>

#include "core/base/id.h"
#include "core/refs/format_entity_text.h"
#include "core/refs/text_scan.h"

namespace ensemble::core::refs {
namespace {

using internal::EqualsIgnoreCase;
using internal::IsWord;

// Every kind word a typed mention may use, singular and plural, with the
// canonical kind it stores. One table, so the dock's menu, typed text and
// tool results agree on kinds.
struct KindAlias {
  std::string_view word;
  std::string_view kind;
};
constexpr KindAlias kKindAliases[] = {
    {"task", "task"},
    {"tasks", "task"},
    {"person", "person"},
    {"people", "person"},
    {"persons", "person"},
    {"project", "project"},
    {"projects", "project"},
    {"page", "page"},
    {"pages", "page"},
    {"board", "board"},
    {"boards", "board"},
    {"meeting", "meeting"},
    {"meetings", "meeting"},
    {"skill", "skill"},
    {"skills", "skill"},
    {"file", "file"},
    {"files", "file"},
    {"deliverable", "deliverable"},
    {"deliverables", "deliverable"},
    {"reminder", "reminder"},
    {"reminders", "reminder"},
    {"routine", "routine"},
    {"routines", "routine"},
    {"event", "event"},
    {"events", "event"},
    {"app", "app"},
    {"apps", "app"},
    {"room", "room"},
    {"rooms", "room"},
};

// Trailing punctuation a sentence may put after a typed name
// ("@people:Mira Chen, can you ...").
constexpr std::string_view kTrailingPunctuation = ".,;:!?)\"'";

// A byte that continues a word for boundary tests: ASCII word characters
// and any byte of a multi-byte UTF-8 character ("@Mira Chené" is not
// "@Mira Chen").
bool ContinuesWord(char c) { return IsWord(c) || static_cast<unsigned char>(c) >= 0x80; }

// "@" can start a mention only at the start of the text or after a byte that
// is not part of a word, so "mira@people:x" (an address) is never one.
bool MentionCanStartAt(std::string_view text, size_t at) {
  return at == 0 || !(ContinuesWord(text[at - 1]) || text[at - 1] == '@');
}

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The record ids in `ids`, each once, in the order given.
std::vector<std::string> ValidUnique(std::vector<std::string> ids) {
  std::vector<std::string> out;
  for (std::string& id : ids) {
    if (IsValidId(id) && std::find(out.begin(), out.end(), id) == out.end()) {
      out.push_back(std::move(id));
    }
  }
  return out;
}

struct Replacement {
  size_t start;
  size_t end;
  std::string link;
};

bool Overlaps(const std::vector<Replacement>& done, size_t start, size_t end) {
  for (const Replacement& r : done) {
    if (start < r.end && r.start < end) return true;
  }
  return false;
}

// Resolution state for one message.
class Resolver {
 public:
  Resolver(std::string_view text, const MentionDirectory& directory)
      : text_(text), directory_(directory) {}

  Status AddMenu(const std::vector<Mention>& menu) {
    for (size_t i = 0; i < menu.size(); ++i) {
      Status valid = ValidateMention(menu[i]);
      if (!valid.ok())
        return InvalidArgument("mentions[" + std::to_string(i) + "]: " + valid.message());
      if (Known(menu[i].id)) continue;
      if (out_.mentions.size() >= kMaxMentions) {
        return InvalidArgument("at most " + std::to_string(kMaxMentions) + " mentions per message");
      }
      out_.mentions.push_back(menu[i]);
    }
    menu_count_ = out_.mentions.size();
    return Status::Ok();
  }

  void ScanTyped() {
    for (size_t at = text_.find('@'); at != std::string_view::npos; at = text_.find('@', at + 1)) {
      if (MentionCanStartAt(text_, at)) at = TryTyped(at);
    }
  }

  // Links the first "@Label" of each menu mention that is still free text.
  void LinkMenu() {
    std::vector<const Mention*> order;
    for (size_t i = 0; i < menu_count_; ++i) order.push_back(&out_.mentions[i]);
    // Longer labels first, so "@Mira Chen" is not taken by a mention "Mira".
    std::stable_sort(order.begin(), order.end(), [](const Mention* a, const Mention* b) {
      return a->label.size() > b->label.size();
    });
    for (const Mention* m : order) {
      std::string needle = "@" + m->label;
      for (size_t at = text_.find(needle); at != std::string_view::npos;
           at = text_.find(needle, at + 1)) {
        size_t end = at + needle.size();
        if (!MentionCanStartAt(text_, at) || (end < text_.size() && ContinuesWord(text_[end])) ||
            Overlaps(replacements_, at, end)) {
          continue;
        }
        replacements_.push_back({at, end, MentionLink(*m)});
        break;
      }
    }
  }

  ResolvedMentions Finish() && {
    std::sort(replacements_.begin(), replacements_.end(),
              [](const Replacement& a, const Replacement& b) { return a.start < b.start; });
    size_t pos = 0;
    for (const Replacement& r : replacements_) {
      out_.model_text.append(text_.substr(pos, r.start - pos));
      out_.model_text.append(r.link);
      pos = r.end;
    }
    out_.model_text.append(text_.substr(pos));
    return std::move(out_);
  }

 private:
  bool Known(std::string_view id) const {
    for (const Mention& m : out_.mentions) {
      if (m.id == id) return true;
    }
    return false;
  }

  // At an "@" that may start "@kind:Name": resolves it if it is one. Returns
  // where the scan for the next "@" continues from (minus one).
  size_t TryTyped(size_t at) {
    size_t k = at + 1;
    while (k < text_.size() &&
           ((text_[k] >= 'a' && text_[k] <= 'z') || (text_[k] >= 'A' && text_[k] <= 'Z'))) {
      ++k;
    }
    if (k == at + 1 || k >= text_.size() || text_[k] != ':') return at;
    std::string_view kind = CanonicalMentionKind(text_.substr(at + 1, k - at - 1));
    if (kind.empty()) return at;
    const size_t start = k + 1;
    // The ends of up to kMaxTypedMentionWords words separated by single
    // spaces; a word starting with "@" (the next mention) ends the run.
    std::vector<size_t> ends;
    size_t p = start;
    while (ends.size() < kMaxTypedMentionWords && p < text_.size() && !IsBlank(text_[p]) &&
           text_[p] != '@') {
      while (p < text_.size() && !IsBlank(text_[p])) ++p;
      ends.push_back(p);
      if (p + 1 >= text_.size() || text_[p] != ' ') break;
      ++p;
    }
    if (ends.empty()) return at;

    for (size_t n = ends.size(); n > 0; --n) {
      std::string_view whole = text_.substr(start, ends[n - 1] - start);
      std::string_view trimmed = Trimmed(whole);
      std::vector<std::string_view> names = {whole};
      if (!trimmed.empty() && trimmed.size() != whole.size()) names.push_back(trimmed);
      for (std::string_view name : names) {
        // An id is a lookup key, never a name to search for.
        if (IsValidId(name)) continue;
        std::vector<std::string> ids = ValidUnique(directory_.IdsNamed(kind, name));
        if (ids.empty()) continue;
        if (ids.size() >= 2) {
          out_.unresolved.push_back({std::string(kind), std::string(name), ids.size(), at});
          return start - 1;
        }
        return Resolve(at, kind, name, std::move(ids[0]), start);
      }
    }
    std::string_view first = text_.substr(start, ends[0] - start);
    std::string_view first_trimmed = Trimmed(first);
    out_.unresolved.push_back(
        {std::string(kind), std::string(first_trimmed.empty() ? first : first_trimmed), 0, at});
    return start - 1;
  }

  size_t Resolve(size_t at, std::string_view kind, std::string_view name, std::string id,
                 size_t start) {
    Mention m{std::string(kind), std::move(id), std::string(name)};
    if (!Known(m.id)) {
      if (out_.mentions.size() >= kMaxMentions) {
        UnresolvedMention over{m.kind, m.label, 1, at};
        over.over_limit = true;
        out_.unresolved.push_back(std::move(over));
        return start - 1;
      }
      out_.mentions.push_back(m);
    }
    size_t end = static_cast<size_t>(name.data() - text_.data()) + name.size();
    replacements_.push_back({at, end, MentionLink(m)});
    return end - 1;
  }

  static std::string_view Trimmed(std::string_view name) {
    while (!name.empty() && kTrailingPunctuation.find(name.back()) != std::string_view::npos) {
      name.remove_suffix(1);
    }
    return name;
  }

  std::string_view text_;
  const MentionDirectory& directory_;
  ResolvedMentions out_;
  size_t menu_count_ = 0;
  std::vector<Replacement> replacements_;
};

}  // namespace

std::string_view CanonicalMentionKind(std::string_view word) {
  for (const KindAlias& a : kKindAliases) {
    if (EqualsIgnoreCase(a.word, word)) return a.kind;
  }
  return {};
}

Status ValidateMention(const Mention& mention) {
  if (mention.kind.empty() || CanonicalMentionKind(mention.kind) != mention.kind) {
    return InvalidArgument("unknown mention kind '" + mention.kind + "'");
  }
  if (!IsValidId(mention.id)) return InvalidArgument("id is not a record id: " + mention.id);
  if (mention.label.empty()) return InvalidArgument("label must not be empty");
  if (mention.label.size() > kMaxMentionLabelBytes) {
    return InvalidArgument("label is longer than " + std::to_string(kMaxMentionLabelBytes) +
                           " bytes");
  }
  if (mention.label.find_first_of("\r\n") != std::string::npos) {
    return InvalidArgument("label must be one line");
  }
  return Status::Ok();
}

Result<ResolvedMentions> ResolveMentions(std::string_view text, const std::vector<Mention>& menu,
                                         const MentionDirectory& directory) {
  Resolver resolver(text, directory);
  ENSEMBLE_RETURN_IF_ERROR(resolver.AddMenu(menu));
  resolver.ScanTyped();
  resolver.LinkMenu();
  return std::move(resolver).Finish();
}

std::string MentionLink(const Mention& mention) {
  std::string out = "[";
  for (char c : mention.label) {
    if (c == '[' || c == ']' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  out.append("](");
  out.append(kRecordScheme);
  out.append(mention.kind);
  out.push_back('/');
  out.append(mention.id);
  out.push_back(')');
  return out;
}

}  // namespace ensemble::core::refs
