#include "core/assistant/nudge.h"

#include <array>
#include <cctype>

namespace ensemble::core::assistant {
namespace {

// Lowercased, with typographic apostrophes made plain, so "I’ll" is "i'll".
std::string Fold(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 3, "\xE2\x80\x99") == 0) {  // U+2019
      out += '\'';
      i += 2;
      continue;
    }
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
  }
  return out;
}

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

template <size_t N>
bool ContainsAny(std::string_view text, const std::array<std::string_view, N>& parts) {
  for (std::string_view p : parts) {
    if (Contains(text, p)) return true;
  }
  return false;
}

// The end of the reply, from a character boundary.
std::string_view Tail(std::string_view folded) {
  if (folded.size() <= kNudgeTailChars) return folded;
  size_t start = folded.size() - kNudgeTailChars;
  while (start < folded.size() && (static_cast<unsigned char>(folded[start]) & 0xC0) == 0x80) {
    ++start;
  }
  return folded.substr(start);
}

constexpr std::array<std::string_view, 22> kLookupPromises = {
    "let me check",    "let me look",  "let me find",        "let me search",       "let me see",
    "let me pull",     "let me fetch", "let me get",         "i'll check",          "i will check",
    "i'll look",       "i will look",  "i'll find",          "i will find",         "i'll search",
    "i will search",   "i'll pull up", "i'm going to check", "i am going to check", "checking now",
    "looking that up", "one moment"};

// "<lead> <verb>" announces a write when the reply ends there.
constexpr std::array<std::string_view, 14> kAnnounceLeads = {
    "proceeding to ", "i'll now ",  "i will now ",   "now i'll ",   "now i will ",
    "next, i'll ",    "next i'll ", "next, i will ", "let me now ", "i'm going to ",
    "i am going to ", "i'll ",      "i will ",       "let me "};
constexpr std::array<std::string_view, 12> kWriteVerbs = {"create", "add",  "update",   "delete",
                                                          "move",   "mark", "assign",   "remove",
                                                          "rename", "set",  "schedule", "complete"};

// Offers and questions leave the next step to the person.
constexpr std::array<std::string_view, 8> kOffers = {"if you",   "want me",  "would you like",
                                                     "shall i",  "should i", "let me know",
                                                     "once you", "when you"};

bool AnnouncesWrite(std::string_view tail) {
  if (ContainsAny(tail, kOffers) || Contains(tail, "?")) return false;
  for (std::string_view lead : kAnnounceLeads) {
    for (size_t at = tail.find(lead); at != std::string_view::npos; at = tail.find(lead, at + 1)) {
      std::string_view rest = tail.substr(at + lead.size());
      for (std::string_view verb : kWriteVerbs) {
        // Whole words only: "add" is not "address".
        if (rest.substr(0, verb.size()) == verb &&
            (rest.size() == verb.size() ||
             !std::isalpha(static_cast<unsigned char>(rest[verb.size()])))) {
          return true;
        }
      }
    }
  }
  return false;
}

bool IsNameChar(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

// A tool name used as a call: `hub_create_tasks(`, `hub_create_tasks {`, or
// a JSON object naming it ("name": "hub_create_tasks").
bool WritesCallAsText(std::string_view folded, std::span<const std::string> offered) {
  if (Contains(folded, "<tool_call>") || Contains(folded, "\"tool_calls\"")) return true;
  for (const std::string& name : offered) {
    for (size_t at = folded.find(name); at != std::string_view::npos;
         at = folded.find(name, at + 1)) {
      if (at > 0 && IsNameChar(folded[at - 1])) continue;
      size_t end = at + name.size();
      if (end < folded.size() && IsNameChar(folded[end])) continue;
      if (at > 0 && folded[at - 1] == '"') {
        std::string_view before = folded.substr(0, at - 1);
        size_t colon = before.find_last_not_of(" \t\n");
        if (colon != std::string_view::npos && before[colon] == ':') return true;
      }
      while (end < folded.size() && (folded[end] == ' ' || folded[end] == '`')) ++end;
      if (end < folded.size() && (folded[end] == '(' || folded[end] == '{')) return true;
    }
  }
  return false;
}

}  // namespace

NudgeReason NudgeFor(std::string_view reply, bool tools_ran,
                     std::span<const std::string> offered_tools) {
  std::string folded = Fold(reply);
  if (WritesCallAsText(folded, offered_tools)) return NudgeReason::kCallAsText;
  std::string_view tail = Tail(folded);
  if (!tools_ran) {
    if (ContainsAny(tail, kLookupPromises) && !ContainsAny(tail, kOffers) && !Contains(tail, "?")) {
      return NudgeReason::kPromisedLookup;
    }
    return NudgeReason::kNone;
  }
  return AnnouncesWrite(tail) ? NudgeReason::kAnnouncedWrite : NudgeReason::kNone;
}

std::string_view NudgeMessage(NudgeReason reason) {
  switch (reason) {
    case NudgeReason::kPromisedLookup:
      return "You said you would look this up, but no tool has run. Only tool calls do "
             "anything: make the call now, then answer from its result.";
    case NudgeReason::kCallAsText:
      return "You wrote a tool call as text, so nothing ran. Make it as a real tool call now.";
    case NudgeReason::kAnnouncedWrite:
      return "You announced the next step but did not take it. Make that tool call now, or "
             "answer saying what is done and what is not.";
    case NudgeReason::kNone:
      break;
  }
  return "";
}

}  // namespace ensemble::core::assistant
