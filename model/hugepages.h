// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Large vectors on 2 MB pages, smaller ones faulted in at once. A fresh 4 KB page costs more to fault
// in than what is written to it (on virtual machines ten times a 2 MB page's share), so columns, the
// analysis' big vectors and a load's buffers are reserved here at their final size rather than grown.

#include <cstddef>
#include <vector>

namespace scopeline {

namespace hugepages {

constexpr std::size_t kPageBytes = std::size_t(2) << 20;
constexpr std::size_t kHeaderBytes = 64; // what glibc puts in front of a mapped block, with room
// Below this a block stays on 4 KB pages: a 2 MB page is cleared whole however little of it is used.
constexpr std::size_t kSmallestBytes = kPageBytes / 2;

// glibc keeps freed blocks for the next allocations and maps blocks of a whole 2 MB page and more on
// their own, which the kernel puts on 2 MB boundaries. Idempotent; reserve() calls it.
void keepFreedMemory();
// Bytes to ask for so that a block of `bytes` and glibc's header fill whole 2 MB pages, from half a
// page up; smaller blocks are left as they are (a part-filled page is cleared whole).
std::size_t roundedBytes(std::size_t bytes);
// Asks the kernel for 2 MB pages over the block (its whole pages), the first one made at once since
// glibc's header write has already faulted it in as 4 KB pages.
void advise(const void *data, std::size_t bytes);

// Faults in the 4 KB pages under a block in one call, a tenth of what faulting them one at a time
// costs on virtual machines here (MADV_POPULATE_WRITE, Linux 5.14; where refused, they fault on use).
void populate(const void *data, std::size_t bytes);

// container.reserve(n) (a vector or a string), on 2 MB pages from half a page up, and below that on
// 4 KB pages faulted in at once.
template <typename Container>
void reserve(Container &c, std::size_t n)
{
    keepFreedMemory();
    if (c.capacity() >= n)
        return;
    constexpr std::size_t size = sizeof(*c.data());
    c.reserve(roundedBytes(n * size) / size);
    if (c.capacity() * size < kSmallestBytes)
        populate(c.data(), c.capacity() * size);
    else
        advise(c.data(), c.capacity() * size);
}

} // namespace hugepages

} // namespace scopeline
