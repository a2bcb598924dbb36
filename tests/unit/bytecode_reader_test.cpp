// Reading portable artifacts: the checked-in artifacts of tests/bytecode/data
// (made by jaxlib, see make_test_data.py) print as MLIR's own deserialization
// of them prints; malformed and truncated artifacts are clean errors that
// name the place and what was expected, never a crash.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "cli_util.h"
#include "frontend/bytecode/bytecode_reader.h"
#include "frontend/bytecode/container.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "test_util.h"

namespace hlograph::frontend {
namespace {

using hlograph::testing::HasSubstr;
using hlograph::testing::ParseOrDie;
using hlograph::testing::ReadFile;
using hlograph::testing::SourceDir;

std::string DataPath(const std::string& name) { return SourceDir() + "/tests/bytecode/data/" + name; }

std::vector<uint8_t> ReadBytes(const std::string& path) {
  std::string bytes = ReadFile(path);
  return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

std::vector<uint8_t> Artifact(const std::string& tag) { return ReadBytes(DataPath("loop." + tag + ".mlirbc")); }

StatusOr<std::unique_ptr<ir::Module>> Read(const std::vector<uint8_t>& bytes) {
  return ReadBytecodeModule(std::span<const uint8_t>(bytes), "loop.mlirbc");
}

// Every checked-in artifact (NAME.mlirbc) prints as MLIR's deserialization
// of it (NAME.expected.mlir) prints, source locations included.
std::vector<std::string> ArtifactNames() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(SourceDir() + "/tests/bytecode/data")) {
    const std::string file = entry.path().filename().string();
    if (file.ends_with(".mlirbc")) names.push_back(file.substr(0, file.size() - 7));
  }
  std::sort(names.begin(), names.end());
  return names;
}

class BytecodeData : public ::testing::TestWithParam<std::string> {};

TEST_P(BytecodeData, PrintsAsMlirDeserializesIt) {
  std::vector<uint8_t> bytes = ReadBytes(DataPath(GetParam() + ".mlirbc"));
  ASSERT_TRUE(IsMlirBytecode(bytes));
  auto module = ReadBytecodeModule(std::span<const uint8_t>(bytes), GetParam() + ".mlirbc");
  ASSERT_TRUE(module.ok()) << module.status().message();
  auto expected = ParseOrDie(ReadFile(DataPath(GetParam() + ".expected.mlir")));
  EXPECT_EQ(ir::PrintModule(**module), ir::PrintModule(*expected[0]));
  ir::PrintOptions with_locations;
  with_locations.debug_info = true;
  EXPECT_EQ(ir::PrintModule(**module, with_locations), ir::PrintModule(*expected[0], with_locations));
}

std::string TestName(const ::testing::TestParamInfo<std::string>& param) {
  std::string name = param.param;
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Bytecode, BytecodeData, ::testing::ValuesIn(ArtifactNames()), TestName);

class BytecodeArtifact : public ::testing::TestWithParam<std::string> {};

// Every prefix of an artifact is missing something: an error, never a crash.
TEST_P(BytecodeArtifact, EveryTruncationIsAnError) {
  std::vector<uint8_t> bytes = Artifact(GetParam());
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    auto module = Read(prefix);
    ASSERT_FALSE(module.ok()) << "a prefix of " << n << " bytes was accepted";
    EXPECT_TRUE(HasSubstr(module.status().message(), "expected")) << n;
    EXPECT_TRUE(HasSubstr(module.status().message(), "loop.mlirbc: error: ")) << n;
  }
}

// Any byte changed to any of a few values: read or rejected, never a crash
// (the sanitizer build turns any out-of-bounds read into a failure).
TEST_P(BytecodeArtifact, CorruptedBytesNeverCrash) {
  std::vector<uint8_t> bytes = Artifact(GetParam());
  size_t rejected = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t value : {uint8_t{0x00}, uint8_t{0xFF}, static_cast<uint8_t>(bytes[i] ^ 0x01),
                          static_cast<uint8_t>(bytes[i] + 2)}) {
      std::vector<uint8_t> corrupt = bytes;
      corrupt[i] = value;
      auto module = Read(corrupt);
      if (!module.ok()) {
        ++rejected;
        EXPECT_TRUE(HasSubstr(module.status().message(), "loop.mlirbc: error: bytecode: "));
      } else {
        (void)ir::PrintModule(**module);  // an accepted module is verified, so it prints
      }
    }
  }
  EXPECT_GT(rejected, bytes.size());  // most corruptions are caught
}

