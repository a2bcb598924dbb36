// PJRT_Event: completion of asynchronous work. The CPU backend finishes work
// before it returns, so its events are made ready, but an event can also be
// set later (SetReady) and then runs the callbacks registered before.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "pjrt/pjrt_c_api.h"

namespace hlograph::pjrt {

class EventState {
 public:
  // Marks the event ready, with an error (code, message) or none; runs the
  // pending callbacks. A second call does nothing.
  void SetReady(std::optional<std::pair<PJRT_Error_Code, std::string>> error = std::nullopt);
  bool IsReady();
  // Waits until ready; returns a new error (owned by the caller) or null.
  PJRT_Error* Await();
  // Calls `callback` once ready: now if it already is, else from SetReady.
  void OnReady(PJRT_Event_OnReadyCallback callback, void* user_arg);

 private:
  PJRT_Error* NewErrorLocked() const;

  std::mutex mu_;
  std::condition_variable cv_;
  bool ready_ = false;
  std::optional<std::pair<PJRT_Error_Code, std::string>> error_;
  std::vector<std::pair<PJRT_Event_OnReadyCallback, void*>> callbacks_;
};

// An event already ready (without error), and a new handle on one.
std::shared_ptr<EventState> ReadyEventState();
PJRT_Event* MakeReadyEvent();
PJRT_Event* MakeEvent(std::shared_ptr<EventState> state);

PJRT_Error* EventDestroy(PJRT_Event_Destroy_Args* args);
PJRT_Error* EventIsReady(PJRT_Event_IsReady_Args* args);
PJRT_Error* EventError(PJRT_Event_Error_Args* args);
PJRT_Error* EventAwait(PJRT_Event_Await_Args* args);
PJRT_Error* EventOnReady(PJRT_Event_OnReady_Args* args);

}  // namespace hlograph::pjrt

struct PJRT_Event {
  std::shared_ptr<hlograph::pjrt::EventState> state;
};
