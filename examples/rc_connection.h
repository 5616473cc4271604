/* rc_connection.h: the verbs every RC program makes before its first work request.
 *
 *   ibv_get_device_list / ibv_open_device   find the RDMA device and open it
 *   ibv_alloc_pd                            a protection domain: MRs and QPs in it may meet
 *   ibv_reg_mr                              pin a buffer, get its lkey (local) and rkey (remote)
 *   ibv_create_cq                           where completions of work requests appear
 *   ibv_create_qp                           the queue pair: a send queue and a receive queue
 *   ibv_modify_qp  RESET -> INIT            port, P_Key, what the peer may do to our memory
 *                  INIT  -> RTR             "ready to receive": the peer's QPN, PSN and address
 *                  RTR   -> RTS             "ready to send": our PSN, timeouts and retries */
#ifndef RDMASCOPE_EXAMPLES_RC_CONNECTION_H
#define RDMASCOPE_EXAMPLES_RC_CONNECTION_H

#include <infiniband/verbs.h>

#include "exchange.h"

struct rc_connection {
  struct ibv_context* context;
  struct ibv_pd* pd;
  struct ibv_mr* mr;
  struct ibv_cq* cq;
  struct ibv_qp* qp;
  int gid_index;
  struct peer_info mine, theirs;
};

/* Opens `device` (NULL: the first one), registers `buf` with `access` and creates an RC QP in
 * INIT. Returns 0, or -1 after printing which verb failed and why. */
int rc_open(struct rc_connection* c, const char* device, int gid_index, void* buf, size_t len,
            int access);

/* Moves the QP to RTR and RTS towards the peer described in c->theirs. */
int rc_connect(struct rc_connection* c);

/* Waits for one completion and checks that it succeeded. */
int rc_wait(struct rc_connection* c, struct ibv_wc* wc);

void rc_close(struct rc_connection* c);

#endif
