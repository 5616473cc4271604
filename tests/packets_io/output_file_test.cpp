// OutputFile: a destination is replaced only by a complete file, in one rename; a failed or
// abandoned write leaves it as it was; links are followed; special files are written in place.
#include "rdmascope/packets_io/output_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../support/scratch_folder.h"
#include "rdmascope/packets_io/capture_reader.h"
#include "rdmascope/packets_io/capture_writer.h"

namespace rdmascope::packets_io {
namespace {

namespace fs = std::filesystem;

struct Folder : rdmascope::testing::ScratchFolder {
  Folder() : ScratchFolder("rdmascope_out") {}
};

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeAll(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

bool put(OutputFile& f, const std::string& text) {
  return std::fwrite(text.data(), 1, text.size(), f.stream()) == text.size();
}

TEST(OutputFile, ReplacesAnExistingFileOnlyOnCommit) {
  Folder d;
  const std::string p = d / "x.txt";
  writeAll(p, "old contents");
  ::chmod(p.c_str(), 0640);
  std::string error;
  auto f = OutputFile::create(p, error);
  ASSERT_TRUE(f) << error;
  ASSERT_TRUE(put(*f, "new contents, longer than the old"));
  std::fflush(f->stream());
  EXPECT_EQ(readAll(p), "old contents");  // a reader sees the old file until the commit
  EXPECT_EQ(d.entries(), 2u);             // the file and the temporary beside it
  ASSERT_TRUE(f->commit()) << f->error();
  EXPECT_EQ(readAll(p), "new contents, longer than the old");
  EXPECT_EQ(d.entries(), 1u);
  struct stat st {};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);  // the replaced file's permissions are kept
}

TEST(OutputFile, AnAbandonedWriteLeavesTheOldFile) {
  Folder d;
  const std::string p = d / "x.txt";
  writeAll(p, "old contents");
  std::string error;
  {
    auto f = OutputFile::create(p, error);
    ASSERT_TRUE(f) << error;
    ASSERT_TRUE(put(*f, "half"));
  }
  EXPECT_EQ(readAll(p), "old contents");
  EXPECT_EQ(d.entries(), 1u);
  auto f = OutputFile::create(p, error);
  ASSERT_TRUE(f) << error;
  ASSERT_TRUE(put(*f, "half"));
  f->discard();
  EXPECT_EQ(readAll(p), "old contents");
  EXPECT_EQ(d.entries(), 1u);
}

TEST(OutputFile, FollowsASymbolicLinkToItsTarget) {
  Folder d;
  const std::string target = d / "target.txt", link = d / "link.txt";
  writeAll(target, "old");
  fs::create_symlink(target, link);
  std::string error;
  auto f = OutputFile::create(link, error);
  ASSERT_TRUE(f) << error;
  ASSERT_TRUE(put(*f, "new"));
  ASSERT_TRUE(f->commit()) << f->error();
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(readAll(target), "new");
}

TEST(OutputFile, SpecialFilesAreWrittenInPlace) {
  std::string error;
  auto f = OutputFile::create("/dev/null", error);
  ASSERT_TRUE(f) << error;
  ASSERT_TRUE(put(*f, "nothing"));
  ASSERT_TRUE(f->commit()) << f->error();
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(OutputFile, UncreatableDestinationsFailAtOnce) {
  Folder d;
  std::string error;
  EXPECT_FALSE(OutputFile::create("/nonexistent-dir/x.pcap", error));
  EXPECT_EQ(error, "cannot create /nonexistent-dir/x.pcap: No such file or directory");
  EXPECT_FALSE(OutputFile::create(d.path.string(), error));
  EXPECT_EQ(error, "cannot create " + d.path.string() + ": Is a directory");
  EXPECT_FALSE(OutputFile::create("/proc/rdmascope-x.pcap", error));
  EXPECT_EQ(error.rfind("cannot create /proc/rdmascope-x.pcap: ", 0), 0u) << error;
  EXPECT_EQ(d.entries(), 0u);
}

TEST(OutputFile, SameFileSeesThroughLinksAndSpellings) {
  Folder d;
  const std::string a = d / "a.json", other = d / "b.json";
  writeAll(a, "{}");
  writeAll(other, "{}");
  fs::create_symlink(a, d / "sym.json");
  fs::create_hard_link(a, d / "hard.json");
  EXPECT_TRUE(isSameFile(a, a));
  EXPECT_TRUE(isSameFile(a, d / "sym.json"));
  EXPECT_TRUE(isSameFile(d / "hard.json", a));
  EXPECT_TRUE(isSameFile((d.path / "." / ".." / d.path.filename() / "a.json").string(), a));
  EXPECT_FALSE(isSameFile(a, other));
  EXPECT_FALSE(isSameFile(a, d / "missing.json"));
  EXPECT_FALSE(isSameFile(d / "missing.json", d / "missing.json"));
}

TEST(CaptureWriter, ReplacesAnExistingCaptureOnlyWhenClosed) {
  Folder d;
  const std::string p = d / "x.pcap";
  writeAll(p, "not yet a capture");
  std::string error;
  auto w = CaptureWriter::open(p, packets::LinkType::Ethernet, error);
  ASSERT_TRUE(w) << error;
  const std::vector<std::uint8_t> frame(60, 0xab);
  ASSERT_TRUE(w->write(frame, 1'000'000'000));
  ASSERT_TRUE(w->flush());
  EXPECT_EQ(readAll(p), "not yet a capture");
  ASSERT_TRUE(w->close()) << w->error();
  auto r = CaptureReader::open(p, error);
  ASSERT_TRUE(r) << error;
  CapturedFrame f;
  ASSERT_TRUE(r->next(f));
  EXPECT_EQ(f.data, frame);
  EXPECT_EQ(d.entries(), 1u);
}

TEST(CaptureWriter, ADiscardedCaptureLeavesTheOldFile) {
  Folder d;
  const std::string p = d / "x.pcap";
  writeAll(p, "an older file");
  std::string error;
  auto w = CaptureWriter::open(p, packets::LinkType::Ethernet, error);
  ASSERT_TRUE(w) << error;
  ASSERT_TRUE(w->write(std::vector<std::uint8_t>(60, 1), 0));
  w->discard();
  EXPECT_TRUE(w->close());
  w.reset();
  EXPECT_EQ(readAll(p), "an older file");
  EXPECT_EQ(d.entries(), 1u);
}

TEST(CaptureWriter, StartsInAFileCreatedBeforehand) {
  Folder d;
  const std::string p = d / "x.pcap";
  std::string error;
  auto file = OutputFile::create(p, error);
  ASSERT_TRUE(file) << error;
  auto w = CaptureWriter::open(std::move(file), packets::LinkType::Erf, error);
  ASSERT_TRUE(w) << error;
  ASSERT_TRUE(w->close()) << w->error();
  auto r = CaptureReader::open(p, error);
  ASSERT_TRUE(r) << error;
  EXPECT_EQ(r->linkType(), packets::LinkType::Erf);
  EXPECT_FALSE(CaptureWriter::open(std::unique_ptr<OutputFile>(), packets::LinkType::Erf, error));
  EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace rdmascope::packets_io
