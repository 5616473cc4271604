/* rc_connection.c: see rc_connection.h. */
#include "rc_connection.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int fail(const char* verb, int err) {
  fprintf(stderr, "%s failed: %s\n", verb, strerror(err ? err : errno));
  return -1;
}

int rc_open(struct rc_connection* c, const char* device, int gid_index, void* buf, size_t len,
            int access) {
  struct ibv_device** list = ibv_get_device_list(NULL);
  struct ibv_device* dev = NULL;
  memset(c, 0, sizeof *c);
  c->gid_index = gid_index;
  for (int i = 0; list && list[i] && !dev; ++i)
    if (!device || strcmp(ibv_get_device_name(list[i]), device) == 0) dev = list[i];
  if (!dev) {
    fprintf(stderr, "no RDMA device %s\n", device ? device : "at all");
    ibv_free_device_list(list);
    return -1;
  }
  c->context = ibv_open_device(dev);
  ibv_free_device_list(list);
  if (!c->context) return fail("ibv_open_device", 0);
  if (!(c->pd = ibv_alloc_pd(c->context))) return fail("ibv_alloc_pd", 0);
  /* The MR pins the pages and gives the NIC their translation. The lkey goes into our own work
   * requests' scatter/gather entries; the rkey is what the peer must quote to touch them. */
  if (!(c->mr = ibv_reg_mr(c->pd, buf, len, access))) return fail("ibv_reg_mr", 0);
  if (!(c->cq = ibv_create_cq(c->context, 16, NULL, NULL, 0))) return fail("ibv_create_cq", 0);
  struct ibv_qp_init_attr init = {
      .send_cq = c->cq,
      .recv_cq = c->cq,
      .cap = {.max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1, .max_recv_sge = 1},
      .qp_type = IBV_QPT_RC,
  };
  if (!(c->qp = ibv_create_qp(c->pd, &init))) return fail("ibv_create_qp", 0);
  struct ibv_qp_attr attr = {
      .qp_state = IBV_QPS_INIT,
      .pkey_index = 0,
      .port_num = 1,
      .qp_access_flags =
          access & (IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC),
  };
  int err = ibv_modify_qp(c->qp, &attr,
                          IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
  if (err) return fail("ibv_modify_qp(INIT)", err);
  /* What we tell the peer: our QPN, a random first PSN, our GID and the buffer. */
  srand48(time(NULL) ^ (long)c->qp->qp_num);
  c->mine.qpn = c->qp->qp_num;
  c->mine.psn = (uint32_t)lrand48() & 0xffffff;
  if (ibv_query_gid(c->context, 1, gid_index, &c->mine.gid)) return fail("ibv_query_gid", 0);
  c->mine.addr = (uintptr_t)buf;
  c->mine.rkey = c->mr->rkey;
  c->mine.length = (uint32_t)len;
  return 0;
}

int rc_connect(struct rc_connection* c) {
  /* RTR: on RoCE the address vector must carry a GRH (is_global) with the peer's GID. */
  struct ibv_qp_attr attr = {
      .qp_state = IBV_QPS_RTR,
      .path_mtu = IBV_MTU_1024,
      .dest_qp_num = c->theirs.qpn,
      .rq_psn = c->theirs.psn,
      .max_dest_rd_atomic = 1,
      .min_rnr_timer = 12,
      .ah_attr = {.is_global = 1,
                  .grh = {.dgid = c->theirs.gid,
                          .sgid_index = (uint8_t)c->gid_index,
                          .hop_limit = 1},
                  .port_num = 1},
  };
  int err = ibv_modify_qp(c->qp, &attr,
                          IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                              IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
  if (err) return fail("ibv_modify_qp(RTR)", err);
  /* RTS: timeout 14 is 4.096 us * 2^14 = 67 ms before a lost packet is sent again. */
  attr.qp_state = IBV_QPS_RTS;
  attr.sq_psn = c->mine.psn;
  attr.timeout = 14;
  attr.retry_cnt = 7;
  attr.rnr_retry = 7;
  attr.max_rd_atomic = 1;
  err = ibv_modify_qp(c->qp, &attr,
                      IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
                          IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC);
  return err ? fail("ibv_modify_qp(RTS)", err) : 0;
}

int rc_wait(struct rc_connection* c, struct ibv_wc* wc) {
  int n;
  /* Busy-poll: the completion appears once the NIC is done (for a READ: once the data is in
   * our buffer; for a WRITE: once the peer's NIC acknowledged it). */
  while ((n = ibv_poll_cq(c->cq, 1, wc)) == 0) {
  }
  if (n < 0) return fail("ibv_poll_cq", EIO);
  if (wc->status != IBV_WC_SUCCESS) {
    fprintf(stderr, "work request %llu completed with %s\n", (unsigned long long)wc->wr_id,
            ibv_wc_status_str(wc->status));
    return -1;
  }
  return 0;
}

void rc_close(struct rc_connection* c) {
  if (c->qp) ibv_destroy_qp(c->qp);
  if (c->cq) ibv_destroy_cq(c->cq);
  if (c->mr) ibv_dereg_mr(c->mr);
  if (c->pd) ibv_dealloc_pd(c->pd);
  if (c->context) ibv_close_device(c->context);
}
