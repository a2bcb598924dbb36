// Every program of the JAX-exported corpus parses, verifies, and prints to a
// fixed point: parse -> print -> parse -> print gives the same text, with
// and without locations, in the pretty and the generic form.
#include <gtest/gtest.h>

#include "test_util.h"

namespace hlograph::testing {
namespace {

class CorpusTest : public ::testing::TestWithParam<std::string> {};

std::string Print(const std::vector<std::unique_ptr<ir::Module>>& modules, ir::PrintOptions options) {
  return ir::PrintModules(modules, options);
}

TEST_P(CorpusTest, ParsesVerifiesAndRoundTrips) {
  const std::string path = GetParam();
  auto first = frontend::ParseFile(path);
  ASSERT_TRUE(first.ok()) << first.status().message();
  ASSERT_FALSE(first->modules.empty());
  for (const auto& m : first->modules) {
    Status s = ir::VerifyModule(*m);
    EXPECT_TRUE(s.ok()) << path << "\n" << s.message();
  }
  for (bool debug : {false, true}) {
    for (bool generic : {false, true}) {
      ir::PrintOptions options;
      options.debug_info = debug;
      options.generic = generic;
      const std::string once = Print(first->modules, options);
      auto second = frontend::ParseText(once, path + ".printed");
      ASSERT_TRUE(second.ok()) << "printed text does not parse (debug=" << debug << ", generic=" << generic
                               << "): " << second.status().message() << "\n" << once.substr(0, 2000);
      for (const auto& m : second->modules) {
        Status s = ir::VerifyModule(*m);
        EXPECT_TRUE(s.ok()) << "printed text does not verify: " << s.message();
      }
      const std::string twice = Print(second->modules, options);
      EXPECT_EQ(once, twice) << "printing is not a fixed point for " << path << " (debug=" << debug
                             << ", generic=" << generic << ")";
    }
  }
}

std::vector<std::string> CorpusFiles() { return MlirFiles(SourceDir() + "/tests/corpus"); }

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string rel = info.param.substr(info.param.find("tests/corpus/") + 13);
  std::string name;
  for (char c : rel) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusTest, ::testing::ValuesIn(CorpusFiles()), TestName);

TEST(Corpus, HasAtLeastEightyPrograms) {
  size_t plain = 0;
  for (const auto& f : CorpusFiles()) {
    if (f.find("/debug/") == std::string::npos && f.find("multi_module") == std::string::npos) ++plain;
  }
  EXPECT_GE(plain, 80u);
}

// Printing JAX's own output gives back the same text: hlograph's pretty form
// is MLIR's, value names included. Counted over the corpus, so that a
// regression in any one op's syntax shows up.
TEST(Corpus, PrintingReproducesJaxText) {
  size_t same = 0, total = 0;
  std::string first_difference;
  for (const auto& path : CorpusFiles()) {
    if (path.find("debug") != std::string::npos) continue;  // JAX prints #loc aliases, hlograph inline locs
    const std::string text = ReadFile(path);
    auto parsed = frontend::ParseText(text, path);
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    const std::string printed = ir::PrintModules(parsed->modules, {});
    ++total;
    if (printed == text) {
      ++same;
    } else if (first_difference.empty()) {
      size_t i = 0;
      while (i < printed.size() && i < text.size() && printed[i] == text[i]) ++i;
      size_t line_start = text.rfind('\n', i == 0 ? 0 : i - 1);
      line_start = line_start == std::string::npos ? 0 : line_start + 1;
      first_difference = path + "\n  jax:      " + text.substr(line_start, text.find('\n', i) - line_start) +
                         "\n  hlograph: " + printed.substr(line_start, printed.find('\n', i) - line_start);
    }
  }
  std::cout << "[ corpus   ] " << same << " of " << total << " files print byte-identical to JAX's text\n";
  EXPECT_EQ(same, total) << "first difference: " << first_difference;
}

}  // namespace
}  // namespace hlograph::testing
