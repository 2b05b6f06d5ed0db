// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/eventbatch.h"

#include "model/tracedata/hugepages.h"

namespace scopeline {

namespace {

constexpr std::size_t kFirstSlots = 1024;

} // namespace

EventBatch::EventBatch() : m_index(kFirstSlots)
{
    clear();
}

void EventBatch::clear()
{
    m_events.clear();
    m_args.clear();
    m_argText.clear();
    m_skipped.clear();
    m_text.clear();
    m_offsets.assign(1, 0);
    m_index.clear();
    intern({}); // id 0
}

void EventBatch::reserveFor(std::size_t textBytes)
{
    // Generous for real traces (a Kineto event takes 150-300 bytes, 8 args at most of them): grown
    // vectors would fault their pages in one at a time.
    hugepages::reserve(m_events, textBytes / 128);
    hugepages::reserve(m_args, textBytes / 64);
    hugepages::reserve(m_argText, textBytes / 2);
    hugepages::reserve(m_text, textBytes / 8);
}

uint32_t EventBatch::intern(std::string_view text)
{
    return m_index.intern(
        StringTable::hash(text), [&](uint32_t id) { return sameText(string(id), text); },
        [&] {
            m_text.append(text);
            m_offsets.push_back(uint32_t(m_text.size()));
        });
}

void EventBatch::Event::setFields(const RawEvent &raw)
{
    ts = raw.ts;
    dur = raw.dur;
    correlation = raw.correlation;
    correlationId = raw.correlationId;
    fields = raw.fields;
    badField = raw.badField;
    ph = raw.ph;
    tsState = raw.tsState;
    durState = raw.durState;
    hasCorrelationIdKey = raw.hasCorrelationIdKey;
}

std::string &EventBatch::beginArg(uint32_t key)
{
    m_args.push_back(Arg{key, uint32_t(m_argText.size()), 0});
    return m_argText;
}

void EventBatch::endArg()
{
    Arg &arg = m_args.back();
    arg.length = uint32_t(m_argText.size() - arg.offset);
}

void EventBatch::add(RawEvent &raw)
{
    Event &e = beginEvent();
    e.setFields(raw);
    e.name = intern(raw.name);
    e.cat = intern(raw.cat);
    e.pid = intern(raw.pid);
    e.tid = intern(raw.tid);
    e.id = intern(raw.id);
    for (std::size_t i = 0; i < raw.argCount; ++i) {
        beginArg(intern(raw.argKeys[i])).append(raw.argValues[i]);
        endArg();
    }
    endEvent();
}

void EventBatch::toRawEvent(std::size_t i, RawEvent &out) const
{
    const Event &e = m_events[i];
    out.clear();
    out.ts = e.ts;
    out.dur = e.dur;
    out.correlation = e.correlation;
    out.correlationId = e.correlationId;
    out.fields = e.fields;
    out.badField = e.badField;
    out.ph = e.ph;
    out.tsState = e.tsState;
    out.durState = e.durState;
    out.hasCorrelationIdKey = e.hasCorrelationIdKey;
    out.name.assign(string(e.name));
    out.cat.assign(string(e.cat));
    out.pid.assign(string(e.pid));
    out.tid.assign(string(e.tid));
    out.id.assign(string(e.id));
    for (uint32_t a = e.argsBegin; a < e.argsEnd; ++a)
        out.addArg(std::string(string(m_args[a].key))).assign(argValue(m_args[a]));
}

} // namespace scopeline
