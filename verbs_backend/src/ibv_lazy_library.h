#pragma once
// Shared by ibv_library.cpp and ibv_cm_library.cpp: a library opened when a program first calls
// one of its functions, and those functions looked up in it. A missing library or function
// throws std::runtime_error naming it.

#include <dlfcn.h>

#include <mutex>
#include <stdexcept>
#include <string>

namespace rdmascope::verbs_backend {

class LazyLibrary {
 public:
  explicit LazyLibrary(const char* soname) : soname_(soname) {}

  /// The function `name` of the library, cast to its type.
  template <typename Function>
  Function function(const char* name) {
    void* f = ::dlsym(handle(), name);
    if (!f) throw std::runtime_error(std::string(soname_) + " has no function " + name);
    return reinterpret_cast<Function>(f);
  }

 private:
  void* handle() {
    // Opened once; a failed open throws, and is tried again at the next call.
    std::call_once(opened_, [this] {
      handle_ = ::dlopen(soname_, RTLD_NOW | RTLD_LOCAL);
      if (!handle_) throw std::runtime_error(std::string("cannot load ") + ::dlerror());
    });
    return handle_;
  }

  const char* soname_;
  std::once_flag opened_;
  void* handle_ = nullptr;
};

}  // namespace rdmascope::verbs_backend

/// Defines the C function `name` with these parameters to call the function of that name in
/// `library` (a LazyLibrary), looked up at its first call, with these arguments.
#define RDMASCOPE_LAZY_CALL(library, result, name, parameters, arguments)     \
  extern "C" result name parameters {                                         \
    static const auto real = (library).function<result(*) parameters>(#name); \
    return real arguments;                                                    \
  }
