<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AnomalyDetailText</name>
    <message>
        <source>%1 us</source>
        <translation>%1 微秒</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>none</source>
        <comment>retry cause</comment>
        <translation>无</translation>
    </message>
    <message>
        <source>NAK</source>
        <comment>retry cause</comment>
        <translation>NAK</translation>
    </message>
    <message>
        <source>RNR NAK</source>
        <comment>retry cause</comment>
        <translation>RNR NAK</translation>
    </message>
    <message>
        <source>timeout</source>
        <comment>retry cause</comment>
        <translation>超时</translation>
    </message>
    <message>
        <source>PSN sequence error</source>
        <translation>PSN 序列错误</translation>
    </message>
    <message>
        <source>invalid request</source>
        <translation>无效请求</translation>
    </message>
    <message>
        <source>remote access error</source>
        <translation>远端访问错误</translation>
    </message>
    <message>
        <source>remote operational error</source>
        <translation>远端操作错误</translation>
    </message>
    <message>
        <source>invalid RD request</source>
        <translation>无效 RD 请求</translation>
    </message>
    <message>
        <source>reserved NAK code</source>
        <translation>保留的 NAK 代码</translation>
    </message>
    <message>
        <source> (its PSN %1 not seen)</source>
        <translation>（其中 PSN %1 未被捕获到）</translation>
    </message>
    <message>
        <source> (its PSNs %1..%2 not seen)</source>
        <translation>（其中 PSN %1..%2 未被捕获到）</translation>
    </message>
    <message>
        <source>every priority (802.3x PAUSE)</source>
        <translation>所有优先级（802.3x PAUSE）</translation>
    </message>
    <message>
        <source>priority %1</source>
        <translation>优先级 %1</translation>
    </message>
    <message>
        <source>SYN</source>
        <translation>SYN</translation>
    </message>
    <message>
        <source>SYN-ACK</source>
        <translation>SYN-ACK</translation>
    </message>
    <message>
        <source>TCP seq %1 (1 byte)</source>
        <translation>TCP 序号 %1（1 字节）</translation>
    </message>
    <message>
        <source>TCP seq %1 (%2 bytes)</source>
        <translation>TCP 序号 %1（%2 字节）</translation>
    </message>
    <message>
        <source>expected PSN %1, got %2: 1 PSN missing</source>
        <translation>期望 PSN %1，收到 %2：缺失 1 个 PSN</translation>
    </message>
    <message>
        <source>expected PSN %1, got %2: %3 PSNs missing</source>
        <translation>期望 PSN %1，收到 %2：缺失 %3 个 PSN</translation>
    </message>
    <message>
        <source>READ response: %1</source>
        <translation>READ 响应：%1</translation>
    </message>
    <message>
        <source>PSN %1 resent (go-back-N after the %2 in frame %3)</source>
        <translation>PSN %1 重传（go-back-N，起因是帧 %3 的 %2）</translation>
    </message>
    <message>
        <source>PSN %1 resent (go-back-N after the %2)</source>
        <translation>PSN %1 重传（go-back-N，起因是 %2）</translation>
    </message>
    <message>
        <source>PSN %1 resent %2 after the RNR NAK in frame %3</source>
        <translation>PSN %1 在帧 %3 的 RNR NAK 之后 %2 重传</translation>
    </message>
    <message>
        <source>PSN %1 resent after the NAK in frame %2</source>
        <translation>PSN %1 在帧 %2 的 NAK 之后重传</translation>
    </message>
    <message>
        <source>PSN %1 is a copy of frame %2</source>
        <translation>PSN %1 是帧 %2 的副本</translation>
    </message>
    <message>
        <source>PSN %1 resent after a timeout</source>
        <translation>PSN %1 在超时后重传</translation>
    </message>
    <message>
        <source>PSN %1 sent again, not prompted by a NAK, after %2 of silence: the ACK timer fired</source>
        <translation>PSN %1 在静默 %2 之后再次发送，并非由 NAK 引起：ACK 定时器超时</translation>
    </message>
    <message>
        <source>READ re-requested from PSN %1 (its responses did not all reach the requester)</source>
        <translation>从 PSN %1 起重新请求 READ（其响应未全部到达请求方）</translation>
    </message>
    <message>
        <source>READ re-requested from PSN %1 (responses missing)</source>
        <translation>从 PSN %1 起重新请求 READ（响应缺失）</translation>
    </message>
    <message>
        <source>missing PSN %1 arrived (go-back-N after the %2)</source>
        <translation>缺失的 PSN %1 已到达（go-back-N，起因是 %2）</translation>
    </message>
    <message>
        <source>missing PSN %1 arrived after the NAK in frame %2</source>
        <translation>缺失的 PSN %1 在帧 %2 的 NAK 之后到达</translation>
    </message>
    <message>
        <source>PSN %1 arrived late, out of order</source>
        <translation>PSN %1 迟到，乱序</translation>
    </message>
    <message>
        <source>missing PSN %1 arrived after a timeout</source>
        <translation>缺失的 PSN %1 在超时后到达</translation>
    </message>
    <message>
        <source>receiver not ready at PSN %1, retry after %2 ms</source>
        <translation>接收方在 PSN %1 处未就绪，%2 毫秒后重试</translation>
    </message>
    <message>
        <source>%1 at PSN %2</source>
        <translation>PSN %2 处的 %1</translation>
    </message>
    <message>
        <source>atomic ACK for no outstanding atomic</source>
        <translation>没有未完成的原子操作，却收到原子操作 ACK</translation>
    </message>
    <message>
        <source>READ response PSN %1 for no outstanding READ</source>
        <translation>READ 响应 PSN %1 没有对应的未完成 READ</translation>
    </message>
    <message>
        <source>READ response PSN %1 received again</source>
        <translation>READ 响应 PSN %1 再次收到</translation>
    </message>
    <message>
        <source>invariant CRC wrong: the receiver drops this frame (PSN %1)</source>
        <translation>ICRC 错误：接收方丢弃此帧（PSN %1）</translation>
    </message>
    <message>
        <source>a message</source>
        <translation>某条消息</translation>
    </message>
    <message>
        <source>reserved reason</source>
        <translation>保留原因</translation>
    </message>
    <message>
        <source>CM ConnectReject of %1 from %2: %3 (%4)</source>
        <translation>来自 %2 的 CM ConnectReject 拒绝了 %1：%3（%4）</translation>
    </message>
    <message>
        <source>%1, port %2</source>
        <translation>%1，端口 %2</translation>
    </message>
    <message>
        <source>IP ECN congestion experienced</source>
        <translation>IP ECN 标记为经历拥塞（CE）</translation>
    </message>
    <message>
        <source>BTH FECN set: congestion on the way to the receiver</source>
        <translation>BTH FECN 置位：去往接收方的路径上有拥塞</translation>
    </message>
    <message>
        <source>BTH BECN set: congestion reported back to the sender</source>
        <translation>BTH BECN 置位：拥塞已回报给发送方</translation>
    </message>
    <message>
        <source>congestion notification to QP %1</source>
        <translation>发给 QP %1 的拥塞通知</translation>
    </message>
    <message>
        <source>%1 from PSN %2 never acknowledged</source>
        <translation>从 PSN %2 开始的 %1 始终未被确认</translation>
    </message>
    <message>
        <source>%1 from PSN %2 never fully sent</source>
        <translation>从 PSN %2 开始的 %1 始终未发送完</translation>
    </message>
    <message>
        <source>%1 held paused by %2 for %3 without a break (since frame %4): a receiver that does not drain, or a cyclic buffer dependency (deadlock)</source>
        <translation>%1 被 %2 连续暂停 %3（自帧 %4 起）：接收方无法排空，或存在循环缓冲依赖（死锁）</translation>
    </message>
    <message>
        <source>flow to %1 held %2 by PFC on %3 (from %4) although its receiver was not congested: head-of-line blocking behind the %5 paused flows to %6</source>
        <translation>发往 %1 的流在 %3 上被 PFC 暂停了 %2（来自 %4），但其接收方并未拥塞：被发往 %6 的 %5 条暂停流造成队头阻塞</translation>
    </message>
    <message>
        <source>CNP to QP %1 with no CE-marked packet of its flow in the capture since its previous CNP: marked after the capture point, or the capture missed it</source>
        <translation>发给 QP %1 的 CNP，自上一个 CNP 以来捕获中没有该流的 CE 标记包：标记发生在捕获点之后，或捕获漏掉了它</translation>
    </message>
    <message>
        <source>TCP seq %1: %2 bytes before it not seen</source>
        <translation>TCP 序号 %1：之前的 %2 字节未被捕获到</translation>
    </message>
    <message>
        <source>TCP seq %1 (%2 bytes) arrived out of order, %3 after later bytes</source>
        <translation>TCP 序号 %1（%2 字节）乱序到达，比其后的字节晚 %3</translation>
    </message>
    <message>
        <source>%1 is a copy of frame %2</source>
        <translation>%1 是帧 %2 的副本</translation>
    </message>
    <message>
        <source>%1 resent after %2 duplicate ACKs (fast retransmission)</source>
        <translation>%1 在 %2 个重复 ACK 之后重传（快速重传）</translation>
    </message>
    <message>
        <source>%1 resent though already acknowledged (spurious retransmission)</source>
        <translation>%1 已被确认却又重传（虚假重传）</translation>
    </message>
    <message>
        <source>%1 resent %2 after the newest bytes</source>
        <translation>%1 在最新字节之后 %2 重传</translation>
    </message>
    <message>
        <source>%1 sent again, not prompted by duplicate ACKs, %2 after the newest bytes: the retransmission timer fired</source>
        <translation>%1 在最新字节之后 %2 再次发送，并非由重复 ACK 引起：重传定时器超时</translation>
    </message>
    <message>
        <source>MPA Reply rejects the connection</source>
        <translation>MPA Reply 拒绝了连接</translation>
    </message>
    <message>
        <source>FPDU at TCP seq %1: MPA CRC32c wrong, the receiver drops it and ends the connection</source>
        <translation>TCP 序号 %1 处的 FPDU：MPA CRC32c 错误，接收方丢弃它并结束连接</translation>
    </message>
    <message>
        <source>Read Response to STag %1 for no outstanding Read</source>
        <translation>发往 STag %1 的 Read Response 没有对应的未完成 Read</translation>
    </message>
    <message>
        <source>Terminate</source>
        <translation>RDMAP Terminate 消息</translation>
    </message>
    <message>
        <source>Terminate (%1)</source>
        <translation>RDMAP Terminate 消息（%1）</translation>
    </message>
    <message>
        <source>%1 from TCP seq %2 never acknowledged</source>
        <translation>从 TCP 序号 %2 开始的 %1 始终未被确认</translation>
    </message>
    <message>
        <source>%1 from TCP seq %2 never answered</source>
        <translation>从 TCP 序号 %2 开始的 %1 始终未得到应答</translation>
    </message>
    <message>
        <source>%1 from TCP seq %2 never fully sent</source>
        <translation>从 TCP 序号 %2 开始的 %1 始终未发送完</translation>
    </message>
</context>
<context>
    <name>AnomalyKind</name>
    <message>
        <source>PSN gap</source>
        <translation>PSN 缺口</translation>
    </message>
    <message>
        <source>Retransmission</source>
        <translation>重传</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>重复帧</translation>
    </message>
    <message>
        <source>Gap filled</source>
        <translation>缺口已补上</translation>
    </message>
    <message>
        <source>Reordered</source>
        <translation>乱序到达</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>NAK</source>
        <translation>NAK</translation>
    </message>
    <message>
        <source>RNR NAK</source>
        <translation>RNR NAK</translation>
    </message>
    <message>
        <source>CNP</source>
        <translation>CNP</translation>
    </message>
    <message>
        <source>ECN CE mark</source>
        <translation>ECN CE 标记</translation>
    </message>
    <message>
        <source>FECN</source>
        <translation>FECN 标记</translation>
    </message>
    <message>
        <source>BECN</source>
        <translation>BECN 标记</translation>
    </message>
    <message>
        <source>ICRC failure</source>
        <translation>ICRC 校验失败</translation>
    </message>
    <message>
        <source>Repeated response</source>
        <translation>重复响应</translation>
    </message>
    <message>
        <source>Incomplete message</source>
        <translation>未完成的消息</translation>
    </message>
    <message>
        <source>TCP segment gap</source>
        <translation>TCP 报文段缺口</translation>
    </message>
    <message>
        <source>TCP out of order</source>
        <translation>TCP 乱序</translation>
    </message>
    <message>
        <source>MPA CRC failure</source>
        <translation>MPA CRC 校验失败</translation>
    </message>
    <message>
        <source>RDMAP Terminate</source>
        <translation>RDMAP 终止</translation>
    </message>
    <message>
        <source>MPA reject</source>
        <translation>MPA 拒绝</translation>
    </message>
    <message>
        <source>CM reject</source>
        <translation>CM 拒绝</translation>
    </message>
    <message>
        <source>Pause storm</source>
        <translation>暂停风暴</translation>
    </message>
    <message>
        <source>Victim flow</source>
        <translation>受害流</translation>
    </message>
    <message>
        <source>CNP without a mark</source>
        <translation>无标记的 CNP</translation>
    </message>
</context>
<context>
    <name>AnomalyStyle</name>
    <message>
        <source>NAK</source>
        <translation>NAK</translation>
    </message>
    <message>
        <source>RNR NAK</source>
        <translation>RNR NAK</translation>
    </message>
    <message>
        <source>Resend</source>
        <translation>重传</translation>
    </message>
    <message>
        <source>PSN gap</source>
        <translation>PSN 缺口</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>重复</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>ICRC failure</source>
        <translation>ICRC 校验失败</translation>
    </message>
    <message>
        <source>CNP</source>
        <translation>CNP</translation>
    </message>
    <message>
        <source>ECN mark</source>
        <translation>ECN 标记</translation>
    </message>
    <message>
        <source>Incomplete</source>
        <translation>不完整</translation>
    </message>
    <message>
        <source>Segment gap</source>
        <translation>报文段缺口</translation>
    </message>
    <message>
        <source>Out of order</source>
        <translation>乱序</translation>
    </message>
    <message>
        <source>CRC failure</source>
        <translation>CRC 校验失败</translation>
    </message>
    <message>
        <source>Terminate</source>
        <translation>Terminate 终止</translation>
    </message>
    <message>
        <source>MPA reject</source>
        <translation>MPA 拒绝</translation>
    </message>
    <message>
        <source>Pause storm</source>
        <translation>暂停风暴</translation>
    </message>
    <message>
        <source>Victim flow</source>
        <translation>受害流</translation>
    </message>
    <message>
        <source>CNP, no mark seen</source>
        <translation>CNP（未见标记）</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>其他</translation>
    </message>
</context>
<context>
    <name>CephMessenger</name>
    <message>
        <source>client</source>
        <translation>客户端</translation>
    </message>
    <message>
        <source>OSD</source>
        <translation>OSD</translation>
    </message>
    <message>
        <source>The TCP connection between client and OSD is established.</source>
        <translation>客户端与 OSD 之间的 TCP 连接已建立。</translation>
    </message>
    <message>
        <source>%1 writes its QP information (lid:qpn:psn:peer_qpn:gid) to the TCP socket: %2</source>
        <translation>%1 把自己的 QP 信息（lid:qpn:psn:peer_qpn:gid）写入 TCP 套接字：%2</translation>
    </message>
    <message>
        <source>%1 reads the peer&apos;s QP information: %2</source>
        <translation>%1 读到对端的 QP 信息：%2</translation>
    </message>
    <message>
        <source>%1 moves QP 0x%2 to RTR and RTS with the peer&apos;s QPN, PSN and GID.</source>
        <translation>%1 用对端的 QPN、PSN 和 GID 把 QP 0x%2 转到 RTR 和 RTS。</translation>
    </message>
    <message>
        <source>%1 posts %2 registered chunks (%3 bytes) to its shared receive queue.</source>
        <translation>%1 把 %2 个已注册块（%3 字节）投递到共享接收队列（SRQ）。</translation>
    </message>
    <message>
        <source>%1 sends message %2 (%3 bytes).</source>
        <translation>%1 发送消息 %2（%3 字节）。</translation>
    </message>
    <message>
        <source>%1 takes send chunk %2 from the pool for %3 bytes.</source>
        <translation>%1 从内存池取出发送块 %2，用于 %3 字节。</translation>
    </message>
    <message>
        <source>%1&apos;s CPU copies %2 bytes of the bufferlist into registered chunk %3.</source>
        <translation>%1 的 CPU 把 bufferlist 的 %2 字节复制到已注册块 %3。</translation>
    </message>
    <message>
        <source>The bufferlist already lives in registered chunk %1: no copy.</source>
        <translation>bufferlist 已经位于已注册块 %1 中：无需复制。</translation>
    </message>
    <message>
        <source>%1 posts %2 signalled SEND work request(s), %3 bytes, with one ibv_post_send.</source>
        <translation>%1 用一次 ibv_post_send 投递 %2 个带信号的 SEND 工作请求，共 %3 字节。</translation>
    </message>
    <message>
        <source>%1 polls the send completion of the fin.</source>
        <translation>%1 轮询到 fin 的发送完成。</translation>
    </message>
    <message>
        <source>%1 polls the send completion of chunk %2.</source>
        <translation>%1 轮询到块 %2 的发送完成。</translation>
    </message>
    <message>
        <source>Send chunk %1 goes back to the %2&apos;s pool.</source>
        <translation>发送块 %1 回到 %2 的内存池。</translation>
    </message>
    <message>
        <source>%1&apos;s send pool is empty: %2 bytes wait for send completions.</source>
        <translation>%1 的发送内存池已空：%2 字节等待发送完成。</translation>
    </message>
    <message>
        <source>%1 polls a receive completion: chunk %2 holds %3 bytes.</source>
        <translation>%1 轮询到一个接收完成：块 %2 中有 %3 字节。</translation>
    </message>
    <message>
        <source>%1&apos;s dispatcher wakes the connection&apos;s worker (eventfd write and read).</source>
        <translation>%1 的分发线程唤醒连接的工作线程（eventfd 写和读）。</translation>
    </message>
    <message>
        <source>%1&apos;s CPU copies %2 bytes out of chunk %3 to the reader.</source>
        <translation>%1 的 CPU 把 %2 字节从块 %3 复制给读取方。</translation>
    </message>
    <message>
        <source>%1 posts chunk %2 back to the shared receive queue.</source>
        <translation>%1 把块 %2 重新投递到共享接收队列。</translation>
    </message>
    <message>
        <source>%1 holds all %2 bytes of message %3.</source>
        <translation>%1 已收齐消息 %3 的全部 %2 字节。</translation>
    </message>
    <message>
        <source>%1 closes: a zero-length signalled SEND (the fin).</source>
        <translation>%1 关闭：发送一个零长度、带信号的 SEND（fin）。</translation>
    </message>
    <message>
        <source>%1 gets a zero-length receive completion: the peer closed.</source>
        <translation>%1 收到一个零长度的接收完成：对端已关闭。</translation>
    </message>
    <message>
        <source>%1 calls send() with %2 bytes.</source>
        <translation>%1 调用 send()，%2 字节。</translation>
    </message>
    <message>
        <source>%1&apos;s kernel copies %2 bytes into the socket send buffer.</source>
        <translation>%1 的内核把 %2 字节复制到套接字发送缓冲区。</translation>
    </message>
    <message>
        <source>%1 calls recv().</source>
        <translation>%1 调用 recv()。</translation>
    </message>
    <message>
        <source>%1&apos;s kernel copies %2 bytes from the socket to the reader.</source>
        <translation>%1 的内核把 %2 字节从套接字复制给读取方。</translation>
    </message>
    <message>
        <source>The TCP connection closes.</source>
        <translation>TCP 连接关闭。</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>Frames on the wire</source>
        <translation>线路上的帧</translation>
    </message>
    <message>
        <source>RoCEv2 frames</source>
        <translation>RoCEv2 帧</translation>
    </message>
    <message>
        <source>TCP frames</source>
        <translation>TCP 帧</translation>
    </message>
    <message>
        <source>Wire bytes</source>
        <translation>线路字节数</translation>
    </message>
    <message>
        <source>Message bytes delivered</source>
        <translation>送达的消息字节数</translation>
    </message>
    <message>
        <source>CPU copies (client / OSD)</source>
        <translation>CPU 复制次数（客户端 / OSD）</translation>
    </message>
    <message>
        <source>Bytes copied by the CPU (client / OSD)</source>
        <translation>CPU 复制的字节数（客户端 / OSD）</translation>
    </message>
    <message>
        <source>System calls (client / OSD)</source>
        <translation>系统调用（客户端 / OSD）</translation>
    </message>
    <message>
        <source>Context switches (client / OSD)</source>
        <translation>上下文切换（客户端 / OSD）</translation>
    </message>
    <message>
        <source>Interrupts (client / OSD)</source>
        <translation>中断（客户端 / OSD）</translation>
    </message>
    <message>
        <source>WQEs posted (client / OSD)</source>
        <translation>投递的 WQE（客户端 / OSD）</translation>
    </message>
    <message>
        <source>CQEs polled (client / OSD)</source>
        <translation>轮询的 CQE（客户端 / OSD）</translation>
    </message>
    <message>
        <source>CPU time, us (client / OSD)</source>
        <translation>CPU 时间，us（客户端 / OSD）</translation>
    </message>
    <message>
        <source>SEND work requests</source>
        <translation>SEND 工作请求</translation>
    </message>
    <message>
        <source>Receive chunks reposted</source>
        <translation>重新投递的接收块</translation>
    </message>
    <message>
        <source>Latency of message %1, us</source>
        <translation>消息 %1 的延迟，us</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>TCP FIN</source>
        <translation>TCP FIN</translation>
    </message>
    <message>
        <source>zero-length SEND</source>
        <translation>零长度 SEND</translation>
    </message>
    <message>
        <source>not seen</source>
        <translation>未见到</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>intact</source>
        <translation>完整</translation>
    </message>
    <message>
        <source>NOT intact</source>
        <translation>不完整</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>async+rdma (RDMA stack)</source>
        <translation>async+rdma（RDMA 栈）</translation>
    </message>
    <message>
        <source>async+posix (TCP stack)</source>
        <translation>async+posix（TCP 栈）</translation>
    </message>
    <message>
        <source>Time (us)</source>
        <translation>时间（us）</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>发生了什么</translation>
    </message>
</context>
<context>
    <name>CmNarration</name>
    <message>
        <source>rdma_cm (simulated): %1 listens on TCP port %2 (rdma_listen, RDMA_PS_TCP); %3 resolves its address and route (rdma_resolve_addr/route) and will send the REQ for QP &apos;%4&apos; in place of the out-of-band exchange</source>
        <translation>rdma_cm（模拟）：%1 在 TCP 端口 %2 上监听（rdma_listen，RDMA_PS_TCP）；%3 解析其地址与路由（rdma_resolve_addr/route），并将为 QP“%4”发送 REQ，取代带外交换</translation>
    </message>
    <message>
        <source>publishes the address and rkey of %1 in the private data of its CM %2 (rdma_cm; QPN, PSN and GID travel in the CM messages themselves)</source>
        <translation>在其 CM %2 的私有数据中公布 %1 的地址和 rkey（rdma_cm；QPN、PSN 和 GID 由 CM 消息本身携带）</translation>
    </message>
    <message>
        <source>publishes no region in the private data of its CM %1 (rdma_cm; QPN, PSN and GID travel in the CM messages themselves)</source>
        <translation>不在其 CM %1 的私有数据中公布任何内存区域（rdma_cm；QPN、PSN 和 GID 由 CM 消息本身携带）</translation>
    </message>
    <message>
        <source>-&gt; rq_psn %1: the starting PSN of the %2, which this side announced</source>
        <translation>-&gt; rq_psn %1：%2 的起始 PSN，由本端宣告</translation>
    </message>
    <message>
        <source>-&gt; sq_psn %1: the starting PSN of the %2 (Linux&apos;s CM gives each side its send PSN so)</source>
        <translation>-&gt; sq_psn %1：%2 的起始 PSN（Linux 的 CM 以此给每一端设定发送 PSN）</translation>
    </message>
    <message>
        <source>REQ received: %1 learns QPN %2 and PSN %3 (rdma_cm event CONNECT_REQUEST); its QP may now go INIT-&gt;RTR, after which rdma_accept sends the REP</source>
        <translation>收到 REQ：%1 得知 QPN %2 和 PSN %3（rdma_cm 事件 CONNECT_REQUEST）；其 QP 现在可以进入 INIT-&gt;RTR，之后 rdma_accept 发送 REP</translation>
    </message>
    <message>
        <source>REP received: %1 learns QPN %2 and PSN %3 (rdma_cm event CONNECT_RESPONSE); its QP may now go INIT-&gt;RTR-&gt;RTS, after which rdma_establish sends the RTU</source>
        <translation>收到 REP：%1 得知 QPN %2 和 PSN %3（rdma_cm 事件 CONNECT_RESPONSE）；其 QP 现在可以进入 INIT-&gt;RTR-&gt;RTS，之后 rdma_establish 发送 RTU</translation>
    </message>
    <message>
        <source>RTU received (rdma_cm event ESTABLISHED): %1&apos;s QP may now go RTR-&gt;RTS</source>
        <translation>收到 RTU（rdma_cm 事件 ESTABLISHED）：%1 的 QP 现在可以进入 RTR-&gt;RTS</translation>
    </message>
    <message>
        <source>DREQ received (rdma_cm event DISCONNECTED): the kernel answers with the DREP</source>
        <translation>收到 DREQ（rdma_cm 事件 DISCONNECTED）：内核以 DREP 应答</translation>
    </message>
    <message>
        <source>DREP received (rdma_cm event DISCONNECTED): the connection is closed</source>
        <translation>收到 DREP（rdma_cm 事件 DISCONNECTED）：连接已关闭</translation>
    </message>
    <message>
        <source>-&gt; the CM %1 from %2 was lost 16 times (the link loses what it sends): ib_cm gives up and rdma_cm reports the connection as unreachable</source>
        <translation>-&gt; 来自 %2 的 CM %1 丢失了 16 次（链路丢弃它发送的一切）：ib_cm 放弃，rdma_cm 报告连接不可达</translation>
    </message>
    <message>
        <source>-&gt; modify_qp uses the peer&apos;s values, but no exchange has delivered them yet</source>
        <translation>-&gt; modify_qp 要用对端的值，但还没有任何交换把它们送达</translation>
    </message>
    <message>
        <source>CM REQ (rdma_connect) from %1&apos;s GSI: service ID %2 (RDMA_PS_TCP, port %3), QPN %4, starting PSN %5, responder resources %6, initiator depth %7, retry %8, RNR retry %9, path MTU %10, private data: rdma_cm&apos;s IP header (source port %11) then %12 bytes &apos;RSC1&apos; (the published regions)</source>
        <translation>CM REQ（rdma_connect），来自 %1 的 GSI：服务 ID %2（RDMA_PS_TCP，端口 %3），QPN %4，起始 PSN %5，响应方资源 %6，发起方深度 %7，重试 %8，RNR 重试 %9，路径 MTU %10，私有数据：rdma_cm 的 IP 头（源端口 %11），随后是 %12 字节“RSC1”（公布的内存区域）</translation>
    </message>
    <message>
        <source>CM REP (rdma_accept) from %1, whose QP is now RTR: QPN %2, starting PSN %3, target ACK delay %4, private data: %5 bytes &apos;RSC1&apos; (the published regions)</source>
        <translation>CM REP（rdma_accept），来自 %1，其 QP 现为 RTR：QPN %2，起始 PSN %3，目标 ACK 延迟 %4，私有数据：%5 字节“RSC1”（公布的内存区域）</translation>
    </message>
    <message>
        <source>CM RTU (rdma_establish) from %1, whose QP is now RTS: the connection is ready to use</source>
        <translation>CM RTU（rdma_establish），来自 %1，其 QP 现为 RTS：连接已可使用</translation>
    </message>
    <message>
        <source>CM DREQ (rdma_disconnect) from %1 for remote QPN %2; the QPs keep their state: rdma_cm moves a QP to ERR only when it created it (rdma_create_qp), and the scenario&apos;s QPs are its own</source>
        <translation>CM DREQ（rdma_disconnect），来自 %1，针对远端 QPN %2；各 QP 保持原状态：rdma_cm 只把它自己创建的 QP（rdma_create_qp）转入 ERR，而本场景的 QP 是场景自己创建的</translation>
    </message>
    <message>
        <source>CM DREP from %1: disconnect acknowledged</source>
        <translation>CM DREP，来自 %1：断开已确认</translation>
    </message>
    <message>
        <source>no answer within the CM response timeout (4.096 us x 2^20 = 4.3 s): ib_cm sends the MAD again</source>
        <translation>在 CM 响应超时（4.096 us x 2^20 = 4.3 秒）内没有应答：ib_cm 重新发送该 MAD</translation>
    </message>
    <message>
        <source> (resent: attempt %1)</source>
        <translation>（重发：第 %1 次尝试）</translation>
    </message>
    <message>
        <source>; in the lab (two TCG guests) REQ-&gt;REP took ~60 ms and REP-&gt;RTU ~10 ms, almost all of it outside the wire: the kernel&apos;s ib_cm work queue, librdmacm&apos;s event channel (rdma_get_cm_event waking the application), the application&apos;s modify_qp and rdma_accept/rdma_establish calls; the simulator sends each message at once</source>
        <translation>；在实验环境（两台 TCG 虚拟机）中，REQ-&gt;REP 约需 60 ms，REP-&gt;RTU 约需 10 ms，几乎全部耗在线路之外：内核的 ib_cm 工作队列、librdmacm 的事件通道（rdma_get_cm_event 唤醒应用程序）、应用程序的 modify_qp 以及 rdma_accept/rdma_establish 调用；模拟器则立即发送每条消息</translation>
    </message>
    <message>
        <source> (rdma_cm: after the RTU arrives)</source>
        <translation>（rdma_cm：在 RTU 到达之后）</translation>
    </message>
    <message>
        <source>GSI (QP 1) got frame %1: %2</source>
        <translation>GSI（QP 1）收到帧 %1：%2</translation>
    </message>
</context>
<context>
    <name>CongestionLadderText</name>
    <message>
        <source>PFC XON P%1</source>
        <translation>PFC XON P%1</translation>
    </message>
    <message>
        <source>PFC PAUSE P%1 quanta %2</source>
        <translation>PFC PAUSE P%1 quanta %2</translation>
    </message>
    <message>
        <source>PFC (no priority)</source>
        <translation>PFC（无优先级）</translation>
    </message>
    <message>
        <source>EtherType 0x%1</source>
        <translation>EtherType 0x%1</translation>
    </message>
    <message>
        <source>IPv4</source>
        <translation>IPv4</translation>
    </message>
    <message>
        <source>opcode 0x%1</source>
        <translation>操作码 0x%1</translation>
    </message>
    <message>
        <source>CE  %1</source>
        <translation>CE  %1</translation>
    </message>
    <message>
        <source>%1 sent by %2 at %3 us</source>
        <translation>%1，由 %2 于 %3 us 发送</translation>
    </message>
</context>
<context>
    <name>CongestionStepText</name>
    <message>
        <source>a flow</source>
        <translation>某个流</translation>
    </message>
    <message>
        <source>flow %1 (%2 -&gt; %3)</source>
        <translation>流 %1（%2 -&gt; %3）</translation>
    </message>
    <message>
        <source>XOFF</source>
        <translation>XOFF</translation>
    </message>
    <message>
        <source>XON</source>
        <translation>XON</translation>
    </message>
    <message>
        <source>ECN mark</source>
        <translation>ECN 标记</translation>
    </message>
    <message>
        <source>CNP</source>
        <translation>CNP</translation>
    </message>
    <message>
        <source>rate cut</source>
        <translation>降速</translation>
    </message>
    <message>
        <source>drop</source>
        <translation>丢包</translation>
    </message>
    <message>
        <source>PFC deadlock</source>
        <translation>PFC 死锁</translation>
    </message>
    <message>
        <source>%1 us: XOFF at %2 priority %3: this ingress holds %4 KB, past the XOFF threshold of %5 KB of shared buffer, so %6 sends PAUSE (quanta %7) to %8, which must stop sending priority %3 on this link.</source>
        <translation>%1 us：%2 优先级 %3 发生 XOFF：该入端口已占用 %4 KB，超过共享缓冲区的 XOFF 阈值 %5 KB，因此 %6 向 %8 发送 PAUSE（quanta %7），%8 必须停止在这条链路上发送优先级 %3 的流量。</translation>
    </message>
    <message>
        <source>%1 us: XON at %2 priority %3: this ingress drained to %4 KB, below the XON level of %5 KB, so %6 sends PAUSE with quanta 0 to %7, which may send priority %3 again.</source>
        <translation>%1 us：%2 优先级 %3 发生 XON：该入端口已排空到 %4 KB，低于 XON 水位 %5 KB，因此 %6 向 %7 发送 quanta 为 0 的 PAUSE，%7 可以重新发送优先级 %3 的流量。</translation>
    </message>
    <message>
        <source>%1 us: ECN mark at egress %2 priority %3 (towards %4): the queue holds %5 KB, past Kmin (%6 KB), so a packet of %7 leaves with CE set (marking probability %8%).</source>
        <translation>%1 us：出端口 %2 优先级 %3（去往 %4）发生 ECN 标记：队列已有 %5 KB，超过 Kmin（%6 KB），因此 %7 的一个分组离开时被置上 CE（标记概率 %8%）。</translation>
    </message>
    <message>
        <source>%1 us: CNP from %2: a CE-marked packet of %3 reached %2&apos;s NIC (the notification point), which answers with a CNP to the sender %4 (at most one per QP every %5 us).</source>
        <translation>%1 us：%2 发出 CNP：%3 的一个带 CE 标记的分组到达 %2 的网卡（通知点），网卡向发送方 %4 回送 CNP（每个 QP 每 %5 us 最多一个）。</translation>
    </message>
    <message>
        <source>%1 us: rate cut at %2 for %3: the CNP made the reaction point cut the rate from %4 to %5 Gb/s (RC x (1 - alpha/2)) and raise alpha to %6.</source>
        <translation>%1 us：%2 对 %3 降速：CNP 使反应点把速率从 %4 降到 %5 Gb/s（RC x (1 - alpha/2)），并把 alpha 提高到 %6。</translation>
    </message>
    <message>
        <source>%1 us: drop at %2 priority %3: a frame of %4 bytes of %5 overflowed the lossless headroom: the PAUSE came too late for the link&apos;s round trip.</source>
        <translation>%1 us：%2 优先级 %3 发生丢包：%5 的一个 %4 字节的帧溢出了无损余量缓冲（headroom）：PAUSE 来得太晚，赶不上链路的往返时间。</translation>
    </message>
    <message>
        <source>%1 us: drop at %2 priority %3: a frame of %4 bytes of %5 found its priority&apos;s share of the buffer full (no PFC on a lossy priority).</source>
        <translation>%1 us：%2 优先级 %3 发生丢包：%5 的一个 %4 字节的帧发现该优先级的缓冲区份额已满（有损优先级上没有 PFC）。</translation>
    </message>
    <message>
        <source>%1 us: PFC deadlock: %2 paused queues wait on each other in a cycle through %3 priority %4; none of them can ever drain.</source>
        <translation>%1 us：PFC 死锁：%2 个被暂停的队列经由 %3 优先级 %4 形成环路、相互等待；它们都永远无法排空。</translation>
    </message>
    <message>
        <source>Before the run: %1 flows on %2 links. Step forward %3 us at a time, or to the next event (XOFF, ECN mark, CNP, rate cut, XON, drop).</source>
        <translation>运行之前：%2 条链路上共有 %1 个流。每次前进 %3 us，或前进到下一个事件（XOFF、ECN 标记、CNP、降速、XON、丢包）。</translation>
    </message>
    <message>
        <source>no congestion event</source>
        <translation>无拥塞事件</translation>
    </message>
    <message>
        <source>%1-%2 us: %3; every switch queue is empty.</source>
        <translation>%1-%2 us：%3；所有交换机队列均为空。</translation>
    </message>
    <message>
        <source>%1-%2 us: %3; the deepest switch queue is %4 with %5 KB.</source>
        <translation>%1-%2 us：%3；最深的交换机队列是 %4，有 %5 KB。</translation>
    </message>
    <message>
        <source>t = %1 us</source>
        <translation>t = %1 us</translation>
    </message>
    <message>
        <source>t = %1 us: %2 at %3</source>
        <translation>t = %1 us：%3 上的 %2</translation>
    </message>
</context>
<context>
    <name>DetailTreeModel</name>
    <message>
        <source>Note</source>
        <translation>注意</translation>
    </message>
    <message>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
