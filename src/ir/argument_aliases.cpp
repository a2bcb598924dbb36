#include "ir/argument_aliases.h"

#include <set>

#include "ir/attribute.h"
#include "ir/module.h"

namespace hlograph::ir {

std::vector<ArgumentAlias> ArgumentAliases(const Operation& function) {
  std::vector<ArgumentAlias> aliases;
  const auto* arg_attrs = function.attr("arg_attrs").as<ArrayAttr>();
  if (!arg_attrs) return aliases;
  const FunctionType signature = FunctionSignature(function);
  std::set<int> claimed;
  for (size_t a = 0; a < arg_attrs->elements.size() && a < signature.inputs.size(); ++a) {
    const auto* dict = arg_attrs->elements[a].as<DictionaryAttr>();
    if (!dict) continue;
    int result = -1;
    if (const Attribute* alias = FindEntry(*dict, "tf.aliasing_output")) {
      if (const auto* i = alias->as<IntegerAttr>()) result = static_cast<int>(i->value);
    } else if (const Attribute* donor = FindEntry(*dict, "jax.buffer_donor")) {
      const auto* b = donor->as<BoolAttr>();
      for (size_t r = 0; b && b->value && r < signature.results.size() && result < 0; ++r) {
        if (!claimed.count(static_cast<int>(r)) && signature.results[r] == signature.inputs[a]) {
          result = static_cast<int>(r);
        }
      }
    }
    if (result < 0 || result >= static_cast<int>(signature.results.size()) || !claimed.insert(result).second) continue;
    aliases.push_back({static_cast<int>(a), result,
                       signature.results[static_cast<size_t>(result)] == signature.inputs[a]});
  }
  return aliases;
}

}  // namespace hlograph::ir
