// StaticFiles: serves the web shell and the wasm build from disk.
//   GET /             -> <web root>/index.html
//   GET /wasm/<file>  -> <wasm dir>/<file>
//   GET /<file>       -> <web root>/<file>
// Only plain files under the two folders are served: a path that decodes to
// an empty, dot-led ("..", ".git") or backslashed segment, or that is not
// origin-form ("/..."), is 404, exactly like a missing file.
//
// Caching: every file has a strong ETag from its content (If-None-Match
// answers 304) and says Cache-Control: no-cache, so a rebuilt file is picked
// up at once and an unchanged one is not sent again. The wasm folder's files,
// and the web root's scripts and styles, are also served under content-hashed
// names, "<stem>.<hash>.<ext>", with `immutable` caching; a hash that is not
// the current content is 404. GET /wasm/manifest.json and
// GET /shell-manifest.json (no-cache) map each file to its hashed URL, and
// index.html is served with the shell's map as an import map and its own
// src/href attributes rewritten, so a reload revalidates the page alone; its
// Content-Security-Policy allows that one inline script by its hash.
//
// Compression: a file's precompressed siblings "<file>.br" and "<file>.gz"
// (made at build time; older ones than the file are ignored as stale) are
// sent instead when Accept-Encoding allows them, Brotli first. The web
// root's copies may also live in a mirror folder (the build's, so the source
// tree holds no build output) as "<file>.<hash>.br" and ".gz", named by the
// content hash of the file they were made from.
//
// Thread-safety: Serve may run on any thread at once; the content hashes it
// remembers (by path, size and modification time) are behind a mutex.

#ifndef ENSEMBLE_SERVER_SERVICES_STATIC_FILES_H_
#define ENSEMBLE_SERVER_SERVICES_STATIC_FILES_H_

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
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

// Hex digits of a content hash in a hashed asset name.
inline constexpr size_t kAssetHashChars = 16;
// What a hashed asset URL may be cached for: a year, the usual "forever".
inline constexpr std::string_view kImmutableCacheControl = "public, max-age=31536000, immutable";

// `html` with an import map of `urls` ({"/app.js": "/app.<hash>.js"}) before
// its first <script> or <link> (none without them), and each src="..." and
// href="..." attribute that names a key of `urls` naming its value instead.
// Sets *map_script (when not null) to the map's script text, the one inline
// script the page's policy must allow, or to "" when no map went in.
std::string WithImportMap(std::string_view html, const std::map<std::string, std::string>& urls,
                          std::string* map_script = nullptr);

class StaticFiles {
 public:
  // `web_compressed_dir` (may be empty or missing) mirrors the web root with
  // precompressed copies only, named by their file's content hash.
  StaticFiles(std::filesystem::path web_root, std::filesystem::path wasm_dir,
              std::filesystem::path web_compressed_dir = {});

  http::Response Serve(const http::Request& request, const http::Target& target) const;

 private:
  struct Hashed {
    uintmax_t size = 0;
    std::filesystem::file_time_type modified;
    std::string hash;  // kAssetHashChars hex digits of the content's SHA-256.
  };

  // The content hash of `file`, read again only when its size or time moved;
  // empty when it cannot be read.
  std::string ContentHash(const std::filesystem::path& file) const;
  // {"<file>": "/wasm/<stem>.<hash>.<ext>"} for each file of the wasm folder.
  std::string Manifest() const;
  // {"/<path>": "/<dir>/<stem>.<hash>.<ext>"} for the web root's scripts and
  // styles (not the service worker, which must keep its URL).
  std::map<std::string, std::string> ShellManifest() const;
  // The file under `root` (the wasm folder or the web root) that a hashed
  // name stands for, when the hash is its current content.
  std::optional<std::filesystem::path> Unhashed(const std::filesystem::path& root,
                                                const std::filesystem::path& relative) const;

  std::filesystem::path web_root_;
  std::filesystem::path wasm_dir_;
  std::filesystem::path web_compressed_dir_;
  mutable std::mutex mu_;
  mutable std::map<std::filesystem::path, Hashed> hashes_;  // Guarded by mu_.
};

}  // namespace ensemble::server::services

#endif  // ENSEMBLE_SERVER_SERVICES_STATIC_FILES_H_
