// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// nlohmann::json SAX handler for rocprofv3's own JSON (`rocprofiler-sdk-tool`): kernel dispatches become
// GPU kernels (one track per agent and queue) named from the kernel symbol table, memory copies GPU
// copies, HIP API calls CPU calls paired with them by internal correlation id, and roctx ranges
// (marker_api) scopes named by their text; other record kinds are counted and said.

#include <nlohmann/json.hpp>

#include <QString>

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace scopeline {

class TraceBuilder;
struct RawEvent;

class RocprofV3Handler
{
public:
    using json = nlohmann::json;

    explicit RocprofV3Handler(const std::atomic<bool> *cancel);

    // Hands the collected events to the builder; call after a successful parse.
    void addEventsTo(TraceBuilder &builder) const;
    QString error() const { return m_error; }
    bool cancelled() const { return m_cancelled; }
    // A number a double cannot hold (1e400) stops nlohmann; its document range, to be read as
    // kOutOfRangeMark on the next parse. {-1, 0} when the error was another.
    std::pair<int64_t, int64_t> outOfRangeNumber() const { return m_outOfRange; }
    // What such a number is read as: a string, so that the record holding it is dropped and counted.
    static constexpr const char *kOutOfRangeMark = "\"~~~\"";

    bool null() { return true; }
    bool boolean(bool) { return true; }
    bool number_integer(json::number_integer_t value);
    bool number_unsigned(json::number_unsigned_t value);
    bool number_float(json::number_float_t, const json::string_t &) { return true; }
    bool string(json::string_t &value);
    bool binary(json::binary_t &) { return true; }
    bool start_object(std::size_t);
    bool key(json::string_t &key);
    bool end_object();
    bool start_array(std::size_t);
    bool end_array();
    bool parse_error(std::size_t position, const std::string &lastToken,
                     const nlohmann::detail::exception &ex);

private:
    enum class Record : uint8_t { None, Dispatch, Symbol, Agent, Call, Marker, Copy, Names, Message, Unread };
    struct Dispatch;
    void addLaunchArgs(const Dispatch &d, RawEvent &event) const;
    struct Dispatch
    {
        bool outOfRange = false; // held a number out of range: skipped and counted
        int64_t start = 0, end = 0, correlation = -1;
        uint64_t agent = 0, queue = 0, kernelId = 0, dispatchId = 0;
        // dispatch_info's geometry and memory, for the details: grid and workgroup x, y, z (work-items),
        // LDS (group segment) and scratch (private segment) bytes; -1 where the record lacks one
        std::array<int64_t, 8> launch{-1, -1, -1, -1, -1, -1, -1, -1};
    };
    // An API call, a roctx range or a memory copy: the fields of rocprofiler-sdk's buffer records.
    struct Activity
    {
        Record record = Record::Call;
        bool outOfRange = false;
        int64_t start = 0, end = 0, correlation = -1;
        uint64_t kind = 0, operation = 0, thread = 0, dst = 0, src = 0, stream = 0;
        bool hasStream = false;
    };
    // The name of a record's kind and operation (strings.buffer_records, indexed by kind).
    std::string operationName(const Activity &a) const;
    struct Agent
    {
        int type = 0, index = -1;
        std::string name;
    };

    void value(uint64_t number, const std::string *text);
    bool startContainer(bool array);
    bool endContainer();

    const std::atomic<bool> *m_cancel;
    struct Frame
    {
        bool array;
        std::size_t pathLength;
    };
    std::vector<Frame> m_frames;
    std::string m_path; // dotted keys from the top, array levels add nothing
    std::string m_key;
    Record m_record = Record::None;
    std::size_t m_recordDepth = 0;
    std::size_t m_recordPathLength = 0;
    Dispatch m_dispatch;
    uint64_t m_symbolId = 0;
    std::string m_symbolName, m_symbolFallback;
    uint64_t m_agentHandle = 0;
    Agent m_agent;
    int64_t m_droppedOutOfRange = 0;
    std::pair<int64_t, int64_t> m_outOfRange{-1, 0};

    Activity m_activity;
    std::pair<std::string, std::vector<std::string>> m_names; // the name table entry being read
    int64_t m_messageKey = -1;
    std::string m_messageText;
    int64_t m_pid = -1; // metadata.pid: the process of the calls

    std::map<std::string, int64_t> m_unread; // records of the kinds not read, by kind ("hsa_api")
    std::vector<Dispatch> m_dispatches;
    std::vector<Activity> m_activities;
    std::vector<std::pair<std::string, std::vector<std::string>>> m_kindNames; // by kind
    std::map<int64_t, std::string> m_messages; // roctx texts by correlation id
    std::map<uint64_t, std::string> m_symbols;
    std::map<uint64_t, std::array<int64_t, 3>> m_registers; // a symbol's arch VGPRs, accum VGPRs, SGPRs
    std::array<int64_t, 3> m_symbolRegisters{-1, -1, -1};
    std::map<uint64_t, Agent> m_agents;
    bool m_cancelled = false;
    QString m_error;
};

} // namespace scopeline
