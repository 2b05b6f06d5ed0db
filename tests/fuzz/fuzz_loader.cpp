// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target for the trace loader: the input bytes are one trace file (gzip or plain, Chrome
// trace JSON or rocprofv3 JSON). They go through what the GUI runs on every file it opens:
// TraceLoader::load, then TraceAnalysis and ScopeIndex with its samples. Build and run it with
// `packaging/setup.sh fuzz [SECONDS]` (clang, -DSCOPELINE_FUZZ=ON; see tests/fuzz/CMakeLists.txt).
//
// TraceLoader reads files only (InflatingStreamBuf opens a QFile), so each input is written to a
// per-process temporary file first. JSON is loaded twice, through the cut into chunks and parsed
// straight from the text (as a load beside others is): both must fail with the same message, or give
// the same events and skips. (SQLite inputs are loaded once: the cut is JSON's, and SQLite can name
// another table when one process opens the same damaged database a second time.)

#include "model/analysis/scopeindex.h"
#include "model/analysis/scopematcher.h"
#include "model/analysis/traceanalysis.h"
#include "model/formats/eventarrayreader.h"
#include "model/loading/traceloader.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace {

QString tempTracePath()
{
    // /dev/shm keeps the per-input write off the disk where it exists.
    const QString dir =
        QDir(QStringLiteral("/dev/shm")).exists() ? QStringLiteral("/dev/shm") : QDir::tempPath();
    return QStringLiteral("%1/scopeline_fuzz_%2.trace").arg(dir).arg(::getpid());
}

const QString &tracePath()
{
    static const QString path = [] {
        const QString p = tempTracePath();
        std::atexit([] { QFile::remove(tempTracePath()); });
        return p;
    }();
    return path;
}

bool writeInput(const uint8_t *data, size_t size)
{
    std::FILE *file = std::fopen(QFile::encodeName(tracePath()).constData(), "wb");
    if (!file)
        return false;
    const bool ok = std::fwrite(data, 1, size, file) == size;
    return std::fclose(file) == 0 && ok;
}

volatile double g_sink = 0; // keeps the results alive so nothing is optimised away

void exercise(const scopeline::TraceData &trace)
{
    using namespace scopeline;
    const TraceAnalysis analysis(trace);
    const LaunchSummary &total = analysis.total();
    g_sink = g_sink + double(total.idleNs()) + total.medianLaunchDelay() + total.medianGraphLaunchDelay();
    for (const StreamSummary &stream : analysis.streams())
        g_sink = g_sink + double(stream.idleNs());
    const std::size_t kernels = std::min<std::size_t>(analysis.kernels().size(), 64);
    for (std::size_t i = 0; i < kernels; ++i) {
        const int64_t launch = analysis.launchOf(analysis.kernels()[i]);
        if (launch >= 0)
            g_sink = g_sink + double(analysis.kernelsOf(uint32_t(launch)).size());
    }

    const ScopeIndex index(analysis);
    const std::vector<ScopeIndex::Scope> scopes = index.scopes();
    // The scope picker lists every scope; the comparison takes samples of the selected ones.
    const std::size_t picked = std::min<std::size_t>(scopes.size(), 8);
    for (std::size_t i = 0; i < picked; ++i) {
        for (MatchMode match : {MatchMode::Component, MatchMode::Substring}) {
            const ScopeMatcher matcher(scopes[i].name, match);
            for (SampleMode mode : {SampleMode::Kernel, SampleMode::Instance, SampleMode::Span})
                g_sink = g_sink + double(index.samples(matcher, mode).size());
        }
    }
    if (!scopes.empty()) {
        const ScopeMatcher regex(QStringLiteral("^%1").arg(QRegularExpression::escape(scopes.front().name)),
                                 MatchMode::Regex);
        g_sink = g_sink + double(index.samples(regex, SampleMode::Instance).size());
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!writeInput(data, size)) {
        std::perror("fuzz_loader: cannot write the temporary trace file");
        std::abort();
    }
    using scopeline::EventArrayReader;
    EventArrayReader::setParsesOwnChunks(0);
    const scopeline::LoadResult result = scopeline::TraceLoader::load(tracePath());
    if (size >= 16 && std::memcmp(data, "SQLite format 3", 16) == 0) {
        if (result.ok())
            exercise(*result.trace);
        return 0;
    }
    EventArrayReader::setParsesOwnChunks(1);
    const scopeline::LoadResult own = scopeline::TraceLoader::load(tracePath());
    if (result.error != own.error || result.ok() != own.ok() ||
        (result.ok() && (result.trace->eventCount() != own.trace->eventCount() ||
                         result.trace->skipped != own.trace->skipped ||
                         result.trace->start != own.trace->start))) {
        std::fprintf(stderr, "fuzz_loader: the cut and the reading thread's own parse differ: \"%s\" / "
                     "\"%s\"\n", qPrintable(result.error), qPrintable(own.error));
        std::abort();
    }
    if (result.ok())
        exercise(*result.trace);
    else if (result.error.isEmpty())
        std::abort(); // a failed load must say why
    return 0;
}
