#include "pjrt/spmd_choice.h"

#include <cstdio>
#include <cstdlib>

namespace hlograph::pjrt {
namespace {

constexpr char kModeEnv[] = "HLOGRAPH_SPMD";
constexpr char kReportEnv[] = "HLOGRAPH_SPMD_REPORT";

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr ? v : "";
}

void Report(const std::string& name, int64_t partitions, const std::string& what) {
  const std::string report = Env(kReportEnv);
  if (report.empty() || report == "0") return;
  std::fprintf(stderr, "hlograph spmd: %s on %lld partitions: %s\n", name.c_str(),
               static_cast<long long>(partitions), what.c_str());
}

}  // namespace

StatusOr<std::optional<passes::SpmdProgram>> ChoosePartitioning(const ir::Module& module, const std::string& name,
                                                                int64_t replicas, int64_t partitions) {
  using Choice = std::optional<passes::SpmdProgram>;
  std::string mode = Env(kModeEnv);
  if (mode.empty()) mode = "auto";
  if (mode != "auto" && mode != "strict" && mode != "off") {
    return Status::Error(std::string(kModeEnv) + "=" + mode + " is none of auto, strict, off");
  }
  if (replicas != 1 || partitions < 2) return Choice();
  if (passes::HasManualComputations(module)) {
    Report(name, partitions, "as written (manual computations)");
    return Choice();
  }
  if (mode == "off") {
    Report(name, partitions, "whole on every device (" + std::string(kModeEnv) + "=off)");
    return Choice();
  }
  auto program = passes::PartitionSpmd(module, partitions);
  if (program.ok()) {
    Report(name, partitions, "partitioned (" + program->summary + ")");
    return Choice(std::move(*program));
  }
  if (mode == "strict") {
    return Status::Error(program.status().message() + " (" + kModeEnv +
                         "=strict; unset, the program would run whole on every device)");
  }
  Report(name, partitions, "whole on every device: " + program.status().message());
  return Choice();
}

}  // namespace hlograph::pjrt
