// A domain's subfolder with a layer of its own, above core/tools: it may
// include core/tools and its own domain. Never compiled.
#include "core/calendar/week_date.h"
#include "core/tools/tool.h"
