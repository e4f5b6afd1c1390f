// The vocabulary a domain's table of tools is written in, in one place: the
// definition builders (tool_defs.h), the schema builders (tool_schema.h) and
// the write areas (write_areas.h). A table file says
//
//   using namespace tools::table;  // NOLINT: the table's vocabulary.
//
// inside its anonymous namespace, and writes Read(...), Write(..., Risk::kLow,
// ...), Text(...), areas::kTasks as the other tables do.
//
// Thread-safety: declarations only.

#ifndef ENSEMBLE_CORE_TOOLS_TOOL_TABLE_H_
#define ENSEMBLE_CORE_TOOLS_TOOL_TABLE_H_

#include "core/tools/tool.h"
#include "core/tools/tool_defs.h"
#include "core/tools/tool_schema.h"
#include "core/tools/write_areas.h"

namespace ensemble::core::tools::table {

using namespace tools::schema;  // NOLINT: re-exported as the table's vocabulary.
using tools::ForGuests;
using tools::ForOwner;
using tools::Hold;
using tools::Hooks;
using tools::Outside;
using tools::Read;
using tools::Risk;
using tools::Write;
namespace areas = tools::areas;

}  // namespace ensemble::core::tools::table

#endif  // ENSEMBLE_CORE_TOOLS_TOOL_TABLE_H_
