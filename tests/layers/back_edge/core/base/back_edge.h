// A deliberate back edge for the layer check's test (tests/CMakeLists.txt):
// base, the lowest layer but one, reaching up to the hub. Never compiled.
#include "core/hub/hub.h"
