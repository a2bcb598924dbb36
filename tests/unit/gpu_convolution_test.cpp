// stablehlo.convolution on the GPU backend: cuDNN for the convolutions it
// computes as they are, otherwise one generated kernel with its elementwise
// producers fused in, for every attribute the spec has. The plans and the
// NVRTC compile need no GPU; the comparison with the interpreter skips
// without one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "backends/cpu/element_types.h"
#include "backends/cpu/interpreter.h"
#include "backends/cpu/random_tensor.h"
#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/codegen/nvrtc_compiler.h"
#include "backends/gpu/executable.h"
#include "backends/gpu/plan/planner.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

struct Case {
  const char* name;
  const char* text;
  int cudnn = 0;      // how many of its convolutions cuDNN runs
  bool tf32 = false;  // f32 products at DEFAULT precision may round their operands to TF32
};

// Window attributes and layouts the corpus does not reach: negative padding,
// reversal, lhs and rhs dilation with strides, feature and batch groups in
// permuted layouts, sums long enough for a warp per output, mixed types.
const Case kCases[] = {
    {"negative_padding_reversal_dilations", R"(
func.func @main(%x: tensor<2x7x6x3xf32>, %w: tensor<3x2x3x4xf32>) -> tensor<2x6x4x4xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 1], pad = [[-1, 2], [1, -1]], lhs_dilate = [2, 1], rhs_dilate = [1, 2], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x7x6x3xf32>, tensor<3x2x3x4xf32>) -> tensor<2x6x4x4xf32>
  return %0 : tensor<2x6x4x4xf32>
})"},
    {"transposed_1d_reversed", R"(
func.func @main(%x: tensor<2x3x9xf32>, %w: tensor<4x3x4xf32>) -> tensor<2x4x10xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [2], pad = [[-2, 3]], lhs_dilate = [3], rhs_dilate = [2], reverse = [true]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x9xf32>, tensor<4x3x4xf32>) -> tensor<2x4x10xf32>
  return %0 : tensor<2x4x10xf32>
})"},
    {"feature_groups_permuted_layouts", R"(
func.func @main(%x: tensor<5x4x3x4xf32>, %w: tensor<2x6x2x3xf32>) -> tensor<6x5x3x3xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [0, f, b, 1]x[i, o, 1, 0]->[f, 0, b, 1], window = {stride = [1, 1], pad = [[1, 1], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64} : (tensor<5x4x3x4xf32>, tensor<2x6x2x3xf32>) -> tensor<6x5x3x3xf32>
  return %0 : tensor<6x5x3x3xf32>
})"},
    {"batch_groups", R"(
func.func @main(%x: tensor<4x5x5x3xf32>, %w: tensor<2x2x3x6xf32>) -> tensor<2x4x4x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64} : (tensor<4x5x5x3xf32>, tensor<2x2x3x6xf32>) -> tensor<2x4x4x6xf32>
  return %0 : tensor<2x4x4x6xf32>
})"},
    {"weight_gradient_warp_per_output", R"(
func.func @main(%x: tensor<16x6x6x4xf32>, %w: tensor<16x3x3x6xf32>) -> tensor<4x4x2x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 2 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<16x6x6x4xf32>, tensor<16x3x3x6xf32>) -> tensor<4x4x2x6xf32>
  return %0 : tensor<4x4x2x6xf32>
})"},
    {"fused_pad_reverse_convert_bf16", R"(
func.func @main(%x: tensor<2x5x5x3xf32>, %w: tensor<3x3x3x4xbf16>) -> tensor<2x7x4x4xbf16> {
  %z = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
  %c = stablehlo.convert %x : (tensor<2x5x5x3xf32>) -> tensor<2x5x5x3xbf16>
  %p = stablehlo.pad %c, %z, low = [0, 1, -1, 0], high = [0, 0, 2, 0], interior = [0, 1, 0, 0] : (tensor<2x5x5x3xbf16>, tensor<bf16>) -> tensor<2x10x6x3xbf16>
  %r = stablehlo.reverse %w, dims = [0, 1] : tensor<3x3x3x4xbf16>
  %0 = stablehlo.convolution(%p, %r) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[-1, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x6x3xbf16>, tensor<3x3x3x4xbf16>) -> tensor<2x7x4x4xbf16>
  return %0 : tensor<2x7x4x4xbf16>
})"},
    {"int8_to_int32", R"(
func.func @main(%x: tensor<1x6x6x8xi8>, %w: tensor<3x3x8x2xi8>) -> tensor<1x4x4x2xi32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x6x6x8xi8>, tensor<3x3x8x2xi8>) -> tensor<1x4x4x2xi32>
  return %0 : tensor<1x4x4x2xi32>
})"},
    {"f16_to_f32_and_f64", R"(
func.func @main(%x: tensor<2x3x8xf16>, %w: tensor<4x3x3xf16>, %y: tensor<2x3x8xf64>, %v: tensor<4x3x3xf64>) -> (tensor<2x4x6xf32>, tensor<2x4x8xf64>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[0, 0]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x8xf16>, tensor<4x3x3xf16>) -> tensor<2x4x6xf32>
  %1 = stablehlo.convolution(%y, %v) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[1, 1]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x3x8xf64>, tensor<4x3x3xf64>) -> tensor<2x4x8xf64>
  return %0, %1 : tensor<2x4x6xf32>, tensor<2x4x8xf64>
})", 1},
    // cuDNN from here on.
    {"cudnn_nhwc_hwio_same_bias_relu", R"(
func.func @main(%x: tensor<4x16x16x8xf32>, %w: tensor<3x3x8x16xf32>, %b: tensor<16xf32>) -> tensor<4x16x16x16xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<4x16x16x8xf32>, tensor<3x3x8x16xf32>) -> tensor<4x16x16x16xf32>
  %1 = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<16xf32>) -> tensor<4x16x16x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<4x16x16x16xf32>
  %z = stablehlo.constant dense<0.000000e+00> : tensor<4x16x16x16xf32>
  %3 = stablehlo.maximum %2, %z : tensor<4x16x16x16xf32>
  return %3 : tensor<4x16x16x16xf32>
})", 1, true},
    {"cudnn_nchw_groups_stride_dilation_highest", R"(
func.func @main(%x: tensor<2x6x13x11xf32>, %w: tensor<4x3x3x2xf32>) -> tensor<2x4x6x5xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [2, 2], pad = [[1, 1], [0, 0]], rhs_dilate = [2, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x6x13x11xf32>, tensor<4x3x3x2xf32>) -> tensor<2x4x6x5xf32>
  return %0 : tensor<2x4x6x5xf32>
})", 1},
    {"cudnn_f16_nhwc_and_bf16_nchw", R"(
func.func @main(%x: tensor<2x9x9x16xf16>, %w: tensor<3x3x16x8xf16>, %y: tensor<2x8x7x7xbf16>, %v: tensor<8x8x1x1xbf16>) -> (tensor<2x9x9x8xf16>, tensor<2x8x7x7xbf16>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x9x9x16xf16>, tensor<3x3x16x8xf16>) -> tensor<2x9x9x8xf16>
  %1 = stablehlo.convolution(%y, %v) dim_numbers = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x8x7x7xbf16>, tensor<8x8x1x1xbf16>) -> tensor<2x8x7x7xbf16>
  return %0, %1 : tensor<2x9x9x8xf16>, tensor<2x8x7x7xbf16>
})", 2},
    {"cudnn_3d_ndhwc_and_1d_nwc", R"(
func.func @main(%x: tensor<2x6x6x6x4xf32>, %w: tensor<3x3x3x4x5xf32>, %y: tensor<3x20x6xf32>, %v: tensor<5x6x7xf32>) -> (tensor<2x6x6x6x5xf32>, tensor<3x16x7xf32>) {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, 2, f]x[0, 1, 2, i, o]->[b, 0, 1, 2, f], window = {stride = [1, 1, 1], pad = [[1, 1], [1, 1], [1, 1]], rhs_dilate = [1, 1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x6x6x6x4xf32>, tensor<3x3x3x4x5xf32>) -> tensor<2x6x6x6x5xf32>
  %1 = stablehlo.convolution(%y, %v) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 0]], rhs_dilate = [1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<3x20x6xf32>, tensor<5x6x7xf32>) -> tensor<3x16x7xf32>
  return %0, %1 : tensor<2x6x6x6x5xf32>, tensor<3x16x7xf32>
})", 2},
    {"cudnn_uneven_padding_stride_2", R"(
func.func @main(%x: tensor<2x8x9x5xf32>, %w: tensor<3x3x5x6xf32>) -> tensor<2x4x6x6xf32> {
  %0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [2, 3]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision HIGHEST>, #stablehlo<precision HIGHEST>]} : (tensor<2x8x9x5xf32>, tensor<3x3x5x6xf32>) -> tensor<2x4x6x6xf32>
  return %0 : tensor<2x4x6x6xf32>
})", 1},
};

