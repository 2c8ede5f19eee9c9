#include "support/ErrorOf.hpp"
#include "support/LearnerReference.hpp"

#include <kfield/learn/DataParallelSystem.hpp>

#include <gtest/gtest.h>

#include <string>

namespace kfield::test {
namespace {

using namespace kfield::pointwise;

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
  expect(Admission::NoSamples, "no owner holds a sample", [](auto& s) {
    for (auto& o : s.owners) o.clear();
  });
  expect(Admission::SampleWidth, "owner 1 sample 2 has 3 words, s = 4",
         [](auto& s) { s.owners[1][2].pop_back(); });
  expect(Admission::MalformedProgram,
         "update: assignment 0: a binary operator with fewer than two operands", [](auto& s) {
           s.update.assignments[0].code = {opcode::kConstant, 0, opcode::kBinary};
         });
  EXPECT_EQ(describe(Admission::MassTooLarge), "total mass is not below 2^53");
}

}  // namespace
}  // namespace kfield::test
