// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/tracedata/tracedata.h"

#include <QCoreApplication>

namespace scopeline {

QString formatName(TraceFormat format)
{
    switch (format) {
    case TraceFormat::ChromeTrace:
        return QStringLiteral("chrome");
    case TraceFormat::Kineto:
        return QStringLiteral("kineto");
    case TraceFormat::Jax:
        return QStringLiteral("jax");
    case TraceFormat::RocprofV3:
        return QStringLiteral("rocprofv3");
    case TraceFormat::Rocpd:
        return QStringLiteral("rocpd");
    case TraceFormat::NsysSqlite:
        return QStringLiteral("nsys");
    case TraceFormat::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString Track::displayName() const
{
    const QString process = processName.isEmpty() ? pid : processName;
    const QString thread = threadName.isEmpty() ? tid : threadName;
    return process + QStringLiteral(" / ") + thread;
}

int64_t TraceData::eventsRead() const
{
    int64_t read = int64_t(eventCount());
    for (const int64_t n : instantsLeftOut)
        read += n;
    return read;
}

std::string_view TraceData::arg(uint32_t e, std::string_view key) const
{
    const auto [first, last] = argRange(e);
    for (uint32_t i = first; i < last; ++i) {
        if (strings.view(args[i].key) == key)
            return std::string_view(argText).substr(args[i].offset, args[i].length);
    }
    return {};
}

bool TraceData::isBenignSkip(const QString &reason)
{
    return reason == QCoreApplication::translate("TraceBuilder", "counter (ph C)") ||
           reason.startsWith(QCoreApplication::translate("TraceBuilder", "unsupported ph"));
}

} // namespace scopeline
