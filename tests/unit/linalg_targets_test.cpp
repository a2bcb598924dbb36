// The linear-algebra custom-call targets (ir/linalg_targets.h) against the
// CPU backend's kernels: every target the IR layer names has a kernel,
// and every name with a kernel is a target, so the GPU plan (which asks
// the IR layer) hands the host exactly what it can run.
#include <gtest/gtest.h>

#include <string>

#include "backends/cpu/kernels/custom_call_targets.h"
#include "ir/linalg_targets.h"

namespace hlograph {
namespace {

TEST(LinalgTargets, EveryTargetHasACpuKernelAndNoOtherNameDoes) {
  const char* routines[] = {"potrf", "trsm",  "getrf", "geqrf", "geqp3", "orgqr", "ungqr",
                            "syevd", "heevd", "gesdd", "gesvd", "geev",  "gees",  "potri"};
  int targets = 0;
  for (const char* routine : routines) {
    for (const char precision : std::string("sdczx")) {
      const std::string name = std::string("lapack_") + precision + routine + "_ffi";
      const bool target = ir::ParseLinalgTarget(name).has_value();
      EXPECT_EQ(target, cpu::FindLinalgCustomCall(name) != nullptr) << name;
      targets += target;
    }
  }
  EXPECT_EQ(targets, 40);  // 8 routines in 4 precisions, 4 in 2
  for (const char* name : {"Qr", "ProductOfElementaryHouseholderReflectors", "mhlo.topk"}) {
    EXPECT_TRUE(ir::ParseLinalgTarget(name).has_value()) << name;
    EXPECT_NE(cpu::FindLinalgCustomCall(name), nullptr) << name;
  }
  for (const char* name : {"lapack_spotrf", "spotrf_ffi", "lapack__ffi", "lapack_s_ffi", "qr", ""}) {
    EXPECT_FALSE(ir::ParseLinalgTarget(name).has_value()) << name;
    EXPECT_EQ(cpu::FindLinalgCustomCall(name), nullptr) << name;
  }
  EXPECT_EQ(ir::ParseLinalgTarget("lapack_zgesdd_ffi")->routine, "gesdd");
  EXPECT_EQ(ir::ParseLinalgTarget("lapack_zgesdd_ffi")->precision, 'z');
}

}  // namespace
}  // namespace hlograph
