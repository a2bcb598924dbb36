// The one backend choice of the C++ API, the CLI and the PJRT plugin
// (src/runtime/backend_choice.h): settings, errors, and "auto".
#include <gtest/gtest.h>

#include <string>

#include "runtime/backend_choice.h"
#include "test_util.h"

namespace hlograph::runtime {
namespace {

TEST(BackendChoice, CpuIsAlwaysThere) {
  auto c = ChooseBackend("cpu", "backend");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->kind, BackendKind::kCpu);
  EXPECT_STREQ(c->name(), "cpu");
  EXPECT_EQ(c->note, "");
}

TEST(BackendChoice, AnUnknownSettingNamesTheSettingAndTheChoices) {
  auto c = ChooseBackend("tpu", "HLOGRAPH_PJRT_BACKEND");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(), "HLOGRAPH_PJRT_BACKEND \"tpu\": expected \"auto\", \"cpu\" or \"gpu\"");
}

TEST(BackendChoice, GpuOnlyWhereUsable) {
  const Status usable = GpuUsable();
  auto c = ChooseBackend("gpu", "--backend");
  auto a = ChooseBackend("auto", "--backend");
  ASSERT_TRUE(a.ok()) << a.status().message();
  if (usable.ok()) {
    ASSERT_TRUE(c.ok()) << c.status().message();
    EXPECT_EQ(c->kind, BackendKind::kGpu);
    EXPECT_EQ(a->kind, BackendKind::kGpu);
  } else {
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.status().message(), "--backend \"gpu\": " + usable.message());
    EXPECT_EQ(a->kind, BackendKind::kCpu);
    EXPECT_EQ(a->note, "");  // no GPU is no surprise worth a note
  }
}

// With a module the GPU backend cannot plan, "auto" takes the CPU and says
// why (where there is a GPU to decline).
TEST(BackendChoice, AutoFallsBackWithANoteForAProgramTheGpuCannotRun) {
  if (!GpuUsable().ok()) GTEST_SKIP() << "no GPU";
  auto modules = testing::ParseOrDie(R"(
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = stablehlo.custom_call @no_such_target(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
})");
  ASSERT_FALSE(modules.empty());
  auto c = ChooseBackend("auto", "--backend", modules[0].get());
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->kind, BackendKind::kCpu);
  EXPECT_NE(c->note.find("no_such_target"), std::string::npos) << c->note;
}

}  // namespace
}  // namespace hlograph::runtime
