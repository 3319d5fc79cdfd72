#include "models/gpu/cta_list.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace hwsim {

OperandList tensor_blocks(std::int64_t tensor, double begin, double end) {
  OperandList out;  // the one object returned (no copy or move of its inline storage)
  if (end > begin && tensor >= 0)  // a GEMM's panel spans many blocks: one allocation
    out.reserve(std::size_t(std::ceil(end / kTensorBlock) - std::floor(begin / kTensorBlock)));
  for_each_tensor_block(tensor, begin, end, [&](const OperandRead& r) { out.push_back(r); });
  return out;
}

void CtaList::read_after_write() { throw std::logic_error("CtaList: a read after the CTA's writes"); }

void CtaList::take(std::vector<Cta>& ctas, std::vector<OperandRead>& operands) {
  if (operands_.size() > std::numeric_limits<std::uint32_t>::max())
    throw std::logic_error("CtaList: more operand blocks than a kernel indexes");
  ctas = std::move(ctas_), operands = std::move(operands_);
  ctas_.clear(), operands_.clear();
}

void CtaList::reserve(std::size_t ctas, std::size_t operands) {
  ctas_.reserve(ctas);
  operands_.reserve(operands);
}

CtaList::View CtaList::operator[](std::size_t i) const {
  const Cta& c = ctas_[i];
  std::span<const OperandRead> all(operands_);
  return {c.flops, c.scratch_bytes, all.subspan(c.reads, c.read_count), all.subspan(c.writes, c.write_count)};
}

}  // namespace hwsim
