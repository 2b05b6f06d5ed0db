#pragma once
// Reads a Chrome trace JSON document with its event array cut into chunks at top-level commas; the
// chunks are parsed in parallel by nlohmann SAX handlers and handed to the builder in file order.
// Everything outside the event array (the "skeleton") is parsed too, so errors anywhere are found.

#include <QString>

#include <atomic>
#include <cstdint>

namespace scopeline {

class InflatingStreamBuf;
class TraceBuilder;

class EventArrayReader
{
public:
    EventArrayReader(InflatingStreamBuf &input, TraceBuilder &builder, const std::atomic<bool> *cancel);

    // Reads to the end; returns false with error() or cancelled() set on failure.
    bool read();
    QString error() const { return m_error; }
    bool cancelled() const { return m_cancelled; }

private:
    InflatingStreamBuf &m_input;
    TraceBuilder &m_builder;
    const std::atomic<bool> *m_cancel;
    QString m_error;
    bool m_cancelled = false;
};

} // namespace scopeline
