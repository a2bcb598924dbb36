// `hlograph run` end to end: arguments from .npz / .npy files or random,
// checked against the signature; results printed or written all or nothing.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "cli_util.h"
#include "io/npy.h"
#include "io/npz.h"

namespace hlograph::testing {
namespace {

constexpr const char* kAddScale = R"(func.func @main(%a: tensor<3xf32>, %b: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>) {
  %0 = stablehlo.broadcast_in_dim %a, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = stablehlo.add %0, %b : tensor<2x3xf32>
  %2 = stablehlo.multiply %a, %a : tensor<3xf32>
  return %1, %2 : tensor<2x3xf32>, tensor<3xf32>
}
)";

io::NpyArray F32(std::vector<int64_t> shape, const std::vector<float>& values) {
  io::NpyArray a;
  a.descr = "<f4";
  a.shape = std::move(shape);
  a.data.resize(values.size() * sizeof(float));
  std::memcpy(a.data.data(), values.data(), a.data.size());
  return a;
}

std::vector<float> Floats(const io::NpyArray& a) {
  std::vector<float> v(a.data.size() / sizeof(float));
  std::memcpy(v.data(), a.data.data(), a.data.size());
  return v;
}

std::string Path(const std::string& name) { return Scratch().path() + "/" + name; }

TEST(CliRun, NpzInAndOut) {
  const std::string program = WriteScratch("add.mlir", kAddScale);
  const std::vector<float> a = {1, -2, 0.5f}, b = {10, 20, 30, 40, 50, 60};
  ASSERT_TRUE(io::WriteNpz(Path("in.npz"), {{"arr_0", F32({3}, a)}, {"arr_1", F32({2, 3}, b)}}).ok());
  CliResult r = Hlograph("run " + Quote(program) + " --inputs " + Quote(Path("in.npz")) + " --output " +
                         Quote(Path("out.npz")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto out = io::ReadNpz(Path("out.npz"));
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->size(), 2u);
  EXPECT_EQ((*out)[0].first, "arr_0");
  EXPECT_EQ((*out)[0].second.shape, (std::vector<int64_t>{2, 3}));
  std::vector<float> sum(6), square(3);
  for (int i = 0; i < 6; ++i) sum[i] = a[i % 3] + b[i];
  for (int i = 0; i < 3; ++i) square[i] = a[i] * a[i];
  EXPECT_EQ(Floats((*out)[0].second), sum);
  EXPECT_EQ(Floats((*out)[1].second), square);
}

TEST(CliRun, NpyArgumentsInOrderAndPrintedResults) {
  const std::string program = WriteScratch("add.mlir", kAddScale);
  ASSERT_TRUE(io::WriteNpy(Path("a.npy"), F32({3}, {1, 2, 3})).ok());
  ASSERT_TRUE(io::WriteNpy(Path("b.npy"), F32({2, 3}, {0, 0, 0, 1, 1, 1})).ok());
  CliResult r = Hlograph("run " + Quote(program) + " --input " + Quote(Path("a.npy")) + " --input " +
                         Quote(Path("b.npy")));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(HasSubstr(r.out, "result[0]: tensor<2x3xf32> [1, 2, 3, 2, 3, 4]")) << r.out;
  EXPECT_TRUE(HasSubstr(r.out, "result[1]: tensor<3xf32> [1, 4, 9]")) << r.out;
}

TEST(CliRun, ArgumentsAreCheckedAgainstTheSignature) {
  const std::string program = WriteScratch("add.mlir", kAddScale);
  ASSERT_TRUE(io::WriteNpy(Path("a.npy"), F32({3}, {1, 2, 3})).ok());
  ASSERT_TRUE(io::WriteNpy(Path("wrong.npy"), F32({3, 2}, {0, 0, 0, 1, 1, 1})).ok());
  CliResult few = Hlograph("run " + Quote(program) + " --input " + Quote(Path("a.npy")));
  EXPECT_EQ(few.exit_code, 1);
  EXPECT_TRUE(HasSubstr(few.err, "takes 2 arguments but 1 were given")) << few.err;
  CliResult shape = Hlograph("run " + Quote(program) + " --input " + Quote(Path("a.npy")) + " --input " +
                             Quote(Path("wrong.npy")) + " --output " + Quote(Path("never.npz")));
  EXPECT_EQ(shape.exit_code, 1);
  EXPECT_TRUE(HasSubstr(shape.err, "argument 1")) << shape.err;
  EXPECT_FALSE(std::filesystem::exists(Path("never.npz")));
}

TEST(CliRun, FailedRunWritesNoOutput) {
  const std::string program = WriteScratch("unknown.mlir", R"(func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.custom_call @no_such_target(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
)");
  CliResult r = Hlograph("run " + Quote(program) + " --random 1 --output " + Quote(Path("failed.npz")));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(HasSubstr(r.err, "no_such_target")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(Path("failed.npz")));
  // An output path in a missing directory fails cleanly too.
  const std::string add = WriteScratch("add.mlir", kAddScale);
  CliResult bad = Hlograph("run " + Quote(add) + " --random 1 --output " + Quote(Path("missing/out.npz")));
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_FALSE(bad.err.empty());
}

TEST(CliRun, RandomArgumentsAreDeterministicPerSeed) {
  const std::string program = Corpus("mlp_grad.mlir");
  CliResult first = Hlograph("run " + Quote(program) + " --random 7");
  CliResult again = Hlograph("run " + Quote(program) + " --random 7");
  CliResult other = Hlograph("run " + Quote(program) + " --random 8");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(first.out, again.out);
  EXPECT_NE(first.out, other.out);
  EXPECT_TRUE(HasSubstr(first.out, "result[0]: tensor<"));
  EXPECT_EQ(Hlograph("run " + Quote(program) + " --random -1").exit_code, 2);
  EXPECT_EQ(Hlograph("run " + Quote(program) + " --random 1 --input x.npy").exit_code, 2);
}

TEST(CliRun, ProgramFromStandardInput) {
  const std::string program = Corpus("mlp_grad.mlir");
  CliResult piped = HlographReading(program, "run - --random 7");
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out, Hlograph("run " + Quote(program) + " --random 7").out);
  CliResult two_modules = HlographReading(Corpus("multi_module.mlir"), "run - --random 0");
  EXPECT_EQ(two_modules.exit_code, 1);
  EXPECT_TRUE(HasSubstr(two_modules.err, "<stdin>: error: run takes a file with one module")) << two_modules.err;
}

