#include "support/ErrorOf.hpp"
#include "support/TestSpaces.hpp"

#include <kfield/learn/Pointwise.hpp>
#include <kfield/learn/impl/PointwiseKernel.hpp>

#include <random>
#include <vector>

namespace kfield::test {
namespace {

using namespace kfield::pointwise;

template <class Space>
class Pointwise : public ::testing::Test {};
TYPED_TEST_SUITE(Pointwise, Spaces, SpaceNames);

// Segments [0,10) [10,17) [17,30) [30,40): `each`, `fold` and indexed reads cross them.
const impl::SlotLayout kLayout{{0, 10, 17, 30, 40}, {true, true, true, true}};

PointwiseProgram crossingProgram() {
  PointwiseProgram p;
  p.slots = 40;
  p.assignments = {
      each(0, 8, Expr::indexed(20) * Expr(1.5) + Expr::indexed(0)),
      fold(8, Binary::Add, 30,
           Expr::indexed(10) * Expr::indexed(10) - min(Expr::indexed(0), Expr(0.25))),
      each(28, 12, max(Expr::indexed(5), Expr::slot(8)) / Expr(3.0)),
      set(9,
          exp(log(abs(Expr::slot(8)) + Expr(1.0))) - floor(Expr::slot(30)) + ceil(Expr::slot(31))),
      fold(39, Binary::Max, 25, -Expr::indexed(2)),
      each(10, 20, sqrt(abs(Expr::indexed(10))) * Expr::slot(39)),
      // Cut at instances 5, 7, 14 and 18: pieces that start inside a row of 16 lanes.
      sum(38, 27, Expr::indexed(3) * Expr::indexed(12) - Expr(0.5)),
  };
  return p;
}

std::vector<double> randomSlots(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-4.0, 4.0);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = u(rng);
  return v;
}

// How a program runs: in one thread (as a contribution runs), spread over threads (as an
// update runs), or in one thread in blocks of 24 instances (many blocks per piece, and rows of
// 16 sum lanes that straddle blocks).
enum Run { kOneThread, kParallel, kSmallBlocks };

template <class Space>
std::vector<double> onDevice(const PointwiseProgram& program, const std::vector<double>& slots,
                             Run run, const impl::SlotLayout& layout = kLayout) {
  using Memory = typename Space::memory_space;
  Kokkos::View<double*, Memory> data("slots", slots.size());
  auto h = Kokkos::create_mirror_view(data);
  for (std::size_t j = 0; j < slots.size(); ++j) h(j) = slots[j];
  Kokkos::deep_copy(data, h);
  const auto host = impl::compilePointwise(program, layout, "test");
  const auto compiled = impl::uploadPointwise<Memory>(host);
  impl::Segments seg;
  for (int s = 0; s < 4; ++s) seg.base[s] = data.data() + layout.start[static_cast<std::size_t>(s)];
  if (run == kParallel) {
    impl::runPointwise(Space(), host, compiled, seg);
  } else if (run == kOneThread) {
    Kokkos::parallel_for(
        "test::pointwise", Kokkos::RangePolicy<Space>(0, 1),
        KOKKOS_LAMBDA(int) { compiled.template run<PointwiseLanes<Space>::value>(seg); });
  } else {
    Kokkos::parallel_for(
        "test::pointwise", Kokkos::RangePolicy<Space>(0, 1),
        KOKKOS_LAMBDA(int) { compiled.template run<24>(seg); });
  }
  Kokkos::deep_copy(h, data);
  return std::vector<double>(h.data(), h.data() + h.extent(0));
}

TYPED_TEST(Pointwise, DeviceEvaluationMatchesTheDefinition) {
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    std::vector<double> expected = randomSlots(40, seed);
    const auto start = expected;
    evaluate(crossingProgram(), expected);
    for (Run run : {kOneThread, kParallel, kSmallBlocks}) {
      const auto got = onDevice<TypeParam>(crossingProgram(), start, run);
      for (std::size_t j = 0; j < got.size(); ++j) {
        EXPECT_EQ(bitsOf(got[j]), bitsOf(expected[j]))
            << "slot " << j << " seed " << seed << " run " << run;
      }
    }
  }
}

TYPED_TEST(Pointwise, LongEachesSpreadOverBlocks) {
  PointwiseProgram p;
  p.slots = 40;
  p.assignments = {each(17, 13, Expr::indexed(17) * Expr::indexed(0) + Expr::slot(39)),
                   each(0, 10, Expr::indexed(0) - Expr::indexed(30))};
  const auto start = randomSlots(40, 11);
  auto expected = start;
  evaluate(p, expected);
  const auto got = onDevice<TypeParam>(p, start, kParallel);
  for (std::size_t j = 0; j < got.size(); ++j) EXPECT_EQ(bitsOf(got[j]), bitsOf(expected[j])) << j;
}

