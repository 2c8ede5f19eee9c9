// Exact references for the field engine's tests: hop counts by breadth-first search and
// shortest paths by Dijkstra, over kfield's own network (same lengths, same additions).
#ifndef KFIELD_TEST_FIELDREFERENCE_HPP
#define KFIELD_TEST_FIELDREFERENCE_HPP

#include <kfield/net/Network.hpp>

#include <deque>
#include <limits>
#include <queue>
#include <vector>

namespace kfield::test {

// Devices with off[d] != 0 (when given) neither count hops nor pass them on.
inline std::vector<double> bfsHops(const Network& net, const std::vector<std::int64_t>& sources,
                                   const std::vector<char>& off = {}) {
  std::vector<double> hops(net.devices(), std::numeric_limits<double>::infinity());
  auto isOff = [&](std::int64_t d) {
    return !off.empty() && off[static_cast<std::size_t>(d)] != 0;
  };
  std::deque<std::int64_t> queue;
  for (auto s : sources) {
    if (!isOff(s)) hops[s] = 0, queue.push_back(s);
  }
  while (!queue.empty()) {
    const auto i = queue.front();
    queue.pop_front();
    for (auto j : net.neighborsOf(i)) {
      if (!isOff(j) && hops[j] > hops[i] + 1) hops[j] = hops[i] + 1, queue.push_back(j);
    }
  }
  return hops;
}

// Distances as the gradient forms them: a neighbor's distance plus the edge's length.
inline std::vector<double> dijkstra(const Network& net, const std::vector<std::int64_t>& sources) {
  std::vector<double> dist(net.devices(), std::numeric_limits<double>::infinity());
  using Item = std::pair<double, std::int64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  for (auto s : sources) dist[s] = 0, queue.push({0.0, s});
  const auto lengths = net.lengths();
  while (!queue.empty()) {
    const auto [d, i] = queue.top();
    queue.pop();
    if (d > dist[i]) continue;
    for (std::int64_t k = net.offsets()[i]; k < net.offsets()[i + 1]; ++k) {
      const std::int64_t j = net.neighbors()[k];
      const double through = dist[i] + lengths[k];
      if (through < dist[j]) dist[j] = through, queue.push({through, j});
    }
  }
  return dist;
}

}  // namespace kfield::test

#endif
