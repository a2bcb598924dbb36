#include "ir/hlo_sharding.h"

#include <cctype>
#include <numeric>
#include <string>

namespace hlograph::ir {
namespace {

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  bool Eat(std::string_view w) {
    Blanks();
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  bool Int(int64_t* out) {
    Blanks();
    const size_t start = pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (pos_ == start) return false;
    *out = std::stoll(std::string(s_.substr(start, pos_ - start)));
    return true;
  }
  // `[a,b,c]`.
  bool IntList(std::vector<int64_t>* out) {
    if (!Eat("[")) return false;
    if (Eat("]")) return true;
    do {
      int64_t v = 0;
      if (!Int(&v)) return false;
      out->push_back(v);
    } while (Eat(","));
    return Eat("]");
  }
  bool AtEnd() {
    Blanks();
    return pos_ == s_.size();
  }

 private:
  void Blanks() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  std::string_view s_;
  size_t pos_ = 0;
};

// `<=[dims]T(perm)`: iota(product) reshaped to dims, transposed by perm,
// flattened.
bool ReadIota(Reader& r, int64_t count, std::vector<int64_t>* devices) {
  std::vector<int64_t> dims, perm;
  if (!r.IntList(&dims)) return false;
  if (r.Eat("T(")) {
    do {
      int64_t p = 0;
      if (!r.Int(&p)) return false;
      perm.push_back(p);
    } while (r.Eat(","));
    if (!r.Eat(")")) return false;
  } else {
    perm.resize(dims.size());
    std::iota(perm.begin(), perm.end(), 0);
  }
  if (perm.size() != dims.size()) return false;
  int64_t total = 1;
  for (int64_t d : dims) total *= d;
  if (total != count) return false;
  std::vector<int64_t> shape, strides(dims.size(), 1);
  for (size_t k = dims.size(); k-- > 1;) strides[k - 1] = strides[k] * dims[k];
  for (int64_t p : perm) {
    if (p < 0 || static_cast<size_t>(p) >= dims.size()) return false;
    shape.push_back(dims[static_cast<size_t>(p)]);
  }
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t i = 0; i < total; ++i) {
    int64_t id = 0;
    for (size_t k = 0; k < shape.size(); ++k) id += index[k] * strides[static_cast<size_t>(perm[k])];
    devices->push_back(id);
    for (size_t k = shape.size(); k-- > 0;) {
      if (++index[k] < shape[k]) break;
      index[k] = 0;
    }
  }
  return true;
}

}  // namespace

StatusOr<HloTileSharding> ParseHloSharding(std::string_view text) {
  const auto refuse = [&](const std::string& what) {
    return Status::Error("the sharding " + std::string(text) + " " + what);
  };
  Reader r(text);
  HloTileSharding s;
  if (!r.Eat("{")) return refuse("is not an HloSharding");
  if (r.Eat("replicated")) {
    if (!r.Eat("}") || !r.AtEnd()) return refuse("is not an HloSharding");
    s.replicated = true;
    return s;
  }
  if (r.Eat("maximal")) return refuse("puts the value on one device (maximal), which hlograph does not partition");
  if (r.Eat("manual")) return refuse("is manual (shard_map), not a tiling");
  if (r.Eat("{")) return refuse("is a tuple sharding, which hlograph does not partition");
  std::vector<int64_t> dims;
  if (!r.Eat("devices=") || !r.IntList(&dims) || dims.empty()) return refuse("is not an HloSharding");
  int64_t count = 1;
  for (int64_t d : dims) count *= d;
  if (r.Eat("<=")) {
    if (!ReadIota(r, count, &s.devices)) return refuse("has an iota tile assignment hlograph cannot read");
  } else {
    do {
      int64_t id = 0;
      if (!r.Int(&id)) return refuse("is not an HloSharding");
      s.devices.push_back(id);
    } while (r.Eat(","));
  }
  if (static_cast<int64_t>(s.devices.size()) != count) return refuse("lists another number of devices than tiles");
  if (r.Eat("last_tile_dim_replicate") || r.Eat("last_tile_dims={replicated}")) {
    s.copies = dims.back();
    dims.pop_back();
  } else if (r.Eat("last_tile_dims")) {
    return refuse("has last tile dims other than replicated, which hlograph does not partition");
  }
  if (!r.Eat("}") || !r.AtEnd()) return refuse("has parts hlograph does not read");
  s.tile_dims = std::move(dims);
  return s;
}

}  // namespace hlograph::ir