TEST(CliCheck, ProgramFromStandardInput) {
  CliResult r = HlographReading(SourceDir() + "/tests/check/control_flow.mlir", "check -");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(HasSubstr(r.out, "PASS <stdin>:")) << r.out;
  EXPECT_TRUE(HasSubstr(r.out, " passed, 0 failed\n")) << r.out;
}

TEST(CliBench, ProgramFromStandardInput) {
  CliResult r = HlographReading(Corpus("softmax.mlir"), "bench - --backend cpu --iters 2 --warmup 1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(HasSubstr(r.out, "{\"file\": \"<stdin>\"")) << r.out;
}

TEST(CliBench, TimesCallsAndPrintsJson) {
  CliResult r = Hlograph("bench " + Quote(Corpus("softmax.mlir")) + " --backend cpu --iters 5 --warmup 1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key : {"\"latency_us\"", "\"median\"", "\"queued_us\"", "\"compile_s\"", "\"backend\": \"cpu\""}) {
    EXPECT_TRUE(HasSubstr(r.out, key)) << r.out;
  }
  CliResult text = Hlograph("bench " + Quote(Corpus("softmax.mlir")) + " --backend cpu --iters 3");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_TRUE(HasSubstr(text.out, "latency per call   median"));
  EXPECT_EQ(Hlograph("bench " + Quote(Corpus("softmax.mlir")) + " --iters many").exit_code, 2);
  EXPECT_EQ(Hlograph("bench " + Quote(Corpus("softmax.mlir")) + " --cooldown soon").exit_code, 2);
  CliResult bad_mode = Hlograph("bench " + Quote(Corpus("softmax.mlir")) + " --mode fast");
  EXPECT_EQ(bad_mode.exit_code, 2);
  EXPECT_TRUE(HasSubstr(bad_mode.err, "--mode must be graph or stream")) << bad_mode.err;
  EXPECT_EQ(Hlograph("bench " + Quote(Corpus("softmax.mlir")) + " --backend cpu --iters 2 --cooldown 5").exit_code, 0);
  CliResult no_sets = Hlograph("bench " + Quote(Corpus("softmax.mlir")) + " --result-sets 0");
  EXPECT_EQ(no_sets.exit_code, 2);
  EXPECT_TRUE(HasSubstr(no_sets.err, "--result-sets needs a count of at least 1")) << no_sets.err;
  EXPECT_EQ(Hlograph("bench " + Quote(Corpus("softmax.mlir")) + " --backend cpu --iters 2 --result-sets 2").exit_code,
            0);
  // --profile and --timeline measure GPU kernels: on the CPU backend it
  // says so and the timing still comes (no kernel fields in the JSON).
  CliResult profiled =
      Hlograph("bench " + Quote(Corpus("softmax.mlir")) + " --backend cpu --iters 2 --profile --timeline --json");
  ASSERT_EQ(profiled.exit_code, 0) << profiled.err;
  EXPECT_TRUE(HasSubstr(profiled.err, "--profile and --timeline measure GPU kernels; ignored on the CPU backend"));
  EXPECT_TRUE(HasSubstr(profiled.out, "\"queued_us\""));
  EXPECT_FALSE(HasSubstr(profiled.out, "kernel_busy_us"));
}

// --trace promises a file of GPU activity: on the CPU backend that is bad
// usage, said before any call, and no file appears.
TEST(CliBench, TraceNeedsTheGpuBackend) {
  const std::string trace = Scratch().path() + "/never.json";
  CliResult r = Hlograph("bench " + Quote(Corpus("softmax.mlir")) + " --backend cpu --iters 2 --trace " + Quote(trace));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(HasSubstr(r.err, "--trace records one call's GPU kernels")) << r.err;
  EXPECT_TRUE(HasSubstr(r.err, "this run is on the CPU backend")) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_FALSE(std::filesystem::exists(trace));
  CliResult unnamed = Hlograph("bench " + Quote(Corpus("softmax.mlir")) + " --trace ''");
  EXPECT_EQ(unnamed.exit_code, 2);
  EXPECT_TRUE(HasSubstr(unnamed.err, "--trace needs a file name")) << unnamed.err;
}

}  // namespace
}  // namespace hlograph::testing
