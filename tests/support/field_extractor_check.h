#pragma once
// The check shared by the field extractor's tests and its fuzzer: what FieldExtractor yields
// for a frame is what a lean dissection holds for the wanted keys (the nodes of those keys, in
// order, with the same value and number) and, when its summarize() accepts the frame (on its
// own, or after extract()), the same summary columns, CRC status and Error diagnostics (what the
// summary line prints). summarize() accepts no frame extract() refuses.

#include <span>
#include <string>
#include <vector>

#include "rdmascope/packets/decode.h"
#include "rdmascope/packets/field_extractor.h"

namespace rdmascope::test {

enum class ExtractCheck { Refused, Same, Differs };

/// `keys` must be the keys the extractor was built with; `summary`: check summarize() too.
inline ExtractCheck checkExtraction(const packets::FieldExtractor& extractor, bool summary,
                                    const packets::ValueKeys& keys,
                                    std::span<const std::uint8_t> frame, packets::LinkType link,
                                    const packets::FrameInfo& info,
                                    const packets::DecodeOptions& options, std::string* why) {
  packets::Dissection fast;
  const bool extracted = extractor.extract(fast, frame, link, info);
  // summarize() on its own, as the summary pass calls it (without extract() before it).
  packets::Dissection alone;
  const bool summarized = summary && extractor.summarize(alone, frame, link);
  if (!extracted && !summarized) return ExtractCheck::Refused;
  const auto fail = [&](std::string what) {
    if (why) *why = std::move(what);
    return ExtractCheck::Differs;
  };
  if (!extracted) return fail("summarize() accepted a frame extract() refuses");
  packets::DecodeOptions lean = options;
  lean.lean = &keys;
  const packets::Dissection d = packets::decodeFrame(frame, link, info, lean);
  std::vector<const packets::Node*> wanted;
  for (const auto& n : d.nodes)
    if (keys.contains(n.key)) wanted.push_back(&n);
  if (wanted.size() != fast.nodes.size())
    return fail("node count " + std::to_string(fast.nodes.size()) + ", dissection has " +
                std::to_string(wanted.size()));
  for (std::size_t i = 0; i < wanted.size(); ++i) {
    const auto& a = *wanted[i];
    const auto& b = fast.nodes[i];
    if (a.key != b.key || a.value != b.value || a.hasNumber != b.hasNumber ||
        (a.hasNumber && a.number != b.number))
      return fail("node " + std::to_string(i) + ": " + std::string(a.key) + "=" + a.value + " (" +
                  std::to_string(a.number) + "), extracted " + std::string(b.key) + "=" + b.value +
                  " (" + std::to_string(b.number) + ")");
  }
  if (!summarized) return ExtractCheck::Same;
  // After extract(), as a filter pass calls it for the frames it keeps: the same columns.
  if (!extractor.summarize(fast, frame, link)) return fail("summarize() after extract() refused");
  if (fast.summary.info != alone.summary.info ||
      fast.diagnostics.size() != alone.diagnostics.size())
    return fail("summarize() after extract() differs from summarize() alone");
  const auto& s = d.summary;
  const auto& t = alone.summary;
  if (s.source != t.source || s.destination != t.destination || s.protocol != t.protocol ||
      s.info != t.info)
    return fail("summary " + s.source + " " + s.destination + " " + s.protocol + " " + s.info +
                ", extracted " + t.source + " " + t.destination + " " + t.protocol + " " + t.info);
  if (d.crc != alone.crc) return fail("CRC status differs");
  std::vector<std::string> errors;
  for (const auto& diag : d.diagnostics)
    if (diag.severity == packets::Severity::Error) errors.push_back(diag.message);
  std::vector<std::string> fastErrors;
  for (const auto& diag : alone.diagnostics)
    if (diag.severity == packets::Severity::Error) fastErrors.push_back(diag.message);
  if (errors != fastErrors)
    return fail("errors: " + (errors.empty() ? std::string("none") : errors.front()) +
                "; extracted: " + (fastErrors.empty() ? std::string("none") : fastErrors.front()));
  return ExtractCheck::Same;
}

}  // namespace rdmascope::test
