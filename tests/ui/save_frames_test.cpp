// Saving what the window shows as a capture: the simulated tour written as pcap and pcapng
// reads back frame for frame (bytes, times, wire lengths, link type), and bad targets give a
// one-line error without touching an existing file.

#include <gtest/gtest.h>
#include <unistd.h>

#include <QMessageBox>
#include <filesystem>
#include <fstream>
#include <string>

#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/ui/capture_saver.h"
#include "rdmascope/ui/main_window.h"

namespace rdmascope::ui {
namespace {

std::string tempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("rdmascope_save_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

void expectSameFrames(const FrameStore& store, const std::string& path) {
  std::string error;
  auto reader = packets_io::CaptureReader::open(path, error);
  ASSERT_TRUE(reader) << error;
  EXPECT_EQ(reader->linkType(), store.linkType());
  packets_io::FrameView view;
  std::size_t i = 0;
  for (; reader->next(view); ++i) {
    ASSERT_LT(i, store.size());
    const auto bytes = store.bytes(i);
    ASSERT_EQ(view.data.size(), bytes.size()) << "frame " << i + 1;
    EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), view.data.begin())) << "frame " << i + 1;
    EXPECT_EQ(view.timestampNs, store.record(i).timestampNs) << "frame " << i + 1;
    EXPECT_EQ(view.originalLength, store.record(i).originalLength) << "frame " << i + 1;
  }
  EXPECT_TRUE(reader->error().empty()) << reader->error();
  EXPECT_EQ(i, store.size());
}

TEST(SaveFrames, TheSimulatedTourReadsBackFrameForFrame) {
  MainWindow w;
  w.show();
  ASSERT_GT(w.frameStore().size(), 10u);
  for (const char* name : {"tour.pcap", "tour.pcapng"}) {
    const std::string path = tempPath(name);
    ASSERT_TRUE(w.saveFrames(QString::fromStdString(path))) << w.lastError().toStdString();
    expectSameFrames(w.frameStore(), path);
    EXPECT_FALSE(std::filesystem::exists(path + ".partial"));
    std::filesystem::remove(path);
  }
}

TEST(SaveFrames, ABadTargetIsOneLineAndLeavesAnExistingFileAlone) {
  MainWindow w;
  w.show();
  EXPECT_FALSE(w.saveFrames(QStringLiteral("/nonexistent-folder/x.pcap")));
  EXPECT_TRUE(w.lastError().contains("/nonexistent-folder/x.pcap")) << w.lastError().toStdString();
  EXPECT_FALSE(w.lastError().contains('\n'));
  for (auto* box : w.findChildren<QMessageBox*>())
    box->close();

  // A folder named like the target: the rename fails, the folder and its content stay.
  const std::string dir = tempPath("existing.pcap");
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/keep") << "kept";
  std::string error;
  EXPECT_FALSE(saveCaptureFile(w.frameStore(), dir, error));
  EXPECT_NE(error.find(dir), std::string::npos) << error;
  EXPECT_TRUE(std::filesystem::exists(dir + "/keep"));
  EXPECT_FALSE(std::filesystem::exists(dir + ".partial"));
  std::filesystem::remove_all(dir);

  FrameStore empty;
  EXPECT_FALSE(saveCaptureFile(empty, tempPath("empty.pcap"), error));
  EXPECT_NE(error.find("no frames"), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(tempPath("empty.pcap")));
}

}  // namespace
}  // namespace rdmascope::ui
