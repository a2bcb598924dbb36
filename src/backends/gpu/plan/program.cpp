#include "backends/gpu/plan/program.h"

#include <sstream>

#include "backends/gpu/plan/buffer_plan.h"
#include "backends/gpu/plan/convolution_lowering.h"
#include "backends/gpu/plan/dot_lowering.h"
#include "backends/gpu/plan/flash_attention.h"
#include "ir/attribute.h"

namespace hlograph::gpu {

const char* BufferKindName(BufferKind kind) {
  switch (kind) {
    case BufferKind::kParameter: return "parameter";
    case BufferKind::kOutput: return "output";
    case BufferKind::kConstant: return "constant";
    case BufferKind::kTemp: return "temp";
  }
  return "?";
}

const char* FusionKindName(FusionKind kind) {
  switch (kind) {
    case FusionKind::kLoop: return "loop";
    case FusionKind::kReduction: return "reduction";
    case FusionKind::kTranspose: return "transpose";
    case FusionKind::kSort: return "sort";
    case FusionKind::kScatter: return "scatter";
    case FusionKind::kConvolution: return "convolution";
    case FusionKind::kTopK: return "top_k";
    case FusionKind::kFft: return "fft";
    case FusionKind::kRng: return "rng_bit_generator";
    case FusionKind::kUpdateSliceInPlace: return "update in place";
    case FusionKind::kDot: return "product";
    case FusionKind::kAttention: return "attention";
    case FusionKind::kFlashAttention: return "flash attention";
    case FusionKind::kScan: return "scan";
    case FusionKind::kRows: return "rows";
    case FusionKind::kDirectDot: return "direct product";
  }
  return "?";
}

std::vector<BufferId> StepReads(const Step& step) {
  if (const auto* k = std::get_if<KernelStep>(&step.action)) return k->inputs;
  if (const auto* g = std::get_if<GemmStep>(&step.action)) {
    std::vector<BufferId> ids = {g->lhs, g->rhs};
    if (g->bias >= 0) ids.push_back(g->bias);
    return ids;
  }
  if (const auto* cv = std::get_if<ConvolutionStep>(&step.action)) {
    std::vector<BufferId> ids = {cv->lhs, cv->rhs};
    ids.insert(ids.end(), cv->epilogue_operands.begin(), cv->epilogue_operands.end());
    return ids;
  }
  if (const auto* f = std::get_if<FftStep>(&step.action)) return {f->in};
  if (const auto* c = std::get_if<CopyStep>(&step.action)) return {c->src};
  if (const auto* h = std::get_if<HostStep>(&step.action)) return h->inputs;
  if (const auto* cl = std::get_if<CollectiveStep>(&step.action)) return cl->inputs;
  return {};
}

std::vector<BufferId> StepWrites(const Step& step) {
  if (const auto* k = std::get_if<KernelStep>(&step.action)) {
    std::vector<BufferId> ids = k->outputs;
    ids.insert(ids.end(), k->scratch.begin(), k->scratch.end());
    return ids;
  }
  if (const auto* g = std::get_if<GemmStep>(&step.action)) return {g->out};
  if (const auto* cv = std::get_if<ConvolutionStep>(&step.action)) return {cv->out};
  if (const auto* f = std::get_if<FftStep>(&step.action)) return {f->out};
  if (const auto* c = std::get_if<CopyStep>(&step.action)) return {c->dst};
  if (const auto* h = std::get_if<HostStep>(&step.action)) return h->outputs;
  if (const auto* cl = std::get_if<CollectiveStep>(&step.action)) {
    std::vector<BufferId> ids = cl->outputs;
    for (const auto* staging : {&cl->send_staging, &cl->receive_staging}) {
      for (BufferId id : *staging) {
        if (id >= 0) ids.push_back(id);
      }
    }
    return ids;
  }
  return {};
}

bool IsLibraryCall(const Step& step) {
  return std::holds_alternative<GemmStep>(step.action) || std::holds_alternative<ConvolutionStep>(step.action) ||
         std::holds_alternative<FftStep>(step.action) || std::holds_alternative<CollectiveStep>(step.action);
}

std::vector<int> FusionUses(const GpuProgram& program) {
  std::vector<int> uses(program.fusions.size(), 0);
  ForEachStep(program.main, [&](const Step& step, int) {
    if (const auto* k = std::get_if<KernelStep>(&step.action)) ++uses[static_cast<size_t>(k->fusion)];
  });
  return uses;
}

void CollectBuffers(const Step& step, std::set<BufferId>& ids) {
  for (BufferId id : StepReads(step)) ids.insert(id);
  for (BufferId id : StepWrites(step)) ids.insert(id);
  const auto nested = [&](const Sequence& seq) {
    for (const Step& s : seq.steps) CollectBuffers(s, ids);
  };
  if (const auto* w = std::get_if<WhileStep>(&step.action)) {
    ids.insert(w->state.begin(), w->state.end());
    ids.insert(w->next.begin(), w->next.end());
    ids.insert(w->pred);
    nested(w->cond);
    nested(w->body);
  } else if (const auto* cs = std::get_if<CaseStep>(&step.action)) {
    ids.insert(cs->index);
    ids.insert(cs->results.begin(), cs->results.end());
    for (const auto& r : cs->branch_results) ids.insert(r.begin(), r.end());
    for (const Sequence& b : cs->branches) nested(b);
  }
}

BufferId GpuProgram::AddBuffer(Buffer buffer) {
  buffers.push_back(std::move(buffer));
  return static_cast<BufferId>(buffers.size() - 1);
}

namespace {

std::string Ids(const std::vector<BufferId>& ids) {
  std::string s;
  for (size_t i = 0; i < ids.size(); ++i) s += (i ? ", b" : "b") + std::to_string(ids[i]);
  return s;
}

void PrintSequence(const GpuProgram& p, const Sequence& seq, int depth, std::ostringstream& os) {
  const std::string indent(static_cast<size_t>(2 * depth + 2), ' ');
  for (const Step& step : seq.steps) {
    os << indent;
    if (const auto* k = std::get_if<KernelStep>(&step.action)) {
      const Fusion& f = p.fusions[static_cast<size_t>(k->fusion)];
      os << "kernel " << f.name << " (" << FusionKindName(f.kind) << ") " << Ids(k->inputs) << " -> "
         << Ids(k->outputs);
      if (!k->scratch.empty()) os << ", scratch " << Ids(k->scratch);
      os << "\n";
    } else if (const auto* g = std::get_if<GemmStep>(&step.action)) {
      os << "gemm " << g->config.ToString() << " b" << g->lhs << ", b" << g->rhs;
      if (g->bias >= 0) os << ", bias b" << g->bias;
      os << " -> b" << g->out << "\n";
    } else if (const auto* cv = std::get_if<ConvolutionStep>(&step.action)) {
      os << cv->config.ToString() << " b" << cv->lhs << ", b" << cv->rhs;
      for (BufferId id : cv->epilogue_operands) os << ", b" << id;
      os << " -> b" << cv->out << "\n";
    } else if (const auto* ft = std::get_if<FftStep>(&step.action)) {
      os << ft->config.ToString() << " (cuFFT) b" << ft->in << " -> b" << ft->out << "\n";
    } else if (const auto* cl = std::get_if<CollectiveStep>(&step.action)) {
      os << "collective " << cl->config.ToString() << " " << Ids(cl->inputs) << " -> " << Ids(cl->outputs);
      std::vector<BufferId> staging;
      for (const auto* s : {&cl->send_staging, &cl->receive_staging}) {
        for (BufferId id : *s) {
          if (id >= 0) staging.push_back(id);
        }
      }
      if (!staging.empty()) os << ", staging " << Ids(staging);
      os << " (NCCL)\n";
    } else if (const auto* c = std::get_if<CopyStep>(&step.action)) {
      os << "copy b" << c->src << " -> b" << c->dst << " (" << c->bytes << " bytes)\n";
    } else if (const auto* h = std::get_if<HostStep>(&step.action)) {
      const auto* target = step.op ? step.op->attr("call_target_name").as<ir::StringAttr>() : nullptr;
      os << "host " << (target ? "@" + target->value : step.op ? step.op->name() : std::string("op")) << " "
         << Ids(h->inputs) << " -> "
         << Ids(h->outputs) << " (copied to the host and back)\n";
    } else if (const auto* w = std::get_if<WhileStep>(&step.action)) {
      os << "while state " << Ids(w->state);
      if (w->known_trip_count >= 0) os << " (" << w->known_trip_count << " iterations)";
      os << "\n" << indent << " cond -> b" << w->pred << "\n";
      PrintSequence(p, w->cond, depth + 1, os);
      os << indent << " body -> " << Ids(w->next) << "\n";
      PrintSequence(p, w->body, depth + 1, os);
    } else if (const auto* cs = std::get_if<CaseStep>(&step.action)) {
      os << (cs->index_is_pred ? "if b" : "case b") << cs->index << " -> " << Ids(cs->results) << "\n";
      for (size_t b = 0; b < cs->branches.size(); ++b) {
        os << indent << " branch " << b << " -> " << Ids(cs->branch_results[b]) << "\n";
        PrintSequence(p, cs->branches[b], depth + 1, os);
      }
    }
  }
}

}  // namespace

const ir::Operation* LastProduct(const Fusion& f) {
  const ir::Operation* dot = nullptr;
  for (const ir::Operation* op : f.ops) {
    if (op->id() == ir::OpId::kDotGeneral) dot = op;
  }
  return dot;
}

std::string GpuProgram::ToString() const {
  std::ostringstream os;
  int64_t constant_bytes = 0;
  for (const Buffer& b : buffers) {
    if (b.kind == BufferKind::kConstant) constant_bytes += b.bytes;
  }
  if (const std::string set = options.ToString(); set != "defaults") os << "plan options: " << set << "\n";
  if (place.devices() > 1) os << "planned for " << place.ToString() << "\n";
  os << "buffers (" << buffers.size() << "; arena " << arena_bytes << " bytes, constants " << constant_bytes
     << " bytes):\n";
  for (size_t i = 0; i < buffers.size(); ++i) {
    const Buffer& b = buffers[i];
    os << "  b" << i << " " << BufferKindName(b.kind);
    if (b.index >= 0) os << " " << b.index;
    os << " " << b.bytes << " bytes";
    if (b.kind == BufferKind::kTemp) {
      if (b.offset >= 0) {
        os << " @" << b.offset << " live " << b.first_use << ".." << b.last_use;
        if (b.in_place_of >= 0) os << " in place of b" << b.in_place_of;
        if (b.zero_at_rest) os << " zero at rest";
      } else {
        os << " unused";
      }
    }
    if (!b.label.empty()) os << "  ; " << b.label;
    os << "\n";
  }
  os << "kernels (" << fusions.size() << "):\n";
  for (const Fusion& f : fusions) {
    os << "  " << f.name << " " << FusionKindName(f.kind) << ":";
    if (f.kind == FusionKind::kTranspose) {
      os << " permute " << f.input_types[0].ToString() << " by [";
      for (size_t i = 0; i < f.permutation.size(); ++i) os << (i ? ", " : "") << f.permutation[i];
      os << "]";
      if (!f.reversed.empty()) {
        os << " reversing [";
        for (size_t i = 0; i < f.reversed.size(); ++i) os << (i ? ", " : "") << f.reversed[i];
        os << "]";
      }
    }
    for (const ir::Operation* op : f.ops) os << " " << op->name().substr(op->name().find('.') + 1);
    os << " -> ";
    for (size_t i = 0; i < f.output_types.size(); ++i) os << (i ? ", " : "") << f.output_types[i].ToString();
    if (f.kind == FusionKind::kConvolution && !f.ops.empty()) {
      os << " (not cuDNN: " << LowerConvolution(*f.ops.back()).status().message() << ")";
    }
    if (f.kind == FusionKind::kDirectDot && !f.ops.empty()) {
      os << " (not cuBLASLt: " << LowerDot(*f.ops.back()).status().message() << ")";
    }
    if (f.kind == FusionKind::kDot) os << " (" << f.tiling.ToString() << ")";
    if (f.kind == FusionKind::kScan) os << " (" << f.scan.ToString() << ")";
    if (f.kind == FusionKind::kSort || f.kind == FusionKind::kTopK) os << " (" << f.sort.ToString() << ")";
    if (f.kind == FusionKind::kAttention) {
      os << " (" << f.key_chunk << " keys a block";
      if (f.outputs.size() > 1) {
        os << "; stores its keys or values into " << f.outputs.size() - 1 << " loop states updated in place";
      }
      os << ")";
    }
    if (f.kind == FusionKind::kFlashAttention && !f.ops.empty()) {
      const ir::Operation* values = LastProduct(f);
      const auto a = values != nullptr ? MatchFlashAttention(*values) : std::nullopt;
      if (a) {
        os << " (" << a->queries << " queries x " << a->softmax.keys << " keys, " << a->window.ToString();
        if (f.key_chunk < a->softmax.keys) os << "; " << f.key_chunk << " keys a block, the last combining";
        os << ")";
      }
    }
    if (!f.early_inputs.empty()) {
      os << " [reads input";
      for (int i : f.early_inputs) os << " " << i;
      os << " before waiting for its producers]";
    }
    if (f.dependents_at_start) os << " [lets its dependents launch as it starts]";
    if (!f.prefetched_after_wait.empty()) os << " [asks L2 for a later product's weights once it has waited]";
    os << "\n";
  }
  os << "steps:\n";
  PrintSequence(*this, main, 0, os);
  os << "results: " << Ids(results) << "\n";
  for (const Donation& d : donations) {
    os << "donated: arg " << d.parameter << " -> result " << d.result
       << (d.in_place ? " (written in place)" : " (not in place: " + d.why + ")") << "\n";
  }
  return os.str();
}

Status GpuProgram::Verify() const {
  const auto valid = [&](BufferId id) { return id >= 0 && static_cast<size_t>(id) < buffers.size(); };
  std::string error;
  ForEachStep(main, [&](const Step& step, int) {
    if (!error.empty()) return;
    std::vector<BufferId> ids = StepReads(step);
    for (BufferId id : StepWrites(step)) ids.push_back(id);
    if (const auto* k = std::get_if<KernelStep>(&step.action)) {
      if (k->fusion < 0 || static_cast<size_t>(k->fusion) >= fusions.size()) {
        error = "a kernel step names no kernel";
        return;
      }
      const Fusion& f = fusions[static_cast<size_t>(k->fusion)];
      if (k->inputs.size() != f.input_types.size() || k->outputs.size() != f.output_types.size() ||
          k->scratch.size() != f.scratch_bytes.size()) {
        error = f.name + " is given " + std::to_string(k->inputs.size()) + " inputs, " +
                std::to_string(k->outputs.size()) + " outputs and " + std::to_string(k->scratch.size()) +
                " scratch buffers, expected " + std::to_string(f.input_types.size()) + ", " +
                std::to_string(f.output_types.size()) + " and " + std::to_string(f.scratch_bytes.size());
        return;
      }
    } else if (const auto* g = std::get_if<GemmStep>(&step.action)) {
      if ((g->bias >= 0) != (g->config.epilogue != GemmEpilogue::kNone)) error = "a GEMM's bias and epilogue disagree";
    } else if (const auto* cv = std::get_if<ConvolutionStep>(&step.action)) {
      size_t operands = 0;
      for (const ConvEpilogueOp& e : cv->config.epilogue) operands += e.operand != ConvOperand::kNone;
      if (operands != cv->epilogue_operands.size()) error = "a convolution's epilogue and its operands disagree";
      if (!cv->config.epilogue.empty() && cv->config.kind != ConvKind::kForward) {
        error = "an epilogue on a convolution that is not forward";
      }
    } else if (const auto* ft = std::get_if<FftStep>(&step.action)) {
      if (valid(ft->in) && valid(ft->out) &&
          (buffers[static_cast<size_t>(ft->in)].bytes != ft->config.input_bytes() ||
           buffers[static_cast<size_t>(ft->out)].bytes != ft->config.output_bytes())) {
        error = "an fft's buffers do not match its config (" + ft->config.ToString() + ")";
      }
    } else if (const auto* h = std::get_if<HostStep>(&step.action)) {
      if (!step.op || h->inputs.size() != step.op->num_operands() || h->outputs.size() != step.op->num_results()) {
        error = "a host step does not match its op's operands and results";
      }
    } else if (const auto* cl = std::get_if<CollectiveStep>(&step.action)) {
      const size_t n = cl->config.operands.size();
      if (cl->inputs.size() != n || cl->outputs.size() != n || cl->send_staging.size() != n ||
          cl->receive_staging.size() != n) {
        error = "a collective's buffers do not match its operands";
      }
      for (size_t i = 0; error.empty() && i < n; ++i) {
        const CollectiveOperand& o = cl->config.operands[i];
        if ((cl->send_staging[i] >= 0) == o.send.contiguous() || (cl->receive_staging[i] >= 0) == o.receive.contiguous()) {
          error = "a collective's staging buffers do not match its piece layouts";
        }
      }
    } else if (const auto* c = std::get_if<CopyStep>(&step.action)) {
      if (valid(c->src) && valid(c->dst) && buffers[static_cast<size_t>(c->src)].bytes < c->bytes) {
        error = "a copy reads past the end of b" + std::to_string(c->src);
      }
    } else if (const auto* w = std::get_if<WhileStep>(&step.action)) {
      ids.insert(ids.end(), w->state.begin(), w->state.end());
      ids.insert(ids.end(), w->next.begin(), w->next.end());
      ids.push_back(w->pred);
      if (w->state.size() != w->next.size()) error = "a loop's next values do not match its state";
    } else if (const auto* cs = std::get_if<CaseStep>(&step.action)) {
      ids.insert(ids.end(), cs->results.begin(), cs->results.end());
      ids.push_back(cs->index);
      if (cs->branches.empty() || cs->branches.size() != cs->branch_results.size()) error = "a case has no branches";
      for (const auto& r : cs->branch_results) {
        if (r.size() != cs->results.size()) error = "a case branch returns the wrong number of values";
        ids.insert(ids.end(), r.begin(), r.end());
      }
    }
    for (BufferId id : ids) {
      if (!valid(id)) error = "a step names buffer b" + std::to_string(id) + ", which does not exist";
    }
  });
  if (!error.empty()) return Status::Error("invalid GPU program: " + error);
  for (size_t i = 0; i < buffers.size(); ++i) {
    const Buffer& a = buffers[i];
    if (a.kind != BufferKind::kTemp || a.offset < 0) continue;
    if (a.offset % kBufferAlignment != 0 || a.offset + a.bytes > arena_bytes) {
      return Status::Error("invalid GPU program: b" + std::to_string(i) + " is misplaced in the arena");
    }
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      const Buffer& b = buffers[j];
      if (b.kind != BufferKind::kTemp || b.offset < 0) continue;
      const bool live_together = a.first_use <= b.last_use && b.first_use <= a.last_use;
      const bool overlap = a.offset < b.offset + std::max<int64_t>(b.bytes, 1) &&
                           b.offset < a.offset + std::max<int64_t>(a.bytes, 1);
      // An in-place pair shares one slot and touches at the kernel alone.
      const bool in_place = a.offset == b.offset && a.bytes == b.bytes &&
                            ((b.in_place_of == static_cast<BufferId>(i) && b.first_use == a.last_use) ||
                             (a.in_place_of == static_cast<BufferId>(j) && a.first_use == b.last_use));
      if (live_together && overlap && !in_place) {
        return Status::Error("invalid GPU program: b" + std::to_string(i) + " and b" + std::to_string(j) +
                             " share memory while both are live");
      }
    }
  }
  return Status::Ok();
}

}  // namespace hlograph::gpu