</context>
<context>
    <name>EventExplainer</name>
    <message>
        <source>a packet</source>
        <translation>一个分组</translation>
    </message>
    <message>
        <source>opcode %1</source>
        <translation>操作码 %1</translation>
    </message>
    <message>
        <source>ACK</source>
        <translation>ACK</translation>
    </message>
    <message>
        <source>RNR NAK (receiver not ready, timer code %1)</source>
        <translation>RNR NAK（接收方未就绪，定时器代码 %1）</translation>
    </message>
    <message>
        <source>NAK: PSN sequence error</source>
        <translation>NAK：PSN 序列错误</translation>
    </message>
    <message>
        <source>NAK: invalid request</source>
        <translation>NAK：无效请求</translation>
    </message>
    <message>
        <source>NAK: remote access error</source>
        <translation>NAK：远端访问错误</translation>
    </message>
    <message>
        <source>NAK: remote operational error</source>
        <translation>NAK：远端操作错误</translation>
    </message>
    <message>
        <source>NAK code %1</source>
        <translation>NAK 代码 %1</translation>
    </message>
    <message>
        <source>reserved syndrome %1</source>
        <translation>保留的 syndrome %1</translation>
    </message>
    <message>
        <source>RNR NAK</source>
        <translation>RNR NAK</translation>
    </message>
    <message>
        <source>NAK</source>
        <translation>NAK</translation>
    </message>
    <message>
        <source>the QP went back to RESET: its queues are emptied without completions</source>
        <translation>QP 回到 RESET：其队列被清空，不产生完成事件</translation>
    </message>
    <message>
        <source>INIT sets the port, the P_Key index and the remote access flags; from now on receive work requests may be posted, but nothing is sent or accepted yet</source>
        <translation>INIT 设置端口、P_Key 索引和远端访问标志；此后即可提交接收工作请求，但还不发送也不接受任何分组</translation>
    </message>
    <message>
        <source>an INIT to INIT change of attributes</source>
        <translation>一次 INIT 到 INIT 的属性修改</translation>
    </message>
    <message>
        <source>RTR (ready to receive) gives the QP its peer: it now accepts packets from QP %1 and expects PSN %2 first</source>
        <translation>RTR（准备接收）为 QP 指定对端：它现在接受来自 QP %1 的分组，并期望首个 PSN 为 %2</translation>
    </message>
    <message>
        <source>RTS (ready to send) arms the requester: its first packet carries PSN %1, and the timeout and retry counts are set</source>
        <translation>RTS（准备发送）启用请求方：其首个分组携带 PSN %1，并设置超时和重试次数</translation>
    </message>
    <message>
        <source>an RTS to RTS change of attributes</source>
        <translation>一次 RTS 到 RTS 的属性修改</translation>
    </message>
    <message>
        <source>the send queue drains; new send WQEs wait until RTS</source>
        <translation>发送队列排空；新的发送 WQE 要等到 RTS 才执行</translation>
    </message>
    <message>
        <source>the application moved the QP to SQE</source>
        <translation>应用程序将 QP 转入 SQE</translation>
    </message>
    <message>
        <source>the application moved the QP to ERR</source>
        <translation>应用程序将 QP 转入 ERR</translation>
    </message>
    <message>
        <source>the completion error &quot;%1&quot; moves the QP to ERR</source>
        <translation>完成错误“%1”使 QP 转入 ERR</translation>
    </message>
    <message>
        <source>receive CQ %1 overflowed (depth %2)</source>
        <translation>接收 CQ %1 溢出（深度 %2）</translation>
    </message>
    <message>
        <source>a responder error (%1) moves the QP to ERR</source>
        <translation>响应方错误（%1）使 QP 转入 ERR</translation>
    </message>
    <message>
        <source>the responder failed</source>
        <translation>响应方出错</translation>
    </message>
    <message>
        <source>the QP is in ERR, so every outstanding work request is flushed: it completes with WR_FLUSH_ERR without being executed</source>
        <translation>QP 处于 ERR，因此所有未完成的工作请求都被冲刷（flush）：它们不被执行，直接以 WR_FLUSH_ERR 完成</translation>
    </message>
    <message>
        <source>the %1 for PSN %2 arrived</source>
        <translation>PSN %2 的 %1 已到达</translation>
    </message>
    <message>
        <source>the %1 for the later PSN %2 covers it too (ACKs are cumulative)</source>
        <translation>更靠后的 PSN %2 的 %1 也涵盖了它（ACK 是累积确认）</translation>
    </message>
    <message>
        <source>it was already done</source>
        <translation>它已经完成</translation>
    </message>
    <message>
        <source>its last packet left (UC and UD wait for no acknowledgement)</source>
        <translation>其最后一个分组已发出（UC 和 UD 不等待确认）</translation>
    </message>
    <message>
        <source>%1 PSN %2 ends the message</source>
        <translation>%1 PSN %2 结束了该消息</translation>
    </message>
    <message>
        <source>%1 bytes do not fit in the %2 left</source>
        <translation>%1 字节放不下：只剩 %2 字节</translation>
    </message>
    <message>
        <source>the scatter/gather list is exhausted</source>
        <translation>分散/聚集列表已用尽</translation>
    </message>
    <message>
        <source>lkey %1 names no memory region of the protection domain</source>
        <translation>lkey %1 不对应保护域中的任何内存区域</translation>
    </message>
    <message>
        <source>the MR of lkey %1 lacks IBV_ACCESS_LOCAL_WRITE</source>
        <translation>lkey %1 的 MR 缺少 IBV_ACCESS_LOCAL_WRITE</translation>
    </message>
    <message>
        <source>the range %1 + %2 bytes lies outside the MR at %3 (%4 bytes)</source>
        <translation>范围 %1 + %2 字节超出了位于 %3 的 MR（%4 字节）</translation>
    </message>
    <message>
        <source>the QP&apos;s access flags do not allow %1</source>
        <translation>QP 的访问标志不允许 %1</translation>
    </message>
    <message>
        <source>%1 carries %2 bytes at MTU %3</source>
        <translation>%1 携带 %2 字节，MTU 为 %3</translation>
    </message>
    <message>
        <source>the DMA length is above 2 GiB</source>
        <translation>DMA 长度超过 2 GiB</translation>
    </message>
    <message>
        <source>the memory region of rkey %1 was registered without the remote access this operation needs (access bits %2)</source>
        <translation>rkey %1 的内存区域注册时未授予此操作所需的远端访问权限（访问位 %2）</translation>
    </message>
    <message>
        <source>rkey %1 names no memory region of the QP&apos;s protection domain</source>
        <translation>rkey %1 不对应该 QP 所在保护域中的任何内存区域</translation>
    </message>
    <message>
        <source>%1 carries %2 bytes but %3 remain of the RDMA WRITE</source>
        <translation>%1 携带 %2 字节，但该 RDMA WRITE 只剩 %3 字节</translation>
    </message>
    <message>
        <source>the receive buffer cannot hold the 40-byte GRH</source>
        <translation>接收缓冲区容纳不下 40 字节的 GRH</translation>
    </message>
    <message>
        <source>%1 payload bytes do not fit the receive WQE (%2 left)</source>
        <translation>%1 字节有效载荷放不进接收 WQE（只剩 %2 字节）</translation>
    </message>
    <message>
        <source>the rkey %1 to invalidate names no MR</source>
        <translation>要失效的 rkey %1 不对应任何 MR</translation>
    </message>
    <message>
        <source>rkey %1 was invalidated</source>
        <translation>rkey %1 已失效</translation>
    </message>
    <message>
        <source>the atomic&apos;s address %1 is not 8-byte aligned</source>
        <translation>原子操作的地址 %1 未按 8 字节对齐</translation>
    </message>
    <message>
        <source>max_dest_rd_atomic is 0: the responder keeps no READ/atomic resources</source>
        <translation>max_dest_rd_atomic 为 0：响应方不为 READ/原子操作保留任何资源</translation>
    </message>
    <message>
        <source>%1 arrived out of sequence</source>
        <translation>%1 到达的顺序不对</translation>
    </message>
    <message>
        <source>the responder answers with %1 (%2)</source>
        <translation>响应方回复 %1（%2）</translation>
    </message>
    <message>
        <source>the responder replays a READ response from its saved state</source>
        <translation>响应方根据已保存的状态重放 READ 响应</translation>
    </message>
    <message>
        <source>the responder returns the data the READ asked for</source>
        <translation>响应方返回 READ 所请求的数据</translation>
    </message>
    <message>
        <source>the request asked for an acknowledgement (AckReq bit in the BTH)</source>
        <translation>该请求要求确认（BTH 中的 AckReq 位）</translation>
    </message>
    <message>
        <source>%1 PSN %2 is a duplicate: acknowledged again, not executed twice</source>
        <translation>%1 PSN %2 是重复分组：再次确认，但不会执行两次</translation>
    </message>
    <message>
        <source>PSN %1 arrived where %2 was expected: a packet in between was lost</source>
        <translation>期望 PSN %2 时却到达了 PSN %1：其间有分组丢失</translation>
    </message>
    <message>
        <source>no receive WQE is posted, so the message has nowhere to go</source>
        <translation>没有已提交的接收 WQE，消息无处可放</translation>
    </message>
    <message>
        <source>it carries the original value %1</source>
        <translation>它携带原值 %1</translation>
    </message>
    <message>
        <source>the requester built it for wr_id %1</source>
        <translation>请求方为 wr_id %1 构建了它</translation>
    </message>
    <message>
        <source>%1 bytes exceed the link MTU %2</source>
        <translation>%1 字节超过链路 MTU %2</translation>
    </message>
    <message>
        <source>the scenario asks the link to lose frame %1</source>
        <translation>场景要求链路丢弃帧 %1</translation>
    </message>
    <message>
        <source>the scenario asks the link to lose transmission %1 of PSN %2</source>
        <translation>场景要求链路丢弃 PSN %2 的第 %1 次传输</translation>
    </message>
    <message>
        <source>the scenario asks the link to lose PSN %1</source>
        <translation>场景要求链路丢弃 PSN %1</translation>
    </message>
    <message>
        <source>random loss (probability %1)</source>
        <translation>随机丢失（概率 %1）</translation>
    </message>
    <message>
        <source>the frame is truncated</source>
        <translation>帧被截断</translation>
    </message>
    <message>
        <source>it is not an RDMA frame</source>
        <translation>它不是 RDMA 帧</translation>
    </message>
    <message>
        <source>a header is malformed</source>
        <translation>某个首部格式错误</translation>
    </message>
    <message>
        <source>the ICRC does not match: the frame was corrupted</source>
        <translation>ICRC 不匹配：帧已损坏</translation>
    </message>
    <message>
        <source>the destination address is not this host&apos;s</source>
        <translation>目的地址不是本主机的地址</translation>
    </message>
    <message>
        <source>the destination LID is not this port&apos;s</source>
        <translation>目的 LID 不是本端口的 LID</translation>
    </message>
    <message>
        <source>the P_Key does not match the port&apos;s</source>
        <translation>P_Key 与端口的不匹配</translation>
    </message>
    <message>
        <source>QP 1 (the GSI) takes UD SEND ONLY packets only</source>
        <translation>QP 1（GSI）只接受 UD SEND ONLY 分组</translation>
    </message>
    <message>
        <source>the Q_Key is not the GSI&apos;s</source>
        <translation>Q_Key 不是 GSI 的 Q_Key</translation>
    </message>
    <message>
        <source>there is no QP %1 on this host</source>
        <translation>本主机上没有 QP %1</translation>
    </message>
    <message>
        <source>the opcode&apos;s transport does not match the %1 QP</source>
        <translation>操作码的传输类型与 %1 QP 不匹配</translation>
    </message>
    <message>
        <source>QP %1 is in %2 and cannot take it</source>
        <translation>QP %1 处于 %2，无法接收该分组</translation>
    </message>
    <message>
        <source>the source differs from the connected QP&apos;s peer</source>
        <translation>源地址与已连接 QP 的对端不同</translation>
    </message>
    <message>
        <source>the Q_Key %1 differs from the QP&apos;s %2</source>
        <translation>Q_Key %1 与 QP 的 Q_Key %2 不同</translation>
    </message>
    <message>
        <source>the socket send buffer is full, so send() sleeps</source>
        <translation>套接字发送缓冲区已满，send() 进入睡眠</translation>
    </message>
    <message>
        <source>nothing is readable, so recv() sleeps</source>
        <translation>没有可读数据，recv() 进入睡眠</translation>
    </message>
    <message>
        <source>from the application&apos;s buffer into the socket send buffer</source>
        <translation>从应用程序缓冲区拷贝到套接字发送缓冲区</translation>
    </message>
    <message>
        <source>from the socket receive buffer into the application&apos;s buffer</source>
        <translation>从套接字接收缓冲区拷贝到应用程序缓冲区</translation>
    </message>
    <message>
        <source>%1

Why: %2.</source>
        <translation>%1

原因：%2。</translation>
    </message>
    <message>
        <source>%1 QP %2 created</source>
        <translation>%1 QP %2 已创建</translation>
    </message>
    <message>
        <source>ibv_create_qp made queue pair %1 with a send queue of %2 and a receive queue of %3 work requests. A new QP starts in RESET: it can neither send nor receive until modify_qp takes it through INIT, RTR and RTS.</source>
        <translation>ibv_create_qp 创建了队列对 %1，其发送队列可容纳 %2 个工作请求，接收队列可容纳 %3 个。新建的 QP 处于 RESET 状态：在 modify_qp 将它依次转入 INIT、RTR 和 RTS 之前，它既不能发送也不能接收。</translation>
    </message>
    <message>
        <source>QP %1 destroyed</source>
        <translation>QP %1 已销毁</translation>
    </message>
    <message>
        <source>ibv_destroy_qp freed the queue pair %1.</source>
        <translation>ibv_destroy_qp 释放了队列对 %1。</translation>
    </message>
    <message>
        <source>QP %1 %2 → %3</source>
        <translation>QP %1 %2 → %3</translation>
    </message>
    <message>
        <source>Queue pair %1 left %2 and is now in %3.</source>
        <translation>队列对 %1 已离开 %2，现处于 %3。</translation>
    </message>
    <message>
        <source>

In ERR the QP sends nothing more; every work request still queued completes with a flush error.</source>
        <translation>

处于 ERR 的 QP 不再发送任何内容；仍在队列中的每个工作请求都以冲刷错误（flush error）完成。</translation>
    </message>
    <message>
        <source>ibv_post_send %1 wr_id %2 queued</source>
        <translation>ibv_post_send %1 wr_id %2 已入队</translation>
    </message>
    <message>
        <source>The application put a %1 work request (wr_id %2, %3 bytes) on the send queue and rang the doorbell. No system call and no copy: the NIC will read the data from registered memory itself (kernel bypass, zero-copy).</source>
        <translation>应用程序将一个 %1 工作请求（wr_id %2，%3 字节）放入发送队列并敲响门铃。没有系统调用，也没有拷贝：网卡将自行从已注册内存中读取数据（内核旁路、零拷贝）。</translation>
    </message>
    <message>
        <source> It is unsignaled: it will produce no completion entry when it succeeds.</source>
        <translation> 它是无信号（unsignaled）的：成功时不会产生完成条目。</translation>
    </message>
    <message>
        <source> Its data is inline: copied into the WQE now, so the buffer is free at once.</source>
        <translation> 其数据为内联（inline）：现在就被拷贝进 WQE，因此缓冲区立即可以复用。</translation>
    </message>
    <message>
        <source> It is fenced: it waits until earlier READs and atomics end.</source>
        <translation> 它带有栅栏（fence）：要等之前的 READ 和原子操作结束后才开始。</translation>
    </message>
    <message>
        <source>ibv_post_recv wr_id %1 queued</source>
        <translation>ibv_post_recv wr_id %1 已入队</translation>
    </message>
    <message>
        <source>The application posted a receive work request (wr_id %1) with %2 bytes of buffer. A SEND from the peer consumes one such WQE: two-sided operations need the receiver to prepare a buffer in advance.</source>
        <translation>应用程序提交了一个接收工作请求（wr_id %1），缓冲区为 %2 字节。对端的每个 SEND 会消耗一个这样的 WQE：双边操作需要接收方预先准备好缓冲区。</translation>
    </message>
    <message>
        <source>retransmit timer armed (%1 us)</source>
        <translation>重传定时器启动（%1 us）</translation>
    </message>
    <message>
        <source>A request is outstanding, so the requester starts its transport timer: if no ACK arrives within %1 us (4.096 us × 2^%2, the QP&apos;s timeout attribute) it resends from the oldest unacknowledged PSN.</source>
        <translation>有请求尚未得到确认，因此请求方启动传输定时器：若在 %1 us（4.096 us × 2^%2，即 QP 的 timeout 属性）内没有收到 ACK，就从最早未确认的 PSN 开始重发。</translation>
    </message>
    <message>
        <source>retransmit timer fired at PSN %1</source>
        <translation>重传定时器在 PSN %1 处超时</translation>
    </message>
    <message>
        <source>No acknowledgement for PSN %1 came within %2 us. The requester assumes the request or its ACK was lost and will send again from that PSN (go-back-N).</source>
        <translation>PSN %1 在 %2 us 内未得到确认。请求方认为请求或其 ACK 已丢失，将从该 PSN 开始重新发送（go-back-N）。</translation>
    </message>
    <message>
        <source>retransmit timer runs out</source>
        <translation>重传定时器超时</translation>
    </message>
    <message>
        <source>The replayed run makes the retransmit timer run out after request %1, as it did in the lab capture this scenario repeats.</source>
        <translation>回放的运行让重传定时器在第 %1 个请求之后超时，与本场景所复现的实验环境抓包中的情形一致。</translation>
    </message>
    <message>
        <source>RNR NAK: wait %1 us before resending PSN %2</source>
        <translation>RNR NAK：等待 %1 us 后重发 PSN %2</translation>
    </message>
    <message>
        <source>The responder had no receive WQE for PSN %1 and answered &quot;receiver not ready&quot;. The requester waits the %2 us the NAK asked for, then sends the request again. rnr_retry 7 means it retries forever.</source>
        <translation>响应方没有可用于 PSN %1 的接收 WQE，于是回复“接收方未就绪”。请求方按 NAK 的要求等待 %2 us，然后重新发送该请求。rnr_retry 为 7 表示无限重试。</translation>
    </message>
    <message>
        <source>The responder had no receive WQE for PSN %1 and answered &quot;receiver not ready&quot;. The requester waits the %2 us the NAK asked for, then sends the request again; %3 RNR retries are left.</source>
        <translation>响应方没有可用于 PSN %1 的接收 WQE，于是回复“接收方未就绪”。请求方按 NAK 的要求等待 %2 us，然后重新发送该请求；还剩 %3 次 RNR 重试。</translation>
    </message>
    <message>
        <source>RNR timer fired: resend from PSN %1</source>
        <translation>RNR 定时器到期：从 PSN %1 重发</translation>
    </message>
    <message>
        <source>The wait an RNR NAK asked for is over. The requester sends the request of PSN %1 again, hoping the receiver has posted a receive WQE meanwhile.</source>
        <translation>RNR NAK 要求的等待已结束。请求方再次发送 PSN %1 的请求，期望接收方在此期间已提交接收 WQE。</translation>
    </message>
    <message>
        <source>wr_id %1 waits at its fence</source>
        <translation>wr_id %1 在栅栏处等待</translation>
    </message>
    <message>
        <source>The work request is fenced: it starts only when every earlier READ and atomic has completed.</source>
        <translation>该工作请求带有栅栏（fence）：只有之前所有的 READ 和原子操作都完成后它才开始。</translation>
    </message>
    <message>
        <source>wr_id %1 waits for a READ/atomic slot</source>
        <translation>wr_id %1 等待 READ/原子操作槽位</translation>
    </message>
    <message>
        <source>All %1 READ/atomic slots (max_rd_atomic) are in use: the responder keeps state for each outstanding READ or atomic, so the requester may have only that many in flight. The WQE goes back from processing to pending and starts when a response frees a slot.</source>
        <translation>全部 %1 个 READ/原子操作槽位（max_rd_atomic）都已占用：响应方要为每个未完成的 READ 或原子操作保存状态，因此请求方同时在途的数量不能超过这个值。该 WQE 从 processing 退回 pending，等到某个响应释放出槽位后再开始。</translation>
    </message>
    <message>
        <source>UD wr_id %1 longer than the MTU</source>
        <translation>UD wr_id %1 超过 MTU</translation>
    </message>
    <message>
        <source>A UD message must fit in one packet; %1 bytes exceed the MTU %2. Nothing is sent and, as the specification says, the work request still completes successfully.</source>
        <translation>UD 消息必须能放进一个分组；%1 字节超过了 MTU %2。不发送任何内容，但按照规范，该工作请求仍然成功完成。</translation>
    </message>
    <message>
        <source>wr_id %1: local protection error</source>
        <translation>wr_id %1：本地保护错误</translation>
    </message>
    <message>
        <source>The NIC could not read the work request&apos;s local buffer.</source>
        <translation>网卡无法读取该工作请求的本地缓冲区。</translation>
    </message>
    <message>
        <source>requester starts wr_id %1 (%2) at PSN %3</source>
        <translation>请求方从 PSN %3 开始执行 wr_id %1（%2）</translation>
    </message>
    <message>
        <source>The NIC&apos;s requester took wr_id %1 from the send queue (its state goes from pending to processing): %2 bytes of %3, numbered from PSN %4. The CPU is not involved from here on (CPU offload).</source>
        <translation>网卡的请求方从发送队列取出 wr_id %1（其状态从 pending 变为 processing）：%3，共 %2 字节，PSN 从 %4 开始编号。从此刻起 CPU 不再参与（CPU 卸载）。</translation>
    </message>
    <message>
        <source>builds %1 PSN %2</source>
        <translation>构建 %1 PSN %2</translation>
    </message>
    <message>
        <source>The requester built packet PSN %1 of wr_id %2: %3 with %4 payload bytes.</source>
        <translation>请求方为 wr_id %2 构建了分组 PSN %1：%3，有效载荷 %4 字节。</translation>
    </message>
    <message>
        <source> It is the message&apos;s last packet, so it sets AckReq: the responder must acknowledge it.</source>
        <translation> 这是消息的最后一个分组，因此设置了 AckReq：响应方必须对它进行确认。</translation>
    </message>
    <message>
        <source> It sets AckReq to get a periodic acknowledgement in a long message.</source>
        <translation> 它设置了 AckReq，以便在长消息中获得周期性确认。</translation>
    </message>
    <message>
        <source> A READ request carries no data; it reserves PSNs %1 to %2 for the %3 response packet(s) the responder will send.</source>
        <translation> READ 请求不携带数据；它为响应方将要发送的 %3 个响应分组预留 PSN %1 到 %2。</translation>
    </message>
    <message>
        <source>go-back-N from PSN %1</source>
        <translation>从 PSN %1 开始 go-back-N</translation>
    </message>
    <message>
        <source>The requester rewinds to PSN %1 and will send every packet from there again, even those the responder may already have: RC keeps no per-packet selective acknowledgement.</source>
        <translation>请求方回退到 PSN %1，并从那里起重新发送每个分组，即使响应方可能已经收到其中一些：RC 没有逐分组的选择性确认。</translation>
    </message>
    <message>
        <source>send wr_id %1 complete</source>
        <translation>发送 wr_id %1 完成</translation>
    </message>
    <message>
        <source>send wr_id %1 failed</source>
        <translation>发送 wr_id %1 失败</translation>
    </message>
    <message>
        <source>The completer finished send work request %1; a completion entry follows.</source>
        <translation>完成器处理完发送工作请求 %1；随后会产生一个完成条目。</translation>
    </message>
    <message>
        <source>The completer finished send work request %1. It was unsignaled, so no completion entry is written.</source>
        <translation>完成器处理完发送工作请求 %1。它是无信号（unsignaled）的，因此不写入完成条目。</translation>
    </message>
    <message>
        <source>send CQ %1 full</source>
        <translation>发送 CQ %1 已满</translation>
    </message>
    <message>
        <source>The completion of wr_id %1 finds CQ %2 full and is lost.</source>
        <translation>wr_id %1 的完成事件发现 CQ %2 已满，因而丢失。</translation>
    </message>
    <message>
        <source>READ response for wr_id %1 cannot be stored</source>
        <translation>wr_id %1 的 READ 响应无法存储</translation>
    </message>
    <message>
        <source>The READ&apos;s data arrived but the local buffer refuses it.</source>
        <translation>READ 的数据已到达，但本地缓冲区拒绝接收。</translation>
    </message>
    <message>
        <source>retry after timeout from PSN %1</source>
        <translation>超时后从 PSN %1 重试</translation>
    </message>
    <message>
        <source>retry after NAK from PSN %1</source>
        <translation>收到 NAK 后从 PSN %1 重试</translation>
    </message>
    <message>
        <source>The retransmit timer ran out.</source>
        <translation>重传定时器超时。</translation>
    </message>
    <message>
        <source>The responder reported a PSN sequence error: it saw a gap.</source>
        <translation>响应方报告了 PSN 序列错误：它发现了缺口。</translation>
    </message>
    <message>
        <source> The requester resends from PSN %1 (retry_cnt 7: without limit).</source>
        <translation> 请求方从 PSN %1 开始重发（retry_cnt 为 7：不限次数）。</translation>
    </message>
    <message>
        <source> The requester resends from PSN %1; %2 retries are left before the work request fails.</source>
        <translation> 请求方从 PSN %1 开始重发；在该工作请求失败之前还剩 %2 次重试。</translation>
    </message>
    <message>
        <source>retries exhausted at PSN %1</source>
        <translation>在 PSN %1 处重试次数耗尽</translation>
    </message>
    <message>
        <source>The requester retried %1 times (retry_cnt) without an acknowledgement. It gives up: the work request completes with RETRY_EXC_ERR and the QP goes to ERR.</source>
        <translation>请求方已重试 %1 次（retry_cnt），仍未得到确认。它放弃了：该工作请求以 RETRY_EXC_ERR 完成，QP 转入 ERR。</translation>
    </message>
    <message>
        <source>receive wr_id %1 complete</source>
        <translation>接收 wr_id %1 完成</translation>
    </message>
    <message>
        <source>receive wr_id %1 failed</source>
        <translation>接收 wr_id %1 失败</translation>
    </message>
    <message>
        <source>The responder finished receive work request %1.</source>
        <translation>响应方处理完接收工作请求 %1。</translation>
    </message>
    <message>
        <source>malformed receive WQE</source>
        <translation>接收 WQE 格式错误</translation>
    </message>
    <message>
        <source>The receive WQE&apos;s buffer cannot be used.</source>
        <translation>该接收 WQE 的缓冲区无法使用。</translation>
    </message>
    <message>
        <source>drops %1 PSN %2 (out of sequence)</source>
        <translation>丢弃 %1 PSN %2（乱序）</translation>
    </message>
    <message>
        <source>The responder expects PSN %1 and has already sent a NAK for it. It silently drops every later packet until the requester goes back and resends PSN %1.</source>
        <translation>响应方期望 PSN %1，并且已为它发送过 NAK。在请求方回退并重发 PSN %1 之前，它会静默丢弃之后的每个分组。</translation>
    </message>
    <message>
        <source>UC drops %1 PSN %2</source>
        <translation>UC 丢弃 %1 PSN %2</translation>
    </message>
    <message>
        <source>UC has no acknowledgements and no resends. The responder expected PSN %1; a packet of this message was lost, so the rest of the message is thrown away until the next FIRST or ONLY packet.</source>
        <translation>UC 没有确认，也不重发。响应方期望的是 PSN %1；该消息的一个分组已丢失，因此消息的其余部分都被丢弃，直到下一个 FIRST 或 ONLY 分组。</translation>
    </message>
    <message>
        <source>UC message abandoned</source>
        <translation>UC 消息被放弃</translation>
    </message>
    <message>
        <source>A new message began before the previous one&apos;s LAST packet arrived: the unfinished message is abandoned and its receive WQE is used again.</source>
        <translation>上一条消息的 LAST 分组到达之前，新消息就开始了：未完成的消息被放弃，其接收 WQE 被重新使用。</translation>
    </message>
    <message>
        <source>drops %1 PSN %2: no receive WQE</source>
        <translation>丢弃 %1 PSN %2：没有接收 WQE</translation>
    </message>
    <message>
        <source>UC cannot ask the sender to wait (no RNR NAK): without a posted receive WQE the packet is dropped.</source>
        <translation>UC 无法让发送方等待（没有 RNR NAK）：没有已提交的接收 WQE 时，分组会被丢弃。</translation>
    </message>
    <message>
        <source>UC RDMA WRITE dropped</source>
        <translation>UC RDMA WRITE 被丢弃</translation>
    </message>
    <message>
        <source>The responder discards the UC WRITE.</source>
        <translation>响应方丢弃该 UC WRITE。</translation>
    </message>
    <message>
        <source>drops %1</source>
        <translation>丢弃 %1</translation>
    </message>
    <message>
        <source>The responder discards the packet (a class D error).</source>
        <translation>响应方丢弃该分组（D 类错误）。</translation>
    </message>
    <message>
        <source>duplicate READ PSN %1 dropped</source>
        <translation>重复的 READ PSN %1 被丢弃</translation>
    </message>
    <message>
        <source>The repeated READ request matches no saved responder state and is dropped.</source>
        <translation>重复的 READ 请求与响应方保存的任何状态都不匹配，因此被丢弃。</translation>
    </message>
    <message>
        <source>duplicate READ PSN %1 replayed</source>
        <translation>重复的 READ PSN %1 被重放</translation>
    </message>
    <message>
        <source>The READ arrived again (a resend). The responder answers it again from memory without treating it as a new request.</source>
        <translation>该 READ 再次到达（一次重发）。响应方再次从内存中读取数据作答，而不把它当作新请求。</translation>
    </message>
    <message>
        <source>duplicate atomic PSN %1 replayed</source>
        <translation>重复的原子操作 PSN %1 被重放</translation>
    </message>
    <message>
        <source>An atomic must not run twice. The responder sends the saved result %1 again and leaves memory alone.</source>
        <translation>原子操作不能执行两次。响应方再次发送已保存的结果 %1，不再改动内存。</translation>
    </message>
    <message>
        <source>NIC writes %1 bytes to memory</source>
        <translation>网卡向内存写入 %1 字节</translation>
    </message>
    <message>
        <source>The NIC wrote %1 bytes into the registered buffer at %2 by DMA. The CPU copied nothing: the data goes from the wire straight to the application&apos;s memory (zero-copy).</source>
        <translation>网卡通过 DMA 将 %1 字节写入位于 %2 的已注册缓冲区。CPU 没有拷贝任何数据：数据从线路直接进入应用程序的内存（零拷贝）。</translation>
    </message>
    <message>
        <source>NIC reads %1 bytes from memory</source>
        <translation>网卡从内存读取 %1 字节</translation>
    </message>
    <message>
        <source>The NIC read %1 bytes of the registered buffer at %2 by DMA to put them in packets. The CPU copied nothing (zero-copy).</source>
        <translation>网卡通过 DMA 从位于 %2 的已注册缓冲区读取 %1 字节，放入分组中。CPU 没有拷贝任何数据（零拷贝）。</translation>
    </message>
    <message>
        <source>NIC reads %1 bytes for a READ response</source>
        <translation>网卡为 READ 响应读取 %1 字节</translation>
    </message>
    <message>
        <source>The responder&apos;s NIC read %1 bytes at %2 that the peer asked for with RDMA READ. This host&apos;s CPU takes no part: READ is one-sided.</source>
        <translation>响应方的网卡读取了位于 %2 的 %1 字节，这是对端用 RDMA READ 请求的数据。本主机的 CPU 完全不参与：READ 是单边操作。</translation>
    </message>
    <message>
        <source>NIC writes %1 bytes of %2</source>
        <translation>网卡写入 %2 的 %1 字节</translation>
    </message>
    <message>
        <source>The NIC placed the %1 payload bytes of PSN %2 at %3, the address the request names (RETH address, checked against its rkey). The application on this host is not told: RDMA WRITE is one-sided.</source>
        <translation>网卡将 PSN %2 的 %1 字节有效载荷放到 %3，即请求中指定的地址（RETH 中的地址，已用其 rkey 校验）。本主机上的应用程序不会收到通知：RDMA WRITE 是单边操作。</translation>
    </message>
    <message>
        <source>%1 executed</source>
        <translation>%1 已执行</translation>
    </message>
    <message>
        <source>The NIC read %1 at %2 and wrote %3 in one indivisible step. The original value goes back to the requester in an ATOMIC ACKNOWLEDGE.</source>
        <translation>网卡在一个不可分割的步骤中读取了位于 %2 的值 %1 并写入 %3。原值通过 ATOMIC ACKNOWLEDGE 返回给请求方。</translation>
    </message>
    <message>
        <source>completion wr_id %1 %2 %3</source>
        <translation>完成事件 wr_id %1 %2 %3</translation>
    </message>
    <message>
        <source>A completion entry (wr_id %1, %2, status &quot;%3&quot;, %4 bytes) entered CQ %5. The application learns of it when it polls the CQ; until then it stays unpolled.</source>
        <translation>一个完成条目（wr_id %1，%2，状态“%3”，%4 字节）进入了 CQ %5。应用程序轮询该 CQ 时才会得知；在此之前它保持未轮询状态。</translation>
    </message>
    <message>
        <source> It carries the immediate value %1.</source>
        <translation> 它携带立即数 %1。</translation>
    </message>
    <message>
        <source>CQ %1 overflow</source>
        <translation>CQ %1 溢出</translation>
    </message>
    <message>
        <source>CQ %1 already holds %2 entries: a completion is lost and the CQ is in error.</source>
        <translation>CQ %1 已容纳 %2 个条目：一个完成事件丢失，CQ 进入错误状态。</translation>
    </message>
    <message>
        <source>frame %1 %2 PSN %3 → %4</source>
        <translation>帧 %1 %2 PSN %3 → %4</translation>
    </message>
    <message>
        <source>Frame %1 (%2 bytes) leaves for %3: %4 with PSN %5.</source>
        <translation>帧 %1（%2 字节）发往 %3：%4，PSN %5。</translation>
    </message>
    <message>
        <source>

Why: %1.</source>
        <translation>

原因：%1。</translation>
    </message>
    <message>
        <source>

READ response data flows from the responder (%1) back to the requester (%2).</source>
        <translation>

READ 响应数据从响应方（%1）流回请求方（%2）。</translation>
    </message>
    <message>
        <source>

It waited on the link since %1 us behind earlier frames.</source>
        <translation>

它从 %1 us 起就在链路上排队，等在先前的帧之后。</translation>
    </message>
    <message>
        <source>link loses frame %1 (PSN %2)</source>
        <translation>链路丢失帧 %1（PSN %2）</translation>
    </message>
    <message>
        <source>Frame %1 never reaches its destination.</source>
        <translation>帧 %1 始终未到达目的地。</translation>
    </message>
    <message>
        <source>

Nothing tells the sender directly: RC notices by a gap in PSNs or by its retransmit timer.</source>
        <translation>

