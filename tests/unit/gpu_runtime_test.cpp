// The GPU runtime: status messages, devices, memory, NVRTC compilation and
// its on-disk cache, kernel launches and cuBLASLt GEMMs. NVRTC needs no GPU,
// so the compiler tests run everywhere; everything that touches a device
// skips cleanly when DeviceCount() is 0. GEMM results are checked against a
// naive loop written here, never against another GPU library.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "backends/gpu/codegen/nvrtc_compiler.h"
#include "backends/gpu/runtime/cuda_status.h"
#include "backends/gpu/runtime/device.h"
#include "backends/gpu/runtime/device_memory.h"
#include "backends/gpu/runtime/gemm.h"
#include "backends/gpu/runtime/kernel_module.h"

namespace hlograph::gpu {
namespace {

namespace fs = std::filesystem;
using E = ir::ElementType;

#define REQUIRE_GPU()                                                 \
  do {                                                                \
    if (DeviceCount() == 0) GTEST_SKIP() << "no GPU on this machine"; \
  } while (0)

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// A fresh cache directory, named by HLOGRAPH_CACHE_DIR for the test's
// duration; the previous value comes back afterwards.
class ScopedCacheDir {
 public:
  ScopedCacheDir() {
    std::string pattern = (fs::temp_directory_path() / "hlograph-gpu-test-XXXXXX").string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    char* made = mkdtemp(buffer.data());
    EXPECT_NE(made, nullptr);
    dir_ = made != nullptr ? made : "";
    if (const char* old = std::getenv("HLOGRAPH_CACHE_DIR")) old_ = old;
    setenv("HLOGRAPH_CACHE_DIR", dir_.c_str(), 1);
  }
  ~ScopedCacheDir() {
    if (old_) {
      setenv("HLOGRAPH_CACHE_DIR", old_->c_str(), 1);
    } else {
      unsetenv("HLOGRAPH_CACHE_DIR");
    }
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }
  const fs::path& dir() const { return dir_; }
  std::vector<fs::path> Files() const {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir_)) files.push_back(e.path());
    return files;
  }

 private:
  fs::path dir_;
  std::optional<std::string> old_;
};

// Uses __half and __nv_bfloat16 from the toolkit's headers.
const char kMixedKernel[] = R"(#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void mixed_axpy(const __half* x, const __nv_bfloat16* y, float* out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * __half2float(x[i]) + __bfloat162float(y[i]);
}
)";

// ---------------------------------------------------------------------------
// Host-side f16/bf16 conversions for the tests' data.

