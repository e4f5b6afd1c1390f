#include "core/calendar/dedupe.h"

#include <algorithm>
#include <numeric>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/calendar/dedupe_groups.h"
#include "core/calendar/title_match.h"

namespace ensemble::core::calendar {
namespace {

// Up to this many attendees in a group are merged by a linear search.
constexpr size_t kLinearAttendeeMerge = 32;

bool SameAddress(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x + 32);
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y + 32);
    if (x != y) return false;
  }
  return true;
}

std::string LowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return out;
}

// Copy `field` of the first copy of `members` that has it, moved out.
std::string TakeFirstNonEmpty(std::span<const int32_t> members, std::vector<CalendarEvent>& copies,
                              std::string CalendarEvent::*field) {
  for (int32_t i : members) {
    std::string& value = copies[i].*field;
    if (!value.empty()) return std::move(value);
  }
  return std::string();
}

// Fills merged.event and merged.sources from the copies of one group (best
// first). Each copy is read here for the last time, so its text is moved,
// not copied: allocating it again was a fifth of the merge's time.
void MergeFields(std::span<const int32_t> members, std::vector<CalendarEvent>& copies,
                 MergedEvent& merged) {
  CalendarEvent& best = copies[members.front()];
  CalendarEvent& out = merged.event;
  out.source = best.source;
  out.calendar = best.calendar;  // The source keeps its own below.
  out.all_day = best.all_day;
  out.start = best.start;
  out.end = best.end;
  out.start_offset = best.start_offset;
  out.end_offset = best.end_offset;
  out.original_start = best.original_start;
  {
    // The stripped title is a part of best.title: keep that part in place.
    const std::string_view stripped = StripMailPrefixes(best.title);
    const char* data = best.title.data();
    if (stripped.empty()) {
      out.title.clear();
    } else if (stripped.data() >= data &&
               stripped.data() + stripped.size() <= data + best.title.size()) {
      const size_t offset = static_cast<size_t>(stripped.data() - data);
      const size_t size = stripped.size();
      out.title = std::move(best.title);
      out.title.resize(offset + size);
      out.title.erase(0, offset);
    } else {
      out.title = std::string(stripped);
    }
  }
  // id and created (the earliest-created copy's) are set by the caller.
  for (int32_t i : members) {
    if (!copies[i].uid.empty()) {
      out.uid = std::move(copies[i].uid);
      break;
    }
  }
  out.description = TakeFirstNonEmpty(members, copies, &CalendarEvent::description);
  out.location = TakeFirstNonEmpty(members, copies, &CalendarEvent::location);
  out.join_url = TakeFirstNonEmpty(members, copies, &CalendarEvent::join_url);
  out.organizer = TakeFirstNonEmpty(members, copies, &CalendarEvent::organizer);
  out.status = TakeFirstNonEmpty(members, copies, &CalendarEvent::status);
  if (members.size() == 1) {
    out.attendees = std::move(best.attendees);
  } else {
    // Attendees: the union by address, first (best) copy's entry kept, a
    // missing name filled from a later copy; those without an address by
    // name.
    size_t total = 0;
    for (int32_t i : members) total += copies[i].attendees.size();
    out.attendees.reserve(total);
    std::unordered_map<std::string, size_t> seen;  // Used for long lists only.
    const bool use_map = total > kLinearAttendeeMerge;
    for (int32_t i : members) {
      for (Attendee& a : copies[i].attendees) {
        size_t found = out.attendees.size();
        if (use_map) {
          std::string key = a.email.empty() ? "name:" + a.name : LowerAscii(a.email);
          found = seen.try_emplace(std::move(key), out.attendees.size()).first->second;
        } else {
          for (size_t j = 0; j < out.attendees.size(); ++j) {
            const Attendee& b = out.attendees[j];
            if (a.email.empty() ? b.email.empty() && a.name == b.name
                                : SameAddress(a.email, b.email)) {
              found = j;
              break;
            }
          }
        }
        if (found == out.attendees.size()) {
          out.attendees.push_back(std::move(a));
        } else if (out.attendees[found].name.empty()) {
          out.attendees[found].name = std::move(a.name);
        }
      }
    }
  }
  merged.sources.reserve(members.size());
  for (int32_t i : members) {
    CalendarEvent& c = copies[i];
    merged.sources.push_back({std::move(c.id), c.source, std::move(c.calendar)});
  }
}

}  // namespace

