// The one way the core includes valijson (private to core/tools): with
// VALIJSON_USE_EXCEPTIONS set, so a bad schema throws (and is caught at
// Register) instead of aborting the process. core/tools/CMakeLists.txt sets
// the same definition for every core file, so all see one definition.
//
// (valijson/utils/nlohmann_json_utils.hpp is left out: it only loads files,
// and the core has no filesystem.)
//
// Thread-safety: a compiled valijson::Schema is read-only after parsing.

#ifndef ENSEMBLE_CORE_TOOLS_VALIJSON_NLOHMANN_H_
#define ENSEMBLE_CORE_TOOLS_VALIJSON_NLOHMANN_H_

#ifndef VALIJSON_USE_EXCEPTIONS
#define VALIJSON_USE_EXCEPTIONS 1
#endif

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#endif  // ENSEMBLE_CORE_TOOLS_VALIJSON_NLOHMANN_H_
