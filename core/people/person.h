// A person: a name, and an email address when one is known.
// Its mutators ("person.create", ".update", ".delete", ".restore") come
// from core/records; this file holds only what is particular to the kind.
//
// Thread-safety: constants and stateless functions.

#ifndef ENSEMBLE_CORE_PEOPLE_PERSON_H_
#define ENSEMBLE_CORE_PEOPLE_PERSON_H_

#include <cstddef>
#include <string_view>

#include "core/records/record_kind.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::people {

inline constexpr std::string_view kKind = "person";
inline constexpr std::string_view kTable = "people";

inline constexpr size_t kMaxNameChars = 200;
// RFC 5321 caps a forward path at 256 octets, so an address at 254.
inline constexpr size_t kMaxEmailChars = 254;

// Fields: name (required), email (text or null, default null).
extern const records::RecordKind kPersonKind;

// The schema step for people, in the hub's migration list.
extern const store::Migration kCreatePeopleTable;

void RegisterMutators(sync::MutatorRegistry& registry);

}  // namespace ensemble::core::people

#endif  // ENSEMBLE_CORE_PEOPLE_PERSON_H_
