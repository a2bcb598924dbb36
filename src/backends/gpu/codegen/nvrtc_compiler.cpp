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

#include "backends/gpu/runtime/cuda_status.h"

#ifndef HLOGRAPH_CUDA_INCLUDE_DIR
#error "HLOGRAPH_CUDA_INCLUDE_DIR must name the CUDA toolkit's include directory"
#endif

namespace hlograph::gpu {
namespace {

// ---------------------------------------------------------------------------
// SHA-256 (FIPS 180-4), for cache keys and payload checksums.

using Digest = std::array<uint8_t, 32>;

class Sha256 {
 public:
  void Update(const void* data, size_t size) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    length_ += size;
    while (size > 0) {
      size_t take = std::min(size, block_.size() - used_);
      std::memcpy(block_.data() + used_, bytes, take);
      used_ += take;
      bytes += take;
      size -= take;
      if (used_ == block_.size()) {
        Compress();
        used_ = 0;
      }
    }
  }
  void Update(const std::string& s) { Update(s.data(), s.size()); }
  // Adds `s` with its length, so that consecutive fields cannot run into
  // each other ("ab"+"c" differs from "a"+"bc").
  void UpdateField(const std::string& s) {
    uint64_t size = s.size();
    uint8_t encoded[8];
    for (int i = 0; i < 8; ++i) encoded[i] = static_cast<uint8_t>(size >> (8 * i));
    Update(encoded, sizeof(encoded));
    Update(s);
  }

  Digest Finish() {
    uint64_t bit_length = length_ * 8;
    uint8_t pad = 0x80;
    Update(&pad, 1);
    uint8_t zero = 0;
    while (used_ != 56) Update(&zero, 1);
    uint8_t encoded[8];
    for (int i = 0; i < 8; ++i) encoded[i] = static_cast<uint8_t>(bit_length >> (56 - 8 * i));
    Update(encoded, 8);
    Digest digest;
    for (int i = 0; i < 8; ++i) {
      for (int j = 0; j < 4; ++j) digest[4 * i + j] = static_cast<uint8_t>(state_[i] >> (24 - 8 * j));
    }
    return digest;
  }

 private:
  static uint32_t Rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

