# Third-party pieces shared by the native and the wasm builds.

# SQLite: the same amalgamation in both builds.
if(NOT EXISTS "${ENSEMBLE_SQLITE_DIR}/sqlite3.c")
  message(FATAL_ERROR "SQLite amalgamation not found in ${ENSEMBLE_SQLITE_DIR}; "
                      "run tools/lib/fetch-sqlite.sh (tools/dev does)")
endif()
add_library(ensemble_sqlite STATIC "${ENSEMBLE_SQLITE_DIR}/sqlite3.c")
target_include_directories(ensemble_sqlite SYSTEM PUBLIC "${ENSEMBLE_SQLITE_DIR}")
target_compile_definitions(ensemble_sqlite PRIVATE
  SQLITE_DQS=0
  SQLITE_DEFAULT_MEMSTATUS=0
  SQLITE_LIKE_DOESNT_MATCH_BLOBS
  SQLITE_OMIT_DEPRECATED
  SQLITE_OMIT_SHARED_CACHE
  SQLITE_ENABLE_FTS5)
# The sanitizers (and the fuzzers' coverage) have nothing to say about SQLite
# and make it slow; its debug information is only build time.
target_compile_options(ensemble_sqlite PRIVATE -w -g0
                       $<$<BOOL:${ENSEMBLE_SANITIZE}>:-fno-sanitize=all>)
if(EMSCRIPTEN)
  # One thread, and the platform's file locking does not exist in the browser.
  target_compile_definitions(ensemble_sqlite PRIVATE SQLITE_THREADSAFE=0 SQLITE_OMIT_LOAD_EXTENSION)
else()
  target_compile_definitions(ensemble_sqlite PRIVATE SQLITE_THREADSAFE=1)
  find_package(Threads REQUIRED)
  target_link_libraries(ensemble_sqlite PUBLIC Threads::Threads ${CMAKE_DL_LIBS})
endif()
ensemble_static_into_shared(ensemble_sqlite)
add_library(ensemble::sqlite ALIAS ensemble_sqlite)

# zlib's inflate (reading .docx transcripts): the same sources in both builds.
set(ENSEMBLE_ZLIB_DIR "${PROJECT_SOURCE_DIR}/third_party/zlib" CACHE PATH
    "Folder holding zlib's inflate sources (tools/lib/fetch-zlib.sh fills it)")
if(NOT EXISTS "${ENSEMBLE_ZLIB_DIR}/inflate.c")
  message(FATAL_ERROR "zlib sources not found in ${ENSEMBLE_ZLIB_DIR}; "
                      "run tools/lib/fetch-zlib.sh (tools/dev does)")
endif()
add_library(ensemble_zlib STATIC
  "${ENSEMBLE_ZLIB_DIR}/adler32.c" "${ENSEMBLE_ZLIB_DIR}/crc32.c" "${ENSEMBLE_ZLIB_DIR}/inffast.c"
  "${ENSEMBLE_ZLIB_DIR}/inflate.c" "${ENSEMBLE_ZLIB_DIR}/inftrees.c" "${ENSEMBLE_ZLIB_DIR}/zutil.c")
target_include_directories(ensemble_zlib SYSTEM PUBLIC "${ENSEMBLE_ZLIB_DIR}")
target_compile_definitions(ensemble_zlib PRIVATE HAVE_UNISTD_H HAVE_STDARG_H)
target_compile_options(ensemble_zlib PRIVATE -w)
ensemble_static_into_shared(ensemble_zlib)
add_library(ensemble::zlib ALIAS ensemble_zlib)

# Header-only libraries from Debian. Emscripten must not see all of
# /usr/include, so the wasm build gets a folder holding only these headers.
add_library(ensemble_header_deps INTERFACE)
if(EMSCRIPTEN)
  set(_deps_include "${CMAKE_BINARY_DIR}/header-deps/include")
  foreach(_dir nlohmann valijson)
    if(NOT EXISTS "/usr/include/${_dir}")
      message(FATAL_ERROR "/usr/include/${_dir} is missing; tools/dev installs it")
    endif()
    file(COPY "/usr/include/${_dir}" DESTINATION "${_deps_include}")
  endforeach()
  target_include_directories(ensemble_header_deps SYSTEM INTERFACE "${_deps_include}")
else()
  find_package(nlohmann_json 3.10 REQUIRED)
  target_link_libraries(ensemble_header_deps INTERFACE nlohmann_json::nlohmann_json)
endif()
add_library(ensemble::header_deps ALIAS ensemble_header_deps)
