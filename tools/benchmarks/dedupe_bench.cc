// dedupe_bench: cross-calendar dedupe (core/calendar/dedupe.h) on generated
// event sets of 6,000, 60,000 and 600,000 copies. Prints one JSON object per
// line: calendar.dedupe_{6k,60k,600k}_ms (the median of several runs; the
// input copy is made outside the timed region, and destroyed outside it too:
// MergeCalendarEvents moves text out of the caller's copies and leaves
// destroying them to the caller, as MergeIcsFilesJson does on return) and
// calendar.dedupe_growth_10x (the larger ratio of consecutive sizes). --quick
// runs fewer repetitions, but still at least three of each size: a single
// run of the largest is no median, and one slow run then set the growth.
//
// Memory: every size is measured with the allocator reusing what the
// previous run freed, as the browser's allocator always does (a wasm heap
// never gives pages back). glibc, by default, does that only for blocks
// under 32 MB, so the 600k output (about 120 MB) would come fresh from the
// kernel on each run while the 60k one is reused: one size measured with
// page faults (about 30,000 a run, each far dearer inside a virtual machine)
// and the others without. That figure is printed apart, first, with the
// allocator as it starts: calendar.dedupe_600k_fresh_memory_ms.
//
// Times are the CPU time of the (only) thread, user plus system: on an idle
// machine that is the wall time, and on a shared one it does not count the
// time other processes hold the core.
//
// The sets look like one busy person's calendars: two Google and two Outlook
// calendars and three calendar links (iCloud and two holiday calendars).
// Meetings appear on one to three calendars; most carry a Teams, Zoom or Meet
// link; a third belong to weekly series (one UID, one link); forwarded copies
// carry "Fwd:"/"Accepted:" prefixes and start a minute off; holidays appear on
// both holiday calendars under other names ("Christmas Day" and "Christmas").
// The density stays that of a busy calendar (about 100 copies a day): a
// larger set covers a longer span, as a longer history would.

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "core/calendar/dedupe.h"

