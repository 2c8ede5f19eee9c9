#include "ErrorOf.hpp"
#include "LearnerReference.hpp"

#include <kfield/learn/Learner.hpp>
#include <kfield/learn/Pointwise.hpp>
#include <kfield/learn/impl/PointwiseKernel.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace kfield::test {
namespace {

using namespace kfield::pointwise;

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
  EXPECT_EQ(errorOf([&] { validate(p, "rule"); }), "rule: assignment 0: writes slots [8, 12) of 10");
  p.assignments = {set(0, Expr::indexed(9) + Expr::slot(10))};
  EXPECT_EQ(errorOf([&] { validate(p, "rule"); }), "rule: assignment 0: reads slot 10 of 10");
  Expr deep = Expr(1.0);
  for (int j = 0; j < 20; ++j) deep = Expr(1.0) + deep;  // right-deep: a stack entry per term
  p.assignments = {set(0, deep)};
  EXPECT_EQ(errorOf([&] { validate(p, "rule"); }),
            "rule: assignment 0: the expression needs 21 stack entries (at most 16); write long "
            "sums as a fold");
  EXPECT_EQ(errorOf([] { decode({4, 1, 0, 1, 0}); }),
            "kfield::pointwise::decode: the words end before a code length (word 5)");
  EXPECT_EQ(errorOf([] { decode({4, 1, 0, 1, 9, 1, 0}); }),
            "kfield::pointwise::decode: word 4: unknown form 9");
  EXPECT_EQ(errorOf([] { decode({4, 1, 0, 1, 0, 1, 77}); }),
            "kfield::pointwise::decode: assignment 0: unknown opcode 77 at code word 0");
  EXPECT_EQ(errorOf([] { decode({4, 0, 5}); }), "kfield::pointwise::decode: 1 words after the last assignment");
  EXPECT_EQ(errorOf([] {
              PointwiseProgram w;
              w.slots = 4;
              w.assignments = {set(1, Expr(2.0))};
              impl::compilePointwise(w, {{0, 2, 4}, {false, true}}, "contribution");
            }),
            "contribution: assignment 0 writes slot 1, which this program may not write");
}


DataParallelSystem smallSystem() {
  return leastSquaresSystem(3, 10, {0, 4, 10}, rules::adam(3), 0.01);
}

TEST(DataParallelSystem, AdmittedNamesEachFailingCondition) {
  EXPECT_TRUE(admitted(smallSystem()));
  auto expect = [](Admission condition, const std::string& detail, auto change) {
    DataParallelSystem sys = smallSystem();
    change(sys);
    const AdmissionResult r = admitted(sys);
    EXPECT_EQ(r.condition, condition) << describe(condition);
    EXPECT_EQ(r.detail, detail) << describe(condition);
  };
  expect(Admission::NoParameters, "k = 0", [](auto& s) { s.parameters = 0; });
  expect(Admission::ContributionSlots, "contribution has 9 slots, 2k + s = 10",
         [](auto& s) { s.contribution.slots = 9; });
  expect(Admission::UpdateSlots, "update has 15 slots, 2k + m + 1 = 16",
         [](auto& s) { s.update.slots = 15; });
  expect(Admission::InitialParameters, "2 words, k = 3",
         [](auto& s) { s.initialParameters.pop_back(); });
  expect(Admission::ContributionWritesOutside, "assignment 1 writes slot 3, outputs are [7, 10)",
         [](auto& s) { s.contribution.assignments[1].dest = 3; });
  expect(Admission::UpdateWritesOutside, "assignment 5 writes slot 12, outputs are [0, 12)",
         [](auto& s) { s.update.assignments[5].dest = 12; });
  expect(Admission::FewerThanTwoOwners, "1 owner(s)", [](auto& s) { s.owners.pop_back(); });
  expect(Admission::NoSamples, "no owner holds a sample",
         [](auto& s) { for (auto& o : s.owners) o.clear(); });
  expect(Admission::SampleWidth, "owner 1 sample 2 has 3 words, s = 4",
         [](auto& s) { s.owners[1][2].pop_back(); });
  expect(Admission::MalformedProgram,
         "update: assignment 0: a binary operator with fewer than two operands",
         [](auto& s) { s.update.assignments[0].code = {opcode::kConstant, 0, opcode::kBinary}; });
  EXPECT_EQ(describe(Admission::MassTooLarge), "total mass is not below 2^53");
}

