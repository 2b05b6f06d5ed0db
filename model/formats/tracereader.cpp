// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/tracereader.h"

#include "model/formats/chromejsonreader.h"
#include "model/formats/nsyssqlitereader.h"
#include "model/formats/rocpdreader.h"
#include "model/formats/rocprofv3jsonreader.h"

namespace scopeline {

// The formats Scopeline reads. Order matters where two readers match alike (the first Fallback is
// taken: Chrome JSON before other text, rocpd before nsys for a SQLite file of neither kind), and
// it is the order the open dialog and the folder scan's messages list them in.
const std::vector<const TraceReader *> &TraceReader::all()
{
    static const ChromeJsonReader chrome;
    static const RocprofV3JsonReader rocprofV3;
    static const RocpdReader rocpd;
    static const NsysSqliteReader nsys;
    static const std::vector<const TraceReader *> readers = {&chrome, &rocprofV3, &rocpd, &nsys};
    return readers;
}

} // namespace scopeline
