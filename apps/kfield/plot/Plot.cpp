#include "Plot.hpp"

#include "../Command.hpp"

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

extern char** environ;

namespace kfield::cli {
namespace {

bool isFile(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string fromEnvironment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string plotScript() {
  const std::string given = fromEnvironment("KFIELD_PLOT_SCRIPT");
  if (!given.empty()) return given;
  for (const char* path : {KFIELD_PLOT_SCRIPT_SOURCE, KFIELD_PLOT_SCRIPT_INSTALLED}) {
    if (isFile(path)) return path;
  }
  throw UserError(std::string("cannot find kfield-plot.py (looked in ") +
                  KFIELD_PLOT_SCRIPT_SOURCE + " and " + KFIELD_PLOT_SCRIPT_INSTALLED +
                  "; set KFIELD_PLOT_SCRIPT)");
}

std::string python() {
  const std::string given = fromEnvironment("KFIELD_PYTHON");
  if (!given.empty()) return given;
  return ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

}  // namespace

int plotFile(const std::string& file, const std::string& folder) {
  const std::string script = plotScript(), interpreter = python();
  std::vector<std::string> args{interpreter, script, file, "--out", folder};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout << std::flush;
  pid_t child = 0;
  const int failed =
      ::posix_spawnp(&child, interpreter.c_str(), nullptr, nullptr, argv.data(), environ);
  if (failed != 0)
    throw UserError("cannot run " + interpreter + " for the pictures: " + std::strerror(failed));
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR)
      throw UserError(std::string("waiting for the picture script: ") + std::strerror(errno));
  }
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    // 2: the script named what it cannot draw; anything else is Python missing a module.
    if (code != 0 && code != kExitUsage) {
      throw UserError(
          "the picture script (" + script + ") failed with exit code " + std::to_string(code) +
          ": it needs Python 3 with h5py and matplotlib (Debian: python3-h5py python3-matplotlib)");
    }
    return code;
  }
  throw UserError("the picture script (" + script + ") was stopped by signal " +
                  std::to_string(WTERMSIG(status)));
}

}  // namespace kfield::cli
