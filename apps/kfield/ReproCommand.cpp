// kfield repro: one job (a `run` or `grad` command line) under every placement this build and
// machine offer (each execution space, OpenMP at 1..T threads, sample chunkings), each in a
// process of its own; a table of configuration, wall time and the digest of the result's
// bits. Exit 0 only when every configuration gives the same bits; else the first that differs
// and its first differing element.
#include "Command.hpp"
#include "Context.hpp"
#include "Digest.hpp"
#include "Space.hpp"

#include <kfield/rt/Topology.hpp>

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

extern char** environ;

namespace kfield::cli {
namespace {

struct ReproOptions {
  std::vector<std::string> job;  // the command line after --
  std::string jobFile;
  int maxThreads = 0;  // 0: the machine's processing units
  std::string json;
  std::string flip;  // CONFIGURATION:ROW:COLUMN, tests only
};

struct Configuration {
  std::string space;
  int threads = 0;         // 0: not an OpenMP space (the option is not passed)
  std::int64_t chunk = 0;  // 0: the job's samples in one
  double seconds = 0;
  ResultBits bits;
  std::string label() const {
    std::string text = space;
    if (threads > 0)
      text += ", " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
    if (chunk > 0) text += ", chunk " + std::to_string(chunk);
    return text;
  }
};

// A job file: {"args": ["run", "hop-gradient", ...]}, or {"command": "run", "program": ...,
// "options": {"network": "grid:100x100", "samples": 4, "print": true}}.
std::vector<std::string> jobFromFile(const std::string& path) {
  auto bad = [&](const std::string& why) { return UserError("job file '" + path + "': " + why); };
  std::ifstream in(path);
  if (!in) throw bad("cannot open it");
  nlohmann::json j;
  try {
    // A job is a few levels deep; a deeper value is refused while it is read (printing or
    // freeing one nested thousands deep would recurse as deep).
    constexpr int kMaxDepth = 16;
    j = nlohmann::json::parse(in, [&](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
      if (depth > kMaxDepth)
        throw bad("nested deeper than " + std::to_string(kMaxDepth) + " levels: not a job");
      return true;
    });
  } catch (const nlohmann::json::parse_error& e) {
    throw bad(std::string("not JSON (") + e.what() + ")");
  }
  if (!j.is_object()) throw bad("not a JSON object");
  std::vector<std::string> args;
  if (j.contains("args")) {
    if (!j["args"].is_array()) throw bad("'args' must be a list of strings");
    for (const auto& a : j["args"]) {
      if (!a.is_string()) throw bad("'args' must be a list of strings, it holds " + a.dump());
      args.push_back(a.get<std::string>());
    }
    return args;
  }
  if (!j.contains("command") || !j["command"].is_string()) {
    throw bad("it needs \"args\" (a command line) or \"command\" (\"run\" or \"grad\")");
  }
  args.push_back(j["command"].get<std::string>());
  if (!j.contains("program") || !j["program"].is_string())
    throw bad("\"program\" must be a string");
  args.push_back(j["program"].get<std::string>());
  if (j.contains("options")) {
    if (!j["options"].is_object()) throw bad("\"options\" must be an object");
    for (const auto& [name, value] : j["options"].items()) {
      if (value.is_boolean()) {
        if (value.get<bool>()) args.push_back("--" + name);
      } else if (value.is_string()) {
        args.insert(args.end(), {"--" + name, value.get<std::string>()});
      } else if (value.is_number_integer()) {
        args.insert(args.end(), {"--" + name, std::to_string(value.get<std::int64_t>())});
      } else if (value.is_number()) {
        args.insert(args.end(), {"--" + name, value.dump()});
      } else {
        throw bad("option '" + name + "' must be a string, a number or true/false, got " +
                  value.dump());
      }
    }
  }
  for (const auto& item : j.items()) {
    if (item.key() != "command" && item.key() != "program" && item.key() != "options") {
      throw bad("unknown key '" + item.key() + "' (keys: args, or command, program, options)");
    }
  }
  return args;
}

// The job's --samples, refusing what repro sets itself.
std::int64_t checkJob(const std::vector<std::string>& job) {
  if (job.empty())
    throw UserError("repro needs a job: kfield repro -- run PROGRAM ... (or --job FILE)");
  if (job[0] != "run" && job[0] != "grad") {
    throw UserError("repro runs 'run' and 'grad' jobs, not '" + job[0] + "'");
  }
  std::int64_t samples = 1;
  for (std::size_t i = 1; i < job.size(); ++i) {
    const std::string& a = job[i];
    for (const char* own :
         {"--space", "--threads", "--chunk", "--bits", "--flip-bit", "--out", "--resume"}) {
      if (a == own || a.rfind(std::string(own) + "=", 0) == 0) {
        throw UserError("the job sets " + std::string(own) +
                        (std::string(own) == "--out" || std::string(own) == "--resume"
                             ? ", which repro's configurations cannot share"
                             : ", which repro sets for each configuration"));
      }
    }
    const bool attached = a.rfind("--samples=", 0) == 0;
    if ((a == "--samples" && i + 1 < job.size()) || attached) {
      const std::string value = attached ? a.substr(10) : job[i + 1];
      std::size_t used = 0;
      try {
        samples = std::stoll(value, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != value.size()) {
        throw UserError("the job's --samples '" + value + "' is not a number");
      }
    }
  }
  if (samples < 1)
    throw UserError("the job's --samples must be >= 1, got " + std::to_string(samples));
  return samples;
}

std::vector<Configuration> placements(int maxThreads, std::int64_t samples) {
  std::vector<std::int64_t> chunks{0};
  if (samples > 1) {
    for (std::int64_t c : {std::int64_t(1), (samples + 1) / 2}) {
      if (c < samples && std::find(chunks.begin(), chunks.end(), c) == chunks.end())
        chunks.push_back(c);
    }
  }
  std::vector<Configuration> all;
  for (const std::string& space : spaceNames()) {
    const int threads = space == "openmp" ? maxThreads : 0;
    for (int t = threads > 0 ? 1 : 0; t <= threads; ++t) {
      for (std::int64_t c : chunks) {
        Configuration conf;
        conf.space = space;
        conf.threads = t;
        conf.chunk = c;
        all.push_back(conf);
      }
    }
  }
  return all;
}

// A folder under $TMPDIR (or /tmp) for the configurations' bits and logs, removed with it.
struct TempFolder {
  std::string path;
  TempFolder() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/kfield-repro-XXXXXX";
    if (!mkdtemp(pattern.data())) throw UserError("cannot make a temporary folder like " + pattern);
    path = pattern;
  }
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
};

// Runs argv with stdout and stderr to `log`; its exit status.
int spawn(const std::vector<std::string>& argv, const std::string& log) {
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&files, 1, 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int failed = posix_spawn(&pid, argv[0].c_str(), &files, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  if (failed != 0) throw std::runtime_error("cannot start " + argv[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("lost track of " + argv[0]);
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string hexWord(std::uint64_t w) {
  std::ostringstream s;
  s << "0x" << std::hex << std::setw(16) << std::setfill('0') << w;
  return s.str();
}

// "" when b's bits are a's; else where they first differ.
std::string firstDifference(const ResultBits& a, const ResultBits& b) {
  if (a.rows != b.rows || a.columns != b.columns) {
    return "its result is " + std::to_string(b.rows) + " x " + std::to_string(b.columns) +
           ", not " + std::to_string(a.rows) + " x " + std::to_string(a.columns);
  }
  for (std::size_t i = 0; i < a.words.size(); ++i) {
    if (a.words[i] != b.words[i]) {
      const auto row = static_cast<std::int64_t>(i) / a.columns,
                 column = static_cast<std::int64_t>(i) % a.columns;
      return "at " + a.rowName + " " + std::to_string(row) + ", " + a.columnName + " " +
             std::to_string(column) + ": " + hexWord(b.words[i]) + " where it has " +
             hexWord(a.words[i]);
    }
  }
  return "";
}

int runRepro(const ReproOptions& o) {
  if (!o.jobFile.empty() && !o.job.empty()) {
    throw UserError("give the job once: --job FILE or a command line after --, not both");
  }
  const std::vector<std::string> job = o.jobFile.empty() ? o.job : jobFromFile(o.jobFile);
  const std::int64_t samples = checkJob(job);
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    const char* size = std::getenv(var);
    if (size && std::atoi(size) > 1) {
      throw UserError(
          "repro runs each configuration as a process of its own; start it once, "
          "not under mpirun (its run and grad jobs are single-process)");
    }
  }
  const int pus = readTopology().pus;
  if (o.maxThreads < 0 || (pus > 0 && o.maxThreads > pus)) {
    throw UserError("--max-threads must be 1 to this machine's " + std::to_string(pus) +
                    " processing units, got " + std::to_string(o.maxThreads));
  }
  std::vector<Configuration> all =
      placements(o.maxThreads > 0 ? o.maxThreads : std::max(pus, 1), samples);
  std::size_t flipAt = 0;
  std::string flipElement;
  if (!o.flip.empty()) {
    const auto colon = o.flip.find(':');
    try {
      flipAt = std::stoul(o.flip.substr(0, colon));
    } catch (const std::exception&) {
      flipAt = 0;
    }
    if (colon == std::string::npos || flipAt < 1 || flipAt > all.size()) {
      throw UserError("--flip '" + o.flip +
                      "' is not CONFIGURATION:ROW:COLUMN with a configuration 1 to " +
                      std::to_string(all.size()));
    }
    flipElement = o.flip.substr(colon + 1);
  }

  const TempFolder folder;
  const char* dir = folder.path.c_str();
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  std::string jobText;
  for (const std::string& a : job) jobText += (jobText.empty() ? "" : " ") + a;
  const nlohmann::ordered_json context = contextJson();
  const std::string contract = context["numerical_contract"].get<std::string>();
  std::string backends;
  for (const auto& b : context["kokkos"]["backends"])
    backends += (backends.empty() ? "" : ", ") + b.get<std::string>();
  std::cout << "kfield repro: " << jobText << "\n"
            << "context: kfield " << context["kfield"]["version"].get<std::string>()
            << " (revision " << context["kfield"]["revision"].get<std::string>() << "), "
            << context["kfield"]["build_type"].get<std::string>() << ", "
            << context["kfield"]["compiler"].get<std::string>() << " \""
            << context["kfield"]["cxx_flags"].get<std::string>() << "\", Kokkos "
            << context["kokkos"]["version"].get<std::string>() << " (" << backends << "), "
            << context["topology"]["pus"].get<int>() << " PUs, binding "
            << context["topology"]["binding"].get<std::string>() << ", contract "
            << contract.substr(0, contract.find(';')) << "\n"
            << std::setw(3) << "#"
            << "  " << std::left << std::setw(34) << "configuration" << std::right << std::setw(10)
            << "seconds"
            << "  sha256\n";
  int status = 0;
  for (std::size_t i = 0; i < all.size() && status == 0; ++i) {
    Configuration& c = all[i];
    const std::string stem = std::string(dir) + "/" + std::to_string(i + 1);
    std::vector<std::string> argv{self};
    if (c.threads > 0) argv.insert(argv.end(), {"--threads", std::to_string(c.threads)});
    argv.insert(argv.end(), job.begin(), job.end());
    argv.insert(argv.end(), {"--space", c.space, "--bits", stem + ".bits"});
    if (c.chunk > 0) argv.insert(argv.end(), {"--chunk", std::to_string(c.chunk)});
    if (flipAt == i + 1) argv.insert(argv.end(), {"--flip-bit", flipElement});
    const auto start = std::chrono::steady_clock::now();
    const int exit = spawn(argv, stem + ".log");
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (exit != 0) {
      std::ifstream log(stem + ".log");
      std::cerr << log.rdbuf();
      std::cerr << "kfield: repro: configuration " << i + 1 << " (" << c.label()
                << ") failed with exit code " << exit << "\n";
      status = exit == kExitUsage ? kExitUsage : kExitInternal;
      break;
    }
    c.bits = ResultBits::load(stem + ".bits");
    std::cout << std::setw(3) << i + 1 << "  " << std::left << std::setw(34) << c.label()
              << std::right << std::setw(10) << std::fixed << std::setprecision(3) << c.seconds
              << "  " << c.bits.digest() << "\n";
  }
  if (status != 0) return status;

  nlohmann::ordered_json mismatch;
  for (std::size_t i = 1; i < all.size() && mismatch.is_null(); ++i) {
    const std::string where = firstDifference(all[0].bits, all[i].bits);
    if (where.empty()) continue;
    mismatch = {{"configuration", i + 1}, {"reference", 1}, {"where", where}};
    std::cout << "DIFFERENT BITS: configuration " << i + 1 << " (" << all[i].label()
              << ") differs from configuration 1 (" << all[0].label() << ") " << where << "\n";
  }
  if (mismatch.is_null()) {
    std::cout << "all " << all.size() << " configurations give the same bits: sha256 "
              << all[0].bits.digest() << "\n";
  }
  if (!o.json.empty()) {
    nlohmann::ordered_json j;
    j["job"] = job;
    j["context"] = context;
    j["configurations"] = nlohmann::ordered_json::array();
    for (const Configuration& c : all) {
      j["configurations"].push_back({{"space", c.space},
                                     {"threads", c.threads},
                                     {"chunk", c.chunk},
                                     {"seconds", c.seconds},
                                     {"sha256", c.bits.digest()}});
    }
    j["same_bits"] = mismatch.is_null();
    if (!mismatch.is_null()) j["mismatch"] = mismatch;
    std::ofstream out(o.json);
    out << j.dump(2) << "\n";
    if (!out) throw UserError("cannot write '" + o.json + "'");
  }
  return mismatch.is_null() ? 0 : kExitInternal;
}

}  // namespace

Command addReproCommand(CLI::App& app) {
  auto o = std::make_shared<ReproOptions>();
  CLI::App* repro = app.add_subcommand(
      "repro",
      "Run a job under every placement (execution spaces, OpenMP threads 1..T, sample\n"
      "chunkings), each in its own process, and compare the bits of the results.\n"
      "Example: kfield repro -- run hop-gradient --network grid:300x300 --samples 4");
  repro->add_option("job", o->job, "The job: a run or grad command line, after --");
  repro->add_option(
      "--job", o->jobFile,
      "A JSON job file: {\"args\": [...]} or {\"command\", \"program\", \"options\"}");
  repro->add_option("--max-threads", o->maxThreads,
                    "OpenMP runs at 1..T threads (default: the machine's processing units)");
  repro->add_option("--json", o->json, "Write the table and the full context to this file");
  repro->add_option("--flip", o->flip)->group("");  // tests only: CONFIGURATION:ROW:COLUMN
  repro->prefix_command(false);
  return {repro, [o] { return runRepro(*o); }};
}

}  // namespace kfield::cli
