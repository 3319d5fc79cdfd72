#pragma once
// SystemC cannot be reset, so each simulation point of a sweep or a validation runs in a child
// process (fork, no exec). The child runs `work` and sends back its text; a UserError in the child
// is re-thrown in the parent with the same code and line; a crash is an internal error.
#include <functional>
#include <string>

namespace hwsim {

std::string run_isolated(const std::function<std::string()>& work);

}  // namespace hwsim
