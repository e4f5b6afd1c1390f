// The typographic characters replies are written with, spelt once.
//
// Thread-safety: constants.

#ifndef ENSEMBLE_CORE_TEXT_TYPOGRAPHY_H_
#define ENSEMBLE_CORE_TEXT_TYPOGRAPHY_H_

#include <string_view>

namespace ensemble::core::text {

inline constexpr std::string_view kOpenQuote = "\u201C";
inline constexpr std::string_view kCloseQuote = "\u201D";
inline constexpr std::string_view kEllipsis = "\u2026";

}  // namespace ensemble::core::text

#endif  // ENSEMBLE_CORE_TEXT_TYPOGRAPHY_H_
