#include "ir/sharding.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "ir/attribute.h"

namespace hlograph::ir {
namespace {

// Reads Shardy's attribute syntax: strings, integers, @symbols and
// punctuation, blanks anywhere between them.
class Reader {
 public:
  explicit Reader(std::string_view text) : s_(text) {}

  bool Peek(char c) {
    Blanks();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  bool Eat(char c) {
    if (!Peek(c)) return false;
    ++pos_;
    return true;
  }
  bool Word(std::string_view w) {
    Blanks();
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  bool String(std::string* out) {
    if (!Eat('"')) return false;
    out->clear();
    while (pos_ < s_.size() && s_[pos_] != '"') {
      if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
      out->push_back(s_[pos_++]);
    }
    return pos_ < s_.size() && s_[pos_++] == '"';
  }
  bool Int(int64_t* out) {
    Blanks();
    const size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    if (pos_ == start || (pos_ == start + 1 && s_[start] == '-')) return false;
    *out = std::stoll(std::string(s_.substr(start, pos_ - start)));
    return true;
  }
  bool Symbol(std::string* out) {
    if (!Eat('@')) return false;
    const size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' ||
                                s_[pos_] == '.' || s_[pos_] == '$' || s_[pos_] == '-')) {
      ++pos_;
    }
    *out = std::string(s_.substr(start, pos_ - start));
    return !out->empty();
  }
  bool AtEnd() {
    Blanks();
    return pos_ == s_.size();
  }
  size_t Position() {
    Blanks();
    return pos_;
  }
  std::string_view Since(size_t start) const { return s_.substr(start, pos_ - start); }
  Status Error(const std::string& what) const {
    return Status::Error("cannot read " + what + " at offset " + std::to_string(pos_) + " of " + std::string(s_));
  }

