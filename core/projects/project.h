// A project: a titled piece of work with a description, a status (active,
// done or archived), optional start and due dates, its people and its
// deliverables (spec 004 §3 Project / Deliverable, §8 Project pages).
// Its mutators ("project.create", ".update", ".delete", ".restore") come
// from core/records; this file holds only what is particular to the kind.
//
// Deliverables are kept on the project as one JSON list
// [{id, title, due, done}] rather than as a kind of their own: the tools
// replace it as a complete list (spec 000 §8.1), and a project save carries
// `_base` for the whole list, so two edits of one list never interleave.
//
// Thread-safety: constants and stateless functions.

#ifndef ENSEMBLE_CORE_PROJECTS_PROJECT_H_
#define ENSEMBLE_CORE_PROJECTS_PROJECT_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>

#include "core/base/status.h"
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
// The tool schema's caps (project_tools.cc), enforced here for every client.
inline constexpr size_t kMaxPeople = 50;
inline constexpr size_t kMaxDeliverables = 50;
// 50 deliverables of 500-character titles fit with room for their keys.
inline constexpr size_t kMaxDeliverablesBytes = 64000;

inline constexpr std::string_view kStatuses[] = {"active", "done", "archived"};

// Fields: title (required), description (default ""), status (default
// active), start and due (dates or null), people (person ids, default []),
// deliverables (JSON list, default []).
extern const records::RecordKind kProjectKind;

// The schema step for projects, in the hub's migration list.
extern const store::Migration kCreateProjectTable;
// Migration 17: the project, page and person fields added with their tools
// (projects.start/due/people/deliverables, pages.project/parent/revision,
// people.role/team/relationship). One step, as the migration numbers were
// handed out per piece of work.
extern const store::Migration kAddProjectPagePersonFields;

// OK when `deliverables` is a list of objects {id, title, due?, done?}: id a
// record id (unique in the list), title non-empty text of at most
// kMaxTitleChars, due a date or null, done a boolean; nothing else.
Status CheckDeliverables(const nlohmann::json& deliverables);

void RegisterMutators(sync::MutatorRegistry& registry);

}  // namespace ensemble::core::projects

#endif  // ENSEMBLE_CORE_PROJECTS_PROJECT_H_
