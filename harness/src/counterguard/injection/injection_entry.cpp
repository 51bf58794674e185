// SPDX-License-Identifier: Apache-2.0
// The counterguard injection library: loaded into every process of a program run by `counterguard exec`
// through CUDA_INJECTION64_PATH (the CUDA driver calls InitializeInjection while it initialises) and
// NVTX_INJECTION64_PATH (the program's first NVTX call calls InitializeInjectionNvtx2, which hands NVTX on to
// CUPTI, as NVTX_INJECTION64_PATH=<libcupti> would, after subscribing: ranges pushed before CUDA starts are
// seen too). Only those two symbols are exported. Nothing here may throw into CUPTI or the program.
#include <cupti.h>
#include <dlfcn.h>
#include <generated_nvtx_meta.h>
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cwchar>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

#include "counterguard/exec/exec_instructions.hpp"
#include "counterguard/exec/nvtx_tracker.hpp"
#include "injection_options.hpp"
#include "injection_session.hpp"
#include "injection_trace.hpp"

namespace counterguard::injection {
namespace {

std::atomic<int> g_started{0};
std::atomic<bool> g_forked_child{false};
injection_session* g_session = nullptr;  // lives until the process ends (never destroyed: atexit order)
nvtx_registry* g_nvtx = nullptr;
CUpti_SubscriberHandle g_subscriber = nullptr;

thread_local nvtx_thread_stacks t_stacks;
thread_local int t_depth = 0;          // launch API calls open on this thread
thread_local int t_claimed_depth = 0;  // the depth of the call that claimed the launch (0: none)
thread_local pending_launch t_pending;
// The modules loaded on this thread since its outermost launch or module-load call began: the module-loaded
// callback arrives inside the call that loads (validation/launch_code_checks.sh probe), whose return names
// the module's handle.
thread_local std::vector<std::uint32_t> t_loaded;

std::string narrow(const wchar_t* text) {
  std::string result;
  for (; text != nullptr && *text != L'\0'; ++text)
    result += *text < 128 ? static_cast<char>(*text) : '?';
  return result;
}

std::string message_of(const nvtxEventAttributes_t* attributes) {
  if (attributes == nullptr)
    return {};
  switch (attributes->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
      return attributes->message.ascii != nullptr ? attributes->message.ascii : "";
    case NVTX_MESSAGE_TYPE_UNICODE:
      return narrow(attributes->message.unicode);
    case NVTX_MESSAGE_TYPE_REGISTERED:
      return g_nvtx->registered_string(reinterpret_cast<std::uintptr_t>(attributes->message.registered));
    default:
      return {};
  }
}

std::uintptr_t handle(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer);
}

template <typename T>
const T* params(const CUpti_NvtxData& data) {
  return static_cast<const T*>(data.functionParams);
}

template <typename T>
bool returned(const CUpti_NvtxData& data, T& value) {
  if (data.functionReturnValue == nullptr)
    return false;
  value = *static_cast<const T*>(data.functionReturnValue);
  return true;
}

void on_nvtx(CUpti_CallbackId id, const CUpti_NvtxData& data) {
  if (data.functionParams == nullptr)
    return;
  nvtxRangeId_t range = 0;
  switch (id) {
    case CUPTI_CBID_NVTX_nvtxRangePushA:
      t_stacks.push("", params<nvtxRangePushA_params>(data)->message);
      break;
    case CUPTI_CBID_NVTX_nvtxRangePushW:
      t_stacks.push("", narrow(params<nvtxRangePushW_params>(data)->message));
      break;
    case CUPTI_CBID_NVTX_nvtxRangePushEx:
      t_stacks.push("", message_of(params<nvtxRangePushEx_params>(data)->eventAttrib));
      break;
    case CUPTI_CBID_NVTX_nvtxRangePop:
      t_stacks.pop("");
      break;
    case CUPTI_CBID_NVTX_nvtxDomainRangePushEx: {
      const auto* p = params<nvtxDomainRangePushEx_params>(data);
      t_stacks.push(g_nvtx->domain_name(handle(p->domain)), message_of(p->core.eventAttrib));
      break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainRangePop:
      t_stacks.pop(g_nvtx->domain_name(handle(params<nvtxDomainRangePop_params>(data)->domain)));
      break;
    case CUPTI_CBID_NVTX_nvtxRangeStartA:
      if (returned(data, range))
        g_nvtx->start_range(range, 0, params<nvtxRangeStartA_params>(data)->message);
      break;
    case CUPTI_CBID_NVTX_nvtxRangeStartW:
      if (returned(data, range))
        g_nvtx->start_range(range, 0, narrow(params<nvtxRangeStartW_params>(data)->message));
      break;
    case CUPTI_CBID_NVTX_nvtxRangeStartEx:
      if (returned(data, range))
        g_nvtx->start_range(range, 0, message_of(params<nvtxRangeStartEx_params>(data)->eventAttrib));
      break;
    case CUPTI_CBID_NVTX_nvtxDomainRangeStartEx:
      if (returned(data, range)) {
        const auto* p = params<nvtxDomainRangeStartEx_params>(data);
        g_nvtx->start_range(range, handle(p->domain), message_of(p->core.eventAttrib));
      }
      break;
    case CUPTI_CBID_NVTX_nvtxRangeEnd:
      g_nvtx->end_range(params<nvtxRangeEnd_params>(data)->id);
      break;
    case CUPTI_CBID_NVTX_nvtxDomainRangeEnd:
      g_nvtx->end_range(params<nvtxDomainRangeEnd_params>(data)->core.id);
      break;
    case CUPTI_CBID_NVTX_nvtxDomainCreateA: {
      nvtxDomainHandle_t domain = nullptr;
      if (returned(data, domain))
        g_nvtx->name_domain(handle(domain), params<nvtxDomainCreateA_params>(data)->name);
      break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainCreateW: {  // CUPTI publishes no params struct; the one argument is the
                                               // name
      nvtxDomainHandle_t domain = nullptr;
      if (returned(data, domain))
        g_nvtx->name_domain(handle(domain), narrow(*static_cast<const wchar_t* const*>(data.functionParams)));
      break;
    }
    case CUPTI_CBID_NVTX_nvtxDomainRegisterStringA: {
      nvtxStringHandle_t string = nullptr;
      if (returned(data, string))
        g_nvtx->register_string(handle(string), params<nvtxDomainRegisterStringA_params>(data)->string);
      break;
    }
    default:
      break;
  }
}

void on_launch_api(CUpti_CallbackDomain domain, CUpti_CallbackId id, const CUpti_CallbackData& data) {
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API && loads_a_module(id)) {
    if (data.callbackSite == CUPTI_API_ENTER) {
      if (t_depth == 0)
        t_loaded.clear();
    } else {
      g_session->module_load_returned(id, data, t_loaded);
      t_loaded.clear();
    }
    return;
  }
  if (data.callbackSite == CUPTI_API_ENTER) {
    if (t_depth == 0)
      t_loaded.clear();
    ++t_depth;
    intercepted_launch launch;
    if (!read_launch(domain, id, data, launch))
      return;
    if (t_claimed_depth == 0) {
      // The outermost launch call with a context claims the launch; a runtime call that creates the context
      // leaves it to the driver launch under it.
      if (data.context == nullptr)
        return;
      t_claimed_depth = t_depth;
      g_session->launch_entered(t_pending, data.context, launch, t_stacks.snapshot(*g_nvtx));
    } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
      g_session->nested_launch(t_pending, launch);
    }
    return;
  }
  if (t_depth > 0 && t_depth == t_claimed_depth) {
    t_claimed_depth = 0;
    g_session->launch_exited(t_pending, t_loaded);
    t_loaded.clear();
  }
  if (t_depth > 0)
    --t_depth;
}

void on_resource(CUpti_CallbackId id, const CUpti_ResourceData& data) {
  switch (id) {
    case CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING:
      g_session->context_destroying(data.context);
      break;
    case CUPTI_CBID_RESOURCE_MODULE_LOADED:
      if (const auto* module = static_cast<const CUpti_ModuleResourceData*>(data.resourceDescriptor)) {
        t_loaded.push_back(module->moduleId);
        g_session->module_loaded(data.context, module->moduleId,
                                 reinterpret_cast<const std::uint8_t*>(module->pCubin), module->cubinSize);
      }
      break;
    case CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING:
      if (const auto* module = static_cast<const CUpti_ModuleResourceData*>(data.resourceDescriptor))
        g_session->module_unloading(module->moduleId);
      break;
    default:
      break;
  }
}

void CUPTIAPI on_callback(void* /*user*/, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                          const void* data) {
  if (g_session == nullptr || data == nullptr || g_forked_child.load())
    return;
  try {
    switch (domain) {
      case CUPTI_CB_DOMAIN_RUNTIME_API:
      case CUPTI_CB_DOMAIN_DRIVER_API:
        on_launch_api(domain, id, *static_cast<const CUpti_CallbackData*>(data));
        break;
      case CUPTI_CB_DOMAIN_NVTX:
        on_nvtx(id, *static_cast<const CUpti_NvtxData*>(data));
        break;
      case CUPTI_CB_DOMAIN_RESOURCE:
        on_resource(id, *static_cast<const CUpti_ResourceData*>(data));
        break;
      default:
        break;
    }
  } catch (const std::exception& e) {
    warn(e.what());
  } catch (...) {
    warn("unexpected failure in a CUPTI callback");
  }
}

process_identity own_identity() {
  process_identity identity;
  identity.pid = ::getpid();
  identity.parent_pid = ::getppid();
  char path[4096] = {};
  const ssize_t length = ::readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (length > 0)
    identity.executable.assign(path, static_cast<std::size_t>(length));
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  const std::string command((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t begin = 0;
  while (begin < command.size()) {
    const std::size_t end = command.find('\0', begin);
    identity.argv.push_back(
        command.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
    if (end == std::string::npos)
      break;
    begin = end + 1;
  }
  read_rank_from_environment(identity, [](const char* name) -> const char* { return std::getenv(name); });
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  identity.started_ns = static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
  return identity;
}

void at_exit() {
  trace("the process exits");
  if (g_session != nullptr && !g_forked_child.load()) {
    try {
      g_session->finish();
    } catch (...) {
    }
  }
}

// A failure the program must not notice: say it on stderr, leave the program alone.
bool subscribe() {
  if (cuptiSubscribe(&g_subscriber, &on_callback, nullptr) != CUPTI_SUCCESS) {
    warn(
        "cannot subscribe to CUPTI callbacks (another CUPTI tool, ncu, nsys or a profiler built into the "
        "program holds the subscription); this process is not profiled");
    return false;
  }
  bool ok = true;
  std::size_t count = 0;
  const CUpti_CallbackId* ids = runtime_launch_callbacks(count);
  for (std::size_t i = 0; i < count; ++i)
    ok = ok && cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, ids[i]) == CUPTI_SUCCESS;
  ids = driver_launch_callbacks(count);
  for (std::size_t i = 0; i < count; ++i)
    ok = ok && cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, ids[i]) == CUPTI_SUCCESS;
  ok = ok && cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                 CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) == CUPTI_SUCCESS;
  // JIT-compiled kernels (Triton, CuPy, Numba, NVRTC) have no cubin in any file: their static metrics come
  // from the image the driver loads.
  ok = ok && cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                 CUPTI_CBID_RESOURCE_MODULE_LOADED) == CUPTI_SUCCESS;
  // Which module each launched function came from: the load calls return the loaded module's handle.
  ok = ok && cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                 CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) == CUPTI_SUCCESS;
  ids = module_load_callbacks(count);
  for (std::size_t i = 0; i < count; ++i)
    ok = ok && cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, ids[i]) == CUPTI_SUCCESS;
  ok = ok && cuptiEnableDomain(1, g_subscriber, CUPTI_CB_DOMAIN_NVTX) == CUPTI_SUCCESS;
  if (!ok)
    warn("cannot enable the CUPTI launch and NVTX callbacks; launches may go unseen");
  return true;
}

