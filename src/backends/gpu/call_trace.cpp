#include "backends/gpu/call_trace.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <set>

#include "backends/gpu/plan/step_cost.h"

namespace hlograph::gpu {
namespace {

constexpr int kHostLaunchTrack = 1;    // the host's graph launch calls
constexpr int kDeviceLaunchTrack = 2;  // each launch's device work, first start to last end
constexpr int kFirstLane = 10;         // the device's activities, lane by lane

using Activity = KernelTotals::Interval;

// One graph launch: the runtime's call and the driver's call it makes,
// nested in time, are one launch with two correlation ids.
struct Launch {
  double start_s = 0, end_s = 0;
  std::vector<std::string> calls;
  std::vector<uint32_t> correlations;
};

std::vector<Launch> Launches(std::vector<KernelTotals::ApiCall> calls) {
  std::sort(calls.begin(), calls.end(), [](const auto& a, const auto& b) {
    return a.start_s < b.start_s || (a.start_s == b.start_s && a.end_s > b.end_s);  // outer first
  });
  std::vector<Launch> launches;
  for (const KernelTotals::ApiCall& c : calls) {
    if (!launches.empty() && c.start_s >= launches.back().start_s && c.end_s <= launches.back().end_s) {
      launches.back().calls.push_back(c.name);
      launches.back().correlations.push_back(c.correlation);
    } else {
      launches.push_back({c.start_s, c.end_s, {c.name}, {c.correlation}});
    }
  }
  return launches;
}

struct OneCall {
  std::vector<Activity> activities;  // in order of start
  std::vector<Launch> launches;      // in order of start
};

// The later of two calls that queue the same work: the activities with
// the larger half of the correlation ids (API calls are numbered in order,
// and start times do not tell the calls apart when one's kernels launch
// early behind the other's) and the later half of the launches.
OneCall LaterCall(const KernelTotals& two_calls) {
  std::vector<Activity> all = two_calls.timeline;
  std::stable_sort(all.begin(), all.end(), [](const Activity& a, const Activity& b) { return a.correlation < b.correlation; });
  OneCall call;
  call.activities.assign(all.begin() + static_cast<std::ptrdiff_t>(all.size() / 2), all.end());
  std::stable_sort(call.activities.begin(), call.activities.end(), [](const Activity& a, const Activity& b) {
    return a.start_s < b.start_s || (a.start_s == b.start_s && a.end_s < b.end_s);
  });
  std::vector<Launch> launches = Launches(two_calls.graph_launches);
  call.launches.assign(launches.begin() + static_cast<std::ptrdiff_t>(launches.size() / 2), launches.end());
  return call;
}

// The step an activity belongs to: the one the profiler tagged it with,
// else, for a generated kernel, the step that runs its fusion (a kernel is
// named as its fusion).
class StepFinder {
 public:
  explicit StepFinder(const GpuProgram& program) {
    ForEachStep(program.main, [&](const Step& step, int) {
      steps_.insert(reinterpret_cast<uintptr_t>(&step));
      if (const auto* k = std::get_if<KernelStep>(&step.action)) {
        by_kernel_.emplace(program.fusions[static_cast<size_t>(k->fusion)].name, &step);
      }
    });
  }

  const Step* Find(const Activity& a) const {
    // Only a step of this program: the tag is an address.
    if (a.step != 0 && steps_.count(static_cast<uintptr_t>(a.step)) > 0) {
      return reinterpret_cast<const Step*>(static_cast<uintptr_t>(a.step));
    }
    const auto k = by_kernel_.find(a.name);
    return k == by_kernel_.end() ? nullptr : k->second;
  }

 private:
  std::set<uintptr_t> steps_;
  std::map<std::string, const Step*> by_kernel_;
};

std::string ActivityName(const GpuProgram& program, const Step* step, const Activity& a) {
  if (step == nullptr) return a.name;
  // A loop's or case's own work (copies of its state): what it is, and whose.
  if (std::holds_alternative<WhileStep>(step->action) || std::holds_alternative<CaseStep>(step->action)) {
    return a.name + " (" + StepName(program, *step) + ")";
  }
  return StepLabel(program, *step);
}

// As the profiler names copies and fills (runtime/kernel_profiler.cpp).
std::string Category(const Activity& a) {
  if (a.name == "memcpy DtoD") return "memcpy";
  if (a.name == "memset") return "memset";
  return "kernel";
}

// Each activity's lane (of activities in order of start): the first whose
// work has ended by its start.
std::vector<int> Lanes(const std::vector<Activity>& activities, int* count) {
  std::vector<double> ends;
  std::vector<int> lanes;
  for (const Activity& a : activities) {
    size_t lane = 0;
    while (lane < ends.size() && ends[lane] > a.start_s) ++lane;
    if (lane == ends.size()) ends.push_back(0);
    ends[lane] = a.end_s;
    lanes.push_back(static_cast<int>(lane));
  }
  *count = static_cast<int>(ends.size());
  return lanes;
}

// The graphs the launches of a call run, in order: the plan's segments.
std::vector<std::string> LaunchNames(const GraphPlan& plan) {
  std::vector<std::string> names;
  for (const GraphSegment& s : plan.segments) {
    if (s.graph >= 0) {
      names.push_back("graph " + std::to_string(s.graph) + " (" + plan.graphs[static_cast<size_t>(s.graph)].name + ")");
    }
  }
  return names;
}

std::string Joined(const std::vector<std::string>& parts) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : ", ") + p;
  return s;
}

}  // namespace

