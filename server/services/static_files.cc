#include "server/services/static_files.h"

#include <algorithm>
#include <boost/beast/core/string.hpp>
#include <cctype>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>
#include <tuple>
#include <vector>

#include "core/base/sha256.h"
#include "core/text/utf8.h"
#include "server/http/compression.h"
#include "server/http/json_response.h"
#include "server/http/request_guard.h"

namespace ensemble::server::services {
namespace {

namespace bhttp = boost::beast::http;

constexpr std::string_view kWasmMount = "/wasm/";
constexpr std::string_view kApiPrefix = "/api/";
constexpr std::string_view kIndexFile = "index.html";
constexpr std::string_view kDefaultContentType = "application/octet-stream";
constexpr std::string_view kManifestFile = "manifest.json";
constexpr std::string_view kShellManifestPath = "/shell-manifest.json";
// The service worker's script must keep its URL: a browser updates a
// registration by fetching that same URL again.
constexpr std::string_view kServiceWorkerFile = "sw.js";
// The web root's files served under hashed names: the page's modules and styles.
constexpr std::string_view kHashedShellExtensions[] = {".js", ".mjs", ".css"};
constexpr size_t kHashReadChunk = 1 << 16;
// What the wasm folder serves and lists: the module and its JS glue, not
// whatever else the build leaves there (cmake_install.cmake names the
// build's paths).
constexpr std::string_view kWasmModuleExtensions[] = {".wasm", ".js", ".mjs"};

// A precompressed sibling a file may have, in the order they are preferred.
struct Coding {
  std::string_view name;    // As in Accept-Encoding and Content-Encoding.
  std::string_view suffix;  // Of the sibling file.
};
constexpr Coding kCodings[] = {{"br", ".br"}, {"gzip", ".gz"}};

using core::text::Trim;

bool IsModuleFile(const std::filesystem::path& relative) {
  const std::string ext = relative.extension().string();
  return !relative.has_parent_path() &&
         std::find(std::begin(kWasmModuleExtensions), std::end(kWasmModuleExtensions), ext) !=
             std::end(kWasmModuleExtensions);
}

// Whether If-None-Match names `etag` (weak comparison, as RFC 9110 §13.1.2
// asks for GET) or is "*".
bool NoneMatchHits(std::string_view if_none_match, std::string_view etag) {
  while (!if_none_match.empty()) {
    size_t comma = if_none_match.find(',');
    std::string_view tag = Trim(if_none_match.substr(0, comma));
    if_none_match =
        comma == std::string_view::npos ? std::string_view() : if_none_match.substr(comma + 1);
    if (tag.starts_with("W/")) tag.remove_prefix(2);
    if (tag == "*" || tag == etag) return true;
  }
  return false;
}

bool IsFreshSibling(const std::filesystem::path& sibling,
                    std::filesystem::file_time_type original) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(sibling, ec)) return false;
  auto t = std::filesystem::last_write_time(sibling, ec);
  return !ec && t >= original;
}

// Whether a web-root path may be named in the import map as it is: plain
// URL characters only, so it needs no escaping in a URL, in JSON or in HTML.
bool IsPlainUrlPath(std::string_view path) {
  return std::all_of(path.begin(), path.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '.' || c == '_' ||
           c == '-';
  });
}

// "<dir>/<stem>.<hash><ext>" for `relative`.
std::string HashedName(const std::filesystem::path& relative, std::string_view hash) {
  std::filesystem::path out = relative.parent_path();
  out /= relative.stem().string() + "." + std::string(hash) + relative.extension().string();
  return out.generic_string();
}

// A generated answer (a manifest, the index page with its import map):
// no-cache, validated by the hash of the body itself.
// `policy`, when not empty, is the answer's own Content-Security-Policy.
http::Response Generated(const http::Request& request, std::string body,
                         std::string_view content_type, const std::string& policy = {}) {
  const std::string etag = "\"" + core::Sha256Hex(body).substr(0, kAssetHashChars) + "\"";
  if (NoneMatchHits(request[bhttp::field::if_none_match], etag)) {
    http::EmptyResponse res(bhttp::status::not_modified, request.version());
    res.set(bhttp::field::etag, etag);
    res.set(bhttp::field::cache_control, "no-cache");
    if (!policy.empty()) res.set("Content-Security-Policy", policy);
    return res;
  }
  http::StringResponse res(bhttp::status::ok, request.version());
  if (!policy.empty()) res.set("Content-Security-Policy", policy);
  res.set(bhttp::field::content_type, content_type);
  res.set(bhttp::field::cache_control, "no-cache");
  res.set(bhttp::field::etag, etag);
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

http::StringResponse NotFound(std::string_view path) {
  return http::ErrorResponse(core::codes::kNotFound, "no file at " + std::string(path));
}

}  // namespace

