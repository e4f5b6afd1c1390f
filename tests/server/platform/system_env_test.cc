// The server's logger: one JSON object per line on stderr.

#include "server/platform/system_env.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace ensemble::server::platform {
namespace {

using core::platform::LogField;
using core::platform::LogLevel;

// What `write` sends to stderr, one string per line.
template <typename Fn>
std::vector<std::string> StderrLines(Fn write) {
  std::fflush(stderr);
  FILE* capture = std::tmpfile();
  const int saved = dup(fileno(stderr));
  dup2(fileno(capture), fileno(stderr));
  write();
  std::fflush(stderr);
  dup2(saved, fileno(stderr));
  close(saved);
  std::rewind(capture);
  std::vector<std::string> lines;
  std::string line;
  for (int c; (c = std::fgetc(capture)) != EOF;) {
    if (c == '\n') {
      lines.push_back(line);
      line.clear();
    } else {
      line += static_cast<char>(c);
    }
  }
  std::fclose(capture);
  EXPECT_TRUE(line.empty()) << "a line without its newline: " << line;
  return lines;
}

TEST(StderrLogger, WritesOneJsonObjectPerLine) {
  StderrLogger logger(LogLevel::kInfo);
  const std::vector<std::string> lines = StderrLines([&] {
    logger.Log(LogLevel::kDebug, "below the level: not written");
    logger.Log(LogLevel::kWarning, "two\nlines, \"quoted\", and \xC0 bad UTF-8");
    const LogField fields[] = {LogField::Text("request_id", "ab12cd34-7"),
                               LogField::Number("status", 201), LogField::Number("ms", 1.5),
                               LogField::Text("msg", "never replaces the message")};
    logger.LogFields(LogLevel::kInfo, "request", fields);
  });
  ASSERT_EQ(lines.size(), 2u);
  const nlohmann::json warn = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(warn["level"], "warn");
  EXPECT_EQ(warn["msg"], "two\nlines, \"quoted\", and \xEF\xBF\xBD bad UTF-8");
  const std::string time = warn["time"];
  EXPECT_EQ(time.size(), std::string("2026-12-06T21:00:00.123Z").size()) << time;
  EXPECT_EQ(time.back(), 'Z');
  const nlohmann::json request = nlohmann::json::parse(lines[1]);
  EXPECT_EQ(request["msg"], "request");
  EXPECT_EQ(request["level"], "info");
  EXPECT_EQ(request["request_id"], "ab12cd34-7");
  EXPECT_EQ(request["status"], 201);
  EXPECT_NE(lines[1].find("\"status\":201,"), std::string::npos) << lines[1];  // Not 201.0.
  EXPECT_EQ(request["ms"], 1.5);
  // The line starts with its time, level and message, in that order.
  EXPECT_EQ(lines[1].rfind("{\"time\":", 0), 0u) << lines[1];
}

}  // namespace
}  // namespace ensemble::server::platform
