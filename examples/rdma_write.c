/* rdma_write: one-sided RDMA WRITE.
 *
 * The server registers a buffer with IBV_ACCESS_REMOTE_WRITE and tells the client its address
 * and rkey. The client writes a message straight into that buffer: the server's CPU takes no
 * part (it posts no receive and gets no completion); only the client's send queue gets one,
 * when the server's NIC has acknowledged the data. The server learns that the data is there
 * through the TCP connection, then prints it.
 *
 *   rdma_write -g 1            # terminal 1 (server)
 *   rdma_write -g 1 SERVER     # terminal 2 (client)
 * On rdmascope's fabric: rdmascope-cli exec --host 1 -- rdma_write, and --host 2 with localhost. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "options.h"
#include "rc_connection.h"

int main(int argc, char** argv) {
  struct options o;
  struct rc_connection c;
  char buf[256] = {0};
  if (parse_options(argc, argv, &o)) return 2;
  int server = o.server == NULL;
  /* The server lets the peer write; the client only needs its own buffer readable by its NIC. */
  int access = IBV_ACCESS_LOCAL_WRITE | (server ? IBV_ACCESS_REMOTE_WRITE : 0);
  if (rc_open(&c, o.device, o.gid_index, buf, sizeof buf, access)) return 1;
  int sock = exchange(o.server, o.port, &c.mine, &c.theirs);
  if (sock < 0 || rc_connect(&c)) return 1;

  if (!server) {
    snprintf(buf, sizeof buf, "written by the client's NIC into the server's memory, rkey 0x%x",
             c.theirs.rkey);
    struct ibv_sge sge = {
        .addr = (uintptr_t)buf, .length = (uint32_t)strlen(buf) + 1, .lkey = c.mr->lkey};
    struct ibv_send_wr wr = {.wr_id = 1,
                             .sg_list = &sge,
                             .num_sge = 1,
                             .opcode = IBV_WR_RDMA_WRITE,
                             .send_flags = IBV_SEND_SIGNALED,
                             .wr.rdma = {.remote_addr = c.theirs.addr, .rkey = c.theirs.rkey}};
    struct ibv_send_wr* bad;
    struct ibv_wc wc;
    if (ibv_post_send(c.qp, &wr, &bad)) {
      perror("ibv_post_send");
      return 1;
    }
    if (rc_wait(&c, &wc)) return 1;
    printf("client: RDMA WRITE of %u bytes completed\n", sge.length);
  }
  /* "done": the server may now look at its buffer. */
  if (exchange_sync(sock)) return 1;
  if (server) printf("server: my buffer now holds: \"%s\"\n", buf);
  close(sock);
  rc_close(&c);
  return 0;
}
