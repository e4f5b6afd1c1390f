#include "core/text/unicode_normalize.h"

#include <algorithm>
#include <cstdint>
#include <iterator>

#include "core/text/utf8.h"

namespace ensemble::core::text {
namespace {

struct CccRange {
  uint32_t lo, hi;
  uint8_t ccc;
};
// Code points [lo, lo + count) decompose to target + (cp - lo).
struct DecompRun {
  uint32_t lo;
  uint16_t count;
  uint32_t target;
};
// cp decomposes to kDecompPool[offset, offset + length).
struct DecompMulti {
  uint32_t cp;
  uint16_t offset;
  uint8_t length;
};
struct ComposePair {
  uint32_t first, second, composite;
};
// Code points lo, lo + stride, ... up to hi lower-case to cp + delta.
struct LowerRun {
  uint32_t lo, hi;
  uint8_t stride;
  int32_t delta;
};
struct CodeRange {
  uint32_t lo, hi;
};

#include "core/text/unicode_tables.inc"

// Hangul syllables compose and decompose algorithmically (Unicode §3.12).
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr int kLCount = 19, kVCount = 21, kTCount = 28;
constexpr int kNCount = kVCount * kTCount, kSCount = kLCount * kNCount;

// Below these no code point decomposes, has a combining class or composes.
constexpr char32_t kFirstDecomposable = 0xA0;
constexpr char32_t kFirstNonStarter = 0x300;

// The last element whose `lo` is <= c, or end.
template <typename T, size_t N>
const T* FindRun(const T (&table)[N], char32_t c) {
  const T* it = std::upper_bound(std::begin(table), std::end(table), static_cast<uint32_t>(c),
                                 [](uint32_t v, const T& r) { return v < r.lo; });
  return it == std::begin(table) ? std::end(table) : it - 1;
}

void Decompose(char32_t c, std::u32string* out) {
  if (c < kFirstDecomposable) {
    out->push_back(c);
    return;
  }
  if (c >= kSBase && c < kSBase + kSCount) {
    const int s = static_cast<int>(c - kSBase);
    out->push_back(kLBase + s / kNCount);
    out->push_back(kVBase + (s % kNCount) / kTCount);
    if (s % kTCount != 0) out->push_back(kTBase + s % kTCount);
    return;
  }
  const DecompRun* run = FindRun(kDecompRuns, c);
  if (run != std::end(kDecompRuns) && c < run->lo + run->count) {
    out->push_back(run->target + (c - run->lo));
    return;
  }
  const DecompMulti* multi =
      std::lower_bound(std::begin(kDecompMultis), std::end(kDecompMultis), static_cast<uint32_t>(c),
                       [](const DecompMulti& m, uint32_t v) { return m.cp < v; });
  if (multi != std::end(kDecompMultis) && multi->cp == c) {
    out->append(kDecompPool + multi->offset, kDecompPool + multi->offset + multi->length);
    return;
  }
  out->push_back(c);
}

// The primary composite of a pair, or 0.
char32_t Compose(char32_t first, char32_t second) {
  if (first >= kLBase && first < kLBase + kLCount && second >= kVBase &&
      second < kVBase + kVCount) {
    return kSBase + ((first - kLBase) * kVCount + (second - kVBase)) * kTCount;
  }
  if (first >= kSBase && first < kSBase + kSCount && (first - kSBase) % kTCount == 0 &&
      second > kTBase && second < kTBase + kTCount) {
    return first + (second - kTBase);
  }
  const ComposePair* it = std::lower_bound(
      std::begin(kComposePairs), std::end(kComposePairs), std::make_pair(first, second),
      [](const ComposePair& p, const std::pair<char32_t, char32_t>& v) {
        return p.first != v.first ? p.first < v.first : p.second < v.second;
      });
  if (it != std::end(kComposePairs) && it->first == first && it->second == second) {
    return it->composite;
  }
  return 0;
}

// Stable sort of every run of non-starters by combining class.
void ReorderCanonically(std::u32string* text) {
  std::u32string& s = *text;
  for (size_t i = 1; i < s.size(); ++i) {
    const int cc = CanonicalCombiningClass(s[i]);
    if (cc == 0) continue;
    size_t j = i;
    while (j > 0) {
      const int prev = CanonicalCombiningClass(s[j - 1]);
      if (prev <= cc) break;
      std::swap(s[j - 1], s[j]);
      --j;
    }
  }
}

// Canonical composition (UAX #15 §1.3): each character joins the last
// starter unless a character between them blocks it.
void ComposeCanonically(std::u32string* text) {
  std::u32string& s = *text;
  if (s.empty()) return;
  size_t starter_pos = 0;
  char32_t starter = s[0];
  int last_class = CanonicalCombiningClass(starter);
  if (last_class != 0) last_class = 256;  // No starter yet: nothing composes.
  size_t out = 1;
  for (size_t i = 1; i < s.size(); ++i) {
    const char32_t c = s[i];
    const int cc = CanonicalCombiningClass(c);
    const char32_t composite = (last_class < cc || last_class == 0) ? Compose(starter, c) : 0;
    if (composite != 0) {
      s[starter_pos] = composite;
      starter = composite;
      continue;
    }
    if (cc == 0) {
      starter_pos = out;
      starter = c;
    }
    last_class = cc;
    s[out++] = c;
  }
  s.resize(out);
}

}  // namespace

void DecodeUtf8(std::string_view utf8, std::u32string* out) {
  size_t i = 0;
  while (i < utf8.size()) {
    const Utf8Step step = DecodeUtf8Step(utf8, i);
    out->push_back(step.code_point);
    i += step.length;
  }
}

int CanonicalCombiningClass(char32_t c) {
  if (c < kFirstNonStarter) return 0;
  const CccRange* r = FindRun(kCccRanges, c);
  return r != std::end(kCccRanges) && c <= r->hi ? r->ccc : 0;
}

void NfkcInPlace(std::u32string* text) {
  bool simple = true;
  for (char32_t c : *text) {
    if (c >= kFirstDecomposable) {
      simple = false;
      break;
    }
  }
  if (simple) return;
  std::u32string decomposed;
  decomposed.reserve(text->size() + 8);
  for (char32_t c : *text) Decompose(c, &decomposed);
  ReorderCanonically(&decomposed);
  ComposeCanonically(&decomposed);
  text->swap(decomposed);
}

std::string ToNfkc(std::string_view utf8) {
  bool ascii = true;
  for (char ch : utf8) {
    if (static_cast<unsigned char>(ch) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return std::string(utf8);
  std::u32string cps;
  cps.reserve(utf8.size());
  DecodeUtf8(utf8, &cps);
  NfkcInPlace(&cps);
  std::string out;
  out.reserve(utf8.size());
  for (char32_t c : cps) AppendUtf8(c, &out);
  return out;
}

char32_t SimpleLowercase(char32_t c) {
  if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
  const LowerRun* r = FindRun(kLowerRuns, c);
  if (r == std::end(kLowerRuns) || c > r->hi || (c - r->lo) % r->stride != 0) return c;
  return static_cast<char32_t>(static_cast<int32_t>(c) + r->delta);
}

bool IsWordCodePoint(char32_t c) {
  if (c < 0x80) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }
  const CodeRange* r = FindRun(kWordRanges, c);
  return r != std::end(kWordRanges) && c <= r->hi;
}

}  // namespace ensemble::core::text
