// Small UTF-8 helpers used to check and measure text from people and models.
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_TEXT_UTF8_H_
#define ENSEMBLE_CORE_TEXT_UTF8_H_

#include <cstddef>
#include <string_view>

namespace ensemble::core::text {

// True if `s` is well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF).
bool IsValidUtf8(std::string_view s);

// The number of code points in valid UTF-8 `s`.
size_t CountCodePoints(std::string_view s);

// `s` without leading and trailing ASCII white space.
std::string_view Trim(std::string_view s);

}  // namespace ensemble::core::text

#endif  // ENSEMBLE_CORE_TEXT_UTF8_H_
