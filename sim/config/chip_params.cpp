// Keys every chip file has, whatever its kind (declared once, for every kind).
#include "sim/config/param.h"

namespace hwsim {
namespace {

const ParamRegistration chip_params({
    text_param("name", "chip name shown in results"),
    text_param("description", "one line about the chip and its sources").defaults_to(""),
    text_param("kind", "what the chip is: a registered device kind (gpu, systolic, mcu); chooses which components "
                       "and keys the file may have").defaults_to("gpu"),
});

}  // namespace
}  // namespace hwsim
