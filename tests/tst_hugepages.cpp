// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for model/hugepages: large vectors reserved on 2 MB pages keep the vector's contract (at
// least the capacity asked for, contents kept as they grow) and their blocks fill whole 2 MB pages.
// Whether the kernel then gives 2 MB pages is its choice (transparent_hugepage may be "never").

#include "model/hugepages.h"

#include <QtTest>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

using namespace scopeline;

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
