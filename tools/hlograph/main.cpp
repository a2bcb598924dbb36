// The hlograph command line. Errors go to stderr with a non-zero exit status.
#include <iostream>
#include <string>
#include <vector>

#include "command_line.h"
#include "commands.h"
#include "help_text.h"

#ifndef HLOGRAPH_VERSION
#define HLOGRAPH_VERSION "dev"
#endif

namespace {

// Bad usage: the message, then how to use the command it concerns (or the
// whole help when there is no command to point at). Exit status 2.
int BadUsage(const hlograph::cli::CommandLine& line) {
  std::cerr << "hlograph: " << line.error << "\n";
  if (line.command) {
    std::cerr << hlograph::cli::CommandUsage(*line.command) << "'hlograph " << line.command->name
              << " --help' lists its options\n";
  } else {
    std::cerr << "\n" << hlograph::cli::GeneralHelp();
  }
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const hlograph::cli::CommandLine line = hlograph::cli::ParseCommandLine({argv + 1, argv + argc});
  switch (line.action) {
    case hlograph::cli::CommandLine::Action::kHelp:
      std::cout << (line.command ? hlograph::cli::CommandHelp(*line.command) : hlograph::cli::GeneralHelp());
      return 0;
    case hlograph::cli::CommandLine::Action::kVersion:
      std::cout << "hlograph " << HLOGRAPH_VERSION << "\n";
      return 0;
    case hlograph::cli::CommandLine::Action::kBadUsage:
      return BadUsage(line);
    case hlograph::cli::CommandLine::Action::kRun:
      break;
  }
  const hlograph::cli::Options& o = line.options;
  if (o.command == "explain") return hlograph::cli::Explain(o);
#ifdef HLOGRAPH_WITH_CPU_BACKEND
  if (o.command == "run") return hlograph::cli::Run(o);
  if (o.command == "bench") return hlograph::cli::Bench(o);
  if (o.command == "check") return hlograph::cli::Check(o);
#else
  if (o.command == "run" || o.command == "check" || o.command == "bench") {
    std::cerr << "hlograph: this build has no CPU backend (configure with -DHLOGRAPH_CPU_BACKEND=ON)\n";
    return 1;
  }
#endif
  return hlograph::cli::PrintOrVerify(o);
}
