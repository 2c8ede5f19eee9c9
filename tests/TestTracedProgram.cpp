// What a traced program holds: the operations rounds replay, the graph of what runs, and its
// sensors.
#include <kfield/field/Library.hpp>
#include <kfield/field/TracedProgram.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace kfield::test {
namespace {

// What no one reads and nothing keeps is not replayed: a value computed and dropped, and the
// read of a shared value that feeds only an exclude-self fold. What others or later rounds
// see (exports, states, the output, a keyed read that records presence) always stays.
TEST(TracedProgram, DeadOperationsAreNotReplayed) {
  auto count = [](const TracedProgram& t, impl::OpCode code) {
    return std::count_if(t.ops.begin(), t.ops.end(),
                         [&](const impl::Op& op) { return op.code == code; });
  };
  const auto hop = trace([](Program& p) {
    (void)(p.sense<double>("unused") * 2.0);
    return lib::hopGradient(p, p.sense<bool>("source"));
  });
  EXPECT_EQ(count(hop, impl::OpCode::ShareRead), 0);
  EXPECT_EQ(count(hop, impl::OpCode::Mul), 0);
  EXPECT_EQ(count(hop, impl::OpCode::Sense), 1);
  EXPECT_EQ(count(hop, impl::OpCode::Export), 1);
  const auto withSelf = trace([](Program& p) {
    return p.share(0.0, [&](const NbrField<double>& x) { return x.sum() + 1.0; });
  });
  EXPECT_EQ(count(withSelf, impl::OpCode::ShareRead), 1);
  const auto keyed = trace([](Program& p) {
    return p.branch(
        p.sense<bool>("s"),
        [&] {
          return p.share(0.0,
                         [&](const NbrField<double>& x) { return x.excludeSelf().max() + 1.0; });
        },
        [&] { return p.constant(0.0); });
  });
  EXPECT_EQ(count(keyed, impl::OpCode::ShareRead), 1);
}

// The description lists what runs: one node per replayed operation, none for what was dropped.
TEST(TracedProgram, DescriptionListsWhatRuns) {
  const auto hop = trace(
      [](Program& p) {
        (void)(p.sense<double>("unused") * 2.0);
        return lib::hopGradient(p, p.sense<bool>("source"));
      },
      "hop");
  ASSERT_EQ(hop.description.nodes.size(), hop.ops.size());
  for (std::size_t i = 0; i < hop.ops.size(); ++i) {
    EXPECT_NE(hop.description.nodes[i].kind, "mul") << "node " << i;
    EXPECT_NE(hop.description.nodes[i].kind, "share.read") << "node " << i;
  }
  const std::string text = describe(hop);
  EXPECT_EQ(
      text.rfind(
          "hop: " + std::to_string(hop.ops.size()) + " nodes, 1 exports, 0 states, 2 sensors", 0),
      0u)
      << text;
  EXPECT_EQ(text.find("mul"), std::string::npos) << text;
}

TEST(TracedProgram, SensorsAreFoundByName) {
  const auto channel = trace([](Program& p) {
    const auto source = p.sense<bool>("source");
    const auto destination = p.sense<bool>("destination");
    const auto obstacle = p.sense<bool>("obstacle");
    return toDouble(lib::channel(p, source, destination, obstacle, 0.5));
  });
  EXPECT_EQ(channel.sensorIndex("source"), 0);  // in the order the trace reads them
  EXPECT_EQ(channel.sensorIndex("destination"), 1);
  EXPECT_EQ(channel.sensorIndex("obstacle"), 2);
  EXPECT_EQ(channel.sensorIndex("value"), -1);
  EXPECT_EQ(channel.sensors[0].type, SensorType::Bool);
  EXPECT_EQ(sensorTypeOf<int>(), SensorType::Int);
}

}  // namespace
}  // namespace kfield::test