没有任何机制直接通知发送方：RC 通过 PSN 缺口或重传定时器才会察觉。</translation>
    </message>
    <message>
        <source>link corrupts frame %1</source>
        <translation>链路损坏帧 %1</translation>
    </message>
    <message>
        <source>Byte %1 of frame %2 was changed on the wire (bit mask %3). The receiver&apos;s ICRC check will catch it.</source>
        <translation>帧 %2 的第 %1 字节在线路上被改动（位掩码 %3）。接收方的 ICRC 校验会发现它。</translation>
    </message>
    <message>
        <source>link delays frame %1</source>
        <translation>链路延迟帧 %1</translation>
    </message>
    <message>
        <source>Frame %1 is held %2 us, so frames behind it overtake it (reordering).</source>
        <translation>帧 %1 被滞留 %2 us，因此后面的帧超过了它（乱序）。</translation>
    </message>
    <message>
        <source>link duplicates frame %1</source>
        <translation>链路复制帧 %1</translation>
    </message>
    <message>
        <source>Frame %1 arrives twice; the responder must recognise the copy by its PSN.</source>
        <translation>帧 %1 到达了两次；响应方必须依据 PSN 识别出副本。</translation>
    </message>
    <message>
        <source>NIC discards frame %1</source>
        <translation>网卡丢弃帧 %1</translation>
    </message>
    <message>
        <source>The receiving NIC drops frame %1 silently, before any QP sees it.</source>
        <translation>接收网卡在任何 QP 看到帧 %1 之前就将其静默丢弃。</translation>
    </message>
    <message>
        <source>frame %1 %2 PSN %3 arrives</source>
        <translation>帧 %1 %2 PSN %3 到达</translation>
    </message>
    <message>
        <source>Frame %1 arrived for QP %2: %3 with PSN %4. Its ICRC is correct and its PSN is checked against the one the QP expects.</source>
        <translation>帧 %1 到达 QP %2：%3，PSN %4。其 ICRC 正确，其 PSN 将与 QP 期望的 PSN 进行比对。</translation>
    </message>
    <message>
        <source> AckReq is set: the responder will acknowledge it.</source>
        <translation> AckReq 已置位：响应方将对它进行确认。</translation>
    </message>
    <message>
        <source>refuses frame %1 %2 PSN %3</source>
        <translation>拒收帧 %1 %2 PSN %3</translation>
    </message>
    <message>
        <source>The receiver refuses frame %1 (%2, PSN %3).</source>
        <translation>接收方拒收帧 %1（%2，PSN %3）。</translation>
    </message>
    <message>
        <source>send() of %1 bytes</source>
        <translation>send() %1 字节</translation>
    </message>
    <message>
        <source>link loses frame %1</source>
        <translation>链路丢失帧 %1</translation>
    </message>
    <message>
        <source>checksum error: frame dropped</source>
        <translation>校验和错误：帧被丢弃</translation>
    </message>
    <message>
        <source>TCP connection established</source>
        <translation>TCP 连接已建立</translation>
    </message>
    <message>
        <source>TCP connection reset</source>
        <translation>TCP 连接被重置</translation>
    </message>
    <message>
        <source>TCP connection closed</source>
        <translation>TCP 连接已关闭</translation>
    </message>
    <message>
        <source>verbs call</source>
        <translation>verbs 调用</translation>
    </message>
    <message>
        <source>The application asks the NIC to move its QP to %1. The attribute mask names which fields of ibv_qp_attr the call sets:</source>
        <translation>应用程序请求网卡将其 QP 转入 %1。属性掩码指明了此次调用设置 ibv_qp_attr 的哪些字段：</translation>
    </message>
    <message>
        <source>ibv_alloc_pd</source>
        <translation>ibv_alloc_pd</translation>
    </message>
    <message>
        <source>The application allocates a protection domain. Memory regions and queue pairs created in the same PD may be used together; a key from another PD is refused.</source>
        <translation>应用程序分配一个保护域（PD）。在同一 PD 中创建的内存区域和队列对可以相互配合使用；来自其他 PD 的密钥会被拒绝。</translation>
    </message>
    <message>
        <source>ibv_reg_mr: %1 bytes, lkey %2, rkey %3</source>
        <translation>ibv_reg_mr：%1 字节，lkey %2，rkey %3</translation>
    </message>
    <message>
        <source>The application registers %1 bytes at %2. The kernel pins the pages and the NIC learns their translation, so it can reach them by DMA without the CPU. The NIC answers with two keys: the lkey (%3) that this host&apos;s own work requests quote, and the rkey (%4) the peer must quote to READ or WRITE here.</source>
        <translation>应用程序注册位于 %2 的 %1 字节。内核锁定（pin）这些页，网卡获知其地址转换，从而无需 CPU 即可通过 DMA 访问它们。网卡返回两个密钥：本主机自己的工作请求所引用的 lkey（%3），以及对端在此处执行 READ 或 WRITE 时必须提供的 rkey（%4）。</translation>
    </message>
    <message>
        <source>out-of-band exchange</source>
        <translation>带外交换</translation>
    </message>
    <message>
        <source>sends its QP&apos;s details to %1 over TCP</source>
        <translation>通过 TCP 将其 QP 信息发送给 %1</translation>
    </message>
    <message>
        <source>Before RDMA can flow, each side must learn the other&apos;s QP number, first PSN and address (GID or LID), and, for one-sided operations, the buffer&apos;s address and rkey. Here they travel over an ordinary TCP connection to %1, outside the RDMA fabric (rdma_cm could carry them instead).</source>
        <translation>在 RDMA 数据能够传输之前，双方都必须获知对方的 QP 编号、首个 PSN 和地址（GID 或 LID）；对于单边操作，还需获知缓冲区的地址和 rkey。这里它们通过一条到 %1 的普通 TCP 连接传递，位于 RDMA 网络之外（也可以改用 rdma_cm 传递）。</translation>
    </message>
    <message>
        <source>QPN %1, PSN %2, rkey %3 sent</source>
        <translation>已发送 QPN %1、PSN %2、rkey %3</translation>
    </message>
    <message>
        <source>The message carries QPN %1, first PSN %2, %3 %4, rkey %5 and buffer address %6. The peer puts the QPN and PSN into its RTR attributes, and the address and rkey into the RETH of every READ or WRITE it sends here.</source>
        <translation>该消息携带 QPN %1、首个 PSN %2、%3 %4、rkey %5 和缓冲区地址 %6。对端将 QPN 和 PSN 填入其 RTR 属性，并将地址和 rkey 填入它发往此处的每个 READ 或 WRITE 的 RETH 中。</translation>
    </message>
    <message>
        <source>ibv_post_send(%1, wr_id %2, %3 bytes)</source>
        <translation>ibv_post_send(%1, wr_id %2, %3 字节)</translation>
    </message>
    <message>
        <source>SEND is two-sided: the peer must have posted a receive WQE to take it.</source>
        <translation>SEND 是双边操作：对端必须已提交一个接收 WQE 来接收它。</translation>
    </message>
    <message>
        <source>RDMA WRITE is one-sided: it pushes data straight into the peer&apos;s registered memory at the address and rkey it was given; the peer&apos;s CPU takes no part.</source>
        <translation>RDMA WRITE 是单边操作：它按照获得的地址和 rkey，将数据直接推入对端的已注册内存；对端的 CPU 完全不参与。</translation>
    </message>
    <message>
        <source>RDMA READ is one-sided: it pulls data out of the peer&apos;s registered memory at the address and rkey it was given; the peer&apos;s CPU takes no part.</source>
        <translation>RDMA READ 是单边操作：它按照获得的地址和 rkey，从对端的已注册内存中直接取出数据；对端的 CPU 完全不参与。</translation>
    </message>
    <message>
        <source>An atomic operation reads, changes and writes 8 bytes of the peer&apos;s memory in one step and returns the original value.</source>
        <translation>原子操作在一个步骤中读取、修改并写回对端内存中的 8 字节，并返回原值。</translation>
    </message>
    <message>
        <source>The application posts a %1 work request to the send queue. %2</source>
        <translation>应用程序向发送队列提交一个 %1 工作请求。%2</translation>
    </message>
    <message>
        <source>ibv_post_recv(wr_id %1, %2 bytes)</source>
        <translation>ibv_post_recv(wr_id %1, %2 字节)</translation>
    </message>
    <message>
        <source>The application offers a %1-byte buffer to the receive queue. The next SEND from the peer lands there; without one the responder must answer RNR NAK.</source>
        <translation>应用程序向接收队列提供一个 %1 字节的缓冲区。对端的下一个 SEND 会落到这里；若没有缓冲区，响应方只能回复 RNR NAK。</translation>
    </message>
    <message>
        <source>ibv_poll_cq until %1 completion(s)</source>
        <translation>ibv_poll_cq 直到 %1 个完成事件</translation>
    </message>
    <message>
        <source>The application polls its completion queue in a loop until a completion arrives. Polling needs no interrupt and no system call, but the CPU is busy for as long as it polls.</source>
        <translation>应用程序循环轮询其完成队列，直到有完成事件到达。轮询不需要中断，也不需要系统调用，但在轮询期间 CPU 一直处于忙碌状态。</translation>
    </message>
    <message>
        <source>ibv_poll_cq returned %1</source>
        <translation>ibv_poll_cq 返回 %1</translation>
    </message>
    <message>
        <source>ibv_poll_cq returned %1 completions</source>
        <translation>ibv_poll_cq 返回 %1 个完成事件</translation>
    </message>
    <message>
        <source>The poll took the completion(s): %1. The entries are now marked polled in the completion queue; the application may reuse the buffers they name.</source>
        <translation>本次轮询取走了完成事件：%1。这些条目在完成队列中已被标记为已轮询；应用程序可以复用它们所指向的缓冲区。</translation>
    </message>
    <message>
        <source>scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>let %1 us pass</source>
        <translation>让 %1 us 过去</translation>
    </message>
    <message>
        <source>The scenario lets %1 us of simulated time pass before its next step, so that whatever is in flight (frames, timers) may happen first.</source>
        <translation>场景在执行下一步之前让模拟时间流逝 %1 us，使正在进行中的一切（帧、定时器）先发生。</translation>
    </message>
    <message>
        <source>compare %1 bytes of %2 and %3</source>
        <translation>比较 %2 和 %3 的 %1 字节</translation>
    </message>
    <message>
        <source>The scenario checks that the data arrived intact: it compares %1 bytes of %2 with %3.</source>
        <translation>场景检查数据是否完好到达：它比较 %2 与 %3 的 %1 字节。</translation>
    </message>
    <message>
        <source>%1 bytes %2</source>
        <translation>%1 字节：%2</translation>
    </message>
    <message>
        <source>Both buffers hold the same %1 bytes: the transfer delivered the data.</source>
        <translation>两个缓冲区中的 %1 字节完全相同：传输成功送达了数据。</translation>
    </message>
    <message>
        <source>The buffers differ: the transfer did not deliver the data.</source>
        <translation>两个缓冲区不同：传输未能送达数据。</translation>
    </message>
    <message>
        <source>note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>the requester started it and is sending its packets</source>
        <translation>请求方已开始执行它，正在发送其分组</translation>
    </message>
    <message>
        <source>all its packets have been sent; it now waits for the responder&apos;s acknowledgement (or READ response) before it can complete</source>
        <translation>其所有分组都已发出；它现在等待响应方的确认（或 READ 响应），之后才能完成</translation>
    </message>
    <message>
        <source>a retry rewound the requester: its packets are being sent again</source>
        <translation>一次重试使请求方回退：其分组正在重新发送</translation>
    </message>
    <message>
        <source>the requester rewound to it: it will be started again</source>
        <translation>请求方回退到了它：它将被重新开始</translation>
    </message>
    <message>
        <source>it is complete</source>
        <translation>它已完成</translation>
    </message>
    <message>
        <source>it failed</source>
        <translation>它失败了</translation>
    </message>
    <message>
        <source>its state changed</source>
        <translation>其状态已改变</translation>
    </message>
    <message>
        <source>

Send WQE wr_id %1: %2 → %3: %4.</source>
        <translation>

发送 WQE wr_id %1：%2 → %3：%4。</translation>
    </message>
    <message>
        <source>QP state</source>
        <translation>QP 状态</translation>
    </message>
    <message>
        <source>WQE posted</source>
        <translation>WQE 已提交</translation>
    </message>
    <message>
        <source>WQE started</source>
        <translation>WQE 开始执行</translation>
    </message>
    <message>
        <source>packet built</source>
        <translation>分组已构建</translation>
    </message>
    <message>
        <source>WQE completed</source>
        <translation>WQE 已完成</translation>
    </message>
    <message>
        <source>frame sent</source>
        <translation>帧已发送</translation>
    </message>
    <message>
        <source>frame received</source>
        <translation>帧已接收</translation>
    </message>
    <message>
        <source>frame dropped</source>
        <translation>帧被丢弃</translation>
    </message>
    <message>
        <source>completion</source>
        <translation>完成事件</translation>
    </message>
    <message>
        <source>DMA read</source>
        <translation>DMA 读</translation>
    </message>
    <message>
        <source>DMA write</source>
        <translation>DMA 写</translation>
    </message>
    <message>
        <source>timer armed</source>
        <translation>定时器启动</translation>
    </message>
    <message>
        <source>timer fired</source>
        <translation>定时器到期</translation>
    </message>
    <message>
        <source>requester</source>
        <translation>请求方</translation>
    </message>
    <message>
        <source>responder</source>
        <translation>响应方</translation>
    </message>
    <message>
        <source>event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>ibv_modify_qp → %1 (1 attribute)</source>
        <translation>ibv_modify_qp → %1（1 个属性）</translation>
    </message>
    <message>
        <source>ibv_modify_qp → %1 (%2 attributes)</source>
        <translation>ibv_modify_qp → %1（%2 个属性）</translation>
    </message>
    <message>
        <source>the new state</source>
        <translation>新状态</translation>
    </message>
    <message>
        <source>which remote operations (READ, WRITE, atomic) peers may perform</source>
        <translation>允许对端执行哪些远端操作（READ、WRITE、原子操作）</translation>
    </message>
    <message>
        <source>the partition key (P_Key) the QP&apos;s packets carry</source>
        <translation>QP 的分组所携带的分区键（P_Key）</translation>
    </message>
    <message>
        <source>the NIC port the QP uses</source>
        <translation>QP 使用的网卡端口</translation>
    </message>
    <message>
        <source>the Q_Key a UD datagram must carry</source>
        <translation>UD 数据报必须携带的 Q_Key</translation>
    </message>
    <message>
        <source>the address vector: the peer&apos;s GID or LID, where packets go</source>
        <translation>地址向量：对端的 GID 或 LID，即分组的去向</translation>
    </message>
    <message>
        <source>the largest payload per packet</source>
        <translation>每个分组的最大有效载荷</translation>
    </message>
    <message>
        <source>the first PSN expected from the peer</source>
        <translation>期望从对端收到的首个 PSN</translation>
    </message>
    <message>
        <source>the peer&apos;s QP number</source>
        <translation>对端的 QP 编号</translation>
    </message>
    <message>
        <source>how long a sender is told to wait after an RNR NAK</source>
        <translation>通过 RNR NAK 告知发送方需要等待多久</translation>
    </message>
    <message>
        <source>how many READs/atomics from the peer may be outstanding</source>
        <translation>来自对端的 READ/原子操作最多可以有多少个未完成</translation>
    </message>
    <message>
        <source>the retransmit timeout exponent</source>
        <translation>重传超时指数</translation>
    </message>
    <message>
        <source>how often to resend after a timeout</source>
        <translation>超时后重发多少次</translation>
    </message>
    <message>
        <source>how often to resend after an RNR NAK</source>
        <translation>收到 RNR NAK 后重发多少次</translation>
    </message>
    <message>
        <source>how many READs/atomics this QP may have outstanding</source>
        <translation>本 QP 最多可以有多少个未完成的 READ/原子操作</translation>
    </message>
    <message>
        <source>the first PSN this QP sends</source>
        <translation>本 QP 发送的首个 PSN</translation>
    </message>
    <message>
        <source>an attribute of ibv_qp_attr</source>
        <translation>ibv_qp_attr 的一个属性</translation>
    </message>
    <message>
        <source>link</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>%1 · %2: %3</source>
        <translation>%1 · %2：%3</translation>
    </message>
    <message>
        <source>wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>The RNIC completes work request %1 (%2, status &quot;%3&quot;, %4 bytes) and writes its completion entry to the CQ; the application learns of it when it polls. A send-side WRITE or SEND completes once TCP has the data acknowledged; a READ or RECV once the data is placed.</source>
        <translation>RNIC 完成工作请求 %1（%2，状态“%3”，%4 字节），并把它的完成项写入 CQ；应用程序轮询时才得知。发送端的 WRITE 或 SEND 在 TCP 确认数据后完成；READ 或 RECV 在数据放置后完成。</translation>
    </message>
    <message>
        <source>send() sleeps: socket send buffer full</source>
        <translation>send() 睡眠：套接字发送缓冲区已满</translation>
    </message>
    <message>
        <source>recv() sleeps: nothing to read</source>
        <translation>recv() 睡眠：没有可读的数据</translation>
    </message>
    <message>
        <source>The application blocks in the kernel and the CPU switches to other work (a context switch); it runs again only when woken.</source>
        <translation>应用程序阻塞在内核中，CPU 转去做其他工作（一次上下文切换）；只有被唤醒后它才继续运行。</translation>
    </message>
    <message>
        <source>CPU copies %1 bytes socket buffer → application</source>
        <translation>CPU 复制 %1 字节：套接字缓冲区 → 应用程序</translation>
    </message>
    <message>
        <source>CPU copies %1 bytes application → socket buffer</source>
        <translation>CPU 复制 %1 字节：应用程序 → 套接字缓冲区</translation>
    </message>
    <message>
        <source>The CPU copies %1 bytes itself, byte by byte through its caches: this is the copy RDMA avoids (zero-copy), and it costs CPU time proportional to the size.</source>
        <translation>CPU 亲自复制这 %1 字节，逐字节经过它的缓存：这正是 RDMA 避免的复制（零拷贝），其 CPU 时间与大小成正比。</translation>
    </message>
    <message>
        <source>The application calls send() for %1 bytes: a system call, so the CPU leaves user mode and enters the kernel, which will copy the bytes into the socket send buffer. RDMA posts work without entering the kernel (kernel bypass).</source>
        <translation>应用程序为 %1 字节调用 send()：这是一次系统调用，CPU 离开用户态进入内核，由内核把这些字节复制到套接字发送缓冲区。RDMA 提交工作时不进入内核（内核旁路）。</translation>
    </message>
    <message>
        <source>recv() called</source>
        <translation>调用 recv()</translation>
    </message>
    <message>
        <source>The application calls recv(): a system call into the kernel, which copies whatever the socket receive buffer holds into the application&apos;s buffer, or puts the caller to sleep when it holds nothing.</source>
        <translation>应用程序调用 recv()：一次进入内核的系统调用。内核把套接字接收缓冲区中已有的数据复制到应用程序的缓冲区；若其中没有数据，则让调用者睡眠。</translation>
    </message>
    <message>
        <source>CPU builds a TCP ACK</source>
        <translation>CPU 构造一个 TCP ACK</translation>
    </message>
    <message>
        <source>CPU runs TCP/IP for a %1-byte segment</source>
        <translation>CPU 为一个 %1 字节的段运行 TCP/IP</translation>
    </message>
    <message>
        <source>The kernel&apos;s TCP/IP code runs on the host CPU: it takes the next segment&apos;s bytes from the socket send buffer, builds the TCP, IP and Ethernet headers and rings the NIC&apos;s doorbell. An RDMA NIC does this itself (CPU offload).</source>
        <translation>内核的 TCP/IP 代码在主机 CPU 上运行：它从套接字发送缓冲区取出下一个段的字节，构造 TCP、IP 和以太网头部，并敲响 NIC 的门铃。RDMA 网卡自己完成这些工作（CPU 卸载）。</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>no payload</source>
        <translation>无载荷</translation>
    </message>
    <message>
        <source>frame %1 TCP seq %2 ack %3, %4</source>
        <translation>帧 %1 TCP seq %2 ack %3，%4</translation>
    </message>
    <message>
        <source>Frame %1 (%2 bytes) goes on the wire: a TCP segment with sequence number %3 and acknowledgement %4 carrying %5.</source>
        <translation>帧 %1（%2 字节）上线：一个序列号为 %3、确认号为 %4 的 TCP 段，携带 %5。</translation>
    </message>
    <message>
        <source>

SYN opens the connection: each side announces its initial sequence number.</source>
        <translation>

SYN 打开连接：双方各自宣布自己的初始序列号。</translation>
    </message>
    <message>
        <source>

FIN closes this direction of the connection.</source>
        <translation>

FIN 关闭连接的这一方向。</translation>
    </message>
    <message>
        <source>

A pure ACK: it tells the sender which bytes arrived, so that it may free them from its send buffer.</source>
        <translation>

纯 ACK：它告诉发送方哪些字节已到达，以便发送方把它们从发送缓冲区中释放。</translation>
    </message>
    <message>
        <source>

The RNIC built this segment itself: TCP runs in the NIC, and the payload is MPA-framed DDP (see the packet detail).</source>
        <translation>

这个段由 RNIC 自己构造：TCP 运行在网卡中，载荷是经 MPA 成帧的 DDP（见数据包详情）。</translation>
    </message>
    <message>
        <source>The link loses this TCP segment. The receiver will see a gap; TCP&apos;s retransmission (a timeout or three duplicate ACKs) sends it again.</source>
        <translation>链路丢失了这个 TCP 段。接收方会看到一个空洞；TCP 的重传（超时或三个重复 ACK）会再次发送它。</translation>
    </message>
    <message>
        <source>NIC interrupt for %1 frame(s)</source>
        <translation>NIC 为 %1 个帧触发中断</translation>
    </message>
    <message>
        <source>The NIC interrupts the CPU for %1 frame(s) it wrote into its receive ring. The CPU runs the interrupt handler and the softirq: it parses Ethernet, IP and TCP and queues the payload in the socket receive buffer.</source>
        <translation>NIC 为它写入接收环的 %1 个帧中断 CPU。CPU 运行中断处理程序和软中断：解析以太网、IP 和 TCP，并把载荷排入套接字接收缓冲区。</translation>
    </message>
    <message>
        <source>The frame fails its IPv4 or TCP checksum, so the kernel drops it; TCP resends it.</source>
        <translation>该帧的 IPv4 或 TCP 校验和错误，内核丢弃它；TCP 会重发。</translation>
    </message>
    <message>
        <source>send() woken: buffer has room</source>
        <translation>send() 被唤醒：缓冲区有空间了</translation>
    </message>
    <message>
        <source>ACKs freed a third of the socket send buffer: the sleeping writer is woken (a context switch) to copy more.</source>
        <translation>ACK 释放了套接字发送缓冲区的三分之一：睡眠的写者被唤醒（一次上下文切换）继续复制。</translation>
    </message>
    <message>
        <source>recv() woken: data arrived</source>
        <translation>recv() 被唤醒：数据到达</translation>
    </message>
    <message>
        <source>Data is readable in the socket receive buffer: the sleeping reader is woken (a context switch) and its recv() continues.</source>
        <translation>套接字接收缓冲区中有可读数据：睡眠的读者被唤醒（一次上下文切换），它的 recv() 继续执行。</translation>
    </message>
    <message>
        <source>The three-way handshake (SYN, SYN-ACK, ACK) is complete on this side: both sequence numbers are known and data may flow.</source>
        <translation>三次握手（SYN、SYN-ACK、ACK）在这一端完成：双方的序列号都已知，数据可以流动。</translation>
    </message>
    <message>
        <source>The connection was reset: both sides drop it at once.</source>
        <translation>连接被重置：双方立即放弃它。</translation>
    </message>
    <message>
        <source>Both directions have sent and acknowledged their FIN: the connection is closed.</source>
        <translation>两个方向都已发送并确认了各自的 FIN：连接已关闭。</translation>
    </message>
    <message>
        <source>socket buffers: %1 B to send, %2 B to read</source>
        <translation>套接字缓冲区：待发送 %1 B，待读取 %2 B</translation>
    </message>
    <message>
        <source>The copy is done: %1 more bytes wait in the socket send buffer.</source>
        <translation>复制完成：又有 %1 字节在套接字发送缓冲区中等待。</translation>
    </message>
    <message>
        <source>The copy is done: %1 bytes left the socket receive buffer for the application.</source>
        <translation>复制完成：%1 字节离开套接字接收缓冲区交给应用程序。</translation>
    </message>
    <message>
        <source>The kernel processed arriving segments (%1 payload bytes): data joins the receive buffer in order, and ACKs free acknowledged bytes from the send buffer.</source>
        <translation>内核处理了到达的段（%1 字节载荷）：数据按序进入接收缓冲区，ACK 把已确认的字节从发送缓冲区释放。</translation>
    </message>
    <message>
        <source>

Now the send buffer holds %1 bytes not yet acknowledged (%2 of them on the wire) and the receive buffer %3 bytes the application has not read.</source>
        <translation>

现在发送缓冲区中有 %1 字节尚未确认（其中 %2 字节在线路上），接收缓冲区中有 %3 字节应用程序尚未读取。</translation>
    </message>
    <message>
        <source>rdma_bind_addr to port %1</source>
        <translation>rdma_bind_addr 到端口 %1</translation>
    </message>
    <message>
        <source>The passive side creates a cm_id and binds it to TCP port %1 on its RNIC&apos;s address, as a server binds a socket. iWARP runs over TCP, so rdma_cm addresses connections by IP address and port.</source>
        <translation>被动端创建一个 cm_id，并把它绑定到其 RNIC 地址上的 TCP 端口 %1，就像服务器绑定套接字一样。iWARP 运行在 TCP 之上，因此 rdma_cm 用 IP 地址和端口来标识连接。</translation>
    </message>
    <message>
        <source>rdma_listen on port %1</source>
        <translation>在端口 %1 上 rdma_listen</translation>
    </message>
    <message>
        <source>The passive side listens on port %1: a connection request will arrive as the rdma_cm event CONNECT_REQUEST.</source>
        <translation>被动端在端口 %1 上监听：连接请求将以 rdma_cm 事件 CONNECT_REQUEST 的形式到达。</translation>
    </message>
    <message>
        <source>rdma_resolve_addr and rdma_resolve_route</source>
        <translation>rdma_resolve_addr 和 rdma_resolve_route</translation>
    </message>
    <message>
        <source>The active side resolves the peer&apos;s IP address to its own RNIC and a route to it (rdma_resolve_addr, then rdma_resolve_route): now it knows which device will carry the connection.</source>
        <translation>主动端把对端的 IP 地址解析到自己的 RNIC 以及一条到达对端的路由（先 rdma_resolve_addr，再 rdma_resolve_route）：现在它知道由哪块设备承载这个连接。</translation>
    </message>
    <message>
        <source>rdma_connect to port %1</source>
        <translation>rdma_connect 到端口 %1</translation>
    </message>
    <message>
        <source>The active side calls rdma_connect. On iWARP the RNIC opens a TCP connection to port %1 itself (SYN, SYN-ACK, ACK) and then sends the MPA Request; the application does not touch the socket.</source>
        <translation>主动端调用 rdma_connect。在 iWARP 上，RNIC 自己向端口 %1 打开 TCP 连接（SYN、SYN-ACK、ACK），然后发送 MPA Request；应用程序不接触套接字。</translation>
    </message>
    <message>
        <source>rdma_accept</source>
        <translation>rdma_accept</translation>
    </message>
    <message>
        <source>The passive side got CONNECT_REQUEST (the MPA Request arrived) and calls rdma_accept: its RNIC answers with the MPA Reply and moves the QP to RTS.</source>
        <translation>被动端收到 CONNECT_REQUEST（MPA Request 已到达）并调用 rdma_accept：它的 RNIC 以 MPA Reply 应答，并把 QP 转到 RTS。</translation>
    </message>
    <message>
        <source>rdma_cm event ESTABLISHED</source>
        <translation>rdma_cm 事件 ESTABLISHED</translation>
    </message>
    <message>
        <source>The MPA exchange is complete on this side: the connection is in full operation, and from now on the TCP byte stream carries only MPA FPDUs with DDP segments.</source>
        <translation>这一端的 MPA 交换已完成：连接进入完全运行状态，从此 TCP 字节流只承载装有 DDP 段的 MPA FPDU。</translation>
    </message>
    <message>
        <source>MPA Request</source>
        <translation>MPA Request</translation>
    </message>
    <message>
        <source>MPA Reply</source>
        <translation>MPA Reply</translation>
    </message>
    <message>
        <source>%1 sent</source>
        <translation>%1 已发送</translation>
    </message>
    <message>
        <source>%1 received</source>
        <translation>%1 已接收</translation>
    </message>
    <message>
        <source>The RNIC writes the %1 into the new TCP stream: the key &quot;MPA ID %2 Frame&quot;, the flags it wants (markers %3, CRC %4) and %5 bytes of private data.</source>
        <translation>RNIC 把 %1 写入新的 TCP 流：键“MPA ID %2 Frame”、它想要的标志（markers %3，CRC %4）以及 %5 字节的私有数据。</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>The RNIC reads the %1 from the TCP stream: the peer asks for markers %2 and CRC %3 and sends %4 bytes of private data.</source>
        <translation>RNIC 从 TCP 流中读出 %1：对端要求 markers %2、CRC %3，并发送了 %4 字节的私有数据。</translation>
    </message>
    <message>
        <source>

MPA (RFC 5044) makes TCP&apos;s byte stream carry framed messages: before any DDP segment, the two sides agree on markers (every 512 bytes) and a CRC32c per FPDU.</source>
        <translation>

MPA（RFC 5044）让 TCP 的字节流承载成帧的消息：在任何 DDP 段之前，双方先商定 markers（每 512 字节一个）以及每个 FPDU 的 CRC32c。</translation>
    </message>
    <message>
        <source> For the application this is the CONNECT_REQUEST event.</source>
        <translation>对应用程序而言，这就是 CONNECT_REQUEST 事件。</translation>
    </message>
    <message>
        <source>memory registered: STag %1</source>
        <translation>内存已注册：STag %1</translation>
    </message>
    <message>
        <source>ibv_reg_mr registers %1 bytes: the RNIC pins them and names them by the steering tag (STag) %2, iWARP&apos;s rkey. A peer that knows the STag may read or write the region directly, as the access flags allow.</source>
        <translation>ibv_reg_mr 注册 %1 字节：RNIC 锁定这些内存，并用引导标签（STag）%2 命名它们，即 iWARP 的 rkey。知道该 STag 的对端可以按访问标志的允许直接读写这块区域。</translation>
    </message>
    <message>
        <source>tagged: STag %1, offset %2</source>
        <translation>带标签：STag %1，偏移 %2</translation>
    </message>
    <message>
        <source>untagged: queue %1, MSN %2, offset %3</source>
        <translation>无标签：队列 %1，MSN %2，偏移 %3</translation>
    </message>
    <message>
        <source>DDP %1 segment framed, %2 bytes</source>
        <translation>DDP %1 段已成帧，%2 字节</translation>
    </message>
    <message>
        <source>DDP %1 segment placed, %2 bytes</source>
        <translation>DDP %1 段已放置，%2 字节</translation>
    </message>
    <message>
        <source>The RNIC cuts the message into a DDP segment (%1) with %2 bytes of payload%3 and wraps it in one MPA FPDU (length, pad, CRC32c); its TCP sends the FPDU in one segment. The CPU does none of it.</source>
        <translation>RNIC 把消息切成一个 DDP 段（%1），载荷 %2 字节%3，并把它装进一个 MPA FPDU（长度、填充、CRC32c）；它的 TCP 用一个段发送这个 FPDU。CPU 完全不参与。</translation>
    </message>
    <message>
        <source>, the message&apos;s last</source>
        <translation>，是该消息的最后一段</translation>
    </message>
    <message>
        <source>The RNIC checked the FPDU&apos;s CRC and reads the DDP header (%1): it writes the %2 bytes straight into registered memory by DMA, in any order, without a copy%3.</source>
        <translation>RNIC 校验了 FPDU 的 CRC 并读取 DDP 头部（%1）：它通过 DMA 把这 %2 字节直接写入已注册的内存，顺序任意，无需复制%3。</translation>
    </message>
    <message>
        <source>; it is the message&apos;s last</source>
        <translation>；这是该消息的最后一段</translation>
    </message>
    <message>
        <source>

Tagged placement: the STag and offset name the destination, as the rkey and address of a RETH do (one-sided).</source>
        <translation>

带标签放置：STag 和偏移指明目的地，就像 RETH 中的 rkey 和地址一样（单边）。</translation>
    </message>
    <message>
        <source>

Untagged placement: the segment fills the receive buffer posted first (two-sided), at the message offset.</source>
        <translation>

