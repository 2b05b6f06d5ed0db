// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The events of one chunk of an event array, compact: their strings interned in a small table of the
// batch's own, arg values in one text. A parser thread fills it (the fast path directly, nlohmann through
// add()); TraceBuilder::addBatch takes it whole and interns each distinct string once, not per event.

#include "model/formats/eventsink.h"
#include "model/tracedata/stringtable.h"
#include "model/formats/rawevent.h"

#include <QString>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace scopeline {

class EventBatch : public EventSink
{
public:
    struct Event
    {
        int64_t ts = 0, dur = 0;
        int64_t correlation = -1, correlationId = -1;
        uint32_t name = 0, cat = 0, pid = 0, tid = 0, id = 0; // string ids; 0 is the empty string
        uint32_t argsBegin = 0, argsEnd = 0;                   // into args()
        int fields = 0;
        const char *badField = nullptr;
        char ph = 0;
        RawEvent::Field tsState = RawEvent::Field::Missing, durState = RawEvent::Field::Missing;
        bool hasCorrelationIdKey = false;

        // Takes raw's fields other than its strings and args.
        void setFields(const RawEvent &raw);
    };
    struct Arg
    {
        uint32_t key;            // string id
        uint32_t offset, length; // value in argText()
    };

    EventBatch();

    void clear();
    // Room for the events of a chunk of this much text, faulted in at once (see hugepages::reserve).
    void reserveFor(std::size_t textBytes);
    // EventSink, for the nlohmann path: the event is copied in.
    void add(RawEvent &event) override;
    void skip(const QString &reason, int64_t count) override { m_skipped[reason] += count; }
    TraceDetail detail() const override { return m_detail; }
    void setDetail(TraceDetail detail) { m_detail = detail; }

    // Id of the text in this batch's table, adding it on first sight.
    uint32_t intern(std::string_view text);
    std::string_view string(uint32_t id) const
    {
        return std::string_view(m_text.data() + m_offsets[id], m_offsets[id + 1] - m_offsets[id]);
    }
    std::size_t stringCount() const { return m_offsets.size() - 1; }
    uint64_t stringHash(uint32_t id) const { return m_index.hash(id); } // StringTable::hash(string(id))

    // Writing an event in place: begin, set its fields and args, end.
    Event &beginEvent()
    {
        Event &e = m_events.emplace_back();
        e.argsBegin = e.argsEnd = uint32_t(m_args.size());
        return e;
    }
    // Starts an arg whose value the caller appends to argText(); endArg() ends it.
    std::string &beginArg(uint32_t key);
    void endArg();
    void endEvent() { m_events.back().argsEnd = uint32_t(m_args.size()); }
    // The events and args so far, to go back to when an event cannot be finished (its strings stay
    // in the table, unused).
    struct Mark
    {
        std::size_t events, args, argText;
    };
    Mark mark() const { return {m_events.size(), m_args.size(), m_argText.size()}; }
    void rollback(const Mark &mark)
    {
        m_events.resize(mark.events);
        m_args.resize(mark.args);
        m_argText.resize(mark.argText);
    }

    const std::vector<Event> &events() const { return m_events; }
    const std::vector<Arg> &args() const { return m_args; }
    std::string_view argValue(const Arg &arg) const
    {
        return std::string_view(m_argText).substr(arg.offset, arg.length);
    }
    std::string &argText() { return m_argText; }
    const std::map<QString, int64_t> &skipped() const { return m_skipped; }
    // Event i as the parsers' RawEvent (for B events that outlive the batch, and for tests).
    void toRawEvent(std::size_t i, RawEvent &out) const;

private:
    std::vector<Event> m_events;
    std::vector<Arg> m_args;
    std::string m_argText;
    std::map<QString, int64_t> m_skipped;
    TraceDetail m_detail = TraceDetail::Full;
    // The string table: texts back to back, found through m_index.
    std::string m_text;
    std::vector<uint32_t> m_offsets;
    HashIndex m_index;
};

} // namespace scopeline
