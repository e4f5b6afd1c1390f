#include "core/calendar/meeting_match.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>
#include <unordered_set>

#include "core/calendar/title_match.h"

namespace ensemble::core::calendar {
namespace {

constexpr std::string_view kOutlookIdPrefix = "outlook:";
// Scores are sums of doubles: "within 0.1" tolerates rounding.
constexpr double kScoreEpsilon = 1e-9;

std::string LowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return out;
}

// Lower-cased addresses of `addresses` that are not mine, distinct.
std::unordered_set<std::string> OthersOf(const std::vector<std::string>& addresses,
                                         const std::unordered_set<std::string>& mine) {
  std::unordered_set<std::string> out;
  for (const std::string& a : addresses) {
    if (a.empty()) continue;
    std::string lower = LowerAscii(a);
    if (!mine.count(lower)) out.insert(std::move(lower));
  }
  return out;
}

double TimeScore(const Meeting& m, const CalendarEvent& e, bool* fits) {
  const int64_t start_gap = std::llabs(m.start - e.start);
  const int64_t meeting_len = m.end > m.start ? m.end - m.start : 0;
  const int64_t event_len = e.end > e.start ? e.end - e.start : 0;
  double overlap_ratio = 0;
  if (meeting_len > 0 && event_len > 0) {
    const int64_t overlap = std::min(m.end, e.end) - std::max(m.start, e.start);
    overlap_ratio = overlap <= 0
                        ? 0.0
                        : std::min(1.0, static_cast<double>(overlap) /
                                            static_cast<double>(std::min(meeting_len, event_len)));
  } else if (meeting_len == 0) {
    overlap_ratio = m.start >= e.start && m.start < std::max(e.end, e.start + 1) ? 1.0 : 0.0;
  } else {
    overlap_ratio = e.start >= m.start && e.start < m.end ? 1.0 : 0.0;
  }
  *fits = overlap_ratio >= kMatchMinOverlapOfShorter || start_gap <= kMatchStartToleranceSeconds;
  const double start_part =
      std::max(0.0, 1.0 - static_cast<double>(start_gap) /
                              static_cast<double>(kMatchStartScoreScaleSeconds));
  return 0.5 * overlap_ratio + 0.5 * start_part;
}

bool NamesEvent(const MergedEvent& merged, const std::string& id) {
  auto same = [&id](const std::string& candidate) {
    return candidate == id ||
           (candidate.size() == kOutlookIdPrefix.size() + id.size() &&
            candidate.compare(0, kOutlookIdPrefix.size(), kOutlookIdPrefix) == 0 &&
            candidate.compare(kOutlookIdPrefix.size(), id.size(), id) == 0);
  };
  if (same(merged.event.id)) return true;
  for (const MergedSource& copy : merged.sources) {
    if (same(copy.id)) return true;
  }
  return false;
}

}  // namespace

MatchScore ScoreMeetingAgainstEvent(const Meeting& meeting, const CalendarEvent& event) {
  MatchScore score;
  if (event.all_day || std::llabs(meeting.start - event.start) > kMatchSearchWindowSeconds) {
    return score;
  }
  score.time = TimeScore(meeting, event, &score.fits);
  std::unordered_set<std::string> mine;
  for (const std::string& a : meeting.my_addresses) mine.insert(LowerAscii(a));
  const std::unordered_set<std::string> theirs = OthersOf(meeting.attendees, mine);
  std::vector<std::string> event_addresses;
  for (const Attendee& a : event.attendees) event_addresses.push_back(a.email);
  if (event.organizer.find('@') != std::string::npos) event_addresses.push_back(event.organizer);
  const std::unordered_set<std::string> event_others = OthersOf(event_addresses, mine);
  for (const std::string& a : theirs) score.shared_attendees += event_others.count(a) ? 1 : 0;
  if (!theirs.empty() && !event_others.empty()) {
    score.attendees = static_cast<double>(score.shared_attendees) /
                      static_cast<double>(std::min(theirs.size(), event_others.size()));
  }
  const std::string a = NormalizeTitle(meeting.title), b = NormalizeTitle(event.title);
  std::vector<uint64_t> wa, wb;
  AppendWordHashes(a, &wa);
  AppendWordHashes(b, &wb);
  if (!wa.empty() && !wb.empty()) {
    score.title =
        2.0 * static_cast<double>(SharedWords(wa, wb)) / static_cast<double>(wa.size() + wb.size());
  }
  return score;
}

MeetingMatch MatchMeeting(const Meeting& meeting, const std::vector<MergedEvent>& events) {
  MeetingMatch out;
  if (!meeting.vendor_event_id.empty()) {
    for (size_t i = 0; i < events.size(); ++i) {
      if (NamesEvent(events[i], meeting.vendor_event_id)) {
        out.index = static_cast<int32_t>(i);
        out.via = "vendorId";
        out.score = 1.0;
        out.candidates = 1;
        return out;
      }
    }
  }
  int32_t best = -1;
  MatchScore best_score;
  double best_total = -1, second_total = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    const MatchScore s = ScoreMeetingAgainstEvent(meeting, events[i].event);
    if (!s.fits) continue;
    ++out.candidates;
    const double total = s.total();
    if (total > best_total) {
      second_total = std::max(second_total, best_total);
      best_total = total;
      best_score = s;
      best = static_cast<int32_t>(i);
    } else {
      second_total = std::max(second_total, total);
    }
  }
  if (best < 0) {
    out.reason = "noCandidate";
    return out;
  }
  out.score = best_total;
  out.runner_up = out.candidates > 1 ? second_total : 0.0;
  const bool qualifies = best_score.shared_attendees > 0 ||
                         best_score.title >= kMatchMinTitleOverlap || out.candidates == 1;
  if (!qualifies) {
    out.reason = "weak";
  } else if (out.candidates > 1 &&
             best_total - second_total <= kMatchRunnerUpMargin + kScoreEpsilon) {
    out.reason = "ambiguous";
  } else {
    out.index = best;
    out.via = "score";
  }
  return out;
}

nlohmann::json ToJson(const MeetingMatch& match, const std::vector<MergedEvent>& events) {
  nlohmann::json out;
  out["matched"] = match.index >= 0;
  out["eventId"] = match.index >= 0 && static_cast<size_t>(match.index) < events.size()
                       ? nlohmann::json(events[match.index].event.id)
                       : nlohmann::json(nullptr);
  out["via"] = match.via;
  out["reason"] = match.reason;
  out["score"] = match.score;
  out["runnerUp"] = match.runner_up;
  out["candidates"] = match.candidates;
  return out;
}

}  // namespace ensemble::core::calendar
