// The command-line client's subcommands (`tools/ensemble NOUN VERB ...`).
// Each noun lives in its own *_command.cc and registers itself at static
// initialization with a CommandRegistrar; main() dispatches on the noun.
// Not thread-safe: registration happens before main().

#ifndef ENSEMBLE_TOOLS_CLI_COMMAND_H_
#define ENSEMBLE_TOOLS_CLI_COMMAND_H_

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ensemble::cli {

// Runs a noun with the arguments after it; writes its result to stdout and a
// readable message to stderr on failure; returns the process exit code.
using CommandFn = std::function<int(const std::vector<std::string>& args)>;

struct Command {
  CommandFn run;
  std::string usage;  // One or more "noun verb ..." lines for --help.
};

std::map<std::string, Command>& Commands();

struct CommandRegistrar {
  CommandRegistrar(const std::string& noun, Command command) {
    Commands()[noun] = std::move(command);
  }
};

// Reads a whole file; false (with a message in *error) when it cannot.
bool ReadFile(const std::string& path, std::string* contents, std::string* error);

}  // namespace ensemble::cli

#endif  // ENSEMBLE_TOOLS_CLI_COMMAND_H_