TEST(DataParallelSystem, IdentitiesFollowTheRuleAndTheSamples) {
  const DataParallelSystem sys = smallSystem();
  const auto bytes = systemIdentityBytes(sys);
  const std::string prefix = "alpha-data-parallel-v1;";
  ASSERT_GT(bytes.size(), prefix.size());
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + prefix.size()), prefix);
  EXPECT_EQ(bytes[prefix.size()], 3);  // k as a little-endian word
  const auto learner = learnerIdentityBytes(sys);
  EXPECT_EQ(std::string(learner.begin(), learner.begin() + 31), "alpha-data-parallel-learner-v1;");
  // Every rule word and every sample word is part of both identities.
  auto changes = [&](auto change) {
    DataParallelSystem other = sys;
    change(other);
    return systemIdentity(other) != systemIdentity(sys) && learnerIdentity(other) != learnerIdentity(sys);
  };
  EXPECT_TRUE(changes([](auto& s) { s.rate ^= 1; }));
  EXPECT_TRUE(changes([](auto& s) { s.initialParameters[2] ^= 1; }));
  EXPECT_TRUE(changes([](auto& s) { s.initialState[4] ^= 1; }));
  EXPECT_TRUE(changes([](auto& s) { s.update.assignments[3].code[1] ^= 1; }));
  EXPECT_TRUE(changes([](auto& s) { s.contribution.assignments[0].dest += 1; }));
  EXPECT_TRUE(changes([](auto& s) { s.owners[1][5][3] ^= 1ull << 63; }));
  EXPECT_TRUE(changes([](auto& s) { std::swap(s.owners[0][0], s.owners[0][1]); }));
  // Placement changes the system identity only.
  for (int owners = 2; owners <= 8; ++owners) {
    const DataParallelSystem moved = repartitioned(sys, owners);
    EXPECT_EQ(learnerIdentityBytes(moved), learner);
    EXPECT_EQ(describe(learnerIdentity(moved)), describe(learnerIdentity(sys)));
    if (owners != 2) {
      EXPECT_NE(systemIdentity(moved), systemIdentity(sys));
    }
  }
}

TEST(DataParallelSystem, Sha256) {
  const std::string abc = "abc";  // FIPS 180-2, appendix B.1
  EXPECT_EQ(describe(sha256(std::vector<unsigned char>(abc.begin(), abc.end()))),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // Streaming the identity in pieces digests the same bytes as the whole.
  const DataParallelSystem sys = smallSystem();
  EXPECT_EQ(systemIdentity(sys), sha256(systemIdentityBytes(sys)));
  EXPECT_EQ(learnerIdentity(sys), sha256(learnerIdentityBytes(sys)));
}

TEST(DataParallelSystem, RepartitionSplitsLargerFirst) {
  const DataParallelSystem sys = leastSquaresSystem(2, 10, {0, 9, 10}, rules::sgd(2), 0.1);
  const DataParallelSystem r = repartitioned(sys, 4);
  std::vector<std::size_t> sizes;
  for (const auto& o : r.owners) sizes.push_back(o.size());
  EXPECT_EQ(sizes, (std::vector<std::size_t>{3, 3, 2, 2}));
  EXPECT_EQ(r.owners[2][0], sys.owners[0][6]);
  EXPECT_EQ(repartitioned(sys, 12).owners[11].size(), 0u);
  EXPECT_EQ(errorOf([&] { repartitioned(sys, 0); }), "kfield::repartitioned: owners = 0, need at least 1");
}

TEST(DataParallelSystem, SlotClassesAndSeparability) {
  // k = 2, m = 5 (q = 2 per-coordinate words, one shared): slots p0 p1 | m0 m1 v0 v1 t | g0 g1 | rate
  const std::vector<std::int64_t> classes{1, 2, 1, 2, 1, 2, 0, 1, 2, 0};
  for (std::int64_t slot = 0; slot < 10; ++slot) EXPECT_EQ(slotClass(2, 5, 2, slot), classes[slot]) << slot;
  const DataParallelSystem adam = leastSquaresSystem(3, 10, {0, 4, 10}, rules::adam(3), 0.01);
  EXPECT_TRUE(separable(adam, 2));
  EXPECT_FALSE(separable(adam, 1));  // the second moments would count as shared, read per coordinate
  EXPECT_EQ(separabilityProblem(adam, 1),
            "update assignment 4 writes slot 6 (shared) and reads slot 12 (coordinate 0)");
  EXPECT_EQ(separabilityProblem(adam, 4), "q k = 12 per-coordinate state words, but m = 9");
  const auto owned = ownedProgram(adam, 2, [](std::int64_t c) { return c == 1; });
  // Shared sets stay; each `each` keeps only instance 1.
  ASSERT_EQ(owned.assignments.size(), 6u);
  EXPECT_EQ(owned.assignments[3].dest, 4);
  EXPECT_EQ(owned.assignments[3].count, 1);
  EXPECT_EQ(owned.assignments[5].dest, 1);
}

TEST(DataParallelSystem, OwnersThatDisagreeStopTheRun) {
  EXPECT_NO_THROW(impl::checkHashes({5, 5, 5}, "owner", 3));
  try {
    impl::checkHashes({5, 5, 6}, "rank", 32);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(),
                 "kfield::DataParallelLearner: owners disagree after step 32: rank 2's parameters and state "
                 "hash to 0000000000000006, rank 0's to 0000000000000005");
  }
}

}  // namespace
}  // namespace kfield::test
