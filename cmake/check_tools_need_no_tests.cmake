# Checks that nothing under tools/ includes or imports code from tests/:
# tests use the tools (the server harness, the wasm loader), never the other
# way round, so a tool keeps working without the test tree.
#
#   cmake -DROOT=<repository> -P check_tools_need_no_tests.cmake

if(NOT ROOT)
  message(FATAL_ERROR "check_tools_need_no_tests: set -DROOT=<repository>")
endif()
file(GLOB_RECURSE _files RELATIVE "${ROOT}" "${ROOT}/tools/*.h" "${ROOT}/tools/*.cc"
     "${ROOT}/tools/*.mjs" "${ROOT}/tools/*.js")
set(_errors "")
foreach(_file ${_files})
  if(_file MATCHES "/node_modules/")
    continue()
  endif()
  file(STRINGS "${ROOT}/${_file}" _hits
       REGEX "(#[ \t]*include[ \t]+\"tests/|(from|import)[ \t]*\\(?['\"][./]*tests/)")
  foreach(_hit ${_hits})
    string(APPEND _errors "\n  ${_file}: ${_hit}")
  endforeach()
endforeach()
if(_errors)
  message(FATAL_ERROR "tools/ must not use code from tests/:${_errors}")
endif()
