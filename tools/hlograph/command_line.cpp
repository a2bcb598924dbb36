// Reading the command line in two steps: first split it into options and
// words, knowing from the table which options take a value; then, once the
// command is known, check each option against it. So an option misplaced
// on another command's line is named as such, not taken for a FILE.
#include "command_line.h"

#include <optional>

namespace hlograph::cli {
namespace {

struct GivenOption {
  std::string name;
  const OptionSpec* spec = nullptr;  // null for an unknown option
  std::optional<std::string> value;  // absent when the line ended first
};

bool IsCount(const std::string& v, size_t max_digits) {
  return !v.empty() && v.size() <= max_digits && v.find_first_not_of("0123456789") == std::string::npos;
}

// Stores one option's value in `o`; returns what is wrong with it, if anything.
std::string Apply(const GivenOption& g, Options* o) {
  const std::string& a = g.name;
  const std::string v = g.value.value_or("");
  if (a == "--debug-info") o->debug_info = true;
  if (a == "--generic") o->generic = true;
  if (a == "--no-verify") o->verify = false;
  if (a == "--kernels") o->kernel_source = true;
  if (a == "--json") o->json = true;
  if (a == "--profile") o->profile = true;
  if (a == "--timeline") o->timeline = true;
  if (a == "--iters" || a == "--warmup" || a == "--cooldown" || a == "--result-sets" || a == "--evict-kb") {
    if (!IsCount(v, 9)) return a + " needs a count";
    const int n = std::stoi(v);
    if (a == "--result-sets" && n < 1) return a + " needs a count of at least 1";
    (a == "--iters"         ? o->iters
     : a == "--warmup"      ? o->warmup
     : a == "--result-sets" ? o->result_sets
     : a == "--evict-kb"    ? o->evict_kb
                            : o->cooldown_ms) = n;
  }
  if (a == "--random") {
    if (!IsCount(v, 19)) return "--random needs a non-negative integer seed, not '" + v + "'";
    o->random_seed = v;
  }
  if (a == "--dot") o->dot = v;
  if (a == "--trace") {
    if (v.empty()) return "--trace needs a file name (the trace is written there, as JSON)";
    o->trace = v;
  }
  if (a == "--memory-budget") {
    if (v.empty()) return "--memory-budget needs a size (\"8G\", \"80%\" or \"none\")";
    o->memory_budget = v;
  }
  if (a == "--mode") o->mode = v;
  if (a == "--inputs") o->inputs_npz = v;
  if (a == "--output") o->output = v;
  if (a == "--backend") o->backend = v;
  if (a == "--input") o->inputs.push_back(v);
  return "";
}

std::string CommandsTaking(const OptionSpec& option) {
  std::string names;
  for (const std::string& c : option.commands) names += (names.empty() ? "" : ", ") + c;
  return names;
}

// What is wrong with the options given to `command`, if anything.
std::string CheckOptions(const CommandSpec& command, const std::vector<GivenOption>& given, Options* o) {
  for (const GivenOption& g : given) {
    if (!g.spec) return "unknown option '" + g.name + "' for " + command.name;
    if (!TakesOption(command, *g.spec)) {
      return g.name + " is not an option of " + command.name + " (it is one of " + CommandsTaking(*g.spec) + ")";
    }
  }
  for (const GivenOption& g : given) {
    if (!g.spec->value.empty() && !g.value) return g.name + " needs a value";
    if (std::string error = Apply(g, o); !error.empty()) return error;
  }
  if (o->backend != "auto" && o->backend != "cpu" && o->backend != "gpu") return "--backend must be auto, cpu or gpu";
  if (o->mode != "graph" && o->mode != "stream") return "--mode must be graph or stream";
  if (!o->inputs_npz.empty() + !o->inputs.empty() + !o->random_seed.empty() > 1) {
    return "give one of --inputs, --input or --random";
  }
  return "";
}

CommandLine BadUsage(const CommandSpec* command, std::string error) {
  CommandLine line;
  line.action = CommandLine::Action::kBadUsage;
  line.command = command;
  line.error = std::move(error);
  return line;
}

CommandLine Help(const CommandSpec* command) {
  CommandLine line;
  line.action = CommandLine::Action::kHelp;
  line.command = command;
  return line;
}

}  // namespace

CommandLine ParseCommandLine(const std::vector<std::string>& args) {
  bool help = false, version = false;
  std::vector<GivenOption> given;
  std::vector<std::string> words;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help") {
      help = true;
    } else if (a == "--version") {
      version = true;
    } else if (a.size() > 1 && a[0] == '-') {  // a lone "-" is a FILE: standard input
      GivenOption g{a, FindOption(a), std::nullopt};
      if (g.spec && !g.spec->value.empty() && i + 1 < args.size()) g.value = args[++i];
      given.push_back(std::move(g));
    } else {
      words.push_back(a);
    }
  }
  // `hlograph help [COMMAND]` is `hlograph [COMMAND] --help`.
  if (!words.empty() && words[0] == "help") {
    help = true;
    words.erase(words.begin());
  }
  const CommandSpec* command = words.empty() ? nullptr : FindCommand(words[0]);
  if (help) return Help(command);
  if (version) {
    CommandLine line;
    line.action = CommandLine::Action::kVersion;
    return line;
  }
  if (words.empty()) return BadUsage(nullptr, "missing command");
  if (!command) return BadUsage(nullptr, "unknown command '" + words[0] + "'");
  CommandLine line;
  line.options.command = command->name;
  line.options.files.assign(words.begin() + 1, words.end());
  if (std::string error = CheckOptions(*command, given, &line.options); !error.empty()) {
    return BadUsage(command, error);
  }
  if (line.options.files.size() != 1) {
    return BadUsage(command, command->name + " needs exactly one FILE, not " +
                                 std::to_string(line.options.files.size()));
  }
  line.command = command;
  return line;
}

}  // namespace hlograph::cli
