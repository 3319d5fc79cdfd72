#include "workloads/llm/train_grad_copies.h"

namespace hwsim {

namespace {

Op copy_op(const std::string& name, double read, double written) {
  StreamOp s;
  s.bytes_read = read, s.bytes_written = written, s.flops = 0, s.rows = 1;
  return Op(name, "elementwise", s);
}

}  // namespace

Op bucket_copy_in(const std::string& name, double elements, double grad_bytes, double reduce_bytes, bool divides) {
  const double read = elements * grad_bytes + (divides ? elements * reduce_bytes : 0);
  const double written = elements * reduce_bytes * (divides ? 2 : 1);
  Op op = copy_op(name, read, written);
  if (divides) std::get<StreamOp>(op.shape).flops = elements;  // one divide per element
  return op;
}

Op grad_copy_out(const std::string& name, double bytes) { return copy_op(name, bytes, bytes); }

Op gather_copy_in(const std::string& name, double elements, double master_bytes, double gather_bytes, double dp) {
  const double shard = elements / dp;
  // The cast to the gather's dtype (read the master, write a 16-bit copy), then that copy into the
  // gather's flat input (read and write it again); none when the master is already that dtype.
  const bool casts = master_bytes != gather_bytes;
  return copy_op(name, shard * (master_bytes + (casts ? gather_bytes : 0)), shard * gather_bytes * (casts ? 2 : 1));
}

Op gather_copy_out(const std::string& name, double elements, double gather_bytes) {
  return copy_op(name, elements * gather_bytes, elements * gather_bytes);
}

}  // namespace hwsim
