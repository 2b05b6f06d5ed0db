// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/eventfields.h"

#include "model/formats/timeparse.h"

#include <charconv>
#include <cmath>

namespace scopeline::eventfields {

namespace {

std::string_view trimmed(std::string_view text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

bool parseInt(std::string_view text, int64_t &value)
{
    text = trimmed(text);
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    if (text.empty() || text.front() == '+')
        return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size();
}

bool integralDouble(double real, int64_t &value)
{
    if (!std::isfinite(real) || std::trunc(real) != real || std::fabs(real) >= 9.2e18)
        return false;
    value = int64_t(real);
    return true;
}

bool asInteger(const Scalar &value, int64_t &integer)
{
    switch (value.type) {
    case Scalar::Integer: integer = value.integer; return true;
    case Scalar::Float: return integralDouble(value.real, integer);
    case Scalar::String: return parseInt(value.text, integer);
    case Scalar::Bool:
    case Scalar::Null: break;
    }
    return false;
}

} // namespace

char phase(const Scalar &value)
{
    return value.type == Scalar::String && value.text.size() == 1 ? value.text[0] : '?';
}

bool idText(const Scalar &value, char (&buffer)[32], std::string_view &text)
{
    if (value.type == Scalar::Bool || value.type == Scalar::Null)
        return false;
    int64_t integer = 0;
    if (asInteger(value, integer)) {
        const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, integer);
        text = std::string_view(buffer, std::size_t(end - buffer));
    } else {
        text = value.type == Scalar::String ? trimmed(value.text) : value.text;
    }
    return true;
}

RawEvent::Field micros(const Scalar &value, int64_t &ns)
{
    bool ok = false;
    if (value.type == Scalar::Integer)
        ok = microsIntToNs(value.integer, ns);
    else if (value.type == Scalar::Float || value.type == Scalar::String)
        ok = microsTextToNs(value.text, ns);
    return ok ? RawEvent::Field::Ok : RawEvent::Field::Bad;
}

bool isBookkeepingArg(std::string_view key)
{
    return key == "Ev Idx" || key == "Python id" || key == "Python parent id";
}

bool keepsArg(TraceDetail detail, std::string_view key)
{
    if (detail == TraceDetail::Full)
        return !isBookkeepingArg(key);
    // Every key TraceBuilder, TraceAnalysis and RunSummary read; tst_tracedetail checks that a load at
    // Figures gives the same summary as a Full one on every trace of the tests.
    static constexpr std::string_view kept[] = {"name",
                                                "long_name",
                                                "sort_index",
                                                "desc",
                                                "hlo_op",
                                                "cuda_graph_node_id",
                                                "Collective name",
                                                "In msg nelems",
                                                "Out msg nelems",
                                                "dtype",
                                                "Group size",
                                                "Process Group Name",
                                                "Process Group Ranks"};
    for (std::string_view k : kept)
        if (k == key)
            return true;
    return false;
}

bool correlation(const Scalar &value, int64_t &id)
{
    int64_t integer = -1;
    if (!asInteger(value, integer) || integer < 0)
        return false;
    id = integer;
    return true;
}

void appendJsonString(std::string &out, std::string_view text)
{
    out.push_back('"');
    for (char c : text) {
        if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(c);
        } else if (static_cast<unsigned char>(c) < 0x20) {
            out.push_back(' ');
        } else {
            out.push_back(c);
        }
    }
    out.push_back('"');
}

} // namespace scopeline::eventfields
