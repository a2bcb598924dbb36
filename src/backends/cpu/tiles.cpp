#include "backends/cpu/tiles.h"

#include <cstring>

namespace hlograph::cpu {
namespace {

// Calls copy(whole_offset, piece_offset, bytes) for each row (the last
// dimension's run) of the tile, offsets in bytes.
template <typename Fn>
void ForEachRow(const std::vector<int64_t>& whole_shape, const std::vector<int64_t>& counts,
                const std::vector<int64_t>& tile, size_t element_bytes, Fn&& copy) {
  const size_t rank = whole_shape.size();
  if (rank == 0) {
    copy(0, 0, element_bytes);
    return;
  }
  std::vector<int64_t> piece_shape(rank), origin(rank);
  for (size_t d = 0; d < rank; ++d) {
    piece_shape[d] = whole_shape[d] / counts[d];
    origin[d] = tile[d] * piece_shape[d];
  }
  const std::vector<int64_t> strides = RowMajorStrides(whole_shape);
  const size_t row = static_cast<size_t>(piece_shape.back()) * element_bytes;
  std::vector<int64_t> rows_shape(piece_shape.begin(), piece_shape.end() - 1);
  size_t piece_offset = 0;
  ForEachIndex(rows_shape, [&](const std::vector<int64_t>& index) {
    int64_t at = origin.back();
    for (size_t d = 0; d + 1 < rank; ++d) at += (origin[d] + index[d]) * strides[d];
    copy(static_cast<size_t>(at) * element_bytes, piece_offset, row);
    piece_offset += row;
  });
}

size_t ElementBytes(const Tensor& t) {
  return t.num_elements() > 0 ? t.byte_size() / static_cast<size_t>(t.num_elements()) : 0;
}

}  // namespace

Tensor CutTile(const Tensor& whole, const std::vector<int64_t>& counts, const std::vector<int64_t>& tile) {
  std::vector<int64_t> shape = whole.shape();
  for (size_t d = 0; d < shape.size(); ++d) shape[d] /= counts[d];
  Tensor piece(whole.type().WithShape(shape));
  if (piece.byte_size() == 0) return piece;
  ForEachRow(whole.shape(), counts, tile, ElementBytes(whole), [&](size_t at, size_t to, size_t n) {
    std::memcpy(piece.mutable_bytes() + to, whole.bytes() + at, n);
  });
  return piece;
}

void PlaceTile(Tensor& whole, const std::vector<int64_t>& counts, const std::vector<int64_t>& tile,
               const Tensor& piece) {
  if (piece.byte_size() == 0) return;
  ForEachRow(whole.shape(), counts, tile, ElementBytes(whole), [&](size_t at, size_t from, size_t n) {
    std::memcpy(whole.mutable_bytes() + at, piece.bytes() + from, n);
  });
}

}  // namespace hlograph::cpu
