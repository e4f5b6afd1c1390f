// A tool result's summary as display text (spec §4 "A summary is display
// text"): titles and counts, never ids. "Added 2 tasks: “Draft brief” and
// “Call Mira”." Past five titles the rest is counted ("and 3 more"); titles
// that repeat within one summary get their due date ("due 3 Dec"), or a
// number when dates do not tell them apart. Ids stay in the result's data.
//
// Thread-safety: pure functions; safe to call concurrently.

#ifndef ENSEMBLE_CORE_REFS_SUMMARY_H_
#define ENSEMBLE_CORE_REFS_SUMMARY_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ensemble::core::refs {

// Spec §4: past five titles, "and N more".
inline constexpr size_t kMaxSummaryTitles = 5;

// A title longer than this (code points) is cut with "…".
inline constexpr size_t kMaxSummaryTitleChars = 80;

// One record a write touched.
struct SummaryItem {
  std::string title;  // display title; empty, or an id, reads "an untitled <noun>"
  std::string due;    // optional due date "YYYY-MM-DD"; anything else is ignored
};

// "<verb> <count> <noun>: <titles>." with curly quotes, e.g.
// SummarizeRecords("Added", "task", "tasks", items). No items:
// "No tasks added." Titles are whitespace-collapsed and bounded; a title that
// is a record id (core/base/id.h) is never printed.
//
// Repeated titles: when every copy has a due date and the dates differ they
// read “Call Mira” (due 3 Dec) (the year is added, "due 3 Dec 2027", only
// where day and month alone do not tell them apart); otherwise the copies
// are numbered in order: “Call Mira” (1), “Call Mira” (2).
std::string SummarizeRecords(std::string_view verb, std::string_view noun_singular,
                             std::string_view noun_plural, const std::vector<SummaryItem>& items);

// The same from JSON items: each an object with "title" (or "name") and an
// optional "due" (or "dueDate"), or a plain string title. Other values count
// as untitled records.
std::string SummarizeRecords(std::string_view verb, std::string_view noun_singular,
                             std::string_view noun_plural, const nlohmann::json& items);

// "2026-12-03" -> "3 Dec" ("3 Dec 2026" with `with_year`); empty if `date`
// is not a valid YYYY-MM-DD date.
std::string FormatDueDate(std::string_view date, bool with_year);

}  // namespace ensemble::core::refs

#endif  // ENSEMBLE_CORE_REFS_SUMMARY_H_
