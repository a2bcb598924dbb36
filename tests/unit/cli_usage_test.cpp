// What each command accepts: `hlograph COMMAND --help` shows that command's
// usage and options; an option the command does not take, or no command
// takes, is bad usage (exit status 2) that names both and writes nothing.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_util.h"

namespace hlograph::testing {
namespace {

struct CommandOptions {
  std::string command;
  std::vector<std::string> takes, refuses;
};

const std::vector<CommandOptions>& Table() {
  static const std::vector<CommandOptions> table = {
      {"print", {"--debug-info", "--generic", "--no-verify"}, {"--json", "--inputs", "--kernels"}},
      {"verify", {}, {"--json", "--generic", "--random"}},
      {"run", {"--inputs", "--input", "--random", "--output", "--backend", "--mode"}, {"--iters", "--kernels"}},
      {"check", {}, {"--backend", "--inputs"}},
      {"explain", {"--kernels", "--dot"}, {"--mode", "--json", "--trace"}},
      {"bench",
       {"--inputs", "--input", "--random", "--backend", "--mode", "--iters", "--warmup", "--cooldown", "--result-sets",
        "--evict-kb", "--json", "--profile", "--timeline", "--trace"},
       {"--output", "--generic"}},
  };
  return table;
}

TEST(CliUsage, EachCommandHasItsOwnHelp) {
  for (const CommandOptions& c : Table()) {
    CliResult r = Hlograph(c.command + " --help");
    EXPECT_EQ(r.exit_code, 0) << c.command;
    EXPECT_TRUE(r.err.empty()) << c.command << ": " << r.err;
    EXPECT_EQ(r.out.rfind("usage: hlograph " + c.command + " FILE", 0), 0u) << r.out;
    for (const std::string& o : c.takes) EXPECT_TRUE(HasSubstr(r.out, "  " + o + " ")) << c.command << " " << o;
    for (const std::string& o : c.refuses) EXPECT_FALSE(HasSubstr(r.out, o)) << c.command << " " << o;
    EXPECT_TRUE(HasSubstr(r.out, "--help"));
    // The same help, asked for in the other ways.
    EXPECT_EQ(Hlograph(c.command + " -h").out, r.out) << c.command;
    EXPECT_EQ(Hlograph("help " + c.command).out, r.out) << c.command;
  }
}

TEST(CliUsage, HelpWinsAnywhereOnTheLine) {
  CliResult r = Hlograph("run --bogus " + Quote(Corpus("softmax.mlir")) + " --iters x -h");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, Hlograph("run --help").out);
  // Before the command too, and for a command that is not one: the general help.
  EXPECT_EQ(Hlograph("--help run").out, r.out);
  CliResult general = Hlograph("frobnicate --help");
  EXPECT_EQ(general.exit_code, 0);
  EXPECT_EQ(general.out, Hlograph("--help").out);
}

// Help text with each run of spaces and line breaks made one space, so that
// a test does not depend on where lines wrap.
std::string Unwrapped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c != ' ' && c != '\n') {
      out += c;
    } else if (!out.empty() && out.back() != ' ') {
      out += ' ';
    }
  }
  return out;
}

TEST(CliUsage, GeneralHelpPointsToCommandHelpAndStandardInput) {
  CliResult r = Hlograph("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(HasSubstr(r.out, "hlograph COMMAND --help")) << r.out;
  EXPECT_TRUE(HasSubstr(Unwrapped(r.out), "'-' as FILE reads it from standard input")) << r.out;
  for (const CommandOptions& c : Table()) EXPECT_TRUE(HasSubstr(r.out, "  " + c.command + " FILE")) << c.command;
}

TEST(CliUsage, AnotherCommandsOptionIsBadUsage) {
  const std::string file = Quote(Corpus("softmax.mlir"));
  for (const CommandOptions& c : Table()) {
    for (const std::string& o : c.refuses) {
      CliResult r = Hlograph(c.command + " " + file + " " + o + " 1");
      EXPECT_EQ(r.exit_code, 2) << c.command << " " << o;
      EXPECT_TRUE(r.out.empty()) << c.command << " " << o << ": " << r.out;
      EXPECT_TRUE(HasSubstr(r.err, o + " is not an option of " + c.command + " (it is one of "))
          << c.command << " " << o << ": " << r.err;
      EXPECT_TRUE(HasSubstr(r.err, "usage: hlograph " + c.command + " FILE")) << r.err;
    }
  }
  CliResult verify = Hlograph("verify " + file + " --json");
  EXPECT_TRUE(HasSubstr(verify.err, "--json is not an option of verify (it is one of bench)")) << verify.err;
  // Named as misplaced before its value is looked at.
  CliResult iters = Hlograph("run " + file + " --iters many");
  EXPECT_TRUE(HasSubstr(iters.err, "--iters is not an option of run")) << iters.err;
}

TEST(CliUsage, UnknownOptionNamesTheCommand) {
  for (const CommandOptions& c : Table()) {
    CliResult r = Hlograph(c.command + " " + Quote(Corpus("softmax.mlir")) + " --frobnicate");
    EXPECT_EQ(r.exit_code, 2) << c.command;
    EXPECT_TRUE(r.out.empty()) << c.command;
    EXPECT_TRUE(HasSubstr(r.err, "unknown option '--frobnicate' for " + c.command)) << r.err;
  }
}

TEST(CliUsage, MissingValueIsBadUsage) {
  CliResult r = Hlograph("run " + Quote(Corpus("softmax.mlir")) + " --inputs");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(HasSubstr(r.err, "--inputs needs a value")) << r.err;
}

TEST(CliUsage, BadUsageWritesNothing) {
  const std::string program = Quote(Corpus("softmax.mlir"));
  const std::string npz = Scratch().path() + "/never.npz", dot = Scratch().path() + "/never.dot";
  EXPECT_EQ(Hlograph("run " + program + " --random 1 --output " + Quote(npz) + " --bogus").exit_code, 2);
  EXPECT_EQ(Hlograph("run " + program + " --random 1 --output " + Quote(npz) + " --json").exit_code, 2);
  EXPECT_EQ(Hlograph("explain " + program + " --dot " + Quote(dot) + " --iters 3").exit_code, 2);
  EXPECT_FALSE(std::filesystem::exists(npz));
  EXPECT_FALSE(std::filesystem::exists(dot));
}

}  // namespace
}  // namespace hlograph::testing
