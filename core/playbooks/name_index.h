// NameIndex: a flat open-addressing map from borrowed names to small
// integers, for routing's per-message lookups (tool names, match words).
//
// Why not std::unordered_map<std::string_view, ...>: routing looks up a few
// hundred names per message, and in the wasm build the node-based map's
// chains, its modulo and the out-of-line std::hash cost more than the rest of
// routing together. Here a lookup is one hash over the name (four bytes a
// step), a masked probe over one array, and a compare only when the stored
// hash matches; a name whose first byte starts no inserted name is turned
// away before it is hashed (app tools are not hub_*). Nothing is allocated
// after construction but to grow.
//
// Names are borrowed: each must outlive the index. A name inserted twice
// keeps its first value.
//
// Thread-safety: const methods may be called concurrently; Insert may not.

#ifndef ENSEMBLE_CORE_PLAYBOOKS_NAME_INDEX_H_
#define ENSEMBLE_CORE_PLAYBOOKS_NAME_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace ensemble::core::playbooks {

class NameIndex {
 public:
  static constexpr std::uint32_t kAbsent = UINT32_MAX;

  NameIndex() : NameIndex(0) {}
  // Room for `expected` names without the probes growing long.
  explicit NameIndex(std::size_t expected) {
    std::size_t capacity = 16;
    while (capacity < 2 * expected) capacity *= 2;
    slots_.assign(capacity, Slot());
  }

  // Adds `name` with `value` (not kAbsent); false, keeping the first value,
  // when `name` is already there. Grows when half full.
  bool Insert(std::string_view name, std::uint32_t value) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    const std::uint32_t hash = Hash(name);
    Slot& slot = slots_[Find(name, hash)];
    if (slot.value != kAbsent) return false;
    slot = Slot{name.data(), static_cast<std::uint32_t>(name.size()), hash, value};
    ++size_;
    if (!name.empty()) MarkFirstByte(static_cast<unsigned char>(name[0]));
    return true;
  }

  // The value of `name`, or kAbsent.
  std::uint32_t Get(std::string_view name) const {
    if (!name.empty() && !HasFirstByte(static_cast<unsigned char>(name[0]))) return kAbsent;
    return slots_[Find(name, Hash(name))].value;
  }

  bool Contains(std::string_view name) const { return Get(name) != kAbsent; }

  std::size_t size() const { return size_; }

  // The hash the index uses: every byte counts, four at a time.
  static std::uint32_t Hash(std::string_view name) {
    const char* p = name.data();
    std::size_t n = name.size();
    std::uint32_t h = 0x811C9DC5u ^ static_cast<std::uint32_t>(n);
    while (n >= 4) {
      std::uint32_t word;
      std::memcpy(&word, p, 4);
      h = (h ^ word) * 0x01000193u;
      h ^= h >> 15;
      p += 4;
      n -= 4;
    }
    while (n > 0) {
      h = (h ^ static_cast<unsigned char>(*p)) * 0x01000193u;
      ++p;
      --n;
    }
    h ^= h >> 13;
    h *= 0x5BD1E995u;
    return h ^ (h >> 15);
  }

 private:
  struct Slot {
    const char* data = nullptr;
    std::uint32_t size = 0;
    std::uint32_t hash = 0;
    std::uint32_t value = kAbsent;
  };

  // The slot holding `name`, or the empty one where it would go.
  std::size_t Find(std::string_view name, std::uint32_t hash) const {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = hash & mask;
    while (true) {
      const Slot& slot = slots_[i];
      if (slot.value == kAbsent) return i;
      if (slot.hash == hash && slot.size == name.size() &&
          (name.empty() || std::memcmp(slot.data, name.data(), name.size()) == 0)) {
        return i;
      }
      i = (i + 1) & mask;
    }
  }

  void MarkFirstByte(unsigned char c) { first_bytes_[c >> 5] |= 1u << (c & 31); }
  bool HasFirstByte(unsigned char c) const { return (first_bytes_[c >> 5] >> (c & 31)) & 1u; }

  void Grow() {
    std::vector<Slot> old(2 * slots_.size(), Slot());
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.value == kAbsent) continue;
      std::size_t i = slot.hash & mask;
      while (slots_[i].value != kAbsent) i = (i + 1) & mask;
      slots_[i] = slot;
    }
  }

  std::vector<Slot> slots_;
  std::size_t size_ = 0;
  std::uint32_t first_bytes_[8] = {};  // A bit per first byte inserted.
};

}  // namespace ensemble::core::playbooks

#endif  // ENSEMBLE_CORE_PLAYBOOKS_NAME_INDEX_H_