 private:
  void Blanks() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  std::string_view s_;
  size_t pos_ = 0;
};

// A comma-separated list up to `close` (the opening one read already).
template <typename Fn>
bool List(Reader& r, char close, Fn&& item) {
  if (r.Eat(close)) return true;
  do {
    if (!item()) return false;
  } while (r.Eat(','));
  return r.Eat(close);
}

// `"x"` or `"x":(2)4`.
bool ReadAxisRef(Reader& r, AxisRef* a) {
  if (!r.String(&a->name)) return false;
  if (!r.Eat(':')) return true;
  return r.Eat('(') && r.Int(&a->pre_size) && r.Eat(')') && r.Int(&a->size);
}

bool ReadMeshBody(Reader& r, Mesh* m) {
  if (!r.Eat('<') || !r.Eat('[')) return false;
  const bool axes = List(r, ']', [&] {
    MeshAxis a;
    if (!r.String(&a.name) || !r.Eat('=') || !r.Int(&a.size)) return false;
    m->axes.push_back(std::move(a));
    return true;
  });
  if (!axes) return false;
  if (r.Eat(',')) {
    if (!r.Word("device_ids") || !r.Eat('=') || !r.Eat('[')) return false;
    const bool ids = List(r, ']', [&] {
      int64_t id = 0;
      if (!r.Int(&id)) return false;
      m->device_ids.push_back(id);
      return true;
    });
    if (!ids) return false;
  }
  return r.Eat('>');
}

// `{"x", "y"}` (manual axes, replicated and unreduced axes).
bool ReadAxisSet(Reader& r, std::vector<AxisRef>* out) {
  return r.Eat('{') && List(r, '}', [&] {
           out->emplace_back();
           return ReadAxisRef(r, &out->back());
         });
}

// `{"x", ?}p1`: the axes, then whether more may come (ignored) and the
// priority (ignored).
bool ReadDimSharding(Reader& r, std::vector<AxisRef>* axes) {
  if (!r.Eat('{')) return false;
  const bool ok = List(r, '}', [&] {
    if (r.Eat('?')) return true;
    axes->emplace_back();
    return ReadAxisRef(r, &axes->back());
  });
  int64_t priority = 0;
  if (ok && r.Peek('p')) return r.Word("p") && r.Int(&priority);
  return ok;
}

// `<@mesh, [{"x"}, {}], replicated={"y"}, unreduced={"z"}>`.
bool ReadShardingBody(Reader& r, TensorSharding* t) {
  if (!r.Eat('<')) return false;
  if (r.Peek('@')) {
    if (!r.Symbol(&t->mesh_name)) return false;
  } else {
    if (!r.Word("#sdy.mesh") && !r.Word("mesh")) return false;
    t->inline_mesh.emplace();
    if (!ReadMeshBody(r, &*t->inline_mesh)) return false;
  }
  if (!r.Eat(',') || !r.Eat('[')) return false;
  const bool dims = List(r, ']', [&] {
    t->dims.emplace_back();
    return ReadDimSharding(r, &t->dims.back());
  });
  if (!dims) return false;
  while (r.Eat(',')) {
    std::vector<AxisRef> replicated;
    if (r.Word("replicated")) {
      if (!r.Eat('=') || !ReadAxisSet(r, &replicated)) return false;
    } else if (r.Word("unreduced")) {
      if (!r.Eat('=') || !ReadAxisSet(r, &t->unreduced)) return false;
    } else {
      return false;
    }
  }
  return r.Eat('>');
}

std::string AxisText(const AxisRef& a) {
  std::string s = "\"" + a.name + "\"";
  if (a.size != 0) s += ":(" + std::to_string(a.pre_size) + ")" + std::to_string(a.size);
  return s;
}

StatusOr<MeshFactor> FactorOf(const Mesh& mesh, const AxisRef& a) {
  const std::optional<size_t> axis = mesh.AxisIndex(a.name);
  if (!axis) return Status::Error("names the axis \"" + a.name + "\", which its mesh does not have");
  const int64_t axis_size = mesh.axes[*axis].size;
  MeshFactor f{*axis, a.pre_size, a.size == 0 ? axis_size : a.size};
  if (f.pre_size < 1 || f.size < 1 || axis_size % (f.pre_size * f.size) != 0) {
    return Status::Error("names " + AxisText(a) + ", which is no factor of the axis of size " +
                         std::to_string(axis_size));
  }
  return f;
}

// Mixed radix: the first factor major.
int64_t IndexOver(const std::vector<MeshFactor>& factors, const std::vector<int64_t>& coordinates) {
  int64_t index = 0;
  for (const MeshFactor& f : factors) index = index * f.size + f.Of(coordinates);
  return index;
}

// `coordinates` with the factors set to the digits of `index` (mixed radix).
void SetIndex(const std::vector<MeshFactor>& factors, int64_t index, std::vector<int64_t>& coordinates) {
  for (size_t k = factors.size(); k-- > 0;) {
    const MeshFactor& f = factors[k];
    int64_t& c = coordinates[f.axis];
    c += (index % f.size - f.Of(coordinates)) * f.pre_size;
    index /= f.size;
  }
}

std::vector<int64_t> CoordinatesAt(const Mesh& mesh, int64_t position) {
  std::vector<int64_t> c(mesh.axes.size());
  for (size_t k = mesh.axes.size(); k-- > 0;) {
    c[k] = position % mesh.axes[k].size;
    position /= mesh.axes[k].size;
  }
  return c;
}

}  // namespace

int64_t Mesh::size() const {
  int64_t n = 1;
  for (const MeshAxis& a : axes) n *= a.size;
  return n;
}

std::optional<size_t> Mesh::AxisIndex(std::string_view name) const {
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i].name == name) return i;
  }
  return std::nullopt;
}

StatusOr<std::vector<int64_t>> Mesh::Coordinates(int64_t device) const {
  int64_t position = device;
  if (!device_ids.empty()) {
    const auto at = std::find(device_ids.begin(), device_ids.end(), device);
    position = at == device_ids.end() ? -1 : static_cast<int64_t>(at - device_ids.begin());
  }
  if (position < 0 || position >= size()) {
    return Status::Error("device " + std::to_string(device) + " is not in the mesh of " + std::to_string(size()) +
                         " devices");
  }
  return CoordinatesAt(*this, position);
}

int64_t Mesh::DeviceAt(const std::vector<int64_t>& coordinates) const {
  int64_t position = 0;
  for (size_t k = 0; k < axes.size(); ++k) position = position * axes[k].size + coordinates[k];
  return device_ids.empty() ? position : device_ids[static_cast<size_t>(position)];
}

StatusOr<Mesh> ParseMesh(std::string_view text) {
  Reader r(text);
  Mesh m;
  if (!r.Word("#sdy.mesh")) r.Word("mesh");
  if (!ReadMeshBody(r, &m) || !r.AtEnd()) return r.Error("a Shardy mesh");
  if (!m.device_ids.empty() && static_cast<int64_t>(m.device_ids.size()) != m.size()) {
    return Status::Error("the mesh " + std::string(text) + " lists " + std::to_string(m.device_ids.size()) +
                         " device ids for " + std::to_string(m.size()) + " devices");
  }
  return m;
}