// Sets the session up once per process, from whichever entry point comes first.
void start() {
  int expected = 0;
  if (!g_started.compare_exchange_strong(expected, 1)) {
    trace("already set up");
    return;
  }
  // Stay loaded: NVTX unloads an injection whose initialisation fails, and callbacks point in here.
  Dl_info self{};
  if (::dladdr(reinterpret_cast<const void*>(&start), &self) != 0 && self.dli_fname != nullptr)
    static_cast<void>(::dlopen(self.dli_fname, RTLD_NOW | RTLD_NODELETE));
  const char* path = std::getenv(exec_instructions_variable);
  if (path == nullptr || *path == '\0') {
    trace(std::string(exec_instructions_variable) + " is not set: not profiling");
    return;  // loaded without `counterguard exec`: do nothing
  }
  try {
    exec_instructions instructions = load_exec_instructions(path);
    injection_options options = read_injection_options(
        [](const char* name, const void* /*context*/) -> const char* { return std::getenv(name); }, nullptr);
    if (!options.problem.empty())
      warn(options.problem);
    trace(std::string("setup ") + setup_reuse_name(options.reuse));
    g_nvtx = new nvtx_registry();
    std::unique_ptr<sass_launch_collector> blame;
    if (const char* request = std::getenv(exec_blame_variable); request != nullptr && *request != '\0') {
      trace("a blame pass: per-instruction counters instead of the range profiler");
      blame = std::make_unique<sass_launch_collector>(load_exec_blame_request(request), instructions.cases);
    }
    auto* session =
        new injection_session(std::move(instructions), own_identity(), std::move(options), std::move(blame));
    trace("recording into " + session->folder().string());
    if (!subscribe())
      return;
    trace("subscribed to the CUPTI launch and NVTX callbacks");
    g_session = session;
    std::atexit(&at_exit);
    ::pthread_atfork(nullptr, nullptr, [] { g_forked_child.store(true); });
  } catch (const std::exception& e) {
    warn(std::string("not profiling this process: ") + e.what());
  }
}

}  // namespace
}  // namespace counterguard::injection

