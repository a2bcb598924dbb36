// The MLIR tokenizer (frontend/lexer.h): token kinds and spellings, string
// escapes, comments, error tokens and source positions.
#include "frontend/lexer.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

namespace hlograph::frontend {
namespace {

struct Lexed {
  Tok kind;
  std::string text;
  bool operator==(const Lexed& o) const { return kind == o.kind && text == o.text; }
};

std::ostream& operator<<(std::ostream& os, const Lexed& t) {
  return os << "{" << static_cast<int>(t.kind) << ", '" << t.text << "'}";
}

std::shared_ptr<const std::string> Name(const std::string& n = "lex.mlir") {
  return std::make_shared<const std::string>(n);
}

// Every token up to (not including) end of input; stops at 10000 tokens so
// that a lexer that fails to advance cannot hang the test.
std::vector<Lexed> LexAll(const std::string& text) {
  Lexer lexer(text, Name());
  std::vector<Lexed> out;
  for (int i = 0; i < 10000; ++i) {
    Token t = lexer.Next();
    if (t.kind == Tok::kEof) return out;
    out.push_back({t.kind, std::string(t.text)});
  }
  ADD_FAILURE() << "lexer did not reach the end of: " << text;
  return out;
}

Lexed One(const std::string& text) {
  auto all = LexAll(text);
  EXPECT_EQ(all.size(), 1u) << "input: " << text;
  return all.empty() ? Lexed{Tok::kEof, ""} : all[0];
}

TEST(Lexer, EmptyAndWhitespaceOnlyGiveEof) {
  EXPECT_TRUE(LexAll("").empty());
  EXPECT_TRUE(LexAll(" \t\r\n\n  ").empty());
  Lexer lexer("   ", Name());
  EXPECT_EQ(lexer.Next().kind, Tok::kEof);
  EXPECT_EQ(lexer.Next().kind, Tok::kEof);  // stays at the end
}

TEST(Lexer, BareIdentifiers) {
  EXPECT_EQ(One("foo"), (Lexed{Tok::kBareId, "foo"}));
  EXPECT_EQ(One("stablehlo.add"), (Lexed{Tok::kBareId, "stablehlo.add"}));
  EXPECT_EQ(One("f32"), (Lexed{Tok::kBareId, "f32"}));
  EXPECT_EQ(One("_private$x.y"), (Lexed{Tok::kBareId, "_private$x.y"}));
  EXPECT_EQ(One("x4xf32"), (Lexed{Tok::kBareId, "x4xf32"}));
  EXPECT_EQ(One("f8E4M3FN"), (Lexed{Tok::kBareId, "f8E4M3FN"}));
  // '-' is not part of a bare identifier.
  EXPECT_EQ(LexAll("a-b"), (std::vector<Lexed>{{Tok::kBareId, "a"}, {Tok::kMinus, "-"}, {Tok::kBareId, "b"}}));
}

TEST(Lexer, PercentIdentifiers) {
  EXPECT_EQ(One("%arg0"), (Lexed{Tok::kPercentId, "%arg0"}));
  EXPECT_EQ(One("%0"), (Lexed{Tok::kPercentId, "%0"}));
  EXPECT_EQ(One("%iterArg_0"), (Lexed{Tok::kPercentId, "%iterArg_0"}));
  EXPECT_EQ(One("%cst_12"), (Lexed{Tok::kPercentId, "%cst_12"}));
  EXPECT_EQ(One("%output_state"), (Lexed{Tok::kPercentId, "%output_state"}));
}

TEST(Lexer, ResultNumberSplitsIntoPercentAndHash) {
  // %3#1 is the value %3, result number 1: two tokens, adjacent.
  EXPECT_EQ(LexAll("%3#1"), (std::vector<Lexed>{{Tok::kPercentId, "%3"}, {Tok::kHashId, "#1"}}));
  EXPECT_EQ(LexAll("%0#12, %x#0"),
            (std::vector<Lexed>{{Tok::kPercentId, "%0"},
                                {Tok::kHashId, "#12"},
                                {Tok::kComma, ","},
                                {Tok::kPercentId, "%x"},
                                {Tok::kHashId, "#0"}}));
  // A result group `%0:2 = ...`.
  EXPECT_EQ(LexAll("%0:2 ="), (std::vector<Lexed>{{Tok::kPercentId, "%0"},
                                                  {Tok::kColon, ":"},
                                                  {Tok::kInteger, "2"},
                                                  {Tok::kEqual, "="}}));
}

TEST(Lexer, AtIdentifiersBareAndQuoted) {
  EXPECT_EQ(One("@main"), (Lexed{Tok::kAtId, "@main"}));
  EXPECT_EQ(One("@hlograph.gelu_tanh_0"), (Lexed{Tok::kAtId, "@hlograph.gelu_tanh_0"}));
  EXPECT_EQ(One("@\"quoted name\""), (Lexed{Tok::kAtId, "@\"quoted name\""}));
  EXPECT_EQ(One("@\"with \\\" quote\""), (Lexed{Tok::kAtId, "@\"with \\\" quote\""}));
  // An unterminated quoted symbol is an error, not a symbol.
  auto bad = LexAll("@\"open");
  ASSERT_FALSE(bad.empty());
  EXPECT_EQ(bad[0].kind, Tok::kError);
}

TEST(Lexer, CaretHashAndExclamationIdentifiers) {
  EXPECT_EQ(One("^bb0"), (Lexed{Tok::kCaretId, "^bb0"}));
  EXPECT_EQ(One("#loc3"), (Lexed{Tok::kHashId, "#loc3"}));
  EXPECT_EQ(One("#loc"), (Lexed{Tok::kHashId, "#loc"}));
  EXPECT_EQ(One("#stablehlo"), (Lexed{Tok::kHashId, "#stablehlo"}));
  EXPECT_EQ(One("#stablehlo.gather"), (Lexed{Tok::kHashId, "#stablehlo.gather"}));
  EXPECT_EQ(One("#sdy.sharding"), (Lexed{Tok::kHashId, "#sdy.sharding"}));
  EXPECT_EQ(One("!stablehlo.token"), (Lexed{Tok::kExclId, "!stablehlo.token"}));
  EXPECT_EQ(LexAll("#stablehlo<precision DEFAULT>"), (std::vector<Lexed>{{Tok::kHashId, "#stablehlo"},
                                                                         {Tok::kLess, "<"},
                                                                         {Tok::kBareId, "precision"},
                                                                         {Tok::kBareId, "DEFAULT"},
                                                                         {Tok::kGreater, ">"}}));
}

TEST(Lexer, PrefixWithoutIdentifierIsAnError) {
  for (const char* text : {"%", "@", "^", "!", "#", "% x", "#,"}) {
    Lexer lexer(text, Name());
    Token t = lexer.Next();
    EXPECT_EQ(t.kind, Tok::kError) << text;
    EXPECT_NE(lexer.error().find("identifier"), std::string::npos) << text << ": " << lexer.error();
  }
}

TEST(Lexer, Integers) {
  EXPECT_EQ(One("0"), (Lexed{Tok::kInteger, "0"}));
  EXPECT_EQ(One("12"), (Lexed{Tok::kInteger, "12"}));
  EXPECT_EQ(One("18446744073709551615"), (Lexed{Tok::kInteger, "18446744073709551615"}));
  EXPECT_EQ(One("0x7FC00000"), (Lexed{Tok::kInteger, "0x7FC00000"}));
  EXPECT_EQ(One("0xff80"), (Lexed{Tok::kInteger, "0xff80"}));
  // Negative numbers are a minus token and the number.
  EXPECT_EQ(LexAll("-5"), (std::vector<Lexed>{{Tok::kMinus, "-"}, {Tok::kInteger, "5"}}));
  // `0x` without hex digits is the integer 0 followed by an identifier.
  EXPECT_EQ(LexAll("0xg"), (std::vector<Lexed>{{Tok::kInteger, "0"}, {Tok::kBareId, "xg"}}));
}

TEST(Lexer, Floats) {
  EXPECT_EQ(One("1.5"), (Lexed{Tok::kFloat, "1.5"}));
  EXPECT_EQ(One("1.000000e+00"), (Lexed{Tok::kFloat, "1.000000e+00"}));
  EXPECT_EQ(One("1.5E-6"), (Lexed{Tok::kFloat, "1.5E-6"}));
  EXPECT_EQ(One("9.99999974E-6"), (Lexed{Tok::kFloat, "9.99999974E-6"}));
  EXPECT_EQ(One("3.40282347E+38"), (Lexed{Tok::kFloat, "3.40282347E+38"}));
  EXPECT_EQ(One("0.00999999977"), (Lexed{Tok::kFloat, "0.00999999977"}));
  EXPECT_EQ(One("2.5e10"), (Lexed{Tok::kFloat, "2.5e10"}));
  EXPECT_EQ(LexAll("-3.40282347E+38"),
            (std::vector<Lexed>{{Tok::kMinus, "-"}, {Tok::kFloat, "3.40282347E+38"}}));
  // An exponent marker without digits is not part of the number.
  EXPECT_EQ(LexAll("1.5e"), (std::vector<Lexed>{{Tok::kFloat, "1.5"}, {Tok::kBareId, "e"}}));
  EXPECT_EQ(LexAll("1.5e+"), (std::vector<Lexed>{{Tok::kFloat, "1.5"}, {Tok::kBareId, "e"}, {Tok::kPlus, "+"}}));
}

TEST(Lexer, DimensionListTokens) {
  // The parser lexes shapes itself; the lexer only has to stay in sync.
  EXPECT_EQ(LexAll("tensor<4x4xf32>"), (std::vector<Lexed>{{Tok::kBareId, "tensor"},
                                                           {Tok::kLess, "<"},
                                                           {Tok::kInteger, "4"},
                                                           {Tok::kBareId, "x4xf32"},
                                                           {Tok::kGreater, ">"}}));
}

TEST(Lexer, Punctuation) {
  EXPECT_EQ(LexAll("( ) [ ] { } < > , : = -> - + ? * |"),
            (std::vector<Lexed>{{Tok::kLParen, "("},   {Tok::kRParen, ")"},  {Tok::kLSquare, "["},
                                {Tok::kRSquare, "]"},  {Tok::kLBrace, "{"},  {Tok::kRBrace, "}"},
                                {Tok::kLess, "<"},     {Tok::kGreater, ">"}, {Tok::kComma, ","},
                                {Tok::kColon, ":"},    {Tok::kEqual, "="},   {Tok::kArrow, "->"},
                                {Tok::kMinus, "-"},    {Tok::kPlus, "+"},    {Tok::kQuestion, "?"},
                                {Tok::kStar, "*"},     {Tok::kPipe, "|"}}));
  // `->` binds tighter than `-` followed by `>` with space.
  EXPECT_EQ(LexAll("- >"), (std::vector<Lexed>{{Tok::kMinus, "-"}, {Tok::kGreater, ">"}}));
  EXPECT_EQ(LexAll(")->("), (std::vector<Lexed>{{Tok::kRParen, ")"}, {Tok::kArrow, "->"}, {Tok::kLParen, "("}}));
}

TEST(Lexer, FileMetadataDelimiters) {
  EXPECT_EQ(LexAll("{-# dialect_resources #-}"), (std::vector<Lexed>{{Tok::kFileMetadataBegin, "{-#"},
                                                                     {Tok::kBareId, "dialect_resources"},
                                                                     {Tok::kFileMetadataEnd, "#-}"}}));
  // `{` followed by something else is an ordinary brace.
  EXPECT_EQ(LexAll("{-1"), (std::vector<Lexed>{{Tok::kLBrace, "{"}, {Tok::kMinus, "-"}, {Tok::kInteger, "1"}}));
}

TEST(Lexer, LineCommentsAreSkipped) {
  EXPECT_TRUE(LexAll("// just a comment").empty());
  EXPECT_EQ(LexAll("a // b c d\ne"), (std::vector<Lexed>{{Tok::kBareId, "a"}, {Tok::kBareId, "e"}}));
  EXPECT_EQ(LexAll("// one\n// two\n  x // three"), (std::vector<Lexed>{{Tok::kBareId, "x"}}));
  EXPECT_EQ(LexAll("// -----\nmodule"), (std::vector<Lexed>{{Tok::kBareId, "module"}}));
  // A single slash is not a comment.
  auto slash = LexAll("/");
  ASSERT_EQ(slash.size(), 1u);
  EXPECT_EQ(slash[0].kind, Tok::kError);
}

TEST(Lexer, StringTokenKeepsQuotesAndEscapes) {
  EXPECT_EQ(One("\"\""), (Lexed{Tok::kString, "\"\""}));
  EXPECT_EQ(One("\"abc\""), (Lexed{Tok::kString, "\"abc\""}));
  EXPECT_EQ(One(R"("a\"b")"), (Lexed{Tok::kString, R"("a\"b")"}));
  EXPECT_EQ(One(R"("back\\")"), (Lexed{Tok::kString, R"("back\\")"}));
  EXPECT_EQ(LexAll(R"("x" "y")"), (std::vector<Lexed>{{Tok::kString, "\"x\""}, {Tok::kString, "\"y\""}}));
}

TEST(Lexer, UnescapeString) {
  std::string out;
  ASSERT_TRUE(UnescapeString(R"("plain")", &out));
  EXPECT_EQ(out, "plain");
  ASSERT_TRUE(UnescapeString(R"("")", &out));
  EXPECT_EQ(out, "");
  ASSERT_TRUE(UnescapeString(R"("a\"b")", &out));
  EXPECT_EQ(out, "a\"b");
  ASSERT_TRUE(UnescapeString(R"("a\\b")", &out));
  EXPECT_EQ(out, "a\\b");
  ASSERT_TRUE(UnescapeString(R"("line\nnext")", &out));
  EXPECT_EQ(out, "line\nnext");
  ASSERT_TRUE(UnescapeString(R"("tab\there")", &out));
  EXPECT_EQ(out, "tab\there");
  ASSERT_TRUE(UnescapeString(R"("\0A")", &out));
  EXPECT_EQ(out, "\n");
  ASSERT_TRUE(UnescapeString(R"("\00\7f\FF")", &out));
  EXPECT_EQ(out, std::string("\x00\x7f\xff", 3));
  ASSERT_TRUE(UnescapeString(R"("x\41y")", &out));
  EXPECT_EQ(out, "xAy");
}

TEST(Lexer, UnescapeStringRejectsMalformedEscapes) {
  std::string out;
  EXPECT_FALSE(UnescapeString(R"("\q")", &out));   // not an escape
  EXPECT_FALSE(UnescapeString(R"("\4")", &out));   // one hex digit
  EXPECT_FALSE(UnescapeString(R"("\4g")", &out));  // second digit not hex
  EXPECT_FALSE(UnescapeString("\"", &out));        // too short to be a string
}

TEST(Lexer, UnterminatedStringIsAnErrorToken) {
  Lexer lexer("\"never closed", Name());
  Token t = lexer.Next();
  EXPECT_EQ(t.kind, Tok::kError);
  EXPECT_NE(lexer.error().find("closing quote"), std::string::npos) << lexer.error();
  EXPECT_EQ(lexer.Next().kind, Tok::kEof);

  // A newline ends the string with an error; lexing goes on after it.
  Lexer l2("\"open\nfoo", Name());
  EXPECT_EQ(l2.Next().kind, Tok::kError);
  EXPECT_NE(l2.error().find("closing quote"), std::string::npos) << l2.error();
  Token next = l2.Next();
  EXPECT_EQ(next.kind, Tok::kBareId);
  EXPECT_EQ(next.text, "foo");

  // A backslash as the very last byte.
  Lexer l3("\"abc\\", Name());
  EXPECT_EQ(l3.Next().kind, Tok::kError);
  EXPECT_EQ(l3.Next().kind, Tok::kEof);
}

TEST(Lexer, StrayBytesGiveErrorTokensAndLexingContinues) {
  const std::string text = std::string("a \xFF b \x01 c ` d ;");
  Lexer lexer(text, Name());
  std::vector<Tok> kinds;
  for (int i = 0; i < 100; ++i) {
    Token t = lexer.Next();
    if (t.kind == Tok::kEof) break;
    kinds.push_back(t.kind);
    if (t.kind == Tok::kError) {
      EXPECT_NE(lexer.error().find("unexpected character"), std::string::npos) << lexer.error();
      EXPECT_FALSE(t.text.empty()) << "an error token must consume its byte";
    }
  }
  EXPECT_EQ(kinds, (std::vector<Tok>{Tok::kBareId, Tok::kError, Tok::kBareId, Tok::kError, Tok::kBareId,
                                     Tok::kError, Tok::kBareId, Tok::kError}));
}

TEST(Lexer, NulBytesInsideTheBuffer) {
  const std::string text("a\0b", 3);
  Lexer lexer(text, Name());
  EXPECT_EQ(lexer.Next().kind, Tok::kBareId);
  EXPECT_EQ(lexer.Next().kind, Tok::kError);
  Token b = lexer.Next();
  EXPECT_EQ(b.kind, Tok::kBareId);
  EXPECT_EQ(b.text, "b");
  EXPECT_EQ(lexer.Next().kind, Tok::kEof);
}

TEST(Lexer, SourcePositionsAreOneBasedLineAndColumn) {
  const std::string text = "first\n  second\n\tthird fourth\n\nlast";
  Lexer lexer(text, Name("pos.mlir"));
  struct Want {
    const char* text;
    uint32_t line, col;
  };
  for (const Want& w : {Want{"first", 1, 1}, Want{"second", 2, 3}, Want{"third", 3, 2}, Want{"fourth", 3, 8},
                        Want{"last", 5, 1}}) {
    Token t = lexer.Next();
    ASSERT_EQ(t.text, w.text);
    ir::SourcePos pos = lexer.PosOf(t.text.data());
    EXPECT_EQ(pos.line, w.line) << w.text;
    EXPECT_EQ(pos.col, w.col) << w.text;
    ASSERT_TRUE(pos.file);
    EXPECT_EQ(*pos.file, "pos.mlir");
    EXPECT_EQ(pos.ToString(), "pos.mlir:" + std::to_string(w.line) + ":" + std::to_string(w.col));
  }
  // The end of the buffer has a position too (one past the last column).
  ir::SourcePos end = lexer.PosOf(text.data() + text.size());
  EXPECT_EQ(end.line, 5u);
  EXPECT_EQ(end.col, 5u);
}

TEST(Lexer, PositionsAfterCarriageReturnsAndComments) {
  const std::string text = "a\r\n// comment line\r\n  b";
  Lexer lexer(text, Name());
  lexer.Next();
  Token b = lexer.Next();
  ASSERT_EQ(b.text, "b");
  ir::SourcePos pos = lexer.PosOf(b.text.data());
  EXPECT_EQ(pos.line, 3u);
  EXPECT_EQ(pos.col, 3u);
}

TEST(Lexer, ChunkLexerReportsPositionsInTheWholeBuffer) {
  const std::string text = "skip me\n// -----\nfoo bar\nbaz";
  const size_t begin = text.find("foo");
  const size_t end = text.find("baz");
  Lexer lexer(text, begin, end, Name("multi.mlir"), Lexer::LineStarts(text));
  Token foo = lexer.Next();
  EXPECT_EQ(foo.text, "foo");
  EXPECT_EQ(lexer.PosOf(foo.text.data()).ToString(), "multi.mlir:3:1");
  Token bar = lexer.Next();
  EXPECT_EQ(bar.text, "bar");
  EXPECT_EQ(lexer.PosOf(bar.text.data()).ToString(), "multi.mlir:3:5");
  EXPECT_EQ(lexer.Next().kind, Tok::kEof) << "the chunk ends before 'baz'";
}

TEST(Lexer, LineStarts) {
  auto starts = Lexer::LineStarts("ab\ncd\n\nx");
  EXPECT_EQ(*starts, (std::vector<uint32_t>{0, 3, 6, 7}));
  EXPECT_EQ(*Lexer::LineStarts(""), (std::vector<uint32_t>{0}));
}

TEST(Lexer, ResetToRelexes) {
  const std::string text = "one two three";
  Lexer lexer(text, Name());
  Token one = lexer.Next();
  const char* after_one = lexer.position();
  EXPECT_EQ(lexer.Next().text, "two");
  lexer.ResetTo(after_one);
  EXPECT_EQ(lexer.Next().text, "two");
  lexer.ResetTo(one.text.data());
  EXPECT_EQ(lexer.Next().text, "one");
}

TEST(Lexer, TokensCoverTheInputInOrder) {
  // Tokens never overlap and never go backwards, on a realistic line.
  const std::string text =
      "%0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%arg0) {backend_config = \"\", "
      "operand_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, "
      "tensor<4xf32>) loc(#loc12)";
  Lexer lexer(text, Name());
  const char* prev_end = text.data();
  int count = 0;
  for (Token t = lexer.Next(); t.kind != Tok::kEof; t = lexer.Next()) {
    ASSERT_NE(t.kind, Tok::kError) << t.text;
    ASSERT_GE(t.text.data(), prev_end);
    prev_end = t.text.data() + t.text.size();
    ++count;
  }
  EXPECT_GT(count, 40);
  EXPECT_EQ(prev_end, text.data() + text.size());
}

TEST(Lexer, RandomBytesAlwaysTerminate) {
  std::mt19937 rng(1234);
  const std::string alphabet = "%@^#!\"\\{}[]()<>-:=,.0123456789xeE+abc_ \n\t/\xFF\x80";
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const int len = static_cast<int>(rng() % 64);
    for (int i = 0; i < len; ++i) {
      text += (rng() % 4 == 0) ? static_cast<char>(rng() % 256) : alphabet[rng() % alphabet.size()];
    }
    Lexer lexer(text, Name());
    int tokens = 0;
    const char* prev = text.data();
    while (true) {
      Token t = lexer.Next();
      if (t.kind == Tok::kEof) break;
      ASSERT_GE(t.text.data(), prev);
      ASSERT_LE(t.text.data() + t.text.size(), text.data() + text.size());
      ASSERT_FALSE(t.text.empty()) << "zero-width token in round " << round;
      prev = t.text.data() + t.text.size();
      ASSERT_LE(++tokens, len) << "more tokens than bytes: lexer is not advancing";
    }
  }
}

}  // namespace
}  // namespace hlograph::frontend
