# Unity ("jumbo") builds for the sanitizer and fuzzing presets.
#
# At -O0 under ASan most of a test file's compile time goes to instantiating
# and instrumenting the same nlohmann/json and GoogleTest templates that every
# other file instantiates too; compiling a target's sources in batches does
# that once per batch (measured on 8 assistant tool tests: about 100 s of CPU
# one file at a time, 22 s as one batch). The Release and wasm builds keep one
# file per unit, so each file's own includes are still checked there.

# Off by default; the native-debug and fuzz presets turn it on.
option(ENSEMBLE_UNITY "Compile each target's sources in batches (unity build)" OFF)
set(ENSEMBLE_UNITY_BATCH_SIZE 8 CACHE STRING "Sources per unity batch")

# ensemble_unity(TARGET): batches TARGET's sources when ENSEMBLE_UNITY is on.
function(ensemble_unity target)
  if(ENSEMBLE_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                          UNITY_BUILD_BATCH_SIZE ${ENSEMBLE_UNITY_BATCH_SIZE})
    # In a batch every source but the first is an included file to GCC, which
    # then warns on each coroutine frame or class that holds a type of an
    # anonymous namespace: a false alarm of the batching, not of the code.
    target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
  endif()
endfunction()
