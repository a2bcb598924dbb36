// The hlograph command line, run as a separate process: exit codes, what
// goes to stdout and what to stderr.
#include <gtest/gtest.h>
#include <string>

#include "cli_util.h"

namespace hlograph::testing {
namespace {

TEST(Cli, BinaryExists) {
  ASSERT_FALSE(Scratch().path().empty());
  EXPECT_TRUE(std::filesystem::exists(HLOGRAPH_BINARY)) << HLOGRAPH_BINARY;
}

TEST(Cli, Help) {
  for (const char* flag : {"--help", "-h", "help"}) {
    CliResult r = Hlograph(flag);
    EXPECT_EQ(r.exit_code, 0) << flag;
    EXPECT_TRUE(HasSubstr(r.out, "print")) << flag;
    EXPECT_TRUE(HasSubstr(r.out, "verify")) << flag;
    EXPECT_TRUE(HasSubstr(r.out, "usage")) << flag;
    EXPECT_TRUE(r.err.empty()) << r.err;
  }
  // Help wins over everything else on the line.
  EXPECT_EQ(Hlograph("print --bogus --help").exit_code, 0);
}

TEST(Cli, Version) {
  CliResult r = Hlograph("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("hlograph ", 0), 0u) << r.out;
  EXPECT_EQ(r.out.back(), '\n');
  EXPECT_TRUE(r.err.empty());
}

TEST(Cli, NoArgumentsIsBadUsage) {
  CliResult r = Hlograph("");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_TRUE(HasSubstr(r.err, "missing command"));
  EXPECT_TRUE(HasSubstr(r.err, "usage"));
}

TEST(Cli, UnknownCommandIsBadUsage) {
  CliResult r = Hlograph("frobnicate " + Quote(Corpus("softmax.mlir")));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_TRUE(HasSubstr(r.err, "unknown command 'frobnicate'"));
}

TEST(Cli, OtherBadUsage) {
  CliResult unknown_option = Hlograph("print --bogus " + Quote(Corpus("softmax.mlir")));
  EXPECT_EQ(unknown_option.exit_code, 2);
  EXPECT_TRUE(HasSubstr(unknown_option.err, "unknown option '--bogus'"));
  CliResult no_file = Hlograph("print");
  EXPECT_EQ(no_file.exit_code, 2);
  EXPECT_TRUE(HasSubstr(no_file.err, "print needs"));
  EXPECT_TRUE(HasSubstr(no_file.err, "FILE"));
  CliResult extra = Hlograph("verify a.mlir b.mlir");
  EXPECT_EQ(extra.exit_code, 2) << "one FILE at a time";
  EXPECT_TRUE(HasSubstr(extra.err, "usage"));
  for (const CliResult& r : {unknown_option, no_file, extra}) EXPECT_TRUE(r.out.empty());
}

TEST(Cli, PrintReproducesJaxText) {
  for (const char* name : {"softmax.mlir", "mlp_grad.mlir", "while_loop_newton_sqrt.mlir", "shard_map_psum.mlir"}) {
    const std::string path = Corpus(name);
    CliResult r = Hlograph("print " + Quote(path));
    EXPECT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_EQ(r.out, ReadFile(path)) << name;
    EXPECT_TRUE(r.err.empty()) << r.err;
  }
}

TEST(Cli, PrintMultiModuleFile) {
  const std::string path = Corpus("multi_module.mlir");
  CliResult r = Hlograph("print " + Quote(path));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(HasSubstr(r.out, "// -----\n"));
  auto reparsed = frontend::ParseText(r.out, "out.mlir");
  ASSERT_TRUE(reparsed.ok()) << reparsed.status().message();
  auto original = frontend::ParseFile(path);
  ASSERT_TRUE(original.ok());
  EXPECT_EQ(reparsed->modules.size(), original->modules.size());
  EXPECT_GE(original->modules.size(), 2u);
}

TEST(Cli, Verify) {
  const std::string path = Corpus("softmax.mlir");
  CliResult r = Hlograph("verify " + Quote(path));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, path + ": ok (1 module)\n");
  EXPECT_TRUE(r.err.empty());
  CliResult multi = Hlograph("verify " + Quote(Corpus("multi_module.mlir")));
  EXPECT_EQ(multi.exit_code, 0) << multi.err;
  EXPECT_TRUE(HasSubstr(multi.out, "ok ("));
  EXPECT_TRUE(HasSubstr(multi.out, " modules)"));
}

TEST(Cli, MalformedFile) {
  const std::string text =
      "module {\n"
      "  func.func @main(%arg0: tensor<f32>) -> tensor<f32> {\n"
      "    %0 = stablehlo.abs %nope : tensor<f32>\n"
      "    return %0 : tensor<f32>\n"
      "  }\n"
      "}\n";
  const std::string path = WriteScratch("malformed.mlir", text);
  for (const char* command : {"print", "verify", "print --no-verify", "print --generic"}) {
    CliResult r = Hlograph(std::string(command) + " " + Quote(path));
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_TRUE(r.out.empty()) << command << ": " << r.out;
    EXPECT_TRUE(HasSubstr(r.err, path + ":3:24: error: ")) << command;
    EXPECT_TRUE(HasSubstr(r.err, "%nope")) << command;
  }
}

TEST(Cli, InvalidButParseableFile) {
  const std::string text =
      "func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<3xf32>) -> tensor<2xf32> {\n"
      "  %0 = stablehlo.add %arg0, %arg1 : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>\n"
      "  return %0 : tensor<2xf32>\n"
      "}\n";
  const std::string path = WriteScratch("invalid.mlir", text);
  CliResult verify = Hlograph("verify " + Quote(path));
  EXPECT_EQ(verify.exit_code, 1);
  EXPECT_TRUE(verify.out.empty());
  EXPECT_TRUE(HasSubstr(verify.err, path + ":2:3: error: 'stablehlo.add' op "));
  CliResult print = Hlograph("print " + Quote(path));
  EXPECT_EQ(print.exit_code, 1);
  EXPECT_TRUE(print.out.empty()) << "nothing is printed for a program that does not verify";
  // --no-verify prints it anyway.
  CliResult no_verify = Hlograph("print --no-verify " + Quote(path));
  EXPECT_EQ(no_verify.exit_code, 0) << no_verify.err;
  EXPECT_TRUE(HasSubstr(no_verify.out, "stablehlo.add %arg0, %arg1 : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>"));
}

TEST(Cli, MissingFile) {
  const std::string path = Scratch().path() + "/does_not_exist.mlir";
  for (const char* command : {"print", "verify"}) {
    CliResult r = Hlograph(std::string(command) + " " + Quote(path));
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_TRUE(r.out.empty());
    EXPECT_TRUE(HasSubstr(r.err, path)) << command;
  }
}

TEST(Cli, DirectoryIsNotAProgram) {
  // Opening a directory succeeds on Linux but reading it fails: that is an
  // error, not an empty program.
  for (const char* command : {"print", "verify"}) {
    CliResult r = Hlograph(std::string(command) + " " + Quote(Scratch().path()));
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_TRUE(r.out.empty()) << command << ": " << r.out;
    EXPECT_TRUE(HasSubstr(r.err, Scratch().path())) << command;
  }
}

TEST(Cli, PrintDebugInfoReparses) {
  const std::string path = Corpus("debug/mlp_grad.mlir");
  CliResult r = Hlograph("print --debug-info " + Quote(path));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(HasSubstr(r.out, " loc("));
  auto reparsed = frontend::ParseText(r.out, "debug_out.mlir");
  ASSERT_TRUE(reparsed.ok()) << reparsed.status().message();
  ir::PrintOptions debug;
  debug.debug_info = true;
  EXPECT_EQ(ir::PrintModules(reparsed->modules, debug), r.out);
  // The source locations JAX recorded survive (a file name from the trace).
  auto original = frontend::ParseFile(path);
  ASSERT_TRUE(original.ok());
  EXPECT_EQ(ir::PrintModules(original->modules, debug), r.out);
  // Without --debug-info there are no locations.
  CliResult plain = Hlograph("print " + Quote(path));
  EXPECT_EQ(plain.exit_code, 0);
  EXPECT_EQ(plain.out.find("loc("), std::string::npos);
  EXPECT_EQ(plain.out, ReadFile(Corpus("mlp_grad.mlir")))
      << "the debug and plain corpus files are the same program";
}

TEST(Cli, PrintGeneric) {
  const std::string path = Corpus("cond_simple.mlir");
  CliResult r = Hlograph("print --generic " + Quote(path));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(HasSubstr(r.out, "\"stablehlo.compare\"("));
  EXPECT_EQ(r.out.find("= stablehlo."), std::string::npos) << "every op is generic";
  auto reparsed = frontend::ParseText(r.out, "generic_out.mlir");
  ASSERT_TRUE(reparsed.ok()) << reparsed.status().message();
  EXPECT_EQ(ir::PrintModules(reparsed->modules), ReadFile(path));
}

TEST(Cli, OptionsMayComeAnywhere) {
  const std::string path = Corpus("softmax.mlir");
  CliResult r = Hlograph(Quote(path) + " --generic print");
  // The first non-option word is the command: here that is the file.
  EXPECT_EQ(r.exit_code, 2);
  CliResult ok = Hlograph("print " + Quote(path) + " --generic");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_TRUE(HasSubstr(ok.out, "\"stablehlo."));
}

}  // namespace
}  // namespace hlograph::testing
