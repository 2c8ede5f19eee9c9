// io::PartialFile: one writer at a time, claimed before a byte changes; targets that are not
// regular files refused; a writer killed at any moment leaves every committed version whole.
#include "support/ErrorOf.hpp"
#include "support/TempFolder.hpp"

#include <kfield/io/FileError.hpp>
#include <kfield/io/PartialFile.hpp>

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace kfield::test {
namespace {

std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

void save(const std::string& path, const std::string& text, int keep = 1) {
  io::PartialFile out(path);
  out.write(text.data(), text.size());
  out.commit(keep);
}

TEST(PartialFile, CommitReplacesTheFileWholeAndKeepsVersions) {
  TempFolder dir;
  const std::string path = dir / "f";
  for (const char* text : {"one", "two", "three", "four"}) save(path, text, 3);
  EXPECT_EQ(contents(path), "four");
  EXPECT_EQ(contents(path + ".1"), "three");
  EXPECT_EQ(contents(path + ".2"), "two");
  EXPECT_FALSE(exists(path + ".3"));
  EXPECT_FALSE(exists(path + ".partial"));
  EXPECT_FALSE(exists(path + ".1.partial"));
  {
    io::PartialFile dropped(path);  // not committed: the partial file goes, PATH stays
    dropped.write("x", 1);
  }
  EXPECT_FALSE(exists(path + ".partial"));
  EXPECT_EQ(contents(path), "four");
}

// A second writer, in another process, is refused while the first holds the partial file, and
// nothing of the first's is touched; once the first is killed, the next writer goes ahead.
TEST(PartialFile, ASecondWriterIsRefusedAndDamagesNothing) {
  TempFolder dir;
  const std::string path = dir / "f";
  save(path, "committed");
  io::PartialFile first(path);
  first.write("first's", 7);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const std::string why = errorOf([&] { io::PartialFile second(path); });
    _exit(why.find("another process is writing " + path) != std::string::npos ? 0 : 1);
  }
  int status = 0;
  waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the second writer was not refused";
  EXPECT_EQ(contents(path + ".partial"), "first's");
  first.commit();
  EXPECT_EQ(contents(path), "first's");

  // A writer killed while it holds the partial file: the lock goes with it.
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t killed = fork();
  ASSERT_GE(killed, 0);
  if (killed == 0) {
    io::PartialFile held(path);
    held.write("half", 4);
    (void)!::write(ready[1], "x", 1);
    pause();
    _exit(0);
  }
  char byte = 0;
  ASSERT_EQ(::read(ready[0], &byte, 1), 1);
  kill(killed, SIGKILL);
  waitpid(killed, &status, 0);
  EXPECT_EQ(contents(path), "first's");
  save(path, "after");
  EXPECT_EQ(contents(path), "after");
  ::close(ready[0]), ::close(ready[1]);
}

TEST(PartialFile, RefusesTargetsThatAreNotRegularFiles) {
  TempFolder dir;
  EXPECT_NE(errorOf([] {
              io::PartialFile out("/dev/null");
            }).find("/dev/null: exists and is a device, not a regular file"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { io::PartialFile out(dir.path()); }).find("exists and is a folder"),
            std::string::npos);
  const std::string fifo = dir / "fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(errorOf([&] { io::PartialFile out(fifo); }).find("exists and is a FIFO"),
            std::string::npos);
  const std::string blocked = dir / "blocked";
  ASSERT_EQ(mkfifo((blocked + ".partial").c_str(), 0600), 0);  // never opened, so never waited on
  EXPECT_NE(
      errorOf([&] { io::PartialFile out(blocked); }).find("blocked.partial: exists and is a FIFO"),
      std::string::npos);
  EXPECT_NE(errorOf([&] {
              io::requireWritableFile(dir / "no/such/f");
            }).find("its folder " + dir.path() + "/no/such does not exist"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { io::requireWritableFolder(dir / "nothing"); }).find("no such folder"),
            std::string::npos);
  EXPECT_EQ(errorOf([&] { io::requireWritableFolder(dir.path()); }), "no error");
}

}  // namespace
}  // namespace kfield::test
