// A person: a name, an email address when one is known, and their role,
// team and relationship to the space's owner.
// Its mutators ("person.create", ".update", ".delete", ".restore") come
// from core/records; this file holds only what is particular to the kind.
//
// Identity (spec 004 §4.7): an exact address names one person, so adding a
// person whose address is already saved in the space reuses that person
// (FindPersonByEmail); a display name alone never merges people. More
// addresses and provider ids are identities (people/identity.h); two people
// found to be one are merged with person.merge (people/merge.h).
//
// Thread-safety: constants and stateless functions; as the Database given.

#ifndef ENSEMBLE_CORE_PEOPLE_PERSON_H_
#define ENSEMBLE_CORE_PEOPLE_PERSON_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/store/database.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::people {

inline constexpr std::string_view kKind = "person";
inline constexpr std::string_view kTable = "people";

inline constexpr size_t kMaxNameChars = 200;
// RFC 5321 caps a forward path at 256 octets, so an address at 254.
inline constexpr size_t kMaxEmailChars = 254;
// The tool schema's cap on role and team (people_tools.cc).
inline constexpr size_t kMaxRoleChars = 200;

// People a person is known not to be (a merge suggestion turned down); the
// spec names no cap, and this many "not the same" answers about one person
// is far past any real directory's name clashes.
inline constexpr size_t kMaxDistinctPeople = 100;

inline constexpr std::string_view kRelationships[] = {"colleague", "client", "partner", "vendor",
                                                      "other"};

// Fields: name (required), email (text or null, default null), role and
// team (default ""), relationship (one of kRelationships or null),
// distinct_from (person ids, default []: never suggested as the same
// person, people/merge.h). The columns role, team and relationship come with
// migration 17 (projects::kAddProjectPagePersonFields), distinct_from with
// migration 24.
extern const records::RecordKind kPersonKind;

// The schema step for people, in the hub's migration list.
extern const store::Migration kCreatePeopleTable;
// Migration 24: the people's distinct_from column.
extern const store::Migration kAddPersonDistinctFrom;

void RegisterMutators(sync::MutatorRegistry& registry);

// The form addresses are compared in: trimmed, ASCII letters lower-cased
// (the domain is case-blind, and people do not tell local parts apart by
// case in practice).
std::string NormalizeEmail(std::string_view email);

// The live person of `space_id` whose address is `email` (compared
// normalized): the oldest whose own email it is, else the one holding it as
// an email identity (people/identity.h); nullopt for an empty address.
Result<std::optional<std::string>> FindPersonByEmail(store::Database& db,
                                                     const std::string& space_id,
                                                     std::string_view email);
// The same, among people's own emails only.
Result<std::optional<std::string>> FindPersonByPrimaryEmail(store::Database& db,
                                                            const std::string& space_id,
                                                            std::string_view email);

}  // namespace ensemble::core::people

#endif  // ENSEMBLE_CORE_PEOPLE_PERSON_H_
