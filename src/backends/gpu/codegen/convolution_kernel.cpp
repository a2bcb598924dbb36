// stablehlo.convolution: one output element per thread (or per warp when the
// outputs are too few to fill the device), summing over its group's input
// features and the window. The semantics are the interpreter's
// (src/backends/cpu/kernels/conv.cpp): any dimension numbers, strides,
// padding (also negative), lhs/rhs dilation, window reversal, feature and
// batch groups, and mixed element types accumulated as dot_general does.
#include "backends/gpu/codegen/body_emitter.h"
#include "backends/gpu/codegen/output_sum.h"

namespace hlograph::gpu::emit {
namespace {

int64_t IntAttrOr(const ir::Operation& op, const std::string& name, int64_t fallback) {
  const auto* a = op.attr(name).as<ir::IntegerAttr>();
  return a ? a->value : fallback;
}

// "a * s" without the multiplication when s is 1.
std::string Times(const std::string& a, int64_t s) { return s == 1 ? a : a + " * " + std::to_string(s) + "LL"; }

// The convolution's attributes, read once.
struct Conv {
  const ir::ConvDimsAttr* dn = nullptr;
  const ir::Value* lhs = nullptr;
  const ir::Value* rhs = nullptr;
  ir::Type out_type;
  size_t spatial = 0;
  std::vector<int64_t> strides, lhs_dilation, rhs_dilation, reversal;
  ir::verify::Padding padding;
  int64_t feature_groups = 1, batch_groups = 1, group_out = 0;

  int64_t kernel_in() const { return rhs->type().dim(dn->kernel_input_feature); }
  int64_t kernel_size(size_t d) const { return rhs->type().dim(dn->kernel_spatial[d]); }
};

StatusOr<Conv> ReadConv(const ir::Operation& op) {
  Conv c;
  c.dn = op.attr("dimension_numbers").as<ir::ConvDimsAttr>();
  if (!c.dn) return Status::Error("convolution without dimension_numbers");
  c.lhs = op.operand(0);
  c.rhs = op.operand(1);
  c.out_type = op.result(0)->type();
  c.spatial = c.dn->input_spatial.size();
  const int64_t s = static_cast<int64_t>(c.spatial);
  namespace v = ir::verify;
  HLOGRAPH_ASSIGN(c.strides, v::WindowAttr(op, "window_strides", s, "the spatial rank"));
  HLOGRAPH_ASSIGN(c.lhs_dilation, v::WindowAttr(op, "lhs_dilation", s, "the spatial rank"));
  HLOGRAPH_ASSIGN(c.rhs_dilation, v::WindowAttr(op, "rhs_dilation", s, "the spatial rank"));
  HLOGRAPH_ASSIGN(c.padding, v::PaddingAttr(op, "padding", s));
  c.reversal = I64s(op, "window_reversal");
  c.reversal.resize(c.spatial, 0);
  c.feature_groups = IntAttrOr(op, "feature_group_count", 1);
  c.batch_groups = IntAttrOr(op, "batch_group_count", 1);
  const int64_t groups = c.feature_groups * c.batch_groups;
  const int64_t out_features = c.rhs->type().dim(c.dn->kernel_output_feature);
  if (groups < 1 || out_features % groups != 0) {
    return Status::Error("convolution whose output features do not split into its groups");
  }
  c.group_out = out_features / groups;
  return c;
}

// What one output element sums over: the group's input features and the
// kernel's spatial positions, ordered as their lhs dimensions are so that
// consecutive steps read neighbouring input elements.
struct Term {
  int64_t lhs_dim = 0, size = 0;
  int spatial = -1;  // the spatial dim it walks; -1: the input feature
};

std::vector<Term> SumTerms(const Conv& c) {
  std::vector<Term> terms = {{c.dn->input_feature, c.kernel_in(), -1}};
  for (size_t d = 0; d < c.spatial; ++d) {
    terms.push_back({c.dn->input_spatial[d], c.kernel_size(d), static_cast<int>(d)});
  }
  std::sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) { return a.lhs_dim < b.lhs_dim; });
  return terms;
}

