#include "kfield/diff/Transpose.hpp"

#include "kfield/impl/Errors.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace kfield::diff {

namespace {

constexpr const char* kWho = "kfield::diff::transpose";
const std::string kAdjoint = "adjoint:";

std::string nodeName(const graph::Node& node, std::size_t i) {
  return "node " + std::to_string(i) + " '" + node.kind + "'" +
         (node.path.empty() ? "" : " at path '" + node.path + "'");
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

std::vector<Snapshot> snapshots(const std::vector<NodeVjp>& vjps) {
  std::vector<Snapshot> out;
  std::set<std::pair<gidx, std::string>> seen;
  for (std::size_t i = 0; i < vjps.size(); ++i) {
    for (const std::string& plane : vjps[i].reads) {
      for (std::size_t j = i; j < vjps.size(); ++j) {
        if (!contains(vjps[j].writes, plane)) continue;
        if (seen.insert({gidx(j), plane}).second) out.push_back({plane, gidx(j)});
        break;
      }
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Snapshot& a, const Snapshot& b) { return a.node < b.node; });
  return out;
}

ReversePlan transpose(const graph::Description& forward, const std::vector<NodeVjp>& vjps,
                      const std::vector<std::string>& seeded) {
  const auto& nodes = forward.nodes;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    for (const auto* planes : {&nodes[i].reads, &nodes[i].writes}) {
      for (const std::string& p : *planes) {
        if (p.compare(0, kAdjoint.size(), kAdjoint) == 0) {
          kfield::impl::invalidArgument(
              kWho, nodeName(nodes[i], i) + " handles adjoint plane '" + p +
                        "': the graph is already a reverse (second order is not supported)");
        }
      }
    }
    if (nodes[i].opaque) {
      kfield::impl::invalidArgument(
          kWho, nodeName(nodes[i], i) + " is opaque: it has no vector-Jacobian product");
    }
  }
  if (vjps.size() != nodes.size()) {
    const std::size_t i = std::min(vjps.size(), nodes.size());
    kfield::impl::invalidArgument(
        kWho, (i < nodes.size() ? nodeName(nodes[i], i) + " has no vjp entry"
                                : "vjp entry " + std::to_string(i) + " has no node") +
                  " (" + std::to_string(vjps.size()) + " entries for " +
                  std::to_string(nodes.size()) + " nodes)");
  }

  ReversePlan plan;
  plan.snapshots = snapshots(vjps);
  std::map<std::pair<gidx, std::string>, gidx> snapshotOf;
  for (std::size_t k = 0; k < plan.snapshots.size(); ++k) {
    snapshotOf[{plan.snapshots[k].node, plan.snapshots[k].plane}] = gidx(k);
  }
  const std::set<std::string> seeds(seeded.begin(), seeded.end());
  std::set<std::string> written;                     // planes a later node writes (seen so far)
  std::map<std::string, std::vector<gidx>> pending;  // adjoint contributions per plane

  auto addNode = [&](graph::Node node, gidx fwd) {
    plan.reversed.nodes.push_back(std::move(node));
    plan.forward.push_back(fwd);
    plan.seedOf.emplace_back();
    plan.readOf.emplace_back();
    return gidx(plan.reversed.nodes.size() - 1);
  };
  auto adjointKey = [](const std::string& plane, gidx source) {
    std::string key = kAdjoint + plane + "@";
    key += source == kSeed ? std::string("seed") : std::to_string(source);
    return key;
  };
  // The adjoint of the current version of plane: zero, one source, or a join of them.
  auto collect = [&](const std::string& plane, bool seed, const std::string& path) -> gidx {
    std::vector<gidx> sources;
    if (seed) sources.push_back(kSeed);
    auto found = pending.find(plane);
    if (found != pending.end()) {
      sources.insert(sources.end(), found->second.begin(), found->second.end());
      pending.erase(found);
    }
    if (sources.empty()) return kZero;
    if (sources.size() == 1) return sources[0];
    graph::Node join{"sum", path, {}, {}, false};
    for (gidx s : sources) join.reads.push_back(adjointKey(plane, s));
    const gidx target = addNode(join, -1);
    plan.reversed.nodes[target].writes.push_back(adjointKey(plane, target));
    plan.joins.push_back({target, plane, sources});
    return target;
  };

  for (std::size_t i = nodes.size(); i-- > 0;) {
    const NodeVjp& v = vjps[i];
    std::vector<gidx> seedOf;
    for (const std::string& plane : v.writes) {
      const bool seed = seeds.count(plane) > 0 && written.count(plane) == 0;  // the last writer
      seedOf.push_back(collect(plane, seed, nodes[i].path));
      written.insert(plane);
    }
    const bool fold = nodes[i].kind.compare(0, 5, "fold.") == 0;
    graph::Node step{fold ? "broadcast" : "vjp", nodes[i].path, {}, {}, false};
    for (std::size_t w = 0; w < v.writes.size(); ++w) {
      if (seedOf[w] != kZero) step.reads.push_back(adjointKey(v.writes[w], seedOf[w]));
    }
    std::vector<gidx> readOf;
    for (const std::string& plane : v.reads) {
      step.reads.push_back(plane);
      gidx snap = kLive;
      for (std::size_t j = i; j < nodes.size(); ++j) {
        if (!contains(vjps[j].writes, plane)) continue;
        snap = snapshotOf.at({gidx(j), plane});
        break;
      }
      readOf.push_back(snap);
    }
    const gidx r = addNode(step, gidx(i));
    plan.seedOf[r] = seedOf;
    plan.readOf[r] = readOf;
    std::set<std::string> once;  // a node reading a plane twice contributes once
    for (const std::string& plane : v.reads) {
      if (!once.insert(plane).second) continue;
      plan.reversed.nodes[r].writes.push_back(adjointKey(plane, r));
      pending[plane].push_back(r);
    }
  }
  // Graph inputs: read before anything writes them, in first-use order.
  std::set<std::string> seen, writtenSoFar;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    for (const std::string& plane : vjps[i].reads) {
      if (writtenSoFar.count(plane) || !seen.insert(plane).second) continue;
      plan.gradients.push_back({plane, collect(plane, false, "")});
    }
    for (const std::string& plane : vjps[i].writes) writtenSoFar.insert(plane);
  }
  return plan;
}

}  // namespace kfield::diff
