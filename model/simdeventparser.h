// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The fast path of the event parse: simdjson On-Demand walks a chunk of the event array and feeds
// ChromeTraceHandler the same callbacks, in the same order, as nlohmann's SAX parser would, so both
// paths give the same events. nlohmann stays the reference for anything simdjson rejects.

#include <string>

namespace scopeline {

class ChromeTraceHandler;

// Parses text ('[' + events + ']') into handler. Returns false where simdjson rejects the text, or
// might read it differently from nlohmann (a non-finite number); the handler has then seen part of
// it and the caller re-reads the text with nlohmann. Stops early, returning true, when the handler
// does (cancel). The text's capacity grows by simdjson's padding when it lacks it.
bool parseEventsFast(std::string &text, ChromeTraceHandler &handler);

// False where this CPU lacks what the fast path was compiled for (AVX2): nlohmann parses everything.
bool fastEventParserAvailable();

} // namespace scopeline
