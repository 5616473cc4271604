// The GUI's command line (ui/src/command_line.cpp) checks the options it shares with
// rdmascope-cli by the same rules: `--port` is an integer from 1 to 65535 in both, with the same
// message, and a bad number exits with status 2.
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_runner.h"

namespace rdmascope::cli::test {
namespace {

#ifdef RDMASCOPE_GUI
// Runs the GUI offscreen; `err` keeps its own lines only (Qt's platform plugin notes its own).
RunResult runGui(std::vector<std::string> args) {
  args.insert(args.begin(), {"QT_QPA_PLATFORM=offscreen", RDMASCOPE_GUI});
  RunResult r = runProgram("env", args);
  std::string own;
  for (const auto& line : lines(r.err))
    if (line.rfind("rdmascope: ", 0) == 0) own += line + '\n';
  r.err = own;
  return r;
}
#endif

TEST(GuiCommandLine, WithoutADisplayHelpPrintsAndAWindowIsOneLine) {
#ifndef RDMASCOPE_GUI
  GTEST_SKIP() << "the GUI is not part of this build";
#else
  if (!std::filesystem::exists(RDMASCOPE_GUI)) GTEST_SKIP() << "the GUI is not built";
  const std::vector<std::string> noDisplay = {
      "-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", "-u", "QT_QPA_PLATFORM", RDMASCOPE_GUI};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = noDisplay;
    args.insert(args.end(), extra.begin(), extra.end());
    return runProgram("env", args);
  };
  const auto help = with({"--help"});
  EXPECT_EQ(help.exitCode, 0) << help.err;
  EXPECT_NE(help.out.find("--scenario <name>"), std::string::npos) << help.out;
  const auto version = with({"--version"});
  EXPECT_EQ(version.exitCode, 0) << version.err;
  EXPECT_EQ(version.out.rfind("rdmascope ", 0), 0u) << version.out;
  const auto window = with({});
  EXPECT_EQ(window.exitCode, 2);
  EXPECT_EQ(window.err.rfind("rdmascope: no display (DISPLAY and WAYLAND_DISPLAY are unset)", 0),
            0u)
      << window.err;
  EXPECT_EQ(lines(window.err).size(), 1u) << window.err;
#endif
}

TEST(GuiCommandLine, CmIsRefusedBesideADeviceAFabricOrACongestionRun) {
#ifndef RDMASCOPE_GUI
  GTEST_SKIP() << "the GUI is not part of this build";
#else
  if (!std::filesystem::exists(RDMASCOPE_GUI)) GTEST_SKIP() << "the GUI is not built";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--cm", "--device", "rxe0", "--loopback", "--scenario",
                                 "rc-write"},
        std::vector<std::string>{"--cm", "--congestion", "missing.json"},
        std::vector<std::string>{"--cm", "--fabric", "/nonexistent.sock"}}) {
    const auto gui = runGui(args);
    EXPECT_EQ(gui.exitCode, 2) << args[1];
    EXPECT_EQ(gui.err, "rdmascope: --cm applies to simulated scenarios only\n") << args[1];
  }
#endif
}

TEST(GuiCommandLine, PortFollowsTheCliRule) {
#ifndef RDMASCOPE_GUI
  GTEST_SKIP() << "the GUI is not part of this build";
#else
  if (!std::filesystem::exists(RDMASCOPE_GUI)) GTEST_SKIP() << "the GUI is not built";
  for (const std::string v : {"0", "65536", "-1", "port"}) {
    const auto gui = runGui({"--device", "rxe0", "--serve", "--scenario", "rc-write", "--port", v});
    EXPECT_EQ(gui.exitCode, 2) << v;
    const std::string message = "--port: '" + v + "' is not an integer from 1 to 65535\n";
    EXPECT_EQ(gui.err, "rdmascope: " + message);
    const auto cli = runCli({"verbs", "--scenario", "rc-write", "--server", "--port", v});
    EXPECT_EQ(cli.exitCode, 2) << v;
    EXPECT_EQ(cli.err, "rdmascope-cli: " + message);
  }
#endif
}

TEST(GuiCommandLine, FrameIsANumberOfTheCapture) {
#ifndef RDMASCOPE_GUI
  GTEST_SKIP() << "the GUI is not part of this build";
#else
  if (!std::filesystem::exists(RDMASCOPE_GUI)) GTEST_SKIP() << "the GUI is not built";
  const std::string capture =
      std::string(RDMASCOPE_SOURCE_DIR) + "/tests/lab/captures/rxe_ud_pingpong.pcap";
  for (const std::string v : {"0", "-3", "abc", "21", "99999999999999999999"}) {
    const auto gui = runGui({"--frame", v, capture});
    EXPECT_EQ(gui.exitCode, 2) << v;
    EXPECT_EQ(gui.err, "rdmascope: --frame: '" + v + "' is not a frame of the capture (1 to 20)\n");
  }
  const auto none = runGui({"--frame", "1"});
  EXPECT_EQ(none.exitCode, 2);
  EXPECT_EQ(none.err, "rdmascope: --frame '1': open a capture to select a frame of it\n");
#endif
}

TEST(GuiCommandLine, EventIsANumberOfTheScenario) {
#ifndef RDMASCOPE_GUI
  GTEST_SKIP() << "the GUI is not part of this build";
#else
  if (!std::filesystem::exists(RDMASCOPE_GUI)) GTEST_SKIP() << "the GUI is not built";
  for (const std::string v : {"0", "-3", "abc", "99999999"}) {
    const auto gui = runGui({"--event", v});
    EXPECT_EQ(gui.exitCode, 2) << v;
    EXPECT_EQ(gui.err.rfind("rdmascope: --event: '" + v + "' is not an integer from 1 to ", 0), 0u)
        << gui.err;
    EXPECT_EQ(lines(gui.err).size(), 1u) << gui.err;
  }
#endif
}

