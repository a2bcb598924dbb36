// chlo.scan on the CPU interpreter: cumulative sums worked out by hand,
// forward and reverse along either axis, with their final carries; several
// inputs and carries with a body that is not associative; and JAX's
// exported composite, run by its decomposition and raised into a chlo.scan
// (passes/raise_scan_composites.h), giving the same bits.
#include <gtest/gtest.h>

#include "cpu_test_util.h"
#include "ir/clone.h"
#include "passes/raise_scan_composites.h"
#include "test_util.h"

namespace hlograph::cpu {
namespace {

using test_util::Make;
using test_util::RunOk;
using test_util::Values;

// x: tensor<2x3xf32> scanned along `dim` by add from `init`.
std::string Cumsum(int dim, bool reverse, const std::string& init_type) {
  const std::string s = dim == 0 ? "tensor<3xf32>" : "tensor<2xf32>";
  return "func.func @main(%x: tensor<2x3xf32>, %i: " + init_type + ") -> (tensor<2x3xf32>, " + s + ") {\n" +
         "  %r:2 = chlo.scan(%x) inits (%i) dimension=" + std::to_string(dim) +
         "  attributes {is_associative = true, is_reverse = " + (reverse ? "true" : "false") + "} {\n" +
         "  ^bb0(%input: " + s + ", %carry: " + s + "):\n" +
         "    %y = stablehlo.add %input, %carry : " + s + "\n" +
         "    stablehlo.return %y, %y : " + s + ", " + s + "\n" +
         "  } : (tensor<2x3xf32>, " + s + ") -> (tensor<2x3xf32>, " + s + ")\n" +
         "  return %r#0, %r#1 : tensor<2x3xf32>, " + s + "\n}\n";
}

TEST(CpuScan, CumulativeSumsAlongEitherAxisEitherWay) {
  const Tensor x = Make<float>(ir::ElementType::kF32, {2, 3}, {1, 2, 3, 4, 5, 6});
  struct Case {
    int dim;
    bool reverse;
    std::vector<float> init, out, carry;
  };
  const std::vector<Case> cases = {
      {1, false, {0, 0}, {1, 3, 6, 4, 9, 15}, {6, 15}},
      {1, true, {0, 0}, {6, 5, 3, 15, 11, 6}, {6, 15}},
      {0, false, {0, 0, 0}, {1, 2, 3, 5, 7, 9}, {5, 7, 9}},
      {0, true, {0, 0, 0}, {5, 7, 9, 4, 5, 6}, {5, 7, 9}},
      // The carry starts at the init: each line from its own.
      {1, false, {10, 20}, {11, 13, 16, 24, 29, 35}, {16, 35}},
      {0, true, {100, 200, 300}, {105, 207, 309, 104, 205, 306}, {105, 207, 309}},
  };
  for (const Case& c : cases) {
    const int64_t n = static_cast<int64_t>(c.init.size());
    const std::string s = "tensor<" + std::to_string(n) + "xf32>";
    auto r = RunOk(Cumsum(c.dim, c.reverse, s), {x, Make<float>(ir::ElementType::kF32, {n}, c.init)});
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(Values<float>(r[0]), c.out) << "dim " << c.dim << (c.reverse ? " reverse" : "");
    EXPECT_EQ(Values<float>(r[1]), c.carry) << "dim " << c.dim << (c.reverse ? " reverse" : "");
  }
}

TEST(CpuScan, SeveralInputsAndCarriesInOrder) {
  // out0 = x - c0 (not associative: the order shows), out1 = y * 2,
  // c0' = out0, c1' = c1 + y (a count of y) along the 4 positions of axis 0.
  const std::string text = R"(
func.func @main(%x: tensor<4x2xf32>, %y: tensor<4x2xi32>, %c0: tensor<2xf32>, %c1: tensor<2xi32>)
    -> (tensor<4x2xf32>, tensor<4x2xi32>, tensor<2xf32>, tensor<2xi32>) {
  %two = stablehlo.constant dense<2> : tensor<2xi32>
  %r:4 = chlo.scan(%x, %y) inits (%c0, %c1) dimension=0  {
  ^bb0(%a: tensor<2xf32>, %b: tensor<2xi32>, %p: tensor<2xf32>, %q: tensor<2xi32>):
    %d = stablehlo.subtract %a, %p : tensor<2xf32>
    %t = stablehlo.constant dense<2> : tensor<2xi32>
    %m = stablehlo.multiply %b, %t : tensor<2xi32>
    %s = stablehlo.add %q, %b : tensor<2xi32>
    stablehlo.return %d, %m, %d, %s : tensor<2xf32>, tensor<2xi32>, tensor<2xf32>, tensor<2xi32>
  } : (tensor<4x2xf32>, tensor<4x2xi32>, tensor<2xf32>, tensor<2xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>, tensor<2xf32>, tensor<2xi32>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<4x2xf32>, tensor<4x2xi32>, tensor<2xf32>, tensor<2xi32>
})";
  auto r = RunOk(text, {Make<float>(ir::ElementType::kF32, {4, 2}, {1, 10, 2, 20, 3, 30, 4, 40}),
                        Make<int32_t>(ir::ElementType::kI32, {4, 2}, {1, 2, 3, 4, 5, 6, 7, 8}),
                        Make<float>(ir::ElementType::kF32, {2}, {0.5f, 0}),
                        Make<int32_t>(ir::ElementType::kI32, {2}, {100, 0})});
  ASSERT_EQ(r.size(), 4u);
  // Column 0: 1 - 0.5 = 0.5, 2 - 0.5 = 1.5, 3 - 1.5 = 1.5, 4 - 1.5 = 2.5;
  // column 1: 10, 20 - 10 = 10, 30 - 10 = 20, 40 - 20 = 20.
  EXPECT_EQ(Values<float>(r[0]), (std::vector<float>{0.5f, 10, 1.5f, 10, 1.5f, 20, 2.5f, 20}));
  EXPECT_EQ(Values<int32_t>(r[1]), (std::vector<int32_t>{2, 4, 6, 8, 10, 12, 14, 16}));
  EXPECT_EQ(Values<float>(r[2]), (std::vector<float>{2.5f, 20}));
  EXPECT_EQ(Values<int32_t>(r[3]), (std::vector<int32_t>{116, 20}));
}

// jnp.cumsum(x, axis=1) as jax.export writes it for CUDA, with its
// decomposition (a while loop over the axis).
constexpr char kExported[] = R"(
module @jit_cumsum {
  func.func public @main(%arg0: tensor<3x5xf32>) -> tensor<3x5xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %1:2 = stablehlo.composite "chlo.scan" %arg0, %0 ({
    ^bb0(%arg1: tensor<3xf32>, %arg2: tensor<3xf32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<3xf32>
      stablehlo.return %2, %2 : tensor<3xf32>, tensor<3xf32>
    }) {composite_attributes = {dimension = 1 : i64, is_associative = true, is_reverse = false, operandSegmentSizes = array<i32: 1, 1>, resultSegmentSizes = array<i32: 1, 1>}, decomposition = @chlo.scan.impl, version = 1 : i32} : (tensor<3x5xf32>, tensor<3xf32>) -> (tensor<3x5xf32>, tensor<3xf32>)
    return %1#0 : tensor<3x5xf32>
  }
  func.func private @chlo.scan.impl(%arg0: tensor<3x5xf32>, %arg1: tensor<3xf32>) -> (tensor<3x5xf32>, tensor<3xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<3x5xf32>) -> tensor<i32>
    %1 = stablehlo.convert %0 : (tensor<i32>) -> tensor<i64>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %3:3 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %arg1, %iterArg_2 = %2) : tensor<i64>, tensor<3xf32>, tensor<3x5xf32>
    cond {
      %4 = stablehlo.compare LT, %iterArg, %1 : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4 = stablehlo.dynamic_slice %arg0, %c_0, %iterArg, sizes = [3, 1] : (tensor<3x5xf32>, tensor<i64>, tensor<i64>) -> tensor<3x1xf32>
      %5 = stablehlo.reshape %4 : (tensor<3x1xf32>) -> tensor<3xf32>
      %6 = stablehlo.add %5, %iterArg_1 : tensor<3xf32>
      %7 = stablehlo.reshape %6 : (tensor<3xf32>) -> tensor<3x1xf32>
      %8 = stablehlo.dynamic_update_slice %iterArg_2, %7, %c_0, %iterArg : (tensor<3x5xf32>, tensor<3x1xf32>, tensor<i64>, tensor<i64>) -> tensor<3x5xf32>
      %9 = stablehlo.add %iterArg, %c : tensor<i64>
      stablehlo.return %9, %6, %8 : tensor<i64>, tensor<3xf32>, tensor<3x5xf32>
    }
    return %3#2, %3#1 : tensor<3x5xf32>, tensor<3xf32>
  }
})";

