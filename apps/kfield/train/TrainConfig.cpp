#include "TrainConfig.hpp"

#include "../Command.hpp"

#include <nlohmann/json.hpp>

#include <sys/stat.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <sstream>

namespace kfield::cli {
namespace {

constexpr std::int64_t kMaxFileBytes = 1 << 20;  // a config is a few hundred bytes

// One section's keys: each reads its value from JSON into the config, or says why it cannot.
class Reader {
 public:
  Reader(std::string where, TrainConfig& c) : where_(std::move(where)), c_(c) {}

  [[noreturn]] void fail(const std::string& key, const std::string& why) const {
    throw UserError("config " + where_ + ": '" + key + "' " + why);
  }

  std::int64_t whole(const std::string& key, const nlohmann::json& v, std::int64_t low,
                     std::int64_t high) const {
    if (!v.is_number_integer()) fail(key, "must be a whole number, got " + v.dump());
    const bool negative =
        v.is_number_integer() && !v.is_number_unsigned() && v.get<std::int64_t>() < 0;
    const std::int64_t x =
        negative
            ? v.get<std::int64_t>()
            : static_cast<std::int64_t>(std::min<std::uint64_t>(
                  v.get<std::uint64_t>(), std::uint64_t(std::numeric_limits<std::int64_t>::max())));
    if (x < low || x > high) {
      fail(key, "must be in [" + std::to_string(low) + ", " + std::to_string(high) + "], got " +
                    v.dump());
    }
    return x;
  }
  std::uint64_t seed(const std::string& key, const nlohmann::json& v) const {
    if (!v.is_number_unsigned()) fail(key, "must be a whole number >= 0, got " + v.dump());
    return v.get<std::uint64_t>();
  }
  double number(const std::string& key, const nlohmann::json& v, double low, double high,
                bool openLow) const {
    if (!v.is_number()) fail(key, "must be a number, got " + v.dump());
    const double x = v.get<double>();
    if (!std::isfinite(x) || (openLow ? x <= low : x < low) || x > high) {
      std::ostringstream range;
      range << (openLow ? "(" : "[") << low << ", " << high << "]";
      fail(key, "must be in " + range.str() + ", got " + v.dump());
    }
    return x;
  }

  // Every key of `section` must be one of `keys`; each is read in turn.
  void section(
      const std::string& name, const nlohmann::json& j,
      const std::map<std::string, std::function<void(const std::string&, const nlohmann::json&)>>&
          keys) const {
    if (!j.is_object()) fail(name, "must be an object, got " + j.dump());
    for (const auto& [key, value] : j.items()) {
      const std::string path = name.empty() ? key : name + "." + key;
      const auto it = keys.find(key);
      if (it == keys.end()) {
        std::string known;
        for (const auto& k : keys) known += (known.empty() ? "" : ", ") + k.first;
        fail(path, (name.empty() ? std::string("is not a section of a train config")
                                 : "is not a key of '" + name + "'") +
                       " (it has: " + known + ")");
      }
      it->second(path, value);
    }
  }

