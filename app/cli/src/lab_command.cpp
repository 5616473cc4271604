#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "commands.h"
#include "numeric_options.h"
#include "output_files.h"
#include "output_options.h"
#include "rdmascope/cli/cli.h"
#include "rdmascope/install/install_paths.h"
#include "rdmascope/verbs_backend/scenario.h"
#include "scenario_source.h"
#include "sim_replay.h"

namespace rdmascope::cli {
namespace {

namespace fs = std::filesystem;

struct LabArgs {
  std::string name;
  std::string outDir;
  double loss = 0;
  unsigned timeout = 120;
  bool compareSim = false;
  bool cm = false;
};

struct CompareArgs {
  std::string capture;
  std::string scenario;
};

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string selfPath() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("rdmascope-cli") : p.string();
}

// lab/ in the data folder: installed (<prefix>/share/rdmascope/lab) or the build tree's link to
// the source tree's lab/.
std::optional<fs::path> findLabDir() {
  const auto script = install::findDataFile(fs::path("lab") / "run-pair.sh", install::programDir());
  if (!script) return std::nullopt;
  return script->parent_path();
}

std::string labNotFound() {
  std::string looked;
  for (const auto& dir : install::dataDirCandidates(install::programDir()))
    looked += (looked.empty() ? "" : ", ") + (dir / "lab").lexically_normal().string();
  return "lab/run-pair.sh not found (looked in " + looked + ")";
}

int shellStatus(int status) {
  if (status == -1) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

bool isBuiltin(const std::string& name) {
  for (const auto& n : verbs_backend::builtinScenarioNames()) {
    if (n == name) return true;
  }
  return false;
}

int labList(std::ostream& out, std::ostream& err) {
  const auto lab = findLabDir();
  if (!lab) {
    reportError(err, labNotFound());
    return kExitUsage;
  }
  out << "# lab scenarios (lab/scenarios/*.sh: rdma-core and perftest tools)\n" << std::flush;
  const int st =
      shellStatus(std::system((quote((*lab / "run-pair.sh").string()) + " --list").c_str()));
  out << "# rdmascope scenarios (rdmascope-cli verbs on both guests)\n";
  for (const auto& n : verbs_backend::builtinScenarioNames())
    out << n << '\t' << verbs_backend::builtinScenario(n).description << '\n';
  return st == 0 ? kExitOk : kExitFailure;
}

// Runs a shell command with its standard output and error in `output`; returns its status.
int runCaptured(const std::string& command, std::string& output) {
  std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return 127;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;)
    output.append(buf, n);
  return shellStatus(::pclose(pipe));
}

std::string readText(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int labRun(const LabArgs& a, std::ostream& out, std::ostream& err) {
  const auto lab = findLabDir();
  if (!lab) {
    reportError(err, labNotFound());
    return kExitUsage;
  }
  if (a.name.empty() || a.outDir.empty()) {
    reportError(err, "lab run needs a scenario NAME and --out DIR (lab list shows the names)");
    return kExitUsage;
  }
  const bool rdmascope = isBuiltin(a.name);
  if (a.cm && !rdmascope) {
    reportError(err,
                "--cm runs rdmascope scenarios (a built-in name or a file), not the lab's "
                "own scenario \"" +
                    a.name + "\"");
    return kExitUsage;
  }
  // Before the guests boot: a folder that cannot hold the results fails now, not minutes later.
  if (!prepareOutputFolder("--out", a.outDir, err)) return kExitUsage;
  // run-pair.sh takes a percentage in plain digits: 0.2 is "20", 1e-7 "0.00001".
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9f", a.loss * 100.0);
  std::string loss = buf;
  loss.erase(loss.find_last_not_of('0') + 1);
  if (loss.back() == '.') loss.pop_back();
  std::string cmd = quote((*lab / "run-pair.sh").string()) + " --out " + quote(a.outDir) +
                    " --loss " + loss + " --timeout " + std::to_string(a.timeout);
  if (!rdmascope) {
    // run-pair.sh's own scenarios capture with tcpdump on guest 1.
    cmd += " --scenario " + quote(a.name);
  } else {
    // Guest 1 captures on eth0 with this build's own capture command, then runs the server.
    // With --cm the rdma_cm's route picks the device, so none is named.
    const std::string cli = quote(selfPath());
    const std::string verbs =
        cli + (a.cm ? " verbs --cm" : " verbs --device rxe0") + " --scenario " + quote(a.name);
    const std::string guest1 =
        cli + " capture -i eth0 -q -w /results/capture.pcap >/results/capture.log 2>&1 & cap=$!; " +
        "sleep 1; " + verbs + " --server; rc=$?; sleep 1; kill -INT $cap; wait $cap; exit $rc";
    const std::string guest2 = "sleep 2; " + verbs + " --connect 10.9.0.1";
    cmd += " --capture-on none --guest1 " + quote(guest1) + " --guest2 " + quote(guest2);
  }
  out << "# " << (rdmascope ? "rdmascope scenario " : "lab scenario ") << a.name << " -> "
      << a.outDir << '\n'
      << std::flush;
  const int labStatus = shellStatus(std::system(cmd.c_str()));
  const fs::path dir(a.outDir);
  std::error_code ec;
  if (rdmascope && fs::exists(dir / "guest1" / "capture.pcap", ec))
    fs::rename(dir / "guest1" / "capture.pcap", dir / "capture.pcap", ec);
  for (int g = 1; g <= 2; ++g) {
    out << "# guest " << g << " output ("
        << (dir / ("guest" + std::to_string(g)) / "output.txt").string() << ")\n"
        << readText(dir / ("guest" + std::to_string(g)) / "output.txt");
  }
  int verifyStatus = 0;
  if (fs::exists(dir / "capture.pcap", ec)) {
    out << "# decode --verify " << (dir / "capture.pcap").string() << '\n' << std::flush;
    std::string decoded;
    verifyStatus = runCaptured(
        quote(selfPath()) + " decode --verify " + quote((dir / "capture.pcap").string()), decoded);
    if (!writeTextFile((dir / "decode.txt").string(), decoded, err)) return kExitUsage;
    // decode --verify ends with "N frames: G good CRC, B bad CRC, U without CRC".
    std::istringstream lines(decoded);
    std::string line, last;
    while (std::getline(lines, line))
      last = line;
    out << last << (verifyStatus == 0 ? "" : " (see decode.txt)") << '\n';
  } else {
    out << "# no capture was brought back\n";
    verifyStatus = 1;
  }
  int compareStatus = kExitOk;
  if (a.compareSim && labStatus == 0 && verifyStatus == 0) {
    const auto scenario = loadScenario(a.name, err);
    if (!scenario) return kExitUsage;
    std::ostringstream text;
    compareStatus = compareCaptureWithSim((dir / "capture.pcap").string(), *scenario, text, err);
    if (!writeTextFile((dir / "compare-sim.txt").string(), text.str(), err)) return kExitUsage;
    out << text.str();
  }
  if (labStatus != 0) {
    reportError(err, "lab run " + a.name + " failed (exit " + std::to_string(labStatus) +
                         "); see " + a.outDir + "/guest*/console.log and output.txt");
    return kExitFailure;
  }
  if (verifyStatus != 0) {
    reportError(err,
                "the capture has frames whose ICRC does not verify: " + a.outDir + "/decode.txt");
    return kExitFailure;
  }
  if (compareStatus != kExitOk) {
    reportError(err, "the lab and the simulator drew different NAK and resend patterns: " +
                         a.outDir + "/compare-sim.txt");
    return compareStatus;
  }
  return kExitOk;
}

int labCompareSim(const CompareArgs& a, std::ostream& out, std::ostream& err) {
  if (!isBuiltin(a.scenario) && !fs::exists(a.scenario)) {
    reportError(err, "compare-sim needs an rdmascope scenario (a built-in name or a file), not \"" +
                         a.scenario + "\"");
    return kExitUsage;
  }
  const auto scenario = loadScenario(a.scenario, err);
  if (!scenario) return kExitUsage;
  return compareCaptureWithSim(a.capture, *scenario, out, err);
}

}  // namespace

void addLabCommand(CLI::App& app, Action& action) {
  CLI::App* lab = app.add_subcommand("lab", "Run scenarios between two qemu Soft-RoCE guests");
  lab->require_subcommand(1);
  auto args = std::make_shared<LabArgs>();
  CLI::App* run = lab->add_subcommand("run", "Boot the two guests, run NAME, capture and decode");
  run->add_option("name", args->name, "Lab scenario or rdmascope built-in scenario")->required();
  run->add_option("--out", args->outDir, "Folder for the results")->required();
  checkRange(run->add_option("--loss", args->loss, "Loss probability on guest 2's egress"),
             kLossRange);
  checkRange(run->add_option("--timeout", args->timeout, "Bound on each guest's command, seconds"),
             IntegerRange{10, 3600});
  run->add_flag("--compare-sim", args->compareSim,
                "Infer the lost transmissions from the capture, replay them in the simulator "
                "and compare the NAK and resend patterns (rdmascope scenarios)");
  run->add_flag("--cm", args->cm,
                "Connect the QPs with rdma_cm (verbs --cm) instead of the TCP exchange");
  run->callback([args, &action] {
    action = [args](std::ostream& out, std::ostream& err) { return labRun(*args, out, err); };
  });
  auto cargs = std::make_shared<CompareArgs>();
  CLI::App* cmp = lab->add_subcommand(
      "compare-sim",
      "Infer from a lossy lab capture which transmissions were lost, replay the scenario in the "
      "simulator with exactly those drops and compare NAKs and resends");
  cmp->add_option("capture", cargs->capture, "Capture of the lab run (guest 1's eth0)")->required();
  cmp->add_option("scenario", cargs->scenario, "The rdmascope scenario the lab ran")->required();
  cmp->callback([cargs, &action] {
    action = [cargs](std::ostream& out, std::ostream& err) {
      return labCompareSim(*cargs, out, err);
    };
  });
  CLI::App* list = lab->add_subcommand("list", "List the lab and rdmascope scenarios");
  list->callback([&action] {
    action = [](std::ostream& out, std::ostream& err) { return labList(out, err); };
  });
}

}  // namespace rdmascope::cli
