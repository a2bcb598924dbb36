// `-` as the FILE of a command: the program is read from standard input,
// as text or as a portable artifact, and messages call it <stdin>.
#include <gtest/gtest.h>

#include <string>

#include "cli_util.h"

namespace hlograph::testing {
namespace {

TEST(CliStdin, PrintReadsTheProgramFromStandardInput) {
  const std::string path = Corpus("softmax.mlir");
  CliResult r = HlographReading(path, "print -");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, ReadFile(path));
  EXPECT_TRUE(r.err.empty()) << r.err;
  // Options may follow the "-" as they follow a file name.
  CliResult generic = HlographReading(path, "print - --generic");
  EXPECT_EQ(generic.exit_code, 0) << generic.err;
  EXPECT_EQ(generic.out, Hlograph("print --generic " + Quote(path)).out);
}

TEST(CliStdin, VerifyNamesStandardInput) {
  CliResult r = HlographReading(Corpus("multi_module.mlir"), "verify -");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("<stdin>: ok (", 0), 0u) << r.out;
  EXPECT_TRUE(HasSubstr(r.out, " modules)"));
}

TEST(CliStdin, ErrorsNameStandardInput) {
  const std::string path = WriteScratch("stdin_malformed.mlir",
                                        "func.func @main(%arg0: tensor<f32>) -> tensor<f32> {\n"
                                        "  %0 = stablehlo.abs %nope : tensor<f32>\n"
                                        "  return %0 : tensor<f32>\n"
                                        "}\n");
  for (const char* command : {"print -", "verify -", "print --no-verify -"}) {
    CliResult r = HlographReading(path, command);
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_TRUE(r.out.empty()) << command << ": " << r.out;
    EXPECT_TRUE(HasSubstr(r.err, "<stdin>:2:22: error: ")) << command << ": " << r.err;
  }
}

TEST(CliStdin, ReadsPortableArtifacts) {
  const std::string artifact = SourceDir() + "/tests/bytecode/data/loop.current.mlirbc";
  CliResult from_stdin = HlographReading(artifact, "print -");
  EXPECT_EQ(from_stdin.exit_code, 0) << from_stdin.err;
  EXPECT_EQ(from_stdin.out, Hlograph("print " + Quote(artifact)).out);
  EXPECT_FALSE(from_stdin.out.empty());
}

TEST(CliStdin, AFileNamedDashIsReadThroughItsPath) {
  // Only a lone "-" means standard input; "./-" is a file of that name.
  const std::string dir = Scratch().path();
  WriteScratch("-", ReadFile(Corpus("softmax.mlir")));
  CliResult r = Hlograph("verify " + Quote(dir + "/-"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, dir + "/-: ok (1 module)\n");
}

}  // namespace
}  // namespace hlograph::testing
