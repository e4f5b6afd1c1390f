#include "core/assistant/local_request.h"

#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <utility>

#include "core/assistant/local_due_phrase.h"
#include "core/refs/summary.h"
#include "core/text/trim.h"
#include "core/text/utf8.h"

namespace ensemble::core::assistant {
namespace {

using Words = std::initializer_list<std::string_view>;

bool IsWordByte(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u >= 0x80;
}

char LowerAscii(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool In(Words list, std::string_view word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

template <std::size_t N>
bool In(const std::string_view (&list)[N], std::string_view word) {
  return std::find(std::begin(list), std::end(list), word) != std::end(list);
}

// The message as the parser reads it: smart quotes made straight, line
// breaks made "; " (so a pasted list splits), white space collapsed, and a
// lowercase twin with the same byte offsets.
struct ParsedText {
  std::string orig;
  std::string low;
};

ParsedText Normalize(std::string_view raw) {
  const std::string s = text::RepairUtf8(raw);
  std::string out;
  out.reserve(s.size());
  auto push_space = [&out] {
    if (!out.empty() && out.back() != ' ') out += ' ';
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto u = static_cast<unsigned char>(s[i]);
    if (u == 0xE2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80) {
      const auto third = static_cast<unsigned char>(s[i + 2]);
      if (third == 0x98 || third == 0x99) {  // ‘ ’
        out += '\'';
        i += 2;
        continue;
      }
      if (third == 0x9C || third == 0x9D) {  // “ ”
        out += '"';
        i += 2;
        continue;
      }
    }
    if (s[i] == '\n' || s[i] == '\r') {
      while (!out.empty() && out.back() == ' ') out.pop_back();
      if (!out.empty() && out.back() != ';') out += ';';
      push_space();
    } else if (u < 0x20 || u == 0x7F || s[i] == ' ') {
      push_space();
    } else {
      out += s[i];
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  ParsedText t;
  t.low.resize(out.size());
  std::transform(out.begin(), out.end(), t.low.begin(), LowerAscii);
  t.orig = std::move(out);
  return t;
}

// A byte range of a ParsedText; the parser narrows spans by eating words.
struct Span {
  const ParsedText* t = nullptr;
  std::size_t b = 0;
  std::size_t e = 0;

  std::string_view low() const { return std::string_view(t->low).substr(b, e - b); }
  std::string_view orig() const { return std::string_view(t->orig).substr(b, e - b); }
  bool empty() const { return b >= e; }
};

void TrimSpaces(Span& s) {
  while (s.b < s.e && s.t->low[s.b] == ' ') ++s.b;
  while (s.e > s.b && s.t->low[s.e - 1] == ' ') --s.e;
}

void TrimPunct(Span& s) {
  TrimSpaces(s);
  while (!s.empty() && IsTrailingPunct(s.t->low[s.e - 1])) {
    --s.e;
    TrimSpaces(s);
  }
}

// Eats `w` (lowercase; may hold spaces) at the start of `s` when it ends on a
// word boundary, and the spaces after it.
bool EatWord(Span& s, std::string_view w) {
  const std::string_view l = s.low();
  if (l.size() < w.size() || l.compare(0, w.size(), w) != 0) return false;
  if (l.size() > w.size() && IsWordByte(l[w.size()]) && IsWordByte(w.back())) return false;
  s.b += w.size();
  TrimSpaces(s);
  return true;
}

std::string_view EatAny(Span& s, Words words) {
  for (std::string_view w : words) {
    if (EatWord(s, w)) return w;
  }
  return {};
}

template <std::size_t N>
std::string_view EatAny(Span& s, const std::string_view (&words)[N]) {
  for (std::string_view w : words) {
    if (EatWord(s, w)) return w;
  }
  return {};
}

// Eats `w` at the end of `s` when it starts on a word boundary.
bool EatSuffix(Span& s, std::string_view w) {
  const std::string_view l = s.low();
  if (l.size() < w.size() || l.compare(l.size() - w.size(), w.size(), w) != 0) return false;
  if (l.size() > w.size() && IsWordByte(l[l.size() - w.size() - 1]) && IsWordByte(w.front())) {
    return false;
  }
  s.e -= w.size();
  TrimSpaces(s);
  return true;
}

std::string_view EatAnySuffix(Span& s, Words words) {
  for (std::string_view w : words) {
    if (EatSuffix(s, w)) return w;
  }
  return {};
}

bool StartsWith(const Span& s, char c) { return !s.empty() && s.t->low[s.b] == c; }

// Words of lowercase text: runs of letters, digits and non-ASCII bytes.
std::vector<std::string_view> SplitWords(std::string_view low) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < low.size()) {
    while (i < low.size() && !IsWordByte(low[i])) ++i;
    const std::size_t start = i;
    while (i < low.size() && IsWordByte(low[i])) ++i;
    if (i > start) out.push_back(low.substr(start, i - start));
  }
  return out;
}

bool HasWord(const std::vector<std::string_view>& words, Words any) {
  for (std::string_view w : words) {
    if (In(any, w)) return true;
  }
  return false;
}

bool HasPair(const std::vector<std::string_view>& words, std::string_view a, std::string_view b) {
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] == a && words[i + 1] == b) return true;
  }
  return false;
}

// --- Titles --------------------------------------------------------------

// The title a span holds: trimmed, without bullets, wrapping quotes or
// trailing punctuation; with `capitalise`, its first word capitalised when it
// is plain lowercase ("call Mira" -> "Call Mira"; "iPhone case" stays).
std::string CleanTitle(Span s, bool capitalise = true) {
  TrimPunct(s);
  while (EatAny(s, {"-", "*", "\u2022"}).size() > 0) {
  }
  for (char q : {'"', '\''}) {
    const std::string_view o = s.orig();
    if (o.size() >= 2 && o.front() == q && o.back() == q) {
      ++s.b;
      --s.e;
      TrimPunct(s);
    }
  }
  TrimPunct(s);
  std::string title(s.orig());
  std::size_t first_word_end = 0;
  while (first_word_end < title.size() && title[first_word_end] != ' ') ++first_word_end;
  bool plain = first_word_end > 0;
  for (std::size_t i = 0; i < first_word_end; ++i)
    plain = plain && title[i] >= 'a' && title[i] <= 'z';
  if (plain && capitalise) title[0] = static_cast<char>(title[0] - 'a' + 'A');
  return title;
}

bool IsPronoun(std::string_view low) {
  return In({"it", "this", "that", "this one", "that one", "these", "those", "them", "this task",
             "that task", "something", "one"},
            low);
}

bool MeansAll(std::string_view low) {
  return In({"all", "everything", "all tasks", "all my tasks", "all of them", "every task",
             "all of it", "all of these", "them all"},
            low) ||
         low.rfind("all ", 0) == 0;
}

// The quoted titles of `s` when it holds nothing else but separators
// ("'Draft brief' and 'Call Mira'"); nullopt otherwise.
std::optional<std::vector<Span>> QuotedTitles(const Span& s) {
  const std::string_view o = s.t->orig;
  std::vector<Span> quoted;
  std::string rest;
  std::size_t i = s.b;
  while (i < s.e) {
    const char q = o[i];
    const bool opens = (q == '"' || q == '\'') &&
                       (i == s.b || o[i - 1] == ' ' || o[i - 1] == '(' || o[i - 1] == ',' ||
                        o[i - 1] == ':' || o[i - 1] == ';') &&
                       i + 1 < s.e && o[i + 1] != ' ';
    if (opens) {
      std::size_t j = i + 1;
      for (; j < s.e; ++j) {
        if (o[j] != q || o[j - 1] == ' ') continue;
        if (j + 1 == s.e || o[j + 1] == ' ' || o[j + 1] == ',' || o[j + 1] == '.' ||
            o[j + 1] == ';' || o[j + 1] == ':' || o[j + 1] == '!' || o[j + 1] == '?' ||
            o[j + 1] == ')') {
          break;
        }
      }
      if (j < s.e) {
        quoted.push_back(Span{s.t, i + 1, j});
        rest += ' ';
        i = j + 1;
        continue;
      }
    }
    rest += s.t->low[i];
    ++i;
  }
  if (quoted.empty()) return std::nullopt;
  for (std::string_view w : SplitWords(rest)) {
    if (!In({"and", "then", "also", "plus"}, w)) return std::nullopt;
  }
  return quoted;
}

// Pieces of a list: split at ';' and ',', then at " and " / " & ".
std::vector<Span> SplitList(const Span& s) {
  std::vector<Span> pieces;
  std::size_t start = s.b;
  for (std::size_t i = s.b; i <= s.e; ++i) {
    if (i == s.e || s.t->low[i] == ',' || s.t->low[i] == ';') {
      pieces.push_back(Span{s.t, start, i});
      start = i + 1;
    }
  }
  std::vector<Span> out;
  for (Span piece : pieces) {
    TrimSpaces(piece);
    EatAny(piece, {"and", "&", "then"});
    const std::string_view low = s.t->low;
    std::size_t from = piece.b;
    for (std::size_t i = piece.b; i < piece.e; ++i) {
      for (std::string_view sep : {std::string_view(" and "), std::string_view(" & ")}) {
        if (i + sep.size() <= piece.e && low.compare(i, sep.size(), sep) == 0) {
          out.push_back(Span{s.t, from, i});
          from = i + sep.size();
          i = from - 1;
          break;
        }
      }
    }
    out.push_back(Span{s.t, from, piece.e});
  }
  return out;
}

// --- Requests ------------------------------------------------------------

LocalRequest Gap(LocalGap gap, std::string topic = {}) {
  LocalRequest r;
  r.gap = gap;
  r.topic = std::move(topic);
  return r;
}

// The area a message is about, for "For <topic>, set up a model".
std::string TopicOf(std::string_view low) {
  struct Topic {
    std::string_view words;  // Space-separated.
    std::string_view topic;
  };
  static constexpr Topic kTopics[] = {
      {"board boards column columns card cards lane lanes", "boards"},
      {"meeting meetings transcript minutes agenda", "meetings"},
      {"calendar event events appointment appointments schedule", "the calendar"},
      {"page pages doc docs document documents note notes wiki", "pages and notes"},
      {"project projects deliverable deliverables", "projects"},
      {"file files pdf upload attachment", "files"},
      {"email emails mail slack jira github app apps teams", "connected apps"},
      {"search web google internet news weather website", "web searches"},
      {"skill skills routine routines", "skills and routines"},
      {"reminder reminders alarm", "reminders"},
      {"delete remove trash erase", "deletions"},
      {"assign assigned priority prioritize rename describe description person people",
       "changing task details"},
      {"setting settings model", "settings"},
  };
  const std::vector<std::string_view> words = SplitWords(low);
  for (const Topic& topic : kTopics) {
    for (std::string_view key : SplitWords(topic.words)) {
      if (std::find(words.begin(), words.end(), key) != words.end())
        return std::string(topic.topic);
    }
  }
  return {};
}

LocalRequest NeedsModel(const Span& whole) {
  return Gap(LocalGap::kNeedsModel, TopicOf(whole.low()));
}

constexpr std::string_view kTaskNouns[] = {"to-dos", "to-do", "to dos", "to do", "todos",
                                           "todo",   "tasks", "task",   "items", "item"};

bool IsPlural(std::string_view noun) { return !noun.empty() && (noun.back() == 's'); }

// Eats "my list", "my to-do list", "the task list", "tasks" ... at the start.
bool EatListPhrase(Span& s) {
  Span c = s;
  EatAny(c, {"my", "the", "our"});
  EatAny(c, {"to-do", "to do", "todo", "task"});
  if (EatAny(c, {"list", "tasks", "todos", "to-dos"}).empty()) return false;
  s = c;
  return true;
}

// Eats " to my list", " on my to-do list", " as a task" ... at the end.
bool EatListSuffix(Span& s) {
  Span c = s;
  if (!EatAnySuffix(c, {"as a task", "as a todo", "as a to-do", "as a to do"}).empty()) {
    s = c;
    return true;
  }
  if (EatAnySuffix(c, {"list", "tasks", "todos", "to-dos"}).empty()) return false;
  EatAnySuffix(c, {"to-do", "to do", "todo", "task"});
  EatAnySuffix(c, {"my", "the", "our"});
  if (EatAnySuffix(c, {"to", "on", "onto"}).empty()) return false;
  s = c;
  return true;
}

std::optional<LocalRequest> BuildAdd(Span content, bool plural, const calendar::WeekDate& today,
                                     bool require_quotes) {
  TrimSpaces(content);
  while (StartsWith(content, ':') || StartsWith(content, '-')) {
    ++content.b;
    TrimSpaces(content);
  }
  if (content.empty()) return Gap(LocalGap::kNoTitle);
  LocalRequest r;
  r.intent = LocalIntent::kAdd;
  // Quoted titles share one due phrase after the last quote.
  Span body = content;
  std::size_t phrase = 0;
  const std::string due = ResolveDuePhrase(body.low(), today, &phrase);
  if (!due.empty()) body.e = body.b + phrase;
  TrimPunct(body);
  if (std::optional<std::vector<Span>> quoted = QuotedTitles(body)) {
    for (const Span& q : *quoted) r.tasks.push_back({CleanTitle(q), due});
  } else if (require_quotes) {
    return std::nullopt;
  } else {
    bool split = plural;
    for (std::size_t i = content.b; i < content.e && !split; ++i) split = content.t->low[i] == ';';
    std::vector<Span> parts = split ? SplitList(content) : std::vector<Span>{content};
    for (Span part : parts) {
      TrimPunct(part);
      std::size_t at = 0;
      std::string part_due = ResolveDuePhrase(part.low(), today, &at);
      if (!part_due.empty()) part.e = part.b + at;
      r.tasks.push_back({CleanTitle(part), std::move(part_due)});
    }
  }
  std::vector<LocalTask> kept;
  for (LocalTask& task : r.tasks) {
    std::string low(task.title);
    std::transform(low.begin(), low.end(), low.begin(), LowerAscii);
    if (IsPronoun(low)) return Gap(LocalGap::kNoTitle);
    if (!task.title.empty()) kept.push_back(std::move(task));
  }
  if (kept.empty()) return Gap(LocalGap::kNoTitle);
  if (kept.size() > kMaxLocalTitles) {
    return Gap(LocalGap::kNeedsModel,
               "more than " + std::to_string(kMaxLocalTitles) + " tasks at once");
  }
  r.tasks = std::move(kept);
  return r;
}

std::optional<LocalRequest> ParseAdd(const Span& whole, const calendar::WeekDate& today) {
  Span c = whole;
  if (EatAny(c, {"remind me to", "remind me that i need to", "remind me that i have to"}).size()) {
    return BuildAdd(c, false, today, false);
  }
  {  // "todo: X", "new task - X", "tasks: A, B"
    Span l = c;
    EatWord(l, "new");
    const std::string_view noun = EatAny(l, kTaskNouns);
    if (!noun.empty() && (StartsWith(l, ':') || StartsWith(l, '-'))) {
      return BuildAdd(l, IsPlural(noun), today, false);
    }
  }
  if (EatAny(c, {"add", "create", "make", "put", "new", "jot down"}).empty()) return std::nullopt;
  Span q = c;
  bool plural = false;
  if (!EatAny(q, {"a couple of", "a few", "the following", "following", "some", "these", "several",
                  "multiple"})
           .empty()) {
    plural = true;
  } else {
    std::string_view first = q.low().substr(0, q.low().find(' '));
    while (!first.empty() && !IsWordByte(first.back())) first.remove_suffix(1);
    if (CountWord(first) > 0) {
      plural = CountWord(first) > 1;
      EatWord(q, first);
    }
  }
  EatAny(q, {"new", "more", "quick"});
  const std::string_view noun = EatAny(q, kTaskNouns);
  if (!noun.empty()) {
    plural = plural || IsPlural(noun);
    if (StartsWith(q, ':') || StartsWith(q, '-')) {
      return BuildAdd(q, plural, today, false);
    }
    if (!EatAny(q, {"called", "named", "titled", "saying", "that says"}).empty()) {
      return BuildAdd(q, plural, today, false);
    }
    if (EatWord(q, "to")) {
      if (EatListPhrase(q)) return BuildAdd(q, plural, today, false);
      // "add a task to the board": a place, not a title.
      Span det = q;
      if (!EatAny(det, {"the", "my", "our", "this", "that"}).empty()) return NeedsModel(whole);
      return BuildAdd(q, plural, today, false);
    }
    // A task for a person, in a project or on a board needs look-ups.
    Span place = q;
    if (!EatAny(place, {"for", "in", "on", "under", "with", "about"}).empty()) {
      return NeedsModel(whole);
    }
    return BuildAdd(q, plural, today, false);
  }
  Span r = c;
  if (EatListPhrase(r) && (StartsWith(r, ':') || StartsWith(r, '-'))) {
    return BuildAdd(r, true, today, false);
  }
  r = c;
  if (EatListSuffix(r)) {
    bool list = false;
    for (std::size_t i = r.b; i < r.e && !list; ++i) list = r.t->low[i] == ',';
    return BuildAdd(r, list, today, false);
  }
  if (std::optional<LocalRequest> quoted = BuildAdd(c, true, today, true)) return quoted;
  return NeedsModel(whole);
}

struct StatusWord {
  std::string_view word;
  std::string_view status;
};

constexpr StatusWord kStatusWords[] = {
    {"in progress", "doing"}, {"in-progress", "doing"}, {"not started", "todo"},
    {"not done", "todo"},     {"to-do", "todo"},        {"to do", "todo"},
    {"todo", "todo"},         {"doing", "doing"},       {"started", "doing"},
    {"done", "done"},         {"completed", "done"},    {"complete", "done"},
    {"finished", "done"},     {"open", "todo"},         {"undone", "todo"},
};

// Eats a status word at the end of `s`; empty when there is none.
std::string_view EatStatusSuffix(Span& s) {
  for (const StatusWord& sw : kStatusWords) {
    Span c = s;
    if (EatSuffix(c, sw.word) && !c.empty()) {
      s = c;
      return sw.status;
    }
  }
  return {};
}

// The status `s` names, the whole of it ("Doing", "the Done column").
std::string_view WholeStatus(Span s) {
  TrimPunct(s);
  EatWord(s, "the");
  EatAnySuffix(s, {"column", "list", "lane", "status", "stage", "pile"});
  for (const StatusWord& sw : kStatusWords) {
    if (s.low() == sw.word) return sw.status;
  }
  return {};
}

LocalRequest Change(Span target, std::string_view status, LocalIntent intent) {
  TrimPunct(target);
  if (std::optional<std::vector<Span>> quoted = QuotedTitles(target)) {
    if (quoted->size() > 1) return Gap(LocalGap::kNeedsModel, "several tasks at once");
    target = quoted->front();
  }
  EatAny(target, {"the task called", "the task named", "the task", "my task", "task called",
                  "task named", "task", "the to-do", "the todo", "to-do", "todo"});
  EatAnySuffix(target, {"task", "todo", "to-do", "item"});
  {
    Span rest = target;
    if (!EatAny(rest, {"the", "my"}).empty() && !rest.empty()) target = rest;
  }
  // "@Renew passport": a mention typed or picked from the dock's @-menu
  // names the task by its title; the "@" is not part of it.
  if (!target.empty() && target.t->low[target.b] == '@') {
    ++target.b;
    TrimSpaces(target);
  }
  // The lookup's query keeps the person's words as written.
  const std::string title = CleanTitle(target, false);
  std::string low(title);
  std::transform(low.begin(), low.end(), low.begin(), LowerAscii);
  if (title.empty() || IsPronoun(low)) return Gap(LocalGap::kWhichTask);
  if (MeansAll(low)) return Gap(LocalGap::kNeedsModel, "several tasks at once");
  LocalRequest r;
  r.intent = intent;
  r.target = title;
  r.status = std::string(status);
  return r;
}

// Any valid day: only whether a phrase names a date is asked of it.
constexpr calendar::WeekDate kAnyMonday{2026, 11, 30, 1, 2026, 49};

std::optional<LocalRequest> ParseChange(const Span& whole) {
  Span c = whole;
  auto change = [&](std::string_view status) {
    return Change(c, status, status == "done" ? LocalIntent::kComplete : LocalIntent::kMove);
  };
  if (EatWord(c, "mark")) {  // "mark X (as) done"
    const std::string_view status = EatStatusSuffix(c);
    if (status.empty()) return std::nullopt;
    EatAnySuffix(c, {"as being", "as"});
    return change(status);
  }
  if (!EatAny(c, {"set", "change", "switch", "update"}).empty()) {  // "set X to doing"
    const std::string_view status = EatStatusSuffix(c);
    if (status.empty()) return std::nullopt;
    EatSuffix(c, "the");
    if (EatAnySuffix(c, {"to be", "to", "as"}).empty()) return std::nullopt;
    EatAnySuffix(c, {"status", "'s status"});
    EatAny(c, {"the status of", "status of"});
    return change(status);
  }
  if (!EatAny(c, {"move", "drag"}).empty()) {  // "move X to Doing"
    const std::string_view low = c.low();
    std::size_t to = std::string_view::npos;
    std::size_t len = 0;
    for (std::string_view sep : {std::string_view(" to "), std::string_view(" into ")}) {
      const std::size_t at = low.rfind(sep);
      if (at != std::string_view::npos && (to == std::string_view::npos || at > to)) {
        to = at;
        len = sep.size();
      }
    }
    if (to == std::string_view::npos) return NeedsModel(whole);
    Span target{c.t, c.b, c.b + to};
    Span dest{c.t, c.b + to + len, c.e};
    const std::string_view status = WholeStatus(dest);
    if (status.empty()) {
      LocalRequest r = NeedsModel(whole);
      if (r.topic.empty()) {
        Span d = dest;
        TrimPunct(d);
        std::size_t at = 0;
        const bool date = !ResolveDuePhrase("by " + std::string(d.low()), kAnyMonday, &at).empty();
        r.topic = date ? "changing due dates" : "moving tasks to boards or projects";
      }
      return r;
    }
    return Change(target, status, LocalIntent::kMove);
  }
  if (!EatAny(c, {"complete", "check off", "tick off", "cross off"}).empty()) {
    return change("done");
  }
  if (!EatAny(c, {"check", "tick", "cross"}).empty()) {  // "check X off"
    if (!EatSuffix(c, "off")) return std::nullopt;
    return change("done");
  }
  if (!EatAny(c, {"i have just finished", "i have finished", "i've just finished", "i've finished",
                  "i just finished", "i finished", "i have completed", "i've completed",
                  "i just completed", "i completed", "i'm done with", "i am done with",
                  "i'm finished with", "i am finished with", "done with", "finished with"})
           .empty()) {
    return change("done");
  }
  if (!EatAny(c, {"i'm working on", "i am working on", "i'm starting on", "i am starting on",
                  "i started working on", "i have started", "i've started", "i started",
                  "start working on", "started working on", "working on"})
           .empty()) {
    return change("doing");
  }
  if (!EatAny(c, {"reopen", "re-open"}).empty()) return change("todo");
  {  // "X is done", but not "what is done"
    Span x = whole;
    const std::string_view status = EatStatusSuffix(x);
    Span question = x;
    if (!status.empty() &&
        EatAny(question, {"what", "whats", "what's", "which", "who", "how", "is", "are", "show",
                          "list", "anything", "nothing", "something", "there"})
            .empty()) {
      EatAnySuffix(x, {"now", "already", "all", "finally"});
      if (EatSuffix(x, "is") && !x.empty()) {
        c = x;
        return change(status);
      }
    }
  }
  return std::nullopt;
}

constexpr std::string_view kDueVocab[] = {
    "what",      "whats",    "s",        "is",      "are",    "due",   "overdue",   "deadline",
    "deadlines", "today",    "tomorrow", "this",    "next",   "week",  "show",      "me",
    "list",      "my",       "tasks",    "task",    "todos",  "todo",  "to",        "do",
    "anything",  "any",      "items",    "item",    "things", "thing", "the",       "for",
    "on",        "i",        "have",     "late",    "past",   "by",    "end",       "of",
    "in",        "there",    "get",      "tell",    "all",    "and",   "or",        "coming",
    "up",        "upcoming", "soon",     "still",   "else",   "which", "left",      "open",
    "rest",      "monday",   "mon",      "tuesday", "tue",    "tues",  "wednesday", "wed",
    "thursday",  "thu",      "thur",     "thurs",   "friday", "fri",   "saturday",  "sat",
    "sunday",    "sun",      "how",      "many",    "re",     "need",  "plate"};

std::optional<LocalRequest> ParseDue(const Span& whole, const calendar::WeekDate& today) {
  const std::vector<std::string_view> words = SplitWords(whole.low());
  // "what's on today", "what do I need to do tomorrow", "what's on my plate".
  const bool asks_day = HasWord(words, {"what", "whats"}) &&
                        HasWord(words, {"on", "have", "need", "do"}) &&
                        HasWord(words, {"today", "tomorrow", "week"});
  if (!HasWord(words, {"due", "overdue", "deadline", "deadlines"}) && !asks_day) {
    return std::nullopt;
  }
  for (std::string_view w : words) {
    if (!In(kDueVocab, w)) return std::nullopt;
  }
  const bool overdue = HasWord(words, {"overdue", "late"}) || HasPair(words, "past", "due");
  LocalRequest r;
  r.intent = LocalIntent::kDue;
  LocalDueRange& d = r.due;
  const std::string t = calendar::AddDays(today, 0);
  int weekday = 0;
  for (std::string_view w : words) weekday = weekday ? weekday : WeekdayNumberOf(w);
  if (HasWord(words, {"tomorrow"})) {
    d.from = d.to = calendar::AddDays(today, 1);
    d.label = "tomorrow";
  } else if (HasPair(words, "next", "week")) {
    d.from = calendar::AddDays(today, 8 - today.iso_weekday);
    d.to = calendar::AddDays(today, 14 - today.iso_weekday);
    d.label = "next week";
  } else if (HasWord(words, {"week"})) {
    d.from = t;
    d.to = calendar::AddDays(today, 7 - today.iso_weekday);
    d.include_overdue = true;
    d.label = "this week";
  } else if (weekday > 0) {
    int ahead = (weekday - today.iso_weekday + 7) % 7;
    if (HasWord(words, {"next"})) {
      ahead = 8 - today.iso_weekday + weekday - 1;
    } else if (ahead == 0 && !HasWord(words, {"this"})) {
      ahead = 7;
    }
    d.from = d.to = calendar::AddDays(today, ahead);
    d.label = "on " + std::string(calendar::WeekdayName(weekday)) + ", " +
              refs::FormatDueDate(d.from, d.from.compare(0, 4, t, 0, 4) != 0);
  } else if (HasWord(words, {"soon", "upcoming", "coming"})) {
    d.from = t;
    d.to = calendar::AddDays(today, 6);
    d.include_overdue = true;
    d.label = "in the next 7 days";
  } else if (overdue && !HasWord(words, {"today"})) {
    d.from = d.to = t;
    d.include_overdue = true;
    d.overdue_only = true;
    d.label = "overdue";
  } else {
    d.from = d.to = t;
    d.include_overdue = true;
    d.label = "today";
  }
  if (overdue) d.include_overdue = true;
  if (d.from.empty() || d.to.empty()) return Gap(LocalGap::kNeedsModel, "dates past 9999");
  return r;
}

constexpr std::string_view kListVocab[] = {
    "list",     "show",  "me",    "my",       "all",     "the",         "our",     "what",
    "whats",    "s",     "is",    "are",      "re",      "open",        "tasks",   "task",
    "todos",    "todo",  "to",    "do",       "dos",     "view",        "see",     "display",
    "get",      "give",  "tell",  "about",    "i",       "have",        "done",    "completed",
    "finished", "doing", "in",    "progress", "pending", "outstanding", "current", "remaining",
    "left",     "still", "on",    "of",       "every",   "items",       "item",    "things",
    "there",    "any",   "which", "a",        "how",     "many",        "let",     "look",
    "at",       "need",  "every", "so",       "far",     "am",          "working"};

std::optional<LocalRequest> ParseList(const Span& whole) {
  const std::vector<std::string_view> words = SplitWords(whole.low());
  for (std::string_view w : words) {
    if (!In(kListVocab, w)) return std::nullopt;
  }
  const bool noun = HasWord(words, {"tasks", "task", "todos", "todo", "items", "dos"}) ||
                    HasPair(words, "to", "do") || HasPair(words, "my", "list");
  const bool asks = HasWord(words, {"what", "whats", "show", "list", "which"});
  const bool open = HasWord(words, {"open", "pending", "outstanding", "remaining", "left"}) && asks;
  const bool working = HasWord(words, {"working"}) && asks;  // "what am I working on"
  if (!noun && !open && !working) return std::nullopt;
  LocalRequest r;
  r.intent = LocalIntent::kList;
  if (working) {
    r.list_status = "doing";
  } else if (HasWord(words, {"done", "completed", "finished"})) {
    r.list_status = "done";
  } else if (HasWord(words, {"doing"}) || HasPair(words, "in", "progress")) {
    r.list_status = "doing";
  } else if (HasWord(words, {"all", "every"}) && !open) {
    r.list_all = true;
  }
  return r;
}

}  // namespace

