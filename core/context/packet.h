// The work packet (spec 004 §5): a record's context as Markdown for a model.
// Its sections follow the context graph (neighbors.h), most important first:
// the record's facts, then each relation of its kind in the graph's order
// (for a task: project, page, people, dependencies, related open work, done
// before, boards, mentions, comments); every row carries its
// ensemble://<kind>/<id> handle. A packet over its character budget loses
// rows from its least important section first, and ends by saying what was
// left out and how to ask for it (hub_item_context with rel and offset);
// past the relations the record's summary goes, then its fact lines are cut;
// its heading and handle always stay.
//
// Thread-safety: stateless; as the ToolContext given.

#ifndef ENSEMBLE_CORE_CONTEXT_PACKET_H_
#define ENSEMBLE_CORE_CONTEXT_PACKET_H_

#include <cstddef>
#include <string>

#include "core/base/status.h"
#include "core/context/neighbors.h"
#include "core/tools/tool.h"

namespace ensemble::core::context {

// A coding agent's brief holds 5,000 characters of context (spec §5); the
// budget a packet gets when none is given.
inline constexpr std::size_t kDefaultPacketChars = 5000;
// Budgets a packet may be given: below the least, not even the facts fit.
inline constexpr std::size_t kMinPacketChars = 200;
inline constexpr std::size_t kMaxPacketChars = 100000;
// Characters of the record's title in the packet's heading: with its handle
// it fits the least budget, so no budget cuts the handle.
inline constexpr std::size_t kPacketTitleChars = 120;
// Rows of each relation a packet reads before trimming.
inline constexpr std::size_t kPacketRelationItems = 10;

// The packet of the record (kind, id) in at most `budget` characters (code
// points, clamped to [kMinPacketChars, kMaxPacketChars]). NOT_FOUND and
// INVALID_ARGUMENT as ItemNeighbors gives them.
Result<std::string> WorkPacket(tools::ToolContext& ctx, const std::string& kind,
                               const std::string& id, std::size_t budget = kDefaultPacketChars);

// The packet of `neighbors` (ItemNeighbors' answer, every relation).
std::string PacketOf(const nlohmann::json& neighbors, std::size_t budget);

}  // namespace ensemble::core::context

#endif  // ENSEMBLE_CORE_CONTEXT_PACKET_H_