INSTANTIATE_TEST_SUITE_P(Bytecode, BytecodeArtifact, ::testing::Values("current", "v0_9_0"));

TEST(BytecodeReader, ContainerOfTheCurrentArtifact) {
  std::vector<uint8_t> bytes = Artifact("current");
  auto c = bytecode::ReadContainer(bytes);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->producer.rfind("StableHLO_v", 0), 0u);
  EXPECT_EQ(c->version, 6u);
  std::vector<std::string> dialects;
  for (const auto& d : c->dialects) dialects.push_back(d.name);
  EXPECT_EQ(dialects, (std::vector<std::string>{"builtin", "vhlo"}));
  EXPECT_FALSE(c->properties.empty());
  auto old = bytecode::ReadContainer(Artifact("v0_9_0"));
  ASSERT_TRUE(old.ok()) << old.status().message();
  EXPECT_EQ(old->version, 0u);  // 0.9.0 predates properties and region sections
  EXPECT_TRUE(old->properties.empty());
}

TEST(BytecodeReader, BadHeadersNameWhatWasExpected) {
  auto message = [](std::vector<uint8_t> bytes) {
    auto module = Read(bytes);
    return module.ok() ? std::string("accepted") : module.status().message();
  };
  EXPECT_TRUE(HasSubstr(message({'M', 'L', 'I', 'R'}), "header, byte 0: expected the MLIR bytecode magic"));
  EXPECT_TRUE(HasSubstr(message({'M', 'L', 0xEF, 'R', 0x0F, 'x', 0}),
                        "byte 4: expected a bytecode version at most 6, found 7"));
  EXPECT_TRUE(HasSubstr(message({'M', 'L', 0xEF, 'R', 0x0D, 'x', 'y'}),
                        "expected the producer string ending in a NUL byte"));
  EXPECT_TRUE(HasSubstr(message({'M', 'L', 0xEF, 'R', 0x0D, 0, 0x09, 0x01}),
                        "byte 6: expected a section id below 9, found 9"));
  EXPECT_TRUE(HasSubstr(message({'M', 'L', 0xEF, 'R', 0x0D, 0}), "expected a string section before the end"));
}

TEST(BytecodeReader, AnOpOfAnUnknownVersionIsNamed) {
  // Rename the artifact's "vhlo.add_v1" op to an op hlograph cannot know.
  std::vector<uint8_t> bytes = Artifact("current");
  std::string text(bytes.begin(), bytes.end());
  size_t at = text.find("add_v1");
  ASSERT_NE(at, std::string::npos);
  bytes[at + 5] = '9';
  auto module = Read(bytes);
  ASSERT_FALSE(module.ok());
  EXPECT_TRUE(HasSubstr(module.status().message(), "expected an op hlograph supports, found vhlo.add_v9"));
}

TEST(BytecodeCli, PrintsArtifactsAndRejectsBadOnes) {
  using hlograph::testing::Hlograph;
  using hlograph::testing::Quote;
  auto printed = Hlograph("print " + Quote(DataPath("loop.current.mlirbc")));
  EXPECT_EQ(printed.exit_code, 0) << printed.err;
  auto expected = Hlograph("print " + Quote(DataPath("loop.current.expected.mlir")));
  EXPECT_EQ(printed.out, expected.out);
  auto verified = Hlograph("verify " + Quote(DataPath("loop.v0_9_0.mlirbc")));
  EXPECT_EQ(verified.exit_code, 0) << verified.err;

  std::vector<uint8_t> bytes = Artifact("current");
  const std::string bad = hlograph::testing::Scratch().path() + "/truncated.mlirbc";
  {
    std::ofstream out(bad, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size() / 2));
  }
  auto rejected = Hlograph("print " + Quote(bad));
  EXPECT_NE(rejected.exit_code, 0);
  EXPECT_TRUE(HasSubstr(rejected.err, "truncated.mlirbc: error: bytecode: "));
  EXPECT_TRUE(rejected.out.empty());
}

}  // namespace
}  // namespace hlograph::frontend