constexpr size_t kFirstCudnnCase = 8;  // the first with only cuDNN convolutions

std::vector<const ConvolutionStep*> CudnnSteps(const GpuProgram& program) {
  std::vector<const ConvolutionStep*> steps;
  ForEachStep(program.main, [&](const Step& s, int) {
    if (const auto* c = std::get_if<ConvolutionStep>(&s.action)) steps.push_back(c);
  });
  return steps;
}

StatusOr<GpuProgram> PlanText(const std::string& text, std::vector<std::unique_ptr<ir::Module>>& modules) {
  modules = testing::ParseOrDie(text);
  if (modules.empty()) return Status::Error("no module");
  return PlanProgram(*modules[0]);
}

TEST(GpuConvolution, ProducersFuseIntoOneKernel) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kCases[5].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  ASSERT_EQ(program->fusions.size(), 1u) << program->ToString();
  const Fusion& f = program->fusions[0];
  EXPECT_EQ(f.kind, FusionKind::kConvolution);
  EXPECT_EQ(f.ops.size(), 5u);  // constant, convert, pad, reverse, convolution
  EXPECT_EQ(f.inputs.size(), 2u);
}

TEST(GpuConvolution, WarpPerOutputWhenTheSumsAreLong) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kCases[4].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  auto k = EmitKernel(program->fusions[0]);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_EQ(k->strategy, "convolution (warp per output)");
  EXPECT_TRUE(testing::HasSubstr(k->code, "__shfl_down_sync"));
}

