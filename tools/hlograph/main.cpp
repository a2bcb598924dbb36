// The hlograph command line. Errors go to stderr with a non-zero exit status.
#include <iostream>
#include <string>
#include <vector>

#include "commands.h"

#ifndef HLOGRAPH_VERSION
#define HLOGRAPH_VERSION "dev"
#endif

namespace {

constexpr const char* kUsage = R"(hlograph: compile and run StableHLO programs

usage: hlograph <command> [options] FILE

commands:
  print FILE     parse, verify and print the program in MLIR's pretty form
  verify FILE    parse and verify; prints "FILE: ok" or the errors
  run FILE       run the entry function (@main) and print or save its results
  check FILE     run the test functions of a file of `check` assertions
  explain FILE   show how the GPU backend runs the program: kernels (and the
                 ops each fuses), GEMMs, loops, buffers and the memory plan,
                 and the CUDA graph it becomes
  bench FILE     compile once, then time calls: latency (each call waited
                 for), per-call time with calls queued, compile time, memory

options:
  --inputs IN.npz    run: the entry function's arguments, arr_0, arr_1, ...
  --input A.npy      run: one argument (repeat in order)
  --random SEED      run, bench: random arguments (floats in [-1,1), integers in [0,8))
  --output OUT.npz   run: write the results as arr_0, arr_1, ... (all or nothing)
  --backend B        run, bench: auto (default: the GPU when there is one), cpu or gpu
  --mode M           run, bench (GPU): graph (default: each call as CUDA graph launches,
                     loops and cases on the device) or stream (steps queued one by one,
                     loop predicates read on the host)
  --kernels          explain: also print each kernel's CUDA C++
  --dot OUT.dot      explain: also write the CUDA graph plan as Graphviz
  --iters N          bench: timed calls (default 100); --warmup N first (10)
  --cooldown MS      bench: idle milliseconds before the queued calls (default 0), so that
                     a comparison can start every side's sustained run from the same clocks
  --result-sets N    bench (GPU): call after call, results go to the next of N sets of
                     buffers (default 1), as a framework handing fresh result memory does
  --evict-kb N       bench (GPU): also time calls after the host writes N KiB of other memory
                     (as a framework's own work between calls leaves the caches cold)
  --json             bench: print one JSON object
  --profile          bench (GPU): also the device time in kernels per call (CUPTI)
  --timeline         bench (GPU): also one call's kernels in order of start: when each
                     started and ended (from the end of the call queued before it), and
                     how much later than the kernels before it it ended
  --debug-info       print: also print locations, loc(...)
  --generic          print: print every op in the generic form
  --no-verify        print: skip verification
  -h, --help         show this help
  --version          show the version

A FILE may hold several modules separated by lines '// -----'.
Exit status: 0 on success, 1 on an error in the program or its data, 2 on bad usage.
)";

int Usage(const std::string& message) {
  std::cerr << "hlograph: " << message << "\n\n" << kUsage;
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return Usage("missing command");
  for (const std::string& a : args) {
    if (a == "-h" || a == "--help" || a == "help") {
      std::cout << kUsage;
      return 0;
    }
    if (a == "--version") {
      std::cout << "hlograph " << HLOGRAPH_VERSION << "\n";
      return 0;
    }
  }
  hlograph::cli::Options o;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](std::string* out) {
      if (i + 1 >= args.size()) return false;
      *out = args[++i];
      return true;
    };
    if (a == "--debug-info") {
      o.debug_info = true;
    } else if (a == "--generic") {
      o.generic = true;
    } else if (a == "--no-verify") {
      o.verify = false;
    } else if (a == "--kernels") {
      o.kernel_source = true;
    } else if (a == "--json") {
      o.json = true;
    } else if (a == "--profile") {
      o.profile = true;
    } else if (a == "--timeline") {
      o.timeline = true;
    } else if (a == "--iters" || a == "--warmup" || a == "--cooldown" || a == "--result-sets" || a == "--evict-kb") {
      std::string v;
      if (!value(&v) || v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos) {
        return Usage(a + " needs a count");
      }
      if (a == "--result-sets" && std::stoi(v) < 1) return Usage(a + " needs a count of at least 1");
      (a == "--iters"         ? o.iters
       : a == "--warmup"      ? o.warmup
       : a == "--result-sets" ? o.result_sets
       : a == "--evict-kb"    ? o.evict_kb
                              : o.cooldown_ms) = std::stoi(v);
    } else if (a == "--inputs" || a == "--output" || a == "--backend" || a == "--input" ||
               a == "--random" || a == "--dot" || a == "--mode") {
      std::string v;
      if (!value(&v)) return Usage(a + " needs a value");
      if (a == "--dot") o.dot = v;
      if (a == "--mode") o.mode = v;
      if (a == "--inputs") o.inputs_npz = v;
      if (a == "--output") o.output = v;
      if (a == "--backend") o.backend = v;
      if (a == "--input") o.inputs.push_back(v);
      if (a == "--random") {
        if (v.empty() || v.size() > 19 || v.find_first_not_of("0123456789") != std::string::npos) {
          return Usage("--random needs a non-negative integer seed, not '" + v + "'");
        }
        o.random_seed = v;
      }
    } else if (a.size() > 1 && a[0] == '-') {
      return Usage("unknown option '" + a + "'");
    } else if (o.command.empty()) {
      o.command = a;
    } else {
      o.files.push_back(a);
    }
  }
  if (o.backend != "auto" && o.backend != "cpu" && o.backend != "gpu") {
    return Usage("--backend must be auto, cpu or gpu");
  }
  if (o.mode != "graph" && o.mode != "stream") return Usage("--mode must be graph or stream");
  if (!o.inputs_npz.empty() + !o.inputs.empty() + !o.random_seed.empty() > 1) {
    return Usage("give one of --inputs, --input or --random");
  }
  if (o.command != "print" && o.command != "verify" && o.command != "run" && o.command != "check" &&
      o.command != "explain" && o.command != "bench") {
    return Usage("unknown command '" + o.command + "'");
  }
  if (o.files.size() != 1) return Usage(o.command + " needs exactly one FILE");
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
