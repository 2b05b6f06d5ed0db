// SPDX-License-Identifier: GPL-3.0-or-later
// Loads trace files with TraceLoader and nothing else (no analysis, no scope index), for
// bench/bench_load.sh's "load alone" figure next to `scopeline-cli info --json` (load + analysis).
// usage: bench_loadonly [--stats] [--figures] FILE...   prints events and bytes read per file; exit 1
// on a failed load. --figures keeps only the args the figures read (TraceDetail::Figures, as
// `info` and the summary-only load do). --stats also prints what the loaded trace holds (columns, args,
// strings: bytes in use) and the process's peak RSS (VmHWM) before, after the load and after the launch
// analysis.
// usage: bench_loadonly --summaries N FILE   loads FILE N times as the statistics do (summarised and
// let go, LoadedRun::Events::Drop) and keeps the summaries: what one holds (kernels, ranges, its scope
// index) and what the process's resident memory grew by per run.
// usage: bench_loadonly --layout FILE   loads FILE as the window does and lays its timeline out: the
// resident memory before and after the layout.
// usage: bench_loadonly --parse FILE   the event parse alone on one thread, FILE plain JSON: its event
// array cut into chunks as the reader cuts them, each copied into a buffer (in cache, as the reader's
// chunk is) and parsed at TraceDetail::Figures; prints the best of 5 passes' parse time in seconds and
// the events. What a load costs beyond it is the inflate, the copy, the columns and the analysis.

#include "model/analysis/traceanalysis.h"
#include "model/formats/eventbatch.h"
#include "model/formats/simdeventparser.h"
#include "model/loading/loadedrun.h"
#include "model/loading/traceloader.h"
#include "model/timeline/timelinelayout.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

namespace {

// A line of /proc/self/status in MB: VmHWM (peak resident) or VmRSS (resident now).
double statusMb(const char *key)
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind(key, 0) == 0)
            return std::stod(line.substr(std::strlen(key))) / 1024.0;
    return 0;
}

double peakMb()
{
    return statusMb("VmHWM:");
}

int summaries(int count, const char *file)
{
    scopeline::TraceRun run;
    run.file = QString::fromLocal8Bit(file);
    std::vector<scopeline::LoadedRun> kept;
    double firstMb = 0;
    for (int i = 0; i < count; ++i) {
        kept.push_back(scopeline::LoadedRun::load(run, {}, nullptr, scopeline::LoadedRun::Scopes::Index,
                                                  scopeline::LoadedRun::Events::Drop));
        if (!kept.back().ok()) {
            std::fprintf(stderr, "%s\n", qPrintable(kept.back().error));
            return 1;
        }
        if (i == 0)
            firstMb = statusMb("VmRSS:");
    }
    const scopeline::RunSummary &s = *kept.front().summary;
    const double summaryMb = double(s.heldBytes()) / 1e6, indexMb = double(s.scopes()->heldBytes()) / 1e6;
    std::printf("%s: %zu kernels, %zu ranges; a summary holds %.2f MB, its scope index %.2f MB "
                "(%.0f bytes a kernel in all)\n",
                file, s.kernels().size(), s.ranges().size(), summaryMb, indexMb,
                (summaryMb + indexMb) * 1e6 / double(std::max<std::size_t>(1, s.kernels().size())));
    std::printf("  %d runs: resident %.1f MB after the first, %.1f MB after the last (%.2f MB a run), peak %.1f MB\n",
                count, firstMb, statusMb("VmRSS:"),
                count > 1 ? (statusMb("VmRSS:") - firstMb) / (count - 1) : 0.0, peakMb());
    return 0;
}

int layout(const char *file)
{
    scopeline::TraceRun run;
    run.file = QString::fromLocal8Bit(file);
    const scopeline::LoadedRun loaded = scopeline::LoadedRun::load(run);
    if (!loaded.ok()) {
        std::fprintf(stderr, "%s\n", qPrintable(loaded.error));
        return 1;
    }
    const double loadedMb = statusMb("VmRSS:");
    std::printf("%s: %zu events; resident %.1f MB once loaded, analysed and summarised (peak %.1f MB)\n", file,
                loaded.trace->eventCount(), loadedMb, peakMb());
    const scopeline::TimelineLayout timeline(loaded);
    std::size_t entries = 0;
    for (const auto &row : timeline.rows())
        for (const auto &lanes : {std::cref(row.lanes), std::cref(row.launches)})
            for (const auto &lane : lanes.get())
                entries += lane.size();
    const double grewMb = statusMb("VmRSS:") - loadedMb;
    std::printf("  timeline layout: %zu lane entries, resident grew %.1f MB (%.1f bytes an event), peak %.1f MB\n",
                entries, grewMb, grewMb * 1e6 / double(std::max<std::size_t>(1, loaded.trace->eventCount())),
                peakMb());
    return 0;
}