TEST(GpuConvolution, CudnnTakesWhatItComputesAsIs) {
  for (const Case& c : kCases) {
    std::vector<std::unique_ptr<ir::Module>> modules;
    auto program = PlanText(c.text, modules);
    ASSERT_TRUE(program.ok()) << c.name << ": " << program.status().message();
    EXPECT_EQ(CudnnSteps(*program).size(), static_cast<size_t>(c.cudnn)) << c.name << "\n" << program->ToString();
  }
}

TEST(GpuConvolution, CudnnConfigOfJaxLayout) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kCases[kFirstCudnnCase].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  const auto steps = CudnnSteps(*program);
  ASSERT_EQ(steps.size(), 1u);
  const ConvConfig& c = steps[0]->config;
  EXPECT_TRUE(c.channels_last);
  EXPECT_TRUE(c.allow_tf32);
  EXPECT_EQ(c.input_dims, (std::vector<int64_t>{4, 8, 16, 16}));
  EXPECT_EQ(c.input_strides, (std::vector<int64_t>{2048, 1, 128, 8}));
  // HWIO [3, 3, 8, 16] seen as KCRS: not KRSC, so Run repacks it.
  EXPECT_EQ(c.filter_dims, (std::vector<int64_t>{16, 8, 3, 3}));
  EXPECT_EQ(c.filter_strides, (std::vector<int64_t>{1, 16, 384, 128}));
  EXPECT_FALSE(c.filter_packed());
  EXPECT_EQ(c.padding, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(c.ToString(),
            "cudnn conv f32 NHWC in 4x8x16x16 filter 16x8x3x3 (repacked) out 4x16x16x16 pad [1,1] stride [1,1] "
            "dilation [1,1] tf32");
  // The bias and relu after it are one loop kernel reading the convolution's result.
  EXPECT_EQ(program->fusions.size(), 1u) << program->ToString();
}

TEST(GpuConvolution, OneDimensionalGetsAUnitHeight) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kCases[kFirstCudnnCase + 3].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  const auto steps = CudnnSteps(*program);
  ASSERT_EQ(steps.size(), 2u);
  const ConvConfig& c = steps[1]->config;  // [b, 0, f] 3x20x6 by [0, i, o] 5x6x7
  EXPECT_EQ(c.input_dims, (std::vector<int64_t>{3, 6, 1, 20}));
  EXPECT_EQ(c.input_strides, (std::vector<int64_t>{120, 1, 120, 6}));
  EXPECT_EQ(c.filter_dims, (std::vector<int64_t>{7, 6, 1, 5}));
  EXPECT_EQ(c.output_dims, (std::vector<int64_t>{3, 7, 1, 16}));
  EXPECT_EQ(c.padding, (std::vector<int64_t>{0, 0}));
  EXPECT_FALSE(c.allow_tf32);
  EXPECT_EQ(steps[0]->config.spatial_rank(), 3);
}

TEST(GpuConvolution, UnevenPaddingIsACopy) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kCases[kFirstCudnnCase + 4].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  const auto steps = CudnnSteps(*program);
  ASSERT_EQ(steps.size(), 1u);
  const ConvConfig& c = steps[0]->config;
  EXPECT_EQ(c.padding, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(c.explicit_padding_low, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(c.explicit_padding_high, (std::vector<int64_t>{1, 3}));
  EXPECT_TRUE(testing::HasSubstr(c.ToString(), "pad [0,2]-[1,3] (padded copy)")) << c.ToString();
}

TEST(GpuConvolution, ExplainSaysWhyNotCudnn) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = PlanText(kCases[0].text, modules);
  ASSERT_TRUE(program.ok()) << program.status().message();
  EXPECT_TRUE(testing::HasSubstr(program->ToString(), "(not cuDNN: lhs dilation (a transposed convolution))"))
      << program->ToString();
}

