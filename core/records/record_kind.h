// RecordKind: the description of a synced record kind (its name, its table and
// its fields with their validation), from which core/records/record_mutators
// builds the kind's create/update/delete/restore mutators. A domain folder
// (core/tasks, core/projects, ...) declares one RecordKind and its migration.
//
// Every table of a kind has the columns id TEXT PRIMARY KEY, space_id, the
// fields (column name = argument name), version, deleted, created_at,
// updated_at and row_version, with an index on row_version.
//
// Thread-safety: descriptors are constexpr data; the functions are stateless.

#ifndef ENSEMBLE_CORE_RECORDS_RECORD_KIND_H_
#define ENSEMBLE_CORE_RECORDS_RECORD_KIND_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/sync/mutator.h"

namespace ensemble::core::records {

// Space ids are server-issued short names or ids.
inline constexpr size_t kMaxSpaceIdChars = 64;

enum class FieldType {
  kText,  // A UTF-8 string of at most max_chars code points.
  kEnum,  // One of `values`; the first is the default on create.
  kDate,  // An ISO calendar date, YYYY-MM-DD.
  kInt,   // An integer in [min, max]; `min` is the default on create.
  kId,    // A record id (a link to one record); usually nullable.
  // The three below are stored as JSON text in a TEXT column (arrays and
  // objects have no portable column type across SQLite and PostgreSQL);
  // ReadRecord and FieldsOf give them back as JSON values.
  kTextList,  // Up to max_items strings of at most max_chars code points
              // (labels): trimmed, empty ones dropped, repeats dropped.
  kIdList,    // Up to max_items record ids (links), repeats dropped.
  kJson,      // An array or object `check` accepts, at most max_chars bytes
              // as JSON text (board columns, page blocks); default [].
};

struct FieldSpec {
  std::string_view name;  // Argument and column name: one lower-case word.
  FieldType type = FieldType::kText;
  // Must be given on create; text must also hold something besides white
  // space. A field that is neither required nor nullable gets a default on
  // create (enum: its first value; text: ""), so a date is one or the other.
  bool required = false;
  // May be null (stored as NULL); null is the default on create.
  bool nullable = false;
  // Text: leading and trailing white space is dropped before storing (titles
  // and names are), unlike bodies, where it is the person's formatting.
  bool trim = false;
  size_t max_chars = 0;                           // Text only; counts the code points as given.
  std::span<const std::string_view> values = {};  // Enum only.
  int64_t min = 0;                                // Int only.
  int64_t max = 0;                                // Int only.
  size_t max_items = 0;                           // Lists only.
  // Json only: the shape check, run after the type and size checks; null
  // accepts any array or object.
  Status (*check)(const nlohmann::json& value) = nullptr;
};

struct RecordKind {
  std::string_view kind;   // "task": mutators are "task.create", ...
  std::string_view table;  // "tasks"
  std::span<const FieldSpec> fields;

  // Null for a name that is not one of the kind's fields.
  const FieldSpec* FindField(std::string_view name) const;
  sync::SyncedTable synced_table() const { return {kind, table}; }
};

// The record kinds of one build, as core/hub puts them together, for the
// code above the domains that works on any kind (Trash, the assistant's
// generic record tools). `all` must outlive it (static descriptors).
struct RecordKinds {
  std::span<const RecordKind* const> all;

  // Null for a name that is no kind of the build.
  const RecordKind* Find(std::string_view kind) const;
};

// OK if `value` is acceptable for `field`; INVALID_ARGUMENT says why not.
Status CheckField(const FieldSpec& field, const nlohmann::json& value);

// The string at `key` of `object`, or "" when `object` is not an object or
// holds no string there (for reading arguments before the checks that word
// what is wrong with them).
std::string StringMember(const nlohmann::json& object, std::string_view key);

// The stored form of an acceptable value (trimmed text), for writing and for
// comparing with stored values under the _base rule.
nlohmann::json NormalizeField(const FieldSpec& field, const nlohmann::json& value);

// The value stored on create when the field is not given. Precondition: the
// field is not required.
nlohmann::json DefaultField(const FieldSpec& field);

// True for the types kept as JSON text in their column.
bool StoredAsJsonText(FieldType type);

// The column value of a normalized field value (JSON text for the list and
// JSON types; the value itself otherwise).
nlohmann::json ToColumn(const FieldSpec& field, const nlohmann::json& value);

// The field value of a column value: the inverse of ToColumn. A column that
// does not parse (written by hand) reads as the type's empty value.
nlohmann::json FromColumn(const FieldSpec& field, const nlohmann::json& column);

// True if `s` is a real calendar date written YYYY-MM-DD.
bool IsIsoDate(std::string_view s);

}  // namespace ensemble::core::records

#endif  // ENSEMBLE_CORE_RECORDS_RECORD_KIND_H_
