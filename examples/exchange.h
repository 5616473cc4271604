/* exchange.h: swap a few bytes with the peer over TCP before any RDMA happens.
 *
 * Two RDMA programs must learn each other's queue pair number, first packet sequence number,
 * GID (the RoCE address) and, for one-sided operations, a buffer's address and remote key
 * before they can talk. Verbs have no call for that: programs use any channel they like.
 * These examples use one TCP connection, as rdma-core's ibv_rc_pingpong and perftest do. */
#ifndef RDMASCOPE_EXAMPLES_EXCHANGE_H
#define RDMASCOPE_EXAMPLES_EXCHANGE_H

#include <infiniband/verbs.h>
#include <stddef.h>
#include <stdint.h>

/* What each side tells the other. */
struct peer_info {
  uint32_t qpn;      /* queue pair number */
  uint32_t psn;      /* first packet sequence number it will send */
  union ibv_gid gid; /* its port's GID at the index both sides use */
  uint64_t addr;     /* a buffer the peer may access remotely (0: none) */
  uint32_t rkey;     /* the remote key of that buffer's memory region */
  uint32_t length;   /* its length */
};

/* Server (peer == NULL): waits for one client on `port`. Client: connects to peer:port.
 * Sends `mine`, receives `theirs`. Returns the connected socket (keep it for exchange_sync),
 * or -1 after printing why. */
int exchange(const char* peer, int port, const struct peer_info* mine, struct peer_info* theirs);

/* Both sides wait for each other: used to say "my RDMA is done, you may look now". */
int exchange_sync(int sock);

#endif
