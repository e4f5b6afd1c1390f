// Unicode normalization without ICU: NFKC (compatibility decomposition,
// canonical ordering, canonical composition, Hangul included), simple lower
// case and a word-character test, from tables generated out of the Unicode
// Character Database (core/text/unicode_tables.inc, made by
// tools/gen/gen_unicode_tables.py). The same tables are compiled natively and
// to WebAssembly, so both builds give byte-identical answers. Regenerate
// after a Unicode upgrade: `apt-get install -y unicode-data` then
// `python3 tools/gen/gen_unicode_tables.py` (it also rewrites the sampled
// conformance vectors tests/core/text/normalization_sample.inc).
//
// Thread-safety: stateless; the tables are constant.

#ifndef ENSEMBLE_CORE_TEXT_UNICODE_NORMALIZE_H_
#define ENSEMBLE_CORE_TEXT_UNICODE_NORMALIZE_H_

#include <string>
#include <string_view>

#include "core/text/utf8.h"  // AppendUtf8 and kReplacementCharacter.

namespace ensemble::core::text {

// Appends the code points of `utf8` to `out`; each maximal ill-formed
// subpart (overlong, surrogate, past U+10FFFF, truncated) becomes one U+FFFD,
// as text::RepairUtf8 and a browser's TextDecoder replace them.
void DecodeUtf8(std::string_view utf8, std::u32string* out);

// Replaces `text` with its NFKC form (UAX #15).
void NfkcInPlace(std::u32string* text);
// The NFKC form of UTF-8 text; ill-formed input is decoded as above.
std::string ToNfkc(std::string_view utf8);

// The simple (one-to-one) lower-case mapping of UnicodeData.txt.
char32_t SimpleLowercase(char32_t c);
// True for letters, marks and numbers (general categories L*, M*, N*): what
// is left of a title once emoji, symbols and punctuation are taken out.
bool IsWordCodePoint(char32_t c);
// The canonical combining class (0 for starters).
int CanonicalCombiningClass(char32_t c);

}  // namespace ensemble::core::text

#endif  // ENSEMBLE_CORE_TEXT_UNICODE_NORMALIZE_H_
