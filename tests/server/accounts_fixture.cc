#include "tests/server/accounts_fixture.h"

#include <sys/socket.h>
#include <sys/time.h>

#include <boost/asio/connect.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

namespace ensemble::testing {

namespace net = boost::asio;
namespace bhttp = boost::beast::http;

bool CapturingLogger::Contains(std::string_view needle) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const std::string& line : lines_) {
    if (line.find(needle) != std::string::npos) return true;
  }
  return false;
}

void AccountsServerTest::SetUp() {
  ENSEMBLE_SKIP_IF_STORE_MISSING(GetParam());
  auto store = ScratchStore::Create(GetParam());
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  store_ = std::move(*store);
  server::Config config = store_->config();
  config.http_addr = "127.0.0.1";
  config.port = 0;
  config.web_root = (store_->dir() / "web").string();
  config.wasm_dir = (store_->dir() / "wasm").string();
  Configure(config);
  auto app = server::App::Create(config, core::platform::Env{&clock_, &random_, &logger_});
  ASSERT_TRUE(app.ok()) << app.status().ToString();
  app_ = std::move(*app);
  io_thread_ = std::thread([app = app_.get()] { app->Run(); });
}

void AccountsServerTest::TearDown() {
  if (app_) {
    app_->Stop();
    io_thread_.join();
    app_.reset();
  }
  db_.reset();
  store_.reset();
}

core::store::Database& AccountsServerTest::store() {
  if (!db_) {
    auto db = store_->Connect();
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    if (db.ok()) db_ = std::move(*db);
  }
  return *db_;
}

HttpReply AccountsServerTest::SendFrom(const std::string& source, bhttp::verb method,
                                       const std::string& target, const std::string& body,
                                       const Headers& headers) const {
  HttpReply reply;
  net::io_context ioc;
  net::ip::tcp::socket socket(ioc);
  boost::system::error_code ec;
  if (!source.empty()) {
    socket.open(net::ip::tcp::v4(), ec);
    if (!ec) socket.bind({net::ip::make_address(source), 0}, ec);
    if (ec) {
      reply.error = "bind " + source + ": " + ec.message();
      return reply;
    }
  }
  socket.connect({net::ip::make_address("127.0.0.1"), app_->port()}, ec);
  if (ec) {
    reply.error = "connect: " + ec.message();
    return reply;
  }
  timeval tv{kClientTimeoutSeconds, 0};
  setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  bhttp::request<bhttp::string_body> req(method, target, 11);
  req.set(bhttp::field::host, "127.0.0.1");
  for (const auto& [name, value] : headers) req.set(name, value);
  if (!body.empty()) {
    // JSON unless the test sends a type of its own (a form's, to be refused).
    if (req.find(bhttp::field::content_type) == req.end()) {
      req.set(bhttp::field::content_type, "application/json");
    }
    req.body() = body;
  }
  req.prepare_payload();
  bhttp::write(socket, req, ec);
  boost::beast::flat_buffer buffer;
  bhttp::response_parser<bhttp::string_body> parser;
  parser.body_limit(16 * 1024 * 1024);
  bhttp::read(socket, buffer, parser, ec);
  if (ec) {
    reply.error = "read: " + ec.message();
    return reply;
  }
  reply.message = parser.release();
  reply.status = reply.message.result_int();
  return reply;
}

HttpReply AccountsServerTest::Signup(const std::string& email, const std::string& password,
                                     const std::string& name) const {
  return PostJson("/api/auth/signup", {{"email", email}, {"password", password}, {"name", name}});
}

std::string AccountsServerTest::SessionCookieOf(const HttpReply& reply) {
  std::string set_cookie(reply.message[bhttp::field::set_cookie]);
  size_t end = set_cookie.find(';');
  std::string pair = set_cookie.substr(0, end);
  if (pair.empty() || pair.find('=') == std::string::npos || pair.back() == '=') return "";
  return pair;
}

AccountsServerTest::Member AccountsServerTest::SignedUp(const std::string& email) const {
  HttpReply r = Signup(email, kPassword, "Someone");
  EXPECT_EQ(r.status, 201) << r.body();
  return {SessionCookieOf(r), r.json()["account"]["id"].get<std::string>(), email};
}

std::string AccountsServerTest::MakeSpace(const Member& m, const std::string& name) const {
  HttpReply r = Call(m, boost::beast::http::verb::post, "/api/spaces", {{"name", name}});
  EXPECT_EQ(r.status, 201) << r.body();
  return r.json()["space"]["id"].get<std::string>();
}

bool AccountsServerTest::Share(const Member& owner, const std::string& space, const Member& member,
                               const std::string& role) const {
  namespace bhttp = boost::beast::http;
  HttpReply invited = Call(owner, bhttp::verb::put, "/api/spaces/" + space + "/members",
                           {{"email", member.email}, {"role", role}});
  EXPECT_EQ(invited.status, 202) << invited.body();
  if (invited.status != 202) return false;
  const std::string id = invited.json()["invitation"]["id"].get<std::string>();
  HttpReply accepted = Call(member, bhttp::verb::post, "/api/invitations/" + id + "/accept",
                            nlohmann::json::object());
  EXPECT_EQ(accepted.status, 200) << accepted.body();
  return accepted.status == 200;
}

}  // namespace ensemble::testing
