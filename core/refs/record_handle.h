// Record handles (spec 004 §5): a record is named ensemble://<kind>/<id>
// wherever text carries it to a model or between records. This file reads
// and writes them: one link at the start of a text, every link in a text (a
// record's mentions), and a handle given as a request's ref.
//
// Thread-safety: pure functions.

#ifndef ENSEMBLE_CORE_REFS_RECORD_HANDLE_H_
#define ENSEMBLE_CORE_REFS_RECORD_HANDLE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"

namespace ensemble::core::refs {

// The scheme of a record link: ensemble://<kind>/<id>.
inline constexpr std::string_view kRecordScheme = "ensemble://";

struct RecordHandle {
  std::string kind;
  std::string id;

  bool operator==(const RecordHandle&) const = default;
};

// "ensemble://<kind>/<id>".
std::string HandleOf(std::string_view kind, std::string_view id);

// A record link at the start of `s`: sets kind and id and returns its length,
// or returns 0. The kind is a run of letters, digits, "_" or "-", the id a
// record id (IsValidId) that ends there (a word character may not follow).
std::size_t ParseRecordLink(std::string_view s, std::string_view* kind, std::string_view* id);

// The distinct record links in `text`, first occurrence first, at most `max`.
std::vector<RecordHandle> FindRecordLinks(std::string_view text, std::size_t max);

// A request's ref: exactly one record link, or the app's address of a record
// (what a person copies from the address bar: "https://host/#/tasks/<id>"),
// white space around it ignored; INVALID_ARGUMENT saying what a ref looks
// like otherwise.
Result<RecordHandle> ParseItemRef(std::string_view ref);

}  // namespace ensemble::core::refs

#endif  // ENSEMBLE_CORE_REFS_RECORD_HANDLE_H_