TEST(CpuScan, RaisedCompositeComputesWhatItsDecompositionDoes) {
  auto modules = testing::ParseOrDie(kExported);
  ASSERT_EQ(modules.size(), 1u);
  std::unique_ptr<ir::Module> raised = ir::CloneModule(*modules[0]);
  EXPECT_EQ(passes::RaiseScanComposites(*raised), 1);
  const ir::Operation* main = raised->EntryFunction();
  ASSERT_NE(main, nullptr);
  bool scan = false, composite = false;
  for (const auto& op : main->region(0).front().operations()) {
    scan |= op->name() == "chlo.scan";
    composite |= op->name() == "stablehlo.composite";
  }
  EXPECT_TRUE(scan);
  EXPECT_FALSE(composite);
  Status verified = ir::VerifyModule(*raised);
  EXPECT_TRUE(verified.ok()) << verified.message();
  std::vector<float> x(15);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.1f * static_cast<float>(i * i % 7) - 0.3f;
  const std::vector<Tensor> args = {Make<float>(ir::ElementType::kF32, {3, 5}, x)};
  auto by_loop = Interpreter(*modules[0]).RunEntry(args);
  auto by_scan = Interpreter(*raised).RunEntry(args);
  ASSERT_TRUE(by_loop.ok() && by_scan.ok());
  EXPECT_EQ(Values<float>((*by_loop)[0]), Values<float>((*by_scan)[0]));
  // Row 0 by hand: cumsum of x[0..4].
  float sum = 0;
  for (int k = 0; k < 5; ++k) {
    sum += x[static_cast<size_t>(k)];
    EXPECT_EQ(Values<float>((*by_scan)[0])[static_cast<size_t>(k)], sum);
  }
}

TEST(CpuScan, ACompositeThatIsNoScanStaysAComposite) {
  // Attributes a chlo.scan would not verify with (a dimension out of range):
  // left to its decomposition.
  std::string text = kExported;
  text.replace(text.find("dimension = 1 : i64"), 19, "dimension = 7 : i64");
  auto modules = testing::ParseOrDie(text);
  EXPECT_EQ(passes::RaiseScanComposites(*modules.at(0)), 0);
  // A scan the caller does not want (one its backend would not run) either.
  auto valid = testing::ParseOrDie(kExported);
  EXPECT_EQ(passes::RaiseScanComposites(*valid.at(0), [](const ir::Operation&) { return false; }), 0);
  EXPECT_EQ(passes::RaiseScanComposites(*valid.at(0), [](const ir::Operation& scan) {
              return scan.name() == "chlo.scan" && scan.num_regions() == 1;
            }),
            1);
}

}  // namespace
}  // namespace hlograph::cpu
