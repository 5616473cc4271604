/* rdma_read: one-sided RDMA READ.
 *
 * The server puts text in a buffer registered with IBV_ACCESS_REMOTE_READ and tells the client
 * its address and rkey. The client's NIC sends one READ request; the server's NIC answers with
 * the bytes (READ responses) without the server's CPU; the client's completion means the data
 * is in the client's buffer.
 *
 *   rdma_read -g 1            # server
 *   rdma_read -g 1 SERVER     # client */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "rc_connection.h"

int main(int argc, char** argv) {
  struct options o;
  struct rc_connection c;
  char buf[4096] = {0};
  if (parse_options(argc, argv, &o)) return 2;
  int server = o.server == NULL;
  if (server) {
    /* 4 KiB: at the 1024-byte MTU the answer comes as READ RESPONSE FIRST, two MIDDLEs, LAST. */
    for (size_t i = 0; i + 1 < sizeof buf; ++i)
      buf[i] = (char)('a' + i % 26);
  }
  int access = IBV_ACCESS_LOCAL_WRITE | (server ? IBV_ACCESS_REMOTE_READ : 0);
  if (rc_open(&c, o.device, o.gid_index, buf, sizeof buf, access)) return 1;
  int sock = exchange(o.server, o.port, &c.mine, &c.theirs);
  if (sock < 0 || rc_connect(&c)) return 1;

  if (!server) {
    struct ibv_sge sge = {.addr = (uintptr_t)buf, .length = c.theirs.length, .lkey = c.mr->lkey};
    struct ibv_send_wr wr = {.wr_id = 1,
                             .sg_list = &sge,
                             .num_sge = 1,
                             .opcode = IBV_WR_RDMA_READ,
                             .send_flags = IBV_SEND_SIGNALED,
                             .wr.rdma = {.remote_addr = c.theirs.addr, .rkey = c.theirs.rkey}};
    struct ibv_send_wr* bad;
    struct ibv_wc wc;
    if (ibv_post_send(c.qp, &wr, &bad)) {
      perror("ibv_post_send");
      return 1;
    }
    if (rc_wait(&c, &wc)) return 1;
    int ok = 1;
    for (size_t i = 0; i + 1 < sizeof buf; ++i)
      ok &= buf[i] == (char)('a' + i % 26);
    printf("client: RDMA READ of %u bytes completed, data %s: \"%.26s...\"\n", sge.length,
           ok ? "correct" : "WRONG", buf);
    if (!ok) return 1;
  }
  if (exchange_sync(sock)) return 1;
  close(sock);
  rc_close(&c);
  return 0;
}
