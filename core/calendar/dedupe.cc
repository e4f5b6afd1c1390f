#include "core/calendar/dedupe.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/calendar/meeting_key.h"
#include "core/calendar/title_match.h"

namespace ensemble::core::calendar {
namespace {

// Calendars are tracked per group in a 64-bit mask when there are at most
// this many (the usual case: Google, Outlook and link calendars together
// stay well below it); beyond it, in sorted lists.
constexpr size_t kMaskCalendars = 64;

// A 64-bit hash that is the same natively and in wasm (std::hash is not: its
// width and algorithm vary), so buckets sort alike and unions happen in the
// same order on both sides. Eight bytes at a time, multiply-xorshift mixing.
uint64_t Hash(std::string_view s) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;
  uint64_t h = 0xCBF29CE484222325ull ^ (s.size() * kMul);
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);  // Little-endian on every target.
    h = (h ^ w) * kMul;
    h ^= h >> 29;
  }
  uint64_t tail = 0;
  for (size_t j = 0; i + j < s.size(); ++j) {
    tail |= static_cast<uint64_t>(static_cast<unsigned char>(s[i + j])) << (8 * j);
  }
  h = (h ^ tail) * kMul;
  h ^= h >> 32;
  return h * kMul;
}

// Remembers which copy first had a given text, so copies sharing it (every
// occurrence of a series, each calendar's copy of one invitation) reuse what
// was derived from it instead of deriving it again. Open addressing over a
// power-of-two table kept at most half full; it grows with the distinct
// texts (a few calendars need a few slots, which stay in cache). Each slot
// keeps the top 32 bits of the text's hash, so a probe reads another copy's
// text (likely a cache miss) only when those bits match.
class TextMemo {
 public:
  TextMemo() { Resize(4); }

