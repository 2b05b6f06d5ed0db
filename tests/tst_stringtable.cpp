// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for model/stringtable: ids are dense and stable, a text interned twice gets its first id, and
// every view stays valid and equal to its text while the table grows (texts live in fixed blocks,
// long ones in blocks of their own). Checked against std::unordered_map as the oracle; sameText
// against a change at every byte.

#include "model/tracedata/stringtable.h"

#include <QtTest>

#include <random>
#include <string>
#include <unordered_map>
#include <vector>

using namespace scopeline;

class TstStringTable : public QObject
{
    Q_OBJECT

private slots:
    void emptyStringIsIdZero()
    {
        StringTable table;
        QCOMPARE(table.size(), std::size_t(1));
        QCOMPARE(table.intern({}), uint32_t(0));
        QVERIFY(table.view(0).empty());
        QCOMPARE(table.find("absent"), int64_t(-1));
    }

    void matchesAMapAcrossBlocks()
    {
        // Lengths from 0 to a few hundred bytes fill many 64 kB blocks; every 500th text is longer than
        // a quarter block, so it gets a block of its own between short ones.
        std::mt19937 random(13);
        std::vector<std::string> texts;
        for (int i = 0; i < 60000; ++i) {
            const std::size_t length = i % 500 == 499 ? 20000 + random() % 50000 : random() % 300;
            std::string text(length, ' ');
            for (char &c : text)
                c = char('a' + random() % 26);
            texts.push_back(text + std::to_string(i % 45000)); // a quarter repeat an earlier text's suffix
        }
        StringTable table;
        std::unordered_map<std::string, uint32_t> oracle{{std::string(), 0}};
        std::vector<std::string_view> views(1);
        for (const std::string &text : texts) {
            const uint32_t id = table.intern(text);
            const auto [it, added] = oracle.try_emplace(text, uint32_t(oracle.size()));
            QCOMPARE(id, it->second); // dense ids in order of first sight, the first id on a repeat
            if (added)
                views.push_back(table.view(id));
        }
        QCOMPARE(table.size(), oracle.size());
        for (const auto &[text, id] : oracle) {
            QCOMPARE(std::string(table.view(id)), text); // not as string_views: QTest would strcmp them
            // never moved as the table grew (as pointers: QTest compares char pointers as strings)
            QCOMPARE(static_cast<const void *>(views[id].data()), static_cast<const void *>(table.view(id).data()));
            QCOMPARE(table.find(text), int64_t(id));
            QCOMPARE(table.qstring(id), QString::fromStdString(text));
        }
    }

    // sameText reads texts of up to 16 bytes as overlapping words: a difference at any byte of any
    // length must still tell them apart, and texts of different lengths are never the same.
    void sameTextSeesEveryByte()
    {
        const std::string base = "abcdefghijklmnopqrstuvwxyz0123456789";
        for (std::size_t n = 0; n <= base.size(); ++n) {
            const std::string text = base.substr(0, n);
            std::string copy = text; // another buffer, the same bytes
            QVERIFY(sameText(text, copy));
            QVERIFY(n == base.size() || !sameText(text, base.substr(0, n + 1)));
            for (std::size_t at = 0; at < n; ++at) {
                std::string other = text;
                other[at] = char(other[at] ^ 0x40);
                QVERIFY2(!sameText(text, other), qPrintable(QStringLiteral("length %1, byte %2").arg(n).arg(at)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TstStringTable)
#include "tst_stringtable.moc"
