// Context suppressions (spec 004 §4.6, §4.7): the natural identities a person
// removed, which no later ingest may bring back. An address is suppressed in
// a space while a person in Trash holds it (as their own email or an email
// identity), while a removed identity holds it, and for good once such a
// person or identity is purged from Trash: the purge records the address in
// context_suppressions first. Restoring a person from Trash lifts theirs; an
// explicit new person with the address is no ingest and is never refused.
//
// Thread-safety: stateless; as the Database given.

#ifndef ENSEMBLE_CORE_PEOPLE_SUPPRESSIONS_H_
#define ENSEMBLE_CORE_PEOPLE_SUPPRESSIONS_H_

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/store/database.h"
#include "core/store/migrations.h"

namespace ensemble::core::people {

// The kind of natural identity a suppression holds (its `kind` column).
inline constexpr std::string_view kEmailSuppression = "email";

// Migration 35: context_suppressions (space_id, kind, value).
extern const store::Migration kCreateContextSuppressionsTable;

// Every suppressed address of `space_id`, normalized (NormalizeEmail).
Result<std::set<std::string>> SuppressedEmails(store::Database& db, const std::string& space_id);

// Records the addresses of the people and identities in Trash that a
// compaction through server version `through` is about to purge. Runs in the
// compaction's transaction, before the rows go.
Status SuppressPurgedPeople(store::Database& db, int64_t through);

}  // namespace ensemble::core::people

#endif  // ENSEMBLE_CORE_PEOPLE_SUPPRESSIONS_H_
