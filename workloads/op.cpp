#include "workloads/op.h"

namespace hwsim {

namespace {
template <class... F> struct Overload : F... { using F::operator()...; };
template <class... F> Overload(F...) -> Overload<F...>;
}  // namespace

double op_flops(const Op& op) {
  return std::visit(Overload{
      [](const GemmOp& g) { return 2.0 * double(g.m) * double(g.n) * double(g.k) * double(g.groups); },
      [](const StreamOp& s) { return s.flops; },
  }, op.shape);
}

double op_min_bytes(const Op& op) {
  return std::visit(Overload{
      [](const GemmOp& g) {
        return double(g.groups) * (double(g.m) * double(g.k) * bytes_per_element(g.a) +
                                   double(g.n) * double(g.k) * bytes_per_element(g.b) +
                                   double(g.m) * double(g.n) * bytes_per_element(g.out));
      },
      [](const StreamOp& s) { return s.bytes_read + s.bytes_written; },
  }, op.shape);
}

}  // namespace hwsim