template <typename V>
double mb(const V &v)
{
    return double(v.size() * sizeof(typename V::value_type)) / 1e6;
}

void printStats(const scopeline::TraceData &d)
{
    std::size_t trackRefs = 0, stringBytes = 0;
    for (const auto &t : d.trackEvents)
        trackRefs += t.size();
    for (uint32_t s = 0; s < d.strings.size(); ++s)
        stringBytes += d.strings.view(s).size();
    std::printf("  columns %zu events: start %.1f, duration %.1f, correlation %.1f, name %.1f, category %.1f, "
                "track %.1f, opPath %.1f, argsBegin %.1f, kind %.1f MB\n",
                d.eventCount(), mb(d.start), double(d.duration.size() * 4) / 1e6, double(d.correlation.size() * 4) / 1e6, mb(d.name), mb(d.category),
                mb(d.track), mb(d.opPath), mb(d.argsBegin), mb(d.kind));
    std::printf("  args %zu (%.1f MB), argText %.1f MB, flows %zu (%.1f MB), track refs %.1f MB (%zu tracks), "
                "strings %zu (%.1f MB of text)\n",
                d.args.size(), mb(d.args), double(d.argText.size()) / 1e6, d.flows.size(), mb(d.flows),
                double(trackRefs * 4) / 1e6, d.tracks.size(), d.strings.size(), double(stringBytes) / 1e6);
}

int parseAlone(const char *file)
{
    using namespace scopeline;
    constexpr std::size_t kChunkBytes = 256 << 10; // EventArrayReader's
    std::ifstream in(file, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t array = text.find('[', text.find("\"traceEvents\""));
    if (array == std::string::npos) {
        std::fprintf(stderr, "%s: no \"traceEvents\" array\n", file);
        return 1;
    }
    text.erase(0, array); // '[' + events + ...
    std::vector<std::string> chunks;
    EventBatch batch;
    batch.setDetail(TraceDetail::Figures);
    for (std::size_t from = 1;;) {
        batch.clear();
        const EventRun run = parseEventRun(text, from, from + kChunkBytes, batch, nullptr);
        if (run.stop != EventRun::Cut && run.stop != EventRun::End) {
            std::fprintf(stderr, "%s: an event the fast parse leaves to nlohmann\n", file);
            return 1;
        }
        chunks.push_back('[' + text.substr(from, run.next - from) + ']');
        if (run.stop == EventRun::End)
            break;
        from = run.next + 1;
    }
    std::string buffer;
    buffer.reserve(2 * kChunkBytes);
    double best = 0;
    std::size_t events = 0;
    for (int pass = 0; pass < 5; ++pass) {
        double seconds = 0;
        events = 0;
        for (const std::string &chunk : chunks) {
            buffer.assign(chunk);
            batch.clear();
            const auto start = std::chrono::steady_clock::now();
            parseEventRun(buffer, 1, buffer.size(), batch, nullptr);
            seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            events += batch.events().size();
        }
        best = pass == 0 ? seconds : std::min(best, seconds);
    }
    std::printf("%.4f %zu\n", best, events);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    int status = 0;
    bool stats = false;
    scopeline::TraceDetail detail = scopeline::TraceDetail::Full;
    if (argc == 4 && std::strcmp(argv[1], "--summaries") == 0)
        return summaries(std::atoi(argv[2]), argv[3]);
    if (argc == 3 && std::strcmp(argv[1], "--layout") == 0)
        return layout(argv[2]);
    if (argc == 3 && std::strcmp(argv[1], "--parse") == 0)
        return parseAlone(argv[2]);
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--figures") == 0) {
            detail = scopeline::TraceDetail::Figures;
            continue;
        }
        if (std::strcmp(argv[i], "--stats") == 0) {
            stats = true;
            std::printf("peak RSS at start %.1f MB\n", peakMb());
            continue;
        }
        const scopeline::LoadResult r = scopeline::TraceLoader::load(QString::fromLocal8Bit(argv[i]), {}, nullptr, {detail});
        if (!r.ok()) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error));
            status = 1;
            continue;
        }
        std::printf("%s: %zu events, %lld bytes\n", argv[i], r.trace->eventCount(),
                    static_cast<long long>(r.trace->bytesRead));
        if (stats) {
            std::printf("  peak RSS after the load %.1f MB\n", peakMb());
            printStats(*r.trace);
            const scopeline::TraceAnalysis analysis(*r.trace);
            std::printf("  peak RSS after the analysis %.1f MB\n", peakMb());
        }
    }
    return status;
}
