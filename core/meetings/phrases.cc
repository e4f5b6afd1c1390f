#include "core/meetings/phrases.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <unordered_set>

#include "core/meetings/detect.h"
#include "core/meetings/extract.h"
#include "core/meetings/scan.h"

namespace ensemble::core::meetings::internal {
namespace {

using scan::IsAsciiAlpha;
using scan::IsDigit;
using scan::IsWordByte;
using scan::Lower;
using scan::Trim;

enum class Need { kVerb, kAnything };

struct Phrase {
  std::string_view text;  // Lower case; "'" also matches the typographic apostrophe.
  bool decision;
  bool self;  // The speaker owns it ("I'll ...").
  Need need;
};

constexpr std::array<Phrase, 33> kPhrases = {{
    {"i'll", false, true, Need::kVerb},
    {"i will", false, true, Need::kVerb},
    {"i'm going to", false, true, Need::kVerb},
    {"i am going to", false, true, Need::kVerb},
    {"let me", false, true, Need::kVerb},
    {"i can", false, true, Need::kVerb},
    {"could you", false, false, Need::kVerb},
    {"can you", false, false, Need::kVerb},
    {"would you", false, false, Need::kVerb},
    {"will you", false, false, Need::kVerb},
    {"please", false, false, Need::kVerb},
    {"we need to", false, false, Need::kVerb},
    {"action item", false, false, Need::kAnything},
    {"action:", false, false, Need::kAnything},
    {"todo:", false, false, Need::kAnything},
    {"to do:", false, false, Need::kAnything},
    {"next step", false, false, Need::kAnything},
    {"we agreed", true, false, Need::kAnything},
    {"we've agreed", true, false, Need::kAnything},
    {"we have agreed", true, false, Need::kAnything},
    {"we all agreed", true, false, Need::kAnything},
    {"we decided", true, false, Need::kAnything},
    {"we've decided", true, false, Need::kAnything},
    {"we have decided", true, false, Need::kAnything},
    {"decision:", true, false, Need::kAnything},
    {"the decision is", true, false, Need::kAnything},
    {"final decision", true, false, Need::kAnything},
    {"let's go with", true, false, Need::kAnything},
    {"we'll go with", true, false, Need::kAnything},
    {"we will go with", true, false, Need::kAnything},
    {"we're going with", true, false, Need::kAnything},
    {"it's decided", true, false, Need::kAnything},
    {"agreed:", true, false, Need::kAnything},
}};

constexpr std::array<std::string_view, 58> kVerbs = {
    "send", "share", "review", "check", "follow", "update", "write", "draft", "schedule",
    "set", "book", "prepare", "look", "ask", "email", "call", "create", "fix", "get", "put",
    "make", "circulate", "finish", "test", "reach", "sync", "confirm", "add", "talk", "take",
    "handle", "own", "organize", "organise", "file", "post", "ping", "send", "loop", "invite",
    "forward", "publish", "deploy", "merge", "run", "clean", "move", "plan", "present",
    "summarize", "summarise", "investigate", "research", "contact", "order", "submit",
    "approve", "sign"};

// Matches `phrase` at s[i..], "'" matching ' or ’; returns the bytes used.
size_t MatchPhrase(std::string_view s, size_t i, std::string_view phrase) {
  size_t j = i;
  for (char p : phrase) {
    if (j >= s.size()) return 0;
    if (p == '\'') {
      if (s[j] == '\'') {
        ++j;
      } else if (s.substr(j, 3) == "\xE2\x80\x99") {
        j += 3;
      } else {
        return 0;
      }
    } else if (Lower(s[j]) == p) {
      ++j;
    } else {
      return 0;
    }
  }
  // A whole word (phrases ending in ':' need no boundary).
  if (phrase.back() != ':' && j < s.size() && IsWordByte(s[j])) return 0;
  return j - i;
}

bool VerbFollows(std::string_view s, size_t j) {
  // Up to two words may come first ("could you please send", "I'll quickly check").
  for (int hop = 0; hop < 3; ++hop) {
    while (j < s.size() && (s[j] == ' ' || s[j] == ',')) ++j;
    size_t start = j;
    while (j < s.size() && IsAsciiAlpha(s[j])) ++j;
    std::string_view word = s.substr(start, j - start);
    if (word.empty()) return false;
    for (std::string_view verb : kVerbs) {
      if (scan::EqualsIgnoreCase(word, verb)) return true;
    }
    if (!scan::EqualsIgnoreCase(word, "please") && !scan::EqualsIgnoreCase(word, "also") &&
        !scan::EqualsIgnoreCase(word, "just") && !scan::EqualsIgnoreCase(word, "quickly") &&
        !scan::EqualsIgnoreCase(word, "then") && !scan::EqualsIgnoreCase(word, "go") &&
        !scan::EqualsIgnoreCase(word, "and")) {
      return false;
    }
  }
  return false;
}

bool IsSentenceEnd(std::string_view s, size_t i) {
  char c = s[i];
  return (c == '.' || c == '?' || c == '!') && (i + 1 >= s.size() || s[i + 1] == ' ');
}

// A vocative name before the phrase: "Ben, could you ..." -> "Ben".
std::string Addressee(std::string_view sentence, size_t phrase_at) {
  std::string_view before = Trim(sentence.substr(0, phrase_at));
  if (before.empty() || before.back() != ',') return "";
  before = Trim(before.substr(0, before.size() - 1));
  size_t space = before.rfind(' ');
  std::string_view word = space == std::string_view::npos ? before : before.substr(space + 1);
  if (scan::EqualsIgnoreCase(word, "so") || scan::EqualsIgnoreCase(word, "ok") ||
      scan::EqualsIgnoreCase(word, "okay") || scan::EqualsIgnoreCase(word, "and") ||
      scan::EqualsIgnoreCase(word, "yes") || scan::EqualsIgnoreCase(word, "yeah") ||
      scan::EqualsIgnoreCase(word, "also") || scan::EqualsIgnoreCase(word, "then") ||
      scan::EqualsIgnoreCase(word, "well") || scan::EqualsIgnoreCase(word, "right") ||
      scan::EqualsIgnoreCase(word, "great") || scan::EqualsIgnoreCase(word, "thanks")) {
    return "";
  }
  return IsPlausibleName(word) ? std::string(word) : "";
}

void AddUnique(std::vector<Item>* items, Item item) {
  if (items->size() >= kMaxSuggestedItems) return;
  for (const Item& existing : *items) {
    if (existing.text == item.text) return;
  }
  items->push_back(std::move(item));
}

}  // namespace

namespace {

// Byte classes for the phrase scan: it looks at word starts only, and tries
// phrases only at words whose first letter starts one.
constexpr uint8_t kWord = 1, kCandidate = 2, kPunct = 4;

constexpr std::array<uint8_t, 256> MakeClasses() {
  std::array<uint8_t, 256> table{};
  for (int c = 0; c < 256; ++c) {
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (alpha || (c >= '0' && c <= '9') || c >= 0x80) table[c] |= kWord;
    if (c == '.' || c == '?' || c == '!') table[c] |= kPunct;
  }
  for (const Phrase& p : kPhrases) {
    unsigned char first = static_cast<unsigned char>(p.text[0]);
    table[first] |= kCandidate;
    table[first - 32] |= kCandidate;  // Phrases start with a lower-case letter.
  }
  return table;
}

constexpr std::array<uint8_t, 256> kClasses = MakeClasses();

// For each lower-case first letter, the phrases that start with it, their
// second characters inline (no pointer chase per phrase), and which
// lower-cased second bytes can start any of them at all, so most words are
// rejected with one lookup.
struct PhraseIndex {
  std::array<std::array<uint8_t, 16>, 26> ids{};
  std::array<std::array<char, 16>, 26> second{};
  std::array<uint8_t, 26> count{};
  std::array<std::array<bool, 256>, 26> may_follow{};
};

constexpr PhraseIndex MakePhraseIndex() {
  PhraseIndex index;
  for (size_t p = 0; p < kPhrases.size(); ++p) {
    int letter = kPhrases[p].text[0] - 'a';
    char second = kPhrases[p].text[1];
    index.second[letter][index.count[letter]] = second;
    index.ids[letter][index.count[letter]++] = static_cast<uint8_t>(p);
    if (second == '\'') {
      // The apostrophe may be typographic (a multi-byte sequence): try them all.
      for (bool& may : index.may_follow[letter]) may = true;
    } else {
      index.may_follow[letter][static_cast<unsigned char>(second)] = true;
    }
  }
  return index;
}

constexpr PhraseIndex kPhraseIndex = MakePhraseIndex();

}  // namespace

void SuggestItems(Transcript* transcript) {
  const bool want_decisions = transcript->decisions.empty();
  const bool want_actions = transcript->action_items.empty();
  if (!want_decisions && !want_actions) return;
  std::vector<Item> decisions, actions;
  std::unordered_set<std::string_view> seen;  // Views into the turns' text.
  for (const Turn& turn : transcript->turns) {
    if ((decisions.size() >= kMaxSuggestedItems || !want_decisions) &&
        (actions.size() >= kMaxSuggestedItems || !want_actions)) {
      break;
    }
    std::string_view s = turn.text;
    const size_t n = s.size();
    size_t sentence = 0;
    size_t i = 0;
    while (i < n) {
      const uint8_t cls = kClasses[static_cast<unsigned char>(s[i])];
      if (cls & kPunct) {
        if (i + 1 >= n || s[i + 1] == ' ') sentence = i + 1;
        ++i;
        continue;
      }
      if (!(cls & kWord)) {
        ++i;
        continue;
      }
      // A word start.
      size_t matched_end = 0;
      if (cls & kCandidate) {
        const int letter = Lower(s[i]) - 'a';
        const unsigned char next = i + 1 < n ? static_cast<unsigned char>(Lower(s[i + 1])) : 0;
        const uint8_t count = kPhraseIndex.may_follow[letter][next] ? kPhraseIndex.count[letter] : 0;
        for (uint8_t k = 0; k < count; ++k) {
          // Most words fail on their second letter: test it before the full match.
          const char second = kPhraseIndex.second[letter][k];
          if (second != '\'' && (i + 1 >= n || static_cast<char>(next) != second)) continue;
          const Phrase& phrase = kPhrases[kPhraseIndex.ids[letter][k]];
          if ((phrase.decision && !want_decisions) || (!phrase.decision && !want_actions)) continue;
          size_t len = MatchPhrase(s, i, phrase.text);
          if (len == 0) continue;
          if (phrase.need == Need::kVerb && !VerbFollows(s, i + len)) continue;
          size_t end = i;
          while (end < n && !IsSentenceEnd(s, end)) ++end;
          if (end < n) ++end;
          std::string_view text = Trim(s.substr(sentence, end - sentence));
          matched_end = end;
          // Repeated sentences are common ("I'll send it."): skip them before
          // building an item.
          if (!seen.insert(text).second) break;
          Item item;
          item.text = scan::BoundedText(text, kMaxItemChars);
          item.suggested = true;
          if (!phrase.decision) {
            item.owner = phrase.self ? turn.speaker
                                     : Addressee(text, i - static_cast<size_t>(text.data() - s.data()));
          }
          AddUnique(phrase.decision ? &decisions : &actions, std::move(item));
          break;
        }
      }
      if (matched_end > 0) {
        i = matched_end;
        sentence = matched_end;
        continue;
      }
      ++i;
      while (i < n && (kClasses[static_cast<unsigned char>(s[i])] & kWord)) ++i;
    }
  }
  if (want_decisions && !decisions.empty()) {
    transcript->decisions = std::move(decisions);
    transcript->suggested = true;
  }
  if (want_actions && !actions.empty()) {
    transcript->action_items = std::move(actions);
    transcript->suggested = true;
  }
}

}  // namespace ensemble::core::meetings::internal
