// The domain below its own subfolder: including it is a back edge. Never
// compiled.
#include "core/calendar/tools/calendar_tools.h"
