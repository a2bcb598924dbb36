// The subcommands of the hlograph CLI, one file each.
#pragma once

#include <string>
#include <vector>

namespace hlograph::cli {

struct Options {
  std::string command;
  std::vector<std::string> files;        // positional arguments after the command
  std::vector<std::string> inputs;       // --input FILE.npy (repeatable)
  std::string inputs_npz;                // --inputs FILE.npz
  std::string output;                    // --output FILE.npz
  std::string random_seed;               // --random SEED: random arguments instead of files
  std::string backend = "auto";          // --backend auto|cpu|gpu
  std::string mode = "graph";            // --mode graph|stream: how the GPU backend runs a call
  bool debug_info = false;               // --debug-info
  bool generic = false;                  // --generic
  bool verify = true;                    // --no-verify turns it off
  bool kernel_source = false;            // --kernels: explain also prints the CUDA C++
  std::string dot;                       // --dot FILE: explain writes the graph plan as Graphviz
  int iters = 100;                       // --iters N: bench's timed calls
  int warmup = 10;                       // --warmup N: bench's untimed calls first
  int cooldown_ms = 0;                   // --cooldown MS: bench idles this long before the queued calls
  int result_sets = 1;                   // --result-sets N: bench rotates calls over N sets of result buffers
  int evict_kb = 0;                      // --evict-kb N: bench also times calls with the host's caches cold
  bool json = false;                     // --json: bench prints one JSON object
  bool profile = false;                  // --profile: bench also sums kernel time (CUPTI)
  bool timeline = false;                 // --timeline: bench also lists one call's kernels in time (CUPTI)
  std::string trace;                     // --trace FILE: bench writes one call's GPU work as a Chrome trace
  std::string memory_budget;             // --memory-budget SIZE: the GPU's process memory budget
};

// Exit codes: 0 success, 1 an error in the program or its data, 2 bad usage.
int PrintOrVerify(const Options& options);
int Run(const Options& options);
int Check(const Options& options);
int Explain(const Options& options);
int Bench(const Options& options);

}  // namespace hlograph::cli
