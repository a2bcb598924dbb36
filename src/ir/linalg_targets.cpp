#include "ir/linalg_targets.h"

namespace hlograph::ir {
namespace {

struct Routine {
  std::string_view name;
  std::string_view precisions;  // of s, d, c, z: those the routine has
};

// LAPACK's routines jaxlib calls, with the precisions each has (orgqr and
// syevd real, their complex twins ungqr and heevd).
constexpr Routine kRoutines[] = {
    {"potrf", "sdcz"}, {"trsm", "sdcz"},  {"getrf", "sdcz"}, {"geqrf", "sdcz"}, {"geqp3", "sdcz"},
    {"orgqr", "sd"},   {"ungqr", "cz"},   {"syevd", "sd"},   {"heevd", "cz"},   {"gesdd", "sdcz"},
    {"gesvd", "sdcz"}, {"geev", "sdcz"},
};

}  // namespace

std::optional<LinalgTarget> ParseLinalgTarget(std::string_view target) {
  if (target == "mhlo.topk") return LinalgTarget{"topk", 0};
  if (target == "Qr") return LinalgTarget{"geqrf", 0};
  if (target == "ProductOfElementaryHouseholderReflectors") return LinalgTarget{"orgqr", 0};
  constexpr std::string_view kPrefix = "lapack_", kSuffix = "_ffi";
  if (target.size() <= kPrefix.size() + kSuffix.size() + 1 || target.substr(0, kPrefix.size()) != kPrefix ||
      target.substr(target.size() - kSuffix.size()) != kSuffix) {
    return std::nullopt;
  }
  const char precision = target[kPrefix.size()];
  const std::string_view name = target.substr(kPrefix.size() + 1, target.size() - kPrefix.size() - 1 - kSuffix.size());
  for (const Routine& r : kRoutines) {
    if (r.name == name && r.precisions.find(precision) != std::string_view::npos) return LinalgTarget{r.name, precision};
  }
  return std::nullopt;
}

}  // namespace hlograph::ir
