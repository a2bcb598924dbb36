#include "pjrt/event.h"

#include <utility>

#include "pjrt/error.h"

namespace hlograph::pjrt {

void EventState::SetReady(std::optional<std::pair<PJRT_Error_Code, std::string>> error) {
  std::vector<std::pair<PJRT_Event_OnReadyCallback, void*>> callbacks;
  std::vector<PJRT_Error*> errors;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (ready_) return;
    ready_ = true;
    error_ = std::move(error);
    callbacks.swap(callbacks_);
    for (size_t i = 0; i < callbacks.size(); ++i) errors.push_back(NewErrorLocked());
  }
  cv_.notify_all();
  for (size_t i = 0; i < callbacks.size(); ++i) callbacks[i].first(errors[i], callbacks[i].second);
}

bool EventState::IsReady() {
  std::lock_guard<std::mutex> lock(mu_);
  return ready_;
}

PJRT_Error* EventState::NewErrorLocked() const {
  return error_ ? MakeError(error_->first, error_->second) : nullptr;
}

PJRT_Error* EventState::Await() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return ready_; });
  return NewErrorLocked();
}

void EventState::OnReady(PJRT_Event_OnReadyCallback callback, void* user_arg) {
  PJRT_Error* error = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!ready_) {
      callbacks_.emplace_back(callback, user_arg);
      return;
    }
    error = NewErrorLocked();
  }
  callback(error, user_arg);  // outside the lock: the callback may touch the event
}

PJRT_Event* MakeEvent(std::shared_ptr<EventState> state) { return new PJRT_Event{std::move(state)}; }

std::shared_ptr<EventState> ReadyEventState() {
  auto state = std::make_shared<EventState>();
  state->SetReady();
  return state;
}

PJRT_Event* MakeReadyEvent() { return MakeEvent(ReadyEventState()); }

PJRT_Error* EventDestroy(PJRT_Event_Destroy_Args* args) {
  delete args->event;
  return nullptr;
}

PJRT_Error* EventIsReady(PJRT_Event_IsReady_Args* args) {
  args->is_ready = args->event->state->IsReady();
  return nullptr;
}

PJRT_Error* EventError(PJRT_Event_Error_Args* args) {
  if (!args->event->state->IsReady()) {
    return MakeError(PJRT_Error_Code_FAILED_PRECONDITION, "PJRT_Event_Error: the event is not ready");
  }
  return args->event->state->Await();
}

PJRT_Error* EventAwait(PJRT_Event_Await_Args* args) { return args->event->state->Await(); }

PJRT_Error* EventOnReady(PJRT_Event_OnReady_Args* args) {
  if (args->callback == nullptr) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Event_OnReady: no callback");
  }
  args->event->state->OnReady(args->callback, args->user_arg);
  return nullptr;
}

}  // namespace hlograph::pjrt
