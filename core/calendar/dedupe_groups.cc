#include "core/calendar/dedupe_groups.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <numeric>
#include <utility>

#include "core/calendar/dedupe.h"
#include "core/calendar/meeting_key.h"
#include "core/calendar/title_match.h"

namespace ensemble::core::calendar::dedupe_internal {
namespace {

// Calendars are tracked per group in a 64-bit mask when there are at most
// this many (the usual case: Google, Outlook and link calendars together
// stay well below it); beyond it, in sorted lists.
constexpr size_t kMaskCalendars = 64;
// One bit per word hash: two titles whose masks share no bit share no word,
// and titles that match always share one (equal titles, whole-word
// containment and a Jaccard of 0.6 all need a common word), so rule 3 can
// turn most pairs down without reading either title.
uint64_t WordMask(std::span<const uint64_t> words) {
  uint64_t mask = 0;
  for (const uint64_t w : words) mask |= uint64_t{1} << ((w * 0x9E3779B97F4A7C15ull) >> 58);
  return mask;
}

int SourceRank(SourceKind kind) { return kind == SourceKind::kIcs ? 1 : 0; }

int FieldCount(const CalendarEvent& e) {
  return !e.title.empty() + !e.description.empty() + !e.location.empty() + !e.join_url.empty() +
         !e.organizer.empty() + !e.uid.empty() + !e.status.empty() + !e.attendees.empty();
}

// Sorts by key, keeping the order of equal keys: a least-significant-digit
// radix sort over the low `bits` bits, 11 bits a pass; a pass whose digit is
// the same for every item is skipped. Linear in the items.
void RadixSort(std::vector<KeyedIndex>& items, int bits) {
  constexpr int kDigitBits = 11;
  constexpr size_t kBuckets = size_t{1} << kDigitBits;
  const int passes = (bits + kDigitBits - 1) / kDigitBits;
  if (items.size() < 2 || passes == 0) return;
  std::vector<std::array<uint32_t, kBuckets>> count(static_cast<size_t>(passes));
  for (auto& c : count) c.fill(0);
  for (const KeyedIndex& x : items) {
    for (int p = 0; p < passes; ++p) ++count[p][(x.key >> (p * kDigitBits)) & (kBuckets - 1)];
  }
  std::vector<KeyedIndex> buffer(items.size());
  for (int p = 0; p < passes; ++p) {
    const int shift = p * kDigitBits;
    auto& c = count[p];
    if (c[(items[0].key >> shift) & (kBuckets - 1)] == items.size()) continue;
    uint32_t sum = 0;
    for (uint32_t& n : c) sum += std::exchange(n, sum);
    for (const KeyedIndex& x : items) buffer[c[(x.key >> shift) & (kBuckets - 1)]++] = x;
    items.swap(buffer);
  }
}

// Fills `members` with 0..n-1 grouped by bucket_of(i) (in [0, buckets), or
// negative for none), each bucket in increasing i, and `begin` with each
// bucket's first position (one more entry at the end): a counting sort.
template <typename BucketOf>
void CountingSort(size_t n, size_t buckets, BucketOf&& bucket_of, std::vector<int32_t>* begin,
                  std::vector<int32_t>* members) {
  begin->assign(buckets + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    const int32_t b = bucket_of(i);
    if (b >= 0) ++(*begin)[static_cast<size_t>(b) + 1];
  }
  std::partial_sum(begin->begin(), begin->end(), begin->begin());
  members->resize(static_cast<size_t>(begin->back()));
  // Filled back to front from each bucket's end, which leaves `begin` as it
  // was computed: shifted by one, then restored.
  for (size_t i = n; i-- > 0;) {
    const int32_t b = bucket_of(i);
    if (b >= 0)
      (*members)[static_cast<size_t>(--(*begin)[static_cast<size_t>(b) + 1])] =
          static_cast<int32_t>(i);
  }
  // Now begin[b + 1] is bucket b's first position; shift back.
  for (size_t b = 0; b < buckets; ++b) (*begin)[b] = (*begin)[b + 1];
  (*begin)[buckets] = static_cast<int32_t>(members->size());
}

// Hands the members of counting-sort buckets to `fetch` a fixed distance
// ahead of the bucket being worked on, each once: a bucket's members lie
// anywhere in start order, so their entries are started early.
class MembersAhead {
 public:
  explicit MembersAhead(const std::vector<int32_t>& members) : members_(members) {}

