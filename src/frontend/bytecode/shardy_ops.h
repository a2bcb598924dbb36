// The attributes Shardy's ops store as properties, in the order the
// bytecode holds them (sorted by name), each with whether it may be absent.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hlograph::frontend::bytecode {

using PropertyNames = std::vector<std::pair<std::string, bool>>;  // name, optional

// Null when `op` ("sdy.manual_computation") is not a Shardy op hlograph knows.
const PropertyNames* ShardyOpProperties(std::string_view op);

}  // namespace hlograph::frontend::bytecode
