#include "backends/gpu/plan/collective_plan.h"

#include <algorithm>
#include <sstream>

#include "ir/attribute.h"
#include "ir/collective_groups.h"
#include "ir/fold_body.h"

namespace hlograph::gpu {

std::string DevicePlace::ToString() const {
  return "replica " + std::to_string(replica) + " of " + std::to_string(replicas) + ", partition " +
         std::to_string(partition) + " of " + std::to_string(partitions);
}

Status DevicePlace::Verify() const {
  if (replicas < 1 || partitions < 1 || replica < 0 || replica >= replicas || partition < 0 ||
      partition >= partitions) {
    return Status::Error("the device place (" + ToString() + ") is outside its grid");
  }
  return Status::Ok();
}

const char* CollectiveKindName(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::kAllReduce: return "all_reduce";
    case CollectiveKind::kAllGather: return "all_gather";
    case CollectiveKind::kReduceScatter: return "reduce_scatter";
    case CollectiveKind::kAllToAll: return "all_to_all";
    case CollectiveKind::kPermute: return "collective_permute";
    case CollectiveKind::kBroadcast: return "collective_broadcast";
  }
  return "?";
}

const char* CollectiveReductionName(CollectiveReduction r) {
  switch (r) {
    case CollectiveReduction::kNone: return "none";
    case CollectiveReduction::kSum: return "sum";
    case CollectiveReduction::kProduct: return "prod";
    case CollectiveReduction::kMax: return "max";
    case CollectiveReduction::kMin: return "min";
  }
  return "?";
}

bool NcclReduces(ir::ElementType e, CollectiveReduction r) {
  using E = ir::ElementType;
  switch (e) {
    case E::kF32: case E::kF16: case E::kBF16: case E::kF64:
    case E::kI8: case E::kI32: case E::kI64: case E::kU8: case E::kU32: case E::kU64:
      return true;
    case E::kI1:  // bytes of 0 and 1: or is their max, and their min
      return r == CollectiveReduction::kMax || r == CollectiveReduction::kMin;
    default: return false;
  }
}

int64_t CollectiveConfig::bytes() const {
  int64_t total = 0;
  for (const CollectiveOperand& o : operands) total += o.bytes;
  return total;
}

std::string CollectiveConfig::ToString() const {
  std::ostringstream os;
  os << CollectiveKindName(kind);
  if (reduction != CollectiveReduction::kNone) os << " " << CollectiveReductionName(reduction);
  for (size_t i = 0; i < operands.size(); ++i) os << (i ? ", " : " ") << ir::ElementTypeName(operands[i].element);
  if (group.empty()) {
    os << " in no group (zeros)";
  } else {
    os << " over [";
    for (size_t i = 0; i < group.size(); ++i) os << (i ? ", " : "") << group[i];
    os << "] (rank " << rank << " of " << group.size() << ")";
  }
  if (kind == CollectiveKind::kPermute) {
    os << ": sends to " << (send_to >= 0 ? "rank " + std::to_string(send_to) : std::string("none"))
       << ", receives from " << (receive_from >= 0 ? "rank " + std::to_string(receive_from) : std::string("none (zeros)"));
  }
  os << ", " << bytes() << " bytes";
  int staged = 0;
  for (const CollectiveOperand& o : operands) staged += !o.send.contiguous() + !o.receive.contiguous();
  if (staged > 0) os << ", " << staged << " staged";
  return os.str();
}

