#include "core/refs/summary.h"

#include <cstdint>
#include <map>
#include <utility>

#include "core/base/id.h"
#include "core/text/ascii.h"
#include "core/text/trim.h"
#include "core/text/typography.h"
#include "core/text/utf8.h"

namespace ensemble::core::refs {

using text::IsAsciiSpace;
using text::kCloseQuote;
using text::kOpenQuote;
namespace {

using nlohmann::json;

// The title as one bounded line; empty when it cannot be shown (none, or an id).
std::string CleanTitle(std::string_view raw) {
  std::string repaired = text::RepairUtf8(raw);
  std::string line;
  for (char c : text::Trim(repaired)) {
    if (IsAsciiSpace(c)) {
      if (!line.empty() && line.back() != ' ') line += ' ';
    } else {
      line += c;
    }
  }
  if (IsValidId(line)) return {};
  return text::TruncateChars(line, kMaxSummaryTitleChars);
}

// Suffixes that tell apart the items sharing one title: due dates when they
// do, else numbers in order.
std::vector<std::string> Suffixes(const std::vector<const SummaryItem*>& group) {
  for (bool with_year : {false, true}) {
    std::vector<std::string> dates;
    bool usable = true;
    for (const SummaryItem* item : group) {
      std::string date = FormatDueDate(item->due, with_year);
      for (const std::string& other : dates) usable = usable && other != date;
      usable = usable && !date.empty();
      dates.push_back(std::move(date));
    }
    if (usable) {
      for (std::string& d : dates) d = " (due " + d + ")";
      return dates;
    }
  }
  std::vector<std::string> numbers;
  for (size_t i = 0; i < group.size(); ++i) numbers.push_back(" (" + std::to_string(i + 1) + ")");
  return numbers;
}

std::string JoinTitles(const std::vector<std::string>& shown, size_t more) {
  std::string out;
  for (size_t i = 0; i < shown.size(); ++i) {
    if (i > 0) out += (i + 1 == shown.size() && more == 0) ? " and " : ", ";
    out += shown[i];
  }
  if (more > 0) out += " and " + text::FormatCount(more) + " more";
  return out;
}

bool AllDigits(std::string_view s) {
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return !s.empty();
}

const std::string* StringMember(const json& object, const char* a, const char* b) {
  for (const char* key : {a, b}) {
    auto it = object.find(key);
    if (it != object.end() && it->is_string()) return it->get_ptr<const std::string*>();
  }
  return nullptr;
}

}  // namespace

std::string FormatDueDate(std::string_view date, bool with_year) {
  if (date.size() != 10 || date[4] != '-' || date[7] != '-' || !AllDigits(date.substr(0, 4)) ||
      !AllDigits(date.substr(5, 2)) || !AllDigits(date.substr(8, 2))) {
    return {};
  }
  int year = std::stoi(std::string(date.substr(0, 4)));
  int month = std::stoi(std::string(date.substr(5, 2)));
  int day = std::stoi(std::string(date.substr(8, 2)));
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return {};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (day > kDays[month - 1] + (month == 2 && leap ? 1 : 0)) return {};
  std::string out = std::to_string(day) + " " + kMonths[month - 1];
  if (with_year) out += " " + std::to_string(year);
  return out;
}

std::string SummarizeRecords(std::string_view verb, std::string_view noun_singular,
                             std::string_view noun_plural, const std::vector<SummaryItem>& items) {
  if (items.empty()) {
    std::string lowered(verb);
    if (!lowered.empty() && lowered[0] >= 'A' && lowered[0] <= 'Z') lowered[0] += 'a' - 'A';
    return "No " + std::string(noun_plural) + " " + lowered + ".";
  }
  std::vector<std::string> titles;
  titles.reserve(items.size());
  std::map<std::string, std::vector<size_t>> by_title;
  for (size_t i = 0; i < items.size(); ++i) {
    titles.push_back(CleanTitle(items[i].title));
    by_title[titles.back()].push_back(i);
  }
  std::vector<std::string> suffixes(items.size());
  for (const auto& [title, indexes] : by_title) {
    if (indexes.size() < 2) continue;
    std::vector<const SummaryItem*> group;
    for (size_t i : indexes) group.push_back(&items[i]);
    std::vector<std::string> s = Suffixes(group);
    for (size_t g = 0; g < indexes.size(); ++g) suffixes[indexes[g]] = std::move(s[g]);
  }
  size_t shown_count = std::min(items.size(), kMaxSummaryTitles);
  std::vector<std::string> shown;
  for (size_t i = 0; i < shown_count; ++i) {
    std::string name = titles[i].empty()
                           ? "an untitled " + std::string(noun_singular)
                           : std::string(kOpenQuote) + titles[i] + std::string(kCloseQuote);
    shown.push_back(name + suffixes[i]);
  }
  std::string out(verb);
  out += " " + text::FormatCount(items.size()) + " ";
  out += items.size() == 1 ? noun_singular : noun_plural;
  out += ": " + JoinTitles(shown, items.size() - shown_count) + ".";
  return out;
}

std::string SummarizeRecords(std::string_view verb, std::string_view noun_singular,
                             std::string_view noun_plural, const json& items) {
  std::vector<SummaryItem> list;
  if (items.is_array()) {
    for (const json& item : items) {
      SummaryItem s;
      if (item.is_string()) {
        s.title = item.get<std::string>();
      } else if (item.is_object()) {
        if (const std::string* title = StringMember(item, "title", "name")) s.title = *title;
        if (const std::string* due = StringMember(item, "due", "dueDate")) s.due = *due;
      }
      list.push_back(std::move(s));
    }
  }
  return SummarizeRecords(verb, noun_singular, noun_plural, list);
}

}  // namespace ensemble::core::refs
