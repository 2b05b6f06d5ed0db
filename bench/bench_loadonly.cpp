// SPDX-License-Identifier: GPL-3.0-or-later
// Loads trace files with TraceLoader and nothing else (no analysis, no scope index), for
// bench/bench_load.sh's "load alone" figure next to `scopeline-cli info --json` (load + analysis).
// usage: bench_loadonly FILE...   prints events and bytes read per file; exit 1 on a failed load.

#include "model/traceloader.h"

#include <cstdio>

int main(int argc, char **argv)
{
    int status = 0;
    for (int i = 1; i < argc; ++i) {
        const scopeline::LoadResult r = scopeline::TraceLoader::load(QString::fromLocal8Bit(argv[i]));
        if (!r.ok()) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error));
            status = 1;
            continue;
        }
        std::printf("%s: %zu events, %lld bytes\n", argv[i], r.trace->eventCount(),
                    static_cast<long long>(r.trace->bytesRead));
    }
    return status;
}
