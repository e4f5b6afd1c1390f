// FindCandidates (search_index.h): a query's candidates of one kind, from
// the recent rows (matched here) and the key ranges of search_terms.

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/context/search_index.h"  // What this file implements (with search_index.cc).
#include "core/text/utf8.h"

namespace ensemble::core::context {
namespace {

using store::Value;

// The least string above every string starting with `prefix` (non-empty,
// valid UTF-8): its last code point plus one. UTF-8's byte order is code
// point order, so [prefix, this) is exactly the strings starting with it.
std::string PrefixEnd(std::string_view prefix) {
  std::size_t last = prefix.size() - 1;
  while (last > 0 && (static_cast<unsigned char>(prefix[last]) & 0xC0) == 0x80) --last;
  char32_t c = text::DecodeUtf8Step(prefix, last).code_point + 1;
  if (c == 0xD800) c = 0xE000;  // Past the surrogates, which UTF-8 cannot hold.
  std::string out(prefix.substr(0, last));
  text::AppendUtf8(c, &out);
  return out;
}

// The words (bits by their place in the query) a record holds, those of them
// in its title, and when it changed.
struct HeldWords {
  uint32_t words = 0;
  uint32_t in_title = 0;
  int64_t updated_at = 0;
};

// HeldWords by record id, for the thousands of rows a common word has: open
// addressing over one buffer of ids, so a row costs no allocation of its own.
class HeldById {
 public:
  HeldById() : slots_(kFirstSlots) {}

  // The entry of `id`, added empty the first time.
  HeldWords& Of(std::string_view id) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    Slot& slot = Find(slots_, ids_, id, std::hash<std::string_view>()(id));
    if (slot.size == kEmpty) {
      slot.begin = ids_.size();
      slot.size = id.size();
      ids_.append(id);
      ++size_;
    }
    return slot.held;
  }

  std::size_t size() const { return size_; }

  bool Contains(std::string_view id) const {
    if (size_ == 0) return false;
    const std::size_t hash = std::hash<std::string_view>()(id);
    for (std::size_t at = hash & (slots_.size() - 1);; at = (at + 1) & (slots_.size() - 1)) {
      const Slot& slot = slots_[at];
      if (slot.size == kEmpty) return false;
      if (slot.hash == hash && std::string_view(ids_).substr(slot.begin, slot.size) == id)
        return true;
    }
  }

  // Calls fn(id, held) for each entry, in no order.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (const Slot& slot : slots_) {
      if (slot.size != kEmpty) fn(std::string_view(ids_).substr(slot.begin, slot.size), slot.held);
    }
  }

 private:
  static constexpr std::size_t kFirstSlots = 1024;  // A power of two.
  static constexpr std::size_t kEmpty = static_cast<std::size_t>(-1);
  struct Slot {
    std::size_t begin = 0;
    std::size_t size = kEmpty;
    std::size_t hash = 0;
    HeldWords held;
  };

  static Slot& Find(std::vector<Slot>& slots, const std::string& ids, std::string_view id,
                    std::size_t hash) {
    for (std::size_t at = hash & (slots.size() - 1);; at = (at + 1) & (slots.size() - 1)) {
      Slot& slot = slots[at];
      if (slot.size == kEmpty) {
        slot.hash = hash;
        return slot;
      }
      if (slot.hash == hash && std::string_view(ids).substr(slot.begin, slot.size) == id)
        return slot;
    }
  }

  void Grow() {
    std::vector<Slot> bigger(2 * slots_.size());
    for (const Slot& slot : slots_) {
      if (slot.size == kEmpty) continue;
      std::size_t at = slot.hash & (bigger.size() - 1);
      while (bigger[at].size != kEmpty) at = (at + 1) & (bigger.size() - 1);
      bigger[at] = slot;
    }
    slots_ = std::move(bigger);
  }

  std::vector<Slot> slots_;
  std::string ids_;  // Every id added, one after another.
  std::size_t size_ = 0;
};

}  // namespace

