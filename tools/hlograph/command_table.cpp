// What each command does and which options it takes. Adding an option
// here makes it valid for its commands and lists it in their help.
#include "command_table.h"

#include <algorithm>

namespace hlograph::cli {

const std::vector<CommandSpec>& Commands() {
  static const std::vector<CommandSpec> commands = {
      {"print", "parse, verify and print the program in MLIR's pretty form"},
      {"verify", "parse and verify; prints \"FILE: ok\" or the errors"},
      {"run", "run the entry function (@main) and print or save its results"},
      {"check", "run the test functions of a file of `check` assertions"},
      {"explain",
       "show how the GPU backend runs the program: kernels (and the ops each fuses), GEMMs, loops, buffers and the "
       "memory plan, and the CUDA graph it becomes"},
      {"bench",
       "compile once, then time calls: latency (each call waited for), per-call time with calls queued, compile "
       "time, memory"},
  };
  return commands;
}

const std::vector<OptionSpec>& OptionSpecs() {
  static const std::vector<OptionSpec> options = {
      {"--inputs", "IN.npz", {"run", "bench"}, false,
       "the entry function's arguments, arr_0, arr_1, ... (as numpy.savez(path, *arrays) writes them)"},
      {"--input", "A.npy", {"run", "bench"}, false, "one argument (repeat in order)"},
      {"--random", "SEED", {"run", "bench"}, false,
       "random arguments (floats in [-1,1), integers in [0,8)); bench's default, with seed 0"},
      {"--output", "OUT.npz", {"run"}, false, "write the results as arr_0, arr_1, ... (all or nothing)"},
      {"--backend", "B", {"run", "bench"}, false,
       "auto (default: the GPU when there is one and it runs every op), cpu or gpu"},
      {"--mode", "M", {"run", "bench"}, true,
       "graph (default: each call as CUDA graph launches, loops and cases on the device) or stream (steps queued "
       "one by one, loop predicates read on the host)"},
      {"--memory-budget", "SIZE", {"run", "bench", "explain"}, true,
       "the device memory executables may hold between calls: bytes with an optional K, M or G suffix, a "
       "percentage of the free device memory (default 90%), or none (HLOGRAPH_GPU_MEMORY_BUDGET)"},
      {"--kernels", "", {"explain"}, false, "also print each kernel's CUDA C++"},
      {"--dot", "OUT.dot", {"explain"}, false,
       "also write the CUDA graph plan as Graphviz: a node per kernel (named with the ops it fuses), library call, "
       "copy and conditional node, and a legend of their shapes"},
      {"--iters", "N", {"bench"}, false, "timed calls (default 100)"},
      {"--warmup", "N", {"bench"}, false, "untimed calls before them (default 10)"},
      {"--cooldown", "MS", {"bench"}, false,
       "idle milliseconds before the queued calls (default 0), so that a comparison can start every side's "
       "sustained run from the same clocks"},
      {"--result-sets", "N", {"bench"}, true,
       "call after call, results go to the next of N sets of buffers (default 1), as a framework handing fresh "
       "result memory does"},
      {"--evict-kb", "N", {"bench"}, true,
       "also time calls after the host writes N KiB of other memory (as a framework's own work between calls "
       "leaves the caches cold)"},
      {"--json", "", {"bench"}, false, "print one JSON object"},
      {"--profile", "", {"bench"}, true, "also the device time in kernels per call (CUPTI)"},
      {"--timeline", "", {"bench"}, true,
       "also one call's kernels in order of start: when each started and ended (from the end of the call queued "
       "before it), and how much later than the kernels before it it ended"},
      {"--trace", "OUT.json", {"bench"}, true,
       "also write one call as a Chrome trace for ui.perfetto.dev or chrome://tracing (CUPTI): its graph launches "
       "and its kernels, copies and fills, a generated kernel named by its fusion and the ops it fuses (in stream "
       "mode every one by its step: GEMMs and convolutions by their configuration); an error on the CPU backend"},
      {"--debug-info", "", {"print"}, false, "also print locations, loc(...)"},
      {"--generic", "", {"print"}, false, "print every op in the generic form"},
      {"--no-verify", "", {"print"}, false, "skip verification"},
  };
  return options;
}

const CommandSpec* FindCommand(std::string_view name) {
  for (const CommandSpec& c : Commands()) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

const OptionSpec* FindOption(std::string_view name) {
  for (const OptionSpec& o : OptionSpecs()) {
    if (o.name == name) return &o;
  }
  return nullptr;
}

bool TakesOption(const CommandSpec& command, const OptionSpec& option) {
  return std::find(option.commands.begin(), option.commands.end(), command.name) != option.commands.end();
}

}  // namespace hlograph::cli