  void Compress() {
    static constexpr uint32_t kRound[64] = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
    uint32_t w[64];
    for (int i = 0; i < 16; ++i) {
      w[i] = (uint32_t{block_[4 * i]} << 24) | (uint32_t{block_[4 * i + 1]} << 16) |
             (uint32_t{block_[4 * i + 2]} << 8) | uint32_t{block_[4 * i + 3]};
    }
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = Rotr(w[i - 15], 7) ^ Rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = Rotr(w[i - 2], 17) ^ Rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
    uint32_t e = state_[4], f = state_[5], g = state_[6], h = state_[7];
    for (int i = 0; i < 64; ++i) {
      uint32_t s1 = Rotr(e, 6) ^ Rotr(e, 11) ^ Rotr(e, 25);
      uint32_t choose = (e & f) ^ (~e & g);
      uint32_t t1 = h + s1 + choose + kRound[i] + w[i];
      uint32_t s0 = Rotr(a, 2) ^ Rotr(a, 13) ^ Rotr(a, 22);
      uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
      uint32_t t2 = s0 + majority;
      h = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    state_[0] += a;
    state_[1] += b;
    state_[2] += c;
    state_[3] += d;
    state_[4] += e;
    state_[5] += f;
    state_[6] += g;
    state_[7] += h;
  }

  std::array<uint32_t, 8> state_{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<uint8_t, 64> block_{};
  size_t used_ = 0;
  uint64_t length_ = 0;
};

Digest Sha256Of(const std::string& s) {
  Sha256 h;
  h.Update(s);
  return h.Finish();
}

std::string Hex(const Digest& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (uint8_t byte : digest) {
    s += kDigits[byte >> 4];
    s += kDigits[byte & 15];
  }
  return s;
}

// ---------------------------------------------------------------------------
// The on-disk cache. An entry is one file, <dir>/nvrtc-<key hex>.cubin:
//   8 bytes   magic "HLGCUBN1"
//   32 bytes  the key (SHA-256 of everything that determines the cubin)
//   8 bytes   payload length, little-endian
//   32 bytes  SHA-256 of the payload
//   payload   the cubin
// Anything else (short, long, wrong key, wrong checksum) is a miss.

constexpr char kMagic[8] = {'H', 'L', 'G', 'C', 'U', 'B', 'N', '1'};
constexpr size_t kHeaderBytes = sizeof(kMagic) + 32 + 8 + 32;

std::filesystem::path CacheDirectory() {
  if (const char* dir = std::getenv("HLOGRAPH_CACHE_DIR"); dir != nullptr && *dir != '\0') {
    if (std::string(dir) == "off") return {};
    return dir;
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::filesystem::path(xdg) / "hlograph";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".cache" / "hlograph";
  }
  return {};
}

std::string EncodeEntry(const Digest& key, const std::string& cubin) {
  std::string entry(kMagic, sizeof(kMagic));
  entry.append(reinterpret_cast<const char*>(key.data()), key.size());
  uint64_t length = cubin.size();
  for (int i = 0; i < 8; ++i) entry += static_cast<char>(static_cast<uint8_t>(length >> (8 * i)));
  Digest checksum = Sha256Of(cubin);
  entry.append(reinterpret_cast<const char*>(checksum.data()), checksum.size());
  entry += cubin;
  return entry;
}

// The cubin of a valid entry, or nothing.
std::optional<std::string> DecodeEntry(const Digest& key, const std::string& entry) {
  if (entry.size() < kHeaderBytes) return std::nullopt;
  const char* p = entry.data();
  if (std::memcmp(p, kMagic, sizeof(kMagic)) != 0) return std::nullopt;
  p += sizeof(kMagic);
  if (std::memcmp(p, key.data(), key.size()) != 0) return std::nullopt;
  p += key.size();
  uint64_t length = 0;
  for (int i = 0; i < 8; ++i) length |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  p += 8;
  if (length == 0 || length != entry.size() - kHeaderBytes) return std::nullopt;
  std::string cubin = entry.substr(kHeaderBytes);
  Digest checksum = Sha256Of(cubin);
  if (std::memcmp(p, checksum.data(), checksum.size()) != 0) return std::nullopt;
  return cubin;
}

std::optional<std::string> ReadEntry(const std::filesystem::path& path, const Digest& key) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string entry((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::nullopt;
  return DecodeEntry(key, entry);
}

// Best effort: a cache that cannot be written only costs a recompile.
void WriteEntry(const std::filesystem::path& dir, const std::filesystem::path& path, const Digest& key,
                const std::string& cubin) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return;
  static std::atomic<uint64_t> counter{0};
  std::filesystem::path temp = path;
  temp += ".tmp." + std::to_string(static_cast<long>(getpid())) + "." + std::to_string(counter++);
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return;
    std::string entry = EncodeEntry(key, cubin);
    out.write(entry.data(), static_cast<std::streamsize>(entry.size()));
    out.close();
    if (!out) {
      std::filesystem::remove(temp, ec);
      return;
    }
  }
  std::filesystem::rename(temp, path, ec);  // atomic on POSIX: readers see the old or the new file
  if (ec) std::filesystem::remove(temp, ec);
}

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
  std::filesystem::path path = dir / ("nvrtc-" + Hex(key) + ".cubin");

  if (std::optional<std::string> cubin = ReadEntry(path, key)) {
    CompiledKernel kernel;
    kernel.cubin = std::move(*cubin);
    kernel.from_cache = true;
    return kernel;
  }
  HLOGRAPH_ASSIGN(CompiledKernel kernel, Compile(source, name, options));
  WriteEntry(dir, path, key, kernel.cubin);
  return kernel;
}

}  // namespace hlograph::gpu
