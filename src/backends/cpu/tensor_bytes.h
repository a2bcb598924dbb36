// A device's values of one exchange as bytes, for a device in another
// process (process_span.h). The receiver knows the types it expects (every
// member of a collective passes values of the same types), so the bytes
// carry each value's type only to check it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "backends/cpu/tensor.h"
#include "hlograph/status.h"

namespace hlograph::cpu {

std::string EncodeTensors(const std::vector<Tensor>& values);

// The values `bytes` hold, of the types of `like`; an error names the first
// value whose type differs or bytes that end early.
StatusOr<std::vector<Tensor>> DecodeTensors(std::string_view bytes, const std::vector<Tensor>& like);

}  // namespace hlograph::cpu
