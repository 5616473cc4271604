#include "rdmascope/verbs_backend/ibv_backend.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <filesystem>

#ifdef RDMASCOPE_HAVE_IBVERBS

namespace rdmascope::verbs_backend {
namespace {

bool hostHasRdmaDevice() {
  std::error_code ec;
  return std::filesystem::exists("/sys/class/infiniband", ec) &&
         !std::filesystem::is_empty("/sys/class/infiniband", ec);
}

TEST(IbvBackend, WithoutADeviceSaysHowToGetOne) {
  if (hostHasRdmaDevice()) {
    auto names = IbvBackend::listDevices();
    ASSERT_TRUE(names.ok()) << names.status.message;
    EXPECT_FALSE(names.value.empty());
    return;
  }
  auto names = IbvBackend::listDevices();
  ASSERT_TRUE(names.ok()) << names.status.message;
  EXPECT_TRUE(names.value.empty());
  auto backend = IbvBackend::open();
  ASSERT_FALSE(backend.ok());
  EXPECT_EQ(backend.value, nullptr);
  EXPECT_EQ(backend.status.errnum, ENODEV);
  EXPECT_EQ(backend.status.message,
            "no RDMA device found: run the Soft-RoCE lab (rdmascope-cli lab) or load rdma_rxe");
}

TEST(IbvBackend, AnUnknownDeviceNameIsAnError) {
  IbvOptions options;
  options.deviceName = "no-such-device0";
  auto backend = IbvBackend::open(options);
  ASSERT_FALSE(backend.ok());
  EXPECT_EQ(backend.status.errnum, ENODEV);
  if (hostHasRdmaDevice())
    EXPECT_NE(backend.status.message.find("no RDMA device named 'no-such-device0'"),
              std::string::npos)
        << backend.status.message;
  else
    EXPECT_NE(backend.status.message.find("no RDMA device found"), std::string::npos);
}

}  // namespace
}  // namespace rdmascope::verbs_backend

#endif
