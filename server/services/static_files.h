// StaticFiles: serves the web shell and the wasm build from disk.
//   GET /             -> <web root>/index.html
//   GET /wasm/<file>  -> <wasm dir>/<file>
//   GET /<file>       -> <web root>/<file>
// Only plain files under the two folders are served: a path that decodes to
// an empty, dot-led ("..", ".git") or backslashed segment, or that is not
// origin-form ("/..."), is 404, exactly like a missing file. Every response
// says Cache-Control: no-cache, so a rebuilt file is picked up at once.
//
// Thread-safety: immutable after construction; Serve may run on any thread.

#ifndef ENSEMBLE_SERVER_SERVICES_STATIC_FILES_H_
#define ENSEMBLE_SERVER_SERVICES_STATIC_FILES_H_

#include <filesystem>
#include <optional>
#include <string_view>

#include "server/http/message.h"
#include "server/http/url.h"

namespace ensemble::server::services {

// The Content-Type for a file name, by extension; application/octet-stream
// when unknown.
std::string_view ContentTypeFor(std::string_view file_name);

// The safe relative path for a URL path (still percent-encoded, after the
// mount point), or nullopt when it must not be served.
std::optional<std::filesystem::path> SafeRelativePath(std::string_view encoded);

class StaticFiles {
 public:
  StaticFiles(std::filesystem::path web_root, std::filesystem::path wasm_dir);

  http::Response Serve(const http::Request& request, const http::Target& target) const;

 private:
  std::filesystem::path web_root_;
  std::filesystem::path wasm_dir_;
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_STATIC_FILES_H_
