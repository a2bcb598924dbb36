// Linear algebra: dot, dot_general, convolution, cholesky, triangular_solve,
// fft and the batch_norm family.
#include <algorithm>
#include <span>
#include <string_view>

#include "ir/verify/verifiers.h"
#include "ir/verify/verify_util.h"

namespace hlograph::ir::verify {
namespace {

// precision_config holds no entry or one per operand.
Status ExpectPrecisionConfig(const Operation& op) {
  const size_t n = ArrayAttrSize(op, "precision_config");
  if (n != 0 && n != 2) return Err("expects precision_config to have 0 or 2 entries, got ", n);
  return Status::Ok();
}

// One side of dot_general: batching and contracting dims in range and,
// together, unique.
Status CheckDotSide(const Type& t, const std::vector<int64_t>& batching, const std::vector<int64_t>& contracting,
                    std::string_view side) {
  HLOGRAPH_TRY(ExpectInRange(batching, 0, t.rank(), Str(side, "_batching_dimensions")));
  HLOGRAPH_TRY(ExpectInRange(contracting, 0, t.rank(), Str(side, "_contracting_dimensions")));
  return ExpectUnique(Concat(batching, contracting),
                      Str(side, "_batching_dimensions and ", side, "_contracting_dimensions"));
}

// dim(lhs, lhs_dims[i]) == dim(rhs, rhs_dims[i]) for all i (dims in range).
Status ExpectPairedDims(const Type& lhs, const std::vector<int64_t>& lhs_dims, const Type& rhs,
                        const std::vector<int64_t>& rhs_dims, std::string_view what) {
  for (size_t i = 0; i < lhs_dims.size() && i < rhs_dims.size(); ++i) {
    if (lhs.dim(lhs_dims[i]) != rhs.dim(rhs_dims[i])) {
      return Err("expects ", what, " dimension ", lhs_dims[i], " of lhs and dimension ", rhs_dims[i],
                 " of rhs to have the same size, got ", lhs, " and ", rhs);
    }
  }
  return Status::Ok();
}

// A convolution layout: [batch] + spatial + [feature] (or the kernel's
// spatial + [input feature, output feature]) must be distinct dims of [0, n).
Status CheckConvLayout(const std::vector<int64_t>& spatial, std::vector<int64_t> all, int64_t n,
                       std::string_view what) {
  HLOGRAPH_TRY(ExpectSize(spatial, n - 2, Str(what, " spatial dimensions"), "the rank minus 2"));
  all.insert(all.end(), spatial.begin(), spatial.end());
  return ExpectDimList(all, n, Str(what, " dimensions"));
}

Status CheckConvDims(const ConvDimsAttr& dn, int64_t n) {
  HLOGRAPH_TRY(CheckConvLayout(dn.input_spatial, {dn.input_batch, dn.input_feature}, n, "input"));
  HLOGRAPH_TRY(CheckConvLayout(dn.kernel_spatial, {dn.kernel_input_feature, dn.kernel_output_feature}, n, "kernel"));
  return CheckConvLayout(dn.output_spatial, {dn.output_batch, dn.output_feature}, n, "output");
}

// Feature and batch group counts: (C11), (C12), (C15)-(C17), (C22)-(C24).
Status CheckConvGroups(const Type& lhs, const Type& rhs, const ConvDimsAttr& dn, int64_t feature_groups,
                       int64_t batch_groups) {
  if (feature_groups <= 0) return Err("expects feature_group_count to be positive, got ", feature_groups);
  if (batch_groups <= 0) return Err("expects batch_group_count to be positive, got ", batch_groups);
  if (feature_groups != 1 && batch_groups != 1) {
    return Err("expects feature_group_count or batch_group_count to be 1, got ", feature_groups, " and ", batch_groups);
  }
  const int64_t input_batch = lhs.dim(dn.input_batch);
  const int64_t input_features = lhs.dim(dn.input_feature);
  const int64_t output_features = rhs.dim(dn.kernel_output_feature);
  if (input_batch % batch_groups != 0) {
    return Err("expects the input batch size ", input_batch, " to be a multiple of batch_group_count ", batch_groups);
  }
  if (input_features % feature_groups != 0) {
    return Err("expects the input feature size ", input_features, " to be a multiple of feature_group_count ",
               feature_groups);
  }
  if (rhs.dim(dn.kernel_input_feature) != input_features / feature_groups) {
    return Err("expects the kernel input feature size to be ", input_features / feature_groups,
               " (the input feature size over feature_group_count), got ", rhs);
  }
  if (output_features % batch_groups != 0 || output_features % feature_groups != 0) {
    return Err("expects the kernel output feature size ", output_features,
               " to be a multiple of batch_group_count and feature_group_count");
  }
  return Status::Ok();
}

// The trailing dims of `t` are `lengths`.
Status ExpectTrailingDims(const Type& t, const std::vector<int64_t>& lengths, std::string_view what) {
  const size_t rank = t.shape().size();
  const std::vector<int64_t> tail(t.shape().end() - static_cast<std::ptrdiff_t>(std::min(rank, lengths.size())),
                                  t.shape().end());
  if (tail != lengths)
    return Err("expects the trailing dimensions of ", what, " to be fft_length ", lengths, ", got ", t);
  return Status::Ok();
}

// The size of the last dimension of a real FFT's complex side.
int64_t HalfSpectrum(int64_t n) { return n == 0 ? 0 : n / 2 + 1; }

// A tensor of the batch_norm family: shaped like the operand, or a vector of
// the feature dimension's size.
struct Role {
  const char* name;
  bool is_vector;
};
constexpr Role kTrainingOperands[] = {{"the operand", false}, {"scale", true}, {"offset", true}};
constexpr Role kTrainingResults[] = {{"output", false}, {"batch_mean", true}, {"batch_var", true}};
constexpr Role kInferenceOperands[] = {
    {"the operand", false}, {"scale", true}, {"offset", true}, {"mean", true}, {"variance", true}};
constexpr Role kInferenceResults[] = {{"the result", false}};
constexpr Role kGradOperands[] = {
    {"the operand", false}, {"scale", true}, {"mean", true}, {"variance", true}, {"grad_output", false}};
constexpr Role kGradResults[] = {{"grad_operand", false}, {"grad_scale", true}, {"grad_offset", true}};

Status CheckRoles(const std::vector<Type>& types, std::span<const Role> roles, const Type& operand, const Type& vector,
                  std::string_view kind) {
  if (types.size() != roles.size()) return Err("expects ", roles.size(), " ", kind, ", got ", types.size());
  for (size_t i = 0; i < roles.size(); ++i) {
    HLOGRAPH_TRY(ExpectType(types[i], roles[i].is_vector ? vector : operand, roles[i].name));
  }
  return Status::Ok();
}

}  // namespace

Status Dot(const Operation& op) {
  const Type& lhs = OperandType(op, 0);
  const Type& rhs = OperandType(op, 1);
  HLOGRAPH_TRY(ExpectTensor(lhs, "lhs"));
  HLOGRAPH_TRY(ExpectTensor(rhs, "rhs"));
  if (lhs.rank() < 1 || lhs.rank() > 2) return Err("expects lhs to have rank 1 or 2, got ", lhs);
  if (rhs.rank() < 1 || rhs.rank() > 2) return Err("expects rhs to have rank 1 or 2, got ", rhs);
  HLOGRAPH_TRY(ExpectSameElement(lhs, "lhs", rhs, "rhs"));
  if (lhs.dim(lhs.rank() - 1) != rhs.dim(0)) {
    return Err("expects the last dimension of lhs to equal the first dimension of rhs, got ", lhs, " and ", rhs);
  }
  std::vector<int64_t> shape;
  if (lhs.rank() == 2) shape.push_back(lhs.dim(0));
  if (rhs.rank() == 2) shape.push_back(rhs.dim(1));
  HLOGRAPH_TRY(ExpectShape(ResultType(op, 0), shape, "the result"));
  return ExpectPrecisionConfig(op);
}

Status DotGeneral(const Operation& op) {
  const Type& lhs = OperandType(op, 0);
  const Type& rhs = OperandType(op, 1);
  HLOGRAPH_TRY(ExpectSameElement(lhs, "lhs", rhs, "rhs"));
  const DotDimsAttr* dn = nullptr;
  HLOGRAPH_TRY(RequireAttr(op, "dot_dimension_numbers", dn));
  if (dn->lhs_batching.size() != dn->rhs_batching.size()) {
    return Err("expects lhs_batching_dimensions and rhs_batching_dimensions to have the same size, got ",
               dn->lhs_batching, " and ", dn->rhs_batching);
  }
  if (dn->lhs_contracting.size() != dn->rhs_contracting.size()) {
    return Err("expects lhs_contracting_dimensions and rhs_contracting_dimensions to have the same size, got ",
               dn->lhs_contracting, " and ", dn->rhs_contracting);
  }
  HLOGRAPH_TRY(CheckDotSide(lhs, dn->lhs_batching, dn->lhs_contracting, "lhs"));
  HLOGRAPH_TRY(CheckDotSide(rhs, dn->rhs_batching, dn->rhs_contracting, "rhs"));
  HLOGRAPH_TRY(ExpectPairedDims(lhs, dn->lhs_batching, rhs, dn->rhs_batching, "batching"));
  HLOGRAPH_TRY(ExpectPairedDims(lhs, dn->lhs_contracting, rhs, dn->rhs_contracting, "contracting"));
  HLOGRAPH_TRY(ExpectPrecisionConfig(op));
  std::vector<int64_t> shape = PickDims(lhs.shape(), dn->lhs_batching);
  const std::vector<int64_t> lhs_free = DropDims(lhs.shape(), Concat(dn->lhs_batching, dn->lhs_contracting));
  const std::vector<int64_t> rhs_free = DropDims(rhs.shape(), Concat(dn->rhs_batching, dn->rhs_contracting));
  shape = Concat(Concat(shape, lhs_free), rhs_free);
  // The result's element type is the accumulation type the producer chose
  // (e.g. bf16 x bf16 -> f32), so only its shape is constrained.
  return ExpectShape(ResultType(op, 0), shape, "the result");
}

Status Convolution(const Operation& op) {
  const Type& lhs = OperandType(op, 0);
  const Type& rhs = OperandType(op, 1);
  const Type& result = ResultType(op, 0);
  HLOGRAPH_TRY(ExpectMinRank(lhs, 2, "lhs"));
  HLOGRAPH_TRY(ExpectRank(rhs, lhs.rank(), "rhs"));
  HLOGRAPH_TRY(ExpectSameElement(lhs, "lhs", rhs, "rhs"));
  HLOGRAPH_TRY(ExpectRank(result, lhs.rank(), "the result"));
  const int64_t n = lhs.rank();
  const ConvDimsAttr* dn = nullptr;
  HLOGRAPH_TRY(RequireAttr(op, "dimension_numbers", dn));
  HLOGRAPH_TRY(CheckConvDims(*dn, n));
  const int64_t feature_groups = IntAttr(op, "feature_group_count").value_or(1);
  const int64_t batch_groups = IntAttr(op, "batch_group_count").value_or(1);
  HLOGRAPH_TRY(CheckConvGroups(lhs, rhs, *dn, feature_groups, batch_groups));
  constexpr std::string_view kSpatial = "the number of spatial dimensions";
  HLOGRAPH_ASSIGN(const std::vector<int64_t> strides, WindowAttr(op, "window_strides", n - 2, kSpatial));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> lhs_dilation, WindowAttr(op, "lhs_dilation", n - 2, kSpatial));
  HLOGRAPH_ASSIGN(const std::vector<int64_t> rhs_dilation, WindowAttr(op, "rhs_dilation", n - 2, kSpatial));
  HLOGRAPH_ASSIGN(const Padding padding, PaddingAttr(op, "padding", n - 2));
  if (const auto* reversal = AttrAs<DenseArrayAttr>(op, "window_reversal")) {
    HLOGRAPH_TRY(ExpectSize(reversal->values, n - 2, "window_reversal", "the number of spatial dimensions"));
  }
  HLOGRAPH_TRY(ExpectPrecisionConfig(op));

