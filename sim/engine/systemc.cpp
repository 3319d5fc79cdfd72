#include "sim/engine/systemc.h"

#include <cstdlib>

namespace hwsim {

void init_systemc() {
  static bool done = false;
  if (done) return;
  done = true;
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
}

}  // namespace hwsim

// libsystemc references sc_main from its own main(); hwsim has its own main() and starts the
// kernel with sc_start() directly, so this is never called.
int sc_main(int, char*[]) { return 1; }
