// Outputs never replace anything but a regular file, never an input or another output, and are checked before the
// run computes; an interrupted write leaves nothing behind (issue 15, "Safe writes").
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/cli_run.hpp"

namespace safe_writes_test {

namespace fs = std::filesystem;
using myriad::test::CliRun;
using myriad::test::model_path;
using myriad::test::run_cli;
using myriad::test::run_shell;


const std::string kShortRun = " --t-end 0.05 --dt-out 0.01 --backend cpu --quiet";

TEST(SafeWrites, FifoOutputIsRefusedAndStaysAFifo) {
  const fs::path dir = myriad::test::fresh_directory("fifo");
  const fs::path fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const CliRun r = run_cli("simulate " + model_path("pendulum_002.json") + kShortRun + " --out " + fifo.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--out '" + fifo.string() + "': is a FIFO"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
  fs::remove_all(dir);
}

TEST(SafeWrites, SymlinkOutputIsRefusedUnlessFollowedAndThenOnlyItsTargetIsReplaced) {
  const fs::path dir = myriad::test::fresh_directory("symlink");
  const fs::path target = dir / "target.csv", link = dir / "link.csv";
  std::ofstream(target) << "old contents\n";
  fs::create_symlink(target, link);
  CliRun r = run_cli("simulate " + model_path("pendulum_002.json") + kShortRun + " --out " + link.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("is a symbolic link"), std::string::npos) << r.output;
  EXPECT_EQ(myriad::test::read_text_file(target), "old contents\n");
  r = run_cli("simulate " + model_path("pendulum_002.json") + kShortRun + " --follow-symlinks --out " + link.string());
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(link)));
  EXPECT_EQ(myriad::test::read_text_file(target).rfind("instance,time,", 0), 0u);
  fs::remove_all(dir);
}

TEST(SafeWrites, DirectoryOutputAndMissingDirectoryAreRefusedBeforeComputing) {
  const fs::path dir = myriad::test::fresh_directory("dirout");
  // 10^5 instances would take minutes: the refusal must come first.
  const std::string big = " --instances 100000 --t-end 3 --backend cpu --quiet";
  CliRun r = run_cli("simulate " + model_path("quarter_car.json") + big + " --out " + dir.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("is a directory"), std::string::npos) << r.output;
  r = run_cli("simulate " + model_path("quarter_car.json") + big + " --out " + (dir / "missing/out.csv").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("does not exist"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("steps:"), std::string::npos) << "refused after computing: " << r.output;
  EXPECT_TRUE(fs::is_directory(dir));
  fs::remove_all(dir);
}

TEST(SafeWrites, AnOutputIsNeverAnInputOrAnotherOutput) {
  const fs::path dir = myriad::test::fresh_directory("sameness");
  const fs::path model = dir / "model.json", params = dir / "p.csv";
  fs::copy_file(model_path("pendulum_002.json"), model);
  const std::string original = myriad::test::read_text_file(model);
  std::ofstream(params) << "m\n70\n80\n";
  const std::string run = "simulate " + model.string() + kShortRun;
  CliRun r = run_cli(run + " --out " + model.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("is the model file"), std::string::npos) << r.output;
  r = run_cli(run + " --out " + (dir / "." / "model.json").string());  // the same file by another spelling
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(myriad::test::read_text_file(model), original);
  r = run_cli(run + " --params " + params.string() + " --kpis " + params.string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--kpis"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the parameter file"), std::string::npos) << r.output;
  r = run_cli(run + " --out " + (dir / "a.csv").string() + " --stats-json " + (dir / "a.csv").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("is the same file as --out"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "a.csv"));
  fs::remove_all(dir);
}

// The defect itself: as root, `--out /dev/null` renamed a regular file over the device node. Run in a
// private mount namespace with its own /dev (a tmpfs holding a fresh null device), so that a regression destroys
// only that copy; where namespaces are not available, a FIFO stands in (FifoOutputIsRefusedAndStaysAFifo).
TEST(SafeWrites, DevNullStaysACharacterDevice) {
  const std::string inside = "mount -t tmpfs tmpfs /dev && mknod -m 666 /dev/null c 1 3 && " +
                             std::string(MYRIAD_CLI) + " simulate " + model_path("pendulum_002.json") + kShortRun +
                             " --out /dev/null; echo \"exit=$?\"; test -c /dev/null && echo still-a-character-device";
  const CliRun r = run_shell("unshare --mount sh -c '" + inside + "'");
  if (r.output.find("exit=") == std::string::npos)
    GTEST_SKIP() << "no private mount namespace here (" << r.output << "); the FIFO and symlink tests stand in";
  EXPECT_NE(r.output.find("exit=2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--out '/dev/null': is a character device"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("still-a-character-device"), std::string::npos) << r.output;
}

}  // namespace safe_writes_test
