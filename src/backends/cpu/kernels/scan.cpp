// chlo.scan: the body runs once per position along `dimension` (from the
// end when is_reverse), on that slice of every input and the carries; it
// returns that slice of every output and the next carries. The results are
// the outputs, then the last carries. The definition itself, step by step:
// the reference the GPU's parallel scans are checked against.
#include "backends/cpu/interpreter.h"
#include "backends/cpu/kernel_util.h"
#include "ir/verify/verify_util.h"

namespace hlograph::cpu {
namespace {

// A tensor as [outer, n, inner] around the scanned dimension.
struct Around {
  int64_t outer = 1, n = 1, inner = 1;
};

Around Split(const std::vector<int64_t>& shape, int64_t dim) {
  Around a;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    const int64_t s = shape[static_cast<size_t>(d)];
    if (d < dim) a.outer *= s;
    else if (d == dim) a.n = s;
    else a.inner *= s;
  }
  return a;
}

// Copies position `k` of `from` ([outer, n, inner]) into `slice` ([outer, inner]),
// or (to_slice false) `slice` into position k of `from`.
void MoveSlice(const Around& a, int64_t k, size_t element_bytes, const uint8_t* src, uint8_t* dst, bool to_slice) {
  const size_t run = static_cast<size_t>(a.inner) * element_bytes;
  for (int64_t o = 0; o < a.outer; ++o) {
    const size_t at_full = static_cast<size_t>((o * a.n + k) * a.inner) * element_bytes;
    const size_t at_slice = static_cast<size_t>(o * a.inner) * element_bytes;
    if (to_slice) {
      std::memcpy(dst + at_slice, src + at_full, run);
    } else {
      std::memcpy(dst + at_full, src + at_slice, run);
    }
  }
}

Status Scan(KernelContext& ctx) {
  const ir::Operation& op = ctx.op;
  const auto* split = op.attr("operandSegmentSizes").as<ir::DenseArrayAttr>();
  if (!split || split->values.size() != 2) return ctx.Error("expects operandSegmentSizes [inputs, carries]");
  const size_t n_in = static_cast<size_t>(split->values[0]);
  const size_t n_carry = ctx.operands.size() - n_in;
  const int64_t dim = IntAttr(op, "dimension");
  const bool reverse = ir::verify::BoolAttrOr(op, "is_reverse", false);
  const std::vector<int64_t>& shape = ctx.operand(0).shape();
  const Around a = Split(shape, dim);
  std::vector<int64_t> slice_shape = shape;
  slice_shape.erase(slice_shape.begin() + dim);

  std::vector<Tensor> outputs;
  for (size_t j = 0; j < n_in; ++j) outputs.emplace_back(ctx.result_type(j));
  std::vector<Tensor> carries;
  for (size_t j = 0; j < n_carry; ++j) carries.push_back(ctx.operand(n_in + j));
  for (int64_t step = 0; step < a.n; ++step) {
    const int64_t k = reverse ? a.n - 1 - step : step;
    std::vector<Tensor> args;
    for (size_t j = 0; j < n_in; ++j) {
      const Tensor& in = ctx.operand(j);
      Tensor slice(ir::Type::Tensor(in.element(), slice_shape));
      MoveSlice(a, k, static_cast<size_t>(ir::StorageBytes(in.element())), in.bytes(), slice.mutable_bytes(), true);
      args.push_back(std::move(slice));
    }
    args.insert(args.end(), carries.begin(), carries.end());
    HLOGRAPH_ASSIGN(std::vector<Tensor> returned, ctx.interpreter.RunRegion(op.region(0), args));
    if (returned.size() != n_in + n_carry) {
      return ctx.Error("expects its body to return an output slice per input and the carries");
    }
    for (size_t j = 0; j < n_in; ++j) {
      const size_t bytes = static_cast<size_t>(ir::StorageBytes(outputs[j].element()));
      if (returned[j].byte_size() != static_cast<size_t>(a.outer * a.inner) * bytes) {
        return ctx.Error("expects its body to return output slices of the outputs' slice type");
      }
      MoveSlice(a, k, bytes, returned[j].bytes(), outputs[j].mutable_bytes(), false);
    }
    carries.assign(returned.begin() + static_cast<std::ptrdiff_t>(n_in), returned.end());
  }
  ctx.results = std::move(outputs);
  ctx.results.insert(ctx.results.end(), carries.begin(), carries.end());
  return Status::Ok();
}

}  // namespace

void RegisterScanKernels(KernelRegistry& r) { r.Register(ir::OpId::kChloScan, &Scan); }

}  // namespace hlograph::cpu