Result<IndexCandidates> FindCandidates(store::Database& db, const std::string& space_id,
                                       std::string_view kind, const SearchQuery& query) {
  IndexCandidates out;
  if (query.words.empty()) return out;
  static_assert(kMaxQueryWords <= 32, "a word is a bit of HeldWords::words");
  // A word's tokens as the index holds them, and whether each is asked for
  // as a prefix: the word's last, or one the index holds cut.
  struct Asked {
    std::string_view token;
    bool prefix;
  };
  std::vector<std::vector<Asked>> asked;
  for (const std::vector<std::string>& word : query.words) {
    std::vector<Asked>& tokens = asked.emplace_back();
    for (std::size_t t = 0; t < word.size(); ++t) {
      const std::string_view token = IndexedToken(word[t]);
      tokens.push_back({token, t + 1 == word.size() || token.size() != word[t].size()});
    }
  }
  HeldById held;
  // Records with a recent row: matched here, and their rows in search_terms
  // passed over (superseded), whatever space the row names.
  HeldById recent;
  ENSEMBLE_RETURN_IF_ERROR(db.ForEachRow(
      "SELECT id, space_id, updated_at, title_tokens, tokens FROM search_recent WHERE kind = $1",
      {Value(std::string(kind))}, [&](const store::RowView& row) {
        recent.Of(row.Text(0));
        if (row.Text(1) != space_id) return Status::Ok();
        const std::string_view lists[2] = {row.Text(3), row.Text(4)};
        // Whether a token of `list` is a.token (or starts with it): found
        // in place, at the start of a token, without splitting the list.
        auto in = [](std::string_view list, const Asked& a) {
          for (std::size_t at = list.find(a.token); at != std::string_view::npos;
               at = list.find(a.token, at + 1)) {
            if (at > 0 && list[at - 1] != ' ') continue;
            const std::size_t end = at + a.token.size();
            if (a.prefix || end == list.size() || list[end] == ' ') return true;
          }
          return false;
        };
        HeldWords h;
        for (std::size_t w = 0; w < asked.size(); ++w) {
          bool all = true;
          for (const Asked& a : asked[w]) all = all && (in(lists[0], a) || in(lists[1], a));
          if (!all) continue;
          h.words |= uint32_t{1} << w;
          if (in(lists[0], asked[w][0])) h.in_title |= uint32_t{1} << w;
        }
        if (h.words == 0) return Status::Ok();
        h.updated_at = row.Int(2);
        held.Of(row.Text(0)) = h;
        return Status::Ok();
      }));
  std::vector<Value> params = {Value(space_id), Value(std::string(kind))};
  // The condition a token puts on a row: a prefix range, or the token itself.
  auto holds = [&](const Asked& a) {
    params.push_back(Value(std::string(a.token)));
    const std::string lower = "$" + std::to_string(params.size());
    if (!a.prefix) return "token = " + lower;
    params.push_back(Value(PrefixEnd(a.token)));
    return "token >= " + lower + " AND token < $" + std::to_string(params.size());
  };
  auto rows_of = [](std::string_view columns, const std::string& holding) {
    return "SELECT " + std::string(columns) +
           " FROM search_terms WHERE space_id = $1 AND kind = $2 AND " + holding;
  };
  // Per word, an arm: the rows of the word's first token, of records that
  // hold its other tokens too (their order is the ranking's to check). Arms
  // of a UNION ALL, so each reads its own ranges of the key and a token
  // holding two words counts for both.
  std::string arms;
  for (std::size_t w = 0; w < asked.size(); ++w) {
    const std::string first = holds(asked[w][0]);
    std::string others;
    for (std::size_t t = 1; t < asked[w].size(); ++t)
      others += " AND id IN (" + rows_of("id", holds(asked[w][t])) + ")";
    arms += (arms.empty() ? "" : " UNION ALL ") +
            rows_of(std::to_string(w) + " AS word, id, in_title, updated_at", first) + others;
  }
  // What each record holds, summed here as the rows stream by: a GROUP BY in
  // SQL sorts every row first, which cost three times as much.
  ENSEMBLE_RETURN_IF_ERROR(db.ForEachRow(arms, params, [&](const store::RowView& row) {
    if (recent.size() > 0 && recent.Contains(row.Text(1))) return Status::Ok();
    HeldWords& h = held.Of(row.Text(1));
    const uint32_t bit = uint32_t{1} << row.Int(0);
    h.words |= bit;
    if (row.Int(2) == 1) h.in_title |= bit;
    h.updated_at = std::max(h.updated_at, row.Int(3));
    return Status::Ok();
  }));
  // Most words held, then most in the title (each is worth 3 points, more
  // than recency's 1), then the later changed, then by id (byte order).
  struct Held {
    int words;
    int in_title;
    int64_t updated_at;
    std::string_view id;
  };
  std::vector<Held> ranked;
  ranked.reserve(held.size());
  held.ForEach([&](std::string_view id, const HeldWords& h) {
    ranked.push_back({std::popcount(h.words), std::popcount(h.in_title), h.updated_at, id});
  });
  // One past the bound says whether there are more.
  const std::size_t kept = std::min(ranked.size(), kCandidatesPerKind + 1);
  std::partial_sort(ranked.begin(), ranked.begin() + kept, ranked.end(),
                    [](const Held& a, const Held& b) {
                      if (a.words != b.words) return a.words > b.words;
                      if (a.in_title != b.in_title) return a.in_title > b.in_title;
                      if (a.updated_at != b.updated_at) return a.updated_at > b.updated_at;
                      return a.id < b.id;
                    });
  out.more = ranked.size() > kCandidatesPerKind;
  for (std::size_t i = 0; i < kept && i < kCandidatesPerKind; ++i)
    out.ids.emplace_back(ranked[i].id);
  return out;
}

}  // namespace ensemble::core::context
