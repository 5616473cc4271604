/* send_recv_cm: two-sided SEND/RECV, connected by the RDMA connection manager (rdma_cm).
 *
 * No TCP at all: rdma_cm resolves the peer's IP address to an RDMA address and path, and the
 * connection handshake (REQ, REP, RTU: management datagrams to QP 1) moves both QPs to RTS.
 * Then the client SENDs a message into a receive buffer the server posted beforehand (a SEND
 * without a posted RECV would get an RNR NAK), the server SENDs a reply, and the client
 * disconnects (DREQ, DREP).
 *
 *   send_recv_cm -s 10.9.0.1        # server: listen on its RDMA address
 *   send_recv_cm -c 10.9.0.1        # client: connect to it */
#include <netdb.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct rdma_event_channel* channel;

/* Waits for the next connection event and checks it is the one expected. */
static int expect(enum rdma_cm_event_type type, struct rdma_cm_id** id) {
  struct rdma_cm_event* event;
  if (rdma_get_cm_event(channel, &event)) {
    perror("rdma_get_cm_event");
    return -1;
  }
  int ok = event->event == type;
  if (!ok)
    fprintf(stderr, "expected %s, got %s (status %d)\n", rdma_event_str(type),
            rdma_event_str(event->event), event->status);
  if (id) *id = event->id;
  rdma_ack_cm_event(event);
  return ok ? 0 : -1;
}

static int post_recv(struct rdma_cm_id* id, struct ibv_mr* mr, char* buf, size_t len) {
  struct ibv_sge sge = {.addr = (uintptr_t)buf, .length = (uint32_t)len, .lkey = mr->lkey};
  struct ibv_recv_wr wr = {.wr_id = 1, .sg_list = &sge, .num_sge = 1}, *bad;
  return ibv_post_recv(id->qp, &wr, &bad);
}

static int send_and_wait(struct rdma_cm_id* id, struct ibv_mr* mr, char* buf, size_t len) {
  struct ibv_sge sge = {.addr = (uintptr_t)buf, .length = (uint32_t)len, .lkey = mr->lkey};
  struct ibv_send_wr wr = {.wr_id = 2,
                           .sg_list = &sge,
                           .num_sge = 1,
                           .opcode = IBV_WR_SEND,
                           .send_flags = IBV_SEND_SIGNALED},
                     *bad;
  struct ibv_wc wc;
  if (ibv_post_send(id->qp, &wr, &bad)) return -1;
  while (ibv_poll_cq(id->send_cq, 1, &wc) == 0) {
  }
  return wc.status == IBV_WC_SUCCESS ? 0 : -1;
}

static int wait_recv(struct rdma_cm_id* id) {
  struct ibv_wc wc;
  while (ibv_poll_cq(id->recv_cq, 1, &wc) == 0) {
  }
  if (wc.status != IBV_WC_SUCCESS) {
    fprintf(stderr, "receive completed with %s\n", ibv_wc_status_str(wc.status));
    return -1;
  }
  return (int)wc.byte_len;
}

int main(int argc, char** argv) {
  if (argc != 3 || (strcmp(argv[1], "-s") && strcmp(argv[1], "-c"))) {
    fprintf(stderr, "usage: %s -s|-c ADDRESS\n", argv[0]);
    return 2;
  }
  int server = strcmp(argv[1], "-s") == 0;
  struct addrinfo *ai, hints = {.ai_family = AF_INET, .ai_flags = AI_NUMERICHOST};
  if (getaddrinfo(argv[2], "18700", &hints, &ai)) {
    fprintf(stderr, "%s is not an IPv4 address\n", argv[2]);
    return 2;
  }
  struct rdma_cm_id *id, *conn;
  char recv_buf[256] = {0}, send_buf[256];
  /* QPs made by rdma_create_qp get their own CQs when none are given. */
  struct ibv_qp_init_attr qp_attr = {
      .cap = {.max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1},
      .qp_type = IBV_QPT_RC,
      .sq_sig_all = 0};
  channel = rdma_create_event_channel();
  if (!channel || rdma_create_id(channel, &id, NULL, RDMA_PS_TCP)) {
    perror("rdma_create_id");
    return 1;
  }
  if (server) {
    /* Listen: the next CONNECT_REQUEST brings a new id for that connection. */
    if (rdma_bind_addr(id, ai->ai_addr) || rdma_listen(id, 1)) {
      perror("rdma_bind_addr/rdma_listen");
      return 1;
    }
    printf("server: listening on %s port 18700\n", argv[2]);
    if (expect(RDMA_CM_EVENT_CONNECT_REQUEST, &conn)) return 1;
  } else {
    /* Resolve the address (which device and GID reach it), then the route. */
    if (rdma_resolve_addr(id, NULL, ai->ai_addr, 2000) ||
        expect(RDMA_CM_EVENT_ADDR_RESOLVED, NULL) || rdma_resolve_route(id, 2000) ||
        expect(RDMA_CM_EVENT_ROUTE_RESOLVED, NULL))
      return 1;
    conn = id;
  }
  if (rdma_create_qp(conn, NULL, &qp_attr)) {
    perror("rdma_create_qp");
    return 1;
  }
  struct ibv_mr* recv_mr = ibv_reg_mr(conn->pd, recv_buf, sizeof recv_buf, IBV_ACCESS_LOCAL_WRITE);
  struct ibv_mr* send_mr = ibv_reg_mr(conn->pd, send_buf, sizeof send_buf, 0);
  /* Post the receive before connecting: the peer may send as soon as it is established. */
  if (!recv_mr || !send_mr || post_recv(conn, recv_mr, recv_buf, sizeof recv_buf)) {
    perror("ibv_reg_mr/ibv_post_recv");
    return 1;
  }
  struct rdma_conn_param param = {
      .initiator_depth = 1, .responder_resources = 1, .retry_count = 7, .rnr_retry_count = 7};
  if (server ? rdma_accept(conn, &param) : rdma_connect(conn, &param)) {
    perror(server ? "rdma_accept" : "rdma_connect");
    return 1;
  }
  if (expect(RDMA_CM_EVENT_ESTABLISHED, NULL)) return 1;

  if (server) {
    int n = wait_recv(conn);
    if (n < 0) return 1;
    printf("server: received %d bytes: \"%s\"\n", n, recv_buf);
    snprintf(send_buf, sizeof send_buf, "hello back, QP 0x%x here", conn->qp->qp_num);
    if (send_and_wait(conn, send_mr, send_buf, strlen(send_buf) + 1)) return 1;
    if (expect(RDMA_CM_EVENT_DISCONNECTED, NULL)) return 1;
  } else {
    snprintf(send_buf, sizeof send_buf, "hello from QP 0x%x", conn->qp->qp_num);
    if (send_and_wait(conn, send_mr, send_buf, strlen(send_buf) + 1)) return 1;
    int n = wait_recv(conn);
    if (n < 0) return 1;
    printf("client: received %d bytes: \"%s\"\n", n, recv_buf);
    rdma_disconnect(conn);
    if (expect(RDMA_CM_EVENT_DISCONNECTED, NULL)) return 1;
  }
  rdma_destroy_qp(conn);
  ibv_dereg_mr(recv_mr);
  ibv_dereg_mr(send_mr);
  if (server) rdma_destroy_id(conn);
  rdma_destroy_id(id);
  rdma_destroy_event_channel(channel);
  freeaddrinfo(ai);
  return 0;
}
