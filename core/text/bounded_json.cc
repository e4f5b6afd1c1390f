#include "core/text/bounded_json.h"

#include <string>

namespace ensemble::core::text {

using nlohmann::json;

Result<json> ParseBoundedJson(std::string_view text, int max_depth) {
  bool too_deep = false;
  json::parser_callback_t limit = [&too_deep, max_depth](int depth, json::parse_event_t, json&) {
    if (depth > max_depth) too_deep = true;
    return !too_deep;  // Build nothing more once too deep.
  };
  json parsed = json::parse(text.begin(), text.end(), limit, /*allow_exceptions=*/false);
  if (too_deep) {
    return Status(codes::kMalformedJson,
                  "nests deeper than " + std::to_string(max_depth) + " levels");
  }
  if (parsed.is_discarded()) return Status(codes::kMalformedJson, "is not valid JSON");
  return parsed;
}

}  // namespace ensemble::core::text
