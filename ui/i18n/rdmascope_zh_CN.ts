<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
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
    <name>ComparisonView</name>
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
        <source>Throughput (payload)</source>
        <translation>吞吐量（有效载荷）</translation>
    </message>
    <message>
        <source>A → B</source>
        <translation>A → B</translation>
    </message>
    <message>
        <source>B → A</source>
        <translation>B → A</translation>
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
        <source>%1  —  event %2 of %3</source>
        <translation>%1  —  第 %2/%3 个事件</translation>
    </message>
    <message>
        <source>Press Right to step (Left to step back, Space to run or pause). Each step is one event of the simulator: a verbs call, a QP state change, a WQE, a frame, a DMA access or a completion. Every view follows the current event; click a frame in the ladder or the packet list to jump to it.</source>
        <translation>按右方向键单步前进（左方向键后退，空格键运行或暂停）。每一步是模拟器中的一个事件：一次 verbs 调用、一次 QP 状态变化、一个 WQE、一帧、一次 DMA 访问或一个完成事件。所有视图都跟随当前事件；在梯形图或分组列表中单击一帧即可跳转到它。</translation>
    </message>
    <message>
        <source>link</source>
        <translation>链路</translation>
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
    <name>rdmascope::ui::TransferFollower</name>
    <message>
        <source>No transfer yet: step to a work request to compare at its size.</source>
        <translation>尚无传输：单步到某个工作请求，即可按其大小进行对比。</translation>
    </message>
    <message>
        <source>Showing %1&apos;s %2 wr_id %3: %4 bytes (event %5)</source>
        <translation>显示 %1 的 %2（wr_id %3）：%4 字节（事件 %5）</translation>
    </message>
</context>
</TS>
