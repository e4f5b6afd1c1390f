// Two people found to be one (spec 004 §4.7): an approved merge moves every
// link to the person kept, and merge suggestions name the pairs a person may
// want to merge. Names alone never merge anyone: they only suggest.
//
//   person.merge {id, into}
//     `id` (merged away) and `into` (kept) are live people of one space
//     (NOT_FOUND otherwise, alike for another space). In one mutation: `into`
//     takes `id`'s role, team, relationship and email where its own are
//     empty, and keeps `id`'s differing address as an email identity; `id`'s
//     identities move to `into`; tasks' and projects' people lists,
//     comments, reminders and watchers naming `id` name `into` (records in
//     Trash too, so a restore finds the right person), and so do other
//     people's distinct_from marks; `into` takes `id`'s marks too (neither
//     keeps the two of them); `id` goes to Trash.
//     Written by owners and editors, like people (sync::AuthorizeMutation);
//     the links it moves follow, whoever's they are.
//
// Thread-safety: stateless; as the Database or MutationContext given.

#ifndef ENSEMBLE_CORE_PEOPLE_MERGE_H_
#define ENSEMBLE_CORE_PEOPLE_MERGE_H_

#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/records/record_kind.h"
#include "core/store/database.h"
#include "core/sync/mutator.h"

namespace ensemble::core::people {

// A kind of record that names a record by a pair of fields (a comment's
// target_kind and target, a reminder's item_kind and item): a merge moves
// the ones naming the merged person. The domains above people (comments,
// reminders) are named by core/hub, which registers the mutator.
struct RecordLink {
  const records::RecordKind* kind;
  std::string_view kind_field;
  std::string_view id_field;
};

// `links`: the kinds besides tasks' and projects' people lists that name a
// person, moved to the person kept.
Status MergePerson(sync::MutationContext& ctx, std::span<const RecordLink> links,
                   const nlohmann::json& args);

// Registers person.merge; `links` must outlive the registry.
void RegisterMergeMutator(sync::MutatorRegistry& registry, std::span<const RecordLink> links);

// A pair of live people of one space that may be one person: `person` the
// newer (to merge away), `into` the older (to keep).
struct MergeSuggestion {
  std::string person;
  std::string into;
  // "same_address": one's address is the other's (own email or identity);
  // "same_name": their names match, ignoring case and spacing.
  std::string reason;
};

// The space's suggestions, at most kMaxMergeSuggestions, address matches
// first, then by the kept person's age. A pair either of whom lists the
// other in distinct_from ("not the same person") is never suggested; the
// newer is then paired with the oldest match it was not said to differ from.
inline constexpr size_t kMaxMergeSuggestions = 100;
Result<std::vector<MergeSuggestion>> FindMergeSuggestions(store::Database& db,
                                                          const std::string& space_id);

}  // namespace ensemble::core::people

#endif  // ENSEMBLE_CORE_PEOPLE_MERGE_H_
