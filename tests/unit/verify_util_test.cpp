// The verifier building blocks (ir/verify/verify_util.h) and a selection of
// op verifiers, on IR built directly in C++.
#include "ir/verify/verify_util.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/op_def.h"
#include "ir/verify/verifiers.h"

namespace hlograph::ir::verify {
namespace {

using E = ElementType;
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

Type T(E e, std::vector<int64_t> shape) { return Type::Tensor(e, std::move(shape)); }
Type F32(std::vector<int64_t> shape) { return T(E::kF32, std::move(shape)); }
Type I32(std::vector<int64_t> shape) { return T(E::kI32, std::move(shape)); }
Type I64(std::vector<int64_t> shape) { return T(E::kI64, std::move(shape)); }

void ExpectOk(const Status& s) { EXPECT_TRUE(s.ok()) << s.message(); }

void ExpectError(const Status& s, const std::string& phrase) {
  ASSERT_FALSE(s.ok()) << "expected an error containing: " << phrase;
  EXPECT_NE(s.message().find(phrase), std::string::npos) << "message: " << s.message();
}

// dense<values> : tensor<shape x elem>, little-endian.
Attribute Elements(E elem, std::vector<int64_t> shape, const std::vector<int64_t>& values, bool splat = false) {
  DenseElementsAttr d;
  d.type = T(elem, std::move(shape));
  d.splat = splat;
  const int width = StorageBytes(elem);
  for (int64_t v : values) {
    for (int b = 0; b < width; ++b) d.bytes.push_back(static_cast<uint8_t>(static_cast<uint64_t>(v) >> (8 * b)));
  }
  return Attribute::Make(std::move(d));
}

// A module holding @main, whose body receives the ops under test.
class Ir {
 public:
  Ir() : module_(NewModuleOp(SourcePos{})) {
    main_ = &AddFunc("main", FunctionType{});
    body_ = &main_->region(0).front();
  }

  Operation& module() { return *module_; }

  // An argument of @main, to use as an operand.
  Value* Arg(Type t) { return body_->AddArgument(std::move(t)); }

  Operation& Op(const std::string& name, const std::vector<Value*>& operands, const std::vector<Type>& results) {
    return *body_->Append(NewOp(name, operands, results));
  }

  // A func.func in the module, with a body taking its inputs and returning
  // values of its result types.
  Operation& AddFunc(const std::string& name, const FunctionType& sig) {
    auto func = NewOp("func.func", {}, {});
    func->SetAttr("sym_name", MakeString(name));
    func->SetAttr("function_type", Attribute::Make(FunctionTypeAttr{sig}));
    Operation& f = *module_->region(0).front().Append(std::move(func));
    AddRegion(f, sig.inputs, sig.results, "func.return");
    return f;
  }

  // Adds a region to `op` whose block takes `args` and returns values of
  // `results` types (made by placeholder constants: only types matter here).
  static void AddRegion(Operation& op, const std::vector<Type>& args, const std::vector<Type>& results,
                        const std::string& terminator = "stablehlo.return") {
    Block* block = op.AddRegion()->AddBlock();
    for (const Type& t : args) block->AddArgument(t);
    std::vector<Value*> returned;
    for (const Type& t : results) returned.push_back(block->Append(NewOp("stablehlo.constant", {}, {t}))->result(0));
    block->Append(NewOp(terminator, returned, {}));
  }

  static std::unique_ptr<Operation> NewOp(const std::string& name, const std::vector<Value*>& operands,
                                          const std::vector<Type>& results) {
    const OpDef* def = LookupOp(name);
    EXPECT_NE(def, nullptr) << name;
    auto op = std::make_unique<Operation>(def, SourcePos{});
    for (Value* v : operands) op->AddOperand(v);
    for (const Type& t : results) op->AddResult(t);
    return op;
  }