  // The copy recorded for `text` (text_of(k) gives copy k's text), else
  // records `k` under it and returns -1.
  template <typename TextOf>
  int32_t FindOrAdd(std::string_view text, int32_t k, TextOf&& text_of) {
    return FindOrAdd(text, Hash(text), k, text_of);
  }
  // The same with Hash(text) known.
  template <typename TextOf>
  int32_t FindOrAdd(std::string_view text, uint64_t hash, int32_t k, TextOf&& text_of) {
    const uint32_t tag = static_cast<uint32_t>(hash >> 32);
    const size_t mask = slots_.size() - 1;
    for (size_t i = tag >> shift_;; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.k < 0) {
        slot = {tag, k};
        if (2 * ++count_ > slots_.size()) Resize(2 * slots_.size());
        return -1;
      }
      if (slot.tag == tag && text_of(slot.k) == text) return slot.k;
    }
  }

 private:
  struct Slot {
    uint32_t tag = 0;
    int32_t k = -1;
  };

  // size is a power of two, at most 2^32 (the tag's bits place a slot).
  void Resize(size_t size) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(size, Slot{});
    int bits = 0;
    while ((size_t{1} << bits) < size) ++bits;
    shift_ = 32 - bits;
    const size_t mask = size - 1;
    for (const Slot& s : old) {
      if (s.k < 0) continue;
      size_t i = s.tag >> shift_;
      while (slots_[i].k >= 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  std::vector<Slot> slots_;
  size_t count_ = 0;
  int shift_ = 30;
};

// What the neighbour scans (rules 3 and 4) read of one active copy, apart
// from the rest so that a scan walks 24 bytes a copy, not a whole Prepared.
struct Near {
  int64_t start = 0;
  int64_t end = 0;  // At least start + 1, so a zero-length event overlaps.
  int32_t calendar = 0;
  bool all_day = false;
  bool has_title = false;
  bool needs_title = false;
};

// What the other rules read of one active copy, computed once.
struct Prepared {
  // The normalized title, made only for copies a rule compares (most have
  // no close neighbour from another calendar outside their group).
  bool title_ready = false;
  uint32_t title_begin = 0, title_size = 0;  // In Dedupe::titles_.
  uint32_t words_begin = 0, words_size = 0;  // In Dedupe::words_.
  uint32_t key_begin = 0, key_size = 0;      // In Dedupe::meeting_keys_.
  uint64_t key_hash = 0;                     // Hash of the meeting key.
  // The first copy with the same meeting key (resp. UID) text: equal ids are
  // equal texts, so the rules compare ids, not strings scattered in memory.
  int32_t key_id = -1;
  int32_t uid_id = -1;
  bool personal_room = false;
  bool has_uid = false;
  uint64_t uid_hash = 0;
  int64_t occurrence = 0;                // Original start, else start.
};

// A copy's place in start order.
struct ByStart {
  int64_t start, end;
  int32_t k;
  bool operator<(const ByStart& o) const {
    return start != o.start ? start < o.start : end != o.end ? end < o.end : k < o.k;
  }
};

// Union-find over active copies that refuses, for rules 2-4, to join two
// groups holding copies of a common calendar.
class Groups {
 public:
  Groups(const std::vector<int32_t>& calendars, size_t calendar_count)
      : parent_(calendars.size()), size_(calendars.size(), 1) {
    std::iota(parent_.begin(), parent_.end(), 0);
    use_mask_ = calendar_count <= kMaskCalendars;
    if (use_mask_) {
      mask_.resize(calendars.size());
      for (size_t i = 0; i < calendars.size(); ++i) mask_[i] = uint64_t{1} << calendars[i];
    } else {
      lists_.resize(calendars.size());
      for (size_t i = 0; i < calendars.size(); ++i) lists_[i] = {calendars[i]};
    }
  }

  int32_t Find(int32_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }

  // Rule 1: joins unconditionally.
  void Join(int32_t a, int32_t b) {
    a = Find(a), b = Find(b);
    if (a != b) Link(a, b);
  }

  // Rules 2-4: joins unless the groups share a calendar; true if joined.
  bool JoinAcrossCalendars(int32_t a, int32_t b) {
    a = Find(a), b = Find(b);
    if (a == b || ShareCalendar(a, b)) return false;
    Link(a, b);
    return true;
  }

  // True when a and b are already one group or can never be (cheap check
  // before comparing titles).
  bool Blocked(int32_t a, int32_t b) {
    a = Find(a), b = Find(b);
    return a == b || ShareCalendar(a, b);
  }

 private:
  bool ShareCalendar(int32_t a, int32_t b) const {
    if (use_mask_) return (mask_[a] & mask_[b]) != 0;
    const auto& x = lists_[a];
    const auto& y = lists_[b];
    size_t i = 0, j = 0;
    while (i < x.size() && j < y.size()) {
      if (x[i] == y[j]) return true;
      x[i] < y[j] ? ++i : ++j;
    }
    return false;
  }

  void Link(int32_t a, int32_t b) {
    if (size_[a] < size_[b]) std::swap(a, b);
    parent_[b] = a;
    size_[a] += size_[b];
    if (use_mask_) {
      mask_[a] |= mask_[b];
    } else {
      std::vector<int32_t> merged;
      std::set_union(lists_[a].begin(), lists_[a].end(), lists_[b].begin(), lists_[b].end(),
                     std::back_inserter(merged));
      lists_[a] = std::move(merged);
      lists_[b].clear();
    }
  }

  std::vector<int32_t> parent_;
  std::vector<int32_t> size_;
  bool use_mask_ = true;
  std::vector<uint64_t> mask_;
  std::vector<std::vector<int32_t>> lists_;
};

class Dedupe {
 public:
  explicit Dedupe(const std::vector<CalendarEvent>& copies) : copies_(copies) {}

  std::vector<int32_t> Run() {
    Prepare();
    Groups groups(calendar_of_, calendar_count_);
    SameUidAndOccurrence(groups);
    SameOnlineMeeting(groups);
    NormalizeTitlesNeeded(groups);
    SameTimesAndTitles(groups);
    SameDaysAndHolidayTitles(groups);
    // Number groups in order of each group's first copy in the input.
    std::vector<int32_t> k_of(copies_.size(), -1);
    for (size_t k = 0; k < active_.size(); ++k) k_of[active_[k]] = static_cast<int32_t>(k);
    std::vector<int32_t> out(copies_.size(), -1);
    std::vector<int32_t> number(active_.size(), -1);
    int32_t next = 0;
    for (size_t i = 0; i < copies_.size(); ++i) {
      if (k_of[i] < 0) continue;
      const int32_t root = groups.Find(k_of[i]);
      if (number[root] < 0) number[root] = next++;
      out[i] = number[root];
    }
    return out;
  }

 private:
  const CalendarEvent& Copy(int32_t k) const { return copies_[active_[k]]; }
  // Normalizes copy k's title into the arenas if it is not yet.
  void EnsureTitle(int32_t k) {
    Prepared& p = prep_[k];
    if (p.title_ready) return;
    p.title_ready = true;
    const int32_t same = title_memo_.FindOrAdd(
        Copy(k).title, k, [this](int32_t other) -> std::string_view { return Copy(other).title; });
    if (same >= 0) {  // Normalized already (and title_ready, being recorded).
      const Prepared& q = prep_[same];
      p.title_begin = q.title_begin, p.title_size = q.title_size;
      p.words_begin = q.words_begin, p.words_size = q.words_size;
      return;
    }
    p.title_begin = static_cast<uint32_t>(titles_.size());
    AppendNormalizedTitle(Copy(k).title, &titles_);
    p.title_size = static_cast<uint32_t>(titles_.size() - p.title_begin);
    p.words_begin = static_cast<uint32_t>(words_.size());
    p.words_size = static_cast<uint32_t>(
        AppendWordHashes(std::string_view(titles_).substr(p.title_begin, p.title_size), &words_));
  }
  std::string_view Title(int32_t k) {
    EnsureTitle(k);
    return std::string_view(titles_).substr(prep_[k].title_begin, prep_[k].title_size);
  }
  std::span<const uint64_t> Words(int32_t k) {
    EnsureTitle(k);
    return std::span<const uint64_t>(words_).subspan(prep_[k].words_begin, prep_[k].words_size);
  }
  std::string_view MeetingKeyOf(int32_t k) const {
    return std::string_view(meeting_keys_).substr(prep_[k].key_begin, prep_[k].key_size);
  }
  bool TitlesMatchK(int32_t a, int32_t b) {
    EnsureTitle(a);
    EnsureTitle(b);
    return NormalizedTitlesMatch(Title(a), Words(a), Title(b), Words(b));
  }

  // Numbers the active copies in start order and reads each once: the rules
  // then walk compact arrays where neighbours in time are neighbours in
  // memory.
  void Prepare() {
    std::vector<ByStart> by_start;
    by_start.reserve(copies_.size());
    for (size_t i = 0; i < copies_.size(); ++i) {
      const CalendarEvent& e = copies_[i];
      if (!e.cancelled()) {
        by_start.push_back({e.start, std::max(e.end, e.start + 1), static_cast<int32_t>(i)});
      }
    }
    std::sort(by_start.begin(), by_start.end());
    active_.reserve(by_start.size());
    for (const ByStart& b : by_start) active_.push_back(b.k);
    prep_.resize(active_.size());
    near_.resize(active_.size());
    calendar_of_.resize(active_.size());
    titles_.reserve(active_.size() * 8);
    words_.reserve(active_.size());
    TextMemo calendars;  // Numbered in order of first copy.
    size_t calendar_count = 0;
    std::string_view last_calendar;
    int32_t last_calendar_id = -1;
    TextMemo link_memo, key_memo, uid_memo;
    // Copies are read in input order (their strings are then read in the
    // order they were allocated) and written at their place in start order.
    std::vector<int32_t>& rank = rank_;
    rank.assign(copies_.size(), -1);
    for (size_t k = 0; k < active_.size(); ++k) rank[active_[k]] = static_cast<int32_t>(k);
    for (size_t i = 0; i < copies_.size(); ++i) {
      const int32_t k = rank[i];
      if (k < 0) continue;
      const CalendarEvent& e = copies_[i];
      Prepared& p = prep_[k];
      if (last_calendar_id < 0 || e.calendar != last_calendar) {  // Copies come in runs.
        const int32_t same = calendars.FindOrAdd(e.calendar, k, [this](int32_t other) {
          return std::string_view(Copy(other).calendar);
        });
        last_calendar = e.calendar;
        last_calendar_id = same >= 0 ? calendar_of_[same] : static_cast<int32_t>(calendar_count++);
      }
      Near& near = near_[k];
      near.calendar = calendar_of_[k] = last_calendar_id;
      near.start = e.start;
      near.end = std::max(e.end, e.start + 1);
      near.all_day = e.all_day;
      near.has_title = !e.title.empty();
      // The meeting key, from the join link, else a link in the location or
      // (with no join link) the description.
      const int32_t same_link =
          e.join_url.empty() ? -1 : link_memo.FindOrAdd(e.join_url, k, [this](int32_t other) {
            return std::string_view(Copy(other).join_url);
          });
      if (same_link >= 0) {  // Classified already.
        const Prepared& q = prep_[same_link];
        p.key_begin = q.key_begin, p.key_size = q.key_size, p.key_hash = q.key_hash;
        p.key_id = q.key_id;
        p.personal_room = q.personal_room;
      } else {
        p.key_begin = static_cast<uint32_t>(meeting_keys_.size());
        if (!e.join_url.empty()) {
          AppendMeetingKey(e.join_url, &meeting_keys_, &p.personal_room);
        } else if (!AppendMeetingKey(e.location, &meeting_keys_, &p.personal_room)) {
          AppendMeetingKey(e.description, &meeting_keys_, &p.personal_room);
        }
        p.key_size = static_cast<uint32_t>(meeting_keys_.size() - p.key_begin);
        if (p.key_size != 0) {
          p.key_hash = Hash(MeetingKeyOf(k));
          const int32_t same_key = key_memo.FindOrAdd(
              MeetingKeyOf(k), p.key_hash, k, [this](int32_t other) { return MeetingKeyOf(other); });
          p.key_id = same_key >= 0 ? prep_[same_key].key_id : k;
        }
      }
      p.has_uid = !e.uid.empty();
      if (p.has_uid) {
        p.uid_hash = Hash(e.uid);
        const int32_t same_uid = uid_memo.FindOrAdd(e.uid, p.uid_hash, k, [this](int32_t other) {
          return std::string_view(Copy(other).uid);
        });
        p.uid_id = same_uid >= 0 ? prep_[same_uid].uid_id : k;
      }
      p.occurrence = e.original_start != 0 ? e.original_start : e.start;
    }
    calendar_count_ = calendar_count;
  }

  // Rule 1: bucket by UID, then occurrences within the tolerance.
  void SameUidAndOccurrence(Groups& groups) {
    struct Key {
      uint64_t uid;
      int64_t occurrence;
      int32_t k;
      int32_t uid_id;
    };
    std::vector<Key> keys;
    keys.reserve(active_.size());
    for (size_t k = 0; k < active_.size(); ++k) {
      const Prepared& p = prep_[k];
      if (p.has_uid) keys.push_back({p.uid_hash, p.occurrence, static_cast<int32_t>(k), p.uid_id});
    }
    std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
      return a.uid != b.uid                 ? a.uid < b.uid
             : a.occurrence != b.occurrence ? a.occurrence < b.occurrence
                                            : a.k < b.k;
    });
    for (size_t i = 0; i < keys.size(); ++i) {
      for (size_t j = i + 1; j < keys.size() && keys[j].uid == keys[i].uid &&
                             keys[j].occurrence - keys[i].occurrence <= kDedupeTimeToleranceSeconds;
           ++j) {
        if (keys[i].uid_id == keys[j].uid_id) groups.Join(keys[i].k, keys[j].k);
      }
    }
  }

  // Rule 2: bucket by meeting key, then overlapping times.
  void SameOnlineMeeting(Groups& groups) {
    struct Key {
      uint64_t meeting;
      int64_t start;
      int64_t end;
      int32_t k;
      int32_t key_id;
    };
    std::vector<Key> keys;
    keys.reserve(active_.size());
    for (size_t k = 0; k < active_.size(); ++k) {
      const Prepared& p = prep_[k];
      if (p.key_size == 0) continue;
      keys.push_back({p.key_hash, near_[k].start, near_[k].end, static_cast<int32_t>(k), p.key_id});
    }
    std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
      return a.meeting != b.meeting ? a.meeting < b.meeting
             : a.start != b.start   ? a.start < b.start
                                    : a.k < b.k;
    });
    for (size_t i = 0; i < keys.size(); ++i) {
      const int32_t a = keys[i].k;
      // Sorted by start: the first later copy starting after a ends ends the scan.
      for (size_t j = i + 1;
           j < keys.size() && keys[j].meeting == keys[i].meeting && keys[j].start < keys[i].end;
           ++j) {
        const int32_t b = keys[j].k;
        if (keys[j].key_id != keys[i].key_id || groups.Blocked(a, b)) continue;
        if ((prep_[a].personal_room || prep_[b].personal_room) && !TitlesMatchK(a, b)) continue;
        groups.JoinAcrossCalendars(a, b);
      }
    }
  }

  // Titles are normalized only for copies rules 3 and 4 will compare (a
  // close neighbour from another calendar not yet in the same group), in
  // input order so each copy's strings are read where they lie.
  void NormalizeTitlesNeeded(Groups& groups) {
    const int32_t n = static_cast<int32_t>(active_.size());
    for (int32_t a = 0; a < n; ++a) {
      Near& pa = near_[a];
      if (!pa.has_title) continue;
      for (int32_t b = a + 1; b < n && near_[b].start - pa.start <= kDedupeTimeToleranceSeconds;
           ++b) {
        Near& pb = near_[b];
        if (pb.all_day != pa.all_day || pb.calendar == pa.calendar || !pb.has_title) continue;
        const bool close = pa.all_day ? pb.start == pa.start && pb.end == pa.end
                                      : std::abs(pb.end - pa.end) <= kDedupeTimeToleranceSeconds;
        if (close && !groups.Blocked(a, b)) pa.needs_title = pb.needs_title = true;
      }
    }
    for (size_t i = 0; i < rank_.size(); ++i) {
      if (rank_[i] >= 0 && near_[rank_[i]].needs_title) EnsureTitle(rank_[i]);
    }
  }

  // Rule 3: neighbours in start order among timed copies (copies are
  // numbered in start order).
  void SameTimesAndTitles(Groups& groups) {
    const int32_t n = static_cast<int32_t>(active_.size());
    for (int32_t a = 0; a < n; ++a) {
      const Near& pa = near_[a];
      if (pa.all_day || !pa.has_title) continue;
      for (int32_t b = a + 1; b < n && near_[b].start - pa.start <= kDedupeTimeToleranceSeconds;
           ++b) {
        const Near& pb = near_[b];
        if (pb.all_day || pb.calendar == pa.calendar || !pb.has_title) continue;
        const int64_t end_gap = pb.end > pa.end ? pb.end - pa.end : pa.end - pb.end;
        if (end_gap > kDedupeTimeToleranceSeconds || groups.Blocked(a, b)) continue;
        if (TitlesMatchK(a, b)) groups.JoinAcrossCalendars(a, b);
      }
    }
  }

  // Rule 4: all-day copies bucketed by date span, titles after the holiday
  // vocabulary.
  void SameDaysAndHolidayTitles(Groups& groups) {
    std::vector<ByStart> order;  // Already in (start, end) order.
    for (size_t k = 0; k < active_.size(); ++k) {
      if (near_[k].all_day) {
        order.push_back({near_[k].start, near_[k].end, static_cast<int32_t>(k)});
      }
    }
    std::vector<std::string> keys;
    for (size_t i = 0; i < order.size();) {
      size_t end = i + 1;
      while (end < order.size() && order[end].start == order[i].start &&
             order[end].end == order[i].end) {
        ++end;
      }
      if (end - i > 1) {
        keys.clear();
        for (size_t x = i; x < end; ++x) keys.push_back(HolidayKey(Title(order[x].k)));
        for (size_t x = i; x < end; ++x) {
          for (size_t y = x + 1; y < end; ++y) {
            const int32_t a = order[x].k, b = order[y].k;
            if (near_[a].calendar == near_[b].calendar || groups.Blocked(a, b)) continue;
            if (HolidayKeysMatch(keys[x - i], keys[y - i])) groups.JoinAcrossCalendars(a, b);
          }
        }
      }
      i = end;
    }
  }

  const std::vector<CalendarEvent>& copies_;
  std::vector<int32_t> active_;  // Input index of each active copy.
  std::vector<int32_t> rank_;    // Active index of each input copy, or -1.
  std::vector<Prepared> prep_;   // By active index.
  std::vector<Near> near_;       // By active index.
  std::vector<int32_t> calendar_of_;
  size_t calendar_count_ = 0;
  std::string titles_;           // Every normalized title, back to back.
  std::vector<uint64_t> words_;  // Every title's word hashes, back to back.
  std::string meeting_keys_;     // Every meeting key, back to back.
  TextMemo title_memo_;          // Copies by raw title, once normalized.
};