// NOLINTNEXTLINE(readability-identifier-naming): the name the CUDA driver looks up
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  counterguard::injection::trace("InitializeInjection (CUDA driver)");
  counterguard::injection::start();
  return 1;
}

// NOLINTNEXTLINE(readability-identifier-naming): the name NVTX looks up
extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    const void* (*get_export_table)(std::uint32_t)) {
  // CUPTI implements NVTX for its subscribers; this library only has to be subscribed before it answers.
  using counterguard::injection::trace;
  trace("InitializeInjectionNvtx2 (NVTX)");
  Dl_info cupti{};
  if (::dladdr(reinterpret_cast<const void*>(&cuptiGetVersion), &cupti) == 0 || cupti.dli_fname == nullptr) {
    trace("cannot locate CUPTI: NVTX ranges are not seen");
    return 0;
  }
  void* library = ::dlopen(cupti.dli_fname, RTLD_NOW | RTLD_NOLOAD);
  if (library == nullptr) {
    trace(std::string("cannot open ") + cupti.dli_fname + ": NVTX ranges are not seen");
    return 0;
  }
  using nvtx_initialize = int (*)(const void* (*)(std::uint32_t));
  const auto forward = reinterpret_cast<nvtx_initialize>(::dlsym(library, "InitializeInjectionNvtx2"));
  if (forward == nullptr) {
    trace(std::string(cupti.dli_fname) + " has no InitializeInjectionNvtx2: NVTX ranges are not seen");
    return 0;
  }
  counterguard::injection::start();
  const int status = forward(get_export_table);
  trace("CUPTI's NVTX initialisation returned " + std::to_string(status));
  return status;
}
