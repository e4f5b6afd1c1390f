# Makes the Brotli and gzip copies of one web-shell file in the build's
# mirror (wasm/CMakeLists.txt): OUT.<hash>.br and OUT.<hash>.gz, named by the
# first 16 hex digits of SRC's SHA-256, the content hash the server computes
# (server/services/static_files.h), so a copy is only ever sent for the
# content it was made from. Copies of earlier contents are removed.
#   cmake -DSRC=... -DOUT=... -DBROTLI=... -DGZIP=... -P precompress.cmake
file(SHA256 "${SRC}" hash)
string(SUBSTRING "${hash}" 0 16 hash)
get_filename_component(dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
file(GLOB old "${OUT}.*.br" "${OUT}.*.gz")
if(old)
  file(REMOVE ${old})
endif()
execute_process(COMMAND "${BROTLI}" -q 11 -n -f -o "${OUT}.${hash}.br" "${SRC}"
                RESULT_VARIABLE brotli_rc)
execute_process(COMMAND "${GZIP}" -9 -n -c "${SRC}" OUTPUT_FILE "${OUT}.${hash}.gz"
                RESULT_VARIABLE gzip_rc)
if(NOT brotli_rc EQUAL 0 OR NOT gzip_rc EQUAL 0)
  message(FATAL_ERROR "compressing ${SRC} failed (brotli ${brotli_rc}, gzip ${gzip_rc})")
endif()
# brotli -n leaves the copy 0600: readable by whoever serves it.
file(CHMOD "${OUT}.${hash}.br" PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
file(TOUCH "${OUT}.stamp")
