// Tests of server/services/json_route.h: the one adapter from a JSON route's
// Result to its response, and the call's reads of its path and body.

#include "server/services/json_route.h"

#include <gtest/gtest.h>

#include <string>
#include <variant>

#include "tests/fakes/fake_env.h"

namespace ensemble::server::services {
namespace {

using boost::beast::http::status;
using nlohmann::json;
namespace codes = core::codes;

struct Served {
  status code;
  json body;
};

Served Serve(const RouteCall& call, const core::Result<json>& result,
             ::ensemble::testing::FakeLogger& logger) {
  http::Response response = JsonRouteResponse(call, result, "things", logger);
  const auto& r = std::get<http::StringResponse>(response);
  return {r.result(), json::parse(r.body())};
}

class JsonRouteTest : public ::testing::Test {
 protected:
  http::Request request_;
  http::Target target_;
  Caller caller_{"acct-1", false};
  ::ensemble::testing::FakeLogger logger_;
};

TEST_F(JsonRouteTest, ASuccessIsItsBodyWithTheCallsStatus) {
  RouteCall call{request_, target_, caller_};
  Served ok = Serve(call, json{{"things", json::array()}}, logger_);
  EXPECT_EQ(ok.code, status::ok);
  EXPECT_EQ(ok.body, (json{{"things", json::array()}}));
  call.status = status::created;
  EXPECT_EQ(Serve(call, json{{"thing", 1}}, logger_).code, status::created);
  EXPECT_TRUE(logger_.lines.empty());
}

TEST_F(JsonRouteTest, ARefusalKeepsItsCodeAndMessage) {
  RouteCall call{request_, target_, caller_};
  Served refused = Serve(call, core::InvalidArgument("name must be a string"), logger_);
  EXPECT_EQ(refused.code, status::bad_request);
  EXPECT_EQ(refused.body["error"]["code"], std::string(codes::kInvalidArgument));
  EXPECT_EQ(refused.body["error"]["message"], "name must be a string");
  // A refusal is not the server's failure: nothing to log.
  EXPECT_TRUE(logger_.lines.empty());
}

TEST_F(JsonRouteTest, StoreAndInternalFailuresAreLoggedNotShown) {
  RouteCall call{request_, target_, caller_};
  call.status = status::created;  // A failure is never a success status.
  Served storage =
      Serve(call, core::Status(codes::kStorage, "disk I/O error at /var/db/secret"), logger_);
  EXPECT_EQ(storage.body["error"]["code"], std::string(codes::kStorage));
  EXPECT_EQ(storage.body.dump().find("/var/db/secret"), std::string::npos);
  Served internal = Serve(call, core::Status(codes::kInternal, "row 7 vanished"), logger_);
  EXPECT_EQ(internal.code, status::internal_server_error);
  EXPECT_EQ(internal.body.dump().find("row 7"), std::string::npos);
  ASSERT_EQ(logger_.lines.size(), 2u);
  EXPECT_NE(logger_.lines[0].find("things"), std::string::npos);
  EXPECT_NE(logger_.lines[0].find("/var/db/secret"), std::string::npos);
}

TEST_F(JsonRouteTest, ParamIsThePathsNamedSegmentOrNotFound) {
  target_.path_params["id"] = "sp-1";
  target_.path_params["empty"] = "";
  RouteCall call{request_, target_, caller_};
  ASSERT_TRUE(call.Param("id", "no such space").ok());
  EXPECT_EQ(*call.Param("id", "no such space"), "sp-1");
  for (const char* name : {"empty", "account"}) {
    core::Result<std::string> missing = call.Param(name, "no member");
    ASSERT_FALSE(missing.ok()) << name;
    EXPECT_EQ(missing.status().code(), codes::kNotFound);
    EXPECT_EQ(missing.status().message(), "no member");
  }
}

TEST_F(JsonRouteTest, BodyIsParsedOrMalformed) {
  request_.body() = R"({"name":"Team"})";
  RouteCall call{request_, target_, caller_};
  ASSERT_TRUE(call.Body().ok());
  EXPECT_EQ((*call.Body())["name"], "Team");
  request_.body() = "{name: Team";
  core::Result<json> bad = call.Body();
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), codes::kMalformedJson);
  EXPECT_EQ(bad.status().message().find("Team"), std::string::npos);
}

TEST_F(JsonRouteTest, ObjectBodyRefusesOtherShapesAndNamesAnUnknownKey) {
  RouteCall call{request_, target_, caller_};
  request_.body() = R"({"name":"Team","spaceId":"sp-1"})";
  ASSERT_TRUE(call.ObjectBody({"name", "spaceId"}).ok());
  EXPECT_EQ((*call.ObjectBody({"name", "spaceId"}))["spaceId"], "sp-1");

  core::Result<json> unknown = call.ObjectBody({"name"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), codes::kInvalidArgument);
  EXPECT_EQ(unknown.status().message(), "the body has an unknown key \"spaceId\"");

  request_.body() = R"(["name"])";
  EXPECT_EQ(call.ObjectBody({"name"}).status().message(), "the body must be an object");
  request_.body() = "{";
  EXPECT_EQ(call.ObjectBody({"name"}).status().code(), codes::kMalformedJson);
}

TEST_F(JsonRouteTest, TheCallsHeadersGoOnASuccessAndOnARefusal) {
  RouteCall call{request_, target_, caller_};
  call.headers.emplace_back(boost::beast::http::field::retry_after, "7");
  for (const core::Result<json>& result :
       {core::Result<json>(json{{"ok", true}}),
        core::Result<json>(core::Status(codes::kNotFound, "not here"))}) {
    http::Response response = JsonRouteResponse(call, result, "things", logger_);
    const auto& r = std::get<http::StringResponse>(response);
    EXPECT_EQ(r[boost::beast::http::field::retry_after], "7") << r.body();
    EXPECT_EQ(r[boost::beast::http::field::content_type], "application/json") << r.body();
  }
}

}  // namespace
}  // namespace ensemble::server::services