  // Fetches the members before position end + kDistance not yet fetched.
  template <typename Fetch>
  void Through(size_t end, Fetch&& fetch) {
    const size_t until = std::min(members_.size(), end + kDistance);
    for (; next_ < until; ++next_) fetch(static_cast<size_t>(members_[next_]));
  }

 private:
  static constexpr size_t kDistance = 16;
  const std::vector<int32_t>& members_;
  size_t next_ = 0;
};

}  // namespace

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

TextIds::TextIds(size_t expected) {
  size_t size = 16;
  while (size < 2 * expected) size *= 2;
  Resize(size);
  hashes_.reserve(expected);
}

void TextIds::Resize(size_t size) {
  slots_.assign(size, Slot{});
  shift_ = 64 - std::countr_zero(size);
  const size_t mask = size - 1;
  for (size_t id = 0; id < hashes_.size(); ++id) {
    size_t i = static_cast<size_t>(hashes_[id] >> shift_);
    while (slots_[i].id >= 0) i = (i + 1) & mask;
    slots_[i] = {static_cast<uint32_t>(hashes_[id]), static_cast<int32_t>(id)};
  }
}

// Union-find over active copies that refuses, for rules 2-4, to join two
// groups holding copies of a common calendar.
class CopyGroups::UnionFind {
 public:
  UnionFind(const std::vector<Near>& copies, size_t calendar_count)
      : parent_(copies.size()), size_(copies.size(), 1) {
    std::iota(parent_.begin(), parent_.end(), 0);
    use_mask_ = calendar_count <= kMaskCalendars;
    if (use_mask_) {
      mask_.resize(copies.size());
      for (size_t i = 0; i < copies.size(); ++i) mask_[i] = uint64_t{1} << copies[i].calendar;
    } else {
      lists_.resize(copies.size());
      for (size_t i = 0; i < copies.size(); ++i) lists_[i] = {copies[i].calendar};
    }
  }

  int32_t Find(int32_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }

  // Starts loading what Find(x) reads first.
  void Prefetch(int32_t x) const {
    __builtin_prefetch(&parent_[static_cast<size_t>(x)]);
    __builtin_prefetch(&size_[static_cast<size_t>(x)]);
    if (use_mask_) __builtin_prefetch(&mask_[static_cast<size_t>(x)]);
  }

  // Starts loading x's parent's entries (its root's, in most cases).
  void PrefetchGroup(int32_t x) const {
    const auto parent = static_cast<size_t>(parent_[static_cast<size_t>(x)]);
    __builtin_prefetch(&parent_[parent]);
    if (use_mask_) __builtin_prefetch(&mask_[parent]);
  }

  // Rule 1: joins unconditionally.
  void Join(int32_t a, int32_t b) {
    a = Find(a), b = Find(b);
    if (a != b) Link(a, b);
  }

