/* The extended post-send API of verbs.h (ibv_qp_ex: ibv_wr_start ... ibv_wr_complete) on the
 * simulated device, which perftest leaves to the classic ibv_post_send on a device it does not
 * know. Run as `post_send_api -s` on one host and `post_send_api HOST` on another: they
 * exchange their QP number, GID, buffer address and rkey over TCP (port 18620), connect an RC
 * QP each, and the client posts through the wr_* calls: an RDMA WRITE and an inline SEND in
 * one batch, then an RDMA READ into two SGEs, a FETCH_AND_ADD and a COMPARE_AND_SWAP in
 * another, then a batch it aborts. Each side checks the data and the completions and exits 0
 * when all is as a NIC would leave it. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <infiniband/verbs.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { kPort = 18620, kBufSize = 4096, kCounter = 1024, kReadFrom = 2048, kResults = 3072 };

struct peer {
  uint32_t qpn;
  uint32_t rkey;
  uint64_t addr;
  union ibv_gid gid;
};

static int fail(const char* what) {
  fprintf(stderr, "FAILED: %s\n", what);
  exit(1);
}

static int tcp_connect(const char* host) {
  struct addrinfo hints = {.ai_family = AF_INET, .ai_socktype = SOCK_STREAM};
  struct addrinfo* res;
  char port[8];
  snprintf(port, sizeof port, "%d", kPort);
  if (getaddrinfo(host, port, &hints, &res) != 0) fail("getaddrinfo");
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0 || connect(fd, res->ai_addr, res->ai_addrlen) != 0) fail("connect to the server");
  freeaddrinfo(res);
  return fd;
}

static int tcp_accept(void) {
  int ls = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(kPort)};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(ls, (struct sockaddr*)&a, sizeof a) != 0 || listen(ls, 1) != 0) fail("listen");
  int fd = accept(ls, NULL, NULL);
  close(ls);
  if (fd < 0) fail("accept");
  return fd;
}

static void exchange(int fd, const void* out, void* in, size_t n) {
  if (write(fd, out, n) != (ssize_t)n) fail("write to the peer");
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(fd, (char*)in + got, n - got);
    if (r <= 0) fail("read from the peer");
    got += (size_t)r;
  }
}

static void wait_completions(struct ibv_cq* cq, struct ibv_wc* wc, int n) {
  int got = 0;
  while (got < n) {
    int r = ibv_poll_cq(cq, n - got, wc + got);
    if (r < 0) fail("ibv_poll_cq");
    got += r;
  }
  for (int i = 0; i < n; ++i) {
    if (wc[i].status != IBV_WC_SUCCESS) {
      fprintf(stderr, "FAILED: wr_id %llu completed with %s\n", (unsigned long long)wc[i].wr_id,
              ibv_wc_status_str(wc[i].status));
      exit(1);
    }
  }
}

static void connect_qp(struct ibv_qp* qp, const struct peer* remote) {
  struct ibv_qp_attr a = {.qp_state = IBV_QPS_INIT,
                          .port_num = 1,
                          .qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                                             IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC};
  if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
    fail("modify_qp(INIT)");
  memset(&a, 0, sizeof a);
  a.qp_state = IBV_QPS_RTR;
  a.path_mtu = IBV_MTU_1024;
  a.dest_qp_num = remote->qpn;
  a.max_dest_rd_atomic = 1;
  a.min_rnr_timer = 12;
  a.ah_attr.is_global = 1;
  a.ah_attr.grh.dgid = remote->gid;
  a.ah_attr.grh.sgid_index = 1;
  a.ah_attr.grh.hop_limit = 64;
  a.ah_attr.port_num = 1;
  if (ibv_modify_qp(qp, &a,
                    IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
                        IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
    fail("modify_qp(RTR)");
  memset(&a, 0, sizeof a);
  a.qp_state = IBV_QPS_RTS;
  a.timeout = 14;
  a.retry_cnt = 7;
  a.rnr_retry = 7;
  a.max_rd_atomic = 1;
  if (ibv_modify_qp(qp, &a,
                    IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                        IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
    fail("modify_qp(RTS)");
}

int main(int argc, char** argv) {
  const int server = argc == 2 && strcmp(argv[1], "-s") == 0;
  if (argc != 2) {
    fprintf(stderr, "usage: post_send_api -s | post_send_api HOST\n");
    return 2;
  }
  int n = 0;
  struct ibv_device** list = ibv_get_device_list(&n);
  if (!list || n < 1) fail("no device");
  struct ibv_context* ctx = ibv_open_device(list[0]);
  if (!ctx) fail("ibv_open_device");
  struct ibv_pd* pd = ibv_alloc_pd(ctx);
  struct ibv_cq* cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
  uint8_t* buf = aligned_alloc(4096, kBufSize);
  memset(buf, 0, kBufSize);
  struct ibv_mr* mr = ibv_reg_mr(pd, buf, kBufSize,
                                 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
                                     IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC);
  if (!pd || !cq || !mr) fail("alloc_pd, create_cq or reg_mr");
  struct ibv_qp_init_attr_ex init = {
      .send_cq = cq,
      .recv_cq = cq,
      .qp_type = IBV_QPT_RC,
      .pd = pd,
      .cap = {.max_send_wr = 8,
              .max_recv_wr = 8,
              .max_send_sge = 2,
              .max_recv_sge = 1,
              .max_inline_data = 64},
      .comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
      .send_ops_flags = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_READ |
                        IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP};
  struct ibv_qp* qp = ibv_create_qp_ex(ctx, &init);
  if (!qp) fail("ibv_create_qp_ex");
  struct ibv_qp_ex* qpx = ibv_qp_to_qp_ex(qp);
  if (!qpx) fail("ibv_qp_to_qp_ex");

  struct peer me = {.qpn = qp->qp_num, .rkey = mr->rkey, .addr = (uintptr_t)buf}, remote;
  if (ibv_query_gid(ctx, 1, 1, &me.gid)) fail("ibv_query_gid");
  const int fd = server ? tcp_accept() : tcp_connect(argv[1]);

  static const char kMessage[] = "sent inline by ibv_wr_send";
  uint8_t done = 1, peer_done = 0;
  struct ibv_wc wc[4];
  if (server) {
    for (int i = 0; i < 128; ++i)
      buf[kReadFrom + i] = (uint8_t)(0xa0 ^ i);
    uint64_t counter = 100;
    memcpy(buf + kCounter, &counter, sizeof counter);
    struct ibv_sge sge = {(uintptr_t)(buf + 512), 64, mr->lkey};
    struct ibv_recv_wr rwr = {.wr_id = 9, .sg_list = &sge, .num_sge = 1}, *bad;
    exchange(fd, &me, &remote, sizeof me);
    connect_qp(qp, &remote);
    if (ibv_post_recv(qp, &rwr, &bad)) fail("ibv_post_recv");
    exchange(fd, &done, &peer_done, 1); /* both in RTS */
    wait_completions(cq, wc, 1);
    if (wc[0].opcode != IBV_WC_RECV || wc[0].byte_len != sizeof kMessage ||
        memcmp(buf + 512, kMessage, sizeof kMessage) != 0)
      fail("the inline SEND did not arrive as sent");
    for (int i = 0; i < 256; ++i)
      if (buf[i] != (uint8_t)(i ^ 0x5c)) fail("the RDMA WRITE's data is not in the buffer");
    exchange(fd, &done, &peer_done, 1); /* the client's READ and atomics are done */
    memcpy(&counter, buf + kCounter, sizeof counter);
    if (counter != 7) fail("the atomics did not leave 7 in the counter (100 + 5, then CAS to 7)");
    printf("server: the WRITE's 256 bytes, the inline SEND and the atomics' result are in place\n");
  } else {
    exchange(fd, &me, &remote, sizeof me);
    connect_qp(qp, &remote);
    exchange(fd, &done, &peer_done, 1);
    for (int i = 0; i < 256; ++i)
      buf[i] = (uint8_t)(i ^ 0x5c);
    char message[sizeof kMessage];
    memcpy(message, kMessage, sizeof kMessage);

    ibv_wr_start(qpx);
    qpx->wr_id = 1;
    qpx->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_rdma_write(qpx, remote.rkey, remote.addr);
    ibv_wr_set_sge(qpx, mr->lkey, (uintptr_t)buf, 256);
    qpx->wr_id = 2;
    qpx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
    ibv_wr_send(qpx);
    ibv_wr_set_inline_data(qpx, message, sizeof message);
    if (ibv_wr_complete(qpx)) fail("ibv_wr_complete (WRITE, SEND)");
    memset(message, 'x', sizeof message); /* inline data belongs to the WR once posted */
    wait_completions(cq, wc, 2);
    if (wc[0].wr_id != 1 || wc[0].opcode != IBV_WC_RDMA_WRITE || wc[1].wr_id != 2 ||
        wc[1].opcode != IBV_WC_SEND)
      fail("the WRITE and SEND completions are not in order");

    ibv_wr_start(qpx);
    qpx->wr_id = 3;
    qpx->wr_flags = IBV_SEND_SIGNALED;
    ibv_wr_rdma_read(qpx, remote.rkey, remote.addr + kReadFrom);
    const struct ibv_sge two[2] = {{(uintptr_t)(buf + kResults), 64, mr->lkey},
                                   {(uintptr_t)(buf + kResults + 512), 64, mr->lkey}};
    ibv_wr_set_sge_list(qpx, 2, two);
    qpx->wr_id = 4;
    ibv_wr_atomic_fetch_add(qpx, remote.rkey, remote.addr + kCounter, 5);
    ibv_wr_set_sge(qpx, mr->lkey, (uintptr_t)(buf + kResults + 256), 8);
    qpx->wr_id = 5;
    ibv_wr_atomic_cmp_swp(qpx, remote.rkey, remote.addr + kCounter, 105, 7);
    ibv_wr_set_sge(qpx, mr->lkey, (uintptr_t)(buf + kResults + 264), 8);
    if (ibv_wr_complete(qpx)) fail("ibv_wr_complete (READ, FETCH_AND_ADD, CMP_AND_SWP)");
    wait_completions(cq, wc, 3);
    if (wc[0].opcode != IBV_WC_RDMA_READ || wc[0].byte_len != 128 ||
        wc[1].opcode != IBV_WC_FETCH_ADD || wc[2].opcode != IBV_WC_COMP_SWAP)
      fail("the READ and atomic completions are not as posted");
    for (int i = 0; i < 128; ++i) {
      const uint8_t got = i < 64 ? buf[kResults + i] : buf[kResults + 512 + i - 64];
      if (got != (uint8_t)(0xa0 ^ i)) fail("the RDMA READ did not scatter the peer's bytes");
    }
    uint64_t fetched, swapped;
    memcpy(&fetched, buf + kResults + 256, 8);
    memcpy(&swapped, buf + kResults + 264, 8);
    if (fetched != 100 || swapped != 105) fail("the atomics did not return 100 and 105");

    ibv_wr_start(qpx);
    qpx->wr_id = 6;
    ibv_wr_send(qpx);
    ibv_wr_set_sge(qpx, mr->lkey, (uintptr_t)buf, 16);
    ibv_wr_abort(qpx);
    if (ibv_wr_complete(qpx)) fail("ibv_wr_complete of an empty batch after ibv_wr_abort");
    usleep(100000);
    if (ibv_poll_cq(cq, 1, wc) != 0) fail("an aborted work request completed");
    exchange(fd, &done, &peer_done, 1);
    printf(
        "client: WRITE + inline SEND, READ into 2 SGEs, FETCH_AND_ADD (100), CMP_AND_SWP "
        "(105) and an aborted batch through ibv_wr_*\n");
  }
  exchange(fd, &done, &peer_done, 1); /* neither side tears down while the other still works */
  close(fd);
  if (ibv_destroy_qp(qp) || ibv_dereg_mr(mr) || ibv_destroy_cq(cq) || ibv_dealloc_pd(pd) ||
      ibv_close_device(ctx))
    fail("teardown");
  ibv_free_device_list(list);
  free(buf);
  return 0;
}
