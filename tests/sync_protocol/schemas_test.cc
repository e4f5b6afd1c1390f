// The JSON Schemas in sync-protocol/schemas/ describe the messages the code
// really sends: each test builds messages with the core and the server and
// validates them, and checks that the schemas refuse what the server refuses.

#include <gtest/gtest.h>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "core/base/id.h"
#include "core/hub/hub.h"
#include "core/store/sqlite_database.h"
#include "core/sync/client_replica.h"
#include "core/sync/server_sync.h"
#include "server/http/json_response.h"
#include "tests/fakes/fake_env.h"

namespace ensemble {
namespace {

using nlohmann::json;

class ProtocolSchema {
 public:
  explicit ProtocolSchema(const std::string& name) {
    const char* root = std::getenv("ENSEMBLE_SOURCE_DIR");
    std::ifstream in(std::filesystem::path(root ? root : ".") / "sync-protocol" / "schemas" /
                     (name + ".schema.json"));
    document_ = json::parse(in);
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(document_);
    parser.populateSchema(adapter, schema_);
  }

  // Empty when `message` conforms; otherwise the first violation, readable.
  std::string Violation(const json& message) const {
    valijson::Validator validator;
    valijson::ValidationResults results;
    valijson::adapters::NlohmannJsonAdapter target(message);
    if (validator.validate(schema_, target, &results)) return "";
    valijson::ValidationResults::Error error;
    std::string out;
    while (results.popError(error)) {
      for (const auto& part : error.context) out += part;
      out += ": " + error.description + "\n";
    }
    return out;
  }

 private:
  json document_;
  valijson::Schema schema_;
};

class SchemasTest : public ::testing::Test {
 protected:
  SchemasTest() : server_(core::hub::Config()) {
    server_db_ = std::move(core::store::SqliteDatabase::Open(":memory:")).value();
    client_db_ = std::move(core::store::SqliteDatabase::Open(":memory:")).value();
    EXPECT_TRUE(core::hub::Migrate(*server_db_).ok());
    EXPECT_TRUE(core::hub::Migrate(*client_db_).ok());
    replica_ = std::move(core::sync::ClientReplica::Open(*client_db_, env_.env(),
                                                         core::hub::Config()))
                   .value();
  }

  std::string NewTask(const std::string& title) {
    std::string id = core::NewId(env_.clock, env_.random);
    EXPECT_TRUE(
        replica_->Mutate("task.create", {{"id", id}, {"spaceId", "personal"}, {"title", title}})
            .ok());
    return id;
  }

