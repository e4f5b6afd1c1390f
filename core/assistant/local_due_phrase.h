// Due-date words (local_request.h): the date a trailing phrase such as "by
// Friday" or "next week" names, counted from the person's today. The core
// has no clock, so `today` is always passed in; dates are civil dates in the
// person's time zone.
//
// Thread-safety: pure functions.

#ifndef ENSEMBLE_CORE_ASSISTANT_LOCAL_DUE_PHRASE_H_
#define ENSEMBLE_CORE_ASSISTANT_LOCAL_DUE_PHRASE_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "core/calendar/week_date.h"

namespace ensemble::core::assistant {

// Punctuation that may end a clause: . ! ? ; ,
constexpr bool IsTrailingPunct(char c) {
  return c == '.' || c == '!' || c == '?' || c == ';' || c == ',';
}

// The date a trailing due phrase names, counted from `today`: "today",
// "tonight", "tomorrow", "by Friday" / "on Fri" (a weekday name is the next
// one after today: "Monday" said on a Monday is a week away), "this Friday"
// (on or after today), "next Friday" (in next week), "this week" / "by the
// end of the week" (the ISO week's Sunday), "next week" (next Monday), "in 3
// days", "in 2 weeks", "2026-12-03", "Dec 3", "3rd of December" (the next
// such day on or after today). `text` is lowercase. On success returns the
// date and sets *phrase_start to the byte offset in `text` where the phrase
// (with a leading by/on/due/before/until/for) begins; empty when `text` ends
// in none. A bare weekday ("plan Friday") is not a due phrase: it may be
// part of a title.
std::string ResolveDuePhrase(std::string_view text, const calendar::WeekDate& today,
                             std::size_t* phrase_start);

// 1 (Monday) .. 7 (Sunday) for a lowercase weekday name or its short form
// ("fri", "thurs"); 0 otherwise.
int WeekdayNumberOf(std::string_view word);

// 1..366 from digits or a lowercase number word ("a", "one" .. "ten"); 0
// otherwise.
int CountWord(std::string_view word);

}  // namespace ensemble::core::assistant

#endif  // ENSEMBLE_CORE_ASSISTANT_LOCAL_DUE_PHRASE_H_
