// tools/ensemble: the project's command-line client. Bad input exits non-zero
// with a readable message on stderr; results go to stdout as JSON.

#include <fstream>
#include <iostream>
#include <sstream>

#include "tools/cli/command.h"

namespace ensemble::cli {

std::map<std::string, Command>& Commands() {
  static auto* commands = new std::map<std::string, Command>();
  return *commands;
}

bool ReadFile(const std::string& path, std::string* contents, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = "cannot read " + path;
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *contents = std::move(buffer).str();
  return true;
}

}  // namespace ensemble::cli

namespace {

int Usage(std::ostream& out, int code) {
  out << "usage: tools/ensemble NOUN VERB [ARGS...]\n";
  for (const auto& [noun, command] : ensemble::cli::Commands()) out << command.usage;
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return Usage(std::cerr, 2);
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") return Usage(std::cout, 0);
  auto& commands = ensemble::cli::Commands();
  auto it = commands.find(args[0]);
  if (it == commands.end()) {
    std::cerr << "ensemble: unknown command \"" << args[0] << "\"\n";
    return Usage(std::cerr, 2);
  }
  return it->second.run(std::vector<std::string>(args.begin() + 1, args.end()));
}
