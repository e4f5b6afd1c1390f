// The grouping half of cross-calendar dedupe (dedupe.h, spec §2.5): which
// copies are one event, by the four rules over a union-find. Internal to
// dedupe.cc (apart so that each file reads in one sitting); other code calls
// GroupCalendarEvents or MergeCalendarEvents.
//
// The copies are read once, in input order, into compact arrays, which are
// then gathered into start order; every rule walks those arrays and compares
// texts as dense ids (equal ids are equal texts). Buckets are filled by
// counting sorts and the start order by a radix sort, so the work grows
// linearly with the copies (only a bucket's few members are ever sorted).
// On a large input neither the copies nor the arrays fit in cache, and a
// bucket's members lie anywhere in start order, so every pass starts the
// reads of the items a few steps ahead (copies, hash table slots, group
// roots) while it works on the current one.
//
// One object per merge, not thread-safe; `copies` must outlive it.

#ifndef ENSEMBLE_CORE_CALENDAR_DEDUPE_GROUPS_H_
#define ENSEMBLE_CORE_CALENDAR_DEDUPE_GROUPS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/calendar/event.h"

namespace ensemble::core::calendar::dedupe_internal {

// The interning tables' 64-bit hash. No result depends on it (ids come in
// order of first sight), but it is the same natively and in wasm (std::hash
// is not), so both probe alike.
uint64_t Hash(std::string_view s);

// Runs up to this long are sorted by insertion: they are short and nearly
// in order already.
inline constexpr size_t kInsertionSortLimit = 24;

// Sorts [first, last) by `less`: by insertion when short, else std::sort.
template <typename T, typename Less>
void SortSmall(T* first, T* last, Less less) {
  if (static_cast<size_t>(last - first) > kInsertionSortLimit) {
    std::sort(first, last, less);
    return;
  }
  for (T* i = first + 1; i < last; ++i) {
    T x = *i;
    T* j = i;
    for (; j > first && less(x, j[-1]); --j) *j = j[-1];
    *j = x;
  }
}

// Dense ids for distinct texts, in order of first sight: open addressing
// over a power-of-two array kept at most half full. Each slot keeps the low
// 32 bits of the text's hash, so a probe reads the stored text (likely a
// cache miss) only when those match. The caller keeps the texts: text_of(id)
// returns the text of id.
class TextIds {
 public:
  // `expected`: a hint of how many distinct texts will come.
  explicit TextIds(size_t expected = 8);

  // The id of `text` (whose Hash is `hash`); a new text gets the next id and
  // sets *added.
  template <typename TextOf>
  int32_t Intern(std::string_view text, uint64_t hash, TextOf&& text_of, bool* added) {
    const auto tag = static_cast<uint32_t>(hash);
    const size_t mask = slots_.size() - 1;
    for (auto i = static_cast<size_t>(hash >> shift_);; i = (i + 1) & mask) {
      Slot& slot = slots_[i];
      if (slot.id < 0) {
        const auto id = static_cast<int32_t>(hashes_.size());
        slot = {tag, id};
        hashes_.push_back(hash);
        if (2 * hashes_.size() > slots_.size()) Resize(2 * slots_.size());
        *added = true;
        return id;
      }
      if (slot.tag == tag && text_of(slot.id) == text) {
        *added = false;
        return slot.id;
      }
    }
  }

  // Starts loading the slot that Intern(text, hash) probes first, so that a
  // later Intern does not wait for memory.
  void Prefetch(uint64_t hash) const {
    __builtin_prefetch(&slots_[static_cast<size_t>(hash >> shift_)]);
  }

  size_t size() const { return hashes_.size(); }

 private:
  struct Slot {
    uint32_t tag = 0;
    int32_t id = -1;
  };
  void Resize(size_t size);

