// A project: a titled piece of work with a description and a status
// (active, done or archived).
// Its mutators ("project.create", ".update", ".delete", ".restore") come
// from core/records; this file holds only what is particular to the kind.
//
// Thread-safety: constants and stateless functions.

#ifndef ENSEMBLE_CORE_PROJECTS_PROJECT_H_
#define ENSEMBLE_CORE_PROJECTS_PROJECT_H_

#include <cstddef>
#include <string_view>

#include "core/records/record_kind.h"
#include "core/store/migrations.h"
#include "core/sync/mutator.h"

namespace ensemble::core::projects {

inline constexpr std::string_view kKind = "project";
inline constexpr std::string_view kTable = "projects";

// Titles are titles: the same cap as task titles.
inline constexpr size_t kMaxTitleChars = 500;
// A description is a few paragraphs; longer writing belongs in a page.
inline constexpr size_t kMaxDescriptionChars = 10000;

inline constexpr std::string_view kStatuses[] = {"active", "done", "archived"};

// Fields: title (required), description (default ""), status (default active).
extern const records::RecordKind kProjectKind;

// The schema step for projects, in the hub's migration list.
extern const store::Migration kCreateProjectTable;

void RegisterMutators(sync::MutatorRegistry& registry);

}  // namespace ensemble::core::projects

#endif  // ENSEMBLE_CORE_PROJECTS_PROJECT_H_