无标签放置：该段按消息偏移填入最先提交的接收缓冲区（双边）。</translation>
    </message>
    <message>
        <source>RDMAP Terminate sent</source>
        <translation>已发送 RDMAP Terminate</translation>
    </message>
    <message>
        <source>The RNIC found an error (layer %1, type %2, code %3) and sends a Terminate message: the stream is dead and every outstanding work request completes with a flush error.</source>
        <translation>RNIC 发现一个错误（层 %1，类型 %2，代码 %3），发送 Terminate 消息：该流已失效，所有未完成的工作请求都以刷新错误完成。</translation>
    </message>
    <message>
        <source>rdma_cm</source>
        <translation>rdma_cm</translation>
    </message>
    <message>
        <source>MPA</source>
        <translation>MPA</translation>
    </message>
    <message>
        <source>memory registration</source>
        <translation>内存注册</translation>
    </message>
    <message>
        <source>DDP placement</source>
        <translation>DDP 放置</translation>
    </message>
    <message>
        <source>RDMAP</source>
        <translation>RDMAP</translation>
    </message>
    <message>
        <source>system call</source>
        <translation>系统调用</translation>
    </message>
    <message>
        <source>CPU copy</source>
        <translation>CPU 复制</translation>
    </message>
    <message>
        <source>socket buffers</source>
        <translation>套接字缓冲区</translation>
    </message>
    <message>
        <source>scheduler</source>
        <translation>调度器</translation>
    </message>
    <message>
        <source>kernel TCP/IP</source>
        <translation>内核 TCP/IP</translation>
    </message>
    <message>
        <source>TCP connection</source>
        <translation>TCP 连接</translation>
    </message>
    <message>
        <source>Its RETH names %1 bytes at remote address %2 with rkey %3.</source>
        <translation>其 RETH 指明远端地址 %2 处的 %1 字节，rkey 为 %3。</translation>
    </message>
    <message>
        <source>The work request names %1&apos;s memory by remote address %2 and rkey %3, the values %1 published in the out-of-band exchange.</source>
        <translation>该工作请求以远端地址 %2 和 rkey %3 指明 %1 的内存，这些值是 %1 在带外交换中公布的。</translation>
    </message>
    <message>
        <source>No MR of %1 has rkey %2: its responder will refuse the request (remote access error).</source>
        <translation>%1 没有 rkey 为 %2 的 MR：其响应端将拒绝该请求（远端访问错误）。</translation>
    </message>
    <message>
        <source>That rkey is %1&apos;s MR #%2 %3: %4 bytes at %5, access %6.</source>
        <translation>该 rkey 属于 %1 的 MR #%2 %3：位于 %5 的 %4 字节，访问权限 %6。</translation>
    </message>
    <message>
        <source>The MR lacks %1, so %2&apos;s responder will refuse the request (remote access error).</source>
        <translation>该 MR 缺少 %1，因此 %2 的响应端将拒绝该请求（远端访问错误）。</translation>
    </message>
    <message>
        <source>The range does not lie inside the MR, so %1&apos;s responder will refuse the request (remote access error).</source>
        <translation>该范围不在 MR 之内，因此 %1 的响应端将拒绝该请求（远端访问错误）。</translation>
    </message>
    <message>
        <source>The range lies at offset %1 of it.</source>
        <translation>该范围位于其偏移 %1 处。</translation>
    </message>
    <message>
        <source>With the rdma_cm this side moves to RTS only once the RTU has arrived: the connection is then established on both sides.</source>
        <translation>使用 rdma_cm 时，本端要等 RTU 到达后才进入 RTS：此时连接在两端都已建立。</translation>
    </message>
    <message>
        <source>The work request names %1&apos;s memory by remote address %2 and rkey %3, the values %1 published in the private data of its CM message.</source>
        <translation>该工作请求以远端地址 %2 和 rkey %3 指明 %1 的内存，这些值是 %1 在其 CM 消息的私有数据中公布的。</translation>
    </message>
    <message>
        <source>frame %1: %2</source>
        <translation>帧 %1：%2</translation>
    </message>
    <message>
        <source>%1&apos;s NIC acknowledges the SENDs up to PSN %2 (an RC ACK). The NIC does this on its own: no CPU of either host takes part, and the client&apos;s send completions follow from it.</source>
        <translation>%1 的网卡确认 PSN %2 及之前的 SEND（一个 RC ACK）。这由网卡独自完成：两台主机的 CPU 都不参与，client 的发送完成由它而来。</translation>
    </message>
    <message>
        <source>%1&apos;s NIC sends %2 with PSN %3 and no payload: the messenger&apos;s close. RDMA has no FIN, so Ceph closes with a zero-length SEND; %4&apos;s NIC still consumes a chunk of its shared receive queue for it and reports a receive completion of 0 bytes.</source>
        <translation>%1 的网卡发送不带载荷的 %2，PSN 为 %3：这是 messenger 的关闭。RDMA 没有 FIN，所以 Ceph 用一个零长度 SEND 来关闭；%4 的网卡仍会为它消耗共享接收队列中的一个块，并报告一个 0 字节的接收完成。</translation>
    </message>
    <message>
        <source>%1&apos;s NIC sends %2 with PSN %3 to QP %4 of %5. It reads the payload by DMA from the registered send chunk the work request names; %5&apos;s NIC places it into the next chunk of its shared receive queue. Ceph&apos;s RDMA stack sends its byte stream two-sided, so the receiver must have chunks posted.</source>
        <translation>%1 的网卡向 %5 的 QP %4 发送 %2，PSN 为 %3。它通过 DMA 从工作请求指定的已注册发送块读取载荷；%5 的网卡把它放入其共享接收队列中的下一个块。Ceph 的 RDMA 栈以双边方式发送字节流，因此接收方必须预先投递好块。</translation>
    </message>
    <message>
        <source>A TCP segment of the side channel carries %1&apos;s QP information as Ceph formats it: a fixed 65-byte text &quot;lid:qpn:psn:peer_qpn:gid&quot; in hex, NUL included. The RDMA stack needs the peer&apos;s QPN, first PSN and GID before its QP can reach RTR, and it learns them here, over TCP, not over RDMA.</source>
        <translation>旁路通道的一个 TCP 报文段携带 %1 的 QP 信息，格式与 Ceph 相同：固定 65 字节的十六进制文本 &quot;lid:qpn:psn:peer_qpn:gid&quot;（含 NUL）。RDMA 栈的 QP 进入 RTR 之前需要对端的 QPN、起始 PSN 和 GID，它在这里通过 TCP（而不是 RDMA）得到它们。</translation>
    </message>
    <message>
        <source>A TCP segment of the RDMA stack&apos;s side channel, sent by %1&apos;s kernel: the connection on which both sides swap their QP information (and which closes with the messenger&apos;s socket). No message bytes travel on it.</source>
        <translation>RDMA 栈旁路通道的一个 TCP 报文段，由 %1 的内核发送：双方在这条连接上交换 QP 信息（它随 messenger 的套接字一起关闭）。消息字节不经过它。</translation>
    </message>
    <message>
        <source>A TCP segment sent by %1&apos;s kernel. The POSIX stack hands the message to the kernel with send(); the kernel&apos;s TCP/IP cuts the socket buffer into segments, and the receiving kernel queues them for recv().</source>
        <translation>由 %1 的内核发送的一个 TCP 报文段。POSIX 栈用 send() 把消息交给内核；内核的 TCP/IP 把套接字缓冲区切成报文段，接收方内核把它们排队等待 recv()。</translation>
    </message>
    <message>
        <source>%1 bytes placed at %2</source>
        <translation>%1 字节放置到 %2</translation>
    </message>
    <message>
        <source>%1&apos;s NIC writes the SEND&apos;s %2 bytes into the registered chunk it took from the shared receive queue, by DMA. No CPU takes part: %1&apos;s CPU learns of the data only from the receive completion it polls, and then copies it out.</source>
        <translation>%1 的网卡通过 DMA 把 SEND 的 %2 字节写入它从共享接收队列取出的已注册块。没有 CPU 参与：%1 的 CPU 只有在轮询到接收完成时才得知数据到达，然后再把它拷贝出来。</translation>
    </message>
    <message>
        <source>TCP connection to port 6800 established</source>
        <translation>到端口 6800 的 TCP 连接已建立</translation>
    </message>
    <message>
        <source>The client&apos;s messenger connected a TCP socket to the OSD. On the RDMA stack this socket is only a side channel: it carries the QP information, after which the messages travel as RDMA SENDs.</source>
        <translation>client 的 messenger 已用 TCP 套接字连接到 OSD。在 RDMA 栈上，这个套接字只是旁路通道：它传递 QP 信息，之后消息以 RDMA SEND 传输。</translation>
    </message>
    <message>
        <source>The client&apos;s messenger connected a TCP socket to the OSD (SYN, SYN-ACK, ACK). On the POSIX stack every message goes through it.</source>
        <translation>client 的 messenger 已用 TCP 套接字连接到 OSD（SYN、SYN-ACK、ACK）。在 POSIX 栈上，每条消息都经过它。</translation>
    </message>
    <message>
        <source>write() of the QP information</source>
        <translation>write() 写出 QP 信息</translation>
    </message>
    <message>
        <source>%1 writes &quot;%2&quot; to the side channel&apos;s socket: LID, QPN, first PSN, the peer&apos;s QPN (0 until it is known) and the GID, in hex. A system call, on %1&apos;s CPU.</source>
        <translation>%1 把 &quot;%2&quot; 写入旁路通道的套接字：LID、QPN、起始 PSN、对端的 QPN（未知时为 0）和 GID，均为十六进制。这是一次系统调用，在 %1 的 CPU 上执行。</translation>
    </message>
    <message>
        <source>read() of %1&apos;s QP information</source>
        <translation>read() 读取 %1 的 QP 信息</translation>
    </message>
    <message>
        <source>%1 reads &quot;%2&quot; from the socket and parses it: %3&apos;s QPN, first PSN and GID go into its QP&apos;s RTR attributes. A system call, on %1&apos;s CPU.</source>
        <translation>%1 从套接字读到 &quot;%2&quot; 并解析：%3 的 QPN、起始 PSN 和 GID 填入其 QP 的 RTR 属性。这是一次系统调用，在 %1 的 CPU 上执行。</translation>
    </message>
    <message>
        <source>QP %1 to RTR and RTS</source>
        <translation>QP %1 进入 RTR 和 RTS</translation>
    </message>
    <message>
        <source>%1 calls ibv_modify_qp twice: RTR with %2&apos;s QPN, PSN and GID (path MTU 1024), then RTS with its own PSN (timeout 14, retry 7, RNR retry 7). From now on its NIC may send and accept SENDs.</source>
        <translation>%1 调用两次 ibv_modify_qp：先用 %2 的 QPN、PSN 和 GID 进入 RTR（路径 MTU 1024），再用自己的 PSN 进入 RTS（timeout 14、retry 7、RNR retry 7）。此后它的网卡可以发送和接收 SEND。</translation>
    </message>
    <message>
        <source>%1 chunks posted to the SRQ</source>
        <translation>%1 个块投递到 SRQ</translation>
    </message>
    <message>
        <source>%1 posts %2 registered chunks of %3 KiB from its memory pool to the shared receive queue that all its QPs draw from. A SEND can only land in a posted chunk, so the receive side fills the queue before any QP connects.</source>
        <translation>%1 从其内存池中取出 %2 个 %3 KiB 的已注册块，投递到其所有 QP 共用的共享接收队列。SEND 只能落入已投递的块，所以接收方在任何 QP 连接之前先填满该队列。</translation>
    </message>
    <message>
        <source>message %1 submitted (%2 bytes)</source>
        <translation>消息 %1 已提交（%2 字节）</translation>
    </message>
    <message>
        <source>%1&apos;s messenger is given message %2, %3 bytes in a bufferlist, to send to %4.</source>
        <translation>%1 的 messenger 收到消息 %2（bufferlist 中的 %3 字节），要发送给 %4。</translation>
    </message>
    <message>
        <source>send chunk %1 taken for %2 bytes</source>
        <translation>取出发送块 %1 用于 %2 字节</translation>
    </message>
    <message>
        <source>%1 takes chunk %2 from its pool of registered send chunks for the next %3 bytes of the stream. Only registered memory can be the source of a SEND.</source>
        <translation>%1 从其已注册发送块池中取出块 %2，用于字节流接下来的 %3 字节。只有已注册的内存才能作为 SEND 的来源。</translation>
    </message>
    <message>
        <source>%1 bytes copied into chunk %2</source>
        <translation>%1 字节拷贝进块 %2</translation>
    </message>
    <message>
        <source>%1&apos;s CPU copies %2 bytes of the bufferlist into registered chunk %3: the bufferlist lives in ordinary memory the NIC may not read, so the RDMA stack copies it once on the sending side.</source>
        <translation>%1 的 CPU 把 bufferlist 的 %2 字节拷贝进已注册块 %3：bufferlist 位于网卡不能读取的普通内存中，所以 RDMA 栈在发送端拷贝一次。</translation>
    </message>
    <message>
        <source>chunk %1 already holds the bytes</source>
        <translation>块 %1 已经持有这些字节</translation>
    </message>
    <message>
        <source>The bufferlist was built inside registered chunk %1, so %2 sends its %3 bytes from where they lie: no copy.</source>
        <translation>bufferlist 就构建在已注册块 %1 中，所以 %2 直接从原处发送这 %3 字节：无需拷贝。</translation>
    </message>
    <message>
        <source>ibv_post_send of %1 signalled SEND(s)</source>
        <translation>ibv_post_send 投递 %1 个 signalled SEND</translation>
    </message>
    <message>
        <source>%1&apos;s CPU posts %2 SEND work requests (%3 bytes) with one ibv_post_send, each signalled so that its chunk can go back to the pool once it completes. A doorbell, no system call: the NIC does the rest.</source>
        <translation>%1 的 CPU 用一次 ibv_post_send 投递 %2 个 SEND 工作请求（%3 字节），每个都带 signalled 标志，以便完成后其块能回到池中。只需敲一次门铃，没有系统调用：其余由网卡完成。</translation>
    </message>
    <message>
        <source>send completion of the fin</source>
        <translation>fin 的发送完成</translation>
    </message>
    <message>
        <source>send completion of chunk %1</source>
        <translation>块 %1 的发送完成</translation>
    </message>
    <message>
        <source>%1&apos;s dispatcher polls a send completion from its CQ: %2 acknowledged the SEND, so its chunk is free again.</source>
        <translation>%1 的 dispatcher 从其 CQ 轮询到一个发送完成：%2 已确认该 SEND，因此它的块重新空闲。</translation>
    </message>
    <message>
        <source>send chunk %1 back in the pool</source>
        <translation>发送块 %1 回到池中</translation>
    </message>
    <message>
        <source>Chunk %1 returns to %2&apos;s send pool for the next message.</source>
        <translation>块 %1 回到 %2 的发送池，供下一条消息使用。</translation>
    </message>
    <message>
        <source>send pool empty, %1 bytes wait</source>
        <translation>发送池已空，%1 字节等待中</translation>
    </message>
    <message>
        <source>%1 has no free send chunk: the remaining %2 bytes wait until send completions return chunks.</source>
        <translation>%1 没有空闲的发送块：剩余的 %2 字节要等发送完成归还块。</translation>
    </message>
    <message>
        <source>receive completion: chunk %1, %2 bytes</source>
        <translation>接收完成：块 %1，%2 字节</translation>
    </message>
    <message>
        <source>%1&apos;s dispatcher polls a receive completion: its NIC has placed a SEND of %2 bytes into chunk %3 of the shared receive queue. The chunk stays out of the queue until the reader has copied it.</source>
        <translation>%1 的 dispatcher 轮询到一个接收完成：其网卡已把一个 %2 字节的 SEND 放入共享接收队列的块 %3。在读取方拷贝完之前，该块不在队列中。</translation>
    </message>
    <message>
        <source>connection woken through an eventfd</source>
        <translation>通过 eventfd 唤醒连接</translation>
    </message>
    <message>
        <source>%1&apos;s dispatcher thread writes the connection&apos;s eventfd and the worker thread reads it: two system calls that hand the received chunks over.</source>
        <translation>%1 的 dispatcher 线程写连接的 eventfd，worker 线程读取它：用两次系统调用把收到的块交接过去。</translation>
    </message>
    <message>
        <source>%1 bytes copied out of chunk %2</source>
        <translation>从块 %2 拷贝出 %1 字节</translation>
    </message>
    <message>
        <source>%1&apos;s CPU copies %2 bytes from chunk %3 into the reader&apos;s buffer: the messenger keeps stream semantics, so received bytes leave the registered chunk before it can be reused.</source>
        <translation>%1 的 CPU 把 %2 字节从块 %3 拷贝到读取方的缓冲区：messenger 保持字节流语义，因此收到的字节要先离开已注册块，该块才能被重用。</translation>
    </message>
    <message>
        <source>chunk %1 reposted to the SRQ</source>
        <translation>块 %1 重新投递到 SRQ</translation>
    </message>
    <message>
        <source>%1 posts chunk %2 back to the shared receive queue (ibv_post_srq_recv), ready for a later SEND.</source>
        <translation>%1 把块 %2 重新投递到共享接收队列（ibv_post_srq_recv），准备接收后续的 SEND。</translation>
    </message>
    <message>
        <source>message %1 complete (%2 bytes)</source>
        <translation>消息 %1 已完整（%2 字节）</translation>
    </message>
    <message>
        <source>%1 holds all %2 bytes of message %3.</source>
        <translation>%1 已持有消息 %3 的全部 %2 字节。</translation>
    </message>
    <message>
        <source>close(): a zero-length SEND</source>
        <translation>close()：一个零长度 SEND</translation>
    </message>
    <message>
        <source>%1 closes the connection by posting a signalled SEND without payload. RDMA has no FIN of its own; the peer takes a receive completion of length 0 as the close.</source>
        <translation>%1 通过投递一个不带载荷的 signalled SEND 来关闭连接。RDMA 本身没有 FIN；对端把长度为 0 的接收完成视为关闭。</translation>
    </message>
    <message>
        <source>zero-length receive: %1 closed</source>
        <translation>零长度接收：%1 已关闭</translation>
    </message>
    <message>
        <source>%1 polls a receive completion of 0 bytes: the peer&apos;s close. It shuts its side of the connection down.</source>
        <translation>%1 轮询到一个 0 字节的接收完成：这是对端的关闭。它关闭自己这一侧的连接。</translation>
    </message>
    <message>
        <source>%1 calls send() on its TCP socket: a system call into %1&apos;s kernel, which copies the bytes into the socket send buffer.</source>
        <translation>%1 在其 TCP 套接字上调用 send()：一次进入 %1 内核的系统调用，内核把字节拷贝进套接字发送缓冲区。</translation>
    </message>
    <message>
        <source>%1 bytes copied into the socket</source>
        <translation>%1 字节拷贝进套接字</translation>
    </message>
    <message>
        <source>%1&apos;s CPU, in the kernel, copies %2 bytes from the message into the socket send buffer.</source>
        <translation>%1 的 CPU 在内核中把消息的 %2 字节拷贝进套接字发送缓冲区。</translation>
    </message>
    <message>
        <source>recv()</source>
        <translation>recv()</translation>
    </message>
    <message>
        <source>%1 calls recv() on its TCP socket: a system call into %1&apos;s kernel to take what has arrived.</source>
        <translation>%1 在其 TCP 套接字上调用 recv()：一次进入 %1 内核的系统调用，取走已到达的数据。</translation>
    </message>
    <message>
        <source>%1 bytes copied out of the socket</source>
        <translation>从套接字拷贝出 %1 字节</translation>
    </message>
    <message>
        <source>%1&apos;s CPU, in the kernel, copies %2 bytes from the socket receive buffer to the reader.</source>
        <translation>%1 的 CPU 在内核中把 %2 字节从套接字接收缓冲区拷贝给读取方。</translation>
    </message>
    <message>
        <source>socket closed</source>
        <translation>套接字已关闭</translation>
    </message>
    <message>
        <source>The side channel&apos;s TCP socket closes with the connection.</source>
        <translation>旁路通道的 TCP 套接字随连接一起关闭。</translation>
    </message>
    <message>
        <source>The TCP connection closes: FIN and ACK each way.</source>
        <translation>TCP 连接关闭：双向各一个 FIN 和 ACK。</translation>
    </message>
    <message>
        <source>side channel</source>
        <translation>旁路通道</translation>
    </message>
    <message>
        <source>shared receive queue</source>
        <translation>共享接收队列</translation>
    </message>
    <message>
        <source>messenger</source>
        <translation>messenger</translation>
    </message>
    <message>
        <source>chunk pool</source>
        <translation>块池</translation>
    </message>
    <message>
        <source>no copy</source>
        <translation>无拷贝</translation>
    </message>
    <message>
        <source>SEND posted</source>
        <translation>SEND 已投递</translation>
    </message>
    <message>
        <source>completion polled</source>
        <translation>轮询到完成</translation>
    </message>
    <message>
        <source>eventfd</source>
        <translation>eventfd</translation>
    </message>
</context>
<context>
    <name>Glossary</name>
    <message>
        <source>The data moves between the application&apos;s buffer and the wire without the CPU copying it anywhere in between. With TCP the kernel copies every byte into and out of socket buffers; an RDMA NIC reads and writes the application&apos;s registered memory directly by DMA.</source>
        <translation>数据在应用程序的缓冲区与线路之间传送，中间不经 CPU 拷贝。使用 TCP 时，内核要把每个字节拷入、拷出套接字缓冲区；而 RDMA 网卡通过 DMA 直接读写应用程序已注册的内存。</translation>
    </message>
    <message>
        <source>Posting work and reaping completions happen in user space: the application writes work requests into queues the NIC reads and rings a doorbell, with no system call on the data path. The kernel is only involved in setup (creating queues, registering memory).</source>
        <translation>投递工作和获取完成事件都在用户空间进行：应用程序把工作请求写入网卡读取的队列并敲响门铃，数据路径上没有任何系统调用。内核只参与准备工作（创建队列、注册内存）。</translation>
    </message>
    <message>
        <source>The transport runs in the NIC: segmentation, sequence numbers, acknowledgements and retransmissions are the adapter&apos;s work, not the host CPU&apos;s, which stays free for the application.</source>
        <translation>传输层在网卡中运行：分段、序列号、确认和重传都由适配器完成，而不是由主机 CPU 完成，CPU 因而可以留给应用程序。</translation>
    </message>
    <message>
        <source>An operation that needs both applications: the sender posts a SEND and the receiver must have posted a receive work request whose buffer takes the message. Both sides get a completion.</source>
        <translation>需要双方应用程序共同参与的操作：发送方投递 SEND，接收方必须已投递一个接收工作请求，由其缓冲区接收该消息。双方都会得到完成事件。</translation>
    </message>
    <message>
        <source>An operation that only the initiator&apos;s application takes part in: RDMA READ pulls data from, RDMA WRITE pushes data into, the peer&apos;s registered memory, named by an address and an rkey. The peer&apos;s CPU does nothing and (without immediate data) is not told.</source>
        <translation>只有发起方应用程序参与的操作：RDMA READ 从对端已注册的内存中拉取数据，RDMA WRITE 向其中推送数据，目标由地址和 rkey 指定。对端 CPU 什么也不做，而且（不带立即数时）不会得到通知。</translation>
    </message>
    <message>
        <source>Queue Pair</source>
        <translation>队列对</translation>
    </message>
    <message>
        <source>The endpoint of RDMA communication: a send queue and a receive queue of work requests that the NIC processes. A connected QP (RC, UC) talks to exactly one peer QP; a UD QP can reach any.</source>
        <translation>RDMA 通信的端点：由网卡处理的一个发送队列和一个接收队列，其中存放工作请求。连接型 QP（RC、UC）只与一个对端 QP 通信；UD QP 可以与任何 QP 通信。</translation>
    </message>
    <message>
        <source>Queue Pair Number</source>
        <translation>队列对编号</translation>
    </message>
    <message>
        <source>The 24-bit number that names a QP on its NIC. The BTH&apos;s destination QP field carries the receiver&apos;s QPN; peers learn each other&apos;s QPN during connection setup.</source>
        <translation>在所属网卡上标识一个 QP 的 24 位编号。BTH 的目的 QP 字段携带接收方的 QPN；双方在建立连接时获知对方的 QPN。</translation>
    </message>
    <message>
        <source>Work Queue Element</source>
        <translation>工作队列元素</translation>
    </message>
    <message>
        <source>One work request as the NIC keeps it in a send or receive queue. A send WQE is pending until the requester starts it, processing while its packets go out, and done when it is acknowledged; it may go back to pending when the requester must resend or wait.</source>
        <translation>网卡保存在发送队列或接收队列中的一个工作请求。发送 WQE 在请求方开始处理它之前处于待处理（pending）状态，其分组发出期间处于处理中（processing），被确认后即为完成（done）；当请求方必须重传或等待时，它可能回到待处理状态。</translation>
    </message>
    <message>
        <source>Completion Queue Entry</source>
        <translation>完成队列条目</translation>
    </message>
    <message>
        <source>The record the NIC writes to a completion queue when a work request ends: wr_id, opcode, status and length. The application finds it by polling (ibv_poll_cq) or after a completion event.</source>
        <translation>工作请求结束时网卡写入完成队列的记录：wr_id、操作码、状态和长度。应用程序通过轮询（ibv_poll_cq）或在收到完成通知后找到它。</translation>
    </message>
    <message>
        <source>Protection Domain</source>
        <translation>保护域</translation>
    </message>
    <message>
        <source>A container that ties QPs and memory regions together: a QP may only use memory registered in its own PD.</source>
        <translation>把 QP 和内存区域关联在一起的容器：QP 只能使用在其所属 PD 中注册的内存。</translation>
    </message>
    <message>
        <source>Memory Region</source>
        <translation>内存区域</translation>
    </message>
    <message>
        <source>A buffer registered with the NIC (ibv_reg_mr): its pages are pinned and the NIC knows their addresses. Registration returns an lkey and an rkey and fixes the access rights (local write, remote read, remote write, remote atomic).</source>
        <translation>向网卡注册的缓冲区（ibv_reg_mr）：其页面被锁定（pin），网卡知道这些页面的地址。注册返回一个 lkey 和一个 rkey，并确定访问权限（本地写、远程读、远程写、远程原子操作）。</translation>
    </message>
    <message>
        <source>Local Key</source>
        <translation>本地密钥</translation>
    </message>
    <message>
        <source>The key a host&apos;s own work requests quote in their scatter/gather entries so that the NIC may read or write that memory region.</source>
        <translation>主机自己的工作请求在其分散/聚合（scatter/gather）条目中引用的密钥，使网卡可以读写该内存区域。</translation>
    </message>
    <message>
        <source>Remote Key</source>
        <translation>远程密钥</translation>
    </message>
    <message>
        <source>The key a peer must present (in a RETH or AtomicETH) to READ, WRITE or atomically change a memory region. The owner hands it over together with the buffer&apos;s address; a wrong or revoked rkey gets a remote access error.</source>
        <translation>对端要对内存区域执行 READ、WRITE 或原子修改时必须出示（放在 RETH 或 AtomicETH 中）的密钥。所有者把它连同缓冲区地址一起交给对端；错误或已撤销的 rkey 会导致远程访问错误。</translation>
    </message>
    <message>
        <source>Packet Sequence Number</source>
        <translation>分组序列号</translation>
    </message>
    <message>
        <source>A 24-bit number in the BTH that counts packets on a connection; it wraps from 0xffffff to 0. The responder expects them in order and notices a loss as a gap; acknowledgements name the PSN they cover.</source>
        <translation>BTH 中的 24 位编号，为一个连接上的分组计数；从 0xffffff 回绕到 0。响应方期望按序收到分组，出现缺口即发现丢失；确认会注明其覆盖到的 PSN。</translation>
    </message>
    <message>
        <source>Message Sequence Number</source>
        <translation>消息序列号</translation>
    </message>
    <message>
        <source>The responder&apos;s count of completed messages, sent back in every AETH so that the requester can match acknowledgements to messages.</source>
        <translation>响应方对已完成消息的计数，在每个 AETH 中回送，使请求方能把确认与消息对应起来。</translation>
    </message>
    <message>
        <source>Base Transport Header</source>
        <translation>基本传输首部</translation>
    </message>
    <message>
        <source>The 12-byte header every InfiniBand, RoCE v1 and RoCE v2 packet carries: opcode, P_Key, destination QP, AckReq bit and PSN.</source>
        <translation>每个 InfiniBand、RoCE v1 和 RoCE v2 分组都带有的 12 字节首部：操作码、P_Key、目的 QP、AckReq 位和 PSN。</translation>
    </message>
    <message>
        <source>Global Route Header</source>
        <translation>全局路由首部</translation>
    </message>
    <message>
        <source>A 40-byte header shaped like IPv6 with the source and destination GIDs. InfiniBand uses it to cross subnets; RoCE v1 always carries it; RoCE v2 replaces it with a real IP header.</source>
        <translation>形如 IPv6 的 40 字节首部，含源 GID 和目的 GID。InfiniBand 用它跨越子网；RoCE v1 总是携带它；RoCE v2 则用真正的 IP 首部取代它。</translation>
    </message>
    <message>
        <source>Global Identifier</source>
        <translation>全局标识符</translation>
    </message>
    <message>
        <source>A 128-bit address of a port, formatted like an IPv6 address. In RoCE v2 it holds the port&apos;s IP address.</source>
        <translation>端口的 128 位地址，格式与 IPv6 地址相同。在 RoCE v2 中，它存放端口的 IP 地址。</translation>
    </message>
    <message>
        <source>Local Identifier</source>
        <translation>本地标识符</translation>
    </message>
    <message>
        <source>The 16-bit address of a port inside one InfiniBand subnet, assigned by the subnet manager.</source>
        <translation>端口在一个 InfiniBand 子网内的 16 位地址，由子网管理器分配。</translation>
    </message>
    <message>
        <source>RDMA Extended Transport Header</source>
        <translation>RDMA 扩展传输首部</translation>
    </message>
    <message>
        <source>The header of an RDMA READ request or the first packet of an RDMA WRITE: the remote virtual address, the rkey and the total length.</source>
        <translation>RDMA READ 请求或 RDMA WRITE 第一个分组的首部：远程虚拟地址、rkey 和总长度。</translation>
    </message>
    <message>
        <source>ACK Extended Transport Header</source>
        <translation>ACK 扩展传输首部</translation>
    </message>
    <message>
        <source>The header of an acknowledgement: a syndrome saying ACK, RNR NAK or NAK (with a code) and the MSN.</source>
        <translation>确认的首部：一个表示 ACK、RNR NAK 或 NAK（附带错误码）的综合码（syndrome），以及 MSN。</translation>
    </message>
    <message>
        <source>Datagram Extended Transport Header</source>
        <translation>数据报扩展传输首部</translation>
    </message>
    <message>
        <source>The header of a UD packet: the Q_Key and the source QP number, since there is no connection to tell them.</source>
        <translation>UD 分组的首部：Q_Key 和源 QP 编号，因为没有连接可以告知这些信息。</translation>
    </message>
    <message>
        <source>Invalidate Extended Transport Header</source>
        <translation>失效扩展传输首部</translation>
    </message>
    <message>
        <source>Carries the rkey that a SEND WITH INVALIDATE revokes at the receiver.</source>
        <translation>携带 SEND WITH INVALIDATE 要在接收方撤销的 rkey。</translation>
    </message>
    <message>
        <source>Immediate Data</source>
        <translation>立即数</translation>
    </message>
    <message>
        <source>Four bytes a SEND or RDMA WRITE may carry beside its data. They appear in the receiver&apos;s completion, so a WRITE with immediate consumes a receive WQE and wakes the receiver.</source>
        <translation>SEND 或 RDMA WRITE 在数据之外可以携带的 4 个字节。它们出现在接收方的完成事件中，因此带立即数的 WRITE 会消耗一个接收 WQE 并唤醒接收方。</translation>
    </message>
    <message>
        <source>Atomic Extended Transport Header</source>
        <translation>原子扩展传输首部</translation>
    </message>
    <message>
        <source>The header of a COMPARE_SWAP or FETCH_ADD request: the remote address, rkey and the operands. The responder answers with an AtomicAckETH holding the original value.</source>
        <translation>COMPARE_SWAP 或 FETCH_ADD 请求的首部：远程地址、rkey 和操作数。响应方用含有原始值的 AtomicAckETH 应答。</translation>
    </message>
    <message>
        <source>Invariant CRC</source>
        <translation>不变 CRC</translation>
    </message>
    <message>
        <source>A 32-bit CRC over the fields that do not change on the way; the receiver drops a packet whose ICRC does not match.</source>
        <translation>对传输途中不会改变的字段计算的 32 位 CRC；ICRC 不匹配的分组会被接收方丢弃。</translation>
    </message>
    <message>
        <source>Partition Key</source>
        <translation>分区键</translation>
    </message>
    <message>
        <source>A 16-bit key in the BTH; QPs communicate only if their partition keys match, which splits a fabric into isolated partitions.</source>
        <translation>BTH 中的 16 位键；只有分区键匹配的 QP 才能相互通信，从而把一个网络划分为彼此隔离的分区。</translation>
    </message>
    <message>
        <source>Queue Key</source>
        <translation>队列键</translation>
    </message>
    <message>
        <source>A 32-bit key a UD datagram carries in its DETH; the receiving QP accepts it only if it matches the QP&apos;s own Q_Key.</source>
        <translation>UD 数据报在其 DETH 中携带的 32 位键；只有与接收 QP 自身的 Q_Key 匹配时，该 QP 才会接受它。</translation>
    </message>
    <message>
        <source>Acknowledgement</source>
        <translation>确认</translation>
    </message>
    <message>
        <source>The responder&apos;s confirmation of the packets up to a PSN. ACKs are cumulative: one may cover several packets or messages.</source>
        <translation>响应方对截至某个 PSN 的分组的确认。ACK 是累积的：一个 ACK 可以覆盖多个分组或消息。</translation>
    </message>
    <message>
        <source>Negative Acknowledgement</source>
        <translation>否定确认</translation>
    </message>
    <message>
        <source>An AETH that reports a problem: PSN sequence error (a packet is missing), invalid request, remote access error or remote operational error. Only the sequence error is retried; the others fail the work request.</source>
        <translation>报告问题的 AETH：PSN 序列错误（缺少分组）、无效请求、远程访问错误或远程操作错误。只有序列错误会被重试；其他错误都会使工作请求失败。</translation>
    </message>
    <message>
        <source>Receiver Not Ready</source>
        <translation>接收方未就绪</translation>
    </message>
    <message>
        <source>The NAK a responder sends when a SEND arrives and no receive WQE is posted. It asks the requester to wait a given time (min_rnr_timer) and resend; rnr_retry limits how often (7 means forever).</source>
        <translation>当 SEND 到达而没有已投递的接收 WQE 时，响应方发送的 NAK。它要求请求方等待一段给定时间（min_rnr_timer）后重发；rnr_retry 限制重发次数（7 表示无限次）。</translation>
    </message>
    <message>
        <source>RC&apos;s recovery: after a NAK or a timeout the requester resends every packet from the first unacknowledged PSN on, not just the missing one.</source>
        <translation>RC 的恢复方式：收到 NAK 或超时后，请求方从第一个未被确认的 PSN 开始重传其后的所有分组，而不只是丢失的那一个。</translation>
    </message>
    <message>
        <source>Reliable Connected</source>
        <translation>可靠连接</translation>
    </message>
    <message>
        <source>A transport with one peer, acknowledgements, in-order delivery and retransmission. It supports SEND, RDMA WRITE, RDMA READ and atomics.</source>
        <translation>只有一个对端、带确认、按序交付并会重传的传输服务。支持 SEND、RDMA WRITE、RDMA READ 和原子操作。</translation>
    </message>
    <message>
        <source>Unreliable Connected</source>
        <translation>不可靠连接</translation>
    </message>
    <message>
        <source>A connected transport without acknowledgements: a lost packet loses its message. SEND and RDMA WRITE only.</source>
        <translation>没有确认的连接型传输服务：丢失一个分组就会丢失其所属的消息。仅支持 SEND 和 RDMA WRITE。</translation>
    </message>
    <message>
        <source>Unreliable Datagram</source>
        <translation>不可靠数据报</translation>
    </message>
    <message>
        <source>Connectionless single-packet messages to any QP that knows the Q_Key; no acknowledgements, SEND only.</source>
        <translation>无连接的单分组消息，可发往任何知道其 Q_Key 的 QP；没有确认，仅支持 SEND。</translation>
    </message>
    <message>
        <source>Congestion Notification Packet</source>
        <translation>拥塞通知包</translation>
    </message>
    <message>
        <source>RoCE v2&apos;s signal from a receiver that saw ECN-marked packets back to the sender, which then lowers its rate (DCQCN).</source>
        <translation>RoCE v2 中的一种信号：看到 ECN 标记分组的接收方把它发回给发送方，发送方随即降低速率（DCQCN）。</translation>
    </message>
    <message>
        <source>RDMA over Converged Ethernet</source>
        <translation>基于融合以太网的 RDMA</translation>
    </message>
    <message>
        <source>InfiniBand&apos;s transport on Ethernet: v1 puts the GRH and BTH right after the Ethernet header, v2 wraps them in IP and UDP (port 4791) so they can be routed.</source>
        <translation>在以太网上运行的 InfiniBand 传输层：v1 把 GRH 和 BTH 紧跟在以太网首部之后，v2 则把它们封装在 IP 和 UDP（端口 4791）中，使其可以路由。</translation>
    </message>
    <message>
        <source>Internet Wide Area RDMA Protocol</source>
        <translation>互联网广域 RDMA 协议</translation>
    </message>
    <message>
        <source>RDMA on top of TCP: RDMAP operations, placed by DDP, framed by MPA, carried by an ordinary TCP connection that the NIC runs.</source>
        <translation>基于 TCP 的 RDMA：RDMAP 操作由 DDP 放置数据、由 MPA 分帧，通过一条由网卡运行的普通 TCP 连接承载。</translation>
    </message>
    <message>
        <source>Marker PDU Aligned framing</source>
        <translation>标记 PDU 对齐分帧</translation>
    </message>
    <message>
        <source>iWARP&apos;s framing layer: it turns TCP&apos;s byte stream into records (FPDUs) with a length and a CRC32c, after a request/reply handshake at connection start.</source>
        <translation>iWARP 的分帧层：在连接开始时进行请求/应答握手之后，把 TCP 字节流切分成带长度和 CRC32c 的记录（FPDU）。</translation>
    </message>
    <message>
        <source>Direct Data Placement</source>
        <translation>直接数据放置</translation>
    </message>
    <message>
        <source>iWARP&apos;s layer that says where each segment&apos;s payload goes: into a tagged buffer (STag and offset, for RDMA WRITE and READ) or into a posted receive buffer (untagged, for SEND).</source>
        <translation>iWARP 中指明每个报文段的载荷放到哪里的层：放入带标签的缓冲区（STag 和偏移量，用于 RDMA WRITE 和 READ），或放入已投递的接收缓冲区（无标签，用于 SEND）。</translation>
    </message>
    <message>
        <source>RDMA Protocol</source>
        <translation>RDMA 协议</translation>
    </message>
    <message>
        <source>iWARP&apos;s top layer: the operations themselves (SEND, RDMA WRITE, READ request and response, terminate).</source>
        <translation>iWARP 的最高层：即各种操作本身（SEND、RDMA WRITE、READ 请求与响应、terminate）。</translation>
    </message>
    <message>
        <source>RDMA Connection Manager</source>
        <translation>RDMA 连接管理器</translation>
    </message>
    <message>
        <source>The library and protocol that connect QPs by IP address: bind, listen, connect and accept, exchanging QPNs and PSNs in REQ/REP/RTU messages instead of a hand-made TCP exchange.</source>
        <translation>按 IP 地址连接 QP 的库和协议：通过 bind、listen、connect 和 accept，在 REQ/REP/RTU 消息中交换 QPN 和 PSN，而无需手工编写 TCP 交换过程。</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 (%2): %3</source>
        <translation>%1（%2）：%3</translation>
    </message>
</context>
<context>
    <name>HostTables</name>
    <message>
        <source>wr_id</source>
        <translation>wr_id</translation>
    </message>
    <message>
        <source>Opcode</source>
        <translation>操作码</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>PSNs</source>
        <translation>PSN</translation>
    </message>
    <message>
        <source>posted</source>
        <translation>已投递</translation>
    </message>
    <message>
        <source>processing</source>
        <translation>处理中</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>待确认</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