int SourceRank(SourceKind kind) { return kind == SourceKind::kIcs ? 1 : 0; }

int FieldCount(const CalendarEvent& e) {
  return !e.title.empty() + !e.description.empty() + !e.location.empty() + !e.join_url.empty() +
         !e.organizer.empty() + !e.uid.empty() + !e.status.empty() + !e.attendees.empty();
}

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
  for (int32_t i : members) {  // Copied: every source keeps its UID.
    if (!copies[i].uid.empty()) {
      out.uid = copies[i].uid;
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
    merged.sources.push_back(
        {std::move(c.id), c.source, std::move(c.calendar), std::move(c.uid)});
  }
}

}  // namespace

std::vector<int32_t> GroupCalendarEvents(const std::vector<CalendarEvent>& copies) {
  return Dedupe(copies).Run();
}

std::vector<MergedEvent> MergeCalendarEvents(std::vector<CalendarEvent> copies) {
  const std::vector<int32_t> group = GroupCalendarEvents(copies);
  int32_t group_count = 0;
  for (int32_t g : group) group_count = std::max(group_count, g + 1);
  // Members of each group, by counting sort on the group number.
  std::vector<int32_t> begin(group_count + 1, 0);
  for (int32_t g : group) {
    if (g >= 0) ++begin[g + 1];
  }
  std::partial_sum(begin.begin(), begin.end(), begin.begin());
  std::vector<int32_t> members(begin.back());
  {
    std::vector<int32_t> fill(begin.begin(), begin.end() - 1);
    for (size_t i = 0; i < group.size(); ++i) {
      if (group[i] >= 0) members[fill[group[i]]++] = static_cast<int32_t>(i);
    }
  }
  // What ranks a copy, read in one pass so the sorts below touch only this.
  struct Rank {
    int64_t start, end;
    uint64_t created_key;  // created - 1 as unsigned: 0 (unknown) sorts last.
    int32_t source_rank, fields;
  };
  std::vector<Rank> rank(copies.size());
  for (size_t i = 0; i < copies.size(); ++i) {
    const CalendarEvent& e = copies[i];
    rank[i] = {e.start, e.end, static_cast<uint64_t>(e.created - 1), SourceRank(e.source),
               FieldCount(e)};
  }
  auto better = [&rank](int32_t a, int32_t b) {
    const Rank& x = rank[a];
    const Rank& y = rank[b];
    if (x.source_rank != y.source_rank) return x.source_rank < y.source_rank;
    if (x.fields != y.fields) return x.fields > y.fields;
    if (x.created_key != y.created_key) return x.created_key < y.created_key;
    return a < b;
  };
  // Best copy first in each group; the earliest-created copy gives the id
  // (the best such on a tie; unknown creation times never win).
  std::vector<int32_t> earliest(group_count);
  for (int32_t g = 0; g < group_count; ++g) {
    const auto first = members.begin() + begin[g];
    const auto last = members.begin() + begin[g + 1];
    std::sort(first, last, better);
    earliest[g] = *first;
    for (auto it = first; it != last; ++it) {
      if (rank[*it].created_key < rank[earliest[g]].created_key) earliest[g] = *it;
    }
  }
  struct OrderKey {
    int64_t start, end;
    // The earliest-created copy's id, the last tie-break: kept here so a
    // tie reads the id's text, not copies[earliest[group]] first.
    std::string_view id;
    int32_t group;
  };
  std::vector<OrderKey> order(group_count);
  for (int32_t g = 0; g < group_count; ++g) {
    const Rank& best = rank[members[begin[g]]];
    order[g] = {best.start, best.end, copies[earliest[g]].id, g};
  }
  std::sort(order.begin(), order.end(), [](const OrderKey& a, const OrderKey& b) {
    if (a.start != b.start) return a.start < b.start;
    if (a.end != b.end) return a.end < b.end;
    return a.id < b.id;
  });
  std::vector<int32_t> slot(group_count);
  for (int32_t i = 0; i < group_count; ++i) slot[order[i].group] = i;
  order = {};  // Its views end where the ids are moved below.
  // Built in group order (close to input order, so each copy's strings are
  // read where they lie), each straight into its output slot: no second
  // array of merged events to gather from.
  std::vector<MergedEvent> out(group_count);
  for (int32_t g = 0; g < group_count; ++g) {
    MergedEvent& merged = out[slot[g]];
    merged.event.id = copies[earliest[g]].id;
    merged.event.created = copies[earliest[g]].created;
    const auto first = members.begin() + begin[g];
    const auto last = members.begin() + begin[g + 1];
    merged.member_ids.reserve(last - first);
    for (auto it = first; it != last; ++it) merged.member_ids.push_back(copies[*it].id);
    MergeFields(std::span<const int32_t>(&*first, static_cast<size_t>(last - first)), copies,
                merged);
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
  out["memberIds"] = merged.member_ids;
  nlohmann::json sources = nlohmann::json::array();
  for (const MergedSource& s : merged.sources) {
    sources.push_back(
        {{"connector", SourceKindName(s.source)}, {"calendar", s.calendar}, {"id", s.id}});
  }
  out["sources"] = std::move(sources);
  return out;
}

}  // namespace ensemble::core::calendar
