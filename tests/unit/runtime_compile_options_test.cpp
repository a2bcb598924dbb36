// The public API's compile options and per-program backend choice
// (include/hlograph/client.h): the GPU execution mode and the progress
// callback, and "auto" compiling a program the GPU backend cannot run for
// the CPU, with the reason.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hlograph/hlograph.h"
#include "test_util.h"

namespace hlograph {
namespace {

constexpr const char* kScale = R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.constant dense<2.5> : tensor<4xf32>
  %y = stablehlo.multiply %x, %c : tensor<4xf32>
  %z = stablehlo.exponential %y : tensor<4xf32>
  return %z : tensor<4xf32>
}
)";

// The GPU backend takes no i4 arrays (an argument of one keeps the program
// off the GPU); the CPU interpreter runs it.
constexpr const char* kInt4 = R"(
func.func @main(%x: tensor<4xi4>) -> tensor<4xi4> {
  %y = stablehlo.add %x, %x : tensor<4xi4>
  return %y : tensor<4xi4>
}
)";

std::unique_ptr<Client> ClientOrDie(const std::string& backend) {
  ClientOptions options;
  options.backend = backend;
  StatusOr<std::unique_ptr<Client>> client = Client::Create(options);
  EXPECT_TRUE(client.ok()) << client.status().message();
  return client.ok() ? std::move(client.value()) : nullptr;
}

struct ProgressLog {
  int calls = 0;
  size_t last = 0, total = 0;
  bool rising = true;
};

CompileOptions Options(GpuExecutionMode mode, ProgressLog* log) {
  CompileOptions options;
  options.gpu_mode = mode;
  options.progress = [log](size_t compiled, size_t total) {
    log->rising = log->rising && compiled >= log->last && compiled <= total;
    log->last = compiled;
    log->total = total;
    ++log->calls;
  };
  return options;
}

// Compiles kScale with `options` and runs it on 0, 1, 2, 3.
std::vector<float> RunScale(const Client& client, const CompileOptions& options) {
  StatusOr<std::unique_ptr<Executable>> exe = client.Compile(kScale, options);
  EXPECT_TRUE(exe.ok()) << exe.status().message();
  if (!exe.ok()) return {};
  StatusOr<std::vector<Array>> out = (*exe)->Execute({Array::FromValues<float>({4}, {0.0f, 1.0f, 2.0f, 3.0f})});
  EXPECT_TRUE(out.ok()) << out.status().message();
  if (!out.ok()) return {};
  return std::vector<float>((*out)[0].data<float>(), (*out)[0].data<float>() + 4);
}

TEST(RuntimeCompileOptionsTest, CpuTakesStreamModeAndCompilesNoKernels) {
  std::unique_ptr<Client> client = ClientOrDie("cpu");
  ASSERT_NE(client, nullptr);
  ProgressLog graph_log, stream_log;
  const std::vector<float> graph = RunScale(*client, Options(GpuExecutionMode::kGraph, &graph_log));
  const std::vector<float> stream = RunScale(*client, Options(GpuExecutionMode::kStream, &stream_log));
  ASSERT_EQ(graph.size(), 4u);
  EXPECT_EQ(graph, stream);
  EXPECT_EQ(graph_log.calls, 0);
  EXPECT_EQ(stream_log.calls, 0);
}

TEST(RuntimeCompileOptionsTest, GpuReportsKernelsCompiledInBothModes) {
  ClientOptions options;
  options.backend = "gpu";
  StatusOr<std::unique_ptr<Client>> client = Client::Create(options);
  if (!client.ok()) GTEST_SKIP() << client.status().message();
  std::unique_ptr<Client> cpu = ClientOrDie("cpu");
  ASSERT_NE(cpu, nullptr);
  ProgressLog unused;
  const std::vector<float> expected = RunScale(*cpu, Options(GpuExecutionMode::kGraph, &unused));
  for (GpuExecutionMode mode : {GpuExecutionMode::kGraph, GpuExecutionMode::kStream}) {
    ProgressLog log;
    const std::vector<float> got = RunScale(**client, Options(mode, &log));
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], expected[i], 1e-5f * expected[i]) << i;
    // A kernel cache may have them all already: then nothing is compiled.
    EXPECT_TRUE(log.rising);
    if (log.calls > 0) {
      EXPECT_EQ(log.last, log.total);
    }
  }
}

TEST(RuntimeCompileOptionsTest, CpuClientsHaveNoBackendNote) {
  std::unique_ptr<Client> client = ClientOrDie("cpu");
  ASSERT_NE(client, nullptr);
  StatusOr<std::unique_ptr<Executable>> exe = client->Compile(kInt4);
  ASSERT_TRUE(exe.ok()) << exe.status().message();
  EXPECT_EQ((*exe)->backend_name(), "cpu");
  EXPECT_EQ((*exe)->backend_note(), "");
}

// "auto" on a machine with a GPU compiles a program the GPU backend cannot
// plan for the CPU and says why; without one every program is on the CPU
// and no note is due.
TEST(RuntimeCompileOptionsTest, AutoFallsBackPerProgramWithANote) {
  std::unique_ptr<Client> client = ClientOrDie("auto");
  ASSERT_NE(client, nullptr);
  StatusOr<std::unique_ptr<Executable>> exe = client->Compile(kInt4);
  ASSERT_TRUE(exe.ok()) << exe.status().message();
  EXPECT_EQ((*exe)->backend_name(), "cpu");
  if (client->backend_name() == "gpu") {
    EXPECT_TRUE(testing::HasSubstr((*exe)->backend_note(), "tensor<4xi4>"));
    StatusOr<std::unique_ptr<Executable>> on_gpu = client->Compile(kScale);
    ASSERT_TRUE(on_gpu.ok()) << on_gpu.status().message();
    EXPECT_EQ((*on_gpu)->backend_name(), "gpu");
    EXPECT_EQ((*on_gpu)->backend_note(), "");
  } else {
    EXPECT_EQ((*exe)->backend_note(), "");
  }
  Array x(ElementType::kS4, {4});
  const std::vector<int8_t> values = {-3, 1, 3, -8};
  for (size_t i = 0; i < values.size(); ++i) x.mutable_data<int8_t>()[i] = values[i];
  StatusOr<std::vector<Array>> out = (*exe)->Execute({x});
  ASSERT_TRUE(out.ok()) << out.status().message();
  const std::vector<int8_t> doubled = {-6, 2, 6, 0};  // i4 wraps: -8 + -8 is 0
  for (size_t i = 0; i < doubled.size(); ++i) EXPECT_EQ((*out)[0].at<int8_t>(static_cast<int64_t>(i)), doubled[i]) << i;
}

}  // namespace
}  // namespace hlograph