std::string StepLabel(const GpuProgram& program, const Step& step) {
  const std::string name = StepName(program, step), summary = StepSummary(program, step);
  if (summary.empty() || summary == name) return name;
  // A GEMM's, convolution's or collective's configuration says what it is.
  if (std::holds_alternative<GemmStep>(step.action) || std::holds_alternative<ConvolutionStep>(step.action) ||
      std::holds_alternative<CollectiveStep>(step.action)) {
    return summary;
  }
  return name + " " + summary;
}

io::Trace CallTrace(const KernelTotals& two_calls, const GpuProgram& program, const GraphPlan& plan,
                    const std::string& title) {
  const OneCall call = LaterCall(two_calls);
  double origin = std::numeric_limits<double>::infinity();
  for (const Activity& a : call.activities) origin = std::min(origin, a.start_s);
  for (const Launch& l : call.launches) origin = std::min(origin, l.start_s);
  const auto us = [&](double s) { return (s - origin) * 1e6; };

  io::Trace trace;
  trace.process = title;
  const std::vector<std::string> graph_names = LaunchNames(plan);
  std::vector<std::string> launch_names;
  std::map<uint32_t, size_t> launch_of;  // correlation id -> launch
  for (size_t i = 0; i < call.launches.size(); ++i) {
    launch_names.push_back(i < graph_names.size() ? "launch " + graph_names[i] : "graph launch " + std::to_string(i));
    for (uint32_t c : call.launches[i].correlations) launch_of[c] = i;
  }

  const StepFinder steps(program);
  int lane_count = 0;
  const std::vector<int> lanes = Lanes(call.activities, &lane_count);
  struct Span {
    double start = std::numeric_limits<double>::infinity(), end = -std::numeric_limits<double>::infinity();
    int activities = 0;
  };
  std::vector<Span> device_spans(call.launches.size());
  std::vector<io::TraceEvent> device;
  for (size_t i = 0; i < call.activities.size(); ++i) {
    const Activity& a = call.activities[i];
    io::TraceEvent e;
    e.name = ActivityName(program, steps.Find(a), a);
    e.category = Category(a);
    e.track = kFirstLane + lanes[i];
    e.start_us = us(a.start_s);
    e.duration_us = (a.end_s - a.start_s) * 1e6;
    if (e.name != a.name) e.args.push_back({"activity", a.name});
    if (a.bytes > 0) e.args.push_back({"bytes", std::to_string(a.bytes)});
    if (const auto l = launch_of.find(a.correlation); l != launch_of.end()) {
      e.args.push_back({"graph launch", launch_names[l->second]});
      Span& s = device_spans[l->second];
      s.start = std::min(s.start, a.start_s);
      s.end = std::max(s.end, a.end_s);
      ++s.activities;
    }
    e.args.push_back({"correlation", std::to_string(a.correlation)});
    device.push_back(std::move(e));
  }

  if (!call.launches.empty()) {
    trace.tracks.push_back({kHostLaunchTrack, "host: graph launches (API calls)"});
    trace.tracks.push_back({kDeviceLaunchTrack, "device: graph launches"});
  }
  for (int lane = 0; lane < lane_count; ++lane) {
    trace.tracks.push_back({kFirstLane + lane, lane == 0 ? "device: kernels, copies, fills"
                                                         : "device: overlapping (lane " + std::to_string(lane) + ")"});
  }
  for (size_t i = 0; i < call.launches.size(); ++i) {
    const Launch& l = call.launches[i];
    std::vector<std::string> ids;
    for (uint32_t c : l.correlations) ids.push_back(std::to_string(c));
    const std::string activities = std::to_string(device_spans[i].activities);
    trace.events.push_back({launch_names[i], "graph launch", kHostLaunchTrack, us(l.start_s),
                            (l.end_s - l.start_s) * 1e6,
                            {{"API calls", Joined(l.calls)}, {"correlation", Joined(ids)}, {"activities", activities}}});
    const Span& s = device_spans[i];
    if (s.activities == 0) continue;
    trace.events.push_back({launch_names[i], "graph launch", kDeviceLaunchTrack, us(s.start), (s.end - s.start) * 1e6,
                            {{"activities", activities}}});
  }
  for (io::TraceEvent& e : device) trace.events.push_back(std::move(e));
  return trace;
}

}  // namespace hlograph::gpu