// acc += lhs * rhs at the term `r` of the sum of output element `out`.
Status EmitProduct(BodyEmitter& e, const Conv& c, const Index& out, const std::vector<Term>& terms,
                   const std::vector<int64_t>& term_shape, const std::string& acc_type) {
  const ir::ConvDimsAttr& dn = *c.dn;
  const Index term_idx = e.Delinearize("r", term_shape);
  std::string in_feature;
  Index kernel_pos(c.spatial);
  for (size_t i = 0; i < terms.size(); ++i) {
    if (terms[i].spatial < 0) {
      in_feature = term_idx[i];
    } else {
      kernel_pos[static_cast<size_t>(terms[i].spatial)] = term_idx[i];
    }
  }
  // Groups (feature or batch) follow the output feature; each takes its
  // consecutive slice of the input features or of the batch.
  const std::string& out_feature = out[static_cast<size_t>(dn.output_feature)];
  const std::string& batch = out[static_cast<size_t>(dn.output_batch)];
  const bool grouped = c.feature_groups > 1 || c.batch_groups > 1;
  const std::string group = grouped ? e.IndexVar(out_feature + " / " + std::to_string(c.group_out) + "LL") : "0";
  Index lhs_idx(static_cast<size_t>(c.lhs->type().rank()));
  Index rhs_idx(static_cast<size_t>(c.rhs->type().rank()));
  lhs_idx[static_cast<size_t>(dn.input_feature)] =
      c.feature_groups > 1 ? e.IndexVar(Times(group, c.kernel_in()) + " + " + in_feature) : in_feature;
  lhs_idx[static_cast<size_t>(dn.input_batch)] =
      c.batch_groups > 1 ? e.IndexVar(Times(group, c.out_type.dim(dn.output_batch)) + " + " + batch) : batch;
  rhs_idx[static_cast<size_t>(dn.kernel_output_feature)] = out_feature;
  rhs_idx[static_cast<size_t>(dn.kernel_input_feature)] = in_feature;
  // Per spatial dim, the position in the padded, lhs-dilated input that is
  // read; padding and the holes between dilated elements contribute nothing.
  std::vector<std::string> inside;
  for (size_t d = 0; d < c.spatial; ++d) {
    const std::string& k = kernel_pos[d];
    rhs_idx[static_cast<size_t>(dn.kernel_spatial[d])] =
        c.reversal[d] ? e.IndexVar(std::to_string(c.kernel_size(d) - 1) + "LL - " + k) : k;
    const int64_t low = c.padding[d].first;
    const std::string pos =
        e.IndexVar(Times(out[static_cast<size_t>(dn.output_spatial[d])], c.strides[d]) + " + " +
                   Times(k, c.rhs_dilation[d]) + (low == 0 ? "" : " - (" + std::to_string(low) + "LL)"));
    inside.push_back(pos + " >= 0");
    std::string at = pos;
    if (c.lhs_dilation[d] > 1) {
      inside.push_back(pos + " % " + std::to_string(c.lhs_dilation[d]) + "LL == 0");
      at = e.IndexVar(pos + " / " + std::to_string(c.lhs_dilation[d]) + "LL");
    }
    inside.push_back(at + " < " + std::to_string(c.lhs->type().dim(dn.input_spatial[d])) + "LL");
    lhs_idx[static_cast<size_t>(dn.input_spatial[d])] = at;
  }
  std::string condition;
  for (const std::string& term : inside) condition += (condition.empty() ? "" : " && ") + term;
  e.Open("if (" + (condition.empty() ? std::string("true") : condition) + ")");
  HLOGRAPH_ASSIGN(std::string x, e.Emit(c.lhs, lhs_idx));
  HLOGRAPH_ASSIGN(std::string w, e.Emit(c.rhs, rhs_idx));
  e.Line("acc += " + ToAccumulator(c.lhs->type().element(), x, acc_type) + " * " +
         ToAccumulator(c.rhs->type().element(), w, acc_type) + ";");
  e.Close();
  return Status::Ok();
}

}  // namespace

StatusOr<KernelSource> EmitConvolution(const Fusion& f, const EmitOptions& options) {
  HLOGRAPH_ASSIGN(const Conv c, ReadConv(*f.ops.back()));
  const std::vector<Term> terms = SumTerms(c);
  std::vector<int64_t> term_shape;
  int64_t terms_count = 1;
  for (const Term& t : terms) {
    term_shape.push_back(t.size);
    terms_count *= t.size;
  }
  OutputSum sum;
  sum.out_type = c.out_type;
  sum.terms = terms_count;
  sum.operand_types = {c.lhs->type().element(), c.rhs->type().element()};
  sum.what = "convolution";
  return EmitOutputSums(f, sum, options, [&](BodyEmitter& e, const Index& out, const std::string& acc_type) {
    return EmitProduct(e, c, out, terms, term_shape, acc_type);
  });
}

}  // namespace hlograph::gpu::emit
