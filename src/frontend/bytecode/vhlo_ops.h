// The attributes each VHLO op version declares. A portable artifact stores
// an op's attributes as properties: values only, in the order of the
// attribute names sorted alphabetically, so the names come from here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hlograph::frontend::bytecode {

// Sorted attribute names of `vhlo_op` ("vhlo.dot_general_v2"); null when
// the op (at that version) is not one hlograph knows.
const std::vector<std::string>* VhloOpAttributeNames(std::string_view vhlo_op);

}  // namespace hlograph::frontend::bytecode