std::string_view ContentTypeFor(std::string_view file_name) {
  struct Entry {
    std::string_view extension;
    std::string_view type;
  };
  // Text types name their charset: without it a browser guesses (HTML as
  // windows-1252). application/wasm is what instantiateStreaming requires.
  static constexpr Entry kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".wasm", "application/wasm"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".webmanifest", "application/manifest+json"},
      {".txt", "text/plain; charset=utf-8"},
  };
  size_t dot = file_name.rfind('.');
  size_t slash = file_name.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) {
    return kDefaultContentType;
  }
  std::string ext(file_name.substr(dot));
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const Entry& e : kTypes) {
    if (e.extension == ext) return e.type;
  }
  return kDefaultContentType;
}

std::optional<std::filesystem::path> SafeRelativePath(std::string_view encoded) {
  auto decoded = http::PercentDecode(encoded, /*plus_is_space=*/false);
  if (!decoded || decoded->empty()) return std::nullopt;
  std::filesystem::path out;
  std::string_view rest = *decoded;
  for (;;) {
    size_t slash = rest.find('/');
    std::string_view segment = rest.substr(0, slash);
    // Dot-led segments cover "." and ".." (traversal) and hidden files; an
    // empty one would make the path absolute or hide a "//".
    if (segment.empty() || segment.front() == '.' ||
        segment.find_first_of(std::string_view("\\\0:", 3)) != std::string_view::npos) {
      return std::nullopt;
    }
    out /= std::string(segment);
    if (slash == std::string_view::npos) break;
    rest = rest.substr(slash + 1);
    if (rest.empty()) {
      out /= std::string(kIndexFile);  // "dir/" serves dir/index.html.
      break;
    }
  }
  return out;
}

StaticFiles::StaticFiles(std::filesystem::path web_root, std::filesystem::path wasm_dir,
                         std::filesystem::path web_compressed_dir)
    : web_root_(std::move(web_root)),
      wasm_dir_(std::move(wasm_dir)),
      web_compressed_dir_(std::move(web_compressed_dir)) {}

std::string StaticFiles::ContentHash(const std::filesystem::path& file) const {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(file, ec);
  if (ec) return "";
  const auto modified = std::filesystem::last_write_time(file, ec);
  if (ec) return "";
  {
    std::lock_guard lock(mu_);
    auto it = hashes_.find(file);
    if (it != hashes_.end() && it->second.size == size && it->second.modified == modified) {
      return it->second.hash;
    }
  }
  // Hashed outside the lock: two threads may both hash a new file, and agree.
  std::ifstream in(file, std::ios::binary);
  if (!in) return "";
  core::Sha256 sha;
  std::string chunk(kHashReadChunk, '\0');
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    sha.Update(std::string_view(chunk.data(), static_cast<size_t>(in.gcount())));
  }
  if (in.bad()) return "";
  std::string hash = core::DigestHex(sha.Finish()).substr(0, kAssetHashChars);
  std::lock_guard lock(mu_);
  hashes_[file] = Hashed{size, modified, hash};
  return hash;
}

std::string StaticFiles::Manifest() const {
  nlohmann::json out = nlohmann::json::object();
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(wasm_dir_, ec)) {
    const std::filesystem::path& file = entry.path();
    const std::string name = file.filename().string();
    std::error_code file_ec;
    if (!entry.is_regular_file(file_ec) || name.front() == '.' || !IsModuleFile(file.filename())) {
      continue;
    }
    std::string hash = ContentHash(file);
    if (hash.empty()) continue;
    out[name] = std::string(kWasmMount) + HashedName(file.filename(), hash);
  }
  return out.dump();
}