// Several blocks per piece (in small blocks, and spread over threads), and every mix of operands
// that vary across instances and operands that do not, including values the same for all.
TYPED_TEST(Pointwise, WideProgramsWithUniformAndVaryingOperands) {
  const impl::SlotLayout wide{{0, 300, 500, 700, 1000}, {true, true, true, true}};
  PointwiseProgram p;
  p.slots = 1000;
  p.assignments = {
      each(0, 290, Expr::slot(999) - Expr::indexed(310) * Expr::indexed(0)),  // S - V*V
      fold(295, Binary::Add, 400, Expr(0.5) * Expr::indexed(300)),            // S*V
      each(700, 250, Expr::slot(295) * Expr(2.0) - Expr::slot(1)),            // uniform each
      fold(296, Binary::Max, 300, Expr::slot(2) + Expr(1.0)),                 // uniform fold
      fold(297, Binary::Mul, 200, Expr(1.0) + abs(Expr::indexed(500)) / Expr(64.0)),
      each(500, 190, -Expr::indexed(301) + sqrt(abs(Expr::indexed(710)))),      // unary on reads
      each(301, 199, Expr::indexed(301) - Expr::slot(0) * Expr::indexed(701)),  // in place
      each(960, 40, Expr::indexed(0)),                                          // a bare read
      each(800, 150, abs(Expr::indexed(400))),                                  // ends unary
      sum(298, 600, Expr::indexed(0) * Expr::indexed(350) + Expr::slot(5)),     // cut off-row
      sum(299, 77, Expr::slot(3) * Expr(3.0)),                                  // uniform sum
  };
  for (std::uint64_t seed : {5u, 6u}) {
    const auto start = randomSlots(1000, seed);
    auto expected = start;
    evaluate(p, expected);
    for (Run run : {kOneThread, kParallel, kSmallBlocks}) {
      const auto got = onDevice<TypeParam>(p, start, run, wide);
      for (std::size_t j = 0; j < got.size(); ++j) {
        ASSERT_EQ(bitsOf(got[j]), bitsOf(expected[j]))
            << "slot " << j << " seed " << seed << " run " << run;
      }
    }
  }
}

// Eaches longer than a block share one pass over memory when no instance needs another
// instance's write (an update's moments and parameters); the others keep their own pass.
TYPED_TEST(Pointwise, EachesShareAPassOnlyWhereThatKeepsTheirValues) {
  const impl::SlotLayout one{{0, 6000}, {true}};
  PointwiseProgram p;
  p.slots = 6000;
  p.assignments = {
      each(0, 1500, Expr::indexed(1500) * Expr(2.0) + Expr::slot(5999)),
      each(1500, 1500, Expr::indexed(0) + Expr::indexed(1500)),  // reads instance i's write
      each(3000, 1500, Expr::indexed(1) - Expr::indexed(1500)),  // instance i + 1's: apart
      each(4500, 1500, Expr::indexed(3000) * Expr::slot(10)),    // slot 10 is not C's
      each(3000, 1500, Expr::indexed(4500) + Expr::slot(4600)),  // D's instance 100: apart
  };
  const auto code = impl::compilePointwise(p, one, "test");
  ASSERT_EQ(code.pieces.size(), 5u);
  EXPECT_FALSE(code.pieces[0].fused);
  EXPECT_TRUE(code.pieces[1].fused);
  EXPECT_FALSE(code.pieces[2].fused);
  EXPECT_TRUE(code.pieces[3].fused);
  EXPECT_FALSE(code.pieces[4].fused);
  const auto start = randomSlots(6000, 9);
  auto expected = start;
  evaluate(p, expected);
  for (Run run : {kOneThread, kParallel}) {
    const auto got = onDevice<TypeParam>(p, start, run, one);
    for (std::size_t j = 0; j < got.size(); ++j) {
      ASSERT_EQ(bitsOf(got[j]), bitsOf(expected[j])) << "slot " << j << " run " << run;
    }
  }
}

TEST(PointwiseProgram, LaterAssignmentsSeeEarlierWrites) {
  PointwiseProgram p;
  p.slots = 3;
  p.assignments = {set(0, Expr(1.0)), set(1, Expr::slot(0) + Expr(1.0)),
                   set(0, Expr::slot(1) * Expr(10.0))};
  std::vector<double> slots{5.0, 5.0, 5.0};
  evaluate(p, slots);
  EXPECT_EQ(slots, (std::vector<double>{20.0, 2.0, 5.0}));
}

