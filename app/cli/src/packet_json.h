#pragma once
// One frame as a record of tshark's -T json output.

#include <cstdint>
#include <string>

#include "rdmascope/packets/dissection.h"

namespace rdmascope::cli {

/// Appends ",\n" and the frame's record (its "_index" from the capture time, its layers, its
/// diagnostics), indented as one element of the top-level array.
void appendJsonRecord(const packets::Dissection& d, std::int64_t timestampNs, std::string& out);

}  // namespace rdmascope::cli
