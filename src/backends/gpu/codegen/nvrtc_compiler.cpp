#include "backends/gpu/codegen/nvrtc_compiler.h"

#include <nvrtc.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

#include "backends/gpu/runtime/cache_file.h"
#include "backends/gpu/runtime/cuda_status.h"

#ifndef HLOGRAPH_CUDA_INCLUDE_DIR
#error "HLOGRAPH_CUDA_INCLUDE_DIR must name the CUDA toolkit's include directory"
#endif

namespace hlograph::gpu {
namespace {

const std::string kCubinMagic = "HLGCUBN1";  // cache entries holding a cubin

// ---------------------------------------------------------------------------
// Compilation.

std::string ProgramName(const std::string& name) {
  std::string program = name.empty() ? "kernel" : name;
  if (program.size() < 3 || program.compare(program.size() - 3, 3, ".cu") != 0) program += ".cu";
  return program;
}

std::vector<std::string> Options(const CompileOptions& options) {
  std::vector<std::string> args = {
      "--gpu-architecture=sm_" + std::to_string(options.cc_major) + std::to_string(options.cc_minor),
      "-std=c++17",
      "-default-device",
      std::string("-I") + HLOGRAPH_CUDA_INCLUDE_DIR,
  };
  if (options.fast_math) args.push_back("--use_fast_math");
  return args;
}

// NVRTC's log followed by the numbered source lines it points at
// ("kernel.cu(12): error: ...").
std::string ErrorReport(const std::string& program, const std::string& source, const std::string& log) {
  std::set<int> lines;
  std::string marker = program + "(";
  for (size_t at = log.find(marker); at != std::string::npos; at = log.find(marker, at + 1)) {
    size_t digits = at + marker.size();
    size_t end = digits;
    while (end < log.size() && log[end] >= '0' && log[end] <= '9') ++end;
    if (end > digits && end < log.size() && log[end] == ')' && end - digits < 9) {
      lines.insert(std::stoi(log.substr(digits, end - digits)));
    }
  }
  std::vector<std::string> source_lines;
  {
    std::istringstream in(source);
    for (std::string line; std::getline(in, line);) source_lines.push_back(line);
  }
  std::string report = log;
  while (!report.empty() && (report.back() == '\n' || report.back() == '\0')) report.pop_back();
  std::string excerpt;
  int shown = 0;
  for (int line : lines) {
    if (line < 1 || line > static_cast<int>(source_lines.size())) continue;
    if (++shown > 20) {
      excerpt += "  ...\n";
      break;
    }
    std::string number = std::to_string(line);
    excerpt += std::string(number.size() < 5 ? 5 - number.size() : 0, ' ') + number + " | " +
               source_lines[line - 1] + "\n";
  }
  if (!excerpt.empty()) report += "\nin " + program + ":\n" + excerpt;
  while (!report.empty() && report.back() == '\n') report.pop_back();
  return report;
}

std::string ProgramLog(nvrtcProgram program) {
  size_t size = 0;
  if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size <= 1) return "";
  std::string log(size, '\0');
  if (nvrtcGetProgramLog(program, log.data()) != NVRTC_SUCCESS) return "";
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

class ProgramGuard {
 public:
  explicit ProgramGuard(nvrtcProgram program) : program_(program) {}
  ~ProgramGuard() { (void)nvrtcDestroyProgram(&program_); }
  ProgramGuard(const ProgramGuard&) = delete;
  ProgramGuard& operator=(const ProgramGuard&) = delete;

 private:
  nvrtcProgram program_;
};

StatusOr<CompiledKernel> Compile(const std::string& source, const std::string& name, const CompileOptions& options) {
  std::string program_name = ProgramName(name);
  nvrtcProgram program = nullptr;
  HLOGRAPH_TRY(NvrtcStatus(nvrtcCreateProgram(&program, source.c_str(), program_name.c_str(), 0, nullptr, nullptr),
                           "nvrtcCreateProgram(" + program_name + ")"));
  ProgramGuard guard(program);
  std::vector<std::string> args = Options(options);
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  nvrtcResult result = nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());
  std::string log = ProgramLog(program);
  std::string arch = "sm_" + std::to_string(options.cc_major) + std::to_string(options.cc_minor);
  if (result != NVRTC_SUCCESS) {
    std::string message = "NVRTC " + NvrtcVersion() + " could not compile " + program_name + " for " + arch + " (" +
                          nvrtcGetErrorString(result) + ")";
    if (!log.empty()) message += ":\n" + ErrorReport(program_name, source, log);
    return Status::Error(message);
  }
  size_t size = 0;
  HLOGRAPH_TRY(NvrtcStatus(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize(" + program_name + ")"));
  if (size == 0) {
    return Status::Error("NVRTC produced no cubin for " + program_name + " (" + arch +
                         " is not a real architecture?)");
  }
  CompiledKernel kernel;
  kernel.cubin.resize(size);
  HLOGRAPH_TRY(NvrtcStatus(nvrtcGetCUBIN(program, kernel.cubin.data()), "nvrtcGetCUBIN(" + program_name + ")"));
  kernel.log = log;
  return kernel;
}

}  // namespace

std::string NvrtcVersion() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor);
}

StatusOr<CompiledKernel> CompileToCubin(const std::string& source, const std::string& name,
                                        const CompileOptions& options) {
  if (options.cc_major <= 0 || options.cc_minor < 0 || options.cc_minor > 9) {
    return Status::Error("bad compute capability " + std::to_string(options.cc_major) + "." +
                         std::to_string(options.cc_minor) + " for " + name);
  }
  std::filesystem::path dir = options.use_cache ? CacheDirectory() : std::filesystem::path();
  if (dir.empty()) return Compile(source, name, options);

  Sha256 hasher;
  hasher.UpdateField("hlograph nvrtc cache v1");
  hasher.UpdateField(source);
  hasher.UpdateField("sm_" + std::to_string(options.cc_major) + std::to_string(options.cc_minor));
  for (const std::string& option : Options(options)) hasher.UpdateField(option);
  hasher.UpdateField(NvrtcVersion());
  Digest key = hasher.Finish();
  const std::filesystem::path path = CacheEntryPath(dir, "nvrtc", key, ".cubin");
  if (std::optional<std::string> cubin = ReadCacheEntry(path, kCubinMagic, key)) {
    CompiledKernel kernel;
    kernel.cubin = std::move(*cubin);
    kernel.from_cache = true;
    return kernel;
  }
  HLOGRAPH_ASSIGN(CompiledKernel kernel, Compile(source, name, options));
  WriteCacheEntry(path, kCubinMagic, key, kernel.cubin);
  return kernel;
}

}  // namespace hlograph::gpu