TEST(GpuConvolution, EnvironmentTurnsCudnnOff) {
  std::vector<std::unique_ptr<ir::Module>> modules;
  auto program = [&] {
    const testing::ScopedEnv no_cudnn("HLOGRAPH_GPU_CUDNN", "0");
    return PlanText(kCases[kFirstCudnnCase].text, modules);
  }();
  ASSERT_TRUE(program.ok()) << program.status().message();
  EXPECT_TRUE(CudnnSteps(*program).empty());
  ASSERT_EQ(program->fusions.size(), 2u);  // the convolution, then bias and relu
  EXPECT_EQ(program->fusions[0].kind, FusionKind::kConvolution);
}

TEST(GpuConvolution, EveryCaseCompiles) {
  for (const Case& c : kCases) {
    std::vector<std::unique_ptr<ir::Module>> modules;
    auto program = PlanText(c.text, modules);
    ASSERT_TRUE(program.ok()) << c.name << ": " << program.status().message();
    for (const Fusion& f : program->fusions) {
      auto k = EmitKernel(f);
      ASSERT_TRUE(k.ok()) << c.name << ": " << k.status().message();
      auto cubin = CompileToCubin(k->code, k->name, CompileOptions{});
      EXPECT_TRUE(cubin.ok()) << c.name << ": " << cubin.status().message() << "\n" << k->code;
    }
  }
}

// Integers exactly; floats within a normwise bound (the summation order
// differs from the interpreter's GEMM; TF32 rounds f32 operands to 10 bits).
std::string Compare(const cpu::Tensor& want, const cpu::Tensor& got, bool tf32) {
  if (want.type() != got.type()) return "type " + got.type().ToString();
  std::string problem;
  cpu::DispatchElementType(want.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* w = want.data<T>();
    const T* g = got.data<T>();
    if constexpr (cpu::kIsFloat<T>) {
      const double rtol = sizeof(T) == 2 ? 2e-2 : tf32 ? 5e-3 : 1e-5;
      double scale = 0;
      for (int64_t i = 0; i < want.num_elements(); ++i) scale = std::max(scale, std::fabs(double(cpu::Load(w[i]))));
      for (int64_t i = 0; i < want.num_elements() && problem.empty(); ++i) {
        const double x = double(cpu::Load(w[i])), y = double(cpu::Load(g[i]));
        if (!(std::fabs(x - y) <= 1e-6 + rtol * scale)) {
          problem = "element " + std::to_string(i) + ": cpu " + std::to_string(x) + ", gpu " + std::to_string(y);
        }
      }
    } else if constexpr (!cpu::kIsComplex<T>) {
      if (std::memcmp(w, g, want.byte_size()) != 0) problem = "integer results differ";
    }
  });
  return problem;
}

TEST(GpuConvolution, EveryCaseMatchesTheInterpreter) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  for (const Case& c : kCases) {
    std::vector<std::unique_ptr<ir::Module>> modules = testing::ParseOrDie(c.text);
    ASSERT_FALSE(modules.empty());
    const ir::Operation* entry = modules[0]->EntryFunction();
    auto args = cpu::RandomTensors(ir::FunctionSignature(*entry).inputs, 7);
    ASSERT_TRUE(args.ok()) << c.name;
    auto want = cpu::Interpreter(*modules[0]).Call(*entry, *args);
    ASSERT_TRUE(want.ok()) << c.name << ": " << want.status().message();
    auto exe = GpuExecutable::Compile(*modules[0]);
    ASSERT_TRUE(exe.ok()) << c.name << ": " << exe.status().message();
    auto got = (*exe)->Run(*args);
    ASSERT_TRUE(got.ok()) << c.name << ": " << got.status().message();
    EXPECT_EQ((*exe)->stats().convolution_calls, static_cast<int64_t>(CudnnSteps((*exe)->program()).size()))
        << c.name;
    ASSERT_EQ(got->size(), want->size());
    for (size_t i = 0; i < want->size(); ++i) {
      const std::string problem = Compare((*want)[i], (*got)[i], c.tf32);
      EXPECT_TRUE(problem.empty()) << c.name << " result " << i << ": " << problem;
    }
  }
}

}  // namespace
}  // namespace hlograph::gpu
