// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Parses one chunk of event-array text ('[' + events + ']') the two ways the loader can: the fast
// path (parseEventsFast) and nlohmann alone, and says how the results differ. Shared by
// tst_eventparser and fuzz_eventparser.

#include "model/formats/chrometracehandler.h"
#include "model/formats/eventbatch.h"
#include "model/formats/eventsink.h"
#include "model/formats/rawevent.h"
#include "model/formats/simdeventparser.h"

#include <nlohmann/json.hpp>

#include <QString>

#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace eventparsecheck {

// Every field of every event, and the skip reasons, as text that compares whole.
struct RecordingSink : public scopeline::EventSink
{
    std::vector<std::string> events;
    std::map<QString, int64_t> skipped;

    void add(scopeline::RawEvent &e) override
    {
        std::string s = std::string(1, e.ph) + '|' + std::to_string(e.fields) + '|' + e.name + '|' + e.cat +
                        '|' + e.pid + '|' + e.tid + '|' + e.id + '|' + std::to_string(e.ts) + '/' +
                        std::to_string(int(e.tsState)) + '|' + std::to_string(e.dur) + '/' +
                        std::to_string(int(e.durState)) + '|' + std::to_string(e.correlation) + '|' +
                        std::to_string(e.correlationId) + '|' + std::to_string(e.hasCorrelationIdKey) + '|' +
                        (e.badField ? e.badField : "-");
        for (std::size_t i = 0; i < e.argCount; ++i)
            s += '|' + e.argKeys[i] + '=' + e.argValues[i];
        events.push_back(std::move(s));
    }
    void skip(const QString &reason, int64_t count) override { skipped[reason] += count; }
};

enum class Fast { Accepted, Refused };

// Empty when the two parses agree: the fast path refused the text, or it accepted text that nlohmann
// accepts too and both gave the same events and skips. *fast says what the fast path did. (The
// loader gives nlohmann a chunk with a control byte in a string without trying the fast path, which
// must refuse it anyway.)
inline QString compareParses(std::string text, Fast *fast = nullptr)
{
    RecordingSink reference;
    scopeline::ChromeTraceHandler referenceHandler(reference, nullptr);
    nlohmann::json::sax_parse(text.data(), text.data() + text.size(), &referenceHandler);

    RecordingSink quick;
    scopeline::EventBatch batch;
    const Fast outcome = scopeline::parseEventsFast(text, batch, nullptr) == scopeline::FastParse::Done
                             ? Fast::Accepted
                             : Fast::Refused;
    scopeline::RawEvent event;
    for (std::size_t i = 0; i < batch.events().size(); ++i) {
        batch.toRawEvent(i, event);
        quick.add(event);
    }
    for (const auto &[reason, n] : batch.skipped())
        quick.skip(reason, n);
    if (fast)
        *fast = outcome;
    if (outcome != Fast::Accepted)
        return {};
    if (!referenceHandler.error().isEmpty())
        return QStringLiteral("the fast path accepted what nlohmann rejects (%1)")
            .arg(referenceHandler.error());
    if (quick.events.size() != reference.events.size())
        return QStringLiteral("%1 events from the fast path, %2 from nlohmann")
            .arg(quick.events.size())
            .arg(reference.events.size());
    for (std::size_t i = 0; i < quick.events.size(); ++i)
        if (quick.events[i] != reference.events[i])
            return QStringLiteral("event %1: fast path %2, nlohmann %3")
                .arg(i)
                .arg(QString::fromStdString(quick.events[i]), QString::fromStdString(reference.events[i]));
    if (quick.skipped != reference.skipped)
        return QStringLiteral("different skips");
    return {};
}

} // namespace eventparsecheck
