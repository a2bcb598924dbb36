// One call of a GPU executable as a Chrome trace (io/trace_json.h), for
// `hlograph bench --trace`: from the kernel profiler's records of two calls
// queued back to back (the first pays for the profiler's setup; the trace
// shows the second), each kernel, device-to-device copy and fill named by
// the step that ran it, and each graph launch, as the host's API call and
// as the span of its device work.
//
// Names: with the steps tagged (stream mode, the profiler started with
// by_step) every activity carries its step: "fusion_3 loop: multiply add
// maximum", "gemm f32xf32->f32 ...", "copy 4096 bytes of ...". A graph
// launch's device work carries only the launch, so in graph mode a
// generated kernel is named by its fusion (the kernel's own name) and a
// library's kernel, copy or fill keeps the name CUPTI gives it.
//
// Work that overlaps (programmatic launch, independent nodes) goes on
// lanes of its own: each activity on the first lane free at its start.
#pragma once

#include <string>

#include "backends/gpu/plan/graph_plan.h"
#include "backends/gpu/plan/program.h"
#include "backends/gpu/runtime/kernel_profiler.h"
#include "io/trace_json.h"

namespace hlograph::gpu {

// `two_calls`: the profiler's records of two calls of the executable that
// planned `program` and `plan` (its graph plan; empty in stream mode), each
// queuing the same work. Times start at the later call's first event.
io::Trace CallTrace(const KernelTotals& two_calls, const GpuProgram& program, const GraphPlan& plan,
                    const std::string& title);

// "fusion_3 loop: multiply add maximum", "gemm f32xf32->f32 ...": what a
// step is and computes, on one line.
std::string StepLabel(const GpuProgram& program, const Step& step);

}  // namespace hlograph::gpu