// Every argument naming something that is not there is one line and status 2, before any
// screenshot is taken: a scenario, a tab, a capture, a size no screen has.
TEST(GuiCommandLine, WhatIsNotThereIsOneLineAndNoScreenshot) {
#ifndef RDMASCOPE_GUI
  GTEST_SKIP() << "the GUI is not part of this build";
#else
  if (!std::filesystem::exists(RDMASCOPE_GUI)) GTEST_SKIP() << "the GUI is not built";
  const std::string shot = ::testing::TempDir() + "gui_command_line_shot.png";
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--scenario", "nope"}, "rdmascope: --scenario: unknown scenario 'nope'"},
      {{"--tab", "Nope"}, "rdmascope: --tab: no tab 'Nope' (tabs: Layer stacks, Events, "},
      {{"--size", "99999x99999"}, "rdmascope: --size wants WIDTHxHEIGHT from 200x200 to "},
      {{"/nonexistent/capture.pcap"}, "rdmascope: cannot open /nonexistent/capture.pcap: "},
      {{"/"}, "rdmascope: cannot open /: Is a directory"},
  };
  for (const auto& [args, message] : cases) {
    std::filesystem::remove(shot);
    std::vector<std::string> all = args;
    all.insert(all.end(), {"--screenshot", shot});
    const auto gui = runGui(all);
    EXPECT_EQ(gui.exitCode, 2) << args[0];
    EXPECT_EQ(gui.err.rfind(message, 0), 0u) << gui.err;
    EXPECT_EQ(lines(gui.err).size(), 1u) << gui.err;
    EXPECT_FALSE(std::filesystem::exists(shot)) << args[0];
  }
  // A tab named by its first letters is found.
  std::filesystem::remove(shot);
  const auto plot = runGui({"--tab", "plo", "--screenshot", shot});
  EXPECT_EQ(plot.exitCode, 0) << plot.err;
  EXPECT_TRUE(std::filesystem::exists(shot));
  std::filesystem::remove(shot);
  // In Chinese, a tab is found by its English name as well as by its Chinese one, and the
  // list of tabs names both.
  for (const std::string name : {"Anomalies", "\u5f02\u5e38"}) {
    const auto zh = runGui({"--language", "zh_CN", "--tab", name, "--screenshot", shot});
    EXPECT_EQ(zh.exitCode, 0) << name << ": " << zh.err;
    EXPECT_TRUE(std::filesystem::exists(shot)) << name;
    std::filesystem::remove(shot);
  }
  const auto none = runGui({"--language", "zh_CN", "--tab", "Nope", "--screenshot", shot});
  EXPECT_EQ(none.exitCode, 2);
  EXPECT_NE(none.err.find("Anomalies (\u5f02\u5e38)"), std::string::npos) << none.err;
#endif
}

TEST(GuiCommandLine, FabricThatDoesNotRunIsOneLine) {
#ifndef RDMASCOPE_GUI
  GTEST_SKIP() << "the GUI is not part of this build";
#else
  if (!std::filesystem::exists(RDMASCOPE_GUI)) GTEST_SKIP() << "the GUI is not built";
  const std::string socket = "/nonexistent-rdmascope-dir/fabric.sock";
  const auto gui = runGui({"--fabric", socket});
  EXPECT_EQ(gui.exitCode, 2);
  EXPECT_EQ(gui.err.rfind("rdmascope: --fabric: no fabric at " + socket, 0), 0u) << gui.err;
  EXPECT_EQ(lines(gui.err).size(), 1u) << gui.err;
  const auto pause = runGui({"--pause"});
  EXPECT_EQ(pause.exitCode, 2);
  EXPECT_EQ(pause.err, "rdmascope: --pause applies to --fabric only\n");
  const auto two = runGui({"--fabric", socket, "second.sock"});
  EXPECT_EQ(two.exitCode, 2);
  EXPECT_EQ(lines(two.err).size(), 1u) << two.err;
#endif
}

TEST(GuiCommandLine, CongestionErrorsAreOneLine) {
#ifndef RDMASCOPE_GUI
  GTEST_SKIP() << "the GUI is not part of this build";
#else
  if (!std::filesystem::exists(RDMASCOPE_GUI)) GTEST_SKIP() << "the GUI is not built";
  const auto missing = runGui({"--congestion", "/nonexistent-rdmascope-dir/x.json"});
  EXPECT_EQ(missing.exitCode, 2);
  EXPECT_EQ(missing.err,
            "rdmascope: --congestion: cannot read /nonexistent-rdmascope-dir/x.json\n");
  const std::string pfc =
      std::string(RDMASCOPE_SOURCE_DIR) + "/examples/congestion/incast-pfc.json";
  const auto late = runGui({"--congestion", pfc, "--at-us", "5000"});
  EXPECT_EQ(late.exitCode, 2);
  EXPECT_EQ(late.err, "rdmascope: --at-us: '5000' is not a time from 0 to 2000\n");
  const auto alone = runGui({"--at-us", "5"});
  EXPECT_EQ(alone.exitCode, 2);
  EXPECT_EQ(alone.err, "rdmascope: --at-us applies to --congestion only\n");
#endif
}

}  // namespace
}  // namespace rdmascope::cli::test