namespace {

using E = ir::ElementType;

bool IsScalarOf(const ir::Type& t, E e) { return t.IsTensor() && t.rank() == 0 && t.element() == e; }

// The reduction of a body `(a, b) -> op(a, b)` on scalars of `e` (either
// operand order), as the interpreter computes it: on i1, add and or are
// max, multiply and and are min.
StatusOr<CollectiveReduction> MatchBody(const ir::Operation& op, E e) {
  const std::string expected = "expects a body (a, b) -> add, multiply, maximum or minimum of a and b";
  const ir::Operation* folds = ir::FoldOfBody(op);
  if (folds == nullptr) return Status::Error(expected);
  const ir::Operation& fold = *folds;
  if (!IsScalarOf(fold.operand(0)->type(), e) || !IsScalarOf(fold.operand(1)->type(), e) ||
      !IsScalarOf(fold.result(0)->type(), e)) {
    return Status::Error("expects a body on scalars of its operands' element type " +
                         std::string(ir::ElementTypeName(e)));
  }
  const bool pred = e == E::kI1;
  const ir::OpId name = fold.id();
  CollectiveReduction r = CollectiveReduction::kNone;
  if (name == ir::OpId::kAdd) r = pred ? CollectiveReduction::kMax : CollectiveReduction::kSum;
  if (name == ir::OpId::kMultiply) r = pred ? CollectiveReduction::kMin : CollectiveReduction::kProduct;
  if (name == ir::OpId::kMaximum || (pred && name == ir::OpId::kOr)) r = CollectiveReduction::kMax;
  if (name == ir::OpId::kMinimum || (pred && name == ir::OpId::kAnd)) r = CollectiveReduction::kMin;
  if (r == CollectiveReduction::kNone) {
    return Status::Error("reduces with '" + fold.name() + "', which NCCL has no reduction for (" +
                         expected.substr(8) + ")");
  }
  if (!NcclReduces(e, r)) {
    return Status::Error("reduces " + std::string(ir::ElementTypeName(e)) + " by " + CollectiveReductionName(r) +
                         ", which NCCL does not (it reduces f32, f16, bf16, f64, i8, i32, i64, ui8, ui32, ui64)");
  }
  return r;
}


// The product of `shape`'s dims before `dim`.
int64_t Outer(const std::vector<int64_t>& shape, int64_t dim) {
  int64_t outer = 1;
  for (int64_t d = 0; d < dim && d < static_cast<int64_t>(shape.size()); ++d) outer *= shape[static_cast<size_t>(d)];
  return outer;
}

// `bytes` split as [outer][n][chunk] along a dim with `outer` before it.
PieceLayout Pieces(int64_t outer, int64_t n, int64_t bytes) {
  PieceLayout p;
  if (outer <= 0 || n <= 0 || bytes == 0) return p;  // nothing moves
  p.outer = outer;
  p.chunk_bytes = bytes / (outer * n);
  return p;
}

StatusOr<int64_t> DimAttr(const ir::Operation& op, const char* name) {
  const auto* a = op.attr(name).as<ir::IntegerAttr>();
  if (a == nullptr) return Status::Error(std::string("expects an integer attribute ") + name);
  return a->value;
}

std::string Where(const ir::GridProcess& p) {
  return "(replica " + std::to_string(p.first) + ", partition " + std::to_string(p.second) + ")";
}

// `group` as logical ids in rank order, after checking each member is on
// the grid.
StatusOr<std::vector<int64_t>> LogicalIds(const ir::ProcessGroup& group, const DevicePlace& place) {
  std::vector<int64_t> ids;
  for (const ir::GridProcess& p : group) {
    if (p.first < 0 || p.first >= place.replicas || p.second < 0 || p.second >= place.partitions) {
      return Status::Error("its group names device " + Where(p) + ", outside the grid of " +
                           std::to_string(place.replicas) + " replica(s) x " + std::to_string(place.partitions) +
                           " partition(s) the program is compiled for");
    }
    ids.push_back(p.first * place.partitions + p.second);
  }
  return ids;
}

// The group of `groups` that holds this device: its members and rank.
// `required`: an error when there is none; else an empty group.
Status JoinGroup(const std::vector<ir::ProcessGroup>& groups, const DevicePlace& place, bool required,
                 CollectiveConfig& c) {
  const ir::GridProcess me{place.replica, place.partition};
  for (const ir::ProcessGroup& g : groups) {
    const auto at = std::find(g.begin(), g.end(), me);
    if (at == g.end()) continue;
    HLOGRAPH_ASSIGN(c.group, LogicalIds(g, place));
    c.rank = static_cast<int>(at - g.begin());
    return Status::Ok();
  }
  if (!required) return Status::Ok();
  return Status::Error("the device " + Where(me) + " is in none of its process groups");
}

CollectiveKind KindOf(ir::OpId name) {
  if (name == ir::OpId::kAllGather) return CollectiveKind::kAllGather;
  if (name == ir::OpId::kReduceScatter) return CollectiveKind::kReduceScatter;
  if (name == ir::OpId::kAllToAll) return CollectiveKind::kAllToAll;
  if (name == ir::OpId::kCollectivePermute) return CollectiveKind::kPermute;
  if (name == ir::OpId::kCollectiveBroadcast) return CollectiveKind::kBroadcast;
  return CollectiveKind::kAllReduce;
}

}  // namespace

bool IsCollective(const ir::Operation& op) {
  const ir::OpId n = op.id();
  return n == ir::OpId::kAllReduce || n == ir::OpId::kAllGather || n == ir::OpId::kReduceScatter ||
         n == ir::OpId::kAllToAll || n == ir::OpId::kCollectivePermute || n == ir::OpId::kCollectiveBroadcast;
}