</context>
<context>
    <name>LayerStacks</name>
    <message>
        <source>App MR</source>
        <translation>应用 MR</translation>
    </message>
    <message>
        <source>The application&apos;s buffer, registered as a memory region: the NIC may read and write it directly.</source>
        <translation>应用的缓冲区，已注册为内存区域（MR）：网卡可以直接读写它。</translation>
    </message>
    <message>
        <source>Verbs</source>
        <translation>Verbs</translation>
    </message>
    <message>
        <source>libibverbs: ibv_post_send / ibv_post_recv / ibv_poll_cq run in user space: WQEs and CQEs live in memory shared with the NIC.</source>
        <translation>libibverbs：ibv_post_send / ibv_post_recv / ibv_poll_cq 在用户空间运行：WQE 和 CQE 位于与网卡共享的内存中。</translation>
    </message>
    <message>
        <source>App buffer</source>
        <translation>应用缓冲区</translation>
    </message>
    <message>
        <source>The application&apos;s own buffer.</source>
        <translation>应用自己的缓冲区。</translation>
    </message>
    <message>
        <source>Socket API</source>
        <translation>套接字 API</translation>
    </message>
    <message>
        <source>send() / recv(): each call is a system call into the kernel.</source>
        <translation>send() / recv()：每次调用都是一次进入内核的系统调用。</translation>
    </message>
    <message>
        <source>Socket buffer</source>
        <translation>套接字缓冲区</translation>
    </message>
    <message>
        <source>Kernel memory holding data until TCP sends or the app reads it.</source>
        <translation>内核内存，暂存数据直到 TCP 发送或应用读取。</translation>
    </message>
    <message>
        <source>TCP</source>
        <translation>TCP</translation>
    </message>
    <message>
        <source>Segments, sequence numbers, ACKs and retransmission, in the kernel.</source>
        <translation>报文段、序列号、ACK 和重传，都在内核中完成。</translation>
    </message>
    <message>
        <source>IP</source>
        <translation>IP</translation>
    </message>
    <message>
        <source>Routing and the IP header, in the kernel.</source>
        <translation>路由和 IP 首部，在内核中完成。</translation>
    </message>
    <message>
        <source>Eth driver</source>
        <translation>以太网驱动</translation>
    </message>
    <message>
        <source>Builds the Ethernet header and hands frames to the NIC.</source>
        <translation>构造以太网首部并把帧交给网卡。</translation>
    </message>
    <message>
        <source>NIC</source>
        <translation>网卡</translation>
    </message>
    <message>
        <source>A plain Ethernet NIC: moves frames between wire and kernel memory by DMA.</source>
        <translation>普通以太网网卡：通过 DMA 在线路和内核内存之间搬运帧。</translation>
    </message>
    <message>
        <source>IB transport</source>
        <translation>IB 传输层</translation>
    </message>
    <message>
        <source>BTH and extension headers (RETH, AETH, ...), PSNs, ACKs and retries, all in the NIC.</source>
        <translation>BTH 和扩展首部（RETH、AETH……）、PSN、ACK 和重试，全部在网卡中完成。</translation>
    </message>
    <message>
        <source>UDP :4791</source>
        <translation>UDP :4791</translation>
    </message>
    <message>
        <source>RoCEv2 rides in UDP to port 4791 so that IP routers forward it.</source>
        <translation>RoCEv2 承载于发往端口 4791 的 UDP 中，因此 IP 路由器可以转发它。</translation>
    </message>
    <message>
        <source>IPv4 or IPv6 header built by the NIC.</source>
        <translation>由网卡构造的 IPv4 或 IPv6 首部。</translation>
    </message>
    <message>
        <source>Ethernet</source>
        <translation>以太网</translation>
    </message>
    <message>
        <source>Ethernet header; the ICRC covers the invariant fields.</source>
        <translation>以太网首部；ICRC 覆盖不变字段。</translation>
    </message>
    <message>
        <source>BTH and extension headers, reliability in the HCA.</source>
        <translation>BTH 和扩展首部，可靠性由 HCA 保证。</translation>
    </message>
    <message>
        <source>Network (GRH)</source>
        <translation>网络 (GRH)</translation>
    </message>
    <message>
        <source>Global Route Header, present when leaving the subnet.</source>
        <translation>全局路由首部，离开子网时出现。</translation>
    </message>
    <message>
        <source>Link (LRH)</source>
        <translation>链路 (LRH)</translation>
    </message>
    <message>
        <source>Local Route Header with LIDs and the VCRC, per hop.</source>
        <translation>本地路由首部，含 LID 和 VCRC，逐跳处理。</translation>
    </message>
    <message>
        <source>Physical</source>
        <translation>物理层</translation>
    </message>
    <message>
        <source>InfiniBand link with credit-based flow control (lossless).</source>
        <translation>采用基于信用的流量控制的 InfiniBand 链路（无损）。</translation>
    </message>
    <message>
        <source>RDMAP</source>
        <translation>RDMAP</translation>
    </message>
    <message>
        <source>RDMA operations: Send, Write, Read Request/Response, Terminate.</source>
        <translation>RDMA 操作：Send、Write、Read 请求/响应、Terminate。</translation>
    </message>
    <message>
        <source>DDP</source>
        <translation>DDP</translation>
    </message>
    <message>
        <source>Direct Data Placement: tagged (STag+offset) or untagged (queue, MSN).</source>
        <translation>直接数据放置：带标签（STag+偏移）或不带标签（队列、MSN）。</translation>
    </message>
    <message>
        <source>MPA</source>
        <translation>MPA</translation>
    </message>
    <message>
        <source>Framing over the TCP byte stream: length, markers, CRC32c.</source>
        <translation>在 TCP 字节流上分帧：长度、标记、CRC32c。</translation>
    </message>
    <message>
        <source>TCP (in RNIC)</source>
        <translation>RNIC 内 TCP</translation>
    </message>
    <message>
        <source>A full TCP inside the RNIC, not in the kernel.</source>
        <translation>完整的 TCP 在 RNIC 内部实现，而不在内核中。</translation>
    </message>
    <message>
        <source>IP header built by the RNIC.</source>
        <translation>由 RNIC 构造的 IP 首部。</translation>
    </message>
    <message>
        <source>Ethernet header built by the RNIC.</source>
        <translation>由 RNIC 构造的以太网首部。</translation>
    </message>
    <message>
        <source>send(): the application enters the kernel with a system call (a mode switch).</source>
        <translation>send()：应用通过系统调用进入内核（一次模式切换）。</translation>
    </message>
    <message>
        <source>The CPU copies the payload from the application buffer into the socket send buffer in the kernel.</source>
        <translation>CPU 把有效载荷从应用缓冲区拷贝到内核中的套接字发送缓冲区。</translation>
    </message>
    <message>
        <source>The kernel&apos;s TCP, IP and Ethernet code builds the headers.</source>
        <translation>内核的 TCP、IP 和以太网代码构造各层首部。</translation>
    </message>
    <message>
        <source>The NIC reads the frame from kernel memory by DMA and sends it.</source>
        <translation>网卡通过 DMA 从内核内存读取帧并发送。</translation>
    </message>
    <message>
        <source>The frame crosses the link.</source>
        <translation>帧经过链路传输。</translation>
    </message>
    <message>
        <source>The receiving NIC writes the frame into kernel memory by DMA and raises an interrupt: the kernel is entered.</source>
        <translation>接收端网卡通过 DMA 把帧写入内核内存并触发中断：进入内核。</translation>
    </message>
    <message>
        <source>The kernel parses Ethernet, IP and TCP, sends the ACK, and queues the payload in the socket receive buffer.</source>
        <translation>内核解析以太网、IP 和 TCP，发送 ACK，并把有效载荷放入套接字接收缓冲区。</translation>
    </message>
    <message>
        <source>recv(): the application enters the kernel with a system call (and may sleep until data arrives).</source>
        <translation>recv()：应用通过系统调用进入内核（可能休眠直到数据到达）。</translation>
    </message>
    <message>
        <source>The CPU copies the payload from the socket buffer into the application buffer.</source>
        <translation>CPU 把有效载荷从套接字缓冲区拷贝到应用缓冲区。</translation>
    </message>
    <message>
        <source>ibv_post_send(): the library writes a WQE into the send queue in user memory; no system call.</source>
        <translation>ibv_post_send()：库把 WQE 写入用户内存中的发送队列；没有系统调用。</translation>
    </message>
    <message>
        <source>A doorbell (an MMIO write from user space) tells the NIC there is work; the kernel is not entered.</source>
        <translation>门铃（一次来自用户空间的 MMIO 写）通知网卡有新工作；不进入内核（内核旁路）。</translation>
    </message>
    <message>
        <source>The NIC reads the payload from the registered memory region by DMA: no CPU copy.</source>
        <translation>网卡通过 DMA 从已注册的内存区域读取有效载荷：没有 CPU 拷贝（零拷贝）。</translation>
    </message>
    <message>
        <source>The receiving NIC checks the frame and writes the payload by DMA straight into the application&apos;s buffer (the posted receive or the RETH address).</source>
        <translation>接收端网卡校验帧，并通过 DMA 把有效载荷直接写入应用的缓冲区（已投递的接收请求或 RETH 指定的地址）。</translation>
    </message>
    <message>
        <source>The NIC writes a completion (CQE) to the CQ; ibv_poll_cq() reads it in user space.</source>
        <translation>网卡把完成事件（CQE）写入完成队列 CQ；ibv_poll_cq() 在用户空间读取它。</translation>
    </message>
    <message>
        <source>The NIC builds BTH, UDP, IP and Ethernet headers and the ICRC.</source>
        <translation>网卡构造 BTH、UDP、IP 和以太网首部以及 ICRC。</translation>
    </message>
    <message>
        <source>The HCA builds BTH, GRH (if routed) and LRH, the ICRC and the VCRC.</source>
        <translation>HCA 构造 BTH、GRH（需要路由时）和 LRH，以及 ICRC 和 VCRC。</translation>
    </message>
    <message>
        <source>The RNIC builds RDMAP, DDP, MPA (with CRC32c), TCP, IP and Ethernet headers.</source>
        <translation>RNIC 构造 RDMAP、DDP、MPA（含 CRC32c）、TCP、IP 和以太网首部。</translation>
    </message>
    <message>
        <source>TCP/IP sockets</source>
        <translation>TCP/IP 套接字</translation>
    </message>
    <message>
        <source>RoCEv2</source>
        <translation>RoCEv2</translation>
    </message>
    <message>
        <source>InfiniBand</source>
        <translation>InfiniBand</translation>
    </message>
    <message>
        <source>iWARP</source>
        <translation>iWARP</translation>
    </message>
    <message>
        <source>syscall</source>
        <translation>系统调用</translation>
    </message>
    <message>
        <source>CPU copy</source>
        <translation>CPU 拷贝</translation>
    </message>
    <message>
        <source>headers</source>
        <translation>首部</translation>
    </message>
    <message>
        <source>doorbell</source>
        <translation>门铃</translation>
    </message>
    <message>
        <source>DMA</source>
        <translation>DMA</translation>
    </message>
    <message>
        <source>wire</source>
        <translation>线路</translation>
    </message>
    <message>
        <source>CQE</source>
        <translation>CQE</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户态</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
</context>
<context>
    <name>Lesson</name>
    <message>
        <source>1. TCP copies</source>
        <translation>1. TCP 的拷贝</translation>
    </message>
    <message>
        <source>An application sends 64 KiB over an ordinary TCP socket. send() copies the bytes from the application&apos;s buffer into the kernel&apos;s socket send buffer, the kernel&apos;s TCP/IP stack cuts them into segments, and on the other side recv() copies them out of the socket receive buffer again. Watch who does each copy.</source>
        <translation>应用程序通过普通的 TCP 套接字发送 64 KiB。send() 把字节从应用程序的缓冲区拷贝到内核的套接字发送缓冲区，内核的 TCP/IP 协议栈把它们切成报文段；在另一端，recv() 再把它们从套接字接收缓冲区拷贝出来。请观察每次拷贝由谁完成。</translation>
    </message>
    <message>
        <source>Every byte was copied twice by a CPU, and every send() and recv() crossed into the kernel. RDMA removes both: that is the next lesson.</source>
        <translation>每个字节都被 CPU 拷贝了两次，每次 send() 和 recv() 都要进入内核。RDMA 把这两者都去掉了：这是下一课的内容。</translation>
    </message>
    <message>
        <source>The application has called send(). Who copies its bytes into the socket send buffer?</source>
        <translation>应用程序调用了 send()。谁把它的字节拷贝到套接字发送缓冲区？</translation>
    </message>
    <message>
        <source>send() runs in the kernel, on the sending host&apos;s processor.</source>
        <translation>send() 在内核中运行，使用的是发送主机的处理器。</translation>
    </message>
    <message>
        <source>Segments have arrived at host B. Who copies them into the application&apos;s buffer?</source>
        <translation>报文段已到达主机 B。谁把它们拷贝到应用程序的缓冲区？</translation>
    </message>
    <message>
        <source>recv() copies out of the socket receive buffer in the kernel.</source>
        <translation>recv() 在内核中从套接字接收缓冲区往外拷贝。</translation>
    </message>
    <message>
        <source>Which host sends the next frame?</source>
        <translation>下一帧由哪台主机发送？</translation>
    </message>
    <message>
        <source>TCP acknowledges what it has received.</source>
        <translation>TCP 会确认它已收到的数据。</translation>
    </message>
    <message>
        <source>2. The RDMA idea</source>
        <translation>2. RDMA 的思想</translation>
    </message>
    <message>
        <source>RDMA lets the network card move data straight between registered application buffers: no copy through the kernel (zero-copy), no system call on the data path (kernel bypass), and the transport runs on the NIC (CPU offload). Here host A writes 8 KiB into host B&apos;s memory with an RDMA WRITE. Whose CPU takes part?</source>
        <translation>RDMA 让网卡直接在已注册的应用程序缓冲区之间搬运数据：不经过内核拷贝（零拷贝），数据路径上没有系统调用（内核旁路），传输层在网卡上运行（CPU 卸载）。这里主机 A 用一次 RDMA WRITE 把 8 KiB 写入主机 B 的内存。谁的 CPU 参与其中？</translation>
    </message>
    <message>
        <source>Host A&apos;s CPU only posted the work request and later found its completion; host B&apos;s CPU did nothing at all. The NICs read, sent, wrote and completed.</source>
        <translation>主机 A 的 CPU 只提交了工作请求，之后取回了它的完成；主机 B 的 CPU 什么也没做。读取、发送、写入和完成都由网卡完成。</translation>
    </message>
    <message>
        <source>Host A&apos;s application starts the transfer. Whose CPU posts the work request?</source>
        <translation>主机 A 的应用程序开始传输。谁的 CPU 提交工作请求？</translation>
    </message>
    <message>
        <source>A verbs call is an ordinary function call in the application&apos;s process.</source>
        <translation>verbs 调用就是应用程序进程中的一次普通函数调用。</translation>
    </message>
    <message>
        <source>The data must leave host A&apos;s buffer. Who reads it from memory?</source>
        <translation>数据必须离开主机 A 的缓冲区。谁从内存中读取它？</translation>
    </message>
    <message>
        <source>The buffer is registered: the NIC may read it by DMA.</source>
        <translation>该缓冲区已注册：网卡可以通过 DMA 读取它。</translation>
    </message>
    <message>
        <source>The first packet has reached host B. Who puts its payload into host B&apos;s memory?</source>
        <translation>第一个包已到达主机 B。谁把它的载荷放进主机 B 的内存？</translation>
    </message>
    <message>
        <source>Nothing runs on host B for a one-sided WRITE.</source>
        <translation>对于单边的 WRITE，主机 B 上什么也不运行。</translation>
    </message>
    <message>
        <source>Who writes the completion into host A&apos;s completion queue?</source>
        <translation>谁把完成写入主机 A 的完成队列？</translation>
    </message>
    <message>
        <source>The application only polls the CQ; something else fills it.</source>
        <translation>应用程序只轮询 CQ；填充它的是别的部件。</translation>
    </message>
    <message>
        <source>3. The three stacks</source>
        <translation>3. 三种协议栈</translation>
    </message>
    <message>
        <source>The same transport, the InfiniBand BTH with its QP number and PSN, travels on three stacks: native InfiniBand (LRH, GRH when routed), RoCE v1 (Ethernet, GRH) and RoCE v2 (Ethernet, IP, UDP port 4791). The Transport box in the toolbar picks one; the lesson restarts when you change it.</source>
        <translation>同一个传输层——带有 QP 号和 PSN 的 InfiniBand BTH——可以在三种协议栈上传输：原生 InfiniBand（LRH，跨子网路由时加 GRH）、RoCE v1（以太网、GRH）和 RoCE v2（以太网、IP、UDP 端口 4791）。工具栏中的 Transport 框选择其中一种；更改它时本课会重新开始。</translation>
    </message>
    <message>
        <source>Whatever carried it, the BTH was the same: the RDMA transport does not care which network is below. Try another Transport and see.</source>
        <translation>无论由谁承载，BTH 都是一样的：RDMA 传输层不关心下面是哪种网络。换一个 Transport 看看。</translation>
    </message>
    <message>
        <source>Which headers will the first packet carry, outermost first?</source>
        <translation>第一个包将从外到内携带哪些报头？</translation>
    </message>
    <message>
        <source>Look at the Transport chosen in the toolbar.</source>
        <translation>看看工具栏中选择的 Transport。</translation>
    </message>
    <message>
        <source>The BTH numbers every packet. Which PSN will the second packet carry?</source>
        <translation>BTH 为每个包编号。第二个包将携带哪个 PSN？</translation>
    </message>
    <message>
        <source>The first packet&apos;s PSN is in the packet list; each packet adds one.</source>
        <translation>第一个包的 PSN 在包列表中；每个包加一。</translation>
    </message>
    <message>
        <source>Which host sends the next packet?</source>
        <translation>下一个包由哪台主机发送？</translation>
    </message>
    <message>
        <source>Reliable Connected: someone must acknowledge.</source>
        <translation>可靠连接（Reliable Connected）：总得有一方发送确认。</translation>
    </message>
    <message>
        <source>4. The verbs workflow</source>
        <translation>4. verbs 工作流程</translation>
    </message>
    <message>
        <source>Every verbs program follows the same steps: allocate a protection domain, register memory (and get its lkey and rkey), create the completion and queue pairs, exchange QP number, PSN, GID (and address and rkey) with the peer over an ordinary TCP connection, move the QP through INIT, RTR and RTS, then post work requests and poll for their completions.</source>
        <translation>每个 verbs 程序都遵循相同的步骤：分配保护域，注册内存（并得到它的 lkey 和 rkey），创建完成队列和队列对，通过一条普通的 TCP 连接与对端交换 QP 号、PSN、GID（以及地址和 rkey），把 QP 依次迁移到 INIT、RTR 和 RTS，然后提交工作请求并轮询它们的完成。</translation>
    </message>
    <message>
        <source>That is the whole workflow. The rest of the tour shows SEND, WRITE, READ and an RNR NAK: the next lessons take them one at a time.</source>
        <translation>这就是完整的工作流程。导览的其余部分展示了 SEND、WRITE、READ 和一次 RNR NAK：接下来的课程逐一讲解。</translation>
    </message>
    <message>
        <source>Host A has its protection domain. Which verbs call comes next?</source>
        <translation>主机 A 已有保护域。接下来是哪个 verbs 调用？</translation>
    </message>
    <message>
        <source>The NIC may only touch memory it has been given keys for.</source>
        <translation>网卡只能访问已为其分配了密钥的内存。</translation>
    </message>
    <message>
        <source>Host A calls ibv_modify_qp for the first time. Which state does its QP enter?</source>
        <translation>主机 A 第一次调用 ibv_modify_qp。它的 QP 进入哪个状态？</translation>
    </message>
    <message>
        <source>A new QP is in RESET and moves one state at a time.</source>
        <translation>新建的 QP 处于 RESET，每次只迁移一个状态。</translation>
    </message>
    <message>
        <source>Host A now knows host B&apos;s QP number and PSN. Which state does its QP enter?</source>
        <translation>主机 A 现在知道了主机 B 的 QP 号和 PSN。它的 QP 进入哪个状态？</translation>
    </message>
    <message>
        <source>The responder side is set up first: ready to receive.</source>
        <translation>先设置响应方：准备好接收。</translation>
    </message>
    <message>
        <source>Host A posts its first SEND. Which PSN will its first packet carry?</source>
        <translation>主机 A 提交它的第一个 SEND。它的第一个包将携带哪个 PSN？</translation>
    </message>
    <message>
        <source>Host A announced its starting PSN in the exchange over TCP.</source>
        <translation>主机 A 在通过 TCP 的交换中公布了它的起始 PSN。</translation>
    </message>
    <message>
        <source>5. SEND and RECV</source>
        <translation>5. SEND 和 RECV</translation>
    </message>
    <message>
        <source>SEND is two-sided: the receiver must have posted a receive work request saying where the message goes. Host A sends 3000 bytes at a path MTU of 1024, so the message travels as several packets.</source>
        <translation>SEND 是双边操作：接收方必须事先提交一个接收工作请求，说明消息放到哪里。主机 A 以 1024 的路径 MTU 发送 3000 字节，所以这条消息分成多个包传输。</translation>
    </message>
    <message>
        <source>Both sides took part: host B posted the receive and got a completion for it, host A got one when the ACK came back.</source>
        <translation>双方都参与了：主机 B 提交了接收并得到了它的完成，主机 A 在 ACK 返回时得到了一个完成。</translation>
    </message>
    <message>
        <source>Before anything is sent, a receive buffer must be posted. Whose CPU posts it?</source>
        <translation>在发送任何数据之前，必须先提交一个接收缓冲区。谁的 CPU 提交它？</translation>
    </message>
    <message>
        <source>The receive buffer belongs to the receiving application.</source>
        <translation>接收缓冲区属于接收方的应用程序。</translation>
    </message>
    <message>
        <source>Which opcode will the first packet carry?</source>
        <translation>第一个包将携带哪个操作码？</translation>
    </message>
    <message>
        <source>3000 bytes do not fit in one 1024-byte packet.</source>
        <translation>3000 字节放不进一个 1024 字节的包。</translation>
    </message>
    <message>
        <source>Which PSN will the second packet carry?</source>
        <translation>第二个包将携带哪个 PSN？</translation>
    </message>
    <message>
        <source>Each packet of the message takes the next PSN.</source>
        <translation>消息的每个包使用下一个 PSN。</translation>
    </message>
    <message>
        <source>Which opcode will the third packet carry?</source>
        <translation>第三个包将携带哪个操作码？</translation>
    </message>
    <message>
        <source>1024 + 1024 + 952 = 3000.</source>
        <translation>1024 + 1024 + 952 = 3000。</translation>
    </message>
    <message>
        <source>Who writes the receive completion into host B&apos;s CQ?</source>
        <translation>谁把接收完成写入主机 B 的 CQ？</translation>
    </message>
    <message>
        <source>Completions are written like data: by DMA.</source>
        <translation>完成和数据一样写入：通过 DMA。</translation>
    </message>
    <message>
        <source>The whole message arrived. Will the responder ACK?</source>
        <translation>整条消息已到达。响应方会发送 ACK 吗？</translation>
    </message>
    <message>
        <source>A receive WQE was posted and every PSN arrived in order.</source>
        <translation>已提交了接收 WQE，并且每个 PSN 都按顺序到达。</translation>
    </message>
    <message>
        <source>6. RDMA READ</source>
        <translation>6. RDMA READ</translation>
    </message>
    <message>
        <source>READ is one-sided and pulls: host A names an address and rkey of host B&apos;s memory and host B&apos;s NIC sends the data back. One READ REQUEST reserves a PSN for every response packet.</source>
        <translation>READ 是单边的“拉取”：主机 A 指定主机 B 内存的地址和 rkey，由主机 B 的网卡把数据送回。一个 READ REQUEST 为每个响应包预留一个 PSN。</translation>
    </message>
    <message>
        <source>Host B&apos;s application never noticed: no receive, no completion on host B.</source>
        <translation>主机 B 的应用程序毫无察觉：主机 B 上没有接收，也没有完成。</translation>
    </message>
    <message>
        <source>Which opcode will host A&apos;s first packet carry?</source>
        <translation>主机 A 的第一个包将携带哪个操作码？</translation>
    </message>
    <message>
        <source>Host A asks; it does not send the data.</source>
        <translation>主机 A 是在请求；它并不发送数据。</translation>
    </message>
    <message>
        <source>The request reached host B. Who reads the requested bytes?</source>
        <translation>请求已到达主机 B。谁读取所请求的字节？</translation>
    </message>
    <message>
        <source>The rkey authorised host B&apos;s NIC, not its CPU.</source>
        <translation>rkey 授权的是主机 B 的网卡，而不是它的 CPU。</translation>
    </message>
    <message>
        <source>A READ pulls: the data flows towards the requester.</source>
        <translation>READ 是拉取：数据流向请求方。</translation>
    </message>
    <message>
        <source>Which PSN will the next READ RESPONSE carry?</source>
        <translation>下一个 READ RESPONSE 将携带哪个 PSN？</translation>
    </message>
    <message>
        <source>Responses use the PSNs the request reserved, starting at the request&apos;s own.</source>
        <translation>响应使用请求预留的 PSN，从请求自己的 PSN 开始。</translation>
    </message>
    <message>
        <source>Who writes the response data into host A&apos;s buffer?</source>
        <translation>谁把响应数据写入主机 A 的缓冲区？</translation>
    </message>
    <message>
        <source>The same DMA as a WRITE, the other way round.</source>
        <translation>与 WRITE 相同的 DMA，只是方向相反。</translation>
    </message>
    <message>
        <source>7. RDMA WRITE</source>
        <translation>7. RDMA WRITE</translation>
    </message>
    <message>
        <source>WRITE is one-sided and pushes: host A sends 8 KiB to an address and rkey of host B&apos;s memory, which it learned in the exchange. The first packet carries a RETH with them; no receive WQE is consumed.</source>
        <translation>WRITE 是单边的“推送”：主机 A 把 8 KiB 发送到主机 B 内存的某个地址和 rkey，这是它在交换中得知的。第一个包用 RETH 携带它们；不消耗接收 WQE。</translation>
    </message>
    <message>
        <source>Eight packets, one ACK, one completion on host A, nothing on host B&apos;s CPU.</source>
        <translation>八个包，一个 ACK，主机 A 上一个完成，主机 B 的 CPU 上什么也没有。</translation>
    </message>
    <message>
        <source>8 KiB at MTU 1024 is eight packets.</source>
        <translation>MTU 为 1024 时，8 KiB 就是八个包。</translation>
    </message>
    <message>
        <source>Which PSN will the next packet carry?</source>
        <translation>下一个包将携带哪个 PSN？</translation>
    </message>
    <message>
        <source>One more than the first.</source>
        <translation>比第一个多一。</translation>
    </message>
    <message>
        <source>Which opcode ends the message?</source>
        <translation>哪个操作码结束这条消息？</translation>
    </message>
    <message>
        <source>Only the first packet carries the RETH.</source>
        <translation>只有第一个包携带 RETH。</translation>
    </message>
    <message>
        <source>Who writes the data into host B&apos;s memory?</source>
        <translation>谁把数据写入主机 B 的内存？</translation>
    </message>
    <message>
        <source>Host B posted nothing for this transfer.</source>
        <translation>主机 B 没有为这次传输提交任何东西。</translation>
    </message>
    <message>
        <source>The last packet asked for an ACK. Will the responder ACK?</source>
        <translation>最后一个包请求了 ACK。响应方会发送 ACK 吗？</translation>
    </message>
    <message>
        <source>Every PSN arrived in order and the rkey allowed remote write.</source>
        <translation>每个 PSN 都按顺序到达，而且 rkey 允许远程写。</translation>
    </message>
    <message>
        <source>8. Atomics</source>
        <translation>8. 原子操作</translation>
    </message>
    <message>
        <source>An atomic operation reads, modifies and writes an 8-byte word of remote memory in one step no other access can split: FETCH_AND_ADD adds, COMPARE_AND_SWAP replaces the word only if it still holds the expected value. Each returns the word&apos;s original value.</source>
        <translation>原子操作在一个不可被其他访问打断的步骤中读取、修改并写回远程内存中的一个 8 字节字：FETCH_AND_ADD 做加法，COMPARE_AND_SWAP 仅当该字仍为预期值时才替换它。两者都返回该字的原始值。</translation>
    </message>
    <message>
        <source>The responder&apos;s NIC did the arithmetic; the original values came back in ATOMIC ACKNOWLEDGE packets.</source>
        <translation>响应方的网卡完成了运算；原始值通过 ATOMIC ACKNOWLEDGE 包返回。</translation>
    </message>
    <message>
        <source>Which opcode will host A send first?</source>
        <translation>主机 A 首先发送哪个操作码？</translation>
    </message>
    <message>
        <source>The first work request adds.</source>
        <translation>第一个工作请求做加法。</translation>
    </message>
    <message>
        <source>Who performs the addition on host B&apos;s word?</source>
        <translation>谁在主机 B 的字上执行加法？</translation>
    </message>
    <message>
        <source>Atomics are one-sided, like READ and WRITE.</source>
        <translation>原子操作和 READ、WRITE 一样是单边的。</translation>
    </message>
    <message>
        <source>Which opcode will host B&apos;s answer carry?</source>
        <translation>主机 B 的应答将携带哪个操作码？</translation>
    </message>
    <message>
        <source>The answer must carry the original value.</source>
        <translation>应答必须携带原始值。</translation>
    </message>
    <message>
        <source>Which opcode will host A send next?</source>
        <translation>主机 A 接下来发送哪个操作码？</translation>
    </message>
    <message>
        <source>The second work request compares and swaps.</source>
        <translation>第二个工作请求做比较并交换。</translation>
    </message>
    <message>
        <source>9. Errors and retries</source>
        <translation>9. 错误与重试</translation>
    </message>
    <message>
        <source>Reliable Connected recovers from loss itself. Host A writes 16 KiB across the PSN wrap (0xffffff to 0x000000) and the link loses one packet. The responder accepts only the PSN it expects, NAKs the first gap, and the requester goes back to the lost PSN and resends from there (go-back-N).</source>
        <translation>可靠连接自己就能从丢包中恢复。主机 A 跨越 PSN 回绕（0xffffff 到 0x000000）写入 16 KiB，链路丢失了一个包。响应方只接受它期望的 PSN，对第一个缺口发送 NAK，请求方回到丢失的 PSN 并从那里重发（go-back-N）。</translation>
    </message>
    <message>
        <source>One lost packet cost a NAK and the resending of every packet after it: go-back-N. The rnr-retry, remote-access-error and retry-exceeded scenarios show the other errors.</source>
        <translation>一个丢失的包代价是一个 NAK 以及其后每个包的重发：go-back-N。rnr-retry、remote-access-error 和 retry-exceeded 场景展示了其他错误。</translation>
    </message>
    <message>
        <source>What becomes of the next packet?</source>
        <translation>下一个包会怎样？</translation>
    </message>
    <message>
        <source>Look for it among the frames host B receives.</source>
        <translation>在主机 B 接收的帧中找找它。</translation>
    </message>
    <message>
        <source>What becomes of this packet?</source>
        <translation>这个包会怎样？</translation>
    </message>
    <message>
        <source>Host B sees a gap in the PSNs. How does it answer?</source>
        <translation>主机 B 发现 PSN 有缺口。它如何应答？</translation>
    </message>
    <message>
        <source>The responder tells the requester which PSN it expects.</source>
        <translation>响应方告诉请求方它期望的 PSN。</translation>
    </message>
    <message>
        <source>Host A got the NAK. Which PSN will its next packet carry?</source>
        <translation>主机 A 收到了 NAK。它的下一个包将携带哪个 PSN？</translation>
    </message>
    <message>
        <source>Go back to the PSN the NAK names.</source>
        <translation>回到 NAK 指明的 PSN。</translation>
    </message>
    <message>
        <source>10. iWARP and rdma_cm</source>
        <translation>10. iWARP 与 rdma_cm</translation>
    </message>
    <message>
        <source>iWARP runs RDMA over TCP: RDMAP over DDP over MPA over a TCP connection. The connection is made with rdma_cm: the server binds and listens, the client resolves the address and route and connects, and MPA&apos;s request and reply start the stream.</source>
        <translation>iWARP 在 TCP 上运行 RDMA：RDMAP 位于 DDP 之上，DDP 位于 MPA 之上，MPA 位于一条 TCP 连接之上。连接由 rdma_cm 建立：服务器绑定并监听，客户端解析地址和路由后发起连接，MPA 的请求和应答开启数据流。</translation>
    </message>
    <message>
        <source>The data was placed directly into host B&apos;s buffer by DDP: zero-copy even though TCP carried it.</source>
        <translation>数据由 DDP 直接放入主机 B 的缓冲区：即使由 TCP 承载，也是零拷贝。</translation>
    </message>
    <message>
        <source>Host B is the server. Which rdma_cm call comes next?</source>
        <translation>主机 B 是服务器。接下来是哪个 rdma_cm 调用？</translation>
    </message>
    <message>
        <source>A server first names the address it serves.</source>
        <translation>服务器首先指定它服务的地址。</translation>
    </message>
    <message>
        <source>Which rdma_cm call does host A make next?</source>
        <translation>主机 A 接下来调用哪个 rdma_cm 函数？</translation>
    </message>
    <message>
        <source>A client must find the server before it connects.</source>
        <translation>客户端必须先找到服务器才能连接。</translation>
    </message>
    <message>
        <source>The client opens the TCP connection.</source>
        <translation>客户端建立 TCP 连接。</translation>
    </message>
    <message>
        <source>Who places the data into host B&apos;s buffer?</source>
        <translation>谁把数据放入主机 B 的缓冲区？</translation>
    </message>
    <message>
        <source>DDP segments name their target buffer.</source>
        <translation>DDP 段指明了它们的目标缓冲区。</translation>
    </message>
    <message>
        <source>ACK: everything up to it arrived</source>
        <translation>ACK：它之前的一切都已到达</translation>
    </message>
    <message>
        <source>RNR NAK: receiver not ready</source>
        <translation>RNR NAK：接收方未就绪</translation>
    </message>
    <message>
        <source>NAK: PSN sequence error</source>
        <translation>NAK：PSN 序列错误</translation>
    </message>
    <message>
        <source>NAK: invalid request</source>
        <translation>NAK：无效请求</translation>
    </message>
    <message>
        <source>NAK: remote access error</source>
        <translation>NAK：远程访问错误</translation>
    </message>
    <message>
        <source>NAK: remote operational error</source>
        <translation>NAK：远程操作错误</translation>
    </message>
    <message>
        <source>A packet without an AETH</source>
        <translation>不带 AETH 的包</translation>
    </message>
    <message>
        <source>It arrives and the responder takes it</source>
        <translation>它到达了，响应方接受了它</translation>
    </message>
    <message>
        <source>The link loses it</source>
        <translation>链路丢失了它</translation>
    </message>
    <message>
        <source>The receiving NIC discards it (a failed check)</source>
        <translation>接收网卡丢弃了它（某项检查失败）</translation>
    </message>
    <message>
        <source>It arrives, but the responder drops it (out of sequence)</source>
        <translation>它到达了，但响应方丢弃了它（乱序）</translation>
    </message>
    <message>
        <source>%1&apos;s CPU</source>
        <translation>%1 的 CPU</translation>
    </message>
    <message>
        <source>No CPU: the NIC does it on its own</source>
        <translation>没有 CPU：网卡独自完成</translation>
    </message>
    <message>
        <source>Host B still waits for the PSN the link lost.</source>
        <translation>主机 B 仍在等待链路丢失的那个 PSN。</translation>
    </message>
    <message>
        <source>11. Ceph&apos;s messenger over RDMA</source>
        <translation>11. 基于 RDMA 的 Ceph messenger</translation>
    </message>
    <message>
        <source>Ceph&apos;s async messenger chooses its network stack per messenger: POSIX TCP or RDMA. Its RDMA stack first swaps QP information as a fixed text message over a TCP side channel, receives into registered 128 KiB chunks from a shared receive queue, copies each message&apos;s bufferlist into registered send chunks, sends them as signalled SENDs, copies received chunks out and reposts them, and closes with a zero-length SEND. A client sends three 300 KiB messages to an OSD.</source>
        <translation>Ceph 的 async messenger 为每个 messenger 选择网络栈：POSIX TCP 或 RDMA。它的 RDMA 栈先通过 TCP 旁路通道以固定格式的文本消息交换 QP 信息，用共享接收队列中已注册的 128 KiB 块接收，把每条消息的 bufferlist 拷贝进已注册的发送块，以 signalled SEND 发送，把收到的块拷贝出来并重新投递，最后用一个零长度 SEND 关闭。一个 client 向一个 OSD 发送三条 300 KiB 的消息。</translation>
    </message>
    <message>
        <source>The messenger keeps its stream semantics over RDMA: one copy on each side into and out of registered chunks, but no system call and no kernel TCP/IP on the data path. The next lesson sends the same messages over its TCP stack.</source>
        <translation>messenger 在 RDMA 上保持了字节流语义：两端各有一次拷贝（拷入和拷出已注册块），但数据路径上没有系统调用，也没有内核 TCP/IP。下一课通过它的 TCP 栈发送同样的消息。</translation>
    </message>
    <message>
        <source>The TCP side channel is up. Whose CPU writes the client&apos;s QP information into the socket?</source>
        <translation>TCP 旁路通道已建立。谁的 CPU 把 client 的 QP 信息写入套接字？</translation>
    </message>
    <message>
        <source>The QP information is an ordinary text message on an ordinary socket.</source>
        <translation>QP 信息是普通套接字上的一条普通文本消息。</translation>
    </message>
    <message>
        <source>Which host sends the next frame on the side channel?</source>
        <translation>旁路通道上的下一帧由哪台主机发送？</translation>
    </message>
    <message>
        <source>The side that wrote its QP information first.</source>
        <translation>先写出自己 QP 信息的那一方。</translation>
    </message>
    <message>
        <source>The client submits a 300 KiB message. Whose CPU copies the bufferlist into the registered send chunk?</source>
        <translation>client 提交了一条 300 KiB 的消息。谁的 CPU 把 bufferlist 拷贝进已注册的发送块？</translation>
    </message>
    <message>
        <source>The bufferlist lies in ordinary memory, which the NIC may not read.</source>
        <translation>bufferlist 位于普通内存中，网卡不能读取。</translation>
    </message>
    <message>
        <source>Which opcode carries the first bytes of the chunk?</source>
        <translation>哪个操作码携带该块的最初几个字节？</translation>
    </message>
    <message>
        <source>Ceph sends its stream two-sided, into posted receives; a 128 KiB chunk takes many packets.</source>
        <translation>Ceph 以双边方式把字节流发送到已投递的接收中；一个 128 KiB 的块需要许多个包。</translation>
    </message>
    <message>
        <source>Each packet of an RC QP carries the next PSN.</source>
        <translation>RC QP 的每个包都携带下一个 PSN。</translation>
    </message>
    <message>
        <source>The SEND reaches the OSD. Who places its bytes into the OSD&apos;s registered chunk?</source>
        <translation>SEND 到达 OSD。谁把它的字节放入 OSD 的已注册块？</translation>
    </message>
    <message>
        <source>The chunk was posted to the shared receive queue before the SEND arrived.</source>
        <translation>该块在 SEND 到达之前已投递到共享接收队列。</translation>
    </message>
    <message>
        <source>The OSD has polled the receive completion. Whose CPU copies the chunk out to the reader?</source>
        <translation>OSD 已轮询到接收完成。谁的 CPU 把块中的数据拷贝给读取方？</translation>
    </message>
    <message>
        <source>The chunk must go back to the shared receive queue; the reader keeps the bytes.</source>
        <translation>该块必须回到共享接收队列；字节留在读取方。</translation>
    </message>
    <message>
        <source>All three messages are delivered and the client closes. Which opcode carries the close?</source>
        <translation>三条消息都已送达，client 关闭连接。哪个操作码携带这次关闭？</translation>
    </message>
    <message>
        <source>RDMA has no FIN: the close is a SEND without payload, which fits in one packet.</source>
        <translation>RDMA 没有 FIN：关闭是一个不带载荷的 SEND，一个包就能装下。</translation>
    </message>
    <message>
        <source>12. Ceph&apos;s messenger over TCP</source>
        <translation>12. 基于 TCP 的 Ceph messenger</translation>
    </message>
    <message>
        <source>The same three 300 KiB messages from the client to the OSD, with the messenger&apos;s POSIX stack: send() on a TCP socket, the kernel&apos;s TCP/IP, recv() at the OSD. Compare the copies, system calls and CPU time in the host panes with the RDMA stack&apos;s.</source>
        <translation>同样三条 300 KiB 的消息从 client 发往 OSD，这次使用 messenger 的 POSIX 栈：TCP 套接字上的 send()、内核的 TCP/IP、OSD 上的 recv()。请把主机面板中的拷贝、系统调用和 CPU 时间与 RDMA 栈的进行比较。</translation>
    </message>
    <message>
        <source>Both stacks copy each message once on each side; the TCP stack adds system calls, the kernel&apos;s TCP/IP work per segment and interrupts, which the RDMA stack leaves to the NIC.</source>
        <translation>两种栈都在两端各拷贝每条消息一次；TCP 栈还增加了系统调用、内核对每个报文段的 TCP/IP 处理以及中断，而 RDMA 栈把这些交给了网卡。</translation>
    </message>
    <message>
        <source>The client has called send() with a 300 KiB message. Whose CPU copies it into the socket send buffer?</source>
        <translation>client 以一条 300 KiB 的消息调用了 send()。谁的 CPU 把它拷贝进套接字发送缓冲区？</translation>
    </message>
    <message>
        <source>send() runs in the kernel, on the sending host.</source>
        <translation>send() 在发送主机的内核中运行。</translation>
    </message>
    <message>
        <source>Segments have reached the OSD. Whose CPU copies them to the reader?</source>
        <translation>报文段已到达 OSD。谁的 CPU 把它们拷贝给读取方？</translation>
    </message>
    <message>
        <source>Data still flows from the client, and the OSD acknowledges what it has received.</source>
        <translation>数据仍在从 client 流出，OSD 会确认它已收到的数据。</translation>
    </message>
