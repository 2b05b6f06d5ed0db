// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventbatch.h"

#include <cstring>

namespace scopeline {

namespace {

constexpr std::size_t kFirstSlots = 1024;

// Eight bytes at a time: names run to hundreds of bytes (C++ kernel signatures).
uint64_t hashText(std::string_view text)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ text.size();
    const char *p = text.data();
    std::size_t n = text.size();
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t word;
        std::memcpy(&word, p, 8);
        h = (h ^ word) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    // The last 0-7 bytes as two overlapping words, not byte by byte: a load of bytes just stored one
    // at a time stalls (store forwarding), and that was half of intern's time.
    uint64_t tail = 0;
    if (n >= 4) {
        uint32_t first, last;
        std::memcpy(&first, p, 4);
        std::memcpy(&last, p + n - 4, 4);
        tail = first | uint64_t(last) << 32;
    } else if (n > 0) {
        tail = uint64_t(uint8_t(p[0])) | uint64_t(uint8_t(p[n / 2])) << 8 | uint64_t(uint8_t(p[n - 1])) << 16;
    }
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
}

} // namespace

EventBatch::EventBatch()
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
    m_hashes.clear();
    if (m_slots.empty())
        m_slots.resize(kFirstSlots);
    std::fill(m_slots.begin(), m_slots.end(), 0);
    intern({}); // id 0
}

uint32_t EventBatch::intern(std::string_view text)
{
    const uint64_t hash = hashText(text);
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const uint32_t slot = m_slots[i];
        if (slot == 0) {
            const auto id = uint32_t(m_hashes.size());
            m_text.append(text);
            m_offsets.push_back(uint32_t(m_text.size()));
            m_hashes.push_back(hash);
            m_slots[i] = id + 1;
            if (m_hashes.size() * 2 > m_slots.size())
                grow();
            return id;
        }
        if (m_hashes[slot - 1] == hash && string(slot - 1) == text)
            return slot - 1;
    }
}

void EventBatch::grow()
{
    m_slots.assign(m_slots.size() * 2, 0);
    const std::size_t mask = m_slots.size() - 1;
    for (uint32_t id = 0; id < m_hashes.size(); ++id) {
        std::size_t i = m_hashes[id] & mask;
        while (m_slots[i])
            i = (i + 1) & mask;
        m_slots[i] = id + 1;
    }
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

EventBatch::Event &EventBatch::beginEvent()
{
    Event &e = m_events.emplace_back();
    e.argsBegin = e.argsEnd = uint32_t(m_args.size());
    return e;
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
