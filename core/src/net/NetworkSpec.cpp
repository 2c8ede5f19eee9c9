// Networks named by a spec string, as `kfield run --network` takes them.
#include "BuildRows.hpp"

#include <cmath>
#include <sstream>
#include <string>

namespace kfield {

namespace {

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument(what); }

Network fromSpecWords(const std::string& spec);

}  // namespace

Network Network::fromSpec(const std::string& spec) {
  try {
    return fromSpecWords(spec);
  } catch (const std::invalid_argument& e) {
    impl::invalidArgument("kfield::Network::fromSpec",
                          "network '" + spec + "': " + reason(e));
  }
}

namespace {

Network fromSpecWords(const std::string& spec) {
  auto parts = [&] {
    std::vector<std::string> out;
    std::string item;
    std::istringstream in(spec);
    while (std::getline(in, item, ':')) out.push_back(item);
    return out;
  }();
  auto number = [&](const std::string& text, const char* what) {
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (text.empty() || used != text.size()) {
      fail(std::string(what) + " '" + text + "' is not a number");
    }
    return value;
  };
  auto integer = [&](const std::string& text, const char* what) {
    const double value = number(text, what);
    if (value != std::floor(value) || value < 0 || value > 9.0e15) {
      fail(std::string(what) + " '" + text + "' is not a whole number >= 0");
    }
    return static_cast<std::int64_t>(value);
  };
  const std::string usage = " (expected grid:WxH[:4|:8], rgg:N:RADIUS[:SEED][:hilbert], edges:FILE or arcs:FILE)";
  if (parts.empty()) fail("empty" + usage);
  if (parts[0] == "grid" && (parts.size() == 2 || parts.size() == 3)) {
    const auto x = parts[1].find('x');
    if (x == std::string::npos) fail("size must be WxH" + usage);
    const int hood = parts.size() == 3 ? int(integer(parts[2], "neighborhood")) : 4;
    return Network::grid(integer(parts[1].substr(0, x), "width"), integer(parts[1].substr(x + 1), "height"),
                hood);
  }
  if (parts[0] == "rgg" && parts.size() >= 3 && parts.size() <= 5) {
    const bool hilbert = parts.back() == "hilbert";
    if (hilbert) parts.pop_back();
    if (parts.size() == 5 || parts.size() < 3) fail("not understood" + usage);
    const std::uint64_t seed = parts.size() == 4 ? std::uint64_t(integer(parts[3], "seed")) : 1;
    return Network::randomGeometric(integer(parts[1], "device count"), number(parts[2], "radius"), seed,
                                    hilbert ? DeviceOrder::Hilbert : DeviceOrder::Drawn);
  }
  if (parts[0] == "edges" && parts.size() >= 2) {
    return Network::fromEdgeList(spec.substr(6));  // the file name may itself hold ':'
  }
  if (parts[0] == "arcs" && parts.size() >= 2) return Network::fromEdgeList(spec.substr(5), true);
  fail("not understood" + usage);
}

}  // namespace

}  // namespace kfield
