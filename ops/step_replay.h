#pragma once
// An optional device capability (ops/device.h): recording what a step did to the state the device
// carries into the next (its caches' contents, its clock governor's history), and replaying it
// where the same step would run exactly so again. Serving's step reuse (run/serving/) asks a
// device for it with step_replay(); a device without it runs every step.
#include <memory>

#include "ops/device.h"

namespace hwsim {

// What one step did to the carried state. Opaque: only the device that made it reads it.
struct StepEffect {
  virtual ~StepEffect() = default;
  virtual std::size_t bytes() const = 0;  // host memory it holds, roughly
};

class StepReplay {
 public:
  virtual ~StepReplay() = default;
  // While recording, each run_step keeps what it did, which last_step_effect() hands over.
  virtual void record_step_effects(bool on) = 0;
  virtual std::shared_ptr<const StepEffect> last_step_effect() = 0;
  // If the step that left `effect` would, from the state the device is in now, run exactly as it
  // did when recorded, takes its time (waits `seconds`) and leaves the device as that step left
  // it, and returns true; else changes nothing, waits not, and returns false.
  virtual bool replay_step(const StepEffect& effect, double seconds) = 0;
};

// The device's replay capability, or null when it has none.
inline StepReplay* step_replay(Device& device) { return dynamic_cast<StepReplay*>(&device); }

}  // namespace hwsim
