// SPDX-License-Identifier: GPL-3.0-or-later
// eventDetails on real traces: the ordered fields of a kernel, of its launch (the kernels counted by
// correlation id here, not through TraceAnalysis) and of a graph launch, args in file order, and
// nothing for an event that is not there.

#include "testdata.h"
#include "testruns.h"

#include "model/tables/durationformat.h"
#include "model/timeline/eventdetails.h"
#include "model/loading/loadedrun.h"
#include "model/timeline/timelinelayout.h"
#include "model/loading/tracefolder.h"

#include <QtTest>

#include <limits>

using namespace scopeline;
using testruns::kGraphTrace;
using testruns::kJaxRun;
using testruns::loadFirst;

namespace {

QStringList keys(const std::vector<EventField> &fields)
{
    QStringList out;
    for (const EventField &f : fields)
        out << f.key;
    return out;
}

} // namespace

class TstEventDetails : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { REQUIRE_TEST_DATA(kJaxRun, kGraphTrace); }

    void kernelAndLaunch_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("JAX") << kJaxRun;
        QTest::newRow("vLLM graphs") << kGraphTrace;
    }

    void kernelAndLaunch()
    {
        QFETCH(QString, path);
        const LoadedRun run = loadFirst(path);
        QVERIFY2(run.ok(), qPrintable(run.error));
        const TraceData &t = *run.trace;
        const auto &kernels = run.analysis->kernels();
        const uint32_t kernel = kernels[kernels.size() / 2];
        const EventDetails d = eventDetails(run, kernel);
        QCOMPARE(d.title, t.qname(kernel));
        const QStringList k = keys(d.fields);
        QCOMPARE(k.mid(0, 5),
                 (QStringList{QStringLiteral("Kind"), QStringLiteral("Track"), QStringLiteral("Start"),
                              QStringLiteral("Duration"), QStringLiteral("End")}));
        QCOMPARE(d.value(QStringLiteral("Kind")), eventKindName(EventKind::Kernel));
        QCOMPARE(d.value(QStringLiteral("Track")), t.tracks[t.track[kernel]].displayName());
        QCOMPARE(d.value(QStringLiteral("Duration")), formatDuration(double(t.duration[kernel])));
        // times one way: from the timeline's origin, the note exact in ns, never the absolute clock
        const int64_t origin = timelineOrigin(t);
        QCOMPARE(d.fields[2].note, QStringLiteral("(%1 ns)").arg(t.start[kernel] - origin));
        QCOMPARE(d.fields[4].note, QStringLiteral("(%1 ns)").arg(t.end(kernel) - origin));
        QVERIFY(d.fields[2].value.startsWith(QLatin1Char('+')));
        if (origin > 0)
            QVERIFY(!d.fields[2].note.contains(QString::number(t.start[kernel])));
        // args in file order
        QCOMPARE(qsizetype(d.args.size()), qsizetype(t.argRange(kernel).second - t.argRange(kernel).first));
        for (std::size_t i = 0; i < d.args.size(); ++i)
            QCOMPARE(d.args[i].key, t.strings.qstring(t.args[t.argRange(kernel).first + i].key));

        // its launch: named in the kernel's details, and its own details count its kernels
        const int64_t launch = run.analysis->launchOf(kernel);
        QVERIFY(launch >= 0);
        QVERIFY(d.value(QStringLiteral("Launch")).startsWith(t.qname(uint32_t(launch))));
        int64_t byCorrelation = 0, firstStart = std::numeric_limits<int64_t>::max();
        for (uint32_t e = 0; e < t.eventCount(); ++e)
            if (t.onGpu(e) && t.kind[e] == EventKind::Kernel &&
                t.correlation[e] == t.correlation[std::size_t(launch)]) {
                ++byCorrelation;
                firstStart = std::min(firstStart, t.start[e]);
            }
        const int64_t launchStart = t.start[std::size_t(launch)];
        if (t.kind[std::size_t(launch)] == EventKind::GraphLaunch) {
            // a graph's launch delay is its first kernel's (DESIGN); a later kernel says its own offset apart
            QVERIFY(t.start[kernel] > firstStart);
            QCOMPARE(d.value(QStringLiteral("Graph launch delay")),
                     formatDuration(double(firstStart - launchStart)));
            QCOMPARE(d.value(QStringLiteral("Since graph launch")),
                     formatDuration(double(t.start[kernel] - launchStart)));
        } else {
            QCOMPARE(d.value(QStringLiteral("Launch delay")),
                     formatDuration(double(t.start[kernel] - launchStart)));
        }
        const EventDetails l = eventDetails(run, uint32_t(launch));
        QCOMPARE(l.value(QStringLiteral("Kernels")), QString::number(byCorrelation));
        QVERIFY(l.value(QStringLiteral("First kernel"))
                    .startsWith(t.qname(run.analysis->kernelsOf(uint32_t(launch)).front())));
        QCOMPARE(l.value(QStringLiteral("Kernels span")).isEmpty(), byCorrelation < 2);
    }

    void scopePath()
    {
        const LoadedRun run = loadFirst(kJaxRun);
        QVERIFY2(run.ok(), qPrintable(run.error));
        const TraceData &t = *run.trace;
        for (uint32_t k : run.analysis->kernels())
            if (t.opPathOf(k) != 0) {
                const EventDetails d = eventDetails(run, k);
                QCOMPARE(d.value(QStringLiteral("Scope path")), t.strings.qstring(t.opPathOf(k)));
                QCOMPARE(d.fields.back().key, QStringLiteral("Scope path"));
                QVERIFY(d.fields.back().wrap);
                return;
            }
        QFAIL("no JAX kernel with an op path");
    }

    // A rank's tracks are named as every other rank's ("python3 / stream 7"): its details say which rank.
    void rankOfARankFile()
    {
        REQUIRE_TEST_DATA(testdata::dlrmRun());
        const QList<LoadedRun> ranks = LoadedRun::loadAll(TraceFolder::scan(testdata::dlrmRun()));
        QCOMPARE(ranks.size(), 8);
        for (const LoadedRun &rank : ranks) {
            const uint32_t kernel = rank.analysis->kernels().front();
            QCOMPARE(eventDetails(rank, kernel).value(QStringLiteral("Rank")),
                     QStringLiteral("%1 of 8 (dlrm_kineto)").arg(rank.run.rank));
        }
        QVERIFY(eventDetails(loadFirst(kJaxRun), 0).value(QStringLiteral("Rank")).isEmpty()); // no rank file
    }

    void nothingForAMissingEvent()
    {
        const LoadedRun run = loadFirst(kJaxRun);
        QVERIFY(eventDetails(run, uint32_t(run.trace->eventCount())).isEmpty());
        QVERIFY(eventDetails(LoadedRun(), 0).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstEventDetails)
#include "tst_eventdetails.moc"
