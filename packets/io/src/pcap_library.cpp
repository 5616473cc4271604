// libpcap, loaded when a program first calls it. Linked at start-up, libpcap brings twelve
// shared libraries with it (D-Bus, systemd, libgcrypt, libnl, libibverbs, ...): some 190 page
// faults and 6 ms on this project's machines at every start of rdmascope-cli, whose reading
// of classic pcap files and decoding never call it. These definitions of the libpcap functions
// rdmascope calls take their place: each looks its function up once in the library, opened on
// the first call (the compiler checks each against its declaration in pcap.h). A missing
// library or function throws std::runtime_error naming it.
#include <dlfcn.h>
#include <pcap/pcap.h>

#include <stdexcept>
#include <string>

#ifndef RDMASCOPE_PCAP_SONAME
#error \
    "RDMASCOPE_PCAP_SONAME (the file name libpcap is loaded by) is set by packets/io/CMakeLists.txt"
#endif

namespace {

void* library() {
  static void* const handle = [] {
    void* h = ::dlopen(RDMASCOPE_PCAP_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!h) throw std::runtime_error(std::string("cannot load libpcap: ") + ::dlerror());
    return h;
  }();
  return handle;
}

template <typename Function>
Function lookUp(const char* name) {
  void* f = ::dlsym(library(), name);
  if (!f)
    throw std::runtime_error(std::string("libpcap (" RDMASCOPE_PCAP_SONAME ") has no ") + name);
  return reinterpret_cast<Function>(f);
}

}  // namespace

// Defines `name` with these parameters to call the library's function with these arguments.
#define RDMASCOPE_PCAP_CALL(result, name, parameters, arguments)  \
  extern "C" result name parameters {                             \
    static const auto real = lookUp<result(*) parameters>(#name); \
    return real arguments;                                        \
  }

RDMASCOPE_PCAP_CALL(int, pcap_activate, (pcap_t * p), (p))
RDMASCOPE_PCAP_CALL(void, pcap_close, (pcap_t * p), (p))
RDMASCOPE_PCAP_CALL(int, pcap_compile,
                    (pcap_t * p, struct bpf_program* program, const char* text, int optimize,
                     bpf_u_int32 netmask),
                    (p, program, text, optimize, netmask))
RDMASCOPE_PCAP_CALL(pcap_t*, pcap_create, (const char* device, char* error), (device, error))
RDMASCOPE_PCAP_CALL(int, pcap_datalink, (pcap_t * p), (p))
RDMASCOPE_PCAP_CALL(int, pcap_findalldevs, (pcap_if_t * *devices, char* error), (devices, error))
RDMASCOPE_PCAP_CALL(void, pcap_freealldevs, (pcap_if_t * devices), (devices))
RDMASCOPE_PCAP_CALL(void, pcap_freecode, (struct bpf_program * program), (program))
RDMASCOPE_PCAP_CALL(int, pcap_get_selectable_fd, (pcap_t * p), (p))
RDMASCOPE_PCAP_CALL(char*, pcap_geterr, (pcap_t * p), (p))
RDMASCOPE_PCAP_CALL(int, pcap_next_ex,
                    (pcap_t * p, struct pcap_pkthdr** header, const u_char** data),
                    (p, header, data))
RDMASCOPE_PCAP_CALL(pcap_t*, pcap_open_offline_with_tstamp_precision,
                    (const char* path, u_int precision, char* error), (path, precision, error))
RDMASCOPE_PCAP_CALL(int, pcap_set_buffer_size, (pcap_t * p, int size), (p, size))
RDMASCOPE_PCAP_CALL(int, pcap_set_immediate_mode, (pcap_t * p, int on), (p, on))
RDMASCOPE_PCAP_CALL(int, pcap_set_promisc, (pcap_t * p, int on), (p, on))
RDMASCOPE_PCAP_CALL(int, pcap_set_snaplen, (pcap_t * p, int length), (p, length))
RDMASCOPE_PCAP_CALL(int, pcap_set_tstamp_precision, (pcap_t * p, int precision), (p, precision))
RDMASCOPE_PCAP_CALL(int, pcap_setfilter, (pcap_t * p, struct bpf_program* program), (p, program))
RDMASCOPE_PCAP_CALL(int, pcap_setnonblock, (pcap_t * p, int on, char* error), (p, on, error))
RDMASCOPE_PCAP_CALL(int, pcap_stats, (pcap_t * p, struct pcap_stat* stats), (p, stats))