std::map<std::string, std::string> StaticFiles::ShellManifest() const {
  std::map<std::string, std::string> out;
  std::error_code ec;
  std::filesystem::recursive_directory_iterator it(
      web_root_, std::filesystem::directory_options::skip_permission_denied, ec);
  for (; !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    const std::filesystem::path& file = it->path();
    const std::string name = file.filename().string();
    std::error_code file_ec;
    if (name.front() == '.') {  // Never served, so never named.
      if (it->is_directory(file_ec)) it.disable_recursion_pending();
      continue;
    }
    const std::string ext = file.extension().string();
    if (!it->is_regular_file(file_ec) ||
        std::find(std::begin(kHashedShellExtensions), std::end(kHashedShellExtensions), ext) ==
            std::end(kHashedShellExtensions)) {
      continue;
    }
    const std::filesystem::path relative = file.lexically_relative(web_root_);
    const std::string url = "/" + relative.generic_string();
    if (relative == kServiceWorkerFile || !IsPlainUrlPath(url)) continue;
    std::string hash = ContentHash(file);
    if (!hash.empty()) out[url] = "/" + HashedName(relative, hash);
  }
  return out;
}

std::optional<std::filesystem::path> StaticFiles::Unhashed(
    const std::filesystem::path& root, const std::filesystem::path& relative) const {
  if (root == wasm_dir_ && relative.has_parent_path()) return std::nullopt;
  const std::filesystem::path stem = relative.stem();  // "<name>.<hash>"
  const std::string hash = stem.extension().string();
  if (hash.size() != kAssetHashChars + 1) return std::nullopt;
  const std::string ext = relative.extension().string();
  if (root == web_root_ &&
      std::find(std::begin(kHashedShellExtensions), std::end(kHashedShellExtensions), ext) ==
          std::end(kHashedShellExtensions)) {
    return std::nullopt;
  }
  const std::filesystem::path real = root / relative.parent_path() / (stem.stem().string() + ext);
  const std::string current = ContentHash(real);
  if (current.empty() || current != std::string_view(hash).substr(1)) return std::nullopt;
  return real;
}

std::string WithImportMap(std::string_view html, const std::map<std::string, std::string>& urls,
                          std::string* map_script_text) {
  nlohmann::json imports = nlohmann::json::object();
  for (const auto& [plain, hashed] : urls) imports[plain] = hashed;
  const std::string map_json = nlohmann::json{{"imports", imports}}.dump();
  const std::string map_script = "<script type=\"importmap\">" + map_json + "</script>";
  std::string out;
  out.reserve(html.size() + map_script.size() + 64 * urls.size());
  // The map goes before the first script or link: a browser uses only a map
  // it has read before any module starts to load. A page with neither loads
  // no modules and gets no map.
  size_t insert_at = std::string_view::npos;
  for (size_t at = html.find('<'); at != std::string_view::npos; at = html.find('<', at + 1)) {
    std::string_view tag = html.substr(at + 1);
    auto starts = [&](std::string_view name) {
      return tag.size() > name.size() && boost::beast::iequals(tag.substr(0, name.size()), name) &&
             (tag[name.size()] == '>' ||
              std::isspace(static_cast<unsigned char>(tag[name.size()])));
    };
    if (starts("script") || starts("link")) {
      insert_at = at;
      break;
    }
  }
  // The page's own src= and href= attributes: an import map rewrites imports
  // only, not the entry script or the style sheet.
  size_t copied = 0;
  bool inserted = false;
  auto copy_to = [&](size_t end) {
    if (!inserted && insert_at != std::string_view::npos && insert_at <= end) {
      inserted = true;
      out.append(html.substr(copied, insert_at - copied));
      out += map_script;
      copied = insert_at;
    }
    out.append(html.substr(copied, end - copied));
    copied = end;
  };
  for (size_t at = 0; at < html.size();) {
    size_t src = html.find("src=\"", at);
    size_t href = html.find("href=\"", at);
    size_t found = std::min(src, href);
    if (found == std::string_view::npos) break;
    size_t value = found + (found == src ? 5 : 6);
    size_t close = html.find('"', value);
    if (close == std::string_view::npos) break;
    auto hit = urls.find(std::string(html.substr(value, close - value)));
    if (hit != urls.end()) {
      copy_to(value);
      out += hit->second;
      copied = close;
    }
    at = close + 1;
  }
  copy_to(html.size());
  if (map_script_text) *map_script_text = inserted ? map_json : std::string();
  return out;
}

