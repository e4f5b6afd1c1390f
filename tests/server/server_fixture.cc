#include "tests/server/server_fixture.h"

#include <fstream>

namespace ensemble::testing {

void ServerTest::SetUp() {
  ENSEMBLE_SKIP_IF_STORE_MISSING(GetParam());
  auto store = ScratchStore::Create(GetParam());
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  store_ = std::move(*store);

  server::Config config = store_->config();
  config.http_addr = "127.0.0.1";
  config.port = 0;
  web_root_ = store_->dir() / "web";
  wasm_dir_ = store_->dir() / "wasm";
  std::filesystem::create_directories(web_root_);
  std::filesystem::create_directories(wasm_dir_);
  config.web_root = web_root_.string();
  config.wasm_dir = wasm_dir_.string();
  web_compressed_dir_ = store_->dir() / "web-compressed";
  config.web_compressed_dir = web_compressed_dir_.string();
  Configure(config);

  auto app = server::App::Create(config, core::platform::Env{&clock_, &random_, &logger_});
  ASSERT_TRUE(app.ok()) << app.status().ToString();
  app_ = std::move(*app);
  io_thread_ = std::thread([app = app_.get()] { app->Run(); });
  client_ = std::make_unique<HttpClient>(app_->port());
}

void ServerTest::StopServer() {
  if (app_) {
    app_->Stop();
    io_thread_.join();
    app_.reset();
  }
}

void ServerTest::TearDown() {
  StopServer();
  db_.reset();
  store_.reset();
}

core::store::Database& ServerTest::store() {
  if (!db_) {
    auto db = store_->Connect();
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    if (db.ok()) db_ = std::move(*db);
  }
  return *db_;
}

int64_t ServerTest::QueryInt(const std::string& sql) {
  return ::ensemble::testing::QueryInt(store(), sql);
}

void ServerTest::WriteFile(const std::filesystem::path& path, const std::string& content) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << content;
}

}  // namespace ensemble::testing