std::string_view LocalIntentName(LocalIntent intent) {
  switch (intent) {
    case LocalIntent::kAdd:
      return "add";
    case LocalIntent::kList:
      return "list";
    case LocalIntent::kDue:
      return "due";
    case LocalIntent::kComplete:
      return "complete";
    case LocalIntent::kMove:
      return "move";
    case LocalIntent::kUnsupported:
      break;
  }
  return "unsupported";
}

std::string_view StatusLabel(std::string_view status) {
  if (status == "doing") return "Doing";
  if (status == "done") return "Done";
  return "Todo";
}

LocalRequest ParseLocalRequest(std::string_view message, const calendar::WeekDate& today) {
  const ParsedText text = Normalize(message);
  if (text::CountCodePoints(text.orig) > kMaxLocalMessageChars) {
    return Gap(LocalGap::kNeedsModel, "a request this long");
  }
  Span s{&text, 0, text.orig.size()};
  TrimPunct(s);
  // Politeness and address carry no meaning here.
  for (bool again = true; again;) {
    again = false;
    const std::size_t before_b = s.b;
    const std::size_t before_e = s.e;
    EatAny(s, {"can you please",
               "could you please",
               "would you please",
               "please",
               "pls",
               "plz",
               "can you",
               "could you",
               "would you",
               "will you",
               "i want you to",
               "i'd like you to",
               "go ahead and",
               "hey",
               "hi",
               "hello",
               "ok",
               "okay",
               "so",
               "also",
               "now",
               "and",
               "just",
               "assistant"});
    while (StartsWith(s, ',') || StartsWith(s, ':')) {
      ++s.b;
      TrimSpaces(s);
    }
    EatAnySuffix(s, {"please", "for me", "thanks", "thank you", "pls", "thx"});
    TrimPunct(s);
    again = s.b != before_b || s.e != before_e;
  }
  if (s.empty()) return Gap(LocalGap::kEmpty);
  if (std::optional<LocalRequest> r = ParseAdd(s, today)) return std::move(*r);
  if (std::optional<LocalRequest> r = ParseChange(s)) return std::move(*r);
  if (std::optional<LocalRequest> r = ParseDue(s, today)) return std::move(*r);
  if (std::optional<LocalRequest> r = ParseList(s)) return std::move(*r);
  return NeedsModel(s);
}

}  // namespace ensemble::core::assistant
