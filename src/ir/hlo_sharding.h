// XLA's HloSharding text, the GSPMD annotations JAX emits without Shardy
// (`mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"`):
// which device holds which tile of a value.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "hlograph/status.h"

namespace hlograph::ir {

struct HloTileSharding {
  bool replicated = false;
  std::vector<int64_t> tile_dims;  // pieces per dimension of the value
  int64_t copies = 1;              // devices holding each tile (last_tile_dim_replicate)
  // The logical device ids, tile after tile (row-major over tile_dims),
  // each tile's copies together.
  std::vector<int64_t> devices;
};

// `{replicated}`, or `{devices=[...]...}` with the ids listed or as an iota
// (`<=[2,4]T(1,0)`), optionally `last_tile_dim_replicate` or
// `last_tile_dims={replicated}`. Maximal, manual and tuple shardings are
// refused by name.
StatusOr<HloTileSharding> ParseHloSharding(std::string_view text);

}  // namespace hlograph::ir
