// The help the CLI prints, made from the command table: the general help,
// a command's own help and its one-line usage.
#pragma once

#include <string>

#include "command_table.h"

namespace hlograph::cli {

std::string GeneralHelp();
std::string CommandHelp(const CommandSpec& command);
std::string CommandUsage(const CommandSpec& command);  // "usage: hlograph run FILE [options]\n"

}  // namespace hlograph::cli
