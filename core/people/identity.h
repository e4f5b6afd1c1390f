// A person's identities (spec 004 §4.7): the addresses and provider user ids
// (Slack, Teams, Linear) that name one person across sources. Space, kind and
// normalized value are unique among live identities, so an exact address or a
// provider-confirmed id finds its one person; a display name is never an
// identity (people/merge.h suggests, never merges, on names).
//
//   person_identity.create {id, spaceId, person, identity_kind, value,
//                           source?, verified?}
//     `person` is a live person of spaceId (else NOT_FOUND); `value` is
//     stored normalized (NormalizeIdentityValue); a value that already names
//     a person of the space (as an identity, or as a person's email) is
//     ALREADY_EXISTS with details {person}.
//   person_identity.update {id, fields: {source?, verified?}, base?}: an
//     identity keeps its person, kind and value.
//   person_identity.delete / .restore: soft, as every kind; a restore whose
//     value was taken meanwhile is ALREADY_EXISTS.
//
// Written by owners and editors (sync::AuthorizeMutation), like people.
//
// Thread-safety: constants and stateless functions; as the Database given.

#ifndef ENSEMBLE_CORE_PEOPLE_IDENTITY_H_
#define ENSEMBLE_CORE_PEOPLE_IDENTITY_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/store/database.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::people {

inline constexpr std::string_view kIdentityKind = "person_identity";
inline constexpr std::string_view kIdentityTable = "person_identities";

// The sources whose user ids are stable enough to merge people on (spec
// 004 §4.7: exact addresses and provider-confirmed Slack/Teams/Linear ids).
inline constexpr std::string_view kIdentityKinds[] = {"email", "slack", "teams", "linear"};
// An address's cap (RFC 5321); provider ids are far shorter.
inline constexpr size_t kMaxIdentityValueChars = 254;
// Where the identity was learnt ("slack import", "typed"), for the person.
inline constexpr size_t kMaxIdentitySourceChars = 100;

// Fields: person (id, required), identity_kind (one of kIdentityKinds,
// required), value (required), source (text, ""), verified (0 or 1).
extern const records::RecordKind kIdentityRecordKind;

// Migration 22 creates the table.
extern const store::Migration kCreatePersonIdentitiesTable;

// The form a value is compared and stored in: trimmed; an address's and a
// Teams or Linear id's ASCII letters lower-cased, a Slack id's upper-cased
// (each provider's own spelling). INVALID_ARGUMENT for an unknown kind, an
// empty value, an address without a local part and a domain, or a provider
// id with characters other than letters, digits, '-', '_' and ':'.
Result<std::string> NormalizeIdentityValue(std::string_view kind, std::string_view value);

// The live person of `space_id` that a live identity (kind, value) names,
// or nullopt; `value` is normalized first (a malformed one names nobody).
Result<std::optional<std::string>> FindPersonByIdentity(store::Database& db,
                                                        const std::string& space_id,
                                                        std::string_view kind,
                                                        std::string_view value);

Status CreateIdentity(sync::MutationContext& ctx, const nlohmann::json& args);
Status UpdateIdentity(sync::MutationContext& ctx, const nlohmann::json& args);
Status RestoreIdentity(sync::MutationContext& ctx, const nlohmann::json& args);

// Registers person_identity.* (create, update, delete, restore).
void RegisterIdentityMutators(sync::MutatorRegistry& registry);

}  // namespace ensemble::core::people

#endif  // ENSEMBLE_CORE_PEOPLE_IDENTITY_H_
