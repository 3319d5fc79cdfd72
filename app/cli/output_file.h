#pragma once
// Writes a whole file or nothing: content goes to a temporary beside `path`, renamed into place
// only when complete. A failure is a UserError(io) naming the path.
#include <string>

namespace hwsim {

void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace hwsim