</context>
<context>
    <name>PsnBase</name>
    <message>
        <source>PSNs in &amp;Decimal</source>
        <translation>PSN 以十进制显示(&amp;D)</translation>
    </message>
    <message>
        <source>Write PSNs in decimal in the ladder and the host tables (hexadecimal when off)</source>
        <translation>在时序图和主机表格中以十进制显示 PSN（关闭时为十六进制）</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>Connection:</source>
        <translation>连接：</translation>
    </message>
    <message>
        <source>all (PAUSE)</source>
        <translation>全部（PAUSE）</translation>
    </message>
    <message>
        <source>no peer host given: enter HOST or HOST:PORT</source>
        <translation>未指定对端主机：请输入 HOST 或 HOST:PORT</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: an IPv6 address in [ ] lacks its &apos;]&apos;</source>
        <translation>&apos;%1&apos;：[ ] 中的 IPv6 地址缺少 &apos;]&apos;</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: expected &apos;:PORT&apos; after &apos;]&apos;</source>
        <translation>&apos;%1&apos;：&apos;]&apos; 之后应为 &apos;:PORT&apos;</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a host name or address</source>
        <translation>&apos;%1&apos; 不是主机名或地址</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: the port must be a number from 1 to 65535</source>
        <translation>&apos;%1&apos;：端口必须是 1 到 65535 之间的数字</translation>
    </message>
    <message>
        <source>--device needs exactly one of --connect HOST[:PORT], --serve or --loopback</source>
        <translation>--device 需要且只需要 --connect HOST[:PORT]、--serve 或 --loopback 之一</translation>
    </message>
    <message>
        <source>--port %1: the port must be a number from 1 to 65535</source>
        <translation>--port %1：端口必须是 1 到 65535 之间的数字</translation>
    </message>
    <message>
        <source>no RDMA device given</source>
        <translation>未指定 RDMA 设备</translation>
    </message>
    <message>
        <source>no scenario given</source>
        <translation>未指定场景</translation>
    </message>
    <message>
        <source>the port must be a number from 1 to 65535</source>
        <translation>端口必须是 1 到 65535 之间的数字</translation>
    </message>
    <message>
        <source>Captures from the Soft-RoCE lab</source>
        <translation>Soft-RoCE 实验环境的抓包</translation>
    </message>
    <message>
        <source>(no example captures installed)</source>
        <translation>（未安装示例抓包）</translation>
    </message>
    <message>
        <source>Simulated scenarios</source>
        <translation>模拟场景</translation>
    </message>
    <message>
        <source>Congestion scenarios (PFC, ECN, DCQCN)</source>
        <translation>拥塞场景（PFC、ECN、DCQCN）</translation>
    </message>
    <message>
        <source>(no congestion scenarios installed)</source>
        <translation>（未安装拥塞场景）</translation>
    </message>
</context>
<context>
    <name>ScenarioNarration</name>
    <message>
        <source>Set up both hosts</source>
        <translation>准备两台主机</translation>
    </message>
    <message>
        <source>RC RDMA WRITE of 16 KiB across the PSN wrap with PSN 0x000001 lost: the responder NAKs with PSN sequence error and the requester goes back to the lost PSN</source>
        <translation>跨越 PSN 回绕的 16 KiB RC RDMA WRITE，PSN 0x000001 丢失：响应方以 PSN 序列错误回 NAK，请求方回退到丢失的 PSN 重发</translation>
    </message>
    <message>
        <source>RC FETCH_AND_ADD then COMPARE_AND_SWAP on an 8-byte word, each answered by an ATOMIC ACKNOWLEDGE carrying the original value</source>
        <translation>对一个 8 字节字先做 RC FETCH_AND_ADD，再做 COMPARE_AND_SWAP，每次都由携带原值的 ATOMIC ACKNOWLEDGE 应答</translation>
    </message>
    <message>
        <source>host-b sends six RDMA WRITEs of 4 KiB and two SENDs of 3000 bytes to host-a, one at a time (four packets each); run in the lab with --loss to see NAKs and resends, then replay the same drops in the simulator</source>
        <translation>host-b 依次向 host-a 发送六个 4 KiB 的 RDMA WRITE 和两个 3000 字节的 SEND（每个四个分组）；在实验环境中加 --loss 运行可看到 NAK 和重发，再在模拟器中重放同样的丢包</translation>
    </message>
    <message>
        <source>RC RDMA READ of 2000 bytes: one READ REQUEST reserving two PSNs, answered by READ RESPONSE FIRST and LAST</source>
        <translation>2000 字节的 RC RDMA READ：一个占用两个 PSN 的 READ REQUEST，由 READ RESPONSE FIRST 和 LAST 应答</translation>
    </message>
    <message>
        <source>RC SEND of 3000 bytes at MTU 1024: SEND FIRST, MIDDLE, LAST and one ACK</source>
        <translation>MTU 1024 下 3000 字节的 RC SEND：SEND FIRST、MIDDLE、LAST 和一个 ACK</translation>
    </message>
    <message>
        <source>RC RDMA WRITE WITH IMMEDIATE: the data lands by RDMA and the immediate consumes a receive WQE</source>
        <translation>RC RDMA WRITE WITH IMMEDIATE：数据经 RDMA 直接写入，立即数消耗一个接收 WQE</translation>
    </message>
    <message>
        <source>RC RDMA WRITE of 8192 bytes: WRITE FIRST (RETH), MIDDLEs, LAST; no receive WQE</source>
        <translation>8192 字节的 RC RDMA WRITE：WRITE FIRST（带 RETH）、若干 MIDDLE、LAST；不消耗接收 WQE</translation>
    </message>
    <message>
        <source>RC RDMA WRITE to an MR without IBV_ACCESS_REMOTE_WRITE: NAK remote access error, REM_ACCESS_ERR, both QPs go to ERR and later WRs are flushed</source>
        <translation>向没有 IBV_ACCESS_REMOTE_WRITE 权限的 MR 做 RC RDMA WRITE：NAK 远端访问错误，REM_ACCESS_ERR，两端 QP 进入 ERR，之后的 WR 被冲刷（flush）</translation>
    </message>
    <message>
        <source>RC SEND into a link that loses everything host-a sends: the retransmit timer (4.096 us x 2^8) fires three times, then RETRY_EXC_ERR</source>
        <translation>在丢弃 host-a 所发一切的链路上做 RC SEND：重传定时器（4.096 µs × 2^8）触发三次，然后 RETRY_EXC_ERR</translation>
    </message>
    <message>
        <source>RC SEND before the peer posted a receive: RNR NAK (min_rnr_timer 12 = 0.64 ms), the requester waits and resends; rnr_retry 7 retries forever</source>
        <translation>对端尚未投递接收就做 RC SEND：RNR NAK（min_rnr_timer 12 = 0.64 ms），请求方等待后重发；rnr_retry 7 表示无限重试</translation>
    </message>
    <message>
        <source>Tour: SEND, WRITE, READ, RNR NAK</source>
        <translation>导览：SEND、WRITE、READ、RNR NAK</translation>
    </message>
    <message>
        <source>A tour: connection setup with the out-of-band exchange, a multi-packet SEND, an RDMA WRITE, an RDMA READ and a SEND that meets a receiver not ready (RNR NAK)</source>
        <translation>导览：带带外信息交换的连接建立、一个多分组 SEND、一次 RDMA WRITE、一次 RDMA READ，以及一个遇到接收方未就绪（RNR NAK）的 SEND</translation>
    </message>
    <message>
        <source>Each host opens its device, allocates a protection domain, registers 8 KiB of memory (getting an lkey for itself and an rkey for its peer), creates a completion queue and an RC queue pair, which starts in RESET.</source>
        <translation>每台主机打开设备，分配保护域，注册 8 KiB 内存（得到供自己使用的 lkey 和供对端使用的 rkey），创建一个完成队列和一个 RC 队列对，QP 初始处于 RESET 状态。</translation>
    </message>
    <message>
        <source>Connect the queue pairs</source>
        <translation>连接队列对</translation>
    </message>
    <message>
        <source>Each QP goes RESET -&gt; INIT; the hosts exchange QP number, PSN, GID and their buffer&apos;s address and rkey out of band (rc_pingpong does it over TCP); then each QP goes to RTR (ready to receive: it knows its peer) and to RTS (ready to send), each step with an explicit attribute mask.</source>
        <translation>每个 QP 先从 RESET 进入 INIT；两台主机通过带外方式（rc_pingpong 用 TCP）交换 QP 号、PSN、GID 以及缓冲区地址和 rkey；然后每个 QP 进入 RTR（准备接收：已知道对端）再进入 RTS（准备发送），每一步都带明确的属性掩码。</translation>
    </message>
    <message>
        <source>A multi-packet SEND</source>
        <translation>多分组 SEND</translation>
    </message>
    <message>
        <source>Host B posts a receive; host A sends 3000 bytes. With a path MTU of 1024 the NIC cuts the message into SEND FIRST, MIDDLE and LAST, one PSN each. B&apos;s NIC places each payload in the receive buffer by DMA and acknowledges; each application polls its completion.</source>
        <translation>主机 B 投递一个接收；主机 A 发送 3000 字节。路径 MTU 为 1024，网卡把消息切成 SEND FIRST、MIDDLE 和 LAST，各占一个 PSN。B 的网卡用 DMA 把每段载荷放入接收缓冲区并确认；两边的应用各自轮询自己的完成。</translation>
    </message>
    <message>
        <source>An RDMA WRITE</source>
        <translation>一次 RDMA WRITE</translation>
    </message>
    <message>
        <source>Host A writes 1500 bytes straight into host B&apos;s memory, at the address and rkey B gave it. B&apos;s CPU does nothing and B gets no completion: only A learns, from the ACK, that the write is done.</source>
        <translation>主机 A 按 B 提供的地址和 rkey，把 1500 字节直接写入主机 B 的内存。B 的 CPU 什么也不做，B 也得不到完成：只有 A 从 ACK 得知写入已完成。</translation>
    </message>
    <message>
        <source>An RDMA READ</source>
        <translation>一次 RDMA READ</translation>
    </message>
    <message>
        <source>Host A reads 2000 bytes from host B&apos;s memory. One READ REQUEST goes out; B&apos;s NIC answers with READ RESPONSE FIRST and LAST, which carry the data and acknowledge the request.</source>
        <translation>主机 A 从主机 B 的内存读取 2000 字节。发出一个 READ REQUEST；B 的网卡以 READ RESPONSE FIRST 和 LAST 应答，它们携带数据并确认该请求。</translation>
    </message>
    <message>
        <source>Receiver not ready (RNR NAK)</source>
        <translation>接收方未就绪（RNR NAK）</translation>
    </message>
    <message>
        <source>Host A sends 200 bytes, but host B has no receive posted. B&apos;s NIC answers with an RNR NAK carrying a timer (min_rnr_timer 1: 0.01 ms); A waits that long and retries the SEND, which succeeds once B has posted a receive.</source>
        <translation>主机 A 发送 200 字节，但主机 B 没有投递接收。B 的网卡回一个带定时器的 RNR NAK（min_rnr_timer 1：0.01 ms）；A 等待这么久后重试 SEND，待 B 投递接收后即成功。</translation>
    </message>
    <message>
        <source>UC RDMA WRITEs: no ACKs; the middle packet of the first message is lost, so the responder drops the rest of that message and accepts the next FIRST</source>
        <translation>UC RDMA WRITE：没有 ACK；第一条消息的中间分组丢失，响应方丢弃该消息的其余部分，并接受下一个 FIRST</translation>
    </message>
    <message>
        <source>UD SEND ONLY with DETH (Q_Key, source QP); the receive buffer gets the 40-byte GRH before the payload</source>
        <translation>带 DETH（Q_Key、源 QP）的 UD SEND ONLY；接收缓冲区在载荷前收到 40 字节的 GRH</translation>
    </message>
    <message>
        <source>%1: ibv_poll_cq(%2) until %3 completion(s)</source>
        <translation>%1：ibv_poll_cq(%2)，直到取得 %3 个完成</translation>
    </message>
    <message>
        <source>%1: sends the QPN, PSN and GID of %2 to %3 out of band (TCP)</source>
        <translation>%1：通过带外（TCP）把 %2 的 QPN、PSN 和 GID 发给 %3</translation>
    </message>
    <message>
        <source>%1: sends the QPN, PSN, GID, rkey and address of %2 to %3 out of band (TCP)</source>
        <translation>%1：通过带外（TCP）把 %2 的 QPN、PSN、GID、rkey 和地址发给 %3</translation>
    </message>
    <message>
        <source>let %1 µs pass</source>
        <translation>等待 %1 µs</translation>
    </message>
    <message>
        <source>compare %1 bytes of %2 and %3</source>
        <translation>比较 %2 与 %3 的 %1 字节</translation>
    </message>
    <message>
        <source>Connect: the TCP three-way handshake</source>
        <translation>连接：TCP 三次握手</translation>
    </message>
    <message>
        <source>host-b listens, host-a connects: SYN, SYN-ACK, ACK. No application data yet.</source>
        <translation>host-b 监听，host-a 发起连接：SYN、SYN-ACK、ACK。此时还没有应用数据。</translation>
    </message>
    <message>
        <source>Send 64 KiB with send(), receive it with recv()</source>
        <translation>用 send() 发送 64 KiB，用 recv() 接收</translation>
    </message>
    <message>
        <source>Each send() copies from the application buffer into host-a&apos;s socket send buffer; the kernel cuts it into segments; host-b&apos;s kernel queues them in its socket receive buffer and ACKs them; each recv() copies from there into the application buffer.</source>
        <translation>每次 send() 把数据从应用缓冲区拷贝到 host-a 的套接字发送缓冲区；内核把它切成报文段；host-b 的内核把报文段排入其套接字接收缓冲区并回 ACK；每次 recv() 再从那里拷贝到应用缓冲区。</translation>
    </message>
    <message>
        <source>Close the connection</source>
        <translation>关闭连接</translation>
    </message>
    <message>
        <source>Both sides close: FIN and ACK each way.</source>
        <translation>双方关闭：每个方向各一个 FIN 和 ACK。</translation>
    </message>
    <message>
        <source>Connect with rdma_cm: bind, listen, connect, accept</source>
        <translation>用 rdma_cm 建立连接：bind、listen、connect、accept</translation>
    </message>
    <message>
        <source>host-b binds and listens, host-a resolves and connects: the RNICs open a TCP connection, then exchange the MPA Request and Reply (markers, CRC, private data) before any DDP segment may flow.</source>
        <translation>host-b 绑定并监听，host-a 解析地址并发起连接：两块 RNIC 先建立 TCP 连接，再交换 MPA Request 和 Reply（标记、CRC、私有数据），之后 DDP 段才能传输。</translation>
    </message>
    <message>
        <source>Register memory, post the work request, move 64 KiB</source>
        <translation>注册内存、投递工作请求、传输 64 KiB</translation>
    </message>
    <message>
        <source>Both hosts register memory (an STag each); the RNIC cuts the message into DDP segments, each in one MPA FPDU in one TCP segment, and the peer&apos;s RNIC places their payload directly into registered memory: no CPU copy, no system call.</source>
        <translation>两台主机各自注册内存（各得一个 STag）；RNIC 把消息切成 DDP 段，每段装进一个 MPA FPDU、放在一个 TCP 报文段里，对端 RNIC 把载荷直接放入已注册内存：没有 CPU 拷贝，也没有系统调用。</translation>
    </message>
    <message>
        <source>The TCP connection below iWARP closes.</source>
        <translation>iWARP 之下的 TCP 连接关闭。</translation>
    </message>
    <message>
        <source>TCP stream: 64 KiB through send() and recv()</source>
        <translation>TCP 流：经 send() 和 recv() 传输 64 KiB</translation>
    </message>
    <message>
        <source>One 64 KiB transfer over the TCP socket path: send() copies into the socket send buffer, the kernel sends segments, recv() copies out of the socket receive buffer</source>
        <translation>经 TCP 套接字路径传输一次 64 KiB：send() 拷贝到套接字发送缓冲区，内核发送报文段，recv() 从套接字接收缓冲区拷贝出来</translation>
    </message>
    <message>
        <source>iWARP SEND/RECV of 64 KiB (rdma_cm, MPA, untagged DDP)</source>
        <translation>64 KiB 的 iWARP SEND/RECV（rdma_cm、MPA、无标签 DDP）</translation>
    </message>
    <message>
        <source>One 64 KiB SEND over iWARP: rdma_cm connects, MPA negotiates, untagged DDP segments fill the posted receive buffer</source>
        <translation>经 iWARP 的一次 64 KiB SEND：rdma_cm 建立连接，MPA 协商，无标签 DDP 段填入已投递的接收缓冲区</translation>
    </message>
    <message>
        <source>iWARP RDMA WRITE of 64 KiB (tagged DDP)</source>
        <translation>64 KiB 的 iWARP RDMA WRITE（带标签 DDP）</translation>
    </message>
    <message>
        <source>One 64 KiB RDMA WRITE over iWARP: tagged DDP segments name the peer&apos;s STag and offset</source>
        <translation>经 iWARP 的一次 64 KiB RDMA WRITE：带标签的 DDP 段指明对端的 STag 和偏移</translation>
    </message>
    <message>
        <source>iWARP RDMA READ of 64 KiB (Read Request, tagged Read Response)</source>
        <translation>64 KiB 的 iWARP RDMA READ（Read Request，带标签的 Read Response）</translation>
    </message>
    <message>
        <source>One 64 KiB RDMA READ over iWARP: a Read Request, answered by tagged Read Response segments placed into the reader&apos;s memory</source>
        <translation>经 iWARP 的一次 64 KiB RDMA READ：一个 Read Request，由放入读取方内存的带标签 Read Response 段应答</translation>
    </message>
    <message>
        <source>Connect: TCP side channel, QP information, shared receive queue</source>
        <translation>连接：TCP 旁路通道、QP 信息、共享接收队列</translation>
    </message>
    <message>
        <source>The client connects a TCP socket to the OSD&apos;s port 6800; both post registered 128 KiB chunks to their shared receive queue and swap their QP information as fixed text messages over the socket, then move their RC QPs to RTR and RTS.</source>
        <translation>client 用 TCP 套接字连接 OSD 的 6800 端口；双方把已注册的 128 KiB 块投递到各自的共享接收队列，通过套接字以固定格式的文本消息交换 QP 信息，然后把各自的 RC QP 转到 RTR 和 RTS。</translation>
    </message>
    <message>
        <source>Send three messages of 300 KiB as SENDs</source>
        <translation>以 SEND 发送三条 300 KiB 的消息</translation>
    </message>
    <message>
        <source>The client copies each message&apos;s bufferlist into registered send chunks and posts one signalled SEND per chunk; the OSD&apos;s NIC places each SEND into a chunk of its SRQ, and the OSD&apos;s CPU copies it out to the reader and reposts the chunk.</source>
        <translation>client 把每条消息的 bufferlist 拷贝进已注册的发送块，每个块投递一个 signalled SEND；OSD 的网卡把每个 SEND 放入其 SRQ 的一个块，OSD 的 CPU 把数据拷贝给读取方并重新投递该块。</translation>
    </message>
    <message>
        <source>Close: a zero-length SEND</source>
        <translation>关闭：一个零长度 SEND</translation>
    </message>
    <message>
        <source>close() posts a SEND without payload; its receive completion of length 0 tells the OSD that the client closed. Then the side channel&apos;s socket closes.</source>
        <translation>close() 投递一个不带载荷的 SEND；长度为 0 的接收完成告诉 OSD：client 已关闭。随后旁路通道的套接字关闭。</translation>
    </message>
    <message>
        <source>The client connects to the OSD&apos;s port 6800: SYN, SYN-ACK, ACK.</source>
        <translation>client 连接 OSD 的 6800 端口：SYN、SYN-ACK、ACK。</translation>
    </message>
    <message>
        <source>Send three messages of 300 KiB with send() and recv()</source>
        <translation>用 send() 和 recv() 发送三条 300 KiB 的消息</translation>
    </message>
    <message>
        <source>Each send() copies the message into the client&apos;s socket send buffer; the kernels carry it as TCP segments; each recv() copies it out of the OSD&apos;s socket receive buffer.</source>
        <translation>每次 send() 把消息拷贝进 client 的套接字发送缓冲区；内核以 TCP 报文段传送它；每次 recv() 把它从 OSD 的套接字接收缓冲区拷贝出来。</translation>
    </message>
    <message>
        <source>Ceph messenger, RDMA stack: QP info over TCP, SRQ chunks, SENDs</source>
        <translation>Ceph messenger，RDMA 栈：经 TCP 交换 QP 信息、SRQ 块、SEND</translation>
    </message>
    <message>
        <source>Ceph&apos;s async messenger (async+rdma) sends three 300 KiB messages from a client to an OSD: QP information over a TCP side channel, registered 128 KiB chunks in a shared receive queue, the bufferlist copied into send chunks and sent as signalled SENDs, received chunks copied out and reposted, a zero-length SEND as the close</source>
        <translation>Ceph 的 async messenger（async+rdma）从 client 向 OSD 发送三条 300 KiB 的消息：通过 TCP 旁路通道交换 QP 信息，共享接收队列中有已注册的 128 KiB 块，bufferlist 被拷贝进发送块并以 signalled SEND 发送，收到的块被拷贝出来并重新投递，以一个零长度 SEND 作为关闭</translation>
    </message>
    <message>
        <source>Ceph messenger, POSIX stack: the same messages over TCP sockets</source>
        <translation>Ceph messenger，POSIX 栈：同样的消息经 TCP 套接字传送</translation>
    </message>
    <message>
        <source>Ceph&apos;s async messenger (async+posix) sends the same three 300 KiB messages from a client to an OSD over a TCP socket: send() copies into the socket buffer, recv() copies out of it</source>
        <translation>Ceph 的 async messenger（async+posix）经 TCP 套接字从 client 向 OSD 发送同样三条 300 KiB 的消息：send() 拷贝进套接字缓冲区，recv() 从中拷贝出来</translation>
    </message>
