/* atomic_fetch_add: a remote atomic.
 *
 * The server owns a 64-bit counter registered with IBV_ACCESS_REMOTE_ATOMIC. The client adds
 * to it ten times with IBV_WR_ATOMIC_FETCH_AND_ADD; each completion brings back the value the
 * counter had before that add (the ATOMIC ACKNOWLEDGE's original data), written into the
 * client's own 8-byte buffer. The server's NIC does the add as one indivisible step, so many
 * clients could share the counter without locks. The counter must be 8-byte aligned.
 *
 *   atomic_fetch_add -g 1            # server
 *   atomic_fetch_add -g 1 SERVER     # client */
#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "options.h"
#include "rc_connection.h"

int main(int argc, char** argv) {
  struct options o;
  struct rc_connection c;
  uint64_t value __attribute__((aligned(8))) = 1000; /* the server's counter starts at 1000 */
  if (parse_options(argc, argv, &o)) return 2;
  int server = o.server == NULL;
  int access = IBV_ACCESS_LOCAL_WRITE | (server ? IBV_ACCESS_REMOTE_ATOMIC : 0);
  if (rc_open(&c, o.device, o.gid_index, &value, sizeof value, access)) return 1;
  int sock = exchange(o.server, o.port, &c.mine, &c.theirs);
  if (sock < 0 || rc_connect(&c)) return 1;

  if (!server) {
    for (uint64_t i = 0; i < 10; ++i) {
      struct ibv_sge sge = {.addr = (uintptr_t)&value, .length = 8, .lkey = c.mr->lkey};
      struct ibv_send_wr wr = {
          .wr_id = i,
          .sg_list = &sge,
          .num_sge = 1,
          .opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
          .send_flags = IBV_SEND_SIGNALED,
          .wr.atomic = {.remote_addr = c.theirs.addr, .compare_add = 5, .rkey = c.theirs.rkey}};
      struct ibv_send_wr* bad;
      struct ibv_wc wc;
      if (ibv_post_send(c.qp, &wr, &bad) || rc_wait(&c, &wc)) return 1;
      if (value != 1000 + 5 * i) {
        fprintf(stderr, "add %" PRIu64 " saw %" PRIu64 ", expected %" PRIu64 "\n", i, value,
                1000 + 5 * i);
        return 1;
      }
    }
    printf("client: 10 fetch-and-adds of 5, the last saw %" PRIu64 "\n", value);
  }
  if (exchange_sync(sock)) return 1;
  if (server) printf("server: my counter is now %" PRIu64 "\n", value);
  close(sock);
  rc_close(&c);
  return server && value != 1050 ? 1 : 0;
}
