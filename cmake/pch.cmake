# Precompiled headers for the native GCC builds and the wasm build.
#
# Most of a translation unit's compile time here is spent parsing the same
# third-party headers (nlohmann/json, GoogleTest, Boost.Beast/Asio), so each
# big target precompiles them once. Only third-party and standard headers go
# in: our own headers change often and must keep their includes honest (the
# wasm build compiles one file per unit, so it still checks them).
#
# GCC, and Emscripten's clang for the wasm build: when a precompiled header
# does not fit a compilation GCC quietly parses the header text instead,
# whereas clang stops with an error, so clang gets one only where every
# source of the target is compiled alike (the wasm core: one toolchain, one
# set of flags), never in the fuzz build's mix of instrumented targets.

# Off by default so a build folder configured by hand keeps its objects; the
# presets turn it on.
option(ENSEMBLE_PCH "Precompile third-party headers (GCC and wasm builds)" OFF)

set(ENSEMBLE_PCH_CORE_HEADERS
    <utility> <algorithm> <cstdint> <functional> <map> <memory> <optional> <string>
    <string_view> <unordered_map> <vector> <nlohmann/json.hpp>)
set(ENSEMBLE_PCH_TEST_HEADERS <gtest/gtest.h> <gmock/gmock.h>)
# <utility> comes first: Boost 1.74's awaitable.hpp misses it under GCC 12.
set(ENSEMBLE_PCH_SERVER_HEADERS <boost/asio.hpp> <boost/beast/core.hpp> <boost/beast/http.hpp>)

# ensemble_precompile(TARGET [TESTS] [SERVER]): precompiles the core headers
# for TARGET (C++ sources only), plus GoogleTest's and/or Boost's.
function(ensemble_precompile target)
  if(NOT ENSEMBLE_PCH OR NOT (CMAKE_CXX_COMPILER_ID STREQUAL "GNU" OR EMSCRIPTEN))
    return()
  endif()
  cmake_parse_arguments(ARG "TESTS;SERVER" "" "" ${ARGN})
  set(headers ${ENSEMBLE_PCH_CORE_HEADERS})
  if(ARG_SERVER)
    list(APPEND headers ${ENSEMBLE_PCH_SERVER_HEADERS})
  endif()
  if(ARG_TESTS)
    list(APPEND headers ${ENSEMBLE_PCH_TEST_HEADERS})
  endif()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()
