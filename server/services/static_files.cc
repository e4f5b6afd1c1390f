#include "server/services/static_files.h"

#include <cctype>
#include <string>
#include <system_error>
#include <tuple>

#include "server/http/json_response.h"

namespace ensemble::server::services {
namespace {

namespace bhttp = boost::beast::http;

constexpr std::string_view kWasmMount = "/wasm/";
constexpr std::string_view kApiPrefix = "/api/";
constexpr std::string_view kIndexFile = "index.html";
constexpr std::string_view kDefaultContentType = "application/octet-stream";

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

StaticFiles::StaticFiles(std::filesystem::path web_root, std::filesystem::path wasm_dir)
    : web_root_(std::move(web_root)), wasm_dir_(std::move(wasm_dir)) {}

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

  const std::filesystem::path file = *root / *relative;
  std::error_code fs_ec;
  if (!std::filesystem::is_regular_file(file, fs_ec)) return NotFound(path);

  boost::beast::error_code ec;
  bhttp::file_body::value_type body;
  body.open(file.c_str(), boost::beast::file_mode::scan, ec);
  if (ec) return NotFound(path);
  http::FileResponse res(std::piecewise_construct, std::make_tuple(std::move(body)),
                         std::make_tuple(bhttp::status::ok, request.version()));
  res.set(bhttp::field::content_type, ContentTypeFor(relative->filename().string()));
  res.set(bhttp::field::cache_control, "no-cache");
  res.prepare_payload();
  return res;
}

}  // namespace ensemble::server::services
