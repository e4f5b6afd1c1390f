// The records one assistant turn knows by id (spec §4.1 "What the turn
// knows"): each {kind, id, label, detail?} and the title a reply shows for
// it. Titles shared by several records are told apart by kind, else by
// detail (a due date, an email), else by a number, so a reader can tell
// which record a link opens.
//
// Lookup is by exact id through a small open-addressing table with a fixed
// hash (FNV-1a), so results never depend on the standard library's hash.
//
// Thread-safety: not safe for concurrent Add; concurrent const use is safe.

#ifndef ENSEMBLE_CORE_REFS_REF_SET_H_
#define ENSEMBLE_CORE_REFS_REF_SET_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ensemble::core::refs {

// A record the model was shown by id.
struct Ref {
  std::string kind;    // "task", "person", "project", ...
  std::string id;      // a record id (core/base/id.h IsValidId)
  std::string label;   // its title or name
  std::string detail;  // optional: due date, email; tells same titles apart
};

// A known ref with the title a reply shows for it.
struct KnownRef {
  Ref ref;
  std::string title;         // label, disambiguated when shared
  std::string first_clause;  // label before its first ":", " - ", ", " ...; empty if none
};

class RefSet {
 public:
  // Spec §4.1: a turn's list holds at most 200 refs.
  static constexpr size_t kMaxRefs = 200;

  RefSet() = default;
  explicit RefSet(const std::vector<Ref>& refs);

  // Adds `ref` unless its id is not a record id, its kind or label is empty,
  // the id is already known (the first wins) or the set is full.
  bool Add(Ref ref);

  // The ref with exactly this id, or nullptr.
  const KnownRef* Find(std::string_view id) const;

  // True if some known id starts with `prefix` (used while text streams).
  bool HasIdWithPrefix(std::string_view prefix) const;

  size_t size() const { return entries_.size(); }
  const KnownRef& at(size_t i) const { return entries_[i]; }

 private:
  void Rehash();
  void Disambiguate(const std::string& label);

  std::vector<KnownRef> entries_;
  std::vector<int32_t> slots_;  // index into entries_, -1 when empty
};

}  // namespace ensemble::core::refs

#endif  // ENSEMBLE_CORE_REFS_REF_SET_H_