namespace {

using ensemble::core::calendar::CalendarEvent;
using ensemble::core::calendar::MergeCalendarEvents;
using ensemble::core::calendar::MergedEvent;
using ensemble::core::calendar::SourceKind;

constexpr int64_t kStart = 1796083200;  // 2026-12-01T00:00:00Z.
constexpr int64_t kDay = 86400;
constexpr int64_t kMinute = 60;
constexpr int kCopiesPerDay = 100;

struct Calendar {
  const char* name;
  SourceKind source;
};
constexpr Calendar kWorkCalendars[] = {
    {"me@work.example", SourceKind::kGoogle},
    {"Team (Google)", SourceKind::kGoogle},
    {"Calendar", SourceKind::kOutlook},
    {"Projects", SourceKind::kOutlook},
    {"iCloud", SourceKind::kIcs},
};

const char* const kWords[] = {
    "planning", "review",  "sync",    "standup",   "design",   "budget",   "hiring", "roadmap",
    "launch",   "retro",   "demo",    "product",   "sales",    "customer", "weekly", "quarterly",
    "1:1",      "offsite", "kickoff", "interview", "security", "platform", "mobile", "web",
    "growth",   "finance", "legal",   "support",   "research", "data",     "infra",  "coffee",
};
const char* const kPrefixes[] = {"", "", "", "Fwd: ", "Accepted: ", "Re: ", "Updated invitation: "};
const char* const kHolidays[][2] = {
    {"Christmas Day", "Christmas"},
    {"New Year's Day", "New Year"},
    {"Deepavali", "Diwali"},
    {"Independence Day", "Fourth of July"},
    {"Martin Luther King Jr. Day", "MLK Day"},
    {"Thanksgiving Day", "Thanksgiving"},
    {"Good Friday", "Good Friday"},
    {"Labour Day", "Labor Day"},
};

std::string Title(std::mt19937_64& rng) {
  std::string t;
  const int words = 2 + static_cast<int>(rng() % 3);
  for (int w = 0; w < words; ++w) {
    if (w) t += ' ';
    t += kWords[rng() % std::size(kWords)];
  }
  t[0] = static_cast<char>(t[0] >= 'a' && t[0] <= 'z' ? t[0] - 32 : t[0]);
  return t + " #" + std::to_string(rng() % 1000);
}

std::string JoinUrl(std::mt19937_64& rng, uint64_t id) {
  switch (rng() % 5) {
    case 0:
      return "https://teams.microsoft.com/l/meetup-join/19%3ameeting_" + std::to_string(id) +
             "%40thread.v2/0?context=%7b%22Tid%22%3a%22t%22%7d";
    case 1:
      return "https://us02web.zoom.us/j/8" + std::to_string(100000000 + id) + "?pwd=abc";
    case 2:
      return "https://meet.google.com/abc-" + std::to_string(id) + "-xyz";
    default:
      return "";
  }
}

std::vector<CalendarEvent> Generate(size_t target, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<CalendarEvent> out;
  out.reserve(target + 16);
  const int64_t days = std::max<int64_t>(1, static_cast<int64_t>(target) / kCopiesPerDay);
  uint64_t next_id = 1;
  // Holidays: about one a week, on both holiday calendars.
  for (int64_t d = 0; d < days && out.size() + 2 <= target; d += 7) {
    const auto& names = kHolidays[rng() % std::size(kHolidays)];
    for (int c = 0; c < 2; ++c) {
      CalendarEvent e;
      e.id = "ics:hol" + std::to_string(c) + ":" + std::to_string(next_id++);
      e.calendar = c == 0 ? "US Holidays" : "UK Holidays";
      e.all_day = true;
      e.start = kStart + d * kDay;
      e.end = e.start + kDay;
      e.title = names[c];
      e.uid = "hol-" + std::to_string(c) + "-" + std::to_string(d);
      out.push_back(std::move(e));
    }
  }
  // Meetings: weekly series and single events, each on 1-3 calendars.
  while (out.size() < target) {
    const bool series = rng() % 3 == 0;
    const int occurrences = series ? 4 : 1;
    const int64_t day = static_cast<int64_t>(rng() % days);
    const int64_t start =
        kStart + day * kDay + (8 * 60 + static_cast<int64_t>(rng() % 20) * 30) * kMinute;
    const int64_t length = (rng() % 2 ? 30 : 60) * kMinute;
    const std::string title = Title(rng);
    const uint64_t meeting = next_id++;
    const std::string url = JoinUrl(rng, meeting);
    const std::string uid = "evt-" + std::to_string(meeting) + "@example.com";
    const int copies = 1 + static_cast<int>(rng() % 3);
    const size_t first_cal = rng() % std::size(kWorkCalendars);
    for (int occ = 0; occ < occurrences; ++occ) {
      const int64_t occ_start = start + occ * 7 * kDay;
      for (int c = 0; c < copies && out.size() < target; ++c) {
        const Calendar& cal = kWorkCalendars[(first_cal + c * 2) % std::size(kWorkCalendars)];
        CalendarEvent e;
        e.id = std::string(cal.source == SourceKind::kOutlook ? "outlook:" : "ev") +
               std::to_string(next_id++);
        e.source = cal.source;
        e.calendar = cal.name;
        e.created = 1790000000 + static_cast<int64_t>(rng() % 1000000);
        // The invite's own copy keeps the UID; a forwarded one (every third
        // copy) has a new UID, a prefix and may start a minute off.
        const bool forwarded = c > 0 && rng() % 3 == 0;
        e.uid = forwarded ? "fwd-" + std::to_string(next_id) : uid;
        e.original_start = series ? occ_start : 0;
        const int64_t skew = forwarded ? static_cast<int64_t>(rng() % 2) * kMinute : 0;
        e.start = occ_start + skew;
        e.end = occ_start + length + skew;
        e.title = (forwarded ? kPrefixes[rng() % std::size(kPrefixes)] : "") + title;
        e.join_url = c == 0 || rng() % 2 ? url : "";
        e.location = url.empty() ? "Room " + std::to_string(rng() % 40) : "";
        e.organizer = "org" + std::to_string(meeting % 50) + "@work.example";
        e.status = "CONFIRMED";
        const int attendees = static_cast<int>(rng() % 6);
        for (int a = 0; a < attendees; ++a) {
          e.attendees.push_back({"p" + std::to_string(rng() % 200) + "@work.example", ""});
        }
        out.push_back(std::move(e));
      }
    }
  }
  return out;
}

double ThreadCpuMs() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double TimeOnce(const std::vector<CalendarEvent>& input, size_t* merged_count) {
  std::vector<CalendarEvent> copy = input;
  const double t0 = ThreadCpuMs();
  std::vector<MergedEvent> merged = MergeCalendarEvents(std::move(copy));
  const double t1 = ThreadCpuMs();
  // `copy` (its text moved into `merged`) and `merged` are freed from here.
  *merged_count = merged.size();
  return t1 - t0;
}

double MedianMs(size_t size, int runs, size_t* merged_count) {
  const std::vector<CalendarEvent> input = Generate(size, 42 + size);
  TimeOnce(input, merged_count);  // Warm-up.
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) times.push_back(TimeOnce(input, merged_count));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void Print(const char* metric, double value, const char* unit) {
  std::printf("{\"metric\": \"%s\", \"value\": %.3f, \"unit\": \"%s\", \"better\": \"lower\"}\n",
              metric, value, unit);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      std::fprintf(stderr, "usage: dedupe_bench [--quick]\n");
      return 2;
    }
  }
  size_t merged = 0;
  // Before mallopt: the allocator's defaults, as a one-off process has them.
  const double fresh600 = MedianMs(600000, quick ? 1 : 3, &merged);
  Print("calendar.dedupe_600k_fresh_memory_ms", fresh600, "ms");
  // From here on, blocks of any size up to 1 GiB come from the heap and stay
  // there when freed (see the top comment).
  constexpr int kKeepFreedBytes = 1 << 30;
  if (mallopt(M_MMAP_THRESHOLD, kKeepFreedBytes) != 1 ||
      mallopt(M_TRIM_THRESHOLD, kKeepFreedBytes) != 1) {
    std::fprintf(stderr, "dedupe_bench: mallopt refused the thresholds\n");
    return 1;
  }
  const double t6 = MedianMs(6000, quick ? 7 : 31, &merged);
  std::fprintf(stderr, "6k: %zu merged events\n", merged);
  Print("calendar.dedupe_6k_ms", t6, "ms");
  const double t60 = MedianMs(60000, quick ? 5 : 11, &merged);
  std::fprintf(stderr, "60k: %zu merged events\n", merged);
  Print("calendar.dedupe_60k_ms", t60, "ms");
  const double t600 = MedianMs(600000, quick ? 3 : 5, &merged);
  std::fprintf(stderr, "600k: %zu merged events\n", merged);
  Print("calendar.dedupe_600k_ms", t600, "ms");
  Print("calendar.dedupe_growth_10x", std::max(t60 / t6, t600 / t60), "x");
  return 0;
}