StatusOr<CollectiveConfig> PlanCollective(const ir::Operation& op, const ir::Module& module,
                                          const DevicePlace& place) {
  if (!IsCollective(op)) return Status::Error("is not a collective");
  HLOGRAPH_TRY(place.Verify());
  CollectiveConfig c;
  c.kind = KindOf(op.id());
  if (c.kind == CollectiveKind::kBroadcast && op.attr("has_dynamic_root")) {
    return Status::Error("has a dynamic root, which the GPU backend does not take (the root must be the group's first)");
  }
  if (op.num_operands() != op.num_results() || op.num_operands() == 0) {
    return Status::Error("expects one result per operand");
  }
  for (size_t i = 0; i < op.num_operands(); ++i) {
    const ir::Type& t = op.operand(i)->type();
    const ir::Type& r = op.result(i)->type();
    if (!t.IsTensor() || !r.IsTensor() || t.element() != r.element()) {
      return Status::Error("expects tensor operands and results of one element type each");
    }
    if (i > 0 && (c.kind == CollectiveKind::kAllReduce || c.kind == CollectiveKind::kReduceScatter) &&
        t.element() != op.operand(0)->type().element()) {
      return Status::Error("reduces operands of several element types (NCCL reduces one type at a time)");
    }
  }
  const int64_t R = place.replicas, P = place.partitions;
  switch (c.kind) {
    case CollectiveKind::kAllReduce:
    case CollectiveKind::kAllGather:
    case CollectiveKind::kReduceScatter: {
      HLOGRAPH_ASSIGN(const ir::GroupScheme scheme, ir::ReplicaGroupScheme(op));
      HLOGRAPH_ASSIGN(const auto groups, ir::GroupsFromReplicaGroups(op, module, scheme, R, P));
      HLOGRAPH_TRY(JoinGroup(groups, place, true, c));
      break;
    }
    case CollectiveKind::kAllToAll:
    case CollectiveKind::kBroadcast: {
      HLOGRAPH_ASSIGN(const auto groups, ir::GroupsFromReplicaGroups(op, module, ir::ChannelScheme(op), R, P));
      HLOGRAPH_TRY(JoinGroup(groups, place, c.kind == CollectiveKind::kAllToAll, c));
      break;
    }
    case CollectiveKind::kPermute: {
      const ir::GroupScheme scheme = ir::ChannelScheme(op);
      const ir::ProcessGroup domain = ir::PermuteDomain(scheme, {place.replica, place.partition}, R, P);
      HLOGRAPH_ASSIGN(c.group, LogicalIds(domain, place));
      c.rank = static_cast<int>(scheme == ir::GroupScheme::kCrossReplica ? place.replica : place.partition);
      HLOGRAPH_ASSIGN(const auto pairs, ir::GroupRows(op, "source_target_pairs", module));
      for (const auto& pair : pairs) {
        if (pair.size() != 2) continue;
        for (int64_t id : pair) {
          if (id >= static_cast<int64_t>(domain.size())) {
            return Status::Error("pairs id " + std::to_string(id) + ", outside the " + std::to_string(domain.size()) +
                                 " device(s) it permutes among");
          }
        }
        if (pair[0] == c.rank) c.send_to = static_cast<int>(pair[1]);
        if (pair[1] == c.rank) c.receive_from = static_cast<int>(pair[0]);
      }
      break;
    }
  }
  if (c.kind == CollectiveKind::kAllReduce || c.kind == CollectiveKind::kReduceScatter) {
    HLOGRAPH_ASSIGN(c.reduction, MatchBody(op, op.operand(0)->type().element()));
  }
  const int64_t n = static_cast<int64_t>(c.group.size());
  for (size_t i = 0; i < op.num_operands(); ++i) {
    const ir::Type& t = op.operand(i)->type();
    const ir::Type& r = op.result(i)->type();
    CollectiveOperand o;
    o.element = t.element();
    o.elements = t.NumElements();
    o.bytes = t.StorageBytes();
    o.result_bytes = r.StorageBytes();
    if (c.kind == CollectiveKind::kAllGather) {
      HLOGRAPH_ASSIGN(const int64_t dim, DimAttr(op, "all_gather_dim"));
      o.receive = Pieces(Outer(t.shape(), dim), n, o.result_bytes);
    } else if (c.kind == CollectiveKind::kReduceScatter) {
      HLOGRAPH_ASSIGN(const int64_t dim, DimAttr(op, "scatter_dimension"));
      o.send = Pieces(Outer(t.shape(), dim), n, o.bytes);
    } else if (c.kind == CollectiveKind::kAllToAll) {
      HLOGRAPH_ASSIGN(const int64_t split, DimAttr(op, "split_dimension"));
      HLOGRAPH_ASSIGN(const int64_t concat, DimAttr(op, "concat_dimension"));
      HLOGRAPH_ASSIGN(const int64_t count, DimAttr(op, "split_count"));
      if (count != n) {
        return Status::Error("splits into " + std::to_string(count) + " pieces for a group of " + std::to_string(n));
      }
      std::vector<int64_t> piece = t.shape();
      if (split < 0 || split >= t.rank() || concat < 0 || concat >= t.rank()) {
        return Status::Error("expects its split and concat dimensions within the operand's rank");
      }
      piece[static_cast<size_t>(split)] /= n;
      o.send = Pieces(Outer(t.shape(), split), n, o.bytes);
      o.receive = Pieces(Outer(piece, concat), n, o.result_bytes);
    }
    c.operands.push_back(o);
  }
  return c;
}

}  // namespace hlograph::gpu
