#include "ir/quantized_ops.h"

#include <algorithm>
#include <iterator>

namespace hlograph::ir {

bool MovesStoredIntegers(OpId id) {
  static constexpr OpId kOps[] = {
      OpId::kBitcastConvert, OpId::kConstant, OpId::kReshape, OpId::kTranspose,
      OpId::kBroadcastInDim, OpId::kBroadcast, OpId::kSlice, OpId::kDynamicSlice,
      OpId::kReverse, OpId::kConcatenate, OpId::kGather, OpId::kPad,
      OpId::kDynamicUpdateSlice, OpId::kSelect, OpId::kTuple, OpId::kGetTupleElement,
      OpId::kOptimizationBarrier, OpId::kWhile, OpId::kIf, OpId::kCase, OpId::kReturn,
      OpId::kFuncCall, OpId::kFuncReturn,
      // Their bodies run on quantized scalars: the spec applies the body to
      // the quantized values (its argument types are the operands' own).
      OpId::kReduce, OpId::kSort, OpId::kMap, OpId::kScatter, OpId::kReduceWindow,
      OpId::kSelectAndScatter, OpId::kAllReduce, OpId::kReduceScatter,
      // Collectives that move the stored integers between devices.
      OpId::kAllGather, OpId::kAllToAll, OpId::kCollectivePermute,
      OpId::kCollectiveBroadcast,
  };
  static constexpr OpId kChecks[] = {OpId::kCheckExpectAlmostEq,      OpId::kCheckExpectAlmostEqConst,
                                      OpId::kCheckExpectClose,         OpId::kCheckExpectEq,
                                      OpId::kCheckExpectEqConst,       OpId::kCheckExpectSerializedEq};
  return std::find(std::begin(kOps), std::end(kOps), id) != std::end(kOps) ||
         std::find(std::begin(kChecks), std::end(kChecks), id) != std::end(kChecks);
}

bool IsContraction(OpId id) { return id == OpId::kDotGeneral || id == OpId::kDot || id == OpId::kConvolution; }

}  // namespace hlograph::ir
