// The top of the fixture's layers; including down is fine. Never compiled.
#include "core/base/status.h"
