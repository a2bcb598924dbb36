// The commands of the hlograph CLI and the options each takes: one table
// that both the parser (what is valid where) and the help text read.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hlograph::cli {

struct CommandSpec {
  std::string name;     // "run"
  std::string summary;  // one sentence, lower case, no final period
};

struct OptionSpec {
  std::string name;                   // "--inputs"
  std::string value;                  // what follows it ("IN.npz"), empty for a flag
  std::vector<std::string> commands;  // the commands that take it
  bool gpu_only = false;              // it only changes what the GPU backend does
  std::string help;                   // lower case, no final period
};

const std::vector<CommandSpec>& Commands();
const std::vector<OptionSpec>& OptionSpecs();

// Null when there is no such command or option.
const CommandSpec* FindCommand(std::string_view name);
const OptionSpec* FindOption(std::string_view name);

bool TakesOption(const CommandSpec& command, const OptionSpec& option);

}  // namespace hlograph::cli
