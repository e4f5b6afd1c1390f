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
#include "server/http/json_response.h"

namespace ensemble::server::services {
namespace {

namespace bhttp = boost::beast::http;

constexpr std::string_view kWasmMount = "/wasm/";
constexpr std::string_view kApiPrefix = "/api/";
constexpr std::string_view kIndexFile = "index.html";
constexpr std::string_view kDefaultContentType = "application/octet-stream";
constexpr std::string_view kManifestFile = "manifest.json";
constexpr size_t kHashReadChunk = 1 << 16;

// A precompressed sibling a file may have, in the order they are preferred.
struct Coding {
  std::string_view name;    // As in Accept-Encoding and Content-Encoding.
  std::string_view suffix;  // Of the sibling file.
};
constexpr Coding kCodings[] = {{"br", ".br"}, {"gzip", ".gz"}};

bool IsCompressedSibling(const std::filesystem::path& file) {
  const std::string ext = file.extension().string();
  for (const Coding& c : kCodings) {
    if (ext == c.suffix) return true;
  }
  return false;
}

using core::text::Trim;

// The q-value of one Accept-Encoding element's parameters ("q=0.5"): 1 when
// absent, 0 when malformed (an element we cannot read allows nothing).
double QValue(std::string_view params) {
  while (!params.empty()) {
    size_t semi = params.find(';');
    std::string_view param = Trim(params.substr(0, semi));
    params = semi == std::string_view::npos ? std::string_view() : params.substr(semi + 1);
    if (param.size() < 2 || std::tolower(static_cast<unsigned char>(param[0])) != 'q' ||
        param[1] != '=') {
      continue;
    }
    std::string_view v = param.substr(2);
    if (v.empty() || v.size() > 5 || (v[0] != '0' && v[0] != '1')) return 0;
    double q = v[0] - '0';
    if (v.size() > 1) {
      if (v[1] != '.') return 0;
      double scale = 0.1;
      for (char c : v.substr(2)) {
        if (!std::isdigit(static_cast<unsigned char>(c))) return 0;
        q += (c - '0') * scale;
        scale /= 10;
      }
    }
    return q > 1 ? 0 : q;
  }
  return 1;
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

bool AcceptsEncoding(std::string_view accept_encoding, std::string_view coding) {
  double listed = -1;
  double any = -1;
  while (!accept_encoding.empty()) {
    size_t comma = accept_encoding.find(',');
    std::string_view element = accept_encoding.substr(0, comma);
    accept_encoding =
        comma == std::string_view::npos ? std::string_view() : accept_encoding.substr(comma + 1);
    size_t semi = element.find(';');
    std::string_view name = Trim(element.substr(0, semi));
    double q =
        QValue(semi == std::string_view::npos ? std::string_view() : element.substr(semi + 1));
    if (boost::beast::iequals(name, coding)) listed = std::max(listed, q);
    if (name == "*") any = std::max(any, q);
  }
  // A coding named explicitly wins over "*" (so "br;q=0, *" refuses br).
  return (listed >= 0 ? listed : any) > 0;
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
    if (!entry.is_regular_file(file_ec) || name.front() == '.' || IsCompressedSibling(file) ||
        name == kManifestFile) {
      continue;
    }
    std::string hash = ContentHash(file);
    if (hash.empty()) continue;
    out[name] =
        std::string(kWasmMount) + file.stem().string() + "." + hash + file.extension().string();
  }
  return out.dump();
}

std::optional<std::filesystem::path> StaticFiles::Unhashed(
    const std::filesystem::path& relative) const {
  if (relative.has_parent_path()) return std::nullopt;
  const std::filesystem::path stem = relative.stem();  // "<name>.<hash>"
  const std::string hash = stem.extension().string();
  if (hash.size() != kAssetHashChars + 1) return std::nullopt;
  const std::filesystem::path real =
      wasm_dir_ / (stem.stem().string() + relative.extension().string());
  const std::string current = ContentHash(real);
  if (current.empty() || current != std::string_view(hash).substr(1)) return std::nullopt;
  return real;
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
    std::string manifest = Manifest();
    const std::string etag = "\"" + core::Sha256Hex(manifest).substr(0, kAssetHashChars) + "\"";
    if (NoneMatchHits(request[bhttp::field::if_none_match], etag)) {
      http::EmptyResponse res(bhttp::status::not_modified, request.version());
      res.set(bhttp::field::etag, etag);
      res.set(bhttp::field::cache_control, cache_control);
      return res;
    }
    http::StringResponse res(bhttp::status::ok, request.version());
    res.set(bhttp::field::content_type, "application/json");
    res.set(bhttp::field::cache_control, cache_control);
    res.set(bhttp::field::etag, etag);
    res.body() = std::move(manifest);
    res.prepare_payload();
    return res;
  }
  if (!std::filesystem::is_regular_file(file, fs_ec) && root == &wasm_dir_) {
    std::optional<std::filesystem::path> real = Unhashed(*relative);
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
    mirrored = web_compressed_dir_ / *relative;
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
    if (coding.empty() && AcceptsEncoding(request[bhttp::field::accept_encoding], c.name)) {
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