</context>
<context>
    <name>TimeDisplayFormat</name>
    <message>
        <source>&amp;Time Display Format</source>
        <translation>时间显示格式(&amp;T)</translation>
    </message>
    <message>
        <source>Seconds Since &amp;Beginning of Capture</source>
        <translation>自抓包开始以来的秒数(&amp;B)</translation>
    </message>
    <message>
        <source>Seconds Since &amp;Previous Displayed Packet</source>
        <translation>自上一个显示的分组以来的秒数(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Time of Day</source>
        <translation>当日时间(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;UTC Date and Time of Day</source>
        <translation>UTC 日期和时间(&amp;U)</translation>
    </message>
</context>
<context>
    <name>TransportChoice</name>
    <message>
        <source>iWARP</source>
        <translation>iWARP</translation>
    </message>
    <message>
        <source>TCP sockets</source>
        <translation>TCP 套接字</translation>
    </message>
    <message>
        <source>%1 runs over iWARP (RDMAP, DDP and MPA over TCP in the RNIC), not over %2: Transport set to iWARP.</source>
        <translation>%1 运行在 iWARP 上（RNIC 中 TCP 之上的 RDMAP、DDP 和 MPA），而不是 %2：传输方式已设为 iWARP。</translation>
    </message>
    <message>
        <source>%1 runs over the kernel&apos;s TCP/IP sockets, not over %2: Transport set to TCP sockets.</source>
        <translation>%1 运行在内核的 TCP/IP 套接字上，而不是 %2：传输方式已设为 TCP 套接字。</translation>
    </message>
    <message>
        <source>%1 is a verbs scenario for RoCE or InfiniBand, not for %2: Transport set to RoCEv2 (IPv4).</source>
        <translation>%1 是用于 RoCE 或 InfiniBand 的 verbs 场景，而不是用于 %2：传输方式已设为 RoCEv2 (IPv4)。</translation>
    </message>
    <message>
        <source>%1 does not run over iWARP: showing %2, its iWARP counterpart.</source>
        <translation>%1 不能运行在 iWARP 上：改为显示它的 iWARP 对应场景 %2。</translation>
    </message>
    <message>
        <source>%1 does not run over TCP sockets: showing tcp-stream, the same kind of transfer through send() and recv().</source>
        <translation>%1 不能运行在 TCP 套接字上：改为显示 tcp-stream，即通过 send() 和 recv() 的同类传输。</translation>
    </message>
    <message>
        <source>%1 runs only over %2: showing %3, its verbs counterpart, over %4.</source>
        <translation>%1 只能运行在 %2 上：改为在 %4 上显示它的 verbs 对应场景 %3。</translation>
    </message>
    <message>
        <source>Connect with rdma_cm: %1 always connects through rdma_cm (bind, listen, connect, accept, then the MPA Request and Reply).</source>
        <translation>用 rdma_cm 连接：%1 总是通过 rdma_cm 连接（bind、listen、connect、accept，然后是 MPA Request 和 Reply）。</translation>
    </message>
    <message>
        <source>Connect with rdma_cm does not apply to %1: sockets connect with connect() and accept().</source>
        <translation>用 rdma_cm 连接不适用于 %1：套接字用 connect() 和 accept() 建立连接。</translation>
    </message>
</context>
<context>
    <name>rdmascope</name>
    <message>
        <source>Soft-RoCE lab (2 qemu guests)</source>
        <translation>Soft-RoCE 实验环境（2 台 qemu 虚拟机）</translation>
    </message>
    <message>
        <source>Simulator</source>
        <translation>模拟器</translation>
    </message>
    <message>
        <source>this build has no libibverbs support</source>
        <translation>此版本未编译 libibverbs 支持</translation>
    </message>
    <message>
        <source>Device %1 (real verbs)</source>
        <translation>设备 %1（真实 verbs）</translation>
    </message>
    <message>
        <source>lab/run-pair.sh was not found</source>
        <translation>未找到 lab/run-pair.sh</translation>
    </message>
    <message>
        <source>rdmascope-cli is not built</source>
        <translation>rdmascope-cli 尚未构建</translation>
    </message>
    <message>
        <source>qemu-system-x86_64 is missing (Debian package qemu-system-x86)</source>
        <translation>缺少 qemu-system-x86_64（Debian 软件包 qemu-system-x86）</translation>
    </message>
    <message>
        <source>Real verbs devices here: %1.</source>
        <translation>本机的真实 verbs 设备：%1。</translation>
    </message>
    <message>
        <source>No RDMA device on this machine (%1): its kernel has no RDMA support, so real verbs run in the Soft-RoCE lab of two qemu guests.</source>
        <translation>本机没有 RDMA 设备（%1）：其内核不支持 RDMA，因此真实 verbs 在由两台 qemu 虚拟机组成的 Soft-RoCE 实验环境中运行。</translation>
    </message>
    <message>
        <source>libibverbs lists none</source>
        <translation>libibverbs 未列出任何设备</translation>
    </message>
    <message>
        <source>Choosing the lab or a device runs the chosen scenario on real verbs while capturing, then shows the frames and both sides&apos; completions.</source>
        <translation>选择实验环境或设备后，会在真实 verbs 上运行所选场景并同时抓包，然后显示帧和双方的完成事件。</translation>
    </message>
    <message>
        <source>The lab is not offered: %1.</source>
        <translation>实验环境不可用：%1。</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::AnalysisController</name>
    <message>
        <source>click a frame to select it</source>
        <translation>单击帧以选中</translation>
    </message>
    <message>
        <source>click a marker to see its frame</source>
        <translation>单击标记以查看其帧</translation>
    </message>
    <message>
        <source>No analysis yet: open a capture or run a scenario.</source>
        <translation>尚无分析：请打开抓包文件或运行场景。</translation>
    </message>
    <message>
        <source>%1 NAKs</source>
        <translation>%1 个 NAK</translation>
    </message>
    <message>
        <source>%1 RNR NAKs</source>
        <translation>%1 个 RNR NAK</translation>
    </message>
    <message>
        <source>%1 PSN gaps</source>
        <translation>%1 个 PSN 缺口</translation>
    </message>
    <message>
        <source>%1 ICRC failures</source>
        <translation>%1 次 ICRC 校验失败</translation>
    </message>
    <message>
        <source>%1 CNPs</source>
        <translation>%1 个 CNP</translation>
    </message>
    <message>
        <source>%1 resent frames</source>
        <translation>%1 个重传帧</translation>
    </message>
    <message>
        <source>%1 duplicates</source>
        <translation>%1 个重复</translation>
    </message>
    <message>
        <source>%1 timeouts</source>
        <translation>%1 次超时</translation>
    </message>
    <message>
        <source>%1 TCP segment gaps</source>
        <translation>%1 个 TCP 报文段缺口</translation>
    </message>
    <message>
        <source>%1 out of order</source>
        <translation>%1 个乱序</translation>
    </message>
    <message>
        <source>%1 MPA CRC failures</source>
        <translation>%1 次 MPA CRC 校验失败</translation>
    </message>
    <message>
        <source>%1 Terminates</source>
        <translation>%1 个 Terminate</translation>
    </message>
    <message>
        <source>%1 MPA rejects</source>
        <translation>%1 次 MPA 拒绝</translation>
    </message>
    <message>
        <source>%1 incomplete messages</source>
        <translation>%1 条不完整消息</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; connections, &lt;b&gt;%2&lt;/b&gt; messages, &lt;b&gt;%3&lt;/b&gt; anomalies (%4) in %5 frames.</source>
        <translation>%5 帧中有 &lt;b&gt;%1&lt;/b&gt; 个连接、&lt;b&gt;%2&lt;/b&gt; 条消息、&lt;b&gt;%3&lt;/b&gt; 个异常（%4）。</translation>
    </message>
    <message>
        <source> Select a connection to filter the packet list to it and to draw its flow graph and plot.</source>
        <translation> 选择一个连接，即可将分组列表过滤为该连接，并绘制其流图和曲线。</translation>
    </message>
    <message>
        <source>#%1  %2  %3 ↔ %4  (%5 frames)</source>
        <translation>#%1  %2  %3 ↔ %4 （%5 帧）</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::AnalysisPlot</name>
    <message>
        <source>Select a connection in Conversations to plot it</source>
        <translation>在“会话”中选择一个连接以绘制其曲线</translation>
    </message>
    <message>
        <source>No analysis yet</source>
        <translation>尚无分析</translation>
    </message>
    <message>
        <source>Connection #%1: %2 ↔ %3</source>
        <translation>连接 #%1：%2 ↔ %3</translation>
    </message>
    <message>
        <source>Latency: request to ACK/response (dots: the first %1 messages of the capture, bars: mean per interval of all)</source>
        <translation>时延：请求到 ACK/响应（点：抓包中的前 %1 条消息；柱：全部消息在每个区间的平均值）</translation>
    </message>
    <message>
        <source>Latency: request to ACK/response (dots: messages when they completed, bars: mean per interval)</source>
        <translation>时延：请求到 ACK/响应（点：各消息完成时；柱：每个区间的平均值）</translation>
    </message>
    <message>
        <source>Anomalies</source>
        <translation>异常</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Throughput: payload bytes sent per %1</source>
        <translation>吞吐量：每 %1 发送的有效载荷字节数</translation>
    </message>
    <message>
        <source>sent by A</source>
        <translation>A 发送</translation>
    </message>
    <message>
        <source>sent by B</source>
        <translation>B 发送</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::AnomalyModel</name>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Frame</source>
        <translation>帧</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>%1 (%2 in the report of rdmascope-cli analyze)</source>
        <translation>%1（rdmascope-cli analyze 报告中记为 %2）</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::CephMessengerView</name>
    <message>
        <source>Ceph messenger: RDMA and TCP stacks - rdmascope</source>
        <translation>Ceph 消息器：RDMA 栈与 TCP 栈 - rdmascope</translation>
    </message>
    <message>
        <source>Message size (KiB):</source>
        <translation>消息大小（KiB）：</translation>
    </message>
    <message>
        <source>Bytes of each message; the RDMA stack cuts it into 128 KiB chunks (ms_async_rdma_buffer_size).</source>
        <translation>每条消息的字节数；RDMA 栈把它切成 128 KiB 的块（ms_async_rdma_buffer_size）。</translation>
    </message>
    <message>
        <source>Messages:</source>
        <translation>消息数：</translation>
    </message>
    <message>
        <source>Bufferlist already in registered chunks</source>
        <translation>bufferlist 已在已注册块中</translation>
    </message>
    <message>
        <source>The client builds each message inside registered send chunks, so the RDMA stack posts them without copying.</source>
        <translation>客户端直接在已注册的发送块中构造每条消息，因此 RDMA 栈无需复制即可投递。</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>Frames of:</source>
        <translation>帧来自：</translation>
    </message>
    <message>
        <source>async+rdma</source>
        <translation>async+rdma</translation>
    </message>
    <message>
        <source>async+posix</source>
        <translation>async+posix</translation>
    </message>
    <message>
        <source>async+rdma: the RDMA stack&apos;s steps</source>
        <translation>async+rdma：RDMA 栈的步骤</translation>
    </message>
    <message>
        <source>async+posix: the TCP stack&apos;s steps</source>
        <translation>async+posix：TCP 栈的步骤</translation>
    </message>
    <message>
        <source>Both stacks counted</source>
        <translation>两个栈的计数</translation>
    </message>
    <message>
        <source>Cannot run the Ceph messenger: %1</source>
        <translation>无法运行 Ceph 消息器：%1</translation>
    </message>
    <message>
        <source>%1 message(s) of %2 bytes from a client to an OSD. async+rdma: QP information over a TCP side channel, %3 KiB registered chunks, %4 bytes copied by the CPUs, %5 us of CPU. async+posix: %6 bytes copied, %7 system calls, %8 us of CPU.</source>
        <translation>%1 条 %2 字节的消息，从客户端发往 OSD。async+rdma：QP 信息经 TCP 旁路通道交换，%3 KiB 的已注册块，CPU 复制 %4 字节，CPU 时间 %5 us。async+posix：复制 %6 字节，%7 次系统调用，CPU 时间 %8 us。</translation>
    </message>
    <message>
        <source>%1 us, %2: %3</source>
        <translation>%1 us，%2：%3</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::CnpMatchModel</name>
    <message>
        <source>No CE-marked packet of this flow precedes this CNP in the capture: the mark happened after the capture point, or the capture missed it</source>
        <translation>抓包中此 CNP 之前没有该流的 CE 标记分组：标记发生在抓包点之后，或抓包遗漏了它</translation>
    </message>
    <message>
        <source>none seen</source>
        <translation>未见</translation>
    </message>
    <message>
        <source>CNP frame</source>
        <translation>CNP 帧</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Flow (data direction)</source>
        <translation>流（数据方向）</translation>
    </message>
    <message>
        <source>To QP</source>
        <translation>目的 QP</translation>
    </message>
    <message>
        <source>CE marks</source>
        <translation>CE 标记</translation>
    </message>
    <message>
        <source>Marked frames</source>
        <translation>被标记的帧</translation>
    </message>
    <message>
        <source>Mark to CNP</source>
        <translation>标记到 CNP</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::ComparisonModel</name>
    <message>
        <source>From host A&apos;s first call (send() or posting the work request) until the side that waits sees the message complete, for one message on an idle link.</source>
        <translation>从主机 A 的第一次调用（send() 或投递工作请求）开始，到等待的一方看到消息完成为止；针对空闲链路上的一条消息。</translation>
    </message>
    <message>
        <source>Payload bytes per second when such messages follow each other back to back: the message size over the busy time of the busiest resource (a CPU, a DMA engine, a NIC or a direction of the wire). One message&apos;s size over its latency would mostly measure the latency.</source>
        <translation>消息背靠背连续发送时每秒的有效载荷字节数：消息大小除以最繁忙资源（某个 CPU、某个 DMA 引擎、某块网卡或线路的某个方向）的忙碌时间。若用单条消息的大小除以其时延，测到的主要是时延。</translation>
    </message>
    <message>
        <source>Time the CPUs of both hosts are busy. For TCP: system calls, copies, protocol work and interrupts. For RDMA the CPU only posts work and reaps completions, but with completions polled (the default) a host that waits for its completion spins on ibv_poll_cq for the whole transfer: host A always, host B when it waits for a SEND. READ and WRITE leave host B&apos;s CPU idle.</source>
        <translation>两台主机的 CPU 忙碌的时间。对 TCP 而言包括：系统调用、拷贝、协议处理和中断。对 RDMA 而言，CPU 只投递工作并获取完成事件，但在轮询完成事件（默认方式）时，等待完成的主机会在整个传输期间在 ibv_poll_cq 上自旋：主机 A 总是如此，主机 B 在等待 SEND 时也是如此。READ 和 WRITE 则让主机 B 的 CPU 保持空闲。</translation>
    </message>
    <message>
        <source>Payload bytes a CPU copies (into and out of socket buffers). Zero-copy RDMA lets the NICs move the data by DMA instead.</source>
        <translation>CPU 拷贝（拷入和拷出套接字缓冲区）的有效载荷字节数。零拷贝 RDMA 改由网卡通过 DMA 搬运数据。</translation>
    </message>
    <message>
        <source>How many times a CPU copies each payload byte.</source>
        <translation>CPU 拷贝每个有效载荷字节的次数。</translation>
    </message>
    <message>
        <source>Separate copy operations (one per send() or recv() call).</source>
        <translation>独立拷贝操作的次数（每次 send() 或 recv() 调用一次）。</translation>
    </message>
    <message>
        <source>System calls on both hosts. RDMA&apos;s data path has none (kernel bypass).</source>
        <translation>两台主机上的系统调用次数。RDMA 的数据路径上没有系统调用（内核旁路）。</translation>
    </message>
    <message>
        <source>Threads put to sleep and woken again, on both hosts.</source>
        <translation>两台主机上线程进入睡眠又被唤醒的次数。</translation>
    </message>
    <message>
        <source>Interrupts on both hosts, after the NIC&apos;s interrupt coalescing.</source>
        <translation>两台主机上的中断次数（经网卡中断合并之后）。</translation>
    </message>
    <message>
        <source>Writes by a CPU to a NIC register that tell it new work is queued.</source>
        <translation>CPU 写网卡寄存器、告知其有新工作入队的次数。</translation>
    </message>
    <message>
        <source>Ethernet frames carrying the message from A to B (READ: its responses).</source>
        <translation>把消息从 A 传到 B 的以太网帧（READ：其响应帧）。</translation>
    </message>
    <message>
        <source>Acknowledgement frames sent back.</source>
        <translation>回送的确认帧。</translation>
    </message>
    <message>
        <source>Bytes on the wire both ways, with headers, preamble and inter-frame gap.</source>
        <translation>线路上双向的字节数，含首部、前导码和帧间隙。</translation>
    </message>
    <message>
        <source>Bytes moved over the memory bus: CPU copies (read and write) and NIC DMA.</source>
        <translation>经内存总线传送的字节数：CPU 拷贝（读和写）以及网卡 DMA。</translation>
    </message>
    <message>
        <source>The resource busy longest: it sets the throughput of a stream of messages.</source>
        <translation>忙碌时间最长的资源：它决定连续消息流的吞吐量。</translation>
    </message>
    <message>
        <source>so both take as long</source>
        <translation>因此两者耗时相同</translation>
    </message>
    <message>
        <source>so iWARP is %1 (%2%) faster</source>
        <translation>因此 iWARP 快 %1（%2%）</translation>
    </message>
    <message>
        <source>so RoCEv2 is %1 (%2%) faster</source>
        <translation>因此 RoCEv2 快 %1（%2%）</translation>
    </message>
    <message>
        <source>RoCEv2: %1 frame(s) of up to %2 payload bytes (path MTU), UDP/IP + BTH + ICRC; iWARP: %3 frame(s) of up to %4 bytes (TCP segments), TCP/IP + MPA + DDP/RDMAP. Wire bytes %5 vs %6, %7. Neither copies; both NICs run the transport.</source>
        <translation>RoCEv2：%1 帧，每帧最多 %2 字节载荷（路径 MTU），UDP/IP + BTH + ICRC；iWARP：%3 帧，每帧最多 %4 字节（TCP 分段），TCP/IP + MPA + DDP/RDMAP。线路字节数 %5 对 %6，%7。两者都不拷贝；传输层都由网卡运行。</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>时延</translation>
    </message>
    <message>
        <source>Throughput (message stream)</source>
        <translation>吞吐量（消息流）</translation>
    </message>
    <message>
        <source>CPU time (both hosts)</source>
        <translation>CPU 时间（两台主机）</translation>
    </message>
    <message>
        <source>Bytes copied by the CPU</source>
        <translation>CPU 拷贝的字节数</translation>
    </message>
    <message>
        <source>CPU copies per payload byte</source>
        <translation>每个有效载荷字节的 CPU 拷贝次数</translation>
    </message>
    <message>
        <source>Copy operations</source>
        <translation>拷贝操作</translation>
    </message>
    <message>
        <source>System calls</source>
        <translation>系统调用</translation>
    </message>
    <message>
        <source>Context switches</source>
        <translation>上下文切换</translation>
    </message>
    <message>
        <source>Interrupts</source>
        <translation>中断</translation>
    </message>
    <message>
        <source>Doorbells</source>
        <translation>门铃</translation>
    </message>
    <message>
        <source>Data frames</source>
        <translation>数据帧</translation>
    </message>
    <message>
        <source>ACK frames</source>
        <translation>ACK 帧</translation>
    </message>
    <message>
        <source>Bytes on the wire</source>
        <translation>线路字节数</translation>
    </message>
    <message>
        <source>Memory bus bytes</source>
        <translation>内存总线字节数</translation>
    </message>
    <message>
        <source>Bottleneck</source>
        <translation>瓶颈</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::ComparisonView</name>
    <message>
        <source>Size of the one message each transport moves</source>
        <translation>每种传输方式所传送的单条消息的大小</translation>
    </message>
    <message>
        <source>Transfer size:</source>
        <translation>传输大小：</translation>
    </message>
    <message>
        <source>Latency</source>
        <translation>时延</translation>
    </message>
    <message>
        <source>CPU time</source>
        <translation>CPU 时间</translation>
    </message>
    <message>
        <source>Bytes copied by the CPU</source>
        <translation>CPU 拷贝的字节数</translation>
    </message>
    <message>
        <source>one message, host A to host B, from the host cost model</source>
        <translation>一条消息，主机 A 到主机 B，依据主机开销模型</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::CongestionRunView</name>
    <message>
        <source>Egress queue depth</source>
        <translation>出端口队列深度</translation>
    </message>
    <message>
        <source>KB</source>
        <translation>KB</translation>
    </message>
    <message>
        <source>Sending rate per flow</source>
        <translation>每个流的发送速率</translation>
    </message>
    <message>
        <source>Gb/s</source>
        <translation>Gb/s</translation>
    </message>
    <message>
        <source>Back to time 0</source>
        <translation>回到时间 0</translation>
    </message>
    <message>
        <source>Previous event of the chosen kind</source>
        <translation>上一个所选类型的事件</translation>
    </message>
    <message>
        <source>Back one slice of simulated time</source>
        <translation>后退一个模拟时间片</translation>
    </message>
    <message>
        <source>Forward one slice of simulated time</source>
        <translation>前进一个模拟时间片</translation>
    </message>
    <message>
        <source>Next event of the chosen kind</source>
        <translation>下一个所选类型的事件</translation>
    </message>
    <message>
        <source>Any notable event</source>
        <translation>任何值得注意的事件</translation>
    </message>
    <message>
        <source>XOFF</source>
        <translation>XOFF</translation>
    </message>
    <message>
        <source>ECN mark</source>
        <translation>ECN 标记</translation>
    </message>
    <message>
        <source>CNP</source>
        <translation>CNP</translation>
    </message>
    <message>
        <source>Rate cut</source>
        <translation>降速</translation>
    </message>
    <message>
        <source>XON</source>
        <translation>XON</translation>
    </message>
    <message>
        <source>Drop</source>
        <translation>丢包</translation>
    </message>
    <message>
        <source>What the next and previous event buttons look for</source>
        <translation>“下一个事件”和“上一个事件”按钮所查找的事件类型</translation>
    </message>
    <message>
        <source>Simulated time, one step per slice</source>
        <translation>模拟时间，每个时间片一步</translation>
    </message>
    <message>
        <source>XOFF (%1)</source>
        <translation>XOFF（%1）</translation>
    </message>
    <message>
        <source>XON (%1)</source>
        <translation>XON（%1）</translation>
    </message>
    <message>
        <source>Kmin</source>
        <translation>Kmin</translation>
    </message>
    <message>
        <source>Kmax</source>
        <translation>Kmax</translation>
    </message>
    <message>
        <source>Egress queue depth (axis cut at 2 x Kmax)</source>
        <translation>出端口队列深度（坐标轴截断于 2 x Kmax）</translation>
    </message>
    <message>
        <source>DCQCN sending rate per flow (RC)</source>
        <translation>DCQCN 下每个流的发送速率（RC）</translation>
    </message>
    <message>
        <source>%1  t = %2 us</source>
        <translation>%1  t = %2 us</translation>
    </message>
    <message>
        <source>t = %1 us of %2 us</source>
        <translation>t = %1 us（共 %2 us）</translation>
    </message>
    <message>
        <source>Delivered rate per flow (no DCQCN)</source>
        <translation>每条流的交付速率（无 DCQCN）</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::CongestionView</name>
    <message>
        <source>Open a capture to see its PFC pauses, ECN marks and CNPs.</source>
        <translation>打开抓包文件以查看其中的 PFC 暂停、ECN 标记和 CNP。</translation>
    </message>
    <message>
        <source>%1 pause frames from %2 port/priority pairs, %3 paused in total; %4 pause storms, %5 victim flows. %6 ECN marks, %7 CNPs (%8 with no marked packet before them); %9 marked packets no CNP followed.</source>
        <translation>来自 %2 个端口/优先级组合的 %1 个暂停帧，共暂停 %3；%4 次暂停风暴，%5 个受害流。%6 个 ECN 标记，%7 个 CNP（其中 %8 个之前没有被标记的分组）；%9 个被标记的分组之后没有 CNP。</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::ConversationModel</name>
    <message>
        <source>Connection #%1: %2 ↔ %3
Frames %4 to %5
Display filter: %6</source>
        <translation>连接 #%1：%2 ↔ %3
帧 %4 到 %5
显示过滤器：%6</translation>
    </message>
    <message>
        <source>Carrier</source>
        <translation>承载方式</translation>
    </message>
    <message>
        <source>Transport</source>
        <translation>传输类型</translation>
    </message>
    <message>
        <source>Endpoint A</source>
        <translation>端点 A</translation>
    </message>
    <message>
        <source>Endpoint B</source>
        <translation>端点 B</translation>
    </message>
    <message>
        <source>Frames</source>
        <translation>帧</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>Msg rate</source>
        <translation>消息速率</translation>
    </message>
    <message>
        <source>Lat. p50</source>
        <translation>时延 p50</translation>
    </message>
    <message>
        <source>Lat. p99</source>
        <translation>时延 p99</translation>
    </message>
    <message>
        <source>NAKs</source>
        <translation>NAK</translation>
    </message>
    <message>
        <source>RNR NAKs</source>
        <translation>RNR NAK</translation>
    </message>
    <message>
        <source>Resends</source>
        <translation>重传</translation>
    </message>
    <message>
        <source>Gaps</source>
        <translation>缺口</translation>
    </message>
    <message>
        <source>ICRC bad</source>
        <translation>ICRC 错误</translation>
    </message>
    <message>
        <source>Incomplete</source>
        <translation>不完整</translation>
    </message>
    <message>
        <source>How the InfiniBand transport was carried</source>
        <translation>InfiniBand 传输层的承载方式</translation>
    </message>
    <message>
        <source>Service type of the QPs</source>
        <translation>QP 的服务类型</translation>
    </message>
    <message>
        <source>The side that sent the first frame: address and QP number</source>
        <translation>发送第一帧的一端：地址和 QP 号</translation>
    </message>
    <message>
        <source>The other side</source>
        <translation>另一端</translation>
    </message>
    <message>
        <source>Frames of this connection, both directions</source>
        <translation>此连接的帧，双向</translation>
    </message>
    <message>
        <source>Messages seen (completed, failed or incomplete)</source>
        <translation>见到的消息（已完成、失败或不完整）</translation>
    </message>
    <message>
        <source>Payload bytes of first transmissions</source>
        <translation>首次传输的有效载荷字节数</translation>
    </message>
    <message>
        <source>Payload bytes per second over the connection&apos;s active time</source>
        <translation>连接活跃时间内每秒的有效载荷字节数</translation>
    </message>
    <message>
        <source>Completed messages per second</source>
        <translation>每秒完成的消息数</translation>
    </message>
    <message>
        <source>Median latency from a request&apos;s first packet to its ACK or response</source>
        <translation>从请求的第一个分组到其 ACK 或响应的时延中位数</translation>
    </message>
    <message>
        <source>99th percentile latency</source>
        <translation>第 99 百分位时延</translation>
    </message>
    <message>
        <source>NAKs other than RNR NAKs</source>
        <translation>RNR NAK 以外的 NAK</translation>
    </message>
    <message>
        <source>Receiver-not-ready NAKs</source>
        <translation>接收方未就绪（RNR）NAK</translation>
    </message>
    <message>
        <source>Request frames sent again</source>
        <translation>再次发送的请求帧</translation>
    </message>
    <message>
        <source>PSN gaps (frames missing from the capture)</source>
        <translation>PSN 缺口（抓包中缺失的帧）</translation>
    </message>
    <message>
        <source>Frames with a wrong invariant CRC</source>
        <translation>不变 CRC（ICRC）错误的帧</translation>
    </message>
    <message>
        <source>Messages unfinished when the capture ended</source>
        <translation>抓包结束时未完成的消息</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::DataPathPane</name>
    <message>
        <source>Previous step of the data path</source>
        <translation>数据路径的上一步</translation>
    </message>
    <message>
        <source>Next step of the data path</source>
        <translation>数据路径的下一步</translation>
    </message>
    <message>
        <source>Play the data path of one message</source>
        <translation>播放一条消息的数据路径</translation>
    </message>
    <message>
        <source>Data path of one message:</source>
        <translation>一条消息的数据路径：</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::DetailTreeModel</name>
    <message>
        <source>Packet details</source>
        <translation>分组详情</translation>
    </message>
    <message>
        <source>[Expert Info (%1): %2]</source>
        <translation>[专家信息（%1）：%2]</translation>
    </message>
    <message>
        <source>%1 (%2 byte(s) at %3)</source>
        <translation>%1（偏移 %3 处的 %2 字节）</translation>
    </message>
    <message>
        <source>Double-click to show that MR.</source>
        <translation>双击以显示该 MR。</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::DeviceRunDialog</name>
    <message>
        <source>Run %1 on %2</source>
        <translation>在 %2 上运行 %1</translation>
    </message>
    <message>
        <source>Connect to a peer at</source>
        <translation>连接到对端：</translation>
    </message>
    <message>
        <source>Wait for a peer to connect</source>
        <translation>等待对端连接</translation>
    </message>
    <message>
        <source>Both hosts on %1 (nothing can be captured)</source>
        <translation>两个主机都在 %1 上（无法抓包）</translation>
    </message>
    <message>
        <source>HOST or HOST:PORT</source>
        <translation>HOST 或 HOST:PORT</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>TCP port:</source>
        <translation>TCP 端口：</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; plays one host of &lt;b&gt;%2&lt;/b&gt; here and captures on %3; a peer machine plays the other host.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 在本机扮演 &lt;b&gt;%2&lt;/b&gt; 的一个主机并在 %3 上抓包；另一台对端机器扮演另一个主机。</translation>
    </message>
    <message>
        <source>its network interface</source>
        <translation>其网络接口</translation>
    </message>
    <message>
        <source>On the other machine run:</source>
        <translation>在另一台机器上运行：</translation>
    </message>
    <message>
        <source>(nothing: both hosts run here)</source>
        <translation>（无需：两个主机都在本机运行）</translation>
    </message>
    <message>
        <source>This machine plays host 1 and connects; start the command above on the peer first (it waits up to 2 minutes).</source>
        <translation>本机扮演主机 1 并发起连接；请先在对端启动上面的命令（它最多等待 2 分钟）。</translation>
    </message>
    <message>
        <source>This machine plays host 0 and waits up to 2 minutes for the peer on TCP port %1.</source>
        <translation>本机扮演主机 0，在 TCP 端口 %1 上最多等待对端 2 分钟。</translation>
    </message>
    <message>
        <source>Traffic between two QPs of one device stays inside the device (rxe loops it back internally; a NIC does not put it on the wire): the run completes and its completions show, but no frame can be captured.</source>
        <translation>同一设备上两个 QP 之间的流量留在设备内部（rxe 在内部环回；网卡不会把它发到线路上）：运行会完成并显示完成事件，但抓不到任何帧。</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::EventListModel</name>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Time (us)</source>
        <translation>时间（µs）</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>What happens</source>
        <translation>发生了什么</translation>
    </message>
    <message>
        <source>link</source>
        <translation>链路</translation>
    </message>
    <message>
        <source>frame %1: %2</source>
        <translation>帧 %1：%2</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::FabricHostModel</name>
    <message>
        <source>PD</source>
        <translation>PD</translation>
    </message>
    <message>
        <source>lkey</source>
        <translation>lkey</translation>
    </message>
    <message>
        <source>rkey</source>
        <translation>rkey</translation>
    </message>
    <message>
        <source>Access</source>
        <translation>访问权限</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>长度</translation>
    </message>
    <message>
        <source>QPN</source>
        <translation>QPN</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Dest QPN</source>
        <translation>目的 QPN</translation>
    </message>
    <message>
        <source>SQ PSN</source>
        <translation>SQ PSN</translation>
    </message>
    <message>
        <source>Acked PSN</source>
        <translation>已确认 PSN</translation>
    </message>
    <message>
        <source>RQ PSN</source>
        <translation>RQ PSN</translation>
    </message>
    <message>
        <source>MSN</source>
        <translation>MSN</translation>
    </message>
    <message>
        <source>CQ</source>
        <translation>CQ</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>Not polled</source>
        <translation>未轮询</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::FabricHostPane</name>
    <message>
        <source>Step call</source>
        <translation>单步调用</translation>
    </message>
    <message>
        <source>Let this program make one verbs call (while the fabric is paused)</source>
        <translation>让该程序执行一次 verbs 调用（在网络暂停期间）</translation>
    </message>
    <message>
        <source>Select a QP to see its send and receive queues</source>
        <translation>选择一个 QP 以查看其发送队列和接收队列</translation>
    </message>
    <message>
        <source>SQ / RQ</source>
        <translation>SQ / RQ</translation>
    </message>
    <message>
        <source>MRs</source>
        <translation>MR</translation>
    </message>
    <message>
        <source>CQs</source>
        <translation>CQ</translation>
    </message>
    <message>
        <source>PDs</source>
        <translation>PD</translation>
    </message>
    <message>
        <source>no program</source>
        <translation>无程序</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; &amp;nbsp;%2 &amp;nbsp;&lt;i&gt;detached&lt;/i&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; &amp;nbsp;%2 &amp;nbsp;&lt;i&gt;已分离&lt;/i&gt;</translation>
    </message>
    <message>
        <source>Send queue | receive queue of QP 0x%1</source>
        <translation>QP 0x%1 的发送队列 | 接收队列</translation>
    </message>
    <message>
        <source>Send queue | receive queue (no QP)</source>
        <translation>发送队列 | 接收队列（无 QP）</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::FabricTimelineModel</name>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>What happened</source>
        <translation>发生了什么</translation>
    </message>
    <message>
        <source>frame %1</source>
        <translation>帧 %1</translation>
    </message>
    <message>
        <source> to host%1</source>
        <translation> 到主机 %1</translation>
    </message>
    <message>
        <source>  %1 bytes</source>
        <translation>  %1 字节</translation>
    </message>
    <message>
        <source>  RNR NAK</source>
        <translation>  RNR NAK</translation>
    </message>
    <message>
        <source>  NAK</source>
        <translation>  NAK</translation>
    </message>
    <message>
        <source>  [held at the switch]</source>
        <translation>  [滞留在交换机]</translation>
    </message>
    <message>
        <source>fabric</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>attached</source>
        <translation>已接入</translation>
    </message>
    <message>
        <source>detached</source>
        <translation>已分离</translation>
    </message>
    <message>
        <source>verbs call</source>
        <translation>verbs 调用</translation>
    </message>
    <message>
        <source>log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>frame (held)</source>
        <translation>帧（滞留）</translation>
    </message>
    <message>
        <source>frame</source>
        <translation>帧</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>resumed</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <source>fabric gone</source>
        <translation>网络已消失</translation>
    </message>
    <message>
        <source>the program left; its last state stays until another attaches</source>
        <translation>程序已退出；其最后状态保留，直到另一个程序接入</translation>
    </message>
    <message>
        <source>frames are held at the switch; programs stop at their next verbs call</source>
        <translation>帧滞留在交换机；各程序在下一次 verbs 调用处停下</translation>
    </message>
    <message>
        <source>held frames forwarded; programs run</source>
        <translation>滞留的帧已转发；各程序继续运行</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::FabricTopologyModel</name>
    <message>
        <source>A-&gt;B: %1  B-&gt;A: %2</source>
        <translation>A-&gt;B：%1  B-&gt;A：%2</translation>
    </message>
    <message>
        <source>-</source>
        <translation>-</translation>
    </message>
    <message>
        <source>End A</source>
        <translation>端点 A</translation>
    </message>
    <message>
        <source>End B</source>
        <translation>端点 B</translation>
    </message>
    <message>
        <source>Gb/s</source>
        <translation>Gb/s</translation>
    </message>
    <message>
        <source>Load A-&gt;B</source>
        <translation>负载 A-&gt;B</translation>
    </message>
    <message>
        <source>Load B-&gt;A</source>
        <translation>负载 B-&gt;A</translation>
    </message>
    <message>
        <source>Paused priorities</source>
        <translation>被暂停的优先级</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::FabricTopologyView</name>
    <message>
        <source>Open a congestion scenario to see its fabric.</source>
        <translation>打开一个拥塞场景以查看其网络拓扑。</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>full</source>
        <translation>满</translation>
    </message>
    <message>
        <source>|| Pn: priority n paused</source>
        <translation>|| Pn：优先级 n 已暂停</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::FabricView</name>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Hold frames at the switch; every program stops inside its next verbs call</source>
        <translation>在交换机处滞留帧；每个程序在下一次 verbs 调用内停下</translation>
    </message>
    <message>
        <source>Step frame</source>
        <translation>单步帧</translation>
    </message>
    <message>
        <source>Let the oldest held frame through the switch</source>
        <translation>放行交换机中滞留最久的帧</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;No program attached yet.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Run a verbs program on a host of the fabric, as on a machine with an RDMA NIC:&lt;/p&gt;&lt;p&gt;&lt;tt&gt;rdmascope-cli exec --host 1 -- ibv_rc_pingpong -d rdmascope0 -g 1&lt;/tt&gt;&lt;br&gt;&lt;tt&gt;rdmascope-cli exec --host 2 -- ibv_rc_pingpong -d rdmascope0 -g 1 localhost&lt;/tt&gt;&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;尚无程序接入。&lt;/b&gt;&lt;/p&gt;&lt;p&gt;像在装有 RDMA 网卡的机器上一样，在网络的某个主机上运行 verbs 程序：&lt;/p&gt;&lt;p&gt;&lt;tt&gt;rdmascope-cli exec --host 1 -- ibv_rc_pingpong -d rdmascope0 -g 1&lt;/tt&gt;&lt;br&gt;&lt;tt&gt;rdmascope-cli exec --host 2 -- ibv_rc_pingpong -d rdmascope0 -g 1 localhost&lt;/tt&gt;&lt;/p&gt;</translation>
    </message>
    <message>
        <source>  (held)</source>
        <translation>  （滞留）</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>1 frame held at the switch</source>
        <translation>1 帧滞留在交换机</translation>
    </message>
    <message>
        <source>%1 frames held at the switch</source>
        <translation>%1 帧滞留在交换机</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#c0392b&apos;&gt;disconnected&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#c0392b&apos;&gt;已断开&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#d35400&apos;&gt;&lt;b&gt;paused&lt;/b&gt;&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#d35400&apos;&gt;&lt;b&gt;已暂停&lt;/b&gt;&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#1e8449&apos;&gt;running&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#1e8449&apos;&gt;运行中&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Fabric&lt;/b&gt; %1 &amp;nbsp;·&amp;nbsp; %2 of %3 hosts attached &amp;nbsp;·&amp;nbsp; %4, MTU %5 &amp;nbsp;·&amp;nbsp; %6 frames &amp;nbsp;·&amp;nbsp; %7</source>
        <translation>&lt;b&gt;网络&lt;/b&gt; %1 &amp;nbsp;·&amp;nbsp; 已接入 %2/%3 个主机 &amp;nbsp;·&amp;nbsp; %4，MTU %5 &amp;nbsp;·&amp;nbsp; %6 帧 &amp;nbsp;·&amp;nbsp; %7</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::FilterBar</name>
    <message>
        <source>Apply a display filter ... (e.g. infiniband.bth.opcode == 4) &lt;Ctrl-F&gt;</source>
        <translation>应用显示过滤器……（例如 infiniband.bth.opcode == 4）&lt;Ctrl-F&gt;</translation>
    </message>
    <message>
        <source>display filters are not available in this build</source>
        <translation>此版本不支持显示过滤器</translation>
    </message>
    <message>
        <source>Column %1: %2</source>
        <translation>第 %1 列：%2</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::FlowGraphView</name>
    <message>
        <source>Frame %1: %2</source>
        <translation>帧 %1：%2</translation>
    </message>
    <message>
        <source>MPA Request</source>
        <translation>MPA 请求</translation>
    </message>
    <message>
        <source>MPA Reply</source>
        <translation>MPA 应答</translation>
    </message>
    <message>
        <source>FPDU</source>
        <translation>FPDU</translation>
    </message>
    <message>
        <source> (last)</source>
        <translation> （最后一个）</translation>
    </message>
    <message>
        <source>%1 and %2 more FPDUs</source>
        <translation>%1 及另外 %2 个 FPDU</translation>
    </message>
    <message>
        <source>FPDU bytes</source>
        <translation>FPDU 字节</translation>
    </message>
    <message>
        <source>(not InfiniBand)</source>
        <translation>（非 InfiniBand）</translation>
    </message>
    <message>
        <source>Time (s)</source>
        <translation>时间（秒）</translation>
    </message>
    <message>
        <source>Frame      Anomaly</source>
        <translation>帧         异常</translation>
    </message>
    <message>
        <source>Select a connection in Conversations to see its frames</source>
        <translation>在“会话”中选择一个连接以查看其帧</translation>
    </message>
    <message>
        <source>No analysis yet</source>
        <translation>尚无分析</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::GlossaryDialog</name>
    <message>
        <source>Glossary</source>
        <translation>术语表</translation>
    </message>
    <message>
        <source>Search the glossary</source>
        <translation>搜索术语表</translation>
    </message>
    <message>
        <source>&lt;p&gt;No entry matches &quot;%1&quot;.&lt;/p&gt;</source>
        <translation>&lt;p&gt;没有与“%1”匹配的条目。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Glossary</source>
        <translation>术语表(&amp;G)</translation>
    </message>
    <message>
        <source>Glossary: %1</source>
        <translation>术语表：%1</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::GoToPacketDialog</name>
    <message>
        <source>Go to Packet</source>
        <translation>转到分组</translation>
    </message>
    <message>
        <source>Packet number:</source>
        <translation>分组编号：</translation>
    </message>
    <message>
        <source>There is no packet %1 (the capture has %2).</source>
        <translation>没有第 %1 个分组（抓包共有 %2 个）。</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::HostPane</name>
    <message>
        <source>Send queue</source>
        <translation>发送队列</translation>
    </message>
    <message>
        <source>Receive queue</source>
        <translation>接收队列</translation>
    </message>
    <message>
        <source>Registered memory</source>
        <translation>已注册内存</translation>
    </message>
    <message>
        <source>Queue pair</source>
        <translation>队列对</translation>
    </message>
    <message>
        <source>Completion queue</source>
        <translation>完成队列</translation>
    </message>
    <message>
        <source>Registered memory (none registered yet)</source>
        <translation>已注册内存（尚未注册）</translation>
    </message>
    <message>
        <source>Registered memory at 0x%1</source>
        <translation>位于 0x%1 的已注册内存</translation>
    </message>
    <message>
        <source>%1: the NIC just wrote %2 bytes at +0x%3 (DMA)</source>
        <translation>%1：网卡刚在 +0x%3 处写入 %2 字节（DMA）</translation>
    </message>
    <message>
        <source>%1: the NIC just read %2 bytes at +0x%3 (DMA)</source>
        <translation>%1：网卡刚从 +0x%3 处读取 %2 字节（DMA）</translation>
    </message>
    <message>
        <source>%1: earlier in this step the NIC wrote %2 bytes at +0x%3 (DMA)</source>
        <translation>%1：在此步骤早些时候，网卡在 +0x%3 处写入了 %2 字节（DMA）</translation>
    </message>
    <message>
        <source>%1: earlier in this step the NIC read %2 bytes at +0x%3 (DMA)</source>
        <translation>%1：在此步骤早些时候，网卡从 +0x%3 处读取了 %2 字节（DMA）</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::HostTableModel</name>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>QPN</source>
        <translation>QPN</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>SQ PSN</source>
        <translation>SQ PSN</translation>
    </message>
    <message>
        <source>RQ PSN</source>
        <translation>RQ PSN</translation>
    </message>
    <message>
        <source>Acked PSN</source>
        <translation>已确认 PSN</translation>
    </message>
    <message>
        <source>MSN</source>
        <translation>MSN</translation>
    </message>
    <message>
        <source>wr_id</source>
        <translation>wr_id</translation>
    </message>
    <message>
        <source>Opcode</source>
        <translation>操作码</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Polled</source>
        <translation>已轮询</translation>
    </message>
    <message>
        <source>MR</source>
        <translation>MR</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>长度</translation>
    </message>
    <message>
        <source>lkey</source>
        <translation>lkey</translation>
    </message>
    <message>
        <source>rkey</source>
        <translation>rkey</translation>
    </message>
    <message>
        <source>Access</source>
        <translation>访问权限</translation>
    </message>
    <message>
        <source>MR #%1 %2: %3 bytes at 0x%4
lkey 0x%5: this host&apos;s work requests quote it in their SGEs
rkey 0x%6: the peer quotes it in a RETH to READ or WRITE here
Access: %7</source>
        <translation>MR #%1 %2：位于 0x%4 的 %3 字节
lkey 0x%5：本主机的工作请求在其 SGE 中引用它
rkey 0x%6：对端在 RETH 中引用它以在此 READ 或 WRITE
访问权限：%7</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::LadderView</name>
    <message>
        <source>No frames yet</source>
        <translation>尚无帧</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::LayerStacksView</name>
    <message>
        <source>step %1 of %2: %3</source>
        <translation>第 %1/%2 步：%3</translation>
    </message>
    <message>
        <source>Selected frame: %1  →  %2</source>
        <translation>选中的帧：%1  →  %2</translation>
    </message>
    <message>
        <source>Select a frame to see which layers it has headers for.</source>
        <translation>选择一帧以查看它带有哪些层的首部。</translation>
    </message>
    <message>
        <source>Host A</source>
        <translation>主机 A</translation>
    </message>
    <message>
        <source>Host B</source>
        <translation>主机 B</translation>
    </message>
    <message>
        <source>kernel
bypassed</source>
        <translation>内核
旁路</translation>
    </message>
    <message>
        <source>kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>bypassed</source>
        <translation>已旁路</translation>
    </message>
    <message>
        <source>copies %1 (%2 B) · syscalls %3
segments %4 · interrupts %5</source>
        <translation>拷贝 %1 (%2 B) · 系统调用 %3
报文段 %4 · 中断 %5</translation>
    </message>
    <message>
        <source>CPU copies %1 · syscalls %2
DMA %3 · doorbells %4</source>
        <translation>CPU 拷贝 %1 · 系统调用 %2
DMA %3 · 门铃 %4</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::LessonPane</name>
    <message>
        <source>PSN, in decimal or 0x hex</source>
        <translation>PSN，十进制或 0x 十六进制</translation>
    </message>
    <message>
        <source>&amp;Answer</source>
        <translation>回答(&amp;A)</translation>
    </message>
    <message>
        <source>S&amp;kip</source>
        <translation>跳过(&amp;K)</translation>
    </message>
    <message>
        <source>Show the answer and step on without answering</source>
        <translation>显示答案并继续，不作回答</translation>
    </message>
    <message>
        <source>&amp;End Lesson</source>
        <translation>结束课程(&amp;E)</translation>
    </message>
    <message>
        <source>Answer the question (or Skip it) to step on.</source>
        <translation>回答问题（或跳过）后才能继续单步。</translation>
    </message>
    <message>
        <source>Stepping waits for the lesson&apos;s question.</source>
        <translation>单步正在等待课程的问题。</translation>
    </message>
    <message>
        <source>PSN %1 (0x%2)</source>
        <translation>PSN %1 (0x%2)</translation>
    </message>
    <message>
        <source>no lesson &apos;%1&apos; (lessons: %2)</source>
        <translation>没有课程“%1”（课程：%2）</translation>
    </message>
    <message>
        <source>lesson &apos;%1&apos; needs the scenario %2, which this build does not have</source>
        <translation>课程“%1”需要场景 %2，而此版本没有该场景</translation>
    </message>
    <message>
        <source>The lesson ended: another scenario replaced its own.</source>
        <translation>课程已结束：另一个场景替换了它自己的场景。</translation>
    </message>
    <message>
        <source>The scenario was run again: the lesson starts over.</source>
        <translation>场景已重新运行：课程从头开始。</translation>
    </message>
    <message numerus="yes">
        <source>All %n checkpoint(s) done</source>
        <translation>
            <numerusform>已完成全部 %n 个检查点</numerusform>
        </translation>
    </message>
    <message>
        <source>Step on to the end of the scenario.</source>
        <translation>单步走到场景结尾。</translation>
    </message>
    <message>
        <source>Checkpoint %1 of %2 (before event %3)</source>
        <translation>检查点 %1 / %2（在事件 %3 之前）</translation>
    </message>
    <message>
        <source>Choose an answer first.</source>
        <translation>请先选择一个答案。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Not right:&lt;/b&gt; %1 is not what happens.</source>
        <translation>&lt;b&gt;不对：&lt;/b&gt;发生的不是 %1。</translation>
    </message>
    <message>
        <source>What happens: &lt;b&gt;%1&lt;/b&gt;. %2</source>
        <translation>实际发生的是：&lt;b&gt;%1&lt;/b&gt;。%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Right:&lt;/b&gt; %1.&lt;br&gt;&lt;br&gt;&lt;b&gt;%2&lt;/b&gt;&lt;br&gt;%3</source>
        <translation>&lt;b&gt;正确：&lt;/b&gt;%1。&lt;br&gt;&lt;br&gt;&lt;b&gt;%2&lt;/b&gt;&lt;br&gt;%3</translation>
    </message>
    <message>
        <source>&lt;b&gt;Skipped.&lt;/b&gt; The answer: %1.&lt;br&gt;&lt;br&gt;&lt;b&gt;%2&lt;/b&gt;&lt;br&gt;%3</source>
        <translation>&lt;b&gt;已跳过。&lt;/b&gt;答案：%1。&lt;br&gt;&lt;br&gt;&lt;b&gt;%2&lt;/b&gt;&lt;br&gt;%3</translation>
    </message>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>Needs the scenario %1, which this build does not have yet</source>
        <translation>需要场景 %1，而此版本尚无该场景</translation>
    </message>
    <message>
        <source>Runs the scenario %1 with questions</source>
        <translation>运行场景 %1 并附带提问</translation>
    </message>
    <message>
        <source>Cannot start the lesson: %1</source>
        <translation>无法开始课程：%1</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::LiveCaptureDialog</name>
    <message>
        <source>Live Capture</source>
        <translation>实时抓包</translation>
    </message>
    <message>
        <source>A BPF capture filter (empty: every frame)</source>
        <translation>BPF 抓包过滤器（为空：抓取所有帧）</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Capture filter:</source>
        <translation>抓包过滤器：</translation>
    </message>
    <message>
        <source>Interfaces (from libpcap) and RDMA devices:</source>
        <translation>接口（来自 libpcap）和 RDMA 设备：</translation>
    </message>
    <message>
        <source>Choose an interface first.</source>
        <translation>请先选择一个接口。</translation>
    </message>
    <message>
        <source>  (down)</source>
        <translation>  （已关闭）</translation>
    </message>
    <message>
        <source>RDMA device (sniffer flow)</source>
        <translation>RDMA 设备（嗅探流）</translation>
    </message>
    <message>
        <source>, netdev %1</source>
        <translation>，网络设备 %1</translation>
    </message>
    <message>
        <source>libpcap lists no capture interfaces on this machine.</source>
        <translation>libpcap 在本机未列出任何抓包接口。</translation>
    </message>
    <message>
        <source>%1 frames captured</source>
        <translation>已抓取 %1 帧</translation>
    </message>
    <message>
        <source>, %1 dropped by the device (receive queue overruns)</source>
        <translation>，设备丢弃 %1 帧（接收队列溢出）</translation>
    </message>
    <message>
        <source>, drops unknown (the device exposes no out_of_buffer counter)</source>
        <translation>，丢弃数未知（设备未提供 out_of_buffer 计数器）</translation>
    </message>
    <message>
        <source>, hardware timestamps</source>
        <translation>，硬件时间戳</translation>
    </message>
    <message>
        <source>, software timestamps</source>
        <translation>，软件时间戳</translation>
    </message>
    <message>
        <source>Capturing on %1 ...</source>
        <translation>正在 %1 上抓包……</translation>
    </message>
    <message>
        <source>Capturing on %1: %2</source>
        <translation>正在 %1 上抓包：%2</translation>
    </message>
    <message>
        <source>Stopped: %1</source>
        <translation>已停止：%1</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::MainWindow</name>
    <message>
        <source>Host A</source>
        <translation>主机 A</translation>
    </message>
    <message>
        <source>Host B</source>
        <translation>主机 B</translation>
    </message>
    <message>
        <source>Layer stacks</source>
        <translation>协议栈分层</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>会话</translation>
    </message>
    <message>
        <source>Anomalies</source>
        <translation>异常</translation>
    </message>
    <message>
        <source>Flow Graph</source>
        <translation>流图</translation>
    </message>
    <message>
        <source>Plot</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>Congestion</source>
        <translation>拥塞</translation>
    </message>
    <message>
        <source>Frames on the wire: 00000000</source>
        <translation>线路上的帧：00000000</translation>
    </message>
    <message>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <source>Data path</source>
        <translation>数据路径</translation>
    </message>
    <message>
        <source>Analysing... %1%</source>
        <translation>正在分析……%1%</translation>
    </message>
    <message>
        <source>Anomalies (%1)</source>
        <translation>异常（%1）</translation>
    </message>
    <message>
        <source>Connections: %1  Anomalies: %2</source>
        <translation>连接：%1  异常：%2</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open Capture...</source>
        <translation>打开抓包文件(&amp;O)...</translation>
    </message>
    <message>
        <source>&amp;Save Frames As...</source>
        <translation>帧另存为(&amp;S)...</translation>
    </message>
    <message>
        <source>Save Frames</source>
        <translation>保存帧</translation>
    </message>
    <message>
        <source>pcap (*.pcap);;pcapng (*.pcapng)</source>
        <translation>pcap (*.pcap);;pcapng (*.pcapng)</translation>
    </message>
    <message>
        <source>&amp;Live Capture...</source>
        <translation>实时抓包(&amp;L)...</translation>
    </message>
    <message>
        <source>Open Sce&amp;nario File...</source>
        <translation>打开场景文件(&amp;N)...</translation>
    </message>
    <message>
        <source>Open Scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <source>Scenarios (*.json);;All files (*)</source>
        <translation>场景 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open &amp;Example</source>
        <translation>打开示例(&amp;E)</translation>
    </message>
    <message>
        <source>Save Scenario &amp;As...</source>
        <translation>场景另存为(&amp;A)...</translation>
    </message>
    <message>
        <source>Cannot save the scenario</source>
        <translation>无法保存场景</translation>
    </message>
    <message>
        <source>No scenario is shown.</source>
        <translation>当前未显示场景。</translation>
    </message>
    <message>
        <source>Save Scenario As</source>
        <translation>场景另存为</translation>
    </message>
    <message>
        <source>Scenario files (*.json);;All files (*)</source>
        <translation>场景文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Built-in &amp;Scenario</source>
        <translation>内置场景(&amp;S)</translation>
    </message>
    <message>
        <source>Attach to &amp;Fabric...</source>
        <translation>接入网络(&amp;F)...</translation>
    </message>
    <message>
        <source>Attach to Fabric</source>
        <translation>接入网络</translation>
    </message>
    <message>
        <source>Socket of the running fabric (rdmascope-cli fabric prints it):</source>
        <translation>正在运行的网络的套接字（由 rdmascope-cli fabric 打印）：</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>跳转(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Run / Pause</source>
        <translation>运行/暂停(&amp;R)</translation>
    </message>
    <message>
        <source>Step &amp;Forward</source>
        <translation>单步前进(&amp;F)</translation>
    </message>
    <message>
        <source>Step &amp;Back</source>
        <translation>单步后退(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Restart</source>
        <translation>重新开始(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;End</source>
        <translation>结尾(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Display &amp;Filter</source>
        <translation>显示过滤器(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Layer Stacks</source>
        <translation>协议栈分层(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Events</source>
        <translation>事件(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Comparison</source>
        <translation>对比(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Statistics</source>
        <translation>统计(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Conversations</source>
        <translation>会话(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Anomalies</source>
        <translation>异常(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Flow Graph</source>
        <translation>流图(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Plot (Latency and Throughput)</source>
        <translation>曲线（时延与吞吐量）(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Clear Conversation Filter</source>
        <translation>清除会话过滤器(&amp;C)</translation>
    </message>
    <message>
        <source>RoCEv2 (IPv4)</source>
        <translation>RoCEv2 (IPv4)</translation>
    </message>
    <message>
        <source>RoCEv2 (IPv6)</source>
        <translation>RoCEv2 (IPv6)</translation>
    </message>
    <message>
        <source>RoCEv1</source>
        <translation>RoCEv1</translation>
    </message>
    <message>
        <source>InfiniBand</source>
        <translation>InfiniBand</translation>
    </message>
    <message>
        <source>Jump to an event (0: before the first)</source>
        <translation>跳到某个事件（0：第一个事件之前）</translation>
    </message>
    <message>
        <source>Events per second when running</source>
        <translation>运行时每秒的事件数</translation>
    </message>
    <message>
        <source>4 events/s</source>
        <translation>4 事件/秒</translation>
    </message>
    <message>
        <source>40 events/s</source>
        <translation>40 事件/秒</translation>
    </message>
    <message>
        <source>Scenario:</source>
        <translation>场景：</translation>
    </message>
    <message>
        <source>Transport:</source>
        <translation>传输：</translation>
    </message>
    <message>
        <source>Backend:</source>
        <translation>后端：</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>前进</translation>
    </message>
    <message>
        <source>Event:</source>
        <translation>事件：</translation>
    </message>
    <message>
        <source>Speed:</source>
        <translation>速度：</translation>
    </message>
    <message>
        <source>Run a scenario...</source>
        <translation>运行场景……</translation>
    </message>
    <message>
        <source>%1 events/s</source>
        <translation>%1 事件/秒</translation>
    </message>
    <message>
        <source>Cannot run scenario</source>
        <translation>无法运行场景</translation>
    </message>
    <message>
        <source>%1 - rdmascope</source>
        <translation>%1 - rdmascope</translation>
    </message>
    <message>
        <source>Reloaded %1</source>
        <translation>已重新加载 %1</translation>
    </message>
    <message>
        <source>%1: cannot be written: %2</source>
        <translation>%1：无法写入：%2</translation>
    </message>
    <message>
        <source>Saved %1; edits to it are offered for reload</source>
        <translation>已保存 %1；对它的修改将提示重新加载</translation>
    </message>
    <message>
        <source>&lt;b&gt;Capture mode:&lt;/b&gt; %1 — pick a scenario to step through one</source>
        <translation>&lt;b&gt;抓包模式：&lt;/b&gt;%1 — 选择一个场景即可逐步演示</translation>
    </message>
    <message>
        <source>Packets: %1</source>
        <translation>分组：%1</translation>
    </message>
    <message>
        <source>The fabric went away: %1</source>
        <translation>网络已消失：%1</translation>
    </message>
    <message>
        <source>Cannot attach to the fabric</source>
        <translation>无法接入网络</translation>
    </message>
    <message>
        <source>Fabric %1 - rdmascope</source>
        <translation>网络 %1 - rdmascope</translation>
    </message>
    <message>
        <source>Fabric</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>Attached to the fabric at %1. Each program attached to a host has a pane with its PDs, MRs, QPs, queues and CQs; the timeline lists its verbs calls among the frames they produced. Pause holds the frames at the switch and stops every program at its next verbs call; Step call and Step frame let one through.</source>
        <translation>已接入位于 %1 的网络。每个接入主机的程序都有一个面板，显示其 PD、MR、QP、队列和 CQ；时间线按顺序列出其 verbs 调用及其产生的帧。“暂停”把帧滞留在交换机，并让每个程序在下一次 verbs 调用处停下；“单步调用”和“单步帧”每次放行一个。</translation>
    </message>
    <message>
        <source>Attached to the fabric at %1</source>
        <translation>已接入位于 %1 的网络</translation>
    </message>
    <message>
        <source>&lt;b&gt;Fabric mode:&lt;/b&gt; %1 — live; pick a scenario to leave it</source>
        <translation>&lt;b&gt;网络模式：&lt;/b&gt;%1 — 实时；选择一个场景即可退出</translation>
    </message>
    <message>
        <source>(fabric)</source>
        <translation>（网络）</translation>
    </message>
    <message>
        <source>Scenario: %1</source>
        <translation>场景：%1</translation>
    </message>
    <message>
        <source>of %1</source>
        <translation>/ %1</translation>
    </message>
    <message>
        <source>Frames on the wire: %1</source>
        <translation>线路上的帧：%1</translation>
    </message>
    <message>
        <source>Frame %1</source>
        <translation>帧 %1</translation>
    </message>
    <message>
        <source>live capture</source>
        <translation>实时抓包</translation>
    </message>
    <message>
        <source>(live capture)</source>
        <translation>（实时抓包）</translation>
    </message>
    <message>
        <source>Live capture - rdmascope</source>
        <translation>实时抓包 - rdmascope</translation>
    </message>
    <message>
        <source>Saved %1 frames to %2</source>
        <translation>已将 %1 帧保存到 %2</translation>
    </message>
    <message>
        <source>Open Capture</source>
        <translation>打开抓包文件</translation>
    </message>
    <message>
        <source>Loading %1</source>
        <translation>正在加载 %1</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Loading %1 cancelled</source>
        <translation>已取消加载 %1</translation>
    </message>
    <message>
        <source>Cannot open capture</source>
        <translation>无法打开抓包文件</translation>
    </message>
    <message>
        <source>%1 (%2 frames)</source>
        <translation>%1（%2 帧）</translation>
    </message>
    <message>
        <source>Capture</source>
        <translation>抓包</translation>
    </message>
    <message>
        <source>%1: %2 frames. Select a frame to see its headers, its bytes and the layers it has in each stack.</source>
        <translation>%1：%2 帧。选择一帧即可查看其首部、字节以及它在各协议栈中涉及的层。</translation>
    </message>
    <message>
        <source>(capture)</source>
        <translation>（抓包）</translation>
    </message>
    <message>
        <source>Capture damaged</source>
        <translation>抓包文件已损坏</translation>
    </message>
    <message>
        <source>%1
The %2 frames before the damage are shown.</source>
        <translation>%1
已显示损坏之前的 %2 帧。</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>Captures (*.pcap *.pcapng *.cap *.erf);;All files (*)</source>
        <translation>抓包文件 (*.pcap *.pcapng *.cap *.erf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open &amp;Congestion Scenario...</source>
        <translation>打开拥塞场景(&amp;C)...</translation>
    </message>
    <message>
        <source>Open Congestion Scenario</source>
        <translation>打开拥塞场景</translation>
    </message>
    <message>
        <source>Congestion scenarios (*.json);;All files (*)</source>
        <translation>拥塞场景 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&amp;Next Congestion Event</source>
        <translation>下一个拥塞事件(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Previous Congestion Event</source>
        <translation>上一个拥塞事件(&amp;P)</translation>
    </message>
    <message>
        <source>Cannot run the congestion scenario</source>
        <translation>无法运行拥塞场景</translation>
    </message>
    <message>
        <source>(no port captured)</source>
        <translation>（未在任何端口抓包）</translation>
    </message>
    <message>
        <source>Ran %1: %2 frames captured on its ports, %3 events</source>
        <translation>已运行 %1：在其端口上抓到 %2 帧，%3 个事件</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>of %1 slices of %2 us</source>
        <translation>/ %1 个时间片（每片 %2 us）</translation>
    </message>
    <message>
        <source>Ceph &amp;Messenger (RDMA and TCP Stacks)</source>
        <translation>Ceph 消息器（RDMA 与 TCP 栈）(&amp;M)</translation>
    </message>
    <message>
        <source>Connect with &amp;rdma_cm</source>
        <translation>用 &amp;rdma_cm 连接</translation>
    </message>
    <message>
        <source>Connect the RC QP as rdma_cm does (CM REQ, REP, RTU as frames) instead of the out-of-band exchange over TCP</source>
        <translation>像 rdma_cm 那样连接 RC QP（CM REQ、REP、RTU 作为帧），而不是通过 TCP 的带外交换</translation>
    </message>
    <message>
        <source>%1; it runs with the out-of-band exchange instead.</source>
        <translation>%1；改为用带外交换运行。</translation>
    </message>
    <message>
        <source>%1 runs on the TCP model, not from a scenario file: there is nothing to save.</source>
        <translation>%1 运行在 TCP 模型上，不来自场景文件：没有可保存的内容。</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::PacketContextMenus</name>
    <message>
        <source>&amp;Go to Packet...</source>
        <translation>转到分组(&amp;G)...</translation>
    </message>
    <message>
        <source>Apply as Filter</source>
        <translation>作为过滤器应用</translation>
    </message>
    <message>
        <source>Prepare as Filter</source>
        <translation>准备为过滤器</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Field Name</source>
        <translation>字段名</translation>
    </message>
    <message>
        <source>As Filter</source>
        <translation>过滤器表达式</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::PacketListModel</name>
    <message>
        <source>Bad integrity check (ICRC/VCRC/CRC32c)</source>
        <translation>完整性校验错误（ICRC/VCRC/CRC32c）</translation>
    </message>
    <message>
        <source>Integrity check good</source>
        <translation>完整性校验正确</translation>
    </message>
    <message>
        <source>No.</source>
        <translation>序号</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>源</translation>
    </message>
    <message>
        <source>Destination</source>
        <translation>目的</translation>
    </message>
    <message>
        <source>Protocol</source>
        <translation>协议</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>长度</translation>
    </message>
    <message>
        <source>Info</source>
        <translation>信息</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::PacketPane</name>
    <message>
        <source>Filtering packets...</source>
        <translation>正在过滤分组……</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::PauseRowsPlot</name>
    <message>
        <source>PFC pauses (the paused sender, priority)</source>
        <translation>PFC 暂停（被暂停的发送方，优先级）</translation>
    </message>
    <message>
        <source>No port was paused.</source>
        <translation>没有端口被暂停。</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::PauseStatsModel</name>
    <message>
        <source>Time this priority was held paused: from each XOFF to its XON, or until its pause time (quanta of 512 bit times) ran out</source>
        <translation>该优先级被暂停的时间：从每个 XOFF 到其 XON，或直到暂停时间（以 512 比特时间为单位）耗尽</translation>
    </message>
    <message>
        <source>Port (pausing)</source>
        <translation>端口（发出暂停）</translation>
    </message>
    <message>
        <source>Priority</source>
        <translation>优先级</translation>
    </message>
    <message>
        <source>Frames</source>
        <translation>帧</translation>
    </message>
    <message>
        <source>XOFF</source>
        <translation>XOFF</translation>
    </message>
    <message>
        <source>XON</source>
        <translation>XON</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>暂停时长</translation>
    </message>
    <message>
        <source>Longest</source>
        <translation>最长</translation>
    </message>
    <message>
        <source>Storms</source>
        <translation>风暴</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::PauseTimeline</name>
    <message>
        <source>No PFC or PAUSE frames in this capture: no priority was paused</source>
        <translation>此抓包中没有 PFC 或 PAUSE 帧：没有优先级被暂停</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::QpStateDiagram</name>
    <message>
        <source>any state → ERR or RESET by modify_qp</source>
        <translation>任意状态 → 经 modify_qp 进入 ERR 或 RESET</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::RealRunController</name>
    <message>
        <source>Real run failed</source>
        <translation>真实运行失败</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Real verbs run</source>
        <translation>真实 verbs 运行</translation>
    </message>
    <message>
        <source>%1
%2 s elapsed%3</source>
        <translation>%1
已用 %2 秒%3</translation>
    </message>
    <message>
        <source>A real run is still going: cancel it first.</source>
        <translation>真实运行仍在进行：请先取消。</translation>
    </message>
    <message>
        <source>cannot show scenario %1</source>
        <translation>无法显示场景 %1</translation>
    </message>
    <message>
        <source>rdmascope-cli not found (looked in %1): build it with cmake --build build/dev --target rdmascope-cli</source>
        <translation>未找到 rdmascope-cli（已查找 %1）：请用 cmake --build build/dev --target rdmascope-cli 构建</translation>
    </message>
    <message>
        <source>cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>Running %1 on two Soft-RoCE guests (about 40 s)</source>
        <translation>正在两台 Soft-RoCE 虚拟机上运行 %1（约 40 秒）</translation>
    </message>
    <message>
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>preparing</source>
        <translation>准备中</translation>
    </message>
    <message>
        <source>running the scenario</source>
        <translation>正在运行场景</translation>
    </message>
    <message>
        <source>booting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <source>guest %1 %2</source>
        <translation>虚拟机 %1 %2</translation>
    </message>
    <message>
        <source>lab boot failed on guest %1: %2</source>
        <translation>实验环境虚拟机 %1 启动失败：%2</translation>
    </message>
    <message>
        <source>lab run %1 failed (exit %2); see %3</source>
        <translation>实验环境运行 %1 失败（退出码 %2）；参见 %3</translation>
    </message>
    <message>
        <source>Lab run of %1 cancelled</source>
        <translation>已取消实验环境中 %1 的运行</translation>
    </message>
    <message>
        <source>rdmascope-cli lab run %1 crashed; see %2</source>
        <translation>rdmascope-cli lab 运行 %1 时崩溃；参见 %2</translation>
    </message>
    <message>
        <source>the lab run brought back no capture (%1)</source>
        <translation>实验环境运行未带回抓包文件（%1）</translation>
    </message>
    <message>
        <source>Lab run of %1 on real Soft-RoCE</source>
        <translation>%1 在真实 Soft-RoCE 上的实验环境运行</translation>
    </message>
    <message>
        <source>Results in %1 (capture.pcap, guest1/ and guest2/ output).</source>
        <translation>结果位于 %1（capture.pcap、guest1/ 和 guest2/ 的输出）。</translation>
    </message>
    <message>
        <source>Lab run of %1: %2 captured, %3 on real verbs</source>
        <translation>%1 的实验环境运行：抓到 %2，真实 verbs 上 %3</translation>
    </message>
    <message>
        <source>1 frame</source>
        <translation>1 帧</translation>
    </message>
    <message>
        <source>%1 frames</source>
        <translation>%1 帧</translation>
    </message>
    <message>
        <source>1 completion</source>
        <translation>1 个完成事件</translation>
    </message>
    <message>
        <source>%1 completions</source>
        <translation>%1 个完成事件</translation>
    </message>
    <message>
        <source>both hosts</source>
        <translation>两个主机</translation>
    </message>
    <message>
        <source>%1, the host this machine played</source>
        <translation>%1，即本机扮演的主机</translation>
    </message>
    <message>
        <source>Completions on real verbs (%1, as rdmascope-cli sim prints them):
</source>
        <translation>真实 verbs 上的完成事件（%1，格式同 rdmascope-cli sim 的输出）：
</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>

The completions of the program shown, in the simulator (%1):
</source>
        <translation>

所示程序在模拟器中的完成事件（%1）：
</translation>
    </message>
    <message>
        <source>

%1 of %2 lines agree (QPNs ignored: they differ between runs). %3</source>
        <translation>

%2 行中有 %1 行一致（忽略 QPN：每次运行都不同）。%3</translation>
    </message>
    <message>
        <source>%1 has no network interface to capture on (no %2); is the device still there?</source>
        <translation>%1 没有可抓包的网络接口（没有 %2）；设备是否还在？</translation>
    </message>
    <message>
        <source>this build has no libibverbs support</source>
        <translation>此版本未编译 libibverbs 支持</translation>
    </message>
    <message>
        <source>Running %1 with both hosts on %2 (nothing can be captured)</source>
        <translation>正在运行 %1，两个主机都在 %2 上（无法抓包）</translation>
    </message>
    <message>
        <source>Running %1 on %2, capturing on %3
On the peer: %4</source>
        <translation>正在 %2 上运行 %1，在 %3 上抓包
对端：%4</translation>
    </message>
    <message>
        <source>step %1 %2: %3</source>
        <translation>步骤 %1 %2：%3</translation>
    </message>
    <message>
        <source>waiting for %1</source>
        <translation>正在等待 %1</translation>
    </message>
    <message>
        <source>no peer came: %1</source>
        <translation>对端未出现：%1</translation>
    </message>
    <message>
        <source>peer unreachable: %1</source>
        <translation>对端不可达：%1</translation>
    </message>
    <message>
        <source>Run of %1 on %2 cancelled</source>
        <translation>已取消在 %2 上运行 %1</translation>
    </message>
    <message>
        <source>the network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>Nothing was captured: %1 loops traffic between its own QPs back internally, so it never reaches %2; run with a peer machine to capture.</source>
        <translation>未抓到任何帧：%1 在内部环回其自身 QP 之间的流量，因此流量从未到达 %2；请使用对端机器运行以便抓包。</translation>
    </message>
    <message>
        <source>%1 with both hosts on %2</source>
        <translation>%1，两个主机都在 %2 上</translation>
    </message>
    <message>
        <source>%1 ran with both hosts on %2: %3, %4 of %5 lines agree with the simulator. %6</source>
        <translation>%1 在 %2 上以两个主机运行：%3，%5 行中有 %4 行与模拟器一致。%6</translation>
    </message>
    <message>
        <source>completion</source>
        <translation>完成事件</translation>
    </message>
    <message>
        <source>completions</source>
        <translation>完成事件</translation>
    </message>
    <message>
        <source>%1 with both hosts on %2: %3 of %4 completion lines agree with the simulator; nothing captured (%2 loops it back internally)</source>
        <translation>%1，两个主机都在 %2 上：%4 行完成事件中有 %3 行与模拟器一致；未抓到任何帧（%2 在内部环回）</translation>
    </message>
    <message>
        <source>capture on %1: %2</source>
        <translation>在 %1 上抓包：%2</translation>
    </message>
    <message>
        <source>a peer on port %1</source>
        <translation>端口 %1 上的对端</translation>
    </message>
    <message>
        <source>the peer %1:%2</source>
        <translation>对端 %1:%2</translation>
    </message>
    <message>
        <source>%1 on %2 with %3</source>
        <translation>%1 在 %2 上，对端为 %3</translation>
    </message>
    <message>
        <source>Capture: %1</source>
        <translation>抓包：%1</translation>
    </message>
    <message>
        <source>%1 on %2 with %3: %4 captured on %5 (%6 with a good ICRC), %7, %8 of %9 lines agree with the simulator</source>
        <translation>%1 在 %2 上，对端为 %3：在 %5 上抓到 %4（其中 %6 的 ICRC 正确），%7，%9 行中有 %8 行与模拟器一致</translation>
    </message>
    <message>
        <source>frame</source>
        <translation>帧</translation>
    </message>
    <message>
        <source>frames</source>
        <translation>帧</translation>
    </message>
    <message>
        <source>nothing was captured on %1 although the run completed</source>
        <translation>运行虽已完成，但在 %1 上未抓到任何帧</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::ScenarioController</name>
    <message>
        <source>%1  —  ready, %2 events</source>
        <translation>%1  —  就绪，共 %2 个事件</translation>
    </message>
    <message>
        <source>Press Right to step (Left to step back, Space to run or pause). Each step is one event of the simulator: a verbs call, a QP state change, a WQE, a frame, a DMA access or a completion. Every view follows the current event; click a frame in the ladder or the packet list to jump to it.</source>
        <translation>按右方向键单步前进（左方向键后退，空格键运行或暂停）。每一步是模拟器中的一个事件：一次 verbs 调用、一次 QP 状态变化、一个 WQE、一帧、一次 DMA 访问或一个完成事件。所有视图都跟随当前事件；在梯形图或分组列表中单击一帧即可跳转到它。</translation>
    </message>
    <message>
        <source>Event %1 of %2 at %3 us, during the scenario step “%4”.</source>
        <translation>第 %1/%2 个事件，发生于 %3 us，处于场景步骤“%4”期间。</translation>
    </message>
    <message>
        <source>%1 (simulated iWARP: rdma_cm, MPA, DDP over TCP in the RNIC)</source>
        <translation>%1（模拟 iWARP：rdma_cm、MPA、RNIC 中 TCP 之上的 DDP）</translation>
    </message>
    <message>
        <source>%1 (simulated TCP sockets: send(), recv(), kernel TCP/IP)</source>
        <translation>%1（模拟 TCP 套接字：send()、recv()、内核 TCP/IP）</translation>
    </message>
    <message>
        <source>TCP: QPN %1</source>
        <translation>TCP：QPN %1</translation>
    </message>
    <message>
        <source>GID %1</source>
        <translation>GID %1</translation>
    </message>
    <message>
        <source>%1: addr %2  rkey %3  %4 bytes</source>
        <translation>%1：地址 %2  rkey %3  %4 字节</translation>
    </message>
    <message>
        <source>Out-of-band exchange over a TCP socket, not an RDMA frame: %1 tells %2 its QP number %3, first PSN %4 and GID %5, which %2 puts into its RTR attributes.</source>
        <translation>经 TCP 套接字的带外交换，不是 RDMA 帧：%1 告诉 %2 它的 QP 号 %3、首个 PSN %4 和 GID %5，%2 将其填入 RTR 属性。</translation>
    </message>
    <message>
        <source>For one-sided operations it also names its region %1: address %2, rkey %3, %4 bytes; %5 quotes them in the RETH of every READ or WRITE.</source>
        <translation>为单边操作，它还公布其内存区域 %1：地址 %2、rkey %3、%4 字节；%5 在每个 READ 或 WRITE 的 RETH 中引用它们。</translation>
    </message>
    <message>
        <source>lost on the link</source>
        <translation>在链路上丢失</translation>
    </message>
    <message>
        <source>dropped by %1</source>
        <translation>被 %1 丢弃</translation>
    </message>
    <message>
        <source>%1 MR #%2 %3 (rkey %4, %5)</source>
        <translation>%1 的 MR #%2 %3（rkey %4，%5）</translation>
    </message>
    <message>
        <source>no MR of %1 has rkey %2</source>
        <translation>%1 没有 rkey 为 %2 的 MR</translation>
    </message>
    <message>
        <source>Press Right to step (Left to step back, Space to run or pause). Each step is one event of the TCP model: a send() or recv() system call, a CPU copy between the application and a socket buffer, the kernel&apos;s TCP/IP work, a segment on the wire, an interrupt, or the socket buffers after a change. The host panes show each socket buffer filling and draining.</source>
        <translation>按右方向键单步（左方向键后退，空格运行或暂停）。每一步是 TCP 模型的一个事件：一次 send() 或 recv() 系统调用、应用程序与套接字缓冲区之间的一次 CPU 复制、内核的 TCP/IP 工作、线路上的一个段、一次中断，或变化后的套接字缓冲区。主机窗格显示每个套接字缓冲区的填充与排空。</translation>
    </message>
    <message>
        <source>Press Right to step (Left to step back, Space to run or pause). Each step is one event of the iWARP model: an rdma_cm call or event, an MPA Request or Reply, a work request, a DDP segment framed or placed by the RNIC, a TCP segment, or a completion. The host panes list the connection steps and count the RNIC&apos;s work.</source>
        <translation>按右方向键单步（左方向键后退，空格运行或暂停）。每一步是 iWARP 模型的一个事件：一次 rdma_cm 调用或事件、一个 MPA Request 或 Reply、一个工作请求、RNIC 成帧或放置的一个 DDP 段、一个 TCP 段，或一个完成。主机窗格列出连接步骤并统计 RNIC 的工作。</translation>
    </message>
    <message>
        <source>private data: %1 addr %2  rkey %3  %4 bytes</source>
        <translation>私有数据：%1 地址 %2  rkey %3  %4 字节</translation>
    </message>
    <message>
        <source>%1 (Ceph async+rdma: SRQ, registered chunks, SENDs over RoCEv2)</source>
        <translation>%1（Ceph async+rdma：SRQ、已注册块、经 RoCEv2 的 SEND）</translation>
    </message>
    <message>
        <source>%1 (Ceph async+posix: send(), recv(), kernel TCP/IP)</source>
        <translation>%1（Ceph async+posix：send()、recv()、内核 TCP/IP）</translation>
    </message>
    <message>
        <source>Press Right to step (Left to step back, Space to run or pause). Each step is one step of Ceph&apos;s messenger (a system call, a CPU copy, a chunk taken, posted or reposted, a SEND posted, a completion polled), a frame on the wire, or the NIC placing a SEND&apos;s payload into a chunk. The host panes show each host&apos;s chunk pool, shared receive queue, copies, system calls and CPU time.</source>
        <translation>按 Right 单步前进（Left 后退，Space 运行或暂停）。每一步是 Ceph messenger 的一个步骤（一次系统调用、一次 CPU 拷贝、取出/投递/重新投递一个块、投递一个 SEND、轮询到一个完成）、线路上的一帧，或网卡把 SEND 的载荷放入一个块。主机面板显示每台主机的块池、共享接收队列、拷贝、系统调用和 CPU 时间。</translation>
    </message>
    <message>
        <source>%1 (simulated %2)</source>
        <translation>%1（模拟 %2）</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::ScenarioReloadBar</name>
    <message>
        <source>Scenario file</source>
        <translation>场景文件</translation>
    </message>
    <message>
        <source>&amp;Reload</source>
        <translation>重新加载(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Ignore</source>
        <translation>忽略(&amp;I)</translation>
    </message>
    <message>
        <source>%1 changed on disk.</source>
        <translation>%1 已在磁盘上更改。</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::TimeSeriesPlot</name>
    <message>
        <source>time (us)</source>
        <translation>时间（us）</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::TransferFollower</name>
    <message>
        <source>No transfer yet: step to a work request to compare at its size.</source>
        <translation>尚无传输：单步到某个工作请求，即可按其大小进行对比。</translation>
    </message>
    <message>
        <source>Showing %1&apos;s %2 wr_id %3: %4 bytes (event %5)</source>
        <translation>显示 %1 的 %2（wr_id %3）：%4 字节（事件 %5）</translation>
    </message>
    <message>
        <source>simulated run: %1 us to completion; model: %2 us, which adds %3 us of CPU and PCIe DMA time the simulated NIC leaves out</source>
        <translation>模拟运行：%1 us 完成；模型：%2 us，其中多计入了模拟网卡未建模的 %3 us CPU 与 PCIe DMA 时间</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::TransportHostPane</name>
    <message>
        <source>Connection (rdma_cm and MPA):</source>
        <translation>连接（rdma_cm 和 MPA）：</translation>
    </message>
    <message>
        <source>rdma_bind_addr: port %1</source>
        <translation>rdma_bind_addr：端口 %1</translation>
    </message>
    <message>
        <source>rdma_listen: waits for connection requests</source>
        <translation>rdma_listen：等待连接请求</translation>
    </message>
    <message>
        <source>rdma_resolve_addr, rdma_resolve_route</source>
        <translation>rdma_resolve_addr、rdma_resolve_route</translation>
    </message>
    <message>
        <source>rdma_connect: the RNIC opens TCP to port %1</source>
        <translation>rdma_connect：RNIC 向端口 %1 打开 TCP</translation>
    </message>
    <message>
        <source>TCP connection established (SYN, SYN-ACK, ACK)</source>
        <translation>TCP 连接已建立（SYN、SYN-ACK、ACK）</translation>
    </message>
    <message>
        <source>MPA Request sent</source>
        <translation>已发送 MPA Request</translation>
    </message>
    <message>
        <source>MPA Request received: event CONNECT_REQUEST</source>
        <translation>已接收 MPA Request：事件 CONNECT_REQUEST</translation>
    </message>
    <message>
        <source>rdma_accept</source>
        <translation>rdma_accept</translation>
    </message>
    <message>
        <source>MPA Reply sent</source>
        <translation>已发送 MPA Reply</translation>
    </message>
    <message>
        <source>MPA Reply received</source>
        <translation>已接收 MPA Reply</translation>
    </message>
    <message>
        <source>event ESTABLISHED: DDP segments may flow</source>
        <translation>事件 ESTABLISHED：DDP 段可以流动</translation>
    </message>
    <message>
        <source>TCP send queue in the RNIC: %1 bytes, %2 in flight</source>
        <translation>RNIC 中的 TCP 发送队列：%1 字节，%2 字节在途</translation>
    </message>
    <message>
        <source>Socket send buffer (SO_SNDBUF %2 bytes): %1 bytes queued, %3 in flight, %4 acknowledged</source>
        <translation>套接字发送缓冲区（SO_SNDBUF %2 字节）：排队 %1 字节，在途 %3，已确认 %4</translation>
    </message>
    <message>
        <source>Socket receive buffer: %1 bytes waiting, %2 copied to the application</source>
        <translation>套接字接收缓冲区：%1 字节等待读取，%2 字节已复制给应用程序</translation>
    </message>
    <message>
        <source>Send pool: no registered chunks yet</source>
        <translation>发送池：尚无已注册块</translation>
    </message>
    <message>
        <source>Shared receive queue: no chunks posted yet</source>
        <translation>共享接收队列：尚未投递任何块</translation>
    </message>
    <message>
        <source>Send pool: %1 of %2 registered chunks of %3 KiB carry SENDs</source>
        <translation>发送池：%2 个 %3 KiB 已注册块中有 %1 个正承载 SEND</translation>
    </message>
    <message>
        <source>Shared receive queue: %1 of %2 chunks posted, %3 received and not yet copied out</source>
        <translation>共享接收队列：%2 个块中已投递 %1 个，%3 个已接收但尚未拷贝出</translation>
    </message>
</context>
<context>
    <name>rdmascope::ui::TransportStateModel</name>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>asleep in the kernel</source>
        <translation>在内核中睡眠</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>%1 (%2 bytes)</source>
        <translation>%1（%2 字节）</translation>
    </message>
    <message>
        <source>%1 (%2 bytes placed)</source>
        <translation>%1（已放置 %2 字节）</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>markers %1, CRC %2</source>
        <translation>markers %1，CRC %2</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>%1 bytes unacknowledged, %2 in flight</source>
        <translation>%1 字节未确认，%2 字节在途</translation>
    </message>
    <message>
        <source>send() calls</source>
        <translation>send() 调用</translation>
    </message>
    <message>
        <source>recv() calls</source>
        <translation>recv() 调用</translation>
    </message>
    <message>
        <source>CPU copies</source>
        <translation>CPU 复制</translation>
    </message>
    <message>
        <source>Copied app → send buffer</source>
        <translation>已复制 应用 → 发送缓冲区</translation>
    </message>
    <message>
        <source>Acknowledged by the peer</source>
        <translation>已被对端确认</translation>
    </message>
    <message>
        <source>Arrived in order</source>
        <translation>按序到达</translation>
    </message>
    <message>
        <source>Copied receive buffer → app</source>
        <translation>已复制 接收缓冲区 → 应用</translation>
    </message>
    <message>
        <source>TCP segments sent</source>
        <translation>已发送的 TCP 段</translation>
    </message>
    <message>
        <source>Interrupts</source>
        <translation>中断</translation>
    </message>
    <message>
        <source>Application</source>
        <translation>应用程序</translation>
    </message>
    <message>
        <source>STags registered</source>
        <translation>已注册的 STag</translation>
    </message>
    <message>
        <source>Work requests posted</source>
        <translation>已提交的工作请求</translation>
    </message>
    <message>
        <source>DDP segments framed</source>
        <translation>已成帧的 DDP 段</translation>
    </message>
    <message>
        <source>DDP segments placed</source>
        <translation>已放置的 DDP 段</translation>
    </message>
    <message>
        <source>Completions</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>MPA</source>
        <translation>MPA</translation>
    </message>
    <message>
        <source>TCP in the RNIC</source>
        <translation>RNIC 中的 TCP</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>量</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>QP in RTS: SENDs may flow</source>
        <translation>QP 处于 RTS：可以传送 SEND</translation>
    </message>
    <message>
        <source>peer&apos;s QP information read</source>
        <translation>已读取对端的 QP 信息</translation>
    </message>
    <message>
        <source>own QP information written</source>
        <translation>已写出自己的 QP 信息</translation>
    </message>
    <message>
        <source>not exchanged yet</source>
        <translation>尚未交换</translation>
    </message>
    <message>
        <source>%1 sent, %2 delivered</source>
        <translation>已发送 %1，已送达 %2</translation>
    </message>
    <message>
        <source>%1 us</source>
        <translation>%1 us</translation>
    </message>
    <message>
        <source>%1 copies, %2 system calls, %3 us CPU</source>
        <translation>%1 次拷贝，%2 次系统调用，%3 us CPU</translation>
    </message>
    <message>
        <source>QP information</source>
        <translation>QP 信息</translation>
    </message>
    <message>
        <source>Sent without a copy</source>
        <translation>无拷贝发送</translation>
    </message>
    <message>
        <source>System calls</source>
        <translation>系统调用</translation>
    </message>
    <message>
        <source>SENDs posted</source>
        <translation>已投递的 SEND</translation>
    </message>
    <message>
        <source>Completions polled</source>
        <translation>已轮询的完成</translation>
    </message>
    <message>
        <source>Chunks reposted</source>
        <translation>重新投递的块</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>CPU time of these steps</source>
        <translation>这些步骤的 CPU 时间</translation>
    </message>
    <message>
        <source>Whole run (with TCP/IP)</source>
        <translation>整个运行（含 TCP/IP）</translation>
    </message>
</context>
</TS>