uint16_t FloatToBf16(float f) {  // round to nearest even; no NaNs in the tests
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits += 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

float Bf16ToFloat(uint16_t h) {
  uint32_t bits = uint32_t{h} << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

float F16ToFloat(uint16_t h) {
  int sign = h >> 15, exponent = (h >> 10) & 31, mantissa = h & 1023;
  double magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(mantissa, -24);
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(mantissa + 1024, exponent - 25);
  }
  return static_cast<float>(sign ? -magnitude : magnitude);
}

uint16_t FloatToF16(float f) {  // exact for the values the tests use (k/64, |f| <= 1)
  if (f == 0) return std::signbit(f) ? 0x8000 : 0;
  uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  int exponent;
  double fraction = std::frexp(std::fabs(static_cast<double>(f)), &exponent);  // [0.5, 1)
  // value = fraction * 2^exponent = (1.m) * 2^(exponent-1)
  int biased = exponent - 1 + 15;
  EXPECT_GT(biased, 0) << "subnormal f16 not needed by these tests";
  auto mantissa = static_cast<uint16_t>(std::lround((fraction * 2 - 1) * 1024));
  return static_cast<uint16_t>(sign | (biased << 10) | mantissa);
}

// ---------------------------------------------------------------------------
// Status, device and launch descriptions (no GPU needed).

TEST(GpuStatusTest, MessagesNameTheCall) {
  EXPECT_TRUE(CudaStatus(cudaSuccess, "cudaMalloc(8 bytes)").ok());
  Status oom = CudaStatus(cudaErrorMemoryAllocation, "cudaMalloc(1073741824 bytes)");
  ASSERT_FALSE(oom.ok());
  EXPECT_TRUE(Contains(oom.message(), "cudaMalloc(1073741824 bytes) failed")) << oom.message();
  EXPECT_TRUE(Contains(oom.message(), "cudaErrorMemoryAllocation")) << oom.message();
  EXPECT_TRUE(IsOutOfMemory(oom));

  Status invalid = CudaStatus(cudaErrorInvalidValue, "cudaMemcpyAsync");
  ASSERT_FALSE(invalid.ok());
  EXPECT_TRUE(Contains(invalid.message(), "cudaMemcpyAsync failed")) << invalid.message();
  EXPECT_TRUE(Contains(invalid.message(), "cudaErrorInvalidValue")) << invalid.message();
  EXPECT_FALSE(IsOutOfMemory(invalid));
  EXPECT_FALSE(IsOutOfMemory(Status::Ok()));

  EXPECT_TRUE(NvrtcStatus(NVRTC_SUCCESS, "nvrtcCompileProgram").ok());
  Status nvrtc = NvrtcStatus(NVRTC_ERROR_COMPILATION, "nvrtcCompileProgram(k.cu)");
  ASSERT_FALSE(nvrtc.ok());
  EXPECT_TRUE(Contains(nvrtc.message(), "nvrtcCompileProgram(k.cu) failed")) << nvrtc.message();
  EXPECT_TRUE(Contains(nvrtc.message(), "NVRTC_ERROR_COMPILATION")) << nvrtc.message();

  EXPECT_TRUE(CublasStatus(CUBLAS_STATUS_SUCCESS, "cublasLtMatmul").ok());
  Status blas = CublasStatus(CUBLAS_STATUS_NOT_SUPPORTED, "cublasLtMatmul(gemm)");
  ASSERT_FALSE(blas.ok());
  EXPECT_TRUE(Contains(blas.message(), "cublasLtMatmul(gemm) failed")) << blas.message();
  EXPECT_TRUE(Contains(blas.message(), "CUBLAS_STATUS_NOT_SUPPORTED")) << blas.message();
}

TEST(GpuDeviceTest, CountNeverFails) {
  int count = DeviceCount();
  EXPECT_GE(count, 0);
  EXPECT_EQ(count, DeviceCount());
  // A device that does not exist is an error, not a crash.
  EXPECT_FALSE(GetDeviceInfo(count).ok());
  EXPECT_FALSE(GetDeviceInfo(-1).ok());
  EXPECT_FALSE(SetDevice(count).ok());
  if (count == 0) {
    Status s = SetDevice(0);
    ASSERT_FALSE(s.ok());
    EXPECT_TRUE(Contains(s.message(), "0 GPUs")) << s.message();
  }
}

TEST(GpuDeviceTest, InfoToString) {
  DeviceInfo info;
  info.ordinal = 1;
  info.name = "NVIDIA H200";
  info.cc_major = 9;
  info.cc_minor = 0;
  info.sm_count = 132;
  info.total_memory = int64_t{140} << 30;
  info.l2_bytes = int64_t{60} << 20;
  info.driver_version = 13000;
  info.runtime_version = 12080;
  EXPECT_EQ(info.ToString(),
            "device 1: NVIDIA H200, sm_90, 132 SMs, 140.0 GiB, L2 60.0 MiB, driver 13.0, runtime 12.8");
}

TEST(GpuDeviceTest, RealDeviceInfo) {
  REQUIRE_GPU();
  auto info = GetDeviceInfo(0);
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_FALSE(info->name.empty());
  EXPECT_GE(info->cc_major, 7);
  EXPECT_GT(info->sm_count, 0);
  EXPECT_GT(info->total_memory, 0);
  EXPECT_GT(info->runtime_version, 0);
  EXPECT_TRUE(SetDevice(0).ok());
  std::cout << info->ToString() << "\n";
}

TEST(GpuLaunchDimsTest, ToString) {
  LaunchDims dims;
  dims.grid = {1024, 1, 1};
  dims.block = {256, 1, 1};
  EXPECT_EQ(dims.ToString(), "grid 1024x1x1 block 256x1x1");
  dims.grid = {3, 4, 5};
  dims.shared_bytes = 4096;
  EXPECT_EQ(dims.ToString(), "grid 3x4x5 block 256x1x1 shared 4096");
}

TEST(GpuMemoryTest, EmptyBufferNeedsNoDevice) {
  auto buffer = DeviceBuffer::Allocate(0);
  ASSERT_TRUE(buffer.ok()) << buffer.status().message();
  EXPECT_EQ(buffer->data(), nullptr);
  EXPECT_EQ(buffer->size(), 0);
  EXPECT_FALSE(DeviceBuffer::Allocate(-1).ok());
}

TEST(GpuMemoryTest, AllocationWithoutDeviceIsAnError) {
  if (DeviceCount() != 0) GTEST_SKIP() << "this machine has a GPU";
  auto buffer = DeviceBuffer::Allocate(1024);
  ASSERT_FALSE(buffer.ok());
  EXPECT_TRUE(Contains(buffer.status().message(), "cudaMalloc(1024 bytes)")) << buffer.status().message();
}

// ---------------------------------------------------------------------------
// NVRTC (no GPU needed).

TEST(GpuNvrtcTest, Version) {
  std::string version = NvrtcVersion();
  ASSERT_NE(version.find('.'), std::string::npos) << version;
  EXPECT_GE(std::stoi(version), 12);
}

TEST(GpuNvrtcTest, CompilesHalfAndBf16KernelAndCaches) {
  ScopedCacheDir cache;
  CompileOptions options;  // sm_90
  auto first = CompileToCubin(kMixedKernel, "mixed_axpy", options);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_FALSE(first->from_cache);
  ASSERT_GT(first->cubin.size(), 4u);
  EXPECT_EQ(first->cubin.substr(0, 4), std::string("\x7f" "ELF"));  // a cubin is an ELF file
  EXPECT_EQ(cache.Files().size(), 1u);

  auto second = CompileToCubin(kMixedKernel, "mixed_axpy", options);
  ASSERT_TRUE(second.ok()) << second.status().message();
  EXPECT_TRUE(second->from_cache);
  EXPECT_EQ(second->cubin, first->cubin);

  // Anything that changes the cubin changes the key.
  CompileOptions other_arch = options;
  other_arch.cc_major = 8;  // sm_80
  auto sm80 = CompileToCubin(kMixedKernel, "mixed_axpy", other_arch);
  ASSERT_TRUE(sm80.ok()) << sm80.status().message();
  EXPECT_FALSE(sm80->from_cache);
  CompileOptions fast = options;
  fast.fast_math = true;
  auto fast_math = CompileToCubin(kMixedKernel, "mixed_axpy", fast);
  ASSERT_TRUE(fast_math.ok()) << fast_math.status().message();
  EXPECT_FALSE(fast_math->from_cache);
  auto other_source = CompileToCubin(std::string(kMixedKernel) + "\n// changed\n", "mixed_axpy", options);
  ASSERT_TRUE(other_source.ok()) << other_source.status().message();
  EXPECT_FALSE(other_source->from_cache);
  EXPECT_EQ(cache.Files().size(), 4u);

  // use_cache = false neither reads nor writes.
  CompileOptions uncached = options;
  uncached.use_cache = false;
  auto direct = CompileToCubin(kMixedKernel, "mixed_axpy", uncached);
  ASSERT_TRUE(direct.ok()) << direct.status().message();
  EXPECT_FALSE(direct->from_cache);
  EXPECT_EQ(cache.Files().size(), 4u);
}

TEST(GpuNvrtcTest, CacheOffByEnvironment) {
  ScopedCacheDir cache;
  setenv("HLOGRAPH_CACHE_DIR", "off", 1);
  for (int i = 0; i < 2; ++i) {
    auto kernel = CompileToCubin(kMixedKernel, "mixed_axpy", CompileOptions());
    ASSERT_TRUE(kernel.ok()) << kernel.status().message();
    EXPECT_FALSE(kernel->from_cache);
  }
  EXPECT_TRUE(cache.Files().empty());
}

TEST(GpuNvrtcTest, CorruptCacheEntryIsRecompiled) {
  ScopedCacheDir cache;
  auto original = CompileToCubin(kMixedKernel, "mixed_axpy", CompileOptions());
  ASSERT_TRUE(original.ok()) << original.status().message();
  ASSERT_EQ(cache.Files().size(), 1u);
  const fs::path entry = cache.Files()[0];
  const auto entry_size = fs::file_size(entry);

  auto expect_recompiled = [&](const char* what) {
    auto again = CompileToCubin(kMixedKernel, "mixed_axpy", CompileOptions());
    ASSERT_TRUE(again.ok()) << what << ": " << again.status().message();
    EXPECT_FALSE(again->from_cache) << what;
    EXPECT_EQ(again->cubin, original->cubin) << what;
    // The entry was rewritten: the next compile hits.
    auto hit = CompileToCubin(kMixedKernel, "mixed_axpy", CompileOptions());
    ASSERT_TRUE(hit.ok()) << what << ": " << hit.status().message();
    EXPECT_TRUE(hit->from_cache) << what;
    EXPECT_EQ(fs::file_size(entry), entry_size) << what;
  };

  // Truncated (a crash while writing without the rename would look like this).
  fs::resize_file(entry, entry_size / 2);
  expect_recompiled("truncated");

  // One flipped byte in the payload.
  {
    std::fstream f(entry, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(entry_size - 10));
    char c = 0;
    f.read(&c, 1);
    c = static_cast<char>(c ^ 0x5a);
    f.seekp(static_cast<std::streamoff>(entry_size - 10));
    f.write(&c, 1);
  }
  expect_recompiled("flipped payload byte");

  // Garbage of the right size.
  {
    std::ofstream f(entry, std::ios::binary | std::ios::trunc);
    f << std::string(entry_size, 'x');
  }
  expect_recompiled("garbage");

  // Empty.
  { std::ofstream f(entry, std::ios::binary | std::ios::trunc); }
  expect_recompiled("empty");

  // No temporary files are left behind.
  EXPECT_EQ(cache.Files().size(), 1u);
}

TEST(GpuNvrtcTest, CompileErrorShowsLogAndLine) {
  ScopedCacheDir cache;
  const std::string source =
      "extern \"C\" __global__ void broken(float* out) {\n"
      "  int i = threadIdx.x;\n"
      "  out[i] = undefined_thing * 2.0f;\n"
      "}\n";
  auto result = CompileToCubin(source, "broken_kernel", CompileOptions());
  ASSERT_FALSE(result.ok());
  const std::string& message = result.status().message();
  EXPECT_TRUE(Contains(message, "broken_kernel")) << message;
  EXPECT_TRUE(Contains(message, "sm_90")) << message;
  EXPECT_TRUE(Contains(message, "undefined_thing")) << message;  // NVRTC's own diagnostic
  EXPECT_TRUE(Contains(message, "error")) << message;
  EXPECT_TRUE(Contains(message, "    3 |   out[i] = undefined_thing * 2.0f;")) << message;  // the numbered line
  EXPECT_FALSE(Contains(message, "    1 | ")) << message;  // only the lines NVRTC points at
  EXPECT_TRUE(cache.Files().empty());  // failures are not cached
}

// ---------------------------------------------------------------------------
// Device memory and kernels (GPU only).

TEST(GpuMemoryTest, RoundTrip) {
  REQUIRE_GPU();
  auto stream = Stream::Create();
  ASSERT_TRUE(stream.ok()) << stream.status().message();
  constexpr int64_t kCount = 1 << 18;
  std::vector<uint32_t> host(kCount);
  for (int64_t i = 0; i < kCount; ++i) host[i] = static_cast<uint32_t>(i * 2654435761u);
  auto a = DeviceBuffer::Allocate(kCount * 4);
  auto b = DeviceBuffer::Allocate(kCount * 4);
  ASSERT_TRUE(a.ok()) << a.status().message();
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_NE(a->data(), nullptr);
  EXPECT_EQ(a->size(), kCount * 4);
  ASSERT_TRUE(CopyHostToDevice(a->data(), host.data(), kCount * 4, stream->get()).ok());
  ASSERT_TRUE(CopyDeviceToDevice(b->data(), a->data(), kCount * 4, stream->get()).ok());
  ASSERT_TRUE(MemsetDevice(b->data(), 0xab, 16, stream->get()).ok());  // first 4 words
  std::vector<uint32_t> back(kCount, 0);
  ASSERT_TRUE(CopyDeviceToHost(back.data(), b->data(), kCount * 4, stream->get()).ok());
  ASSERT_TRUE(stream->Synchronize().ok());
  for (int i = 0; i < 4; ++i) EXPECT_EQ(back[i], 0xababababu);
  for (int64_t i = 4; i < kCount; ++i) ASSERT_EQ(back[i], host[i]) << i;

  // Moving a buffer moves ownership.
  DeviceBuffer moved = std::move(*a);
  EXPECT_EQ(a->data(), nullptr);
  EXPECT_EQ(moved.size(), kCount * 4);
}

TEST(GpuMemoryTest, OutOfMemory) {
  REQUIRE_GPU();
  auto huge = DeviceBuffer::Allocate(int64_t{1} << 50);
  ASSERT_FALSE(huge.ok());
  const std::string& message = huge.status().message();
  EXPECT_TRUE(IsOutOfMemory(huge.status())) << message;
  EXPECT_TRUE(Contains(message, "1125899906842624")) << message;
  EXPECT_TRUE(Contains(message, "out of device memory")) << message;
  // The failure is not sticky: the next allocation works.
  auto small = DeviceBuffer::Allocate(1024);
  EXPECT_TRUE(small.ok()) << small.status().message();
}

TEST(GpuKernelTest, CompileLoadLaunch) {
  REQUIRE_GPU();
  auto info = GetDeviceInfo(0);
  ASSERT_TRUE(info.ok()) << info.status().message();
  CompileOptions options;
  options.cc_major = info->cc_major;
  options.cc_minor = info->cc_minor;
  options.use_cache = false;
  auto compiled = CompileToCubin(kMixedKernel, "mixed_axpy", options);
  ASSERT_TRUE(compiled.ok()) << compiled.status().message();
  auto module = KernelModule::Load(compiled->cubin);
  ASSERT_TRUE(module.ok()) << module.status().message();
  auto kernel = module->GetKernel("mixed_axpy");
  ASSERT_TRUE(kernel.ok()) << kernel.status().message();
  auto missing = module->GetKernel("no_such_kernel");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(Contains(missing.status().message(), "no_such_kernel")) << missing.status().message();

  constexpr int kN = 1000;  // not a multiple of the block size
  std::vector<uint16_t> x(kN), y(kN);
  std::vector<float> expected(kN);
  const float a = 0.5f;
  for (int i = 0; i < kN; ++i) {
    float xf = static_cast<float>(i % 64 - 32) / 8.0f;  // exact in f16 and bf16
    float yf = static_cast<float>(i % 17) / 4.0f;
    x[i] = FloatToF16(xf);
    y[i] = FloatToBf16(yf);
    ASSERT_EQ(F16ToFloat(x[i]), xf);
    ASSERT_EQ(Bf16ToFloat(y[i]), yf);
    expected[i] = a * xf + yf;
  }
  auto stream = Stream::Create();
  ASSERT_TRUE(stream.ok()) << stream.status().message();
  auto dx = DeviceBuffer::Allocate(kN * 2);
  auto dy = DeviceBuffer::Allocate(kN * 2);
  auto dout = DeviceBuffer::Allocate(kN * 4);
  ASSERT_TRUE(dx.ok() && dy.ok() && dout.ok());
  ASSERT_TRUE(CopyHostToDevice(dx->data(), x.data(), kN * 2, stream->get()).ok());
  ASSERT_TRUE(CopyHostToDevice(dy->data(), y.data(), kN * 2, stream->get()).ok());
  ASSERT_TRUE(MemsetDevice(dout->data(), 0, kN * 4, stream->get()).ok());

  void* x_ptr = dx->data();
  void* y_ptr = dy->data();
  void* out_ptr = dout->data();
  float a_arg = a;
  int n_arg = kN;
  void* args[] = {&x_ptr, &y_ptr, &out_ptr, &a_arg, &n_arg};
  LaunchDims dims;
  dims.block = {128, 1, 1};
  dims.grid = {(kN + 127) / 128, 1, 1};
  Status launched = LaunchKernel(*kernel, dims, args, stream->get());
  ASSERT_TRUE(launched.ok()) << launched.message();
  std::vector<float> out(kN);
  ASSERT_TRUE(CopyDeviceToHost(out.data(), dout->data(), kN * 4, stream->get()).ok());
  ASSERT_TRUE(stream->Synchronize().ok());
  for (int i = 0; i < kN; ++i) ASSERT_EQ(out[i], expected[i]) << i;

  LaunchDims empty;
  empty.grid = {0, 1, 1};
  EXPECT_FALSE(LaunchKernel(*kernel, empty, args, stream->get()).ok());
}

// ---------------------------------------------------------------------------
// GEMM descriptions (no GPU needed).

GemmConfig Config(E in, E out, int64_t batch, int64_t m, int64_t n, int64_t k) {
  GemmConfig c;
  c.lhs_type = c.rhs_type = in;
  c.out_type = out;
  c.batch = batch;
  c.m = m;
  c.n = n;
  c.k = k;
  return c;
}

TEST(GpuGemmConfigTest, ToString) {
  GemmConfig c = Config(E::kF32, E::kF32, 1, 8, 512, 512);
  EXPECT_EQ(c.ToString(), "gemm f32xf32->f32 batch 1 m 8 n 512 k 512 lhs N rhs N tf32");
  c.precision = GemmPrecision::kHighest;
  c.lhs_transposed = true;
  EXPECT_EQ(c.ToString(), "gemm f32xf32->f32 batch 1 m 8 n 512 k 512 lhs T rhs N highest");
  GemmConfig h = Config(E::kBF16, E::kF32, 4, 2, 3, 5);
  h.rhs_transposed = true;
  h.rhs_broadcast = true;
  EXPECT_EQ(h.ToString(), "gemm bf16xbf16->f32 batch 4 m 2 n 3 k 5 lhs N rhs T rhs-broadcast default");
}

TEST(GpuGemmConfigTest, SupportedTypes) {
  EXPECT_TRUE(IsSupportedByCublasLt(Config(E::kF32, E::kF32, 1, 4, 4, 4)));
  EXPECT_TRUE(IsSupportedByCublasLt(Config(E::kF64, E::kF64, 1, 4, 4, 4)));
  EXPECT_TRUE(IsSupportedByCublasLt(Config(E::kF16, E::kF16, 1, 4, 4, 4)));
  EXPECT_TRUE(IsSupportedByCublasLt(Config(E::kF16, E::kF32, 1, 4, 4, 4)));
  EXPECT_TRUE(IsSupportedByCublasLt(Config(E::kBF16, E::kBF16, 1, 4, 4, 4)));
  EXPECT_TRUE(IsSupportedByCublasLt(Config(E::kBF16, E::kF32, 3, 1, 3, 7)));

  EXPECT_FALSE(IsSupportedByCublasLt(Config(E::kF32, E::kF64, 1, 4, 4, 4)));
  EXPECT_FALSE(IsSupportedByCublasLt(Config(E::kF64, E::kF32, 1, 4, 4, 4)));
  EXPECT_FALSE(IsSupportedByCublasLt(Config(E::kF16, E::kBF16, 1, 4, 4, 4)));
  EXPECT_FALSE(IsSupportedByCublasLt(Config(E::kF32, E::kF16, 1, 4, 4, 4)));
  EXPECT_FALSE(IsSupportedByCublasLt(Config(E::kI32, E::kI32, 1, 4, 4, 4)));
  EXPECT_FALSE(IsSupportedByCublasLt(Config(E::kI8, E::kI32, 1, 4, 4, 4)));
  EXPECT_TRUE(IsSupportedByCublasLt(Config(E::kC64, E::kC64, 1, 4, 4, 4)));
  EXPECT_TRUE(IsSupportedByCublasLt(Config(E::kC128, E::kC128, 2, 4, 4, 4)));
  EXPECT_FALSE(IsSupportedByCublasLt(Config(E::kC64, E::kF32, 1, 4, 4, 4)));
  EXPECT_FALSE(IsSupportedByCublasLt(Config(E::kC64, E::kC128, 1, 4, 4, 4)));
  EXPECT_FALSE(IsSupportedByCublasLt(Config(E::kF8E4M3FN, E::kF32, 1, 4, 4, 4)));
  // 8-bit products: both operands along k (rhs transposed), n and k in
  // multiples of 16, i8 into i32 only, no e5m2 x e5m2.
  GemmConfig i8 = Config(E::kI8, E::kI32, 1, 8, 32, 64);
  EXPECT_FALSE(IsSupportedByCublasLt(i8));  // rhs read along n
  i8.rhs_transposed = true;
  EXPECT_TRUE(IsSupportedByCublasLt(i8));
  i8.k = 40;
  EXPECT_FALSE(IsSupportedByCublasLt(i8));
  i8.k = 64;
  i8.n = 20;
  EXPECT_FALSE(IsSupportedByCublasLt(i8));
  i8.n = 32;
  i8.out_type = E::kF32;
  EXPECT_FALSE(IsSupportedByCublasLt(i8));
  GemmConfig f8 = Config(E::kF8E4M3FN, E::kBF16, 2, 8, 32, 64);
  f8.rhs_transposed = true;
  EXPECT_TRUE(IsSupportedByCublasLt(f8));
  f8.rhs_type = E::kF8E5M2;
  EXPECT_TRUE(IsSupportedByCublasLt(f8));
  f8.epilogue = GemmEpilogue::kScale;  // the per-tensor scale, f8 only
  EXPECT_TRUE(IsSupportedByCublasLt(f8));
  i8.rhs_transposed = true;
  i8.out_type = E::kI32;
  i8.epilogue = GemmEpilogue::kScale;
  EXPECT_FALSE(IsSupportedByCublasLt(i8));
  GemmConfig scaled = Config(E::kBF16, E::kBF16, 1, 4, 4, 4);
  scaled.epilogue = GemmEpilogue::kScale;
  EXPECT_FALSE(IsSupportedByCublasLt(scaled));
  f8.epilogue = GemmEpilogue::kNone;
  f8.lhs_type = E::kF8E5M2;
  EXPECT_FALSE(IsSupportedByCublasLt(f8));
  EXPECT_TRUE(TakesKMajorOperands(E::kI8, E::kI8));
  EXPECT_FALSE(TakesKMajorOperands(E::kI8, E::kU8));
  EXPECT_FALSE(TakesKMajorOperands(E::kBF16, E::kBF16));
  GemmConfig mixed = Config(E::kF16, E::kF32, 1, 4, 4, 4);
  mixed.rhs_type = E::kBF16;
  EXPECT_FALSE(IsSupportedByCublasLt(mixed));
  // Empty products are left to the caller (a memset).
  EXPECT_FALSE(IsSupportedByCublasLt(Config(E::kF32, E::kF32, 1, 4, 4, 0)));
  EXPECT_FALSE(IsSupportedByCublasLt(Config(E::kF32, E::kF32, 0, 4, 4, 4)));
}

TEST(GpuGemmConfigTest, UnsupportedPlanIsAnError) {
  auto plan = GemmPlan::Create(Config(E::kI32, E::kI32, 1, 2, 2, 2), nullptr);
  ASSERT_FALSE(plan.ok());
  EXPECT_TRUE(Contains(plan.status().message(), "gemm i32xi32->i32")) << plan.status().message();
}

// ---------------------------------------------------------------------------
// GEMMs against a naive loop (GPU only).

// Values in [-1, 1]; for f16/bf16 multiples of 1/64, exact in both.
std::vector<double> RandomValues(E type, int64_t count, std::mt19937& rng) {
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> values(count);
  for (double& v : values) {
    v = uniform(rng);
    if (type == E::kF16 || type == E::kBF16) {
      v = std::round(v * 64) / 64;
    } else if (type == E::kF32) {
      v = static_cast<float>(v);
    }
  }
  return values;
}

std::vector<uint8_t> Encode(E type, const std::vector<double>& values) {
  std::vector<uint8_t> bytes;
  auto append = [&](const void* p, size_t n) {
    bytes.insert(bytes.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
  };
  for (double v : values) {
    if (type == E::kF64) {
      append(&v, 8);
    } else if (type == E::kF32) {
      float f = static_cast<float>(v);
      append(&f, 4);
    } else {
      uint16_t h = type == E::kF16 ? FloatToF16(static_cast<float>(v)) : FloatToBf16(static_cast<float>(v));
      append(&h, 2);
    }
  }
  return bytes;
}

std::vector<double> Decode(E type, const std::vector<uint8_t>& bytes, int64_t count) {
  std::vector<double> values(count);
  for (int64_t i = 0; i < count; ++i) {
    if (type == E::kF64) {
      std::memcpy(&values[i], &bytes[i * 8], 8);
    } else if (type == E::kF32) {
      float f;
      std::memcpy(&f, &bytes[i * 4], 4);
      values[i] = f;
    } else {
      uint16_t h;
      std::memcpy(&h, &bytes[i * 2], 2);
      values[i] = type == E::kF16 ? F16ToFloat(h) : Bf16ToFloat(h);
    }
  }
  return values;
}

int64_t Bytes(E type) { return type == E::kF64 ? 8 : type == E::kF32 ? 4 : 2; }

// Runs `c` on the GPU and compares each output element with a double-precision
// loop: |got - want| <= tolerance * sum_k |lhs * rhs| (+ a tiny absolute term).
void CheckGemm(const GemmConfig& c, double tolerance) {
  SCOPED_TRACE(c.ToString());
  std::mt19937 rng(static_cast<uint32_t>(c.m * 131 + c.n * 17 + c.k * 7 + c.batch));
  const int64_t lhs_batches = c.lhs_broadcast ? 1 : c.batch;
  const int64_t rhs_batches = c.rhs_broadcast ? 1 : c.batch;
  std::vector<double> lhs = RandomValues(c.lhs_type, lhs_batches * c.m * c.k, rng);
  std::vector<double> rhs = RandomValues(c.rhs_type, rhs_batches * c.k * c.n, rng);

  auto lhs_at = [&](int64_t b, int64_t i, int64_t kk) {
    int64_t base = (c.lhs_broadcast ? 0 : b) * c.m * c.k;
    return lhs[base + (c.lhs_transposed ? kk * c.m + i : i * c.k + kk)];
  };
  auto rhs_at = [&](int64_t b, int64_t kk, int64_t j) {
    int64_t base = (c.rhs_broadcast ? 0 : b) * c.k * c.n;
    return rhs[base + (c.rhs_transposed ? j * c.k + kk : kk * c.n + j)];
  };

  auto handle = BlasHandle::Create();
  ASSERT_TRUE(handle.ok()) << handle.status().message();
  auto plan = GemmPlan::Create(c, *handle);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ((*plan)->config().ToString(), c.ToString());

  auto stream = Stream::Create();
  ASSERT_TRUE(stream.ok()) << stream.status().message();
  std::vector<uint8_t> lhs_bytes = Encode(c.lhs_type, lhs), rhs_bytes = Encode(c.rhs_type, rhs);
  const int64_t out_count = c.batch * c.m * c.n;
  const int64_t out_bytes = out_count * Bytes(c.out_type);
  auto d_lhs = DeviceBuffer::Allocate(static_cast<int64_t>(lhs_bytes.size()));
  auto d_rhs = DeviceBuffer::Allocate(static_cast<int64_t>(rhs_bytes.size()));
  auto d_out = DeviceBuffer::Allocate(out_bytes);
  auto d_work = DeviceBuffer::Allocate(static_cast<int64_t>((*plan)->workspace_bytes()));
  ASSERT_TRUE(d_lhs.ok() && d_rhs.ok() && d_out.ok() && d_work.ok());
  ASSERT_TRUE(CopyHostToDevice(d_lhs->data(), lhs_bytes.data(), d_lhs->size(), stream->get()).ok());
  ASSERT_TRUE(CopyHostToDevice(d_rhs->data(), rhs_bytes.data(), d_rhs->size(), stream->get()).ok());
  ASSERT_TRUE(MemsetDevice(d_out->data(), 0xff, out_bytes, stream->get()).ok());  // NaN garbage if not written
  Status ran = (*plan)->Run(d_lhs->data(), d_rhs->data(), d_out->data(), d_work->data(), stream->get());
  ASSERT_TRUE(ran.ok()) << ran.message();
  std::vector<uint8_t> out_bytes_host(out_bytes);
  ASSERT_TRUE(CopyDeviceToHost(out_bytes_host.data(), d_out->data(), out_bytes, stream->get()).ok());
  ASSERT_TRUE(stream->Synchronize().ok());
  std::vector<double> out = Decode(c.out_type, out_bytes_host, out_count);

  int failures = 0;
  for (int64_t b = 0; b < c.batch; ++b) {
    for (int64_t i = 0; i < c.m; ++i) {
      for (int64_t j = 0; j < c.n; ++j) {
        double want = 0, scale = 0;
        for (int64_t kk = 0; kk < c.k; ++kk) {
          double p = lhs_at(b, i, kk) * rhs_at(b, kk, j);
          want += p;
          scale += std::fabs(p);
        }
        double got = out[(b * c.m + i) * c.n + j];
        double bound = tolerance * scale + 1e-30;
        if (!(std::fabs(got - want) <= bound) && ++failures <= 10) {
          ADD_FAILURE() << "out[" << b << "][" << i << "][" << j << "] = " << got << ", want " << want
                        << " (|error| " << std::fabs(got - want) << " > " << bound << ")";
        }
      }
    }
  }
  EXPECT_EQ(failures, 0);
}

TEST(GpuGemmTest, F32Highest) {
  REQUIRE_GPU();
  GemmConfig c = Config(E::kF32, E::kF32, 1, 64, 96, 128);
  c.precision = GemmPrecision::kHighest;
  CheckGemm(c, 1e-5);
}

TEST(GpuGemmTest, F32DefaultIsTf32) {
  REQUIRE_GPU();
  CheckGemm(Config(E::kF32, E::kF32, 1, 64, 96, 128), 1e-2);
}

TEST(GpuGemmTest, F64) {
  REQUIRE_GPU();
  CheckGemm(Config(E::kF64, E::kF64, 1, 33, 65, 47), 1e-13);
}

TEST(GpuGemmTest, Bf16ToF32) {
  REQUIRE_GPU();
  CheckGemm(Config(E::kBF16, E::kF32, 1, 64, 64, 256), 1e-5);
}

TEST(GpuGemmTest, Bf16ToBf16) {
  REQUIRE_GPU();
  CheckGemm(Config(E::kBF16, E::kBF16, 1, 32, 48, 64), 1e-2);  // 8-bit mantissa on the output
}

TEST(GpuGemmTest, F16ToF16) {
  REQUIRE_GPU();
  CheckGemm(Config(E::kF16, E::kF16, 1, 64, 128, 64), 2e-3);  // 11-bit mantissa on the output
}

TEST(GpuGemmTest, F16ToF32) {
  REQUIRE_GPU();
  CheckGemm(Config(E::kF16, E::kF32, 1, 16, 24, 40), 1e-5);
}

// complex<f32>/complex<f64> products (alpha and beta are complex scalars)
// against a loop in complex<double>.
template <typename R>
void CheckComplexGemm(E type, bool lhs_transposed, bool rhs_transposed, double tolerance) {
  GemmConfig c = Config(type, type, 2, 5, 7, 9);
  c.lhs_transposed = lhs_transposed;
  c.rhs_transposed = rhs_transposed;
  SCOPED_TRACE(c.ToString());
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  auto random = [&](int64_t n) {
    std::vector<std::complex<R>> v(static_cast<size_t>(n));
    for (auto& z : v) z = std::complex<R>(static_cast<R>(uniform(rng)), static_cast<R>(uniform(rng)));
    return v;
  };
  const std::vector<std::complex<R>> lhs = random(c.batch * c.m * c.k), rhs = random(c.batch * c.k * c.n);
  auto handle = BlasHandle::Create();
  ASSERT_TRUE(handle.ok()) << handle.status().message();
  auto plan = GemmPlan::Create(c, *handle);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  auto stream = Stream::Create();
  ASSERT_TRUE(stream.ok());
  const int64_t z = sizeof(std::complex<R>), out_count = c.batch * c.m * c.n;
  auto d_lhs = DeviceBuffer::Allocate(static_cast<int64_t>(lhs.size()) * z);
  auto d_rhs = DeviceBuffer::Allocate(static_cast<int64_t>(rhs.size()) * z);
  auto d_out = DeviceBuffer::Allocate(out_count * z);
  auto d_work = DeviceBuffer::Allocate(static_cast<int64_t>((*plan)->workspace_bytes()));
  ASSERT_TRUE(d_lhs.ok() && d_rhs.ok() && d_out.ok() && d_work.ok());
  ASSERT_TRUE(CopyHostToDevice(d_lhs->data(), lhs.data(), d_lhs->size(), stream->get()).ok());
  ASSERT_TRUE(CopyHostToDevice(d_rhs->data(), rhs.data(), d_rhs->size(), stream->get()).ok());
  Status ran = (*plan)->Run(d_lhs->data(), d_rhs->data(), d_out->data(), d_work->data(), stream->get());
  ASSERT_TRUE(ran.ok()) << ran.message();
  std::vector<std::complex<R>> out(static_cast<size_t>(out_count));
  ASSERT_TRUE(CopyDeviceToHost(out.data(), d_out->data(), out_count * z, stream->get()).ok());
  ASSERT_TRUE(stream->Synchronize().ok());
  int failures = 0;
  for (int64_t b = 0; b < c.batch; ++b) {
    for (int64_t i = 0; i < c.m; ++i) {
      for (int64_t j = 0; j < c.n; ++j) {
        std::complex<double> want = 0;
        for (int64_t kk = 0; kk < c.k; ++kk) {
          const auto l = lhs[static_cast<size_t>(b * c.m * c.k + (lhs_transposed ? kk * c.m + i : i * c.k + kk))];
          const auto r = rhs[static_cast<size_t>(b * c.k * c.n + (rhs_transposed ? j * c.k + kk : kk * c.n + j))];
          want += std::complex<double>(l) * std::complex<double>(r);
        }
        const std::complex<double> got(out[static_cast<size_t>((b * c.m + i) * c.n + j)]);
        if (!(std::abs(got - want) <= tolerance * static_cast<double>(c.k)) && ++failures <= 10) {
          ADD_FAILURE() << "out[" << b << "][" << i << "][" << j << "] = " << got << ", want " << want;
        }
      }
    }
  }
}

TEST(GpuGemmTest, Complex) {
  REQUIRE_GPU();
  for (bool lt : {false, true}) {
    for (bool rt : {false, true}) {
      CheckComplexGemm<float>(E::kC64, lt, rt, 1e-6);
      CheckComplexGemm<double>(E::kC128, lt, rt, 1e-14);
    }
  }
}

TEST(GpuGemmTest, Transposes) {
  REQUIRE_GPU();
  for (bool lt : {false, true}) {
    for (bool rt : {false, true}) {
      GemmConfig c = Config(E::kF32, E::kF32, 1, 24, 40, 56);
      c.precision = GemmPrecision::kHighest;
      c.lhs_transposed = lt;
      c.rhs_transposed = rt;
      CheckGemm(c, 1e-5);
      GemmConfig h = Config(E::kBF16, E::kF32, 1, 24, 40, 56);
      h.lhs_transposed = lt;
      h.rhs_transposed = rt;
      CheckGemm(h, 1e-5);
    }
  }
}

TEST(GpuGemmTest, Batched) {
  REQUIRE_GPU();
  GemmConfig c = Config(E::kF32, E::kF32, 5, 16, 24, 32);
  c.precision = GemmPrecision::kHighest;
  CheckGemm(c, 1e-5);
  c.lhs_transposed = true;
  c.rhs_transposed = true;
  CheckGemm(c, 1e-5);
  CheckGemm(Config(E::kF16, E::kF16, 3, 8, 16, 24), 2e-3);
}

TEST(GpuGemmTest, BroadcastOperands) {
  REQUIRE_GPU();
  GemmConfig c = Config(E::kF32, E::kF32, 4, 16, 24, 32);
  c.precision = GemmPrecision::kHighest;
  c.rhs_broadcast = true;
  CheckGemm(c, 1e-5);
  c.rhs_transposed = true;
  CheckGemm(c, 1e-5);
  GemmConfig l = Config(E::kF64, E::kF64, 3, 8, 8, 8);
  l.lhs_broadcast = true;
  CheckGemm(l, 1e-13);
}

TEST(GpuGemmTest, OddSizes) {
  REQUIRE_GPU();
  GemmConfig tiny = Config(E::kF32, E::kF32, 1, 1, 3, 7);
  tiny.precision = GemmPrecision::kHighest;
  CheckGemm(tiny, 1e-5);
  CheckGemm(Config(E::kF64, E::kF64, 1, 1, 3, 7), 1e-13);
  CheckGemm(Config(E::kBF16, E::kF32, 1, 1, 3, 7), 1e-5);
  CheckGemm(Config(E::kF16, E::kF16, 2, 1, 3, 7), 2e-3);
  GemmConfig big = Config(E::kF32, E::kF32, 1, 513, 257, 129);
  big.precision = GemmPrecision::kHighest;
  CheckGemm(big, 1e-5);
  big.lhs_transposed = true;
  CheckGemm(big, 1e-5);
  CheckGemm(Config(E::kF32, E::kF32, 1, 513, 257, 129), 1e-2);
  CheckGemm(Config(E::kBF16, E::kF32, 1, 513, 257, 129), 1e-5);
}

// Run allocates nothing, so it can be captured into a CUDA graph and
// replayed.
TEST(GpuGemmTest, CapturedInGraph) {
  REQUIRE_GPU();
  GemmConfig c = Config(E::kF32, E::kF32, 2, 32, 32, 32);
  c.precision = GemmPrecision::kHighest;
  auto handle = BlasHandle::Create();
  ASSERT_TRUE(handle.ok()) << handle.status().message();
  auto plan = GemmPlan::Create(c, *handle);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  auto stream = Stream::Create();
  ASSERT_TRUE(stream.ok());
  const int64_t count = 2 * 32 * 32;
  std::vector<float> lhs(count), rhs(count);
  for (int64_t i = 0; i < count; ++i) {
    lhs[i] = static_cast<float>(i % 7) - 3;
    rhs[i] = static_cast<float>(i % 5) - 2;
  }
  auto d_lhs = DeviceBuffer::Allocate(count * 4);
  auto d_rhs = DeviceBuffer::Allocate(count * 4);
  auto d_out = DeviceBuffer::Allocate(count * 4);
  auto d_work = DeviceBuffer::Allocate(static_cast<int64_t>((*plan)->workspace_bytes()));
  ASSERT_TRUE(d_lhs.ok() && d_rhs.ok() && d_out.ok() && d_work.ok());
  ASSERT_TRUE(CopyHostToDevice(d_lhs->data(), lhs.data(), count * 4, stream->get()).ok());
  ASSERT_TRUE(CopyHostToDevice(d_rhs->data(), rhs.data(), count * 4, stream->get()).ok());
  ASSERT_TRUE(stream->Synchronize().ok());

  // One eager run first, as an executable would before capturing (cuBLASLt
  // and lazy module loading may initialise things on a first call).
  Status warm = (*plan)->Run(d_lhs->data(), d_rhs->data(), d_out->data(), d_work->data(), stream->get());
  ASSERT_TRUE(warm.ok()) << warm.message();
  ASSERT_TRUE(stream->Synchronize().ok());

  cudaGraph_t graph = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(stream->get(), cudaStreamCaptureModeThreadLocal), cudaSuccess);
  Status ran = (*plan)->Run(d_lhs->data(), d_rhs->data(), d_out->data(), d_work->data(), stream->get());
  ASSERT_EQ(cudaStreamEndCapture(stream->get(), &graph), cudaSuccess);
  ASSERT_TRUE(ran.ok()) << ran.message();
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  ASSERT_TRUE(MemsetDevice(d_out->data(), 0, count * 4, stream->get()).ok());
  ASSERT_EQ(cudaGraphLaunch(exec, stream->get()), cudaSuccess);
  std::vector<float> out(count);
  ASSERT_TRUE(CopyDeviceToHost(out.data(), d_out->data(), count * 4, stream->get()).ok());
  ASSERT_TRUE(stream->Synchronize().ok());
  (void)cudaGraphExecDestroy(exec);
  (void)cudaGraphDestroy(graph);
  for (int64_t b = 0; b < 2; ++b) {
    for (int64_t i = 0; i < 32; ++i) {
      for (int64_t j = 0; j < 32; ++j) {
        double want = 0;
        for (int64_t kk = 0; kk < 32; ++kk) want += lhs[(b * 32 + i) * 32 + kk] * rhs[(b * 32 + kk) * 32 + j];
        ASSERT_EQ(out[(b * 32 + i) * 32 + j], want) << b << " " << i << " " << j;  // small integers: exact
      }
    }
  }
}

}  // namespace
}  // namespace hlograph::gpu
