// SPDX-License-Identifier: GPL-3.0-or-later
// Timeline paint benchmark: the time to paint one frame of a 1600x900 TimelineView (rendered into a
// QImage, offscreen) on
//   (i)  the TraceLens xdit_flux.1 trace (AMD MI300X, 229k events), and
//   (ii) a >= 2M-event trace made from it by bench/make_large_trace.py (cached in the temp folder),
// zoomed out (fit) and zoomed in (a 1 ms window in the middle). Each frame moves the window by a few
// ns so that the geometry cache never answers: every frame searches, merges and batches anew.
// Prints median and max ms over the frames. Target: <= 16 ms per frame.
//
// usage: bench_timeline [LARGE_TRACE.json.gz]
//   env: BENCH_FRAMES (default 30)
// The xdit trace is the repository's copy in tests/data/public/TraceLens/ (see tests/data/README.md).
// Exit status: 0 when run (whether or not the target is met), 1 when a trace cannot be loaded.

#include "model/loading/loadedrun.h"
#include "model/loading/tracefolder.h"
#include "widgets/timeline/timelineview.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QProcess>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace scopeline;

namespace {

constexpr int kWidth = 1600, kHeight = 900;

struct Figures
{
    double median = 0, max = 0;
};

Figures summarise(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    return {n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2, ms.back()};
}

// Paints `frames` frames; window(i) gives frame i's visible range.
template <typename Window> Figures paintFrames(TimelineView &view, QImage &image, int frames, Window window)
{
    std::vector<double> ms;
    // one untimed frame first (fonts, glyph caches)
    {
        const auto [s, e] = window(-1);
        view.setVisibleRange(s, e);
        QPainter painter(&image);
        view.render(&painter);
    }
    for (int i = 0; i < frames; ++i) {
        const auto [s, e] = window(i);
        view.setVisibleRange(s, e); // a new range: the cached geometry no longer applies
        QElapsedTimer timer;
        timer.start();
        {
            QPainter painter(&image);
            view.render(&painter);
        }
        ms.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    return summarise(ms);
}

bool benchTrace(const QString &label, const QString &file, int frames)
{
    QElapsedTimer timer;
    timer.start();
    const QList<LoadedRun> runs = LoadedRun::loadAll(TraceFolder::scan(file));
    if (runs.isEmpty() || !runs.front().ok()) {
        std::fprintf(stderr, "bench_timeline: cannot load %s: %s\n", qPrintable(file),
                     runs.isEmpty() ? "no trace found" : qPrintable(runs.front().error));
        return false;
    }
    const LoadedRun &run = runs.front();
    const double loadS = double(timer.nsecsElapsed()) / 1e9;

    TimelineView view;
    view.resize(kWidth, kHeight);
    view.show();
    QCoreApplication::processEvents();
    timer.restart();
    view.setRun(run);
    const double setRunMs = double(timer.nsecsElapsed()) / 1e6;
    const int64_t lo = view.visibleStart(), hi = view.visibleEnd();
    QImage image(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);

    std::printf("%s: %zu events, %zu tracks, %zu kernels; load %.2f s, setRun %.1f ms\n", qPrintable(label),
                run.trace->eventCount(), run.trace->tracks.size(), run.analysis->kernels().size(), loadS,
                setRunMs);

    // zoomed out: the whole trace, narrowed by a few ns per frame
    const Figures out = paintFrames(view, image, frames, [&](int i) {
        return std::pair<int64_t, int64_t>(lo + 2 * (i + 1), hi - 2 * (i + 1));
    });
    std::printf("  fit (%s):        median %6.2f ms, max %6.2f ms per frame over %d frames\n",
                qPrintable(QStringLiteral("%1 ms").arg(double(hi - lo) / 1e6, 0, 'f', 1)), out.median,
                out.max, frames);
    QImage outImage = image.copy();

    // zoomed in: 1 ms in the middle, panned by 1 µs per frame
    const int64_t mid = lo + (hi - lo) / 2;
    const Figures in = paintFrames(view, image, frames, [&](int i) {
        const int64_t shift = int64_t(i + 1) * 1000;
        return std::pair<int64_t, int64_t>(mid - 500000 + shift, mid + 500000 + shift);
    });
    std::printf("  1 ms window:           median %6.2f ms, max %6.2f ms per frame over %d frames\n",
                in.median, in.max, frames);

    // an unchanged window: the cached geometry is reused (hover, selection repaints)
    const Figures cached = paintFrames(
        view, image, frames, [&](int) { return std::pair<int64_t, int64_t>(mid - 500000, mid + 500000); });
    std::printf("  1 ms window, cached:   median %6.2f ms, max %6.2f ms per frame\n", cached.median,
                cached.max);
    const bool met = out.max <= 16 && in.max <= 16;
    std::printf("  target <= 16 ms per frame: %s\n", met ? "met" : "NOT met");

    const QString shots =
        QDir::temp().filePath(QStringLiteral("bench_timeline_%1").arg(label.section(QLatin1Char(' '), 0, 0)));
    if (!outImage.save(shots + QStringLiteral("_fit.png")) || !image.save(shots + QStringLiteral("_1ms.png")))
        std::fprintf(stderr, "bench_timeline: could not save the frames under %s\n",
                     qPrintable(QDir::tempPath()));
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int frames = std::max(
        1, qEnvironmentVariableIntValue("BENCH_FRAMES") ? qEnvironmentVariableIntValue("BENCH_FRAMES") : 30);
    const QString xdit = QStringLiteral(
        SCOPELINE_TEST_DATA
        "/public/TraceLens/tests__traces__inference__xdit_flux.1_aiter_sage__profile_trace_rank_0.json.gz");
    if (!QFileInfo::exists(xdit)) {
        std::fprintf(stderr, "bench_timeline: missing %s (see tests/data/README.md)\n", qPrintable(xdit));
        return 1;
    }

    QString large = argc > 1 ? QString::fromLocal8Bit(argv[1])
                             : QDir::temp().filePath(QStringLiteral("scopeline-bench-xdit-x10.json.gz"));
    if (!QFileInfo::exists(large)) {
        std::printf("making %s from xdit (make_large_trace.py, about ten copies)...\n", qPrintable(large));
        std::fflush(stdout);
        QProcess make;
        make.setProcessChannelMode(QProcess::ForwardedChannels);
        make.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral(SCOPELINE_MAKE_LARGE), xdit, large,
                                                        QStringLiteral("--min-mb"), QStringLiteral("630")});
        if (!make.waitForFinished(-1) || make.exitStatus() != QProcess::NormalExit || make.exitCode() != 0) {
            std::fprintf(stderr, "bench_timeline: make_large_trace.py failed\n");
            QFile::remove(large);
            return 1;
        }
    }

    std::printf("Timeline paint, %dx%d offscreen, %d frames each, geometry recomputed every frame\n", kWidth,
                kHeight, frames);
    if (!benchTrace(QStringLiteral("xdit (229k events)"), xdit, frames))
        return 1;
    if (!benchTrace(argc > 1 ? QFileInfo(large).fileName() : QStringLiteral("xdit-x10 (replicated)"), large, frames))
        return 1;
    return 0;
}