  std::vector<Slot> slots_;
  std::vector<uint64_t> hashes_;  // By id.
  int shift_ = 61;                // 64 - log2(slots_.size()).
};

// An item to sort: its key and the index of what it stands for.
struct KeyedIndex {
  uint64_t key;
  int32_t index;
};

// What the merge ranks a copy by, read in the same pass as the rules' data
// so that the merge does not walk the copies again to sort them.
struct CopyRank {
  int64_t start = 0;
  int64_t end = 0;           // As written (not adjusted for zero length).
  uint64_t created_key = 0;  // created - 1 as unsigned: 0 (unknown) sorts last.
  int32_t source_rank = 0;   // Google and Outlook 0, calendar links 1.
  int32_t fields = 0;        // How many fields the copy has filled.
};

class CopyGroups {
 public:
  // Reads the copies and joins them by the four rules.
  explicit CopyGroups(const std::vector<CalendarEvent>& copies);

  // For each input copy, the number of its group (numbered in order of each
  // group's first copy in the input), or -1 for a dropped (cancelled) copy;
  // *group_count is set to the number of groups.
  std::vector<int32_t> Numbers(int32_t* group_count);

  // How many copies are active (not dropped).
  size_t active_count() const { return active_.size(); }
  // The position of active input copy i in start order (start, then end
  // raised to at least start + 1, then input order).
  int32_t start_position(int32_t i) const { return rank_of_[static_cast<size_t>(i)]; }
  // The ranking data of input copy i (filled for active copies only).
  const CopyRank& rank(int32_t i) const { return ranks_[static_cast<size_t>(i)]; }

 private:
  // What the neighbour scans (rules 3 and 4) and rule 2 read of one active
  // copy, apart from the rest so that a scan walks 24 bytes a copy.
  struct Near {
    int64_t start = 0;
    int64_t end = 0;  // At least start + 1, so a zero-length event overlaps.
    int32_t calendar = 0;
    bool all_day = false;
    bool has_title = false;
    bool personal_room = false;  // Its meeting key is a personal room's.
  };
  // A normalized title and its word hashes, in the arenas.
  struct NormalizedTitle {
    uint32_t text_begin = 0, text_size = 0;    // In titles_.
    uint32_t words_begin = 0, words_size = 0;  // In words_.
    uint64_t word_mask = 0;                    // WordMask of the word hashes.
  };
  class UnionFind;

  void Read();
  void SortByStart(std::vector<KeyedIndex>& items, const std::vector<int64_t>& start);
  int32_t InternTitle(int32_t i, uint64_t hash);
  int32_t InternMeetingKey(std::string_view key, uint64_t hash);
  int32_t TitleId(int32_t k);
  std::string_view Title(int32_t k);
  std::span<const uint64_t> Words(int32_t k);
  bool TitlesMatch(int32_t a, int32_t b);

  void SameUidAndOccurrence(UnionFind& groups);
  void SameOnlineMeeting(UnionFind& groups);
  void SameTimesAndTitles(UnionFind& groups);
  void SameDaysAndHolidayTitles(UnionFind& groups);

  const std::vector<CalendarEvent>& copies_;
  // Active copies are numbered k in start order; these are by k.
  std::vector<int32_t> active_;  // Input index.
  std::vector<Near> near_;
  std::vector<int32_t> uid_;          // UID id, or -1.
  std::vector<int64_t> occurrence_;   // Original start, else start.
  std::vector<int32_t> key_;          // Meeting key id, or -1.
  std::vector<int32_t> title_;        // NormalizedTitle id, or -1 until needed.
  std::vector<uint64_t> title_mask_;  // Its word_mask (0 for no title).
  std::vector<int32_t> root_;         // The group's root after the rules.
  std::vector<int32_t> rank_of_;      // By input index: k, or -1 if dropped.
  std::vector<CopyRank> ranks_;       // By input index.
  size_t calendar_count_ = 0;
  // Texts behind the ids: the first copy (input index) that had each.
  std::vector<int32_t> uid_first_, title_first_;
  TextIds key_ids_;
  std::string key_texts_;            // Every distinct meeting key, back to back.
  std::vector<uint32_t> key_begin_;  // By key id, in key_texts_ (one more at the end).
  TextIds title_ids_;
  std::vector<NormalizedTitle> normalized_;  // By title id.
  std::string titles_;                       // Every normalized title, back to back.
  std::vector<uint64_t> words_;              // Every title's word hashes, back to back.
};

}  // namespace ensemble::core::calendar::dedupe_internal

#endif  // ENSEMBLE_CORE_CALENDAR_DEDUPE_GROUPS_H_