 private:
  std::unique_ptr<Operation> module_;
  Operation* main_ = nullptr;
  Block* body_ = nullptr;
};

Status Verify(const Operation& op) { return op.def().verify(op); }

// ---------------------------------------------------------------------------
// Messages

TEST(VerifyUtil, StrConcatenatesPieces) {
  EXPECT_EQ(Str("got ", 3, " and ", int64_t{-4}, ' ', std::vector<int64_t>{1, 2}, " ", F32({2, 3})),
            "got 3 and -4 [1, 2] tensor<2x3xf32>");
  EXPECT_EQ(Str(std::vector<Type>{F32({}), Type::Token()}), "(tensor<f32>, !stablehlo.token)");
  const Status s = Err("expects x, got ", size_t{7});
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "expects x, got 7");
}

TEST(VerifyUtil, DimsAndTypesToString) {
  EXPECT_EQ(DimsStr({}), "[]");
  EXPECT_EQ(DimsStr({4, -1}), "[4, -1]");
  EXPECT_EQ(TypeStr(T(E::kC64, {2})), "tensor<2xcomplex<f32>>");
  EXPECT_EQ(TypesStr({}), "()");
}

// ---------------------------------------------------------------------------
// Dimension lists

TEST(VerifyUtil, DimensionListPredicates) {
  EXPECT_TRUE(IsPermutation({2, 0, 1}));
  EXPECT_TRUE(IsPermutation({}));
  EXPECT_FALSE(IsPermutation({0, 0}));
  EXPECT_FALSE(IsPermutation({0, 2}));
  EXPECT_FALSE(IsPermutation({-1, 0}));
  EXPECT_TRUE(IsUnique({3, 1, 2}));
  EXPECT_FALSE(IsUnique({1, 3, 1}));
  EXPECT_TRUE(IsSorted({1, 1, 4}));
  EXPECT_FALSE(IsSorted({2, 1}));
  EXPECT_TRUE(Contains({5, 6}, 6));
  EXPECT_FALSE(Contains({5, 6}, 7));
}

TEST(VerifyUtil, DimensionListTransforms) {
  EXPECT_EQ(Concat({1}, {2, 3}), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(DropDims({4, 5, 6}, {0, 2}), (std::vector<int64_t>{5}));
  EXPECT_EQ(PickDims({4, 5, 6}, {2, 0}), (std::vector<int64_t>{6, 4}));
  EXPECT_EQ(OtherDims(4, {1, 3}), (std::vector<int64_t>{0, 2}));
}

TEST(VerifyUtil, DimensionListChecksSayWhatWasExpected) {
  EXPECT_EQ(ExpectSize({0, 1, 2}, 2, "broadcast_dimensions", "the operand's rank").message(),
            "expects broadcast_dimensions to have 2 entries (the operand's rank), got 3");
  ExpectOk(ExpectSize({7}, 1, "x", "one"));
  EXPECT_EQ(ExpectInRange({0, 3}, 0, 3, "dimensions").message(),
            "expects every entry of dimensions to be in [0, 3), got 3");
  ExpectError(ExpectInRange({-1}, 0, 3, "dimensions"), "got -1");
  EXPECT_EQ(ExpectUnique({1, 1}, "dims").message(), "expects dims to have no duplicate entries, got [1, 1]");
  ExpectError(ExpectSorted({2, 1}, "offset_dims"), "expects offset_dims to be sorted in ascending order");
  ExpectError(ExpectAllPositive({1, 0}, "window_strides"), "to be positive, got [1, 0]");
  ExpectError(ExpectAllNonNegative({0, -2}, "interior_padding"), "to be non-negative");
  ExpectError(ExpectIndexInRange(-3, -2, 2, "dimension"), "expects dimension to be in [-2, 2), got -3");
  ExpectError(ExpectDimList({0, 0}, 2, "dimensions"), "no duplicate");
  ExpectOk(ExpectDimList({1, 0}, 2, "dimensions"));
}

// ---------------------------------------------------------------------------
// Types

TEST(VerifyUtil, TypeChecks) {
  ExpectError(ExpectTensor(Type::Token(), "the operand"), "expects the operand to be a tensor, got !stablehlo.token");
  ExpectError(ExpectRank(F32({2}), 2, "lhs"), "expects lhs to have rank 2, got tensor<2xf32>");
  ExpectError(ExpectMinRank(F32({2}), 2, "a"), "rank at least 2");
  ExpectError(ExpectShape(F32({2}), {3}, "the result"), "expects the result to have shape [3], got tensor<2xf32>");
  ExpectError(ExpectSameShape(F32({2}), "lhs", I32({3}), "rhs"), "to have the same shape");
  ExpectError(ExpectSameElement(F32({2}), "lhs", I32({2}), "rhs"), "to have the same element type");
  ExpectError(ExpectType(F32({4, 9}), F32({4, 8}), "the result"),
              "expects the result to have type tensor<4x8xf32>, got tensor<4x9xf32>");
  ExpectError(ExpectTypes({F32({})}, {F32({}), I32({})}, "the results"), "to have types (tensor<f32>, tensor<i32>)");
  ExpectError(ExpectAllSameType({F32({}), F32({}), I32({})}, "operands"), "tensor<f32> and tensor<i32>");
  ExpectError(ExpectTensors({F32({}), Type::Token()}, "input"), "expects input 1 to be a tensor");
  EXPECT_EQ(ScalarTypesOf({F32({2, 3}), I32({})}), (std::vector<Type>{F32({}), I32({})}));
}

TEST(VerifyUtil, ElementClasses) {
  EXPECT_EQ(ElementClassOf(E::kI1), kBoolClass);
  EXPECT_EQ(ElementClassOf(E::kU8), kUnsignedClass);
  EXPECT_EQ(ElementClassOf(E::kBF16), kFloatClass);
  EXPECT_EQ(ClassDescription(kIntClass | kFloatClass | kComplexClass), "integer, floating-point or complex");
  EXPECT_EQ(ClassDescription(kSignedClass), "signed integer");
  EXPECT_TRUE(InClass(E::kI8, kIntClass));
  EXPECT_FALSE(InClass(E::kI1, kIntClass));
  ExpectError(ExpectElementClass(F32({2}), kIntClass, "the operand"),
              "expects the operand to be a tensor of integer type, got tensor<2xf32>");
  ExpectError(ExpectElementClass(Type::Token(), kAnyClass, "the operand"), "got !stablehlo.token");
}

// ---------------------------------------------------------------------------
// Arithmetic and windows

TEST(VerifyUtil, CheckedArithmeticDetectsOverflow) {
  EXPECT_EQ(CheckedAdd(2, 3), 5);
  EXPECT_EQ(CheckedAdd(kMax, 1), std::nullopt);
  EXPECT_EQ(CheckedMul(-4, 3), -12);
  EXPECT_EQ(CheckedMul(kMax / 2, 3), std::nullopt);
}

TEST(VerifyUtil, NumWindowsFollowsTheSpecFormula) {
  // The reduce_window example of the spec: input 3x2, result 2x2.
  EXPECT_EQ(NumWindows(3, {2, 4, 2, 1, 2, 3}), 2);
  EXPECT_EQ(NumWindows(2, {1, 1, 0, 0, 1, 1}), 2);
  EXPECT_EQ(NumWindows(0, {1, 1, 0, 0, 1, 1}), 0);  // empty input
  EXPECT_EQ(NumWindows(2, {5, 1, 0, 0, 1, 1}), 0);  // window larger than the input
  EXPECT_EQ(NumWindows(kMax, {1, 1, 0, 0, 2, 1}), std::nullopt);
  auto shape = WindowedShape({4, 4}, {{2, 2, 0, 0, 1, 1}, {3, 1, 1, 1, 1, 1}});
  ASSERT_TRUE(shape.ok());
  EXPECT_EQ(shape.value(), (std::vector<int64_t>{2, 4}));
  ExpectError(WindowedShape({2}, {{kMax, 1, 0, 0, 1, 3}}).status(), "overflow");
}

// ---------------------------------------------------------------------------
// Attributes

TEST(VerifyUtil, AttributeReaders) {
  Ir ir;
  Operation& op = ir.Op("stablehlo.compare", {ir.Arg(F32({})), ir.Arg(F32({}))}, {T(E::kI1, {})});
  op.SetAttr("dims", MakeI64Array({3, 1}));
  op.SetAttr("n", MakeI64(-5));
  op.SetAttr("flag", MakeBool(true));
  op.SetAttr("compare_type", MakeEnum("comparison_type", "FLOAT"));
  EXPECT_EQ(I64ArrayAttr(op, "dims"), (std::vector<int64_t>{3, 1}));
  EXPECT_TRUE(I64ArrayAttr(op, "absent").empty());
  EXPECT_EQ(I64ArrayOr(op, "absent", {1, 1}), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(IntAttr(op, "n"), -5);
  EXPECT_EQ(IntAttr(op, "dims"), std::nullopt);  // another kind
  EXPECT_TRUE(BoolAttrOr(op, "flag", false));
  EXPECT_FALSE(BoolAttrOr(op, "absent", false));
  EXPECT_EQ(EnumAttrValue(op, "compare_type"), "FLOAT");
  EXPECT_EQ(EnumAttrValue(op, "absent"), "");
  const DenseArrayAttr* dims = nullptr;
  ExpectOk(RequireAttr(op, "dims", dims));
  ASSERT_NE(dims, nullptr);
  const GatherDimsAttr* gather = nullptr;
  ExpectError(RequireAttr(op, "dims", gather), "requires the attribute 'dims'");
}

TEST(VerifyUtil, IntElementsDecodesIntegers) {
  const Attribute a = Elements(E::kI32, {3}, {-1, 0, 7});
  EXPECT_EQ(IntElements(*a.as<DenseElementsAttr>()), (std::vector<int64_t>{-1, 0, 7}));
  const Attribute splat = Elements(E::kI64, {2, 2}, {4}, /*splat=*/true);
  EXPECT_EQ(IntElements(*splat.as<DenseElementsAttr>()), (std::vector<int64_t>{4, 4, 4, 4}));
  const Attribute unsigned8 = Elements(E::kU8, {1}, {255});
  EXPECT_EQ(IntElements(*unsigned8.as<DenseElementsAttr>()), (std::vector<int64_t>{255}));
  const Attribute floats = Elements(E::kF32, {1}, {0});
  EXPECT_EQ(IntElements(*floats.as<DenseElementsAttr>()), std::nullopt);
  const Attribute short_storage = Elements(E::kI64, {3}, {1, 2});
  EXPECT_EQ(IntElements(*short_storage.as<DenseElementsAttr>()), std::nullopt);
}

TEST(VerifyUtil, PaddingAttrReadsPairsOrDefaults) {
  Ir ir;
  Operation& op = ir.Op("stablehlo.convolution", {}, {});
  auto absent = PaddingAttr(op, "padding", 2);
  ASSERT_TRUE(absent.ok());
  EXPECT_EQ(absent.value(), (Padding{{0, 0}, {0, 0}}));
  op.SetAttr("padding", Elements(E::kI64, {2, 2}, {1, 2, 3, 4}));
  auto pairs = PaddingAttr(op, "padding", 2);
  ASSERT_TRUE(pairs.ok());
  EXPECT_EQ(pairs.value(), (Padding{{1, 2}, {3, 4}}));
  ExpectError(PaddingAttr(op, "padding", 3).status(), "expects padding to have shape [3, 2], got tensor<2x2xi64>");
}

TEST(VerifyUtil, WindowAttrDefaultsToOnesAndRejectsNonPositive) {
  Ir ir;
  Operation& op = ir.Op("stablehlo.reduce_window", {}, {});
  auto ones = WindowAttr(op, "window_strides", 3, "the input rank");
  ASSERT_TRUE(ones.ok());
  EXPECT_EQ(ones.value(), (std::vector<int64_t>{1, 1, 1}));
  op.SetAttr("window_strides", MakeI64Array({1, 0, 1}));
  ExpectError(WindowAttr(op, "window_strides", 3, "the input rank").status(), "to be positive");
  ExpectError(WindowAttr(op, "window_strides", 2, "the input rank").status(),
              "expects window_strides to have 2 entries (the input rank), got 3");
}

// ---------------------------------------------------------------------------
// Regions and symbols

TEST(VerifyUtil, RegionSignatures) {
  Ir ir;
  Operation& op = ir.Op("stablehlo.reduce", {}, {});
  Ir::AddRegion(op, {F32({}), F32({})}, {F32({})});
  ExpectOk(ExpectRegionSignature(op, 0, {F32({}), F32({})}, {F32({})}, "the body"));
  ExpectOk(ExpectReducerRegion(op, 0, {ScalarType(E::kF32)}, "the body"));
  ExpectError(ExpectReducerRegion(op, 0, {ScalarType(E::kI32)}, "the body"),
              "expects the body to take (tensor<i32>, tensor<i32>), got (tensor<f32>, tensor<f32>)");
  ExpectError(ExpectRegionSignature(op, 0, {F32({}), F32({})}, {I32({})}, "the body"),
              "expects the body to return (tensor<i32>), got (tensor<f32>)");
  ExpectError(ExpectRegionSignature(op, 0, {F32({}), F32({})}, {F32({})}, "the body", "func.return"),
              "to end with func.return, got stablehlo.return");
  ExpectError(ExpectRegionSignature(op, 1, {}, {}, "region 1"), "expects region 1 to have a block");
}

TEST(VerifyUtil, FunctionLookupWalksUpToTheModule) {
  Ir ir;
  Operation& callee = ir.AddFunc("callee", FunctionType{{F32({})}, {I32({})}});
  Operation& call = ir.Op("func.call", {ir.Arg(F32({}))}, {I32({})});
  EXPECT_EQ(EnclosingModule(call), &ir.module());
  EXPECT_EQ(LookupFunction(call, "callee"), &callee);
  EXPECT_EQ(LookupFunction(call, "missing"), nullptr);
  ExpectOk(ExpectCallTypes(call, FunctionSignature(callee), "@callee"));
  ExpectError(ExpectCallTypes(call, FunctionType{{I32({})}, {I32({})}}, "@callee"),
              "expects the operands to have types (tensor<i32>) (the inputs of @callee), got (tensor<f32>)");
  auto orphan = Ir::NewOp("func.call", {}, {});
  EXPECT_EQ(EnclosingModule(*orphan), nullptr);
  EXPECT_EQ(LookupFunction(*orphan, "callee"), nullptr);
}

// ---------------------------------------------------------------------------
// Op verifiers

TEST(Verifiers, ElementwiseTypeRules) {
  Ir ir;
  Value* f = ir.Arg(F32({2, 3}));
  Value* i = ir.Arg(I32({2, 3}));
  ExpectOk(Verify(ir.Op("stablehlo.add", {f, f}, {F32({2, 3})})));
  ExpectError(Verify(ir.Op("stablehlo.add", {f, i}, {F32({2, 3})})), "expects all operands to have the same type");
  ExpectError(Verify(ir.Op("stablehlo.add", {f, f}, {F32({3, 2})})), "expects the result to have type tensor<2x3xf32>");
  ExpectError(Verify(ir.Op("stablehlo.shift_left", {f, f}, {F32({2, 3})})), "to be a tensor of integer type");
  ExpectError(Verify(ir.Op("stablehlo.sqrt", {i}, {I32({2, 3})})), "floating-point or complex");
  ExpectOk(Verify(ir.Op("stablehlo.is_finite", {f}, {T(E::kI1, {2, 3})})));
  ExpectError(Verify(ir.Op("stablehlo.is_finite", {f}, {F32({2, 3})})), "tensor<2x3xi1>");
  ExpectOk(Verify(ir.Op("stablehlo.complex", {f, f}, {T(E::kC64, {2, 3})})));
  ExpectOk(Verify(ir.Op("stablehlo.abs", {ir.Arg(T(E::kC128, {2}))}, {T(E::kF64, {2})})));
  ExpectOk(Verify(ir.Op("stablehlo.convert", {i}, {T(E::kBF16, {2, 3})})));
  ExpectOk(Verify(ir.Op("chlo.is_inf", {f}, {T(E::kI1, {2, 3})})));
  ExpectError(Verify(ir.Op("chlo.erf", {i}, {I32({2, 3})})), "floating-point");
  ExpectError(Verify(ir.Op("stablehlo.negate", {ir.Arg(Type::Token())}, {Type::Token()})), "to be a tensor");
}

TEST(Verifiers, BitcastConvertWidthRule) {
  Ir ir;
  Value* f = ir.Arg(F32({2}));
  ExpectOk(Verify(ir.Op("stablehlo.bitcast_convert", {f}, {I32({2})})));
  ExpectOk(Verify(ir.Op("stablehlo.bitcast_convert", {f}, {T(E::kI8, {2, 4})})));
  ExpectOk(Verify(ir.Op("stablehlo.bitcast_convert", {ir.Arg(T(E::kU8, {3, 8}))}, {T(E::kF64, {3})})));
  ExpectError(Verify(ir.Op("stablehlo.bitcast_convert", {f}, {T(E::kI8, {2, 2})})),
              "expects the result to have shape [2, 4]");
  ExpectError(Verify(ir.Op("stablehlo.bitcast_convert", {ir.Arg(T(E::kU8, {3, 4}))}, {T(E::kF64, {3})})),
              "expects the operand's last dimension to be 8");
  ExpectError(Verify(ir.Op("stablehlo.bitcast_convert", {ir.Arg(F32({2, 2}))}, {T(E::kC64, {2})})), "complex");
}

TEST(Verifiers, CompareChecksCompareType) {
  Ir ir;
  Value* u = ir.Arg(T(E::kU32, {4}));
  Operation& ok = ir.Op("stablehlo.compare", {u, u}, {T(E::kI1, {4})});
  ok.SetAttr("compare_type", MakeEnum("comparison_type", "UNSIGNED"));
  ExpectOk(Verify(ok));
  Operation& bad = ir.Op("stablehlo.compare", {u, u}, {T(E::kI1, {4})});
  bad.SetAttr("compare_type", MakeEnum("comparison_type", "SIGNED"));
  ExpectError(Verify(bad), "expects compare_type UNSIGNED for element type ui32, got SIGNED");
}

TEST(Verifiers, SelectAndClampAcceptScalarsOrSameShape) {
  Ir ir;
  Value* x = ir.Arg(F32({3}));
  ExpectOk(Verify(ir.Op("stablehlo.select", {ir.Arg(T(E::kI1, {})), x, x}, {F32({3})})));
  ExpectError(Verify(ir.Op("stablehlo.select", {ir.Arg(T(E::kI1, {2})), x, x}, {F32({3})})),
              "expects pred to be a scalar or to have the shape of on_true");
  ExpectOk(Verify(ir.Op("stablehlo.clamp", {ir.Arg(F32({})), x, x}, {F32({3})})));
  ExpectError(Verify(ir.Op("stablehlo.clamp", {ir.Arg(I32({})), x, x}, {F32({3})})), "same element type");
}

TEST(Verifiers, BroadcastInDim) {
  Ir ir;
  Value* x = ir.Arg(F32({1, 3}));
  auto make = [&](std::vector<int64_t> dims, Type result) -> Operation& {
    Operation& op = ir.Op("stablehlo.broadcast_in_dim", {x}, {std::move(result)});
    op.SetAttr("broadcast_dimensions", MakeI64Array(std::move(dims)));
    return op;
  };
  ExpectOk(Verify(make({2, 1}, F32({2, 3, 2}))));
  ExpectError(Verify(make({0, 1, 2}, F32({2, 3, 2}))),
              "expects broadcast_dimensions to have 2 entries (the operand's rank), got 3");
  ExpectError(Verify(make({0, 3}, F32({2, 3, 2}))), "expects every entry of broadcast_dimensions to be in [0, 3)");
  ExpectError(Verify(make({1, 1}, F32({2, 3, 2}))), "no duplicate entries");
  ExpectError(Verify(make({0, 2}, F32({2, 3, 2}))), "expects dimension 1 of the operand to be 1 or 2");
  ExpectError(Verify(make({0, 1}, I32({2, 3}))), "same element type");
}

TEST(Verifiers, ShapeOps) {
  Ir ir;
  Value* x = ir.Arg(F32({2, 3, 4}));
  Operation& transpose = ir.Op("stablehlo.transpose", {x}, {F32({4, 2, 3})});
  transpose.SetAttr("permutation", MakeI64Array({2, 0, 1}));
  ExpectOk(Verify(transpose));
  transpose.SetAttr("permutation", MakeI64Array({2, 0, 0}));
  ExpectError(Verify(transpose), "expects permutation to be a permutation of [0, 3)");

  ExpectOk(Verify(ir.Op("stablehlo.reshape", {x}, {F32({6, 4})})));
  ExpectError(Verify(ir.Op("stablehlo.reshape", {x}, {F32({5, 4})})), "as many elements as the operand (24)");

  Operation& slice = ir.Op("stablehlo.slice", {x}, {F32({1, 2, 2})});
  slice.SetAttr("start_indices", MakeI64Array({1, 0, 0}));
  slice.SetAttr("limit_indices", MakeI64Array({2, 3, 4}));
  slice.SetAttr("strides", MakeI64Array({1, 2, 3}));
  ExpectOk(Verify(slice));
  slice.SetAttr("limit_indices", MakeI64Array({2, 3, 5}));
  ExpectError(Verify(slice), "expects 0 <= start <= limit <= 4 in dimension 2");

  Operation& concat = ir.Op("stablehlo.concatenate", {x, ir.Arg(F32({2, 1, 4}))}, {F32({2, 4, 4})});
  concat.SetAttr("dimension", MakeI64(1));
  ExpectOk(Verify(concat));
  concat.SetAttr("dimension", MakeI64(0));
  ExpectError(Verify(concat), "expects input 1 to have the shape of input 0 except in dimension 0");
}

TEST(Verifiers, PadComputesTheResultShape) {
  Ir ir;
  Operation& pad = ir.Op("stablehlo.pad", {ir.Arg(I32({2, 3})), ir.Arg(I32({}))}, {I32({5, 9})});
  pad.SetAttr("edge_padding_low", MakeI64Array({0, 1}));
  pad.SetAttr("edge_padding_high", MakeI64Array({2, 1}));
  pad.SetAttr("interior_padding", MakeI64Array({1, 2}));
  ExpectOk(Verify(pad));
  pad.SetAttr("edge_padding_low", MakeI64Array({-9, 1}));
  ExpectError(Verify(pad), "padded size of dimension 0 to be non-negative");
  pad.SetAttr("edge_padding_low", MakeI64Array({kMax, 1}));
  ExpectError(Verify(pad), "not to overflow");
}

TEST(Verifiers, DynamicSliceIndices) {
  Ir ir;
  Value* x = ir.Arg(I32({4, 4}));
  Value* i = ir.Arg(I64({}));
  Operation& ok = ir.Op("stablehlo.dynamic_slice", {x, i, i}, {I32({2, 2})});
  ok.SetAttr("slice_sizes", MakeI64Array({2, 2}));
  ExpectOk(Verify(ok));
  Operation& mixed = ir.Op("stablehlo.dynamic_slice", {x, i, ir.Arg(I32({}))}, {I32({2, 2})});
  mixed.SetAttr("slice_sizes", MakeI64Array({2, 2}));
  ExpectError(Verify(mixed), "expects start index 1 (like start index 0) to have type tensor<i64>");
  Operation& few = ir.Op("stablehlo.dynamic_slice", {x, i}, {I32({2, 2})});
  few.SetAttr("slice_sizes", MakeI64Array({2, 2}));
  ExpectError(Verify(few), "expects 2 start indices (the operand's rank), got 1");
  ExpectError(Verify(ir.Op("stablehlo.dynamic_slice", {}, {I32({})})), "expects an operand");
}

TEST(Verifiers, DotGeneral) {
  Ir ir;
  Value* lhs = ir.Arg(F32({2, 3, 4}));
  Value* rhs = ir.Arg(F32({2, 4, 5}));
  auto make = [&](DotDimsAttr dims, Type result) -> Operation& {
    Operation& op = ir.Op("stablehlo.dot_general", {lhs, rhs}, {std::move(result)});
    op.SetAttr("dot_dimension_numbers", Attribute::Make(std::move(dims)));
    return op;
  };
  ExpectOk(Verify(make({{0}, {0}, {2}, {1}}, F32({2, 3, 5}))));
  ExpectError(Verify(make({{0}, {0}, {1}, {1}}, F32({2, 4, 5}))),
              "expects contracting dimension 1 of lhs and dimension 1 of rhs to have the same size");
  ExpectError(Verify(make({{0}, {0}, {2}, {1}}, F32({2, 5, 3}))), "expects the result to have shape [2, 3, 5]");
  ExpectError(Verify(make({{0}, {}, {2}, {1}}, F32({2, 3, 5}))), "to have the same size");
  ExpectError(Verify(make({{0}, {0}, {0}, {1}}, F32({2, 3, 5}))), "no duplicate entries");
  ExpectError(Verify(make({{7}, {0}, {2}, {1}}, F32({2, 3, 5}))), "to be in [0, 3)");
  Operation& precision = make({{0}, {0}, {2}, {1}}, F32({2, 3, 5}));
  precision.SetAttr("precision_config", Attribute::Make(ArrayAttr{{MakeEnum("precision", "DEFAULT")}}));
  ExpectError(Verify(precision), "expects precision_config to have 0 or 2 entries, got 1");
}

TEST(Verifiers, DotRanks) {
  Ir ir;
  Value* m = ir.Arg(F32({2, 3}));
  ExpectOk(Verify(ir.Op("stablehlo.dot", {m, ir.Arg(F32({3}))}, {F32({2})})));
  ExpectError(Verify(ir.Op("stablehlo.dot", {m, ir.Arg(F32({2}))}, {F32({2})})), "last dimension of lhs");
}

TEST(Verifiers, ConvolutionFollowsTheSpecExample) {
  Ir ir;
  Operation& conv =
      ir.Op("stablehlo.convolution", {ir.Arg(I32({1, 4, 4, 1})), ir.Arg(I32({3, 3, 1, 1}))}, {I32({1, 2, 2, 1})});
  ConvDimsAttr dims;
  dims.input_batch = 0;
  dims.input_spatial = {1, 2};
  dims.input_feature = 3;
  dims.kernel_spatial = {0, 1};
  dims.kernel_input_feature = 2;
  dims.kernel_output_feature = 3;
  dims.output_batch = 0;
  dims.output_spatial = {1, 2};
  dims.output_feature = 3;
  conv.SetAttr("dimension_numbers", Attribute::Make(dims));
  conv.SetAttr("window_strides", MakeI64Array({4, 4}));
  conv.SetAttr("lhs_dilation", MakeI64Array({2, 2}));
  conv.SetAttr("padding", Elements(E::kI64, {2, 2}, {0}, /*splat=*/true));
  conv.SetAttr("feature_group_count", MakeI64(1));
  conv.SetAttr("batch_group_count", MakeI64(1));
  ExpectOk(Verify(conv));
  conv.SetAttr("window_strides", MakeI64Array({1, 1}));
  ExpectError(Verify(conv), "expects the result to have shape [1, 5, 5, 1]");
  conv.SetAttr("window_strides", MakeI64Array({4, 4}));
  conv.SetAttr("feature_group_count", MakeI64(2));
  ExpectError(Verify(conv), "to be a multiple of feature_group_count 2");
  conv.SetAttr("feature_group_count", MakeI64(1));
  dims.output_spatial = {1, 1};
  conv.SetAttr("dimension_numbers", Attribute::Make(dims));
  ExpectError(Verify(conv), "expects output dimensions to have no duplicate entries");
}

TEST(Verifiers, GatherWithBatchingDims) {
  // The gather example of the spec with operand_batching_dims.
  Ir ir;
  Operation& gather =
      ir.Op("stablehlo.gather", {ir.Arg(I32({2, 3, 4, 2})), ir.Arg(I64({2, 2, 3, 2}))}, {I32({2, 2, 3, 2, 2})});
  GatherDimsAttr dims;
  dims.offset_dims = {3, 4};
  dims.collapsed_slice_dims = {1};
  dims.operand_batching_dims = {0};
  dims.start_indices_batching_dims = {1};
  dims.start_index_map = {2, 1};
  dims.index_vector_dim = 3;
  gather.SetAttr("dimension_numbers", Attribute::Make(dims));
  gather.SetAttr("slice_sizes", MakeI64Array({1, 1, 2, 2}));
  ExpectOk(Verify(gather));
  gather.SetAttr("slice_sizes", MakeI64Array({1, 2, 2, 2}));
  ExpectError(Verify(gather), "expects slice_sizes[1] to be in [0, 1], got 2");
  gather.SetAttr("slice_sizes", MakeI64Array({1, 1, 2, 2}));
  dims.start_index_map = {2, 0};
  gather.SetAttr("dimension_numbers", Attribute::Make(dims));
  ExpectError(Verify(gather), "expects start_index_map and operand_batching_dims to have no duplicate entries");
  dims.start_index_map = {2, 1};
  dims.index_vector_dim = kMax;
  gather.SetAttr("dimension_numbers", Attribute::Make(dims));
  ExpectError(Verify(gather), "expects index_vector_dim to be in [0, 4]");
  dims.index_vector_dim = 3;
  dims.start_indices_batching_dims = {3};
  gather.SetAttr("dimension_numbers", Attribute::Make(dims));
  ExpectError(Verify(gather), "expects index_vector_dim not to be in start_indices_batching_dims, got 3");
  dims.start_indices_batching_dims = {1};
  gather.SetAttr("dimension_numbers", Attribute::Make(dims));
  gather.result(0)->set_type(I32({2, 2, 3, 1, 2}));
  ExpectError(Verify(gather), "expects the result to have shape [2, 2, 3, 2, 2], got tensor<2x2x3x1x2xi32>");
}

TEST(Verifiers, ScatterWithBatchingDims) {
  // The scatter example of the spec with input_batching_dims.
  Ir ir;
  Operation& scatter =
      ir.Op("stablehlo.scatter", {ir.Arg(I64({2, 3, 4, 2})), ir.Arg(I64({2, 2, 3, 2})), ir.Arg(I64({2, 2, 3, 2, 2}))},
            {I64({2, 3, 4, 2})});
  ScatterDimsAttr dims;
  dims.update_window_dims = {3, 4};
  dims.inserted_window_dims = {1};
  dims.input_batching_dims = {0};
  dims.scatter_indices_batching_dims = {1};
  dims.scatter_dims_to_operand_dims = {2, 1};
  dims.index_vector_dim = 3;
  scatter.SetAttr("scatter_dimension_numbers", Attribute::Make(dims));
  Ir::AddRegion(scatter, {I64({}), I64({})}, {I64({})});
  ExpectOk(Verify(scatter));
  dims.update_window_dims = {4, 3};
  scatter.SetAttr("scatter_dimension_numbers", Attribute::Make(dims));
  ExpectError(Verify(scatter), "expects update_window_dims to be sorted");
  dims.update_window_dims = {3, 4};
  dims.input_batching_dims = {2};
  scatter.SetAttr("scatter_dimension_numbers", Attribute::Make(dims));
  ExpectError(Verify(scatter), "expects batching dimension 2 of the inputs and dimension 1 of scatter_indices");

  Ir other;
  Value* input = other.Arg(F32({4}));
  Operation& bad_body = other.Op("stablehlo.scatter", {input, other.Arg(I32({1, 1})), other.Arg(F32({1}))}, {F32({4})});
  ScatterDimsAttr simple;
  simple.inserted_window_dims = {0};
  simple.scatter_dims_to_operand_dims = {0};
  simple.index_vector_dim = 1;
  bad_body.SetAttr("scatter_dimension_numbers", Attribute::Make(simple));
  Ir::AddRegion(bad_body, {F32({}), F32({})}, {F32({}), F32({})});
  ExpectError(Verify(bad_body), "expects update_computation to return (tensor<f32>), got (tensor<f32>, tensor<f32>)");
  ExpectError(Verify(other.Op("stablehlo.scatter", {input, input}, {F32({4})})), "an odd number of at least 3");
}

TEST(Verifiers, ReduceAndReduceWindow) {
  Ir ir;
  Value* x = ir.Arg(F32({3, 2}));
  Value* init = ir.Arg(F32({}));
  Operation& reduce = ir.Op("stablehlo.reduce", {x, init}, {F32({3})});
  reduce.SetAttr("dimensions", MakeI64Array({1}));
  Ir::AddRegion(reduce, {F32({}), F32({})}, {F32({})});
  ExpectOk(Verify(reduce));
  reduce.SetAttr("dimensions", MakeI64Array({2}));
  ExpectError(Verify(reduce), "expects every entry of dimensions to be in [0, 2), got 2");
  reduce.SetAttr("dimensions", MakeI64Array({0}));
  ExpectError(Verify(reduce), "expects the results to have types (tensor<2xf32>), got (tensor<3xf32>)");
  ExpectError(Verify(ir.Op("stablehlo.reduce", {x, ir.Arg(I32({}))}, {F32({3})})), "expects init value 0");

  // The reduce_window example of the spec.
  Operation& window = ir.Op("stablehlo.reduce_window", {ir.Arg(I32({3, 2})), ir.Arg(I32({}))}, {I32({2, 2})});
  window.SetAttr("window_dimensions", MakeI64Array({2, 1}));
  window.SetAttr("window_strides", MakeI64Array({4, 1}));
  window.SetAttr("base_dilations", MakeI64Array({2, 1}));
  window.SetAttr("window_dilations", MakeI64Array({3, 1}));
  window.SetAttr("padding", Elements(E::kI64, {2, 2}, {2, 1, 0, 0}));
  Ir::AddRegion(window, {I32({}), I32({})}, {I32({})});
  ExpectOk(Verify(window));
  window.SetAttr("window_dimensions", MakeI64Array({2, 0}));
  ExpectError(Verify(window), "expects every entry of window_dimensions to be positive");
}

TEST(Verifiers, SortComparator) {
  Ir ir;
  Value* a = ir.Arg(F32({5}));
  Value* b = ir.Arg(I32({5}));
  Operation& sort = ir.Op("stablehlo.sort", {a, b}, {F32({5}), I32({5})});
  sort.SetAttr("dimension", MakeI64(-1));
  Ir::AddRegion(sort, {F32({}), F32({}), I32({}), I32({})}, {T(E::kI1, {})});
  ExpectOk(Verify(sort));
  sort.SetAttr("dimension", MakeI64(1));
  ExpectError(Verify(sort), "expects dimension to be in [-1, 1), got 1");
}

TEST(Verifiers, ControlFlow) {
  Ir ir;
  Value* i = ir.Arg(I32({}));
  Operation& loop = ir.Op("stablehlo.while", {i}, {I32({})});
  Ir::AddRegion(loop, {I32({})}, {T(E::kI1, {})});
  Ir::AddRegion(loop, {I32({})}, {I32({})});
  ExpectOk(Verify(loop));
  Operation& bad_loop = ir.Op("stablehlo.while", {i}, {I32({})});
  Ir::AddRegion(bad_loop, {I32({})}, {I32({})});
  Ir::AddRegion(bad_loop, {I32({})}, {I32({})});
  ExpectError(Verify(bad_loop), "expects the condition to return (tensor<i1>), got (tensor<i32>)");

  Operation& branch = ir.Op("stablehlo.if", {ir.Arg(T(E::kI1, {}))}, {F32({2})});
  Ir::AddRegion(branch, {}, {F32({2})});
  Ir::AddRegion(branch, {}, {F32({3})});
  ExpectError(Verify(branch), "expects the false branch to return (tensor<2xf32>), got (tensor<3xf32>)");

  Operation& cases = ir.Op("stablehlo.case", {i}, {F32({})});
  Ir::AddRegion(cases, {}, {F32({})});
  Ir::AddRegion(cases, {}, {F32({})});
  ExpectOk(Verify(cases));
  ExpectError(Verify(ir.Op("stablehlo.case", {ir.Arg(I64({}))}, {})), "expects the index to have type tensor<i32>");
}

TEST(Verifiers, CallsAndFunctions) {
  Ir ir;
  ir.AddFunc("f", FunctionType{{F32({})}, {F32({})}});
  Value* x = ir.Arg(F32({}));
  Operation& call = ir.Op("func.call", {x}, {F32({})});
  call.SetAttr("callee", Attribute::Make(SymbolRefAttr{"f"}));
  ExpectOk(Verify(call));
  Operation& wrong = ir.Op("func.call", {x}, {I32({})});
  wrong.SetAttr("callee", Attribute::Make(SymbolRefAttr{"f"}));
  ExpectError(Verify(wrong), "expects the results to have types (tensor<f32>) (the results of @f)");
  Operation& missing = ir.Op("func.call", {x}, {F32({})});
  missing.SetAttr("callee", Attribute::Make(SymbolRefAttr{"nope"}));
  ExpectError(Verify(missing), "expects callee @nope to name a func.func in the enclosing module");

  Operation& func = ir.AddFunc("g", FunctionType{{F32({})}, {F32({})}});
  ExpectOk(Verify(func));
  func.SetAttr("function_type", Attribute::Make(FunctionTypeAttr{FunctionType{{F32({})}, {I32({})}}}));
  ExpectError(Verify(func), "expects the body to return (tensor<i32>), got (tensor<f32>)");
  func.SetAttr("arg_attrs", Attribute::Make(ArrayAttr{}));
  ExpectError(Verify(func), "expects arg_attrs to have 1 entries (one per input), got 0");
}

TEST(Verifiers, CustomCallAliasesAndConfig) {
  Ir ir;
  Value* a = ir.Arg(F32({5, 5}));
  Operation& call = ir.Op("stablehlo.custom_call", {a}, {F32({5, 5}), I32({})});
  call.SetAttr("call_target_name", MakeString("lapack_spotrf_ffi"));
  call.SetAttr("backend_config", MakeString(""));
  call.SetAttr("output_operand_aliases",
               Attribute::Make(ArrayAttr{{Attribute::Make(OutputOperandAliasAttr{{0}, 0, {}})}}));
  ExpectOk(Verify(call));
  call.SetAttr("output_operand_aliases",
               Attribute::Make(ArrayAttr{{Attribute::Make(OutputOperandAliasAttr{{1}, 0, {}})}}));
  ExpectError(Verify(call), "expects output_operand_aliases entry 0 to alias values of one type");
  call.SetAttr("output_operand_aliases",
               Attribute::Make(ArrayAttr{{Attribute::Make(OutputOperandAliasAttr{{0}, 3, {}})}}));
  ExpectError(Verify(call), "expects operand_index of output_operand_aliases entry 0 to be in [0, 1), got 3");
  call.RemoveAttr("output_operand_aliases");
  call.SetAttr("api_version", MakeI64(7));
  ExpectError(Verify(call), "expects api_version to be in [0, 4], got 7");
  call.SetAttr("api_version", MakeI64(1));
  call.SetAttr("backend_config", Attribute::Make(DictionaryAttr{}));
  ExpectError(Verify(call), "expects api_version 4 (typed FFI) with a dictionary backend_config");
}

TEST(Verifiers, MiscOps) {
  Ir ir;
  Operation& constant = ir.Op("stablehlo.constant", {}, {I32({2})});
  constant.SetAttr("value", Elements(E::kI32, {2}, {1, 2}));
  ExpectOk(Verify(constant));
  Operation& mistyped = ir.Op("stablehlo.constant", {}, {I32({3})});
  mistyped.SetAttr("value", Elements(E::kI32, {2}, {1, 2}));
  ExpectError(Verify(mistyped), "expects the result to have type tensor<2xi32>, got tensor<3xi32>");

  Operation& iota = ir.Op("stablehlo.iota", {}, {I32({4, 5})});
  iota.SetAttr("iota_dimension", MakeI64(2));
  ExpectError(Verify(iota), "expects iota_dimension to be in [0, 2), got 2");

  Value* tuple = ir.Arg(Type::Tuple({F32({}), I32({})}));
  Operation& get = ir.Op("stablehlo.get_tuple_element", {tuple}, {I32({})});
  get.SetAttr("index", MakeI64(1));
  ExpectOk(Verify(get));
  get.SetAttr("index", MakeI64(2));
  ExpectError(Verify(get), "expects index to be in [0, 2), got 2");

  Operation& rng = ir.Op("stablehlo.rng", {ir.Arg(F32({})), ir.Arg(F32({})), constant.result(0)}, {F32({1, 2})});
  rng.SetAttr("rng_distribution", MakeEnum("rng_distribution", "NORMAL"));
  ExpectOk(Verify(rng));
  Operation& rng_bad = ir.Op("stablehlo.rng", {ir.Arg(F32({})), ir.Arg(F32({})), constant.result(0)}, {F32({2, 1})});
  rng_bad.SetAttr("rng_distribution", MakeEnum("rng_distribution", "UNIFORM"));
  ExpectError(Verify(rng_bad), "expects the result to have the shape [1, 2] given by the shape operand");

  Value* state = ir.Arg(T(E::kU64, {3}));
  Operation& bits = ir.Op("stablehlo.rng_bit_generator", {state}, {T(E::kU64, {3}), T(E::kU32, {8})});
  bits.SetAttr("rng_algorithm", MakeEnum("rng_algorithm", "THREE_FRY"));
  ExpectError(Verify(bits), "expects a THREE_FRY state of [128] bits, got tensor<3xui64>");
  bits.SetAttr("rng_algorithm", MakeEnum("rng_algorithm", "PHILOX"));
  ExpectOk(Verify(bits));

  Operation& top_k = ir.Op("chlo.top_k", {ir.Arg(F32({3, 20}))}, {F32({3, 5}), I32({3, 5})});
  top_k.SetAttr("k", MakeI64(5));
  ExpectOk(Verify(top_k));
  top_k.SetAttr("k", MakeI64(21));
  ExpectError(Verify(top_k), "expects k to be in [0, 20]");
}

TEST(Verifiers, FftShapes) {
  Ir ir;
  Operation& rfft = ir.Op("stablehlo.fft", {ir.Arg(F32({4, 16}))}, {T(E::kC64, {4, 9})});
  rfft.SetAttr("fft_type", MakeEnum("fft_type", "RFFT"));
  rfft.SetAttr("fft_length", MakeI64Array({16}));
  ExpectOk(Verify(rfft));
  rfft.SetAttr("fft_length", MakeI64Array({8}));
  ExpectError(Verify(rfft), "expects the trailing dimensions of the operand to be fft_length [8]");
  Operation& irfft = ir.Op("stablehlo.fft", {ir.Arg(T(E::kC64, {4, 9}))}, {F32({4, 16})});
  irfft.SetAttr("fft_type", MakeEnum("fft_type", "IRFFT"));
  irfft.SetAttr("fft_length", MakeI64Array({16}));
  ExpectOk(Verify(irfft));
  irfft.SetAttr("fft_length", MakeI64Array({1, 2, 3, 4}));
  ExpectError(Verify(irfft), "expects fft_length to have 1 to 3 entries, got 4");
}

TEST(Verifiers, BatchNormShapes) {
  Ir ir;
  Value* x = ir.Arg(F32({2, 3, 4}));
  Value* v = ir.Arg(F32({4}));
  Operation& training = ir.Op("stablehlo.batch_norm_training", {x, v, v}, {F32({2, 3, 4}), F32({4}), F32({4})});
  training.SetAttr("feature_index", MakeI64(2));
  ExpectOk(Verify(training));
  training.SetAttr("feature_index", MakeI64(1));
  ExpectError(Verify(training), "expects scale to have type tensor<3xf32>, got tensor<4xf32>");
  training.SetAttr("feature_index", MakeI64(3));
  ExpectError(Verify(training), "expects feature_index to be in [0, 3), got 3");
}

}  // namespace
}  // namespace hlograph::ir::verify
