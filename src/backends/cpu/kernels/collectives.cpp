// Collectives, send/recv, infeed/outfeed, replica_id and partition_id with
// the StableHLO spec's
// meaning over the devices of interpreter.run_parallel (each device a
// thread: backends/cpu/device_grid.h), and that op itself. On one device
// (no grid) a collective is the identity and the ids are 0.
//
// Process groups, as the spec defines them from replica_groups (or
// source_target_pairs), the channel id and use_global_device_ids:
//   cross_replica        for each partition, each group of replica ids;
//   cross_partition      for each replica, each group of partition ids;
//   cross_replica_and_partition  each group of replica ids in every partition;
//   flattened_ids        each group of ids replica * partitions + partition.
#include <algorithm>
#include <cstring>

#include "backends/cpu/device_grid.h"
#include "backends/cpu/interpreter.h"
#include "backends/cpu/kernel_util.h"
#include "backends/cpu/kernels/reduction_body.h"
#include "ir/collective_groups.h"
#include "ir/module.h"
#include "ir/verify/verify_util.h"

namespace hlograph::cpu {
namespace {

using Group = ir::ProcessGroup;
using ir::GroupScheme;

int64_t ChannelId(const ir::Operation& op) { return ir::CollectiveChannelId(op); }

// The group `me` is in, or an error naming the op's groups.
StatusOr<Group> GroupOf(const std::vector<Group>& groups, const Process& me) {
  for (const Group& g : groups) {
    if (std::find(g.begin(), g.end(), me) != g.end()) return g;
  }
  return Status::Error("the device (replica " + std::to_string(me.first) + ", partition " + std::to_string(me.second) +
                       ") is in none of its process groups");
}

// The groups of an op reading replica_groups over the run's grid.
StatusOr<std::vector<Group>> GroupsFromReplicaGroups(const KernelContext& ctx, GroupScheme scheme,
                                                     const DeviceGrid& grid) {
  return ir::GroupsFromReplicaGroups(ctx.op, ctx.interpreter.module(), scheme, grid.replicas(), grid.partitions());
}

// `body` applied element by element to a and b (same type), through the
// reductions' scalar evaluator (a compiled program where it can).
StatusOr<Tensor> Combine(Interpreter& interpreter, const ir::Region& body, const Tensor& a, const Tensor& b) {
  reduction::RegionEvaluator evaluator(body, interpreter);
  if (evaluator.num_args() != 2 || evaluator.num_results() != 1) {
    return Status::Error("expects a body of two scalars to one");
  }
  Tensor out(a.type());
  const reduction::LoadFn load = reduction::LoaderFor(a.element());
  const reduction::StoreFn store = reduction::StorerFor(a.element());
  for (int64_t i = 0; i < a.num_elements(); ++i) {
    load(a.bytes(), i, evaluator.args()[0]);
    load(b.bytes(), i, evaluator.args()[1]);
    HLOGRAPH_TRY(evaluator.Run());
    store(out.mutable_bytes(), i, evaluator.result(0));
  }
  return out;
}

// Pieces joined along `dim` (all of one shape but that dim) into `type`.
Tensor Concatenate(const std::vector<Tensor>& pieces, int64_t dim, const ir::Type& type) {
  Tensor out(type);
  const auto& shape = pieces.front().shape();
  int64_t outer = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= shape[static_cast<size_t>(d)];
  uint8_t* to = out.mutable_bytes();
  for (int64_t o = 0; o < outer; ++o) {
    for (const Tensor& p : pieces) {
      const size_t chunk = p.byte_size() / static_cast<size_t>(std::max<int64_t>(outer, 1));
      std::memcpy(to, p.bytes() + o * chunk, chunk);
      to += chunk;
    }
  }
  return out;
}

// Piece `k` of `n` equal pieces of `t` along `dim`.
Tensor Piece(const Tensor& t, int64_t dim, int64_t k, int64_t n) {
  std::vector<int64_t> shape = t.shape();
  shape[static_cast<size_t>(dim)] /= n;
  Tensor out(t.type().WithShape(shape));
  int64_t outer = 1;
  for (int64_t d = 0; d < dim; ++d) outer *= shape[static_cast<size_t>(d)];
  const size_t chunk = out.byte_size() / static_cast<size_t>(std::max<int64_t>(outer, 1));
  for (int64_t o = 0; o < outer; ++o) {
    std::memcpy(out.mutable_bytes() + o * chunk, t.bytes() + (o * n + k) * chunk, chunk);
  }
  return out;
}

std::vector<Tensor> Operands(const KernelContext& ctx) {
  std::vector<Tensor> v;
  for (const Tensor* t : ctx.operands) v.push_back(*t);
  return v;
}

// The group's values, this device's group and position in it.
struct Met {
  Group group;
  size_t position = 0;
  std::vector<std::vector<Tensor>> values;
};

StatusOr<Met> Meet(KernelContext& ctx, const std::vector<Group>& groups, std::vector<Tensor> mine) {
  const DeviceContext& d = *ctx.interpreter.device();
  Met m;
  HLOGRAPH_ASSIGN(m.group, GroupOf(groups, d.process));
  m.position = static_cast<size_t>(std::find(m.group.begin(), m.group.end(), d.process) - m.group.begin());
  HLOGRAPH_ASSIGN(m.values, d.grid->Exchange(m.group, d.process, ChannelId(ctx.op), std::move(mine)));
  return m;
}

// Each operand folded over the group in group order.
StatusOr<std::vector<Tensor>> ReduceOverGroup(KernelContext& ctx, const Met& m) {
  std::vector<Tensor> totals = m.values[0];
  for (size_t k = 1; k < m.values.size(); ++k) {
    for (size_t i = 0; i < totals.size(); ++i) {
      HLOGRAPH_ASSIGN(totals[i], Combine(ctx.interpreter, ctx.op.region(0), totals[i], m.values[k][i]));
    }
  }
  return totals;
}

Status AllReduce(KernelContext& ctx) {
  if (ctx.interpreter.device() == nullptr) return OperandsAsResults(ctx);
  HLOGRAPH_ASSIGN(const GroupScheme scheme, ir::ReplicaGroupScheme(ctx.op));
  HLOGRAPH_ASSIGN(const std::vector<Group> groups,
                  GroupsFromReplicaGroups(ctx, scheme, *ctx.interpreter.device()->grid));
  HLOGRAPH_ASSIGN(const Met m, Meet(ctx, groups, Operands(ctx)));
  HLOGRAPH_ASSIGN(ctx.results, ReduceOverGroup(ctx, m));
  return Status::Ok();
}

Status AllGather(KernelContext& ctx) {
  if (ctx.interpreter.device() == nullptr) return OperandsAsResults(ctx);
  HLOGRAPH_ASSIGN(const GroupScheme scheme, ir::ReplicaGroupScheme(ctx.op));
  HLOGRAPH_ASSIGN(const std::vector<Group> groups,
                  GroupsFromReplicaGroups(ctx, scheme, *ctx.interpreter.device()->grid));
  HLOGRAPH_ASSIGN(const Met m, Meet(ctx, groups, Operands(ctx)));
  const int64_t dim = IntAttr(ctx.op, "all_gather_dim", 0);
  for (size_t i = 0; i < ctx.op.num_results(); ++i) {
    std::vector<Tensor> pieces;
    for (const auto& member : m.values) pieces.push_back(member[i]);
    ctx.results.push_back(Concatenate(pieces, dim, ctx.result_type(i)));
  }
  return Status::Ok();
}

Status ReduceScatter(KernelContext& ctx) {
  if (ctx.interpreter.device() == nullptr) return OperandsAsResults(ctx);
  HLOGRAPH_ASSIGN(const GroupScheme scheme, ir::ReplicaGroupScheme(ctx.op));
  HLOGRAPH_ASSIGN(const std::vector<Group> groups,
                  GroupsFromReplicaGroups(ctx, scheme, *ctx.interpreter.device()->grid));
  HLOGRAPH_ASSIGN(const Met m, Meet(ctx, groups, Operands(ctx)));
  HLOGRAPH_ASSIGN(const std::vector<Tensor> totals, ReduceOverGroup(ctx, m));
  const int64_t dim = IntAttr(ctx.op, "scatter_dimension", 0);
  const int64_t n = static_cast<int64_t>(m.group.size());
  for (const Tensor& t : totals) ctx.results.push_back(Piece(t, dim, static_cast<int64_t>(m.position), n));
  return Status::Ok();
}

Status AllToAll(KernelContext& ctx) {
  if (ctx.interpreter.device() == nullptr) return OperandsAsResults(ctx);
  HLOGRAPH_ASSIGN(const std::vector<Group> groups,
                  GroupsFromReplicaGroups(ctx, ir::ChannelScheme(ctx.op), *ctx.interpreter.device()->grid));
  HLOGRAPH_ASSIGN(const Met m, Meet(ctx, groups, Operands(ctx)));
  const int64_t split = IntAttr(ctx.op, "split_dimension", 0);
  const int64_t concat = IntAttr(ctx.op, "concat_dimension", 0);
  const int64_t n = static_cast<int64_t>(m.group.size());
  for (size_t i = 0; i < ctx.op.num_results(); ++i) {
    std::vector<Tensor> pieces;
    for (const auto& member : m.values) pieces.push_back(Piece(member[i], split, static_cast<int64_t>(m.position), n));
    ctx.results.push_back(Concatenate(pieces, concat, ctx.result_type(i)));
  }
  return Status::Ok();
}

Status CollectivePermute(KernelContext& ctx) {
  const DeviceContext* d = ctx.interpreter.device();
  if (d == nullptr) return OperandsAsResults(ctx);
  const GroupScheme scheme = ir::ChannelScheme(ctx.op);
  HLOGRAPH_ASSIGN(const std::vector<std::vector<int64_t>> pairs,
                  ir::GroupRows(ctx.op, "source_target_pairs", ctx.interpreter.module()));
  HLOGRAPH_ASSIGN(const Met m, Meet(ctx, {ir::PermuteDomain(scheme, d->process, d->grid->replicas(), d->grid->partitions())}, Operands(ctx)));
  const int64_t me = scheme == GroupScheme::kCrossReplica ? d->process.first : d->process.second;
  Tensor result(ctx.result_type(0));  // zeros unless some source sends here
  for (const auto& pair : pairs) {
    if (pair.size() == 2 && pair[1] == me && pair[0] >= 0 && static_cast<size_t>(pair[0]) < m.values.size()) {
      result = m.values[static_cast<size_t>(pair[0])][0];
    }
  }
  ctx.results.push_back(std::move(result));
  return Status::Ok();
}

// Each data operand from the group's first process, or with
// has_dynamic_root from the process the last operand (a root index per data
// operand, this device's) names.
Status CollectiveBroadcast(KernelContext& ctx) {
  const bool dynamic_root = static_cast<bool>(ctx.op.attr("has_dynamic_root"));
  const size_t data = ctx.op.num_results();
  if (data + (dynamic_root ? 1 : 0) != ctx.operands.size()) {
    return ctx.Error("expects a result per data operand" + std::string(dynamic_root ? ", then the roots" : ""));
  }
  const DeviceContext* d = ctx.interpreter.device();
  if (d == nullptr) {
    for (size_t i = 0; i < data; ++i) ctx.results.push_back(ctx.operand(i));
    return Status::Ok();
  }
  const GroupScheme scheme = ir::ChannelScheme(ctx.op);
  HLOGRAPH_ASSIGN(const std::vector<Group> groups, GroupsFromReplicaGroups(ctx, scheme, *d->grid));
  if (!GroupOf(groups, d->process).ok()) {  // in no group: zeros
    for (size_t i = 0; i < data; ++i) ctx.results.emplace_back(ctx.result_type(i));
    return Status::Ok();
  }
  HLOGRAPH_ASSIGN(const Met m, Meet(ctx, groups, Operands(ctx)));
  for (size_t i = 0; i < data; ++i) {
    int64_t root = 0;
    if (dynamic_root) {
      const Tensor& roots = ctx.operand(data);
      if (roots.num_elements() <= static_cast<int64_t>(i) || roots.element() != ir::ElementType::kI32) {
        return ctx.Error("expects its last operand to hold an i32 root per data operand");
      }
      root = roots.data<int32_t>()[i];
    }
    if (root < 0 || root >= static_cast<int64_t>(m.values.size())) {
      return ctx.Error("root " + std::to_string(root) + " is outside its process group of " +
                       std::to_string(m.values.size()));
    }
    ctx.results.push_back(m.values[static_cast<size_t>(root)][i]);
  }
  return Status::Ok();
}

// The grid of a multi-device run, or an error for an op that needs one.
StatusOr<DeviceGrid*> GridFor(KernelContext& ctx) {
  const DeviceContext* d = ctx.interpreter.device();
  if (d == nullptr) return ctx.Error("runs only among the devices of interpreter.run_parallel on the CPU backend");
  return d->grid;
}

// The grid of send and recv: their channels join devices of one process.
StatusOr<DeviceGrid*> ChannelGridFor(KernelContext& ctx) {
  HLOGRAPH_ASSIGN(DeviceGrid* const grid, GridFor(ctx));
  if (grid->spans_processes()) {
    return ctx.Error("runs only among the devices of one process; this run spans several processes");
  }
  return grid;
}

// send: the data operands (the last operand is the token) onto the channel.
Status Send(KernelContext& ctx) {
  HLOGRAPH_ASSIGN(DeviceGrid* const grid, ChannelGridFor(ctx));
  std::vector<Tensor> data = Operands(ctx);
  if (!data.empty()) data.pop_back();
  grid->Send(ChannelId(ctx.op), std::move(data));
  ctx.results.emplace_back(ir::Type::Token());
  return Status::Ok();
}

// recv: the channel's next values, then a token.
Status Recv(KernelContext& ctx) {
  HLOGRAPH_ASSIGN(DeviceGrid* const grid, ChannelGridFor(ctx));
  HLOGRAPH_ASSIGN(std::vector<Tensor> data, grid->Receive(ChannelId(ctx.op)));
  if (data.size() + 1 != ctx.op.num_results()) {
    return ctx.Error("received " + std::to_string(data.size()) + " values, expects " +
                     std::to_string(ctx.op.num_results() - 1));
  }
  for (size_t i = 0; i < data.size(); ++i) {
    if (data[i].type() != ctx.result_type(i)) {
      return ctx.Error("received a " + data[i].type().ToString() + " for result " + std::to_string(i) + " of type " +
                       ctx.result_type(i).ToString());
    }
    ctx.results.push_back(std::move(data[i]));
  }
  ctx.results.emplace_back(ir::Type::Token());
  return Status::Ok();
}

Status Infeed(KernelContext& ctx) {
  HLOGRAPH_ASSIGN(DeviceGrid* const grid, GridFor(ctx));
  for (size_t i = 0; i + 1 < ctx.op.num_results(); ++i) {
    HLOGRAPH_ASSIGN(Tensor t, grid->TakeInfeed());
    if (t.type() != ctx.result_type(i)) {
      return ctx.Error("the infeed holds a " + t.type().ToString() + " where result " + std::to_string(i) +
                       " is a " + ctx.result_type(i).ToString());
    }
    ctx.results.push_back(std::move(t));
  }
  ctx.results.emplace_back(ir::Type::Token());
  return Status::Ok();
}

Status Outfeed(KernelContext& ctx) {
  HLOGRAPH_ASSIGN(DeviceGrid* const grid, GridFor(ctx));
  std::vector<Tensor> data = Operands(ctx);
  if (!data.empty()) data.pop_back();
  grid->Outfeed(std::move(data));
  ctx.results.emplace_back(ir::Type::Token());
  return Status::Ok();
}

Status Id(KernelContext& ctx, bool replica) {
  Tensor id(ctx.result_type(0));  // zero-filled: device 0
  if (const DeviceContext* d = ctx.interpreter.device(); d != nullptr && id.byte_size() >= 4) {
    const uint32_t v = static_cast<uint32_t>(replica ? d->process.first : d->process.second);
    std::memcpy(id.mutable_bytes(), &v, 4);
  }
  ctx.results.push_back(std::move(id));
  return Status::Ok();
}

// The function `attr` (a @symbol) names in the module, or an error naming
// `what` it was to be.
StatusOr<const ir::Operation*> FunctionNamed(KernelContext& ctx, const ir::Attribute& attr, const char* what) {
  const auto* sym = attr.as<ir::SymbolRefAttr>();
  const ir::Operation* func = sym ? ctx.interpreter.module().LookupFunction(sym->name) : nullptr;
  if (func == nullptr) return ctx.Error(std::string("names ") + what + " that is no function of the module");
  return func;
}

// interpreter.run_parallel: each function of `programs` ([replica][partition])
// on a thread of its own, as that device, on its share of the operands.
Status RunParallel(KernelContext& ctx) {
  const auto* programs = ctx.op.attr("programs").as<ir::ArrayAttr>();
  if (programs == nullptr || programs->elements.empty()) return ctx.Error("expects programs = [[@f, ...], ...]");
  std::vector<const ir::Operation*> device_funcs;  // device k = replica * partitions + partition
  size_t partitions = 0;
  for (const ir::Attribute& row : programs->elements) {
    const auto* r = row.as<ir::ArrayAttr>();
    if (r == nullptr || r->elements.empty()) return ctx.Error("expects each row of programs to list functions");
    if (partitions != 0 && r->elements.size() != partitions) return ctx.Error("expects rows of programs of one length");
    partitions = r->elements.size();
    for (const ir::Attribute& f : r->elements) {
      HLOGRAPH_ASSIGN(const ir::Operation* func, FunctionNamed(ctx, f, "a program"));
      device_funcs.push_back(func);
    }
  }
  // infeed = [@f, ...]: the queue is their results, in order.
  std::vector<Tensor> queue;
  if (const auto* infeed = ctx.op.attr("infeed").as<ir::ArrayAttr>()) {
    for (const ir::Attribute& f : infeed->elements) {
      HLOGRAPH_ASSIGN(const ir::Operation* func, FunctionNamed(ctx, f, "an infeed"));
      HLOGRAPH_ASSIGN(std::vector<Tensor> values, ctx.interpreter.Call(*func, {}));
      for (Tensor& t : values) queue.push_back(std::move(t));
    }
  }
  const size_t devices = device_funcs.size();
  std::vector<std::vector<Tensor>> args(devices);
  size_t next = 0;
  for (size_t k = 0; k < devices; ++k) {
    const size_t n = ir::FunctionSignature(*device_funcs[k]).inputs.size();
    if (next + n > ctx.operands.size()) return ctx.Error("has fewer operands than its programs take");
    for (size_t i = 0; i < n; ++i) args[k].push_back(*ctx.operands[next++]);
  }
  if (next != ctx.operands.size()) return ctx.Error("has more operands than its programs take");
  HLOGRAPH_ASSIGN(std::vector<std::vector<Tensor>> results,
                  RunOnGrid(ctx.interpreter.module(), static_cast<int64_t>(devices / partitions),
                            static_cast<int64_t>(partitions), device_funcs, args, std::move(queue)));
  for (auto& device : results) {
    for (Tensor& t : device) ctx.results.push_back(std::move(t));
  }
  return Status::Ok();
}

}  // namespace

void RegisterCollectiveKernels(KernelRegistry& r) {
  r.Register(ir::OpId::kAllReduce, &AllReduce);
  r.Register(ir::OpId::kAllGather, &AllGather);
  r.Register(ir::OpId::kReduceScatter, &ReduceScatter);
  r.Register(ir::OpId::kAllToAll, &AllToAll);
  r.Register(ir::OpId::kCollectivePermute, &CollectivePermute);
  r.Register(ir::OpId::kCollectiveBroadcast, &CollectiveBroadcast);
  r.Register(ir::OpId::kCrossReplicaSum, [](KernelContext& ctx) {
    if (ctx.interpreter.device() == nullptr) return OperandsAsResults(ctx);
    return ctx.Error("is not run on several devices (its sum has no body); use stablehlo.all_reduce");
  });
  r.Register(ir::OpId::kReplicaId, [](KernelContext& ctx) { return Id(ctx, true); });
  r.Register(ir::OpId::kPartitionId, [](KernelContext& ctx) { return Id(ctx, false); });
  r.Register(ir::OpId::kSend, &Send);
  r.Register(ir::OpId::kRecv, &Recv);
  r.Register(ir::OpId::kInfeed, &Infeed);
  r.Register(ir::OpId::kOutfeed, &Outfeed);
  r.Register(ir::OpId::kInterpreterRunParallel, &RunParallel);
}

}  // namespace hlograph::cpu
