#include "parallel_analyze.h"

#include "rdmascope/analysis/fact_pipeline.h"

namespace rdmascope::cli {
namespace {

// The frames of a capture reader, numbered from 1 and timed from the first frame's timestamp.
// Their views stay valid while the reader keeps them (CaptureReader::mayReadKeeping).
class ReaderSource final : public analysis::FrameSource {
 public:
  explicit ReaderSource(packets_io::CaptureReader& reader) : reader_(reader) {}
  packets::LinkType linkType() const override { return reader_.linkType(); }
  bool next(analysis::SourceFrame& frame) override {
    if (!reader_.next(view_)) return false;
    if (reader_.framesRead() == 1) first_ = view_.timestampNs;
    frame.data = view_.data;
    frame.number = reader_.framesRead();
    frame.time = static_cast<double>(view_.timestampNs - first_) / 1e9;
    return true;
  }
  std::uint64_t position() const override { return reader_.position(); }
  bool mayReadKeeping(std::uint64_t mark) const override { return reader_.mayReadKeeping(mark); }

 private:
  packets_io::CaptureReader& reader_;
  packets_io::FrameView view_;
  std::int64_t first_ = 0;
};

}  // namespace

void analyzeCapture(packets_io::CaptureReader& reader, analysis::FlowAnalyzer& analyzer,
                    unsigned threads) {
  ReaderSource source(reader);
  analysis::analyzeFrames(source, analyzer, reader.keepsViews() ? threads : 1);
}

}  // namespace rdmascope::cli
