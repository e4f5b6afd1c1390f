// Event titles compared the way dedupe (spec §2.5, rules 2-4) and the
// meeting match (§2.3) compare them. A title is normalized once: NFKC, lower
// case, mail prefixes dropped ("Fwd:", "Re:", "Invitation:", "Accepted:",
// "Canceled:" ...), apostrophes joined ("year's" is "years"), and every run of
// emoji, symbols, punctuation and white space a single space. Two normalized
// titles match when equal, when one contains the other as whole words (at
// least 3 characters), or at token Jaccard >= 0.6. All-day titles first go
// through a small holiday vocabulary (HolidayKey).
//
// Pure functions; safe to call from any thread.

#ifndef ENSEMBLE_CORE_CALENDAR_TITLE_MATCH_H_
#define ENSEMBLE_CORE_CALENDAR_TITLE_MATCH_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ensemble::core::calendar {

// Titles sharing at least this fraction of their distinct words match.
inline constexpr double kTitleJaccardThreshold = 0.6;
// A title contained in another as whole words matches when it is at least
// this many characters (code points) long.
inline constexpr size_t kMinContainedTitleChars = 3;

// The normalized form described above; "" for a title with no words.
std::string NormalizeTitle(std::string_view title);
// Appends NormalizeTitle(title) to `out` (lets a caller keep every title in
// one buffer).
void AppendNormalizedTitle(std::string_view title, std::string* out);

// `title` without its leading mail prefixes (ASCII, case-insensitive), as
// written otherwise: the title a merged event shows.
std::string_view StripMailPrefixes(std::string_view title);

// Appends the sorted, distinct 64-bit hashes of the words of a normalized
// title to `out`; returns how many were appended.
size_t AppendWordHashes(std::string_view normalized, std::vector<uint64_t>* out);

// |A ∩ B| / |A ∪ B| of two sorted, distinct hash lists (0 when both empty).
double WordJaccard(std::span<const uint64_t> a, std::span<const uint64_t> b);
// |A ∩ B| of two sorted, distinct hash lists.
size_t SharedWords(std::span<const uint64_t> a, std::span<const uint64_t> b);

// True when `inner` occurs in `outer` as whole words (both normalized).
bool ContainsWords(std::string_view outer, std::string_view inner);

// The match rule on two normalized titles with their word hashes. Titles
// with no words never match.
bool NormalizedTitlesMatch(std::string_view a, std::span<const uint64_t> a_words,
                           std::string_view b, std::span<const uint64_t> b_words);
// The same on raw titles (normalizes both; for tests and one-off checks).
bool TitlesMatch(std::string_view a, std::string_view b);

// An all-day title after the holiday vocabulary: HOLIDAY_PHRASES rewrite
// spellings to one name ("xmas" and "christmas day" are "christmas",
// "deepavali" is "diwali") and HOLIDAY_STOPWORDS ("day", "holiday", ...) go.
// Takes and returns normalized titles.
std::string HolidayKey(std::string_view normalized);
// Rule 4's match on two holiday keys: NormalizedTitlesMatch, except that keys
// differing in a distinguishing word ("eve") never match, so "Christmas Eve"
// is never "Christmas".
bool HolidayKeysMatch(std::string_view a, std::string_view b);

}  // namespace ensemble::core::calendar

#endif  // ENSEMBLE_CORE_CALENDAR_TITLE_MATCH_H_
