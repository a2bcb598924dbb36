#include "ir/op_syntax.h"

namespace hlograph::ir {

std::vector<SyntaxItem> ParseSyntaxSpec(std::string_view spec) {
  std::vector<SyntaxItem> items;
  size_t i = 0;
  while (i < spec.size()) {
    while (i < spec.size() && spec[i] == ' ') ++i;
    size_t j = i;
    while (j < spec.size() && spec[j] != ' ') ++j;
    if (j == i) break;
    std::string_view word = spec.substr(i, j - i);
    i = j;
    SyntaxItem item{SyntaxItem::Kind::kLiteral, std::string(word)};
    if (word[0] == '^' && word.size() > 1) {
      item.glue = true;
      word.remove_prefix(1);
      item.text = std::string(word);
    }
    if (word == "ops") {
      item.kind = SyntaxItem::Kind::kOperands;
    } else if (word == "op0") {
      item.kind = SyntaxItem::Kind::kOperand0;
    } else if (word == "dict") {
      item.kind = SyntaxItem::Kind::kDict;
    } else if (word == "regions") {
      item.kind = SyntaxItem::Kind::kRegions;
    } else if (word == "?[") {
      item.kind = SyntaxItem::Kind::kOptBegin;
    } else if (word == "]?") {
      item.kind = SyntaxItem::Kind::kOptEnd;
    } else if (word[0] == '$' && word.size() > 1) {
      item.kind = SyntaxItem::Kind::kAttr;
      item.text = std::string(word.substr(1));
    } else if (word[0] == '@' && word.size() > 1) {
      item.kind = SyntaxItem::Kind::kSymbol;
      item.text = std::string(word.substr(1));
    } else if (word.substr(0, 7) == "custom:") {
      item.kind = SyntaxItem::Kind::kCustom;
      item.text = std::string(word.substr(7));
    } else if (word[0] == ':' && word.size() > 1) {
      item.kind = SyntaxItem::Kind::kTypes;
      item.text = std::string(word.substr(1));
    }
    items.push_back(std::move(item));
  }
  return items;
}

}  // namespace hlograph::ir