  std::vector<int64_t> spatial_in;
  std::vector<WindowDim> windows;
  for (size_t i = 0; i < dn->input_spatial.size(); ++i) {
    spatial_in.push_back(lhs.dim(dn->input_spatial[i]));
    windows.push_back({rhs.dim(dn->kernel_spatial[i]), strides[i], padding[i].first, padding[i].second, lhs_dilation[i],
                       rhs_dilation[i]});
  }
  HLOGRAPH_ASSIGN(const std::vector<int64_t> spatial_out, WindowedShape(spatial_in, windows));
  std::vector<int64_t> shape(static_cast<size_t>(n), 0);
  shape[static_cast<size_t>(dn->output_batch)] = lhs.dim(dn->input_batch) / batch_groups;
  shape[static_cast<size_t>(dn->output_feature)] = rhs.dim(dn->kernel_output_feature);
  for (size_t i = 0; i < dn->output_spatial.size(); ++i) {
    shape[static_cast<size_t>(dn->output_spatial[i])] = spatial_out[i];
  }
  // Like dot_general, the result may use a wider element type (i8 -> i32).
  return ExpectShape(result, shape, "the result");
}

Status Cholesky(const Operation& op) {
  const Type& a = OperandType(op, 0);
  HLOGRAPH_TRY(ExpectElementClass(a, kFloatClass | kComplexClass, "the operand"));
  HLOGRAPH_TRY(ExpectMinRank(a, 2, "the operand"));
  if (a.dim(a.rank() - 1) != a.dim(a.rank() - 2)) {
    return Err("expects the operand to be a batch of square matrices, got ", a);
  }
  return ExpectType(ResultType(op, 0), a, "the result");
}