  testing::FakeEnv env_;
  std::unique_ptr<core::store::SqliteDatabase> server_db_;
  std::unique_ptr<core::store::SqliteDatabase> client_db_;
  std::unique_ptr<core::sync::ClientReplica> replica_;
  core::sync::ServerSync server_;
};

TEST_F(SchemasTest, PushRequestsTheClientBuildsConform) {
  ProtocolSchema schema("push_request");
  EXPECT_EQ(schema.Violation(*replica_->PushRequest()), "");  // Empty outbox.
  std::string id = NewTask("a");
  ASSERT_TRUE(replica_->Mutate("task.update", {{"id", id}, {"fields", {{"status", "done"}}}}).ok());
  EXPECT_EQ(schema.Violation(*replica_->PushRequest()), "");
}

TEST_F(SchemasTest, PushResponsesOfEveryStatusConform) {
  ProtocolSchema schema("push_response");
  NewTask("a");
  json request = *replica_->PushRequest();
  // A mutation the server refuses (the task is gone there) and one from the future.
  request["mutations"].push_back({{"id", 2},
                                  {"name", "task.update"},
                                  {"args", {{"id", "01JB0000000000000000000009"},
                                            {"fields", {{"title", "x"}}}}},
                                  {"clientTime", 1}});
  request["mutations"].push_back(
      {{"id", 7}, {"name", "task.update"}, {"args", json::object()}, {"clientTime", 1}});
  json first = *server_.Push(*server_db_, request);
  EXPECT_EQ(first["results"][0]["status"], "applied");
  EXPECT_EQ(first["results"][1]["status"], "rejected");
  EXPECT_EQ(first["results"][2]["status"], "refused");
  EXPECT_EQ(schema.Violation(first), "");
  json again = *server_.Push(*server_db_, request);
  EXPECT_EQ(again["results"][0]["status"], "skipped");
  EXPECT_EQ(schema.Violation(again), "");

  json applied_with_code = first;
  applied_with_code["results"][0]["code"] = "SAVE_CONFLICT";
  EXPECT_NE(schema.Violation(applied_with_code), "");
  json rejected_without_code = first;
  rejected_without_code["results"][1].erase("code");
  EXPECT_NE(schema.Violation(rejected_without_code), "");
}

TEST_F(SchemasTest, ConflictDetailsConform) {
  ProtocolSchema schema("push_response");
  std::string id = "01JB0000000000000000000001";
  json create = {{"id", 1},
                 {"name", "task.create"},
                 {"args", {{"id", id}, {"spaceId", "p"}, {"title", "a"}}},
                 {"clientTime", 1}};
  json theirs = {{"id", 2},
                 {"name", "task.update"},
                 {"args", {{"id", id}, {"fields", {{"title", "theirs"}}}}},
                 {"clientTime", 2}};
  json mine = {{"id", 3},
               {"name", "task.update"},
               {"args", {{"id", id}, {"fields", {{"title", "mine"}}}, {"base", {{"title", "a"}}}}},
               {"clientTime", 3}};
  json response = *server_.Push(
      *server_db_, {{"clientGroupId", "g"}, {"clientId", "c"}, {"mutations", {create, theirs, mine}}});
  EXPECT_EQ(response["results"][2]["code"], core::codes::kSaveConflict);
  EXPECT_EQ(schema.Violation(response), "");
}

TEST_F(SchemasTest, PullRequestsAndResponsesConform) {
  ProtocolSchema request_schema("pull_request");
  ProtocolSchema response_schema("pull_response");
  EXPECT_EQ(request_schema.Violation(*replica_->PullRequest()), "");
  for (int i = 0; i < 3; ++i) NewTask("t" + std::to_string(i));
  json push = *server_.Push(*server_db_, *replica_->PushRequest());
  json pull = *server_.Pull(*server_db_, replica_->client_id(), 0);
  ASSERT_EQ(pull["changes"].size(), 3u);
  EXPECT_EQ(response_schema.Violation(pull), "");
  EXPECT_EQ(response_schema.Violation(*server_.Pull(*server_db_, "someone-else", 0)), "");
}

TEST_F(SchemasTest, ErrorBodiesConform) {
  ProtocolSchema schema("error");
  for (std::string_view code : {core::codes::kMalformedJson, core::codes::kBodyTooLarge,
                                core::codes::kStorage, core::codes::kUnknownMutation}) {
    auto response = server::http::ErrorResponse(code, "something readable");
    EXPECT_EQ(schema.Violation(json::parse(response.body())), "") << code;
  }
}

TEST_F(SchemasTest, SchemasRefuseWhatTheServerRefuses) {
  ProtocolSchema schema("push_request");
  NewTask("a");
  json good = *replica_->PushRequest();
  json no_client = good;
  no_client.erase("clientId");
  json zero_id = good;
  zero_id["mutations"][0]["id"] = 0;
  json string_time = good;
  string_time["mutations"][0]["clientTime"] = "now";
  json args_array = good;
  args_array["mutations"][0]["args"] = json::array();
  for (const json& bad : {no_client, zero_id, string_time, args_array}) {
    EXPECT_NE(schema.Violation(bad), "") << bad.dump();
    EXPECT_EQ(server_.Push(*server_db_, bad).status().code(), core::codes::kInvalidArgument);
  }
}

TEST(PokeSchema, AcceptsAVersionAndRefusesNone) {
  ProtocolSchema schema("poke");
  EXPECT_EQ(schema.Violation({{"version", 12}}), "");
  EXPECT_NE(schema.Violation(json::object()), "");
  EXPECT_NE(schema.Violation({{"version", "12"}}), "");
}

}  // namespace
}  // namespace ensemble
