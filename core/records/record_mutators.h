// The generic mutators every record kind gets from its RecordKind:
//
//   <kind>.create  {id, spaceId, ...fields}
//   <kind>.update  {id, fields: {...}, base?: {field: value the edit was based on}}
//   <kind>.delete  {id}   soft: deleted = 1 (Trash), version + 1
//   <kind>.restore {id}   back from Trash: deleted = 0, version + 1
//
// Update follows the _base rule: fields not named in `base` are written as
// given; a field named in `base` whose stored value is neither the base nor
// the new value fails the whole mutation with SAVE_CONFLICT and details
// {fields, current, version}. Updating a record in Trash fails with
// RECORD_DELETED and details {current, deleted: true, version}, so the edit
// is reported, not lost. A failed mutation writes nothing. Deleting a deleted
// record or restoring a live one succeeds without writing (two devices doing
// the same thing see no failure, and the record is not sent again).
//
// Thread-safety: stateless; as the MutationContext given.

#ifndef ENSEMBLE_CORE_RECORDS_RECORD_MUTATORS_H_
#define ENSEMBLE_CORE_RECORDS_RECORD_MUTATORS_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/store/database.h"
#include "core/sync/mutator.h"

namespace ensemble::core::records {

Status CreateRecord(const RecordKind& kind, sync::MutationContext& ctx, const nlohmann::json& args);
Status UpdateRecord(const RecordKind& kind, sync::MutationContext& ctx, const nlohmann::json& args);
Status DeleteRecord(const RecordKind& kind, sync::MutationContext& ctx, const nlohmann::json& args);
Status RestoreRecord(const RecordKind& kind, sync::MutationContext& ctx,
                     const nlohmann::json& args);

// OK when each of the kind's fields that `args` names is acceptable
// (CheckField) and every required one is named; else INVALID_ARGUMENT worded
// as CreateRecord words it. For a checked create that must look at the
// fields before it reads the store.
Status CheckCreateFields(const RecordKind& kind, const nlohmann::json& args);

// Writes `fields` (already checked with CheckField) to record `id` as an
// update does, without the _base rule and whether or not the record is in
// Trash: for a mutator that keeps references right (a merge moving ids).
Status WriteFields(const RecordKind& kind, sync::MutationContext& ctx, const std::string& id,
                   const nlohmann::json& fields);

// Registers the four mutators under "<kind>.create", ...; `kind` must outlive
// the registry (descriptors are static constants).
void RegisterRecordMutators(const RecordKind& kind, sync::MutatorRegistry& registry);

// The stored row (every column), or nullopt when there is none.
Result<std::optional<nlohmann::json>> ReadRecord(const RecordKind& kind, store::Database& db,
                                                 const std::string& id);

// The kind's fields of a stored row: {field: value}.
nlohmann::json FieldsOf(const RecordKind& kind, const nlohmann::json& row);

// OK when `id` is a live record of `table` in `space_id`; NOT_FOUND "no
// <kind> with id <id>" alike whether it is in another space, in Trash or
// nowhere, so the answer is never evidence that an id exists elsewhere.
Status CheckLiveRecord(store::Database& db, sync::SyncedTable table, const std::string& id,
                       const std::string& space_id);

}  // namespace ensemble::core::records

#endif  // ENSEMBLE_CORE_RECORDS_RECORD_MUTATORS_H_
