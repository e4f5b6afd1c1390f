#include "server/http/json_response.h"

#include <gtest/gtest.h>

#include "core/base/status.h"

namespace ensemble::server::http {
namespace {

using beast::http::status;
namespace codes = core::codes;

TEST(JsonResponse, EachStableCodeHasItsHttpStatus) {
  EXPECT_EQ(HttpStatusFor(codes::kInvalidArgument), status::bad_request);
  EXPECT_EQ(HttpStatusFor(codes::kUnauthenticated), status::unauthorized);
  EXPECT_EQ(HttpStatusFor(codes::kSaveConflict), status::conflict);
  EXPECT_EQ(HttpStatusFor(codes::kUnsupportedOption), status::bad_request);
  EXPECT_EQ(HttpStatusFor(codes::kLimitReached), status::too_many_requests);
  EXPECT_EQ(HttpStatusFor(codes::kModelError), status::bad_gateway);
  // Spec 000 §5: a model call past its limit is a 504.
  EXPECT_EQ(HttpStatusFor(codes::kModelTimeout), status::gateway_timeout);
  EXPECT_EQ(HttpStatusFor(codes::kInternal), status::internal_server_error);
}

}  // namespace
}  // namespace ensemble::server::http
