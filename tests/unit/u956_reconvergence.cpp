// Reconvergence points (models/gpu/warp/parser.cpp): each branch reconverges at its immediate
// post-dominator, found by hand on small programs; an endless loop reconverges only at exit; many
// thousands of branches are analysed (the hostile suite bounds the time).
#include <doctest/doctest.h>

#include "models/gpu/warp/parser.h"

using namespace hwsim::warp;

TEST_CASE("reconvergence: if-else joins at the join, a loop's back edge after the loop, an endless loop at exit") {
  Program diamond = parse_kernel(".kernel d\n.reg u32 i\n.reg pred p\n"
                                 "    setp.eq.u32 p, %tid, 0\n"  // 0
                                 "    @p bra ELSE\n"              // 1
                                 "    add.u32 i, i, 1\n"          // 2
                                 "    bra JOIN\n"                 // 3
                                 "ELSE:\n    add.u32 i, i, 2\n"   // 4
                                 "JOIN:\n    exit\n",             // 5
                                 "d.hwk");
  REQUIRE(diamond.code.size() == 6);
  CHECK(diamond.code[1].reconverge == 5);
  CHECK(diamond.code[3].reconverge == 5);
  CHECK(diamond.code[5].reconverge == 6);  // exit: the end

  Program loop = parse_kernel(".kernel l\n.reg u32 i\n.reg pred p\n"
                              "L:\n    add.u32 i, i, 1\n"     // 0
                              "    setp.lt.u32 p, i, 10\n"   // 1
                              "    @p bra L\n"               // 2
                              "    exit\n",                  // 3
                              "l.hwk");
  CHECK(loop.code[2].reconverge == 3);

  Program endless = parse_kernel(".kernel e\n.reg u32 i\nL:\n    add.u32 i, i, 1\n    bra L\n", "e.hwk");
  CHECK(endless.code[1].reconverge == int(endless.code.size()));  // never reaches exit: only exit joins it
}

TEST_CASE("reconvergence: 20,000 forward branches each reconverge at their own label") {
  std::string program = ".kernel f\n.reg u32 i\n.reg pred p\n    setp.eq.u32 p, %tid, 0\n";
  for (int k = 0; k < 20000; ++k)
    program += "    @p bra L" + std::to_string(k) + "\n    add.u32 i, i, 1\nL" + std::to_string(k) + ":\n";
  Program p = parse_kernel(program + "    exit\n", "f.hwk");
  REQUIRE(p.code.size() == 1 + 2 * 20000 + 1);
  for (int k = 0; k < 20000; ++k) {
    const Instr& branch = p.code[std::size_t(1 + 2 * k)];
    REQUIRE(branch.reconverge == 1 + 2 * k + 2);
  }
}
