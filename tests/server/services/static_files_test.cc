// Static files over HTTP (web root and wasm folder), path traversal, HEAD,
// and unknown routes; plus the path and content-type rules on their own.

#include "server/services/static_files.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>

#include "core/base/sha256.h"
#include "server/http/request_guard.h"
#include "tests/server/server_fixture.h"

namespace ensemble::testing {
namespace {

using boost::beast::http::field;
using server::services::ContentTypeFor;
using server::services::SafeRelativePath;

class StaticRoutes : public ServerTest {
 protected:
  void SetUp() override {
    ServerTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    WriteFile(web_root() / "index.html", "<!doctype html><title>Ensemble</title>");
    WriteFile(web_root() / "app.js", "export const x = 1;\n");
    WriteFile(web_root() / "lib/util.mjs", "export {};\n");
    WriteFile(web_root() / "style.css", "body{}");
    WriteFile(web_root() / "manifest.webmanifest", "{}");
    WriteFile(web_root() / "icon.svg", "<svg/>");
    WriteFile(web_root() / "data.json", "[]");
    WriteFile(web_root() / ".secret", "hidden");
    WriteFile(wasm_dir() / "ensemble.wasm", std::string("\0asm\1\0\0\0", 8));
    WriteFile(wasm_dir() / "ensemble.mjs", "export default 1;");
    WriteFile(scratch_dir() / "secret.txt", "TOP SECRET");
  }
};

TEST_P(StaticRoutes, ServesFilesWithTheRightContentType) {
  struct Case {
    std::string target, type;
  };
  for (const Case& c :
       {Case{"/", "text/html; charset=utf-8"}, Case{"/index.html", "text/html; charset=utf-8"},
        Case{"/app.js", "text/javascript; charset=utf-8"},
        Case{"/lib/util.mjs", "text/javascript; charset=utf-8"},
        Case{"/style.css", "text/css; charset=utf-8"},
        Case{"/manifest.webmanifest", "application/manifest+json"},
        Case{"/icon.svg", "image/svg+xml"}, Case{"/data.json", "application/json"},
        Case{"/wasm/ensemble.wasm", "application/wasm"},
        Case{"/wasm/ensemble.mjs", "text/javascript; charset=utf-8"}}) {
    HttpReply r = client().Get(c.target);
    EXPECT_EQ(r.status, 200) << c.target << " " << r.error;
    EXPECT_EQ(r.header(field::content_type), c.type) << c.target;
    EXPECT_EQ(r.header(field::cache_control), "no-cache") << c.target;
    EXPECT_EQ(r.header(field::content_encoding), "") << c.target;
  }
  EXPECT_EQ(client().Get("/").body(), "<!doctype html><title>Ensemble</title>");
  EXPECT_EQ(client().Get("/wasm/ensemble.wasm").body(), std::string("\0asm\1\0\0\0", 8));
  EXPECT_EQ(client().Get("/app.js?v=3").body(), "export const x = 1;\n");
}

// The ETag a GET of `target` carries.
std::string EtagOf(const HttpClient& client, const std::string& target) {
  return client.Get(target).header(field::etag);
}

TEST_P(StaticRoutes, AnUnchangedFileIsNotSentAgain) {
  HttpReply first = client().Get("/app.js");
  const std::string etag = first.header(field::etag);
  EXPECT_EQ(etag.size(), server::services::kAssetHashChars + 2) << etag;
  EXPECT_EQ(etag.front(), '"');
  for (std::string asked : {etag, "W/" + etag, "\"other\", " + etag, std::string("*")}) {
    HttpReply again = client().Get("/app.js", {{field::if_none_match, asked}});
    EXPECT_EQ(again.status, 304) << asked;
    EXPECT_TRUE(again.body().empty()) << asked;
    EXPECT_EQ(again.header(field::etag), etag) << asked;
    EXPECT_EQ(again.header(field::cache_control), "no-cache") << asked;
  }
  EXPECT_EQ(client().Get("/app.js", {{field::if_none_match, "\"other\""}}).status, 200);

  // A rebuilt file is a new representation: the old validator gets it whole.
  WriteFile(web_root() / "app.js", "export const x = 2;\n");
  HttpReply changed = client().Get("/app.js", {{field::if_none_match, etag}});
  EXPECT_EQ(changed.status, 200);
  EXPECT_EQ(changed.body(), "export const x = 2;\n");
  EXPECT_NE(changed.header(field::etag), etag);
}

TEST_P(StaticRoutes, PrecompressedSiblingsAreChosenByAcceptEncoding) {
  WriteFile(web_root() / "app.js.br", "BROTLI");
  WriteFile(web_root() / "app.js.gz", "GZIP");
  struct Case {
    std::string accept, encoding, body;
  };
  for (const Case& c :
       {Case{"gzip, deflate, br", "br", "BROTLI"}, Case{"br", "br", "BROTLI"},
        Case{"gzip", "gzip", "GZIP"}, Case{"br;q=0, gzip;q=0.5", "gzip", "GZIP"},
        Case{"BR;Q=1", "br", "BROTLI"}, Case{"*", "br", "BROTLI"},
        Case{"br;q=0, *", "gzip", "GZIP"}, Case{"identity", "", "export const x = 1;\n"},
        Case{"gzip;q=0, br;q=0.0", "", "export const x = 1;\n"},
        Case{"br;q=x", "", "export const x = 1;\n"}, Case{"", "", "export const x = 1;\n"}}) {
    HttpReply r = client().Get("/app.js", {{field::accept_encoding, c.accept}});
    EXPECT_EQ(r.status, 200) << c.accept;
    EXPECT_EQ(r.header(field::content_encoding), c.encoding) << c.accept;
    EXPECT_EQ(r.body(), c.body) << c.accept;
    EXPECT_EQ(r.header(field::content_type), "text/javascript; charset=utf-8") << c.accept;
    EXPECT_EQ(r.header(field::vary), "Accept-Encoding") << c.accept;
  }
  // Each coding has its own validator, so a cache never mixes them up.
  const std::string br =
      client().Get("/app.js", {{field::accept_encoding, "br"}}).header(field::etag);
  const std::string gz =
      client().Get("/app.js", {{field::accept_encoding, "gzip"}}).header(field::etag);
  const std::string plain = EtagOf(client(), "/app.js");
  EXPECT_NE(br, gz);
  EXPECT_NE(br, plain);
  EXPECT_EQ(
      client().Get("/app.js", {{field::accept_encoding, "br"}, {field::if_none_match, br}}).status,
      304);
  EXPECT_EQ(client()
                .Get("/app.js", {{field::accept_encoding, "gzip"}, {field::if_none_match, br}})
                .status,
            200);

  // A sibling older than its file is stale and never sent.
  const auto now = std::filesystem::last_write_time(web_root() / "app.js");
  std::filesystem::last_write_time(web_root() / "app.js.br", now - std::chrono::hours(1));
  HttpReply stale = client().Get("/app.js", {{field::accept_encoding, "br, gzip"}});
  EXPECT_EQ(stale.header(field::content_encoding), "gzip");
  EXPECT_EQ(stale.body(), "GZIP");
}

// The mirror's name for a copy of `content` (core/base/sha256.h).
std::string MirrorName(const std::string& file, const std::string& content, const char* suffix) {
  return file + "." + core::Sha256Hex(content).substr(0, server::services::kAssetHashChars) +
         suffix;
}

TEST_P(StaticRoutes, TheWebRootsCompressedCopiesMayLiveInTheBuildsMirror) {
  const std::string source = "export {};\n";  // lib/util.mjs, as SetUp wrote it.
  WriteFile(web_compressed_dir() / MirrorName("lib/util.mjs", source, ".br"), "BROTLI");
  WriteFile(web_compressed_dir() / "only-here.js.br", "ORPHAN");
  HttpReply r = client().Get("/lib/util.mjs", {{field::accept_encoding, "br"}});
  EXPECT_EQ(r.header(field::content_encoding), "br");
  EXPECT_EQ(r.body(), "BROTLI");
  EXPECT_EQ(r.header(field::vary), "Accept-Encoding");
  // A copy without its file serves nothing.
  EXPECT_EQ(client().Get("/only-here.js", {{field::accept_encoding, "br"}}).status, 404);
  // A copy made from other content never stands for the file: an edited
  // file, or a mirror of another web root, however new the copy is.
  WriteFile(web_root() / "lib/util.mjs", "export const edited = 1;\n");
  WriteFile(web_compressed_dir() / MirrorName("lib/util.mjs", source, ".br"), "BROTLI");
  HttpReply edited = client().Get("/lib/util.mjs", {{field::accept_encoding, "br"}});
  EXPECT_EQ(edited.header(field::content_encoding), "");
  EXPECT_EQ(edited.body(), "export const edited = 1;\n");
  WriteFile(web_compressed_dir() / "lib/util.mjs.br", "UNNAMED");
  EXPECT_EQ(client().Get("/lib/util.mjs", {{field::accept_encoding, "br"}}).body(),
            "export const edited = 1;\n");
}

TEST_P(StaticRoutes, HashedWasmNamesAreImmutableAndFollowTheContent) {
  HttpReply listed = client().Get("/wasm/manifest.json");
  ASSERT_EQ(listed.status, 200) << listed.error;
  EXPECT_EQ(listed.header(field::cache_control), "no-cache");
  nlohmann::json manifest = listed.json();
  ASSERT_TRUE(manifest.contains("ensemble.wasm")) << listed.body();
  ASSERT_TRUE(manifest.contains("ensemble.mjs")) << listed.body();
  const std::string url = manifest["ensemble.wasm"];
  EXPECT_TRUE(url.starts_with("/wasm/ensemble.") && url.ends_with(".wasm")) << url;
  EXPECT_EQ(url.size(),
            std::string("/wasm/ensemble..wasm").size() + server::services::kAssetHashChars);

  HttpReply hashed = client().Get(url);
  EXPECT_EQ(hashed.status, 200) << url;
  EXPECT_EQ(hashed.body(), std::string("\0asm\1\0\0\0", 8));
  EXPECT_EQ(hashed.header(field::content_type), "application/wasm");
  EXPECT_EQ(hashed.header(field::cache_control), server::services::kImmutableCacheControl);
  EXPECT_EQ(client().Get("/wasm/ensemble.wasm").header(field::cache_control), "no-cache");
  EXPECT_EQ(client().Get("/wasm/ensemble.0123456789abcdef.wasm").status, 404);
  EXPECT_EQ(client().Get("/wasm/ensemble.0123.wasm").status, 404);

  // Precompressed siblings serve the hashed name too, and are not listed.
  WriteFile(wasm_dir() / "ensemble.wasm.br", "BROTLI");
  HttpReply br = client().Get(url, {{field::accept_encoding, "br"}});
  EXPECT_EQ(br.header(field::content_encoding), "br");
  EXPECT_EQ(br.body(), "BROTLI");
  EXPECT_FALSE(client().Get("/wasm/manifest.json").json().contains("ensemble.wasm.br"));

  // A new build: the old name is gone, the manifest names the new one.
  const std::string manifest_etag = listed.header(field::etag);
  EXPECT_EQ(client().Get("/wasm/manifest.json", {{field::if_none_match, manifest_etag}}).status,
            304);
  WriteFile(wasm_dir() / "ensemble.wasm", std::string("\0asm\1\0\0\0\1", 9));
  EXPECT_EQ(client().Get(url).status, 404);
  HttpReply relisted = client().Get("/wasm/manifest.json", {{field::if_none_match, manifest_etag}});
  EXPECT_EQ(relisted.status, 200);
  const std::string next = relisted.json()["ensemble.wasm"];
  EXPECT_NE(next, url);
  EXPECT_EQ(client().Get(next).body(), std::string("\0asm\1\0\0\0\1", 9));
}

TEST_P(StaticRoutes, TheShellsModulesHaveHashedNamesInTheIndexsImportMap) {
  WriteFile(web_root() / "index.html",
            "<!doctype html><head><link rel=\"stylesheet\" href=\"/style.css\">"
            "<script type=\"module\" src=\"/app.js\"></script></head>");
  WriteFile(web_root() / "sw.js", "self.x = 1;\n");
  WriteFile(web_root() / ".hidden/x.js", "hidden\n");
  HttpReply listed = client().Get("/shell-manifest.json");
  ASSERT_EQ(listed.status, 200) << listed.error;
  EXPECT_EQ(listed.header(field::cache_control), "no-cache");
  const nlohmann::json manifest = listed.json();
  auto hashed = [](const std::string& dir_stem, const std::string& content,
                   const std::string& ext) {
    return dir_stem + "." + core::Sha256Hex(content).substr(0, server::services::kAssetHashChars) +
           ext;
  };
  EXPECT_EQ(manifest,
            (nlohmann::json{{"/app.js", hashed("/app", "export const x = 1;\n", ".js")},
                            {"/lib/util.mjs", hashed("/lib/util", "export {};\n", ".mjs")},
                            {"/style.css", hashed("/style", "body{}", ".css")}}))
      << listed.body();  // Not the service worker, images, data or hidden files.

  // The page names the hashed files and maps every import to them.
  HttpReply page = client().Get("/");
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(page.header(field::cache_control), "no-cache");
  const std::string map =
      "<script type=\"importmap\">" + nlohmann::json{{"imports", manifest}}.dump() + "</script>";
  EXPECT_EQ(page.body(), "<!doctype html><head>" + map + "<link rel=\"stylesheet\" href=\"" +
                             manifest["/style.css"].get<std::string>() +
                             "\"><script type=\"module\" src=\"" +
                             manifest["/app.js"].get<std::string>() + "\"></script></head>");
  // The page's policy allows that one inline script, by its hash, and so
  // does the 304 that keeps a cached copy in use; other answers allow none.
  const std::string map_json = nlohmann::json{{"imports", manifest}}.dump();
  const std::string policy = server::http::ContentSecurityPolicyAllowing(map_json);
  EXPECT_EQ(page.message["Content-Security-Policy"], policy);
  EXPECT_NE(policy.find("script-src 'self' 'wasm-unsafe-eval' 'sha256-"), std::string::npos)
      << policy;
  HttpReply unchanged = client().Get("/", {{field::if_none_match, page.header(field::etag)}});
  EXPECT_EQ(unchanged.status, 304);
  EXPECT_EQ(unchanged.message["Content-Security-Policy"], policy);
  EXPECT_EQ(client().Get("/app.js").message["Content-Security-Policy"],
            server::http::kContentSecurityPolicy);

  // Hashed names are immutable, nested ones too, and use the mirror's copies.
  const std::string util = manifest["/lib/util.mjs"];
  WriteFile(web_compressed_dir() / MirrorName("lib/util.mjs", "export {};\n", ".br"), "BROTLI");
  HttpReply module = client().Get(util, {{field::accept_encoding, "br"}});
  EXPECT_EQ(module.status, 200) << util;
  EXPECT_EQ(module.body(), "BROTLI");
  EXPECT_EQ(module.header(field::cache_control), server::services::kImmutableCacheControl);
  EXPECT_EQ(module.header(field::content_type), "text/javascript; charset=utf-8");
  EXPECT_EQ(client().Get("/icon.0123456789abcdef.svg").status, 404);

  // An edited module: its old name is gone, and the page names the new one.
  const std::string app = manifest["/app.js"];
  WriteFile(web_root() / "app.js", "export const x = 2;\n");
  EXPECT_EQ(client().Get(app).status, 404);
  HttpReply again = client().Get("/", {{field::if_none_match, page.header(field::etag)}});
  EXPECT_EQ(again.status, 200);
  EXPECT_NE(again.body().find(hashed("/app", "export const x = 2;\n", ".js")), std::string::npos);
}

TEST_P(StaticRoutes, HeadSendsHeadersOnly) {
  HttpReply r = client().Head("/app.js");
  EXPECT_EQ(r.status, 200) << r.error;
  EXPECT_EQ(r.header(field::content_length), "20");
  EXPECT_EQ(r.header(field::content_type), "text/javascript; charset=utf-8");
  EXPECT_TRUE(r.body().empty());
  EXPECT_EQ(client().Head("/healthz").status, 200);
  EXPECT_EQ(client().Head("/missing.js").status, 404);
}

TEST_P(StaticRoutes, PathTraversalIsRefused) {
  for (std::string target :
       {"/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E/secret.txt", "/%2e%2e%2fsecret.txt",
        "/..%2fsecret.txt", "/lib/../../secret.txt", "/wasm/../secret.txt",
        "/wasm/%2e%2e/%2e%2e/secret.txt", "/wasm/..%2F..%2Fsecret.txt", "//etc/passwd",
        "/%2fetc/passwd", "/..\\secret.txt", "/.secret", "/%00index.html", "/index.html%00.js",
        "http://localhost/../secret.txt", "secret.txt", "/%zz"}) {
    HttpReply r = client().Get(target);
    EXPECT_EQ(r.status, 404) << target << " " << r.error;
    EXPECT_EQ(r.error_code(), "NOT_FOUND") << target;
    EXPECT_EQ(r.body().find("SECRET"), std::string::npos) << target;
    EXPECT_EQ(r.body().find("hidden"), std::string::npos) << target;
  }
}

TEST_P(StaticRoutes, TheWasmFolderServesTheModuleAndNothingElse) {
  // What a build folder holds besides the module.
  WriteFile(wasm_dir() / "cmake_install.cmake", "# Install script for /home/someone/build");
  WriteFile(wasm_dir() / "ensemble.wasm.br", "BROTLI");
  WriteFile(wasm_dir() / "CMakeFiles" / "rules.ninja", "rule");
  nlohmann::json manifest = client().Get("/wasm/manifest.json").json();
  std::vector<std::string> listed;
  for (const auto& [name, url] : manifest.items()) listed.push_back(name);
  EXPECT_EQ(listed, (std::vector<std::string>{"ensemble.mjs", "ensemble.wasm"}));
  for (std::string target :
       {"/wasm/cmake_install.cmake", "/wasm/ensemble.wasm.br", "/wasm/CMakeFiles/rules.ninja"}) {
    EXPECT_EQ(client().Get(target).status, 404) << target;
  }
  EXPECT_EQ(client().Get("/wasm/ensemble.wasm").status, 200);
}

TEST_P(StaticRoutes, MissingFileIs404Json) {
  for (std::string target : {"/nope.html", "/wasm/nope.wasm", "/wasm/", "/lib", "/api/nope"}) {
    HttpReply r = client().Get(target);
    EXPECT_EQ(r.status, 404) << target;
    EXPECT_EQ(r.error_code(), "NOT_FOUND") << target;
    EXPECT_EQ(r.header(field::content_type), "application/json") << target;
  }
}

TEST_P(StaticRoutes, UnknownRouteIs404) {
  EXPECT_EQ(client().Get("/api/unknown").error_code(), "NOT_FOUND");
  HttpReply post = client().Post("/api/unknown", "{}");
  EXPECT_EQ(post.status, 404);
  EXPECT_EQ(post.error_code(), "NOT_FOUND");
  HttpReply put = client().Send(boost::beast::http::verb::put, "/index.html", "x");
  EXPECT_EQ(put.status, 404);
}

INSTANTIATE_TEST_SUITE_P(Server, StaticRoutes,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         StoreKindTestName);

TEST(ServerStaticFileRules, ContentTypes) {
  EXPECT_EQ(ContentTypeFor("a.HTML"), "text/html; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("x.png"), "image/png");
  EXPECT_EQ(ContentTypeFor("favicon.ico"), "image/x-icon");
  EXPECT_EQ(ContentTypeFor("README"), "application/octet-stream");
  EXPECT_EQ(ContentTypeFor("dir.d/file"), "application/octet-stream");
}

TEST(ServerStaticFileRules, APagesPolicyAllowsItsInlineScriptByItsHash) {
  // The hash the CSP spec asks for: base64 of the SHA-256 of the script's text.
  std::string expected = server::http::kContentSecurityPolicy;
  const std::string_view script_src = "script-src 'self' 'wasm-unsafe-eval'";
  expected.insert(expected.find(script_src) + script_src.size(),
                  " 'sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI='");
  EXPECT_EQ(server::http::ContentSecurityPolicyAllowing("alert(1)"), expected);
}

TEST(ServerStaticFileRules, TheImportMapComesBeforeTheFirstScriptOrLink) {
  using server::services::WithImportMap;
  const std::map<std::string, std::string> urls{{"/a.js", "/a.1.js"}};
  const std::string map = R"(<script type="importmap">{"imports":{"/a.js":"/a.1.js"}}</script>)";
  EXPECT_EQ(WithImportMap(R"(<HEAD><Script src="/a.js"></script>)", urls),
            "<HEAD>" + map + R"(<Script src="/a.1.js"></script>)");
  EXPECT_EQ(WithImportMap("<header></header><linked><LINK\nhref=\"/b.js\">", urls),
            "<header></header><linked>" + map + "<LINK\nhref=\"/b.js\">");
  // No script and no link: no modules load, so no map.
  EXPECT_EQ(WithImportMap(R"(<a href="/a.js">x</a><scripts>)", urls),
            R"(<a href="/a.1.js">x</a><scripts>)");
  EXPECT_EQ(WithImportMap(R"(<script src="/a.js)", urls), map + R"(<script src="/a.js)");
  // The text the page's policy must allow: the map's, or none without one.
  std::string text = "stale";
  WithImportMap("<p>no scripts</p>", urls, &text);
  EXPECT_EQ(text, "");
  WithImportMap("<script></script>", urls, &text);
  EXPECT_EQ(text, R"({"imports":{"/a.js":"/a.1.js"}})");
}

TEST(ServerStaticFileRules, SafeRelativePaths) {
  EXPECT_EQ(SafeRelativePath("app.js"), std::filesystem::path("app.js"));
  EXPECT_EQ(SafeRelativePath("a/b%20c.js"), std::filesystem::path("a/b c.js"));
  EXPECT_EQ(SafeRelativePath("docs/"), std::filesystem::path("docs/index.html"));
  for (std::string_view bad :
       {"", "/abs", "..", "a/../b", "%2e%2e", "a//b", ".git/config", "a\\b", "%00", "%2", "c:/x"}) {
    EXPECT_EQ(SafeRelativePath(bad), std::nullopt) << bad;
  }
}

}  // namespace
}  // namespace ensemble::testing
