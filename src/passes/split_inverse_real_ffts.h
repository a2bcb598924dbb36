// An inverse real FFT over several dims as two transforms: the complex
// inverse over the leading dims of the half spectrum, then the real inverse
// along the last one,
//
//   irfft[n0, n](X) = irfft[n](transpose(ifft[n0](transpose(X)))),
//
// the transposes bringing the leading dims last (an fft transforms trailing
// dims) and back. It is what the interpreter computes (the inverse over the
// leading dims, then each line extended by Hermitian symmetry), so results
// agree up to rounding. For a backend whose library cannot run the
// transform whole (cuFFT's multi-dim C2R fails to execute on some versions)
// but runs both parts.
#pragma once

#include <functional>

#include "ir/module.h"

namespace hlograph::passes {

// Rewrites each IRFFT of two or three lengths for which `split` is true;
// returns how many.
int SplitInverseRealFfts(ir::Module& module, const std::function<bool(const ir::Operation&)>& split);

}  // namespace hlograph::passes