StatusOr<TensorSharding> ParseTensorSharding(std::string_view text) {
  Reader r(text);
  TensorSharding t;
  t.text = std::string(text);
  r.Word("#sdy.sharding");
  if (!ReadShardingBody(r, &t) || !r.AtEnd()) return r.Error("a Shardy sharding");
  return t;
}

StatusOr<std::vector<TensorSharding>> ParseShardingPerValue(std::string_view text) {
  Reader r(text);
  std::vector<TensorSharding> out;
  r.Word("#sdy.sharding_per_value");
  const bool ok = r.Eat('<') && r.Eat('[') && List(r, ']', [&] {
                    out.emplace_back();
                    const size_t start = r.Position();
                    if (!ReadShardingBody(r, &out.back())) return false;
                    out.back().text = "#sdy.sharding" + std::string(r.Since(start));
                    return true;
                  }) && r.Eat('>') && r.AtEnd();
  if (!ok) return r.Error("Shardy shardings per value");
  return out;
}

StatusOr<std::vector<std::string>> ParseManualAxes(std::string_view text) {
  Reader r(text);
  std::vector<AxisRef> axes;
  const bool ok = r.Word("#sdy<manual_axes") && ReadAxisSet(r, &axes) && r.Eat('>') && r.AtEnd();
  if (!ok) return r.Error("Shardy manual axes");
  std::vector<std::string> names;
  for (const AxisRef& a : axes) names.push_back(a.name);
  return names;
}

StatusOr<MeshAxesGroups> ParseReplicaGroupMeshAxes(std::string_view text) {
  Reader r(text);
  MeshAxesGroups g;
  const bool ok = r.Word("#stablehlo.replica_group_mesh_axes") && r.Eat('<') && r.Word("mesh") && r.Eat('=') &&
                  r.Symbol(&g.mesh_name) && r.Eat(',') && r.Word("axes") && r.Eat('=') && r.Eat('[') &&
                  List(r, ']', [&] {
                    AxisRef a;
                    if (!r.Word("#stablehlo.axis_ref") || !r.Eat('<') || !r.Word("name") || !r.Eat('=') ||
                        !r.String(&a.name)) {
                      return false;
                    }
                    if (r.Eat(',')) {
                      if (!r.Word("sub_axis_info") || !r.Eat('=') || !r.Word("#stablehlo.sub_axis_info") ||
                          !r.Eat('<') || !r.Word("pre_size") || !r.Eat('=') || !r.Int(&a.pre_size) ||
                          !r.Eat(',') || !r.Word("size") || !r.Eat('=') || !r.Int(&a.size) || !r.Eat('>')) {
                        return false;
                      }
                    }
                    g.axes.push_back(std::move(a));
                    return r.Eat('>');
                  }) &&
                  r.Eat('>') && r.AtEnd();
  if (!ok) return r.Error("replica groups over mesh axes");
  return g;
}

StatusOr<Mesh> LookupMesh(const Module& module, const std::string& name) {
  for (const auto& op : module.body().operations()) {
    if (op->id() != OpId::kSdyMesh) continue;
    const auto* sym = op->attr("sym_name").as<StringAttr>();
    if (sym == nullptr || sym->value != name) continue;
    const auto* mesh = op->attr("mesh").as<OpaqueAttr>();
    if (mesh == nullptr) return Status::Error("the mesh @" + name + " has no mesh attribute");
    return ParseMesh(mesh->text);
  }
  return Status::Error("the module has no mesh @" + name);
}

StatusOr<Mesh> MeshOf(const Module& module, const TensorSharding& sharding) {
  if (sharding.inline_mesh) return *sharding.inline_mesh;
  return LookupMesh(module, sharding.mesh_name);
}

StatusOr<std::vector<std::vector<int64_t>>> MeshAxesDeviceGroups(const Mesh& mesh, const MeshAxesGroups& groups) {
  std::vector<MeshFactor> factors;
  int64_t group_size = 1;
  for (const AxisRef& a : groups.axes) {
    HLOGRAPH_ASSIGN(const MeshFactor f, FactorOf(mesh, a));
    factors.push_back(f);
    group_size *= f.size;
  }
  // Devices with the same coordinates once the factors are zeroed share a group.
  std::map<std::vector<int64_t>, std::vector<int64_t>> by_rest;
  std::vector<std::vector<int64_t>> order;  // groups in order of their first device's position
  for (int64_t p = 0; p < mesh.size(); ++p) {
    std::vector<int64_t> c = CoordinatesAt(mesh, p);
    const int64_t index = IndexOver(factors, c);
    std::vector<int64_t> rest = c;
    SetIndex(factors, 0, rest);
    auto [it, fresh] = by_rest.try_emplace(rest, std::vector<int64_t>(static_cast<size_t>(group_size), -1));
    if (fresh) order.push_back(rest);
    it->second[static_cast<size_t>(index)] = mesh.DeviceAt(c);
  }
  std::vector<std::vector<int64_t>> out;
  for (const auto& rest : order) out.push_back(by_rest[rest]);
  return out;
}