  // Rules 2-4: joins unless the groups share a calendar.
  void JoinAcrossCalendars(int32_t a, int32_t b) {
    a = Find(a), b = Find(b);
    if (a != b && !ShareCalendar(a, b)) Link(a, b);
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

CopyGroups::CopyGroups(const std::vector<CalendarEvent>& copies)
    : copies_(copies), key_ids_(copies.size() / 4), title_ids_(copies.size() / 4) {
  Read();
  UnionFind groups(near_, calendar_count_);
  SameUidAndOccurrence(groups);
  SameOnlineMeeting(groups);
  SameTimesAndTitles(groups);
  SameDaysAndHolidayTitles(groups);
  root_.resize(active_.size());
  for (size_t k = 0; k < active_.size(); ++k) root_[k] = groups.Find(static_cast<int32_t>(k));
}

std::vector<int32_t> CopyGroups::Numbers(int32_t* group_count) {
  std::vector<int32_t> out(copies_.size(), -1);
  std::vector<int32_t> number(active_.size(), -1);
  int32_t next = 0;
  // Input order is not start order: a copy's root, and then the root's
  // number, are fetched a few copies ahead.
  constexpr size_t kRootsAhead = 16, kNumbersAhead = 8;
  const size_t count = copies_.size();
  for (size_t i = 0; i < count; ++i) {
    if (i + kRootsAhead < count && rank_of_[i + kRootsAhead] >= 0) {
      __builtin_prefetch(&root_[static_cast<size_t>(rank_of_[i + kRootsAhead])]);
    }
    if (i + kNumbersAhead < count && rank_of_[i + kNumbersAhead] >= 0) {
      __builtin_prefetch(
          &number[static_cast<size_t>(root_[static_cast<size_t>(rank_of_[i + kNumbersAhead])])]);
    }
    const int32_t k = rank_of_[i];
    if (k < 0) continue;
    int32_t& n = number[static_cast<size_t>(root_[static_cast<size_t>(k)])];
    if (n < 0) n = next++;
    out[i] = n;
  }
  *group_count = next;
  return out;
}

// Numbers the active copies in start order: a radix sort on start and length
// packed in one key when they fit (they do for any real calendar), so equal
// keys keep input order. `items` holds each active copy's length (end raised
// to at least start + 1, minus start) and input index; `start` is by input
// index.
void CopyGroups::SortByStart(std::vector<KeyedIndex>& items, const std::vector<int64_t>& start) {
  int64_t min_start = 0, max_start = 0;
  uint64_t min_length = 0, max_length = 0;
  for (const KeyedIndex& x : items) {
    const int64_t s = start[static_cast<size_t>(x.index)];
    if (&x == items.data()) {
      min_start = max_start = s;
      min_length = max_length = x.key;
    } else {
      min_start = std::min(min_start, s), max_start = std::max(max_start, s);
      min_length = std::min(min_length, x.key), max_length = std::max(max_length, x.key);
    }
  }
  const int start_bits =
      std::bit_width(static_cast<uint64_t>(max_start) - static_cast<uint64_t>(min_start));
  const int length_bits = std::bit_width(max_length - min_length);
  if (start_bits + length_bits <= 64) {
    for (KeyedIndex& x : items) {
      const uint64_t s = static_cast<uint64_t>(start[static_cast<size_t>(x.index)]) -
                         static_cast<uint64_t>(min_start);
      x.key = (length_bits == 64 ? 0 : s << length_bits) | (x.key - min_length);
    }
    RadixSort(items, start_bits + length_bits);
  } else {
    std::sort(items.begin(), items.end(), [&start](const KeyedIndex& a, const KeyedIndex& b) {
      const int64_t sa = start[static_cast<size_t>(a.index)];
      const int64_t sb = start[static_cast<size_t>(b.index)];
      if (sa != sb) return sa < sb;
      return a.key != b.key ? a.key < b.key : a.index < b.index;
    });
  }
  active_.resize(items.size());
  rank_of_.assign(copies_.size(), -1);
  for (size_t k = 0; k < items.size(); ++k) {
    active_[k] = items[k].index;
    rank_of_[static_cast<size_t>(items[k].index)] = static_cast<int32_t>(k);
  }
}

int32_t CopyGroups::InternMeetingKey(std::string_view key, uint64_t hash) {
  bool added = false;
  const int32_t id = key_ids_.Intern(
      key, hash,
      [this](int32_t other) {
        const size_t begin = key_begin_[static_cast<size_t>(other)];
        return std::string_view(key_texts_).substr(begin, key_begin_[other + 1] - begin);
      },
      &added);
  if (added) {
    if (key_begin_.empty()) key_begin_.push_back(0);
    key_texts_.append(key);
    key_begin_.push_back(static_cast<uint32_t>(key_texts_.size()));
  }
  return id;
}

// Reads each copy once, in input order (its strings are then read in the
// order they were allocated, and every array is written in order), into
// arrays by input index; then numbers the active copies in start order and
// gathers those arrays into start order, which reads only compact data.
void CopyGroups::Read() {
  const size_t n = copies_.size();
  // By input index, gathered into the arrays by k below.
  struct Fields {
    int64_t occurrence;
    uint64_t title_mask;  // Copied here while the title's entry is in cache.
    int32_t uid, key, title;
  };
  std::vector<Near> near(n);
  std::vector<Fields> fields(n);
  std::vector<int64_t> start(n);
  std::vector<KeyedIndex> items;  // Active copies: length and input index.
  items.reserve(n);
  ranks_.resize(n);
  TextIds calendars;
  std::vector<int32_t> calendar_first;
  std::string_view last_calendar;
  int32_t calendar = -1;
  TextIds links(n / 4), uids(n / 2);
  std::vector<int32_t> link_first;  // By link id: the first copy with it.
  std::vector<int32_t> link_key;    // By link id: its meeting key id, or -1.
  std::vector<bool> link_personal;  // By link id: a personal room.
  std::string scratch;
  // The texts of the copy kTextsAhead ahead are fetched, and those of the
  // copy kSlotsAhead ahead hashed and their table slots fetched, while this
  // one is read: on a large input each would otherwise wait for memory.
  constexpr size_t kTextsAhead = 8, kSlotsAhead = 4;
  struct Hashes {
    uint64_t uid, link, title;
  };
  std::array<Hashes, kSlotsAhead> ahead;  // By input index modulo kSlotsAhead.
  auto hash_ahead = [&](size_t i) {
    const CalendarEvent& e = copies_[i];
    Hashes& h = ahead[i % kSlotsAhead];
    h.uid = Hash(e.uid);
    h.link = Hash(e.join_url);
    h.title = Hash(e.title);
    uids.Prefetch(h.uid);
    links.Prefetch(h.link);
    title_ids_.Prefetch(h.title);
  };
  for (size_t i = 0; i < std::min(n, kSlotsAhead); ++i) hash_ahead(i);
  for (size_t i = 0; i < n; ++i) {
    if (i + 2 * kTextsAhead < n) {
      const char* copy = reinterpret_cast<const char*>(&copies_[i + 2 * kTextsAhead]);
      for (size_t line = 0; line < sizeof(CalendarEvent); line += 64)
        __builtin_prefetch(copy + line);
    }
    if (i + kTextsAhead < n) {
      const CalendarEvent& next = copies_[i + kTextsAhead];
      __builtin_prefetch(next.title.data());
      __builtin_prefetch(next.uid.data());
      __builtin_prefetch(next.join_url.data());
    }
    const Hashes hashes = ahead[i % kSlotsAhead];
    if (i + kSlotsAhead < n) hash_ahead(i + kSlotsAhead);
    const CalendarEvent& e = copies_[i];
    if (e.cancelled()) continue;
    bool added = false;
    if (calendar < 0 || e.calendar != last_calendar) {  // Copies come in runs.
      calendar = calendars.Intern(
          e.calendar, Hash(e.calendar),
          [&](int32_t other) { return std::string_view(copies_[calendar_first[other]].calendar); },
          &added);
      if (added) calendar_first.push_back(static_cast<int32_t>(i));
      last_calendar = e.calendar;
    }
    Near& nr = near[i];
    nr.start = e.start;
    nr.end = std::max(e.end, e.start + 1);
    nr.calendar = calendar;
    nr.all_day = e.all_day;
    nr.has_title = !e.title.empty();
    start[i] = e.start;
    items.push_back(
        {static_cast<uint64_t>(nr.end) - static_cast<uint64_t>(e.start), static_cast<int32_t>(i)});
    // The meeting key, from the join link (classified once per distinct
    // link), else a link in the location or (with no join link) the
    // description. A new key's table slot is fetched here and the key
    // interned after the UID and title, which hides the slot's miss.
    int32_t key = -1;
    bool personal = false;
    bool pending_key = false;   // scratch holds a key to intern below.
    int32_t pending_link = -1;  // The new link whose key that is.
    if (!e.join_url.empty()) {
      const int32_t link = links.Intern(
          e.join_url, hashes.link,
          [&](int32_t other) { return std::string_view(copies_[link_first[other]].join_url); },
          &added);
      if (added) {
        link_first.push_back(static_cast<int32_t>(i));
        scratch.clear();
        bool room = false;
        pending_key = AppendMeetingKey(e.join_url, &scratch, &room);
        if (pending_key) pending_link = link;
        link_key.push_back(-1);
        link_personal.push_back(room);
      }
      key = link_key[link];
      personal = link_personal[link];
    } else {
      scratch.clear();
      pending_key = AppendMeetingKey(e.location, &scratch, &personal) ||
                    AppendMeetingKey(e.description, &scratch, &personal);
    }
    uint64_t key_hash = 0;
    if (pending_key) {
      key_hash = Hash(scratch);
      key_ids_.Prefetch(key_hash);
    }
    Fields& f = fields[i];
    if (e.uid.empty()) {
      f.uid = -1;
    } else {
      f.uid = uids.Intern(
          e.uid, hashes.uid,
          [&](int32_t other) { return std::string_view(copies_[uid_first_[other]].uid); }, &added);
      if (added) uid_first_.push_back(static_cast<int32_t>(i));
    }
    f.occurrence = e.original_start != 0 ? e.original_start : e.start;
    // Titles are normalized here, while the copy's strings are in cache, not
    // in a later pass over the copies: rules 3 and 4 compare most of them.
    f.title = nr.has_title ? InternTitle(static_cast<int32_t>(i), hashes.title) : -1;
    f.title_mask = f.title >= 0 ? normalized_[static_cast<size_t>(f.title)].word_mask : 0;
    if (pending_key) {
      key = InternMeetingKey(scratch, key_hash);
      if (pending_link >= 0) link_key[static_cast<size_t>(pending_link)] = key;
    }
    f.key = key;
    nr.personal_room = key >= 0 && personal;
    ranks_[i] = {e.start, e.end, static_cast<uint64_t>(e.created - 1), SourceRank(e.source),
                 FieldCount(e)};
  }
  calendar_count_ = calendars.size();
  SortByStart(items, start);
  const size_t m = active_.size();
  near_.resize(m);
  uid_.resize(m);
  occurrence_.resize(m);
  key_.resize(m);
  title_.resize(m);
  title_mask_.resize(m);
  // Copies: the gather's reads are scattered.
  constexpr size_t kGatherAhead = 16;
  for (size_t k = 0; k < m; ++k) {
    if (k + kGatherAhead < m) {
      const auto ahead = static_cast<size_t>(active_[k + kGatherAhead]);
      __builtin_prefetch(&near[ahead]);
      __builtin_prefetch(&fields[ahead]);
    }
    const auto i = static_cast<size_t>(active_[k]);
    near_[k] = near[i];
    const Fields& f = fields[i];
    uid_[k] = f.uid;
    occurrence_[k] = f.occurrence;
    key_[k] = f.key;
    title_[k] = f.title;
    title_mask_[k] = f.title_mask;
  }
}

int32_t CopyGroups::InternTitle(int32_t i, uint64_t hash) {
  const std::string& raw = copies_[static_cast<size_t>(i)].title;
  bool added = false;
  const int32_t id = title_ids_.Intern(
      raw, hash,
      [this](int32_t other) { return std::string_view(copies_[title_first_[other]].title); },
      &added);
  if (added) {
    title_first_.push_back(i);
    NormalizedTitle t;
    t.text_begin = static_cast<uint32_t>(titles_.size());
    AppendNormalizedTitle(raw, &titles_);
    t.text_size = static_cast<uint32_t>(titles_.size() - t.text_begin);
    t.words_begin = static_cast<uint32_t>(words_.size());
    t.words_size = static_cast<uint32_t>(
        AppendWordHashes(std::string_view(titles_).substr(t.text_begin, t.text_size), &words_));
    t.word_mask = WordMask(std::span<const uint64_t>(words_).subspan(t.words_begin, t.words_size));
    normalized_.push_back(t);
  }
  return id;
}

int32_t CopyGroups::TitleId(int32_t k) {
  int32_t& id = title_[k];
  if (id < 0) {
    const int32_t i = active_[k];
    id = InternTitle(i, Hash(copies_[static_cast<size_t>(i)].title));
  }
  return id;
}

std::string_view CopyGroups::Title(int32_t k) {
  const NormalizedTitle& t = normalized_[TitleId(k)];
  return std::string_view(titles_).substr(t.text_begin, t.text_size);
}

std::span<const uint64_t> CopyGroups::Words(int32_t k) {
  const NormalizedTitle& t = normalized_[TitleId(k)];
  return std::span<const uint64_t>(words_).subspan(t.words_begin, t.words_size);
}

bool CopyGroups::TitlesMatch(int32_t a, int32_t b) {
  const int32_t ta = TitleId(a), tb = TitleId(b);
  if (ta == tb) return !Title(a).empty();  // One raw title: equal when normalized.
  return NormalizedTitlesMatch(Title(a), Words(a), Title(b), Words(b));
}

// Rule 1: copies of each UID in occurrence order; a run of occurrences each
// within the tolerance of the last is one group. Rule 1 joins
// unconditionally, so the order of its unions does not change the groups.
void CopyGroups::SameUidAndOccurrence(UnionFind& groups) {
  std::vector<int32_t> begin, members;
  CountingSort(
      active_.size(), uid_first_.size(), [this](size_t k) { return uid_[k]; }, &begin, &members);
  MembersAhead ahead(members);
  for (size_t u = 0; u < uid_first_.size(); ++u) {
    int32_t* first = members.data() + begin[u];
    int32_t* last = members.data() + begin[u + 1];
    ahead.Through(static_cast<size_t>(begin[u + 1]), [&](size_t k) {
      __builtin_prefetch(&occurrence_[k]);
      groups.Prefetch(static_cast<int32_t>(k));
    });
    if (last - first < 2) continue;
    // In start order already: occurrences differ only for moved ones.
    SortSmall(first, last, [this](int32_t a, int32_t b) {
      return occurrence_[a] != occurrence_[b] ? occurrence_[a] < occurrence_[b] : a < b;
    });
    for (int32_t* p = first + 1; p < last; ++p) {
      if (occurrence_[*p] - occurrence_[p[-1]] <= kDedupeTimeToleranceSeconds) {
        groups.Join(p[-1], *p);
      }
    }
  }
}

// Rule 2: a bucket of copies per meeting key, in order of the keys' first
// sight in the input (so unions happen in one order natively and in wasm),
// each in start order; a copy is compared with the later ones starting
// before it ends.
void CopyGroups::SameOnlineMeeting(UnionFind& groups) {
  const auto buckets = static_cast<int32_t>(key_ids_.size());
  if (buckets == 0) return;
  std::vector<int32_t> begin, members;
  CountingSort(
      active_.size(), static_cast<size_t>(buckets), [this](size_t k) { return key_[k]; }, &begin,
      &members);
  MembersAhead ahead(members);
  for (int32_t b = 0; b < buckets; ++b) {
    const int32_t last = begin[b + 1];
    ahead.Through(static_cast<size_t>(last), [&](size_t k) {
      __builtin_prefetch(&near_[k]);
      groups.Prefetch(static_cast<int32_t>(k));
    });
    for (int32_t i = begin[b]; i + 1 < last; ++i) {
      const int32_t a = members[i];
      const Near& na = near_[a];
      for (int32_t j = i + 1; j < last && near_[members[j]].start < na.end; ++j) {
        const int32_t c = members[j];
        if (groups.Blocked(a, c)) continue;
        if ((na.personal_room || near_[c].personal_room) && !TitlesMatch(a, c)) continue;
        groups.JoinAcrossCalendars(a, c);
      }
    }
  }
}

// Rule 3: neighbours in start order among timed copies.
void CopyGroups::SameTimesAndTitles(UnionFind& groups) {
  const auto n = static_cast<int32_t>(active_.size());
  // A copy's group and title lie anywhere: those of the copies ahead are
  // fetched while this one is compared (the title's text once its entry
  // has come).
  constexpr int32_t kGroupsAhead = 16, kTextsAhead = 8;
  for (int32_t a = 0; a < n; ++a) {
    if (a + kGroupsAhead < n) {
      groups.PrefetchGroup(a + kGroupsAhead);
      const int32_t t = title_[a + kGroupsAhead];
      if (t >= 0) __builtin_prefetch(&normalized_[static_cast<size_t>(t)]);
    }
    if (a + kTextsAhead < n) {
      const int32_t t = title_[a + kTextsAhead];
      if (t >= 0) {
        const NormalizedTitle& nt = normalized_[static_cast<size_t>(t)];
        __builtin_prefetch(titles_.data() + nt.text_begin);
        __builtin_prefetch(words_.data() + nt.words_begin);
      }
    }
    const Near& pa = near_[a];
    if (pa.all_day || !pa.has_title) continue;
    for (int32_t b = a + 1; b < n && near_[b].start - pa.start <= kDedupeTimeToleranceSeconds;
         ++b) {
      const Near& pb = near_[b];
      if (pb.all_day || pb.calendar == pa.calendar || !pb.has_title) continue;
      const int64_t end_gap = pb.end > pa.end ? pb.end - pa.end : pa.end - pb.end;
      if (end_gap > kDedupeTimeToleranceSeconds) continue;
      if ((title_mask_[a] & title_mask_[b]) == 0 || groups.Blocked(a, b)) continue;
      if (TitlesMatch(a, b)) groups.JoinAcrossCalendars(a, b);
    }
  }
}

// Rule 4: all-day copies with one date span, titles after the holiday
// vocabulary. Start order puts each span's copies next to each other.
void CopyGroups::SameDaysAndHolidayTitles(UnionFind& groups) {
  std::vector<int32_t> span;
  std::vector<std::string> keys;
  const size_t n = active_.size();
  for (size_t k = 0; k < n;) {
    if (!near_[k].all_day) {
      ++k;
      continue;
    }
    // The all-day copies with k's span (timed copies may lie between).
    span.clear();
    size_t end = k;
    for (; end < n && near_[end].start == near_[k].start && near_[end].end == near_[k].end; ++end) {
      if (near_[end].all_day) span.push_back(static_cast<int32_t>(end));
    }
    if (span.size() > 1) {
      keys.clear();
      for (const int32_t x : span) keys.push_back(HolidayKey(Title(x)));
      for (size_t x = 0; x < span.size(); ++x) {
        for (size_t y = x + 1; y < span.size(); ++y) {
          const int32_t a = span[x], b = span[y];
          if (near_[a].calendar == near_[b].calendar || groups.Blocked(a, b)) continue;
          if (HolidayKeysMatch(keys[x], keys[y])) groups.JoinAcrossCalendars(a, b);
        }
      }
    }
    k = end;
  }
}

}  // namespace ensemble::core::calendar::dedupe_internal
