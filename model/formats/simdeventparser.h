// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The fast path of the event parse: a reader made for trace events (flat objects of a few known keys)
// takes a chunk of the event array straight into an EventBatch, reading every field as
// ChromeTraceHandler does (both use eventfields), so both paths give the same events. nlohmann stays
// the reference for anything this path refuses.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace scopeline {

class EventBatch;

// JSON's blanks: space, tab, line feed, carriage return.
inline bool isJsonBlank(char c)
{
    constexpr uint64_t blanks = 1ull << ' ' | 1ull << '\t' | 1ull << '\n' | 1ull << '\r';
    const auto u = static_cast<unsigned char>(c);
    return u <= ' ' && (blanks >> u & 1);
}

enum class FastParse {
    Done,
    Cancelled, // cancel was set: the batch holds part of the chunk
    Refused,   // the text is not JSON, or it holds what this path leaves to nlohmann (an element that
               // is not an object, a number no double holds, nesting deeper than 128): the batch
               // holds part of it, and the caller clears it and re-reads the text with nlohmann
};

// Bytes past a text's end that the parse reads (16 at a time): a buffer reserved with this much room
// is not grown.
constexpr std::size_t kFastParsePadding = 64;

// Parses text ('[' + events + ']') into batch. The text's capacity grows by kFastParsePadding when
// it lacks it.
FastParse parseEventsFast(std::string &text, EventBatch &batch, const std::atomic<bool> *cancel);

// Where parseEventRun stopped.
struct EventRun
{
    enum Stop { More, Cut, End, Cancelled } stop;
    // More: past the last event taken and the ',' after it (from, if none); Cut: the first ',' after
    // an event at or past cutAt; End: the array's closing ']'.
    std::size_t next;
};

// Parses the events of an event array from text[from] (where one starts, blanks before it allowed)
// into batch, each taken with the ',' or ']' after it, up to the first ',' at or past cutAt, or the
// first event it cannot take: one the text cuts short, or one this path leaves to nlohmann (the
// batch is then as it was before that event). The text's capacity grows by kFastParsePadding when it
// lacks it.
EventRun parseEventRun(std::string &text, std::size_t from, std::size_t cutAt, EventBatch &batch,
                       const std::atomic<bool> *cancel);

} // namespace scopeline
