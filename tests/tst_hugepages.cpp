// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for model/hugepages: large vectors reserved on 2 MB pages keep the vector's contract (at
// least the capacity asked for, contents kept as they grow) and their blocks fill whole 2 MB pages.
// Whether the kernel then gives 2 MB pages is its choice (transparent_hugepage may be "never").
// Smaller blocks are faulted in at once (populate): mincore() says which pages are in memory.

#include "model/tracedata/hugepages.h"

#include <QtTest>

#include <array>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

using namespace scopeline;

namespace {

// The pages under [data, data + bytes), as the first address and their count.
std::pair<std::uintptr_t, std::size_t> pagesUnder(const void *data, std::size_t bytes)
{
    const auto page = std::uintptr_t(sysconf(_SC_PAGESIZE));
    const auto begin = reinterpret_cast<std::uintptr_t>(data) & ~(page - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes + page - 1) & ~(page - 1);
    return {begin, (end - begin) / page};
}

// How many of the pages under [data, data + bytes) are in memory.
std::size_t residentPages(const void *data, std::size_t bytes)
{
    const auto [begin, count] = pagesUnder(data, bytes);
    const auto end = begin + count * std::uintptr_t(sysconf(_SC_PAGESIZE));
    std::vector<unsigned char> in(count);
    if (mincore(reinterpret_cast<void *>(begin), end - begin, in.data()) != 0)
        return 0;
    return std::size_t(std::count_if(in.begin(), in.end(), [](unsigned char c) { return c & 1; }));
}

} // namespace

class TstHugePages : public QObject
{
    Q_OBJECT

private slots:
    void smallBlocksAreLeftAlone()
    {
        for (std::size_t bytes : {std::size_t(0), std::size_t(1), std::size_t(4096), hugepages::kSmallestBytes - 1})
            QCOMPARE(hugepages::roundedBytes(bytes), bytes);
    }

    void largeBlocksFillWholePages()
    {
        const std::size_t page = hugepages::kPageBytes;
        for (std::size_t bytes : {hugepages::kSmallestBytes, page / 2, page - hugepages::kHeaderBytes,
                                  page - hugepages::kHeaderBytes + 1, page, 5 * page + 3, 64 * page}) {
            const std::size_t rounded = hugepages::roundedBytes(bytes);
            QVERIFY2(rounded >= bytes, qPrintable(QString::number(bytes)));
            QCOMPARE((rounded + hugepages::kHeaderBytes) % page, std::size_t(0));
            QVERIFY2(rounded - bytes < page, qPrintable(QString::number(bytes)));
        }
    }

    void reservedVectorsBehaveAsVectors()
    {
        // Across the threshold: small, one page, several pages; then grown past what was reserved.
        for (std::size_t n : {std::size_t(10), std::size_t(200000), std::size_t(2000000)}) {
            std::vector<uint32_t> v;
            hugepages::reserve(v, n);
            QVERIFY(v.capacity() >= n);
            QVERIFY(v.empty());
            const uint32_t *data = v.data();
            for (std::size_t i = 0; i < n; ++i)
                v.push_back(uint32_t(i * 7));
            QCOMPARE(v.data(), data); // reserved: filling it up to n moved nothing
            for (std::size_t i = 0; i < n + 1000; ++i)
                v.push_back(uint32_t(i));
            for (std::size_t i = 0; i < n; ++i)
                QCOMPARE(v[i], uint32_t(i * 7));
        }
        std::string text;
        hugepages::reserve(text, 3 << 20);
        QVERIFY(text.capacity() >= std::size_t(3 << 20));
        text.assign(3 << 20, 'x');
        QCOMPARE(std::size_t(std::count(text.begin(), text.end(), 'x')), std::size_t(3 << 20));
    }