std::vector<int32_t> GroupCalendarEvents(const std::vector<CalendarEvent>& copies) {
  int32_t group_count = 0;
  return dedupe_internal::CopyGroups(copies).Numbers(&group_count);
}

std::vector<MergedEvent> MergeCalendarEvents(std::vector<CalendarEvent>&& copies) {
  dedupe_internal::CopyGroups groups(copies);
  int32_t group_count = 0;
  const std::vector<int32_t> group = groups.Numbers(&group_count);
  // Members of each group, in input order, by counting sort on the group
  // number.
  std::vector<int32_t> begin(group_count + 1, 0);
  for (int32_t g : group) {
    if (g >= 0) ++begin[g + 1];
  }
  std::partial_sum(begin.begin(), begin.end(), begin.begin());
  std::vector<int32_t> members(begin.back());
  for (size_t i = group.size(); i-- > 0;) {
    if (group[i] >= 0) members[--begin[group[i] + 1]] = static_cast<int32_t>(i);
  }
  for (int32_t g = 0; g < group_count; ++g) begin[g] = begin[g + 1];
  begin[group_count] = static_cast<int32_t>(members.size());
  auto better = [&groups](int32_t a, int32_t b) {
    const dedupe_internal::CopyRank& x = groups.rank(a);
    const dedupe_internal::CopyRank& y = groups.rank(b);
    if (x.source_rank != y.source_rank) return x.source_rank < y.source_rank;
    if (x.fields != y.fields) return x.fields > y.fields;
    if (x.created_key != y.created_key) return x.created_key < y.created_key;
    return a < b;
  };
  // Output order: by the best copy's start and end, then the earliest-created
  // copy's id. Each group placed at its best copy's position in start order
  // gives that order up to runs of one start and (raised) end, which are
  // sorted below; the group number breaks a tie of ids.
  struct Placed {
    int64_t start, end;  // The best copy's; end as written.
    int32_t group;       // -1 where no group's best copy is.
    int32_t earliest;    // The group's earliest-created copy.
  };
  std::vector<Placed> placed(groups.active_count(), Placed{0, 0, -1, -1});
  // Best copy first in each group; the earliest-created copy gives the id
  // (the best such on a tie; unknown creation times never win).
  std::vector<int32_t> earliest(group_count);
  for (int32_t g = 0; g < group_count; ++g) {
    int32_t* first = members.data() + begin[g];
    int32_t* last = members.data() + begin[g + 1];
    dedupe_internal::SortSmall(first, last, better);
    earliest[g] = *first;
    for (const int32_t* it = first; it != last; ++it) {
      if (groups.rank(*it).created_key < groups.rank(earliest[g]).created_key) earliest[g] = *it;
    }
    const dedupe_internal::CopyRank& best = groups.rank(*first);
    placed[static_cast<size_t>(groups.start_position(*first))] = {best.start, best.end, g,
                                                                  earliest[g]};
  }
  placed.erase(
      std::remove_if(placed.begin(), placed.end(), [](const Placed& p) { return p.group < 0; }),
      placed.end());
  // A run's ids are read from the copies, which on a large input are far
  // apart: each id is fetched a few groups ahead, while earlier runs sort.
  constexpr size_t kIdsAhead = 16;
  size_t fetched = 0;
  for (size_t x = 0; x < placed.size();) {
    for (; fetched < std::min(placed.size(), x + kIdsAhead); ++fetched) {
      __builtin_prefetch(&copies[placed[fetched].earliest]);
    }
    const int64_t start = placed[x].start;
    const int64_t raised = std::max(placed[x].end, start + 1);
    size_t end = x + 1;
    while (end < placed.size() && placed[end].start == start &&
           std::max(placed[end].end, start + 1) == raised) {
      ++end;
    }
    if (end - x > 1) {
      dedupe_internal::SortSmall(
          placed.data() + x, placed.data() + end, [&](const Placed& a, const Placed& b) {
            if (a.end != b.end) return a.end < b.end;
            const int c = copies[a.earliest].id.compare(copies[b.earliest].id);
            return c != 0 ? c < 0 : a.group < b.group;
          });
    }
    x = end;
  }
  std::vector<int32_t> order(static_cast<size_t>(group_count));
  for (size_t s = 0; s < placed.size(); ++s) order[s] = placed[s].group;
  std::vector<int32_t> slot(group_count);
  for (int32_t s = 0; s < group_count; ++s) slot[order[s]] = s;
  // Built in group order (close to input order, so each copy's strings are
  // read where they lie), each straight into its output slot.
  std::vector<MergedEvent> out(group_count);
  constexpr int32_t kPrefetchAhead = 8;  // Groups: hides the random writes' misses.
  for (int32_t g = 0; g < group_count; ++g) {
    if (g + kPrefetchAhead < group_count) {
      const char* ahead = reinterpret_cast<const char*>(&out[slot[g + kPrefetchAhead]]);
      for (size_t line = 0; line < sizeof(MergedEvent); line += 64) {
        __builtin_prefetch(ahead + line, 1);
      }
    }
    // The copies themselves, then (once their lines have come) their texts:
    // on a large input each would otherwise wait for memory.
    if (g + 2 * kPrefetchAhead < group_count) {
      for (int32_t x = begin[g + 2 * kPrefetchAhead]; x < begin[g + 2 * kPrefetchAhead + 1]; ++x) {
        const char* copy = reinterpret_cast<const char*>(&copies[members[x]]);
        for (size_t line = 0; line < sizeof(CalendarEvent); line += 64) {
          __builtin_prefetch(copy + line);
        }
      }
    }
    if (g + kPrefetchAhead < group_count) {
      for (int32_t x = begin[g + kPrefetchAhead]; x < begin[g + kPrefetchAhead + 1]; ++x) {
        const CalendarEvent& c = copies[members[x]];
        __builtin_prefetch(c.title.data());
        __builtin_prefetch(c.uid.data());
        __builtin_prefetch(c.join_url.data());
        __builtin_prefetch(c.organizer.data());
        const char* attendees = reinterpret_cast<const char*>(c.attendees.data());
        const size_t bytes = std::min<size_t>(c.attendees.size() * sizeof(Attendee), 192);
        for (size_t line = 0; line < bytes; line += 64) __builtin_prefetch(attendees + line);
      }
    }
    MergedEvent& merged = out[slot[g]];
    merged.event.id = copies[earliest[g]].id;
    merged.event.created = copies[earliest[g]].created;
    const std::span<const int32_t> m(members.data() + begin[g],
                                     static_cast<size_t>(begin[g + 1] - begin[g]));
    MergeFields(m, copies, merged);
  }
  return out;
}

nlohmann::json ToJson(const MergedEvent& merged) {
  const CalendarEvent& e = merged.event;
  nlohmann::json out = ToJson(e);
  out["id"] = e.id;
  out["title"] = e.title;
  out["joinUrl"] = e.join_url;
  out["location"] = e.location;
  out["organizer"] = e.organizer;
  out["status"] = e.status;
  out["hasDescription"] = !e.description.empty();
  nlohmann::json attendees = nlohmann::json::array();
  for (size_t i = 0; i < e.attendees.size() && i < kMaxJsonAttendees; ++i) {
    attendees.push_back({{"email", e.attendees[i].email}, {"name", e.attendees[i].name}});
  }
  out["attendees"] = std::move(attendees);
  nlohmann::json member_ids = nlohmann::json::array();
  nlohmann::json sources = nlohmann::json::array();
  for (const MergedSource& s : merged.sources) {
    member_ids.push_back(s.id);
    sources.push_back(
        {{"connector", SourceKindName(s.source)}, {"calendar", s.calendar}, {"id", s.id}});
  }
  out["memberIds"] = std::move(member_ids);
  out["sources"] = std::move(sources);
  return out;
}

}  // namespace ensemble::core::calendar
