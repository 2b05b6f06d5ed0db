// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/tracedata/hugepages.h"

#include <cstdint>
#include <mutex>

#include <sys/mman.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

namespace scopeline::hugepages {

namespace {
#ifdef MADV_POPULATE_WRITE
constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
constexpr int kPopulateWrite = 23;
#endif
constexpr std::uintptr_t kSmallPage = 4096;
} // namespace

void keepFreedMemory()
{
#ifdef __GLIBC__
    // glibc unmaps every freed block over 128 KB by default, so each phase of a load would touch
    // fresh pages again. A rounded block short of its pages by less than an element is mapped too:
    // below the threshold it would land inside a heap, off the 2 MB boundaries, on 4 KB pages faulted
    // in one at a time.
    static std::once_flag once;
    std::call_once(once, [] {
        mallopt(M_MMAP_THRESHOLD, int(kPageBytes - kHeaderBytes - kMostElementBytes));
        mallopt(M_TRIM_THRESHOLD, int(kKeptFreeBytes));
    });
#endif
}

std::size_t roundedBytes(std::size_t bytes)
{
    if (bytes < kSmallestBytes)
        return bytes;
    return (bytes + kHeaderBytes + kPageBytes - 1) / kPageBytes * kPageBytes - kHeaderBytes;
}

void populate(const void *data, std::size_t bytes)
{
    if (bytes == 0)
        return;
    // The pages a block touches are mapped whole, its neighbours' parts too: faulting them in changes
    // no byte.
    const auto at = reinterpret_cast<std::uintptr_t>(data);
    const auto begin = at & ~(kSmallPage - 1);
    const auto end = (at + bytes + kSmallPage - 1) & ~(kSmallPage - 1);
    madvise(reinterpret_cast<void *>(begin), end - begin, kPopulateWrite);
}

void advise(const void *data, std::size_t bytes)
{
    if (bytes < kSmallestBytes)
        return;
    const auto at = reinterpret_cast<std::uintptr_t>(data);
    const auto begin = (at - kHeaderBytes + kPageBytes - 1) & ~(kPageBytes - 1);
    // a mapped block's last page too (the block falls short of it by its header and part of an element)
    const auto end = (at + bytes + kHeaderBytes + kMostElementBytes) & ~(kPageBytes - 1);
    if (end <= begin) {
        populate(data, bytes);
        return;
    }
    madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
    // Collapse only the page holding the block's start (Linux 6.1; where refused, it stays as it is).
    if (begin <= at)
        madvise(reinterpret_cast<void *>(begin), kPageBytes, kCollapse);
}

void adviseExact(const void *data, std::size_t bytes)
{
    const auto at = reinterpret_cast<std::uintptr_t>(data);
    const auto begin = (at - kHeaderBytes + kPageBytes - 1) & ~(kPageBytes - 1);
    const auto end = (at + bytes) & ~(kPageBytes - 1);
    std::uintptr_t rest = at;
    if (end > begin) {
        madvise(reinterpret_cast<void *>(begin), end - begin, MADV_HUGEPAGE);
        if (begin <= at)
            madvise(reinterpret_cast<void *>(begin), kPageBytes, kCollapse);
        rest = end;
    }
    if (at + bytes > rest)
        populate(reinterpret_cast<const void *>(rest), at + bytes - rest);
}

} // namespace scopeline::hugepages