Status TriangularSolve(const Operation& op) {
  const Type& a = OperandType(op, 0);
  const Type& b = OperandType(op, 1);
  HLOGRAPH_TRY(ExpectElementClass(a, kFloatClass | kComplexClass, "a"));
  HLOGRAPH_TRY(ExpectSameElement(b, "b", a, "a"));
  HLOGRAPH_TRY(ExpectMinRank(a, 2, "a"));
  HLOGRAPH_TRY(ExpectRank(b, a.rank(), "b"));
  const int64_t r = a.rank();
  if (a.dim(r - 1) != a.dim(r - 2)) return Err("expects a to be a batch of square matrices, got ", a);
  if (DropDims(a.shape(), {r - 2, r - 1}) != DropDims(b.shape(), {r - 2, r - 1})) {
    return Err("expects a and b to have the same batch dimensions, got ", a, " and ", b);
  }
  const bool left_side = BoolAttrOr(op, "left_side", true);
  const int64_t b_dim = left_side ? r - 2 : r - 1;
  if (b.dim(b_dim) != a.dim(r - 1)) {
    return Err("expects dimension ", b_dim, " of b to be ", a.dim(r - 1),
               " (the size of a, left_side = ", left_side ? "true" : "false", "), got ", b);
  }
  if (EnumAttrValue(op, "transpose_a") == "TRANSPOSE_INVALID") {
    return Err("expects transpose_a to be NO_TRANSPOSE, TRANSPOSE or ADJOINT, got TRANSPOSE_INVALID");
  }
  return ExpectType(ResultType(op, 0), b, "the result");
}

