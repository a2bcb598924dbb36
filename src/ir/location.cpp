#include "ir/location.h"

#include "ir/printing_utils.h"

namespace hlograph::ir {

std::string SourcePos::ToString() const {
  std::string f = file ? *file : std::string("<input>");
  return f + ":" + std::to_string(line) + ":" + std::to_string(col);
}

std::string Location::ToString() const {
  switch (kind) {
    case Kind::kUnknown: return "unknown";
    case Kind::kFile:
      return QuoteString(name) + ":" + std::to_string(line) + ":" + std::to_string(col);
    case Kind::kName: {
      std::string s = QuoteString(name);
      if (!children.empty()) {  // appended: GCC 12 -O3 warns falsely (-Wrestrict) on "literal" + a temporary string
        s += '(';
        s += children[0]->ToString();
        s += ')';
      }
      return s;
    }
    case Kind::kCallSite:
      return "callsite(" + children[0]->ToString() + " at " + children[1]->ToString() + ")";
    case Kind::kFused: {
      std::string s = "fused";
      if (!fused_metadata.empty()) s += "<" + fused_metadata + ">";
      s += "[";
      for (size_t i = 0; i < children.size(); ++i) {
        if (i) s += ", ";
        s += children[i]->ToString();
      }
      return s + "]";
    }
  }
  return "unknown";
}

std::string Location::Describe() const {
  switch (kind) {
    case Kind::kFile:
      return name + ":" + std::to_string(line) + ":" + std::to_string(col);
    case Kind::kName:
      if (!children.empty()) {
        std::string inner = children[0]->Describe();
        if (!inner.empty()) return name + " at " + inner;
      }
      return name;
    case Kind::kCallSite: return children[0]->Describe();
    case Kind::kFused:
      for (const LocationPtr& c : children) {
        std::string d = c->Describe();
        if (!d.empty()) return d;
      }
      return "";
    case Kind::kUnknown: return "";
  }
  return "";
}

}  // namespace hlograph::ir
