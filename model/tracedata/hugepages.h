// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Large vectors on 2 MB pages, smaller ones faulted in at once. A fresh 4 KB page costs more to fault
// in than what is written to it (on virtual machines ten times a 2 MB page's share), so columns, the
// analysis' big vectors and a load's buffers are reserved here at their final size rather than grown.

#include <cstddef>
#include <vector>

#include <sys/mman.h>

namespace scopeline {

namespace hugepages {

constexpr std::size_t kPageBytes = std::size_t(2) << 20;
constexpr std::size_t kHeaderBytes = 64; // what glibc puts in front of a mapped block, with room
// A rounded block holds whole elements, so it falls short of its whole pages by up to an element's
// size less one: at most this, for the elements reserved here. Such a block is still mapped on its
// own, on whole 2 MB pages (the kernel aligns only mappings of whole pages).
constexpr std::size_t kMostElementBytes = 1024;
#ifdef MADV_COLLAPSE
constexpr int kCollapse = MADV_COLLAPSE;
#else
constexpr int kCollapse = 25; // Linux's value; glibc 2.36's headers predate it
#endif
// Below this a block stays on 4 KB pages: a 2 MB page is cleared whole however little of it is used.
constexpr std::size_t kSmallestBytes = kPageBytes / 2;

// Freed memory malloc keeps for the next allocations before it gives any back to the kernel.
constexpr std::size_t kKeptFreeBytes = std::size_t(64) << 20;
// glibc keeps freed blocks for the next allocations (up to kKeptFreeBytes at a heap's top) and maps
// blocks of a whole 2 MB page and more on their own, which the kernel puts on 2 MB boundaries.
// Idempotent; reserve() calls it.
void keepFreedMemory();
// Bytes to ask for so that a block of `bytes` and glibc's header fill whole 2 MB pages, from half a
// page up; smaller blocks are left as they are (a part-filled page is cleared whole).
std::size_t roundedBytes(std::size_t bytes);
// Asks the kernel for 2 MB pages over the block (its whole pages), the first one made at once since
// glibc's header write has already faulted it in as 4 KB pages; a block with no whole page (inside a
// heap) is faulted in at once instead.
void advise(const void *data, std::size_t bytes);

// The bytes of a vector's elements (reserveExact's pages past them are never touched).
template <typename Vector>
std::size_t usedBytes(const Vector &v)
{
    return v.size() * sizeof(*v.data());
}

// Faults in the 4 KB pages under a block in one call, a tenth of what faulting them one at a time
// costs on virtual machines here (MADV_POPULATE_WRITE, Linux 5.14; where refused, they fault on use).
void populate(const void *data, std::size_t bytes);

// For a block that will hold exactly `bytes`: 2 MB pages over the whole ones it fills, the 4 KB pages
// past them faulted in at once (a 2 MB page it would only start is cleared whole).
void adviseExact(const void *data, std::size_t bytes);
// What the reserves below share: container.reserve(n) rounded to whole pages, a block under half a
// 2 MB page faulted in at once; true when a larger block was reserved, whose pages the caller advises.
template <typename Container>
bool reserveRounded(Container &c, std::size_t n)
{
    keepFreedMemory();
    if (c.capacity() >= n)
        return false;
    constexpr std::size_t size = sizeof(*c.data());
    static_assert(size <= kMostElementBytes);
    c.reserve(roundedBytes(n * size) / size);
    if (c.capacity() * size >= kSmallestBytes)
        return true;
    populate(c.data(), c.capacity() * size);
    return false;
}

// container.reserve(n) (a vector or a string), on 2 MB pages from half a page up, and below that on
// 4 KB pages faulted in at once.
template <typename Container>
void reserve(Container &c, std::size_t n)
{
    if (reserveRounded(c, n))
        advise(c.data(), c.capacity() * sizeof(*c.data()));
}

// container.reserve(n) in a block of its own from half a 2 MB page up, its pages left for the caller
// to choose (advise, or MADV_NOHUGEPAGE and populate); smaller blocks faulted in at once.
template <typename Container>
void reserveUnadvised(Container &c, std::size_t n)
{
    reserveRounded(c, n);
}

// reserve() for a container that will hold exactly n: on 2 MB pages as far as it fills them whole.
template <typename Container>
void reserveExact(Container &c, std::size_t n)
{
    if (reserveRounded(c, n))
        adviseExact(c.data(), n * sizeof(*c.data()));
}
} // namespace hugepages

} // namespace scopeline