Status Fft(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  const Type& result = ResultType(op, 0);
  HLOGRAPH_TRY(ExpectElementClass(operand, kFloatClass | kComplexClass, "the operand"));
  HLOGRAPH_TRY(ExpectTensor(result, "the result"));
  const std::vector<int64_t> lengths = I64ArrayAttr(op, "fft_length");
  if (lengths.empty() || lengths.size() > 3)
    return Err("expects fft_length to have 1 to 3 entries, got ", lengths.size());
  HLOGRAPH_TRY(ExpectMinRank(operand, static_cast<int64_t>(lengths.size()), "the operand"));
  const std::string type = EnumAttrValue(op, "fft_type");
  if (type == "FFT" || type == "IFFT") {
    HLOGRAPH_TRY(ExpectElementClass(operand, kComplexClass, "the operand of a complex FFT"));
    return ExpectType(result, operand, "the result");
  }
  if (type == "RFFT") {
    std::optional<ElementType> complex = ComplexOf(operand.element());
    if (!complex) return Err("expects the operand of an RFFT to have element type f32 or f64, got ", operand);
    HLOGRAPH_TRY(ExpectTrailingDims(operand, lengths, "the operand"));
    std::vector<int64_t> shape = operand.shape();
    shape.back() = HalfSpectrum(shape.back());
    return ExpectType(result, Type::Tensor(*complex, shape), "the result");
  }
  if (type == "IRFFT") {
    HLOGRAPH_TRY(ExpectElementClass(operand, kComplexClass, "the operand of an IRFFT"));
    std::vector<int64_t> shape = operand.shape();
    shape.back() = lengths.back();
    HLOGRAPH_TRY(ExpectType(result, Type::Tensor(ComplexPart(operand.element()), shape), "the result"));
    HLOGRAPH_TRY(ExpectTrailingDims(result, lengths, "the result"));
    if (operand.shape().back() != HalfSpectrum(lengths.back())) {
      return Err("expects the operand's last dimension to be ", HalfSpectrum(lengths.back()),
                 " (fft_length's last entry / 2 + 1), got ", operand);
    }
    return Status::Ok();
  }
  return Err("expects fft_type FFT, IFFT, RFFT or IRFFT, got '", type, "'");
}

Status BatchNorm(const Operation& op) {
  const Type& operand = OperandType(op, 0);
  HLOGRAPH_TRY(ExpectElementClass(operand, kFloatClass, "the operand"));
  const int64_t feature = IntAttr(op, "feature_index").value_or(-1);
  HLOGRAPH_TRY(ExpectIndexInRange(feature, 0, operand.rank(), "feature_index"));
  const Type vector = operand.WithShape({operand.dim(feature)});
  std::span<const Role> operands = kInferenceOperands;
  std::span<const Role> results = kInferenceResults;
  if (op.id() == OpId::kBatchNormTraining) {
    operands = kTrainingOperands;
    results = kTrainingResults;
  } else if (op.id() == OpId::kBatchNormGrad) {
    operands = kGradOperands;
    results = kGradResults;
  }
  HLOGRAPH_TRY(CheckRoles(op.OperandTypes(), operands, operand, vector, "operands"));
  return CheckRoles(op.ResultTypes(), results, operand, vector, "results");
}

}  // namespace hlograph::ir::verify
