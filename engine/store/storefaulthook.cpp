#include "storefaulthook.h"

#include <atomic>

namespace hg {
namespace {

std::atomic<StoreFaultHook *> installedHook{nullptr};

} // namespace

void StoreFaultHook::install(StoreFaultHook *hook)
{
    installedHook.store(hook, std::memory_order_release);
}

StoreFaultHook *StoreFaultHook::installed()
{
    return installedHook.load(std::memory_order_acquire);
}

} // namespace hg
