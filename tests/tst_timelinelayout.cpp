// SPDX-License-Identifier: GPL-3.0-or-later
// TimelineLayout on real traces, without a widget: groups and track rows, the nesting lane of every
// event, the lane index (windows, the segment tree of flattened lanes) and idle-gap lanes, checked
// against tests/oracle/timeline_oracle.py reading the raw JSON.

#include "testdata.h"
#include "testruns.h"
#include "testprocess.h"

#include "model/loading/loadedrun.h"
#include "model/timeline/timelinelayout.h"
#include "model/loading/tracefolder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <map>

using namespace scopeline;
using testruns::kGraphTrace;
using testruns::kJaxRun;
using testruns::loadFirst;

namespace {


QJsonObject oracle(const QStringList &arguments)
{
    const ProcessResult r = runProcess(QStringLiteral(SCOPELINE_PYTHON),
                                       QStringList{QStringLiteral(SCOPELINE_ORACLE_DIR "/timeline_oracle.py")} + arguments);
    if (r.exitCode != 0)
        qWarning("timeline_oracle.py: %s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

} // namespace

class TstTimelineLayout : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { REQUIRE_TEST_DATA(kJaxRun, kGraphTrace); }

    void rowsAndLanesMatchTheOracle_data()
    {
        QTest::addColumn<QString>("path");
        QTest::newRow("JAX einsum") << kJaxRun;
        QTest::newRow("vLLM CUDA graphs") << kGraphTrace;
    }

    void rowsAndLanesMatchTheOracle()
    {
        QFETCH(QString, path);
        const LoadedRun run = loadFirst(path);
        QVERIFY2(run.ok(), qPrintable(run.error));
        const TimelineLayout layout(run);
        const TraceData &t = *run.trace;
        const QJsonObject expected = oracle({QStringLiteral("layout"), run.run.file});
        const QJsonArray tracks = expected[QStringLiteral("tracks")].toArray();
        QVERIFY(!tracks.isEmpty());

        // one track row per track with events, CPU processes first, one group per process
        QCOMPARE(layout.rows().size(), std::size_t(tracks.size()));
        int cpuGroups = 0, gpuGroups = 0;
        bool seenGpu = false;
        for (const TimelineGroup &group : layout.groups()) {
            QVERIFY2(!(seenGpu && !group.gpu), "a CPU process after a GPU device");
            seenGpu = seenGpu || group.gpu;
            (group.gpu ? gpuGroups : cpuGroups) += 1;
            QVERIFY(!group.rows.empty());
            for (int row : group.rows)
                QCOMPARE(layout.rows()[std::size_t(row)].gpu, group.gpu);
        }
        QCOMPARE(cpuGroups, expected[QStringLiteral("cpu_processes")].toInt());
        QCOMPARE(gpuGroups, expected[QStringLiteral("gpu_processes")].toInt());

        std::map<std::pair<QString, QString>, QJsonObject> byTrack;
        for (const QJsonValue &v : tracks)
            byTrack[{v[QStringLiteral("pid")].toString(), v[QStringLiteral("tid")].toString()}] = v.toObject();
        for (std::size_t r = 0; r < layout.rows().size(); ++r) {
            const TimelineTrackRow &row = layout.rows()[r];
            const Track &track = t.tracks[row.track];
            const auto it = byTrack.find({track.pid, track.tid});
            QVERIFY2(it != byTrack.end(), qPrintable(track.displayName()));
            const QJsonObject &want = it->second;
            QCOMPARE(layout.rowOfTrack(row.track), int(r));
            QCOMPARE(row.gpu, want[QStringLiteral("gpu")].toBool());
            QCOMPARE(qsizetype(t.trackEvents[row.track].size()), qsizetype(want[QStringLiteral("events")].toInt()));
            // the lanes: one per nesting depth, the deepest ones sharing the last lane
            const QJsonArray depths = want[QStringLiteral("depths")].toArray();
            QCOMPARE(qsizetype(row.lanes.size()), depths.size());
            std::vector<int> perLane(row.lanes.size(), 0);
            for (uint32_t e : t.trackEvents[row.track])
                ++perLane[std::size_t(layout.laneOf(e))];
            for (qsizetype d = 0; d < depths.size(); ++d)
                QCOMPARE(perLane[std::size_t(d)], depths[d].toInt());
            // every lane but the flattened deepest holds its events as they are
            for (std::size_t l = 0; l < row.lanes.size() && l < std::size_t(TimelineLayout::kMaxLanes - 1); ++l)
                QCOMPARE(int(row.lanes[l].size()), perLane[l]);
            // idle gaps of a stream are its gap lane
            if (row.stream)
                QCOMPARE(row.gaps.size(), row.stream->gaps.size());
            QVERIFY(!row.label.isEmpty());
        }
    }

    // Every entry of a lane that intersects a window is inside window(), and the flattened last lane's
    // pieces are disjoint, each showing the innermost slice there.
    void laneWindowsAndFlattening()
    {
        const LoadedRun run = loadFirst(kGraphTrace);
        QVERIFY2(run.ok(), qPrintable(run.error));
        const TimelineLayout layout(run);
        const TraceData &t = *run.trace;
        int flattened = 0;
        for (const TimelineTrackRow &row : layout.rows())
            for (const TimelineLane &lane : row.lanes) {
                if (lane.empty())
                    continue;
                const int64_t lo = lane.start(0), hi = lane.reach(lane.size() - 1);
                for (int k = 0; k < 7; ++k) {
                    const int64_t from = lo + (hi - lo) * k / 7, to = from + (hi - lo) / 13;
                    const auto [first, last] = lane.window(from, to);
                    for (std::size_t i = 0; i < lane.size(); ++i) {
                        const bool intersects = lane.end(i) >= from && lane.start(i) <= to;
                        if (intersects)
                            QVERIFY2(i >= first && i < last, qPrintable(QStringLiteral("entry %1").arg(i)));
                    }
                    // the first entry ending after x at or beyond first, by the index and by a scan
                    if (lane.overlapping()) {
                        std::size_t scan = last;
                        for (std::size_t i = first; i < last; ++i)
                            if (lane.end(i) > from) {
                                scan = i;
                                break;
                            }
                        QCOMPARE(lane.firstEndingAfter(first, last, from), scan);
                    }
                }
                if (&lane == &row.lanes.back() && row.lanes.size() == std::size_t(TimelineLayout::kMaxLanes)) {
                    ++flattened;
                    for (std::size_t i = 1; i < lane.size(); ++i)
                        QVERIFY(lane.start(i) >= lane.end(i - 1)); // disjoint pieces
                    for (std::size_t i = 0; i < lane.size(); ++i) {
                        const uint32_t e = lane.item(i);
                        QVERIFY(lane.start(i) >= t.start[e] && lane.end(i) <= t.end(e));
                    }
                }
            }
        QVERIFY2(flattened > 0, "the vLLM trace nests deeper than the lanes");
    }

    // A lane of events reads its entries' times from the trace: whatever was added comes back, the
    // flattened lane's real pieces and the same pieces nudged off their events' times (as a child
    // outliving its parent is), compared with a lane keeping its own copy of the times.
    void eventLanesGiveBackWhatWasAdded()
    {
        const LoadedRun run = loadFirst(kGraphTrace);
        QVERIFY2(run.ok(), qPrintable(run.error));
        const TimelineLayout layout(run);
        const TraceData &t = *run.trace;
        int pieces = 0;
        for (const TimelineTrackRow &row : layout.rows()) {
            const TimelineLane &deepest = row.lanes.back();
            for (const int nudge : {0, 1}) {
                TimelineLane events(&t), copy;
                for (std::size_t i = 0; i < deepest.size(); ++i) {
                    int64_t start = deepest.start(i), end = deepest.end(i);
                    if (nudge && i % 7 == 3 && end > start + 1)
                        --end;
                    if (nudge && i % 11 == 5 && end > start + 1)
                        ++start;
                    events.add(start, end, deepest.item(i), deepest.style(i));
                    copy.add(start, end, deepest.item(i), deepest.style(i));
                }
                events.finish();
                copy.finish();
                QCOMPARE(events.size(), copy.size());
                QCOMPARE(events.overlapping(), copy.overlapping());
                for (std::size_t i = 0; i < events.size(); ++i) {
                    QCOMPARE(events.start(i), copy.start(i));
                    QCOMPARE(events.end(i), copy.end(i));
                    QCOMPARE(events.reach(i), copy.reach(i));
                    QCOMPARE(events.item(i), copy.item(i));
                    QCOMPARE(events.style(i), copy.style(i));
                }
                for (std::size_t i = 0; i + 1 < events.size(); i += 97) {
                    const int64_t from = events.start(i), to = events.end(i + 1) + 5;
                    QCOMPARE(events.window(from, to), copy.window(from, to));
                    QCOMPARE(events.covered(from, to), copy.covered(from, to));
                }
                pieces += int(events.size());
            }
        }
        QVERIFY2(pieces > 1000, qPrintable(QString::number(pieces)));
    }

    // Communication kernels get their own style, exactly the kernels a raw count calls NCCL; the
    // profiler's own span row is marked as such, and nothing else is.
    void communicationAndBookkeeping()
    {
        const QString rank = QDir(testdata::dlrmRun()).filePath(QStringLiteral("worker7_step_12.1694128201553.pt.trace.json.gz"));
        REQUIRE_TEST_DATA(rank);
        const LoadedRun run = loadFirst(rank);
        QVERIFY2(run.ok(), qPrintable(run.error));
        const TimelineLayout layout(run);
        const TraceData &t = *run.trace;
        int nccl = 0, styled = 0, bookkeeping = 0;
        for (const TimelineTrackRow &row : layout.rows()) {
            bookkeeping += row.bookkeeping;
            if (row.bookkeeping) // Kineto's own span (category "Trace") and marks
                for (uint32_t e : t.trackEvents[row.track])
                    QVERIFY2(t.strings.view(t.category[e]) == "Trace" || t.nameOf(e) == "Record Window End" ||
                                 t.nameOf(e).substr(0, 17) == "Iteration Start: ",
                             qPrintable(t.qname(e)));
            for (const TimelineLane &lane : row.lanes)
                for (std::size_t i = 0; i < lane.size(); ++i)
                    styled += lane.style(i) == StyleCommunication;
        }
        for (uint32_t e = 0; e < t.eventCount(); ++e)
            nccl += t.kind[e] == EventKind::Kernel && t.nameOf(e).substr(0, 11) == "ncclKernel_";
        QCOMPARE(nccl, 8);
        QCOMPARE(styled, nccl);
        QCOMPARE(bookkeeping, 3); // "Spans", "Traces" and the process without a name, one event each
        const TimelineLayout jax(loadFirst(kJaxRun)); // no communication, no profiler span
        for (const TimelineTrackRow &row : jax.rows()) {
            QVERIFY(!row.bookkeeping);
            for (const TimelineLane &lane : row.lanes)
                for (std::size_t i = 0; i < lane.size(); ++i)
                    QVERIFY(lane.style(i) != StyleCommunication);
        }
    }

    // A GPU row is named once by its stream: Nsight's tid "stream 7" is not prefixed "Stream " again,
    // a bare tid is.
    void streamRowsAreNamedOnce()
    {
        const QString nsys = testdata::path("converted/nsys_bert_h100.sqlite");
        REQUIRE_TEST_DATA(nsys);
        const LoadedRun run = loadFirst(nsys);
        const TimelineLayout layout(run);
        int gpuRows = 0;
        for (const TimelineTrackRow &row : layout.rows())
            if (row.gpu) {
                ++gpuRows;
                QVERIFY2(!row.label.contains(QLatin1String("Stream stream"), Qt::CaseInsensitive),
                         qPrintable(row.label));
                QVERIFY2(row.label.startsWith(QLatin1String("stream"), Qt::CaseInsensitive),
                         qPrintable(row.label));
            }
        QVERIFY(gpuRows > 0);
        // nor rocprofv3's queues of a process ("queue 16 (pid 908)"): named by their tid, told apart
        QStringList queues;
        for (const LoadedRun &rank :
             LoadedRun::loadAll(TraceFolder::scan(testdata::path("converted/rocpd")))) {
            const TimelineLayout ranked(rank);
            for (const TimelineTrackRow &row : ranked.rows())
                if (row.gpu && !queues.contains(row.label))
                    queues << row.label;
        }
        QVERIFY2(queues.size() >= 3, qPrintable(queues.join(QLatin1String(", "))));
        for (const QString &label : queues)
            QVERIFY2(label.startsWith(QLatin1String("queue ")) || label.startsWith(QLatin1String("copies")),
                     qPrintable(label));
        // its GPU's process is named once, in the title: not "pid GPU 0" beside "GPU 0"
        const TimelineLayout fuser(loadFirst(testdata::path("public/Fuser/h100/df8f397_report1.sqlite")));
        QVERIFY(!fuser.groups().empty());
        for (const auto &group : fuser.groups())
            QVERIFY2(!group.detail.contains(QLatin1String("pid GPU")), qPrintable(group.detail));
    }

    void emptyRun()
    {
        const TimelineLayout layout{LoadedRun()};
        QVERIFY(layout.isEmpty());
        QVERIFY(layout.rows().empty());
        QCOMPARE(layout.bounds(), std::make_pair(int64_t(0), int64_t(0)));
    }
};

QTEST_GUILESS_MAIN(TstTimelineLayout)
#include "tst_timelinelayout.moc"