http::Response StaticFiles::Serve(const http::Request& request, const http::Target& target) const {
  const std::string& path = target.path;
  if (path.empty() || path.front() != '/' || path.starts_with(kApiPrefix)) return NotFound(path);

  std::optional<std::filesystem::path> relative;
  const std::filesystem::path* root = &web_root_;
  if (path == "/") {
    relative = std::filesystem::path(std::string(kIndexFile));
  } else if (path.starts_with(kWasmMount)) {
    root = &wasm_dir_;
    relative = SafeRelativePath(std::string_view(path).substr(kWasmMount.size()));
  } else {
    relative = SafeRelativePath(std::string_view(path).substr(1));
  }
  if (!relative) return NotFound(path);

  std::string_view cache_control = "no-cache";
  std::filesystem::path file = *root / *relative;
  std::error_code fs_ec;
  if (root == &wasm_dir_ && *relative == kManifestFile) {
    return Generated(request, Manifest(), "application/json");
  }
  if (root == &wasm_dir_ && !IsModuleFile(*relative)) return NotFound(path);
  if (path == kShellManifestPath) {
    return Generated(request, nlohmann::json(ShellManifest()).dump(), "application/json");
  }
  if (root == &web_root_ && *relative == kIndexFile) {
    if (!std::filesystem::is_regular_file(file, fs_ec)) return NotFound(path);
    std::ifstream in(file, std::ios::binary);
    if (!in) return NotFound(path);
    std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) return NotFound(path);
    std::string map_script;
    std::string page = WithImportMap(html, ShellManifest(), &map_script);
    return Generated(
        request, std::move(page), ContentTypeFor(kIndexFile),
        map_script.empty() ? std::string() : http::ContentSecurityPolicyAllowing(map_script));
  }
  if (!std::filesystem::is_regular_file(file, fs_ec)) {
    std::optional<std::filesystem::path> real = Unhashed(*root, *relative);
    if (!real) return NotFound(path);
    file = *real;
    cache_control = kImmutableCacheControl;
  }
  if (!std::filesystem::is_regular_file(file, fs_ec)) return NotFound(path);
  const std::string hash = ContentHash(file);
  if (hash.empty()) return NotFound(path);
  const auto modified = std::filesystem::last_write_time(file, fs_ec);
  if (fs_ec) return NotFound(path);

  // The representation: a precompressed copy the client accepts, else the
  // file itself; each has its own ETag. A copy beside the file must be at
  // least as new as it; one in the mirror names the content it was made from
  // ("<file>.<hash>.br"), so it can never stand for other content (a mirror
  // of another web root, an edited file).
  std::filesystem::path mirrored;
  if (root == &web_root_ && !web_compressed_dir_.empty()) {
    // Named for the file itself, also when asked for by its hashed name.
    mirrored = web_compressed_dir_ / file.lexically_relative(web_root_);
    mirrored += "." + hash;
  }
  std::filesystem::path send = file;
  std::string_view coding;
  bool has_sibling = false;
  for (const Coding& c : kCodings) {
    std::filesystem::path beside = file;
    beside += std::string(c.suffix);
    std::optional<std::filesystem::path> sibling;
    std::error_code exists_ec;
    if (IsFreshSibling(beside, modified)) {
      sibling = std::move(beside);
    } else if (!mirrored.empty()) {
      std::filesystem::path in_mirror = mirrored;
      in_mirror += std::string(c.suffix);
      if (std::filesystem::is_regular_file(in_mirror, exists_ec)) sibling = std::move(in_mirror);
    }
    if (!sibling) continue;
    has_sibling = true;
    if (coding.empty() && http::AcceptsEncoding(request[bhttp::field::accept_encoding], c.name)) {
      send = std::move(*sibling);
      coding = c.name;
    }
  }
  const std::string etag = "\"" + hash + (coding.empty() ? "" : "." + std::string(coding)) + "\"";
  auto headers = [&](auto& res) {
    res.set(bhttp::field::cache_control, cache_control);
    res.set(bhttp::field::etag, etag);
    if (has_sibling) res.set(bhttp::field::vary, "Accept-Encoding");
  };
  if (NoneMatchHits(request[bhttp::field::if_none_match], etag)) {
    http::EmptyResponse res(bhttp::status::not_modified, request.version());
    headers(res);
    return res;
  }

  boost::beast::error_code ec;
  bhttp::file_body::value_type body;
  body.open(send.c_str(), boost::beast::file_mode::scan, ec);
  if (ec) return NotFound(path);
  http::FileResponse res(std::piecewise_construct, std::make_tuple(std::move(body)),
                         std::make_tuple(bhttp::status::ok, request.version()));
  res.set(bhttp::field::content_type, ContentTypeFor(file.filename().string()));
  if (!coding.empty()) res.set(bhttp::field::content_encoding, coding);
  headers(res);
  res.prepare_payload();
  return res;
}

}  // namespace ensemble::server::services
