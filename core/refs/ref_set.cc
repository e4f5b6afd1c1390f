#include "core/refs/ref_set.h"

#include <algorithm>
#include <utility>

#include "core/base/id.h"

namespace ensemble::core::refs {
namespace {

uint64_t Fnv1a(std::string_view s) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// The label before its first clause break ("Draft brief: Q3" -> "Draft
// brief"), so "Draft brief (id)" still names the record.
std::string FirstClause(std::string_view label) {
  static constexpr std::string_view kBreaks[] = {": ", " - ", " \u2013 ", " \u2014 ",
                                                 ", ", "; ",  " ("};
  size_t cut = std::string_view::npos;
  for (std::string_view b : kBreaks) cut = std::min(cut, label.find(b));
  if (cut == std::string_view::npos || cut == 0) return {};
  return std::string(label.substr(0, cut));
}

}  // namespace

RefSet::RefSet(const std::vector<Ref>& refs) {
  for (const Ref& r : refs) Add(r);
}

bool RefSet::Add(Ref ref) {
  if (entries_.size() >= kMaxRefs || !IsValidId(ref.id) || ref.kind.empty() ||
      ref.label.empty() || Find(ref.id) != nullptr) {
    return false;
  }
  KnownRef known;
  known.first_clause = FirstClause(ref.label);
  known.title = ref.label;
  known.ref = std::move(ref);
  entries_.push_back(std::move(known));
  Rehash();
  Disambiguate(entries_.back().ref.label);
  return true;
}

void RefSet::Rehash() {
  size_t want = 16;
  while (want < entries_.size() * 4) want *= 2;
  if (slots_.size() == want && entries_.size() > 1) {
    // Same table size: insert only the newest entry.
    size_t mask = want - 1;
    size_t i = Fnv1a(entries_.back().ref.id) & mask;
    while (slots_[i] >= 0) i = (i + 1) & mask;
    slots_[i] = static_cast<int32_t>(entries_.size() - 1);
    return;
  }
  slots_.assign(want, -1);
  size_t mask = want - 1;
  for (size_t e = 0; e < entries_.size(); ++e) {
    size_t i = Fnv1a(entries_[e].ref.id) & mask;
    while (slots_[i] >= 0) i = (i + 1) & mask;
    slots_[i] = static_cast<int32_t>(e);
  }
}

const KnownRef* RefSet::Find(std::string_view id) const {
  if (slots_.empty()) return nullptr;
  size_t mask = slots_.size() - 1;
  for (size_t i = Fnv1a(id) & mask;; i = (i + 1) & mask) {
    int32_t e = slots_[i];
    if (e < 0) return nullptr;
    if (entries_[e].ref.id == id) return &entries_[e];
  }
}

bool RefSet::HasIdWithPrefix(std::string_view prefix) const {
  for (const KnownRef& k : entries_) {
    if (std::string_view(k.ref.id).substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

void RefSet::Disambiguate(const std::string& label) {
  std::vector<KnownRef*> group;
  for (KnownRef& k : entries_) {
    if (k.ref.label == label) group.push_back(&k);
  }
  if (group.size() < 2) return;
  auto all_distinct = [&group](auto field) {
    for (size_t a = 0; a < group.size(); ++a) {
      if (field(*group[a]).empty()) return false;
      for (size_t b = 0; b < a; ++b) {
        if (field(*group[a]) == field(*group[b])) return false;
      }
    }
    return true;
  };
  auto kind = [](const KnownRef& k) -> const std::string& { return k.ref.kind; };
  auto detail = [](const KnownRef& k) -> const std::string& { return k.ref.detail; };
  if (all_distinct(kind)) {
    for (KnownRef* k : group) k->title = label + " (" + k->ref.kind + ")";
  } else if (all_distinct(detail)) {
    for (KnownRef* k : group) k->title = label + " (" + k->ref.detail + ")";
  } else {
    for (size_t i = 0; i < group.size(); ++i) {
      group[i]->title = label + " (" + std::to_string(i + 1) + ")";
    }
  }
}

}  // namespace ensemble::core::refs
