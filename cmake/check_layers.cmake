# Checks that every include between core/'s folders points down the layers
# declared in core/layers.cmake; fails, naming each include that does not.
#
#   cmake -DROOT=<repository> [-DLAYERS=<file>] [-DSTAMP=<file>] -P check_layers.cmake
#
# core/CMakeLists.txt runs it before compiling ensemble_core (and again
# whenever a core file changes), so a back edge fails the build.

if(NOT ROOT)
  message(FATAL_ERROR "check_layers: set -DROOT=<repository>")
endif()
if(NOT LAYERS)
  set(LAYERS "${ROOT}/core/layers.cmake")
endif()

# A layer names folders of core/ ("calendar") or a domain's subfolder
# ("calendar/tools"), which then is a unit of its own: a domain that sits low
# can keep its tools' table above the tools layer.
set(_layer 0)
macro(ensemble_core_layer)
  foreach(_folder ${ARGN})
    set(_layer_of_${_folder} ${_layer})
  endforeach()
  math(EXPR _layer "${_layer} + 1")
endmacro()
include("${LAYERS}")

file(GLOB_RECURSE _files RELATIVE "${ROOT}" "${ROOT}/core/*.h" "${ROOT}/core/*.cc"
     "${ROOT}/core/*.inc")
set(_errors "")
foreach(_file ${_files})
  if(NOT _file MATCHES "^core/([^/]+)/")
    continue()
  endif()
  set(_from "${CMAKE_MATCH_1}")
  if(_file MATCHES "^core/([^/]+/[^/]+)/")
    if(DEFINED "_layer_of_${CMAKE_MATCH_1}")
      set(_from "${CMAKE_MATCH_1}")
    endif()
  endif()
  if(NOT DEFINED _layer_of_${_from})
    string(APPEND _errors "\n  ${_file}: core/${_from} has no layer in ${LAYERS}")
    continue()
  endif()
  file(STRINGS "${ROOT}/${_file}" _includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"core/[^/\"]+/")
  foreach(_line ${_includes})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"(core/([^/\"]+)/[^\"]*)\".*$" "\\1;\\2"
           _parts "${_line}")
    list(GET _parts 0 _header)
    list(GET _parts 1 _to)
    if(_header MATCHES "^core/([^/]+/[^/]+)/")
      if(DEFINED "_layer_of_${CMAKE_MATCH_1}")
        set(_to "${CMAKE_MATCH_1}")
      endif()
    endif()
    if(_to STREQUAL _from)
      continue()
    endif()
    if(NOT DEFINED _layer_of_${_to})
      string(APPEND _errors "\n  ${_file} includes ${_header}: core/${_to} has no layer")
    elseif(NOT _layer_of_${_to} LESS _layer_of_${_from})
      string(APPEND _errors "\n  ${_file} includes ${_header}: core/${_to} (layer "
                            "${_layer_of_${_to}}) is not below core/${_from} (layer "
                            "${_layer_of_${_from}})")
    endif()
  endforeach()
endforeach()

if(_errors)
  message(FATAL_ERROR "core/ includes must point down its layers (${LAYERS}):${_errors}")
endif()
if(STAMP)
  file(TOUCH "${STAMP}")
endif()