    void populateFaultsInWithoutWriting()
    {
        // A fresh mapping has no page in memory; populate() brings in those under the block (its
        // partly covered first and last pages too) and changes no byte.
        const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE)), pages = 16;
        auto *map = static_cast<char *>(
            mmap(nullptr, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        QVERIFY(map != MAP_FAILED);
        madvise(map, pages * page, MADV_NOHUGEPAGE);
        QCOMPARE(residentPages(map, pages * page), std::size_t(0));
        hugepages::populate(map + page + 100, 3 * page); // pages 1-4
        QCOMPARE(residentPages(map, pages * page), std::size_t(4));
        QCOMPARE(residentPages(map + page, 4 * page), std::size_t(4));
        map[page + 99] = 'x';
        hugepages::populate(map + page, page);
        QCOMPARE(map[page + 99], 'x');
        QCOMPARE(std::size_t(std::count(map + page, map + 5 * page, 0)), 4 * page - 1);
        hugepages::populate(map, 0);
        munmap(map, pages * page);
    }

    void roundedBlocksOfAnyElementAreMapped()
    {
        // Whole elements fall short of the rounded bytes unless their size divides them (24 and 40
        // bytes do not); the block must still reach glibc's threshold for a mapping of its own, or it
        // lands inside a heap, off the 2 MB boundaries.
        const std::size_t threshold =
            hugepages::kPageBytes - hugepages::kHeaderBytes - hugepages::kMostElementBytes;
        const auto check = [threshold](auto element) {
            constexpr std::size_t size = sizeof(element);
            std::vector<decltype(element)> v;
            const std::size_t n = (std::size_t(3) << 20) / size;
            hugepages::reserve(v, n);
            QVERIFY(v.capacity() >= n);
            // short of whole pages by its header and less than an element, and mapped
            const std::size_t page = hugepages::kPageBytes;
            const std::size_t bytes = v.capacity() * size + hugepages::kHeaderBytes;
            QVERIFY2((bytes + page - 1) / page * page - bytes < size, qPrintable(QString::number(size)));
            QVERIFY2(bytes - hugepages::kHeaderBytes >= threshold, qPrintable(QString::number(size)));
        };
        check(std::array<char, 24>{});
        check(std::array<char, 40>{});
        check(std::array<char, 1000>{});
        check(uint64_t{});
    }

    void adviceWithoutWholePageFaultsInTheBlock()
    {
        // A block inside a heap may hold no whole 2 MB page: its 4 KB pages are then faulted in at
        // once rather than one at a time as they are first written.
        const std::size_t page = std::size_t(sysconf(_SC_PAGESIZE)), span = 3 * hugepages::kPageBytes;
        auto *map = static_cast<char *>(
            mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        QVERIFY(map != MAP_FAILED);
        madvise(map, span, MADV_NOHUGEPAGE);
        const auto aligned = (reinterpret_cast<std::uintptr_t>(map) + hugepages::kPageBytes - 1) &
                             ~(hugepages::kPageBytes - 1);
        char *block = reinterpret_cast<char *>(aligned) + page; // 1.5 MB from 4 KB past a 2 MB boundary
        const std::size_t bytes = hugepages::kPageBytes * 3 / 4;
        QCOMPARE(residentPages(block, bytes), std::size_t(0));
        hugepages::advise(block, bytes);
        QCOMPARE(residentPages(block, bytes), bytes / page);
        QCOMPARE(std::size_t(std::count(block, block + bytes, 0)), bytes);
        munmap(map, span);
    }

    void adviceOnAnyBlockIsHarmless()
    {
        // Unaligned, tiny and empty blocks: advise() must touch nothing outside whole pages.
        std::vector<char> block(hugepages::kPageBytes * 3, 'a');
        hugepages::advise(block.data() + 1, block.size() - 1);
        hugepages::advise(block.data(), 0);
        hugepages::advise(nullptr, 0);
        QCOMPARE(std::size_t(std::count(block.begin(), block.end(), 'a')), block.size());
    }
};

QTEST_GUILESS_MAIN(TstHugePages)
#include "tst_hugepages.moc"