std::vector<int64_t> ShardLayout::Counts() const {
  std::vector<int64_t> counts;
  for (const auto& dim : factors) {
    int64_t n = 1;
    for (const MeshFactor& f : dim) n *= f.size;
    counts.push_back(n);
  }
  return counts;
}

bool ShardLayout::IsReplicated() const {
  for (int64_t n : Counts()) {
    if (n != 1) return false;
  }
  return true;
}

std::vector<int64_t> ShardLayout::TileOf(const std::vector<int64_t>& coordinates) const {
  std::vector<int64_t> tile;
  for (const auto& dim : factors) tile.push_back(IndexOver(dim, coordinates));
  return tile;
}

int64_t ShardLayout::DeviceOfTile(const std::vector<int64_t>& coordinates, const std::vector<int64_t>& tile) const {
  std::vector<int64_t> c = coordinates;
  for (size_t d = 0; d < factors.size(); ++d) SetIndex(factors[d], tile[d], c);
  return mesh.DeviceAt(c);
}

StatusOr<std::vector<int64_t>> ShardLayout::LocalShape(const std::vector<int64_t>& global) const {
  const std::vector<int64_t> counts = Counts();
  std::vector<int64_t> local = global;
  for (size_t d = 0; d < global.size() && d < counts.size(); ++d) {
    if (global[d] % counts[d] != 0) {
      return Status::Error("dimension " + std::to_string(d) + " of size " + std::to_string(global[d]) +
                           " does not divide into " + std::to_string(counts[d]) + " equal pieces");
    }
    local[d] = global[d] / counts[d];
  }
  return local;
}

StatusOr<ShardLayout> LayoutOf(const Mesh& mesh, const TensorSharding& sharding, size_t rank,
                               const std::vector<std::string>* only_axes) {
  if (!sharding.unreduced.empty()) {
    return Status::Error("has unreduced axes, which hlograph does not run: " + sharding.text);
  }
  if (sharding.dims.size() != rank) {
    return Status::Error("shards " + std::to_string(sharding.dims.size()) + " dimensions of a value of rank " +
                         std::to_string(rank) + ": " + sharding.text);
  }
  ShardLayout layout{mesh, {}};
  for (const auto& dim : sharding.dims) {
    layout.factors.emplace_back();
    for (const AxisRef& a : dim) {
      if (only_axes && std::find(only_axes->begin(), only_axes->end(), a.name) == only_axes->end()) continue;
      auto f = FactorOf(mesh, a);
      if (!f.ok()) return Status::Error(sharding.text + " " + f.status().message());
      layout.factors.back().push_back(*f);
    }
  }
  return layout;
}

std::string ToHloSharding(const ShardLayout& layout) {
  if (layout.IsReplicated()) return "{replicated}";
  const std::vector<int64_t> counts = layout.Counts();
  int64_t tiles = 1;
  for (int64_t n : counts) tiles *= n;
  const int64_t copies = layout.mesh.size() / tiles;
  // Each tile's devices in mesh order: the tile assignment [counts..., copies].
  std::vector<std::vector<int64_t>> holders(static_cast<size_t>(tiles));
  for (int64_t p = 0; p < layout.mesh.size(); ++p) {
    const std::vector<int64_t> c = CoordinatesAt(layout.mesh, p);
    int64_t t = 0;
    const std::vector<int64_t> tile = layout.TileOf(c);
    for (size_t d = 0; d < tile.size(); ++d) t = t * counts[d] + tile[d];
    holders[static_cast<size_t>(t)].push_back(layout.mesh.DeviceAt(c));
  }
  return TiledHloSharding(counts, copies, holders);
}

std::string TiledHloSharding(const std::vector<int64_t>& counts, int64_t copies,
                             const std::vector<std::vector<int64_t>>& holders) {
  std::string s = "{devices=[";
  for (size_t d = 0; d < counts.size(); ++d) s += (d ? "," : "") + std::to_string(counts[d]);
  if (copies > 1) s += "," + std::to_string(copies);
  s += "]";
  bool first = true;
  for (const auto& h : holders) {
    for (int64_t id : h) {
      s += (first ? "" : ",") + std::to_string(id);
      first = false;
    }
  }
  if (copies > 1) s += " last_tile_dim_replicate";
  return s + "}";
}

}  // namespace hlograph::ir
