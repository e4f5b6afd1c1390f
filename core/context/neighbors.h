// The context graph (spec 004 §5): a record of the turn's space and its
// relations, every one derived from the tables that hold it, both ways, by
// one bounded indexed query (the link index, record_links.h, answers what
// names a record). The relations of each kind the hub keeps:
//
//   task        project, page, people, depends_on, blocks, related,
//               done_before, boards, mentions, mentioned_in, comments
//   project     open_tasks, deliverables, people, done_tasks, pages,
//               mentioned_in, comments
//   person      projects, open_tasks, waiting_on, done_tasks, mentioned_in,
//               comments
//   page        project, parent, subpages, tasks, mentions, mentioned_in,
//               comments
//   deliverable project, mentioned_in
//   board       tasks, mentions, mentioned_in, comments
//
// Every relation lists kDefaultRelationItems items, or one relation is paged
// (rel, limit, offset). Its total counts every match, so a relation's cost
// grows with what it holds (a project's tasks), not with the page; related
// and done_before score bounded candidates (kRelatedCandidates,
// kDoneBeforeCandidates), the latest changed. A record in Trash, of another space or of no kind is
// not found; links into Trash or another space are left out. Orders depend on
// stored values and ids only, so SQLite, PostgreSQL and the wasm build list
// the same items in the same order.
//
// Thread-safety: stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_CONTEXT_NEIGHBORS_H_
#define ENSEMBLE_CORE_CONTEXT_NEIGHBORS_H_

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/status.h"
#include "core/context/search_rank.h"
#include "core/tools/tool.h"

namespace ensemble::core::context {

// Items of each relation when all are listed (spec §5: "limit each (default 6)").
inline constexpr std::size_t kDefaultRelationItems = 6;
// Items one page of one relation holds at most, and how far it may start.
inline constexpr std::size_t kMaxRelationItems = 50;
inline constexpr std::size_t kMaxRelationOffset = 10000;
// Open tasks `related` scores at most from each of its sources (the task's
// project, its people), the latest changed first; finished tasks of the
// project `done_before` compares titles with.
inline constexpr std::size_t kRelatedCandidates = 60;
inline constexpr std::size_t kDoneBeforeCandidates = 200;
// Characters of a record's description or body its summary shows.
inline constexpr std::size_t kRecordSummaryChars = 280;
// Characters of a comment an item shows.
inline constexpr std::size_t kCommentItemChars = 200;

// `related`'s score: per person the two tasks share, per shared label, per
// shared title word (stop words left out), and for the same project.
inline constexpr int64_t kRelatedPersonPoints = 3;
inline constexpr int64_t kRelatedLabelPoints = 2;
inline constexpr int64_t kRelatedWordPoints = 1;
inline constexpr int64_t kRelatedProjectPoints = 1;

struct NeighborsRequest {
  std::string kind;
  std::string id;
  std::string rel;  // Empty: every relation of the kind.
  std::size_t limit = kDefaultRelationItems;
  std::size_t offset = 0;
};

// The relations of `kind`, in the order a context lists them; empty for a
// kind with none.
std::vector<std::string_view> RelationsOf(std::string_view kind);

// Every relation name of every kind, for a schema's enum.
std::vector<std::string_view> AllRelations();

// A NeighborsRequest from a route's parameters: ref (ensemble://kind/id) or
// kind and id; rel; limit (1 to kMaxRelationItems); offset (0 to
// kMaxRelationOffset). INVALID_ARGUMENT names what is wrong.
Result<NeighborsRequest> ParseNeighborsRequest(std::string_view ref, std::string_view kind,
                                               std::string_view id, std::string_view rel,
                                               std::string_view limit, std::string_view offset);

// {record: {kind, id, title, summary?, facts}, relations: {<rel>: {items,
// total, offset, nextOffset?}}}: each item {kind, id, title, ...}.
// NOT_FOUND "no <kind> with id <id>"; INVALID_ARGUMENT for a kind without a
// graph or a rel the kind does not have.
Result<nlohmann::json> ItemNeighbors(tools::ToolContext& ctx, const NeighborsRequest& request);

// What record (kind, id) reaches, for a search near it (search_rank.h):
// links, the records of its direct relations (kMaxRelationItems of each);
// relations, those of its scored ones (related, done_before); project, its
// project (a project: itself). NOT_FOUND and INVALID_ARGUMENT as
// ItemNeighbors gives them.
Result<NearRecord> NearOf(tools::ToolContext& ctx, const std::string& kind, const std::string& id);

// One sentence of what `neighbors` (ItemNeighbors' answer) holds:
// "Plan launch" (task, doing): in project "Q3"; 2 people; 1 task it depends on.
std::string NeighborsSummary(const nlohmann::json& neighbors);

}  // namespace ensemble::core::context

#endif  // ENSEMBLE_CORE_CONTEXT_NEIGHBORS_H_
