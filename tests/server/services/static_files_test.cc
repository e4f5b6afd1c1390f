// Static files over HTTP (web root and wasm folder), path traversal, HEAD,
// and unknown routes; plus the path and content-type rules on their own.

#include "server/services/static_files.h"

#include <gtest/gtest.h>

#include <string>

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
  }
  EXPECT_EQ(client().Get("/").body(), "<!doctype html><title>Ensemble</title>");
  EXPECT_EQ(client().Get("/wasm/ensemble.wasm").body(), std::string("\0asm\1\0\0\0", 8));
  EXPECT_EQ(client().Get("/app.js?v=3").body(), "export const x = 1;\n");
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
