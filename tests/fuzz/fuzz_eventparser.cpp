// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target for the event parse: the input bytes are one chunk of an event array, parsed by
// the fast path (parseEventsFast) and by nlohmann. The fast path must refuse the text or give exactly
// what nlohmann gives; a difference aborts with both readings. Seeds: the loader's corpus
// (make_corpus.py).

#include "../eventparsecheck.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, std::size_t size)
{
    const QString difference =
        eventparsecheck::compareParses(std::string(reinterpret_cast<const char *>(data), size));
    if (!difference.isEmpty()) {
        std::fprintf(stderr, "the fast path and nlohmann differ: %s\n", qPrintable(difference));
        std::abort();
    }
    return 0;
}
