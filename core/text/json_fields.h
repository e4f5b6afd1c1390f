// JsonFields: reads the fields of a JSON object at an edge of the core (an
// upload, a planner request, a route request) and words each refusal with the
// place of the problem, such as `exchanges[0].message is required`.
//
// Every refusal is INVALID_ARGUMENT. An edge's clients and tests already know
// its wording, so an edge keeps its own prefix and its own quoting of an
// unknown key; the rest of the wording is shared.
//
// Thread-safety: immutable; safe to share between threads.

#ifndef ENSEMBLE_CORE_TEXT_JSON_FIELDS_H_
#define ENSEMBLE_CORE_TEXT_JSON_FIELDS_H_

#include <cstddef>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace ensemble::core::text {

// What a text field must be. A byte cap bounds the work a hostile input can
// cause; a character cap is a limit a person sees, and implies the UTF-8
// check (code points are only counted in valid UTF-8).
struct TextRule {
  static constexpr size_t kNoLimit = std::numeric_limits<size_t>::max();

  bool required = true;
  // A null value reads as if the key were absent.
  bool allow_null = false;
  bool allow_empty = true;
  bool check_utf8 = false;
  size_t max_bytes = kNoLimit;
  // Counted in code points.
  size_t max_chars = kNoLimit;
};

class JsonFields {
 public:
  // `prefix` goes before every message ("plan request: ") and must outlive
  // the reader (a literal); `key_quote` quotes an unknown key ('"' or '\'').
  constexpr explicit JsonFields(std::string_view prefix = "", char key_quote = '"')
      : prefix_(prefix), key_quote_(key_quote) {}

  // INVALID_ARGUMENT with the prefix before `message`, for the edge's own
  // checks.
  Status Invalid(std::string_view message) const;

  // OK if `object` is an object whose keys are all in `known`. `where` names
  // the object ("the request", "calls[2]"); an unknown key is named cut to
  // 40 bytes, so a hostile key does not make the message long.
  Status CheckKnownKeys(const nlohmann::json& object, std::string_view where,
                        std::initializer_list<std::string_view> known) const;

  // Reads the string at `key` into *out if it keeps `rule`; *out is left as
  // it was on an error and when an optional key is absent. Errors name the
  // field `where.key`, or `key` alone when `where` is empty.
  Status ReadText(const nlohmann::json& object, const char* key, std::string_view where,
                  const TextRule& rule, std::string* out) const;
  // Reads the list of strings at `key` into *out if it has `min_items` to
  // `max_items` items, each keeping `item_rule`; absent (or null, when
  // `item_rule.allow_null`) leaves *out as it was unless the list is
  // required (`item_rule.required`).
  Status ReadTextList(const nlohmann::json& object, const char* key, std::string_view where,
                      size_t min_items, size_t max_items, const TextRule& item_rule,
                      std::vector<std::string>* out) const;

 private:
  // Checks one value named `name` against `rule` and copies it to *out.
  Status CheckText(const nlohmann::json& value, const std::string& name, const TextRule& rule,
                   std::string* out) const;

  std::string_view prefix_;
  char key_quote_;
};

}  // namespace ensemble::core::text

#endif  // ENSEMBLE_CORE_TEXT_JSON_FIELDS_H_