TEST(PointwiseProgram, EncodingRoundTripsAndIsTheIdentity) {
  PointwiseProgram p;
  p.slots = 40;
  p.assignments = {each(0, 8, Expr::indexed(20) * Expr(1.5) + Expr::indexed(0)),
                   fold(8, Binary::Max, 30, -Expr::indexed(10)),
                   set(9, sqrt(Expr::slot(8)) + Expr::word(0x7ff8000000000001ull))};
  const auto words = encode(p);
  EXPECT_EQ(encode(decode(words)), words);
  EXPECT_EQ(identityBytes(p).size(), words.size() * 8);
  EXPECT_EQ(identityBytes(p)[0], 40);  // the slot count, little-endian, comes first
  PointwiseProgram q = p;
  q.assignments[2].code[0] ^= 1u << 8;  // read another slot
  EXPECT_NE(identityBytes(q), identityBytes(p));

  PointwiseProgram r;
  r.slots = 10;
  r.assignments = {sum(9, 5, Expr::indexed(0))};
  const auto sumWords = encode(r);
  EXPECT_EQ(sumWords[4], 8u);  // the form word of a sum
  EXPECT_EQ(decode(sumWords).assignments[0].form, Form::Sum);
  auto unknown = sumWords;
  unknown[4] = 9;
  EXPECT_EQ(errorOf([&] { decode(unknown); }), "kfield::pointwise::decode: word 4: unknown form 9");
}

TEST(PointwiseProgram, BadProgramsAreNamed) {
  PointwiseProgram p;
  p.slots = 10;
  p.assignments = {each(2, 4, Expr::indexed(3))};
  EXPECT_EQ(errorOf([&] { validate(p, "rule"); }),
            "rule: assignment 0: its instances read slot indexed 3, which other instances write "
            "(slots [2, 6)); split it into separate assignments");
  p.assignments = {each(2, 4, Expr::slot(4))};
  EXPECT_EQ(errorOf([&] { validate(p, "rule"); }),
            "rule: assignment 0: its instances read slot 4, which other instances write (slots "
            "[2, 6)); split it into separate assignments");
  p.assignments = {each(2, 4, Expr::indexed(2) + Expr::indexed(6))};  // own slot and beyond
  EXPECT_EQ(errorOf([&] { validate(p, "rule"); }), "no error");
  p.assignments = {each(8, 4, Expr(1.0))};
  EXPECT_EQ(errorOf([&] { validate(p, "rule"); }),
            "rule: assignment 0: writes slots [8, 12) of 10");
  p.assignments = {set(0, Expr::indexed(9) + Expr::slot(10))};
  EXPECT_EQ(errorOf([&] { validate(p, "rule"); }), "rule: assignment 0: reads slot 10 of 10");
  Expr deep = Expr(1.0);
  for (int j = 0; j < 20; ++j) deep = Expr(1.0) + deep;  // right-deep: a stack entry per term
  p.assignments = {set(0, deep)};
  EXPECT_EQ(errorOf([&] { validate(p, "rule"); }),
            "rule: assignment 0: the expression needs 21 stack entries (at most 16); write long "
            "sums as a fold");
  EXPECT_EQ(errorOf([] {
              decode({4, 1, 0, 1, 0});
            }),
            "kfield::pointwise::decode: the words end before a code length (word 5)");
  EXPECT_EQ(errorOf([] {
              decode({4, 1, 0, 1, 9, 1, 0});
            }),
            "kfield::pointwise::decode: word 4: unknown form 9");
  EXPECT_EQ(errorOf([] {
              decode({4, 1, 0, 1, 0, 1, 77});
            }),
            "kfield::pointwise::decode: assignment 0: unknown opcode 77 at code word 0");
  EXPECT_EQ(errorOf([] {
              decode({4, 0, 5});
            }),
            "kfield::pointwise::decode: 1 words after the last assignment");
  EXPECT_EQ(errorOf([] {
              PointwiseProgram w;
              w.slots = 4;
              w.assignments = {set(1, Expr(2.0))};
              impl::compilePointwise(w, {{0, 2, 4}, {false, true}}, "contribution");
            }),
            "contribution: assignment 0 writes slot 1, which this program may not write");
}

TEST(PointwiseProgram, SlotsOutsideTheEncodingAreRefused) {
  EXPECT_EQ(errorOf([] { Expr::slot(-1); }), "kfield::pointwise: slot -1 is outside [0, 2^55)");
  EXPECT_EQ(errorOf([] { Expr::indexed(std::int64_t(1) << 55); }),
            "kfield::pointwise: slot 36028797018963968 is outside [0, 2^55)");
}

}  // namespace
}  // namespace kfield::test