  void read(const nlohmann::json& j) {
    if (!j.is_object()) throw UserError("config " + where_ + ": not a JSON object");
    using Key = std::function<void(const std::string&, const nlohmann::json&)>;
    const std::map<std::string, Key> top{
        {"program",
         [&](const std::string& k, const nlohmann::json& v) {
           section(k, v,
                   {{"hidden",
                     [&](const std::string& key, const nlohmann::json& h) {
                       if (!h.is_array() || h.empty() || h.size() > 4)
                         fail(key, "must be a list of 1 to 4 layer widths, got " + h.dump());
                       c_.hidden.clear();
                       for (std::size_t l = 0; l < h.size(); ++l) {
                         c_.hidden.push_back(
                             int(whole(key + "[" + std::to_string(l) + "]", h[l], 1, 64)));
                       }
                     }},
                    {"seed", [&](const std::string& key, const nlohmann::json& s) {
                       c_.initSeed = seed(key, s);
                     }}});
         }},
        {"scenarios",
         [&](const std::string& k, const nlohmann::json& v) {
           section(
               k, v,
               {{"graphs", [&](const std::string& key,
                               const nlohmann::json& x) { c_.graphs = whole(key, x, 1, 1 << 20); }},
                {"devices",
                 [&](const std::string& key, const nlohmann::json& x) {
                   c_.devices = whole(key, x, 2, 1 << 26);
                 }},
                {"radius",
                 [&](const std::string& key, const nlohmann::json& x) {
                   c_.radius = number(key, x, 0.0, 64.0, true);
                 }},
                {"samples",
                 [&](const std::string& key, const nlohmann::json& x) {
                   c_.samples = whole(key, x, 1, 1 << 20);
                 }},
                {"sources",
                 [&](const std::string& key, const nlohmann::json& x) {
                   c_.sources = whole(key, x, 1, 1 << 20);
                 }},
                {"extra_rounds",
                 [&](const std::string& key, const nlohmann::json& x) {
                   c_.extraRounds = whole(key, x, 0, 1 << 20);
                 }},
                {"obstacles",
                 [&](const std::string& key, const nlohmann::json& x) {
                   c_.obstacles = whole(key, x, 0, 1 << 10);
                 }},
                {"seed", [&](const std::string& key, const nlohmann::json& x) {
                   c_.seed = seed(key, x);
                 }}});
         }},
        {"training",
         [&](const std::string& k, const nlohmann::json& v) {
           section(
               k, v,
               {{"steps", [&](const std::string& key,
                              const nlohmann::json& x) { c_.steps = whole(key, x, 1, 1LL << 40); }},
                {"rate",
                 [&](const std::string& key, const nlohmann::json& x) {
                   c_.rate = number(key, x, 0.0, 1e6, true);
                 }},
                {"beta1",
                 [&](const std::string& key, const nlohmann::json& x) {
                   c_.beta1 = number(key, x, 0.0, 1.0, false);
                 }},
                {"beta2",
                 [&](const std::string& key, const nlohmann::json& x) {
                   c_.beta2 = number(key, x, 0.0, 1.0, false);
                 }},
                {"epsilon",
                 [&](const std::string& key, const nlohmann::json& x) {
                   c_.epsilon = number(key, x, 0.0, 1.0, true);
                 }},
                {"checkpoint_every",
                 [&](const std::string& key, const nlohmann::json& x) {
                   c_.checkpointEvery = whole(key, x, 1, 1LL << 40);
                 }},
                {"owners", [&](const std::string& key, const nlohmann::json& x) {
                   c_.owners = whole(key, x, 2, 1 << 20);
                 }}});
         }},
        {"evaluation",
         [&](const std::string& k, const nlohmann::json& v) {
           section(k, v,
                   {{"held_out",
                     [&](const std::string& key, const nlohmann::json& x) {
                       c_.heldOut = whole(key, x, 0, 1 << 10);
                     }},
                    {"scale", [&](const std::string& key, const nlohmann::json& x) {
                       c_.scale = whole(key, x, 1, 1 << 20);
                     }}});
         }},
        {"out",
         [&](const std::string& k, const nlohmann::json& v) {
           if (!v.is_string() || v.get<std::string>().empty())
             fail(k, "must be a file name, got " + v.dump());
           c_.out = v.get<std::string>();
         }},
    };
    section("", j, top);
    if (c_.beta1 >= 1.0 || c_.beta2 >= 1.0)
      fail("training.beta1", "and 'training.beta2' must be below 1");
    if (c_.owners > c_.samples) {
      fail("training.owners", "is " + std::to_string(c_.owners) + ", more than the " +
                                  std::to_string(c_.samples) +
                                  " scenarios (scenarios.samples) it splits");
    }
  }

 private:
  std::string where_;
  TrainConfig& c_;
};

}  // namespace

std::string TrainConfig::json() const {
  nlohmann::ordered_json j;
  j["program"] = {{"hidden", hidden}, {"seed", initSeed}};
  j["scenarios"] = {{"graphs", graphs},       {"devices", devices}, {"radius", radius},
                    {"samples", samples},     {"sources", sources}, {"extra_rounds", extraRounds},
                    {"obstacles", obstacles}, {"seed", seed}};
  j["training"] = {{"steps", steps},  {"rate", rate},       {"beta1", beta1},
                   {"beta2", beta2},  {"epsilon", epsilon}, {"checkpoint_every", checkpointEvery},
                   {"owners", owners}};
  j["evaluation"] = {{"held_out", heldOut}, {"scale", scale}};
  j["out"] = out;
  return j.dump(2);
}

TrainConfig parseTrainConfig(const std::string& text, const std::string& where) {
  nlohmann::json j;
  try {
    constexpr int kMaxDepth = 8;  // a config is three levels deep
    j = nlohmann::json::parse(text, [&](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
      if (depth > kMaxDepth)
        throw UserError("config " + where + ": nested deeper than " + std::to_string(kMaxDepth) +
                        " levels");
      return true;
    });
  } catch (const nlohmann::json::parse_error& e) {
    throw UserError("config " + where + ": not JSON (" + e.what() + ")");
  }
  TrainConfig c;
  Reader(where, c).read(j);
  return c;
}

TrainConfig readTrainConfig(const std::string& path) {
  if (path.empty()) return {};
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw UserError("config '" + path + "': cannot open it (no such file)");
  if (!S_ISREG(st.st_mode)) throw UserError("config '" + path + "': not a regular file");
  if (st.st_size > kMaxFileBytes) {
    throw UserError("config '" + path + "': " + std::to_string(st.st_size) +
                    " bytes, more than a config's " + std::to_string(kMaxFileBytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError("config '" + path + "': cannot open it");
  std::ostringstream text;
  text << in.rdbuf();
  return parseTrainConfig(text.str(), "'" + path + "'");
}

}  // namespace kfield::cli
