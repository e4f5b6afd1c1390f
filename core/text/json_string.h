// AppendJsonString: a string as a JSON string literal, for code that writes
// JSON text directly (model requests, where the same large texts are sent
// every step and building a JSON tree first costs more than the call's own
// work).
//
// Thread-safety: stateless.

#ifndef ENSEMBLE_CORE_TEXT_JSON_STRING_H_
#define ENSEMBLE_CORE_TEXT_JSON_STRING_H_

#include <string>
#include <string_view>

namespace ensemble::core::text {

// Appends `s` quoted and escaped byte for byte as nlohmann::json's compact
// dump writes it (non-ASCII kept as UTF-8, control characters escaped,
// invalid UTF-8 replaced by U+FFFD), so hand-written and library-written
// JSON agree.
void AppendJsonString(std::string& out, std::string_view s);

}  // namespace ensemble::core::text

#endif  // ENSEMBLE_CORE_TEXT_JSON_STRING_H_
