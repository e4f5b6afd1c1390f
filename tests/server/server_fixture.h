// ServerTest: runs the whole sync server in-process (App on port 0, its
// io_context on a background thread) against a ScratchStore, once per store
// kind, with an HttpClient pointed at it. The web root and wasm folder are
// empty temporary folders the test may fill.
//
// Thread-safety: the server runs on its own thread; the test talks to it only
// over HTTP, and reads the store through its own connection (store()).

#ifndef ENSEMBLE_TESTS_SERVER_SERVER_FIXTURE_H_
#define ENSEMBLE_TESTS_SERVER_SERVER_FIXTURE_H_

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "core/store/database.h"
#include "server/app.h"
#include "server/platform/system_env.h"
#include "tests/fakes/fake_env.h"
#include "tests/server/http_client.h"
#include "tests/server/scratch_store.h"

namespace ensemble::testing {

class ServerTest : public ::testing::TestWithParam<StoreKind> {
 protected:
  void SetUp() override;
  void TearDown() override;
  // Adjusts the server's Config before it starts (limits, intervals).
  virtual void Configure(server::Config& config) {}
  // Stops the server and waits for it (TearDown then has nothing to do).
  void StopServer();

  const HttpClient& client() const { return *client_; }
  uint16_t port() const { return app_->port(); }
  const std::filesystem::path& web_root() const { return web_root_; }
  const std::filesystem::path& wasm_dir() const { return wasm_dir_; }
  const std::filesystem::path& web_compressed_dir() const { return web_compressed_dir_; }
  const std::filesystem::path& scratch_dir() const { return store_->dir(); }
  // The test's own connection to the server's store, for checking rows.
  core::store::Database& store();

  // A one-value query on store(), such as "SELECT COUNT(*) FROM tasks".
  int64_t QueryInt(const std::string& sql);

  static void WriteFile(const std::filesystem::path& path, const std::string& content);

 private:
  std::unique_ptr<ScratchStore> store_;
  std::unique_ptr<core::store::Database> db_;
  std::filesystem::path web_root_;
  std::filesystem::path wasm_dir_;
  std::filesystem::path web_compressed_dir_;
  FakeClock clock_;
  FakeRandom random_;
  // Warnings and errors from the server show up in the test output.
  server::platform::StderrLogger logger_{core::platform::LogLevel::kWarning};
  std::unique_ptr<server::App> app_;
  std::thread io_thread_;
  std::unique_ptr<HttpClient> client_;
};

}  // namespace ensemble::testing

#endif  // ENSEMBLE_TESTS_SERVER_SERVER_FIXTURE_H_
