// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One trace event as the parsers read it, before the builder interns and classifies it.

#include <cstdint>
#include <string>
#include <vector>

namespace scopeline {

struct RawEvent
{
    enum class Field : uint8_t { Missing, Ok, Bad };

    char ph = 0;
    int fields = 0; // keys seen, 0 for `{}`
    std::string name, cat;
    std::string pid, tid;    // normalised ids ("6" for 6, " 6 " and "6")
    std::string id;          // flow id, normalised like pid
    int64_t ts = 0, dur = 0; // ns
    Field tsState = Field::Missing, durState = Field::Missing;
    int64_t correlation = -1;   // args.correlation (Kineto)
    int64_t correlationId = -1; // args.correlation_id (JAX)
    bool hasCorrelationIdKey = false;
    const char *badField = nullptr; // a key field (pid, tid, name, ...) whose value is not readable

    // args, reused between events to avoid reallocating
    std::vector<std::string> argKeys, argValues;
    std::size_t argCount = 0;

    void clear()
    {
        ph = 0;
        fields = 0;
        name.clear();
        cat.clear();
        pid.clear();
        tid.clear();
        id.clear();
        ts = dur = 0;
        tsState = durState = Field::Missing;
        correlation = correlationId = -1;
        hasCorrelationIdKey = false;
        badField = nullptr;
        argCount = 0;
    }
    std::string &addArg(const std::string &key)
    {
        if (argCount == argKeys.size()) {
            argKeys.emplace_back();
            argValues.emplace_back();
        }
        argKeys[argCount] = key;
        argValues[argCount].clear();
        return argValues[argCount++];
    }
    // A launch's dimension as every reader writes it: "8" for one value, "[8, 1, 1]" for several.
    void addIntegerArg(const std::string &key, const int64_t *values, int count)
    {
        std::string &text = addArg(key);
        for (int i = 0; i < count; ++i)
            text += (i ? ", " : "") + std::to_string(values[i]);
        if (count > 1)
            text = "[" + text + "]";
    }
};

} // namespace scopeline
