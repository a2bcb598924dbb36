// The command line read into Options, or into what to print instead: help,
// the version, or why the line is not valid.
#pragma once

#include <string>
#include <vector>

#include "command_table.h"
#include "commands.h"

namespace hlograph::cli {

struct CommandLine {
  enum class Action { kRun, kHelp, kVersion, kBadUsage };
  Action action = Action::kRun;
  Options options;                      // kRun
  const CommandSpec* command = nullptr;  // kHelp, kBadUsage: the command it is about, if known
  std::string error;                    // kBadUsage, without the "hlograph: " prefix
};

// `args` is argv without the program name. Options may come anywhere on
// the line; the first word that is not an option (or an option's value) is
// the command. -h/--help wins over everything else, --version next.
CommandLine ParseCommandLine(const std::vector<std::string>& args);

}  // namespace hlograph::cli
