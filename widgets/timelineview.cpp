// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelineview.h"

#include "model/durationformat.h"

#include <QFontMetrics>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>
#include <utility>

namespace scopeline {

namespace {

constexpr int kLabelWidth = 180;   // track label column
constexpr int kAxisHeight = 26;    // time axis at the top
constexpr int kHeaderHeight = 22;  // process header rows
constexpr int kLaneHeight = 18;    // one nesting level of a CPU thread
constexpr int kGpuLaneHeight = 22; // GPU streams, the rows that matter most
constexpr int kRowPad = 3;         // above and below the lanes of a track row
constexpr int kMaxLanes = 6;       // deeper slices are drawn on the last lane
constexpr int kMinTextWidth = 40;  // px: rects at least this wide get their name
constexpr int kDragThreshold = 3;  // px before a press becomes a drag
constexpr int kHitSlop = 2;        // px of tolerance when hovering tiny events
constexpr int kMaxArrows = 64;     // launch -> kernel arrows drawn for one launch

// Palette slots: fixed ones per kind, then the kernel colours picked by a hash of the name.
enum Slot : uint8_t {
    SlotCpuOther,
    SlotRuntime,
    SlotLaunch,
    SlotGraphLaunch,
    SlotCpuAnnotation,
    SlotGpuAnnotation,
    SlotMemcpy,
    SlotMemset,
    SlotGpuOther,
    SlotInstant,
    SlotKernelFirst,
};
constexpr int kKernelColours = 12;
constexpr int kSlots = SlotKernelFirst + kKernelColours;

struct Swatch
{
    QColor fill;
    QColor text;
};

const std::array<Swatch, kSlots> &swatchTable()
{
    static const std::array<Swatch, kSlots> swatches = [] {
        const char *fills[kSlots] = {
            "#a6cee3", // other CPU slices: light blue
            "#bdbdbd", // runtime calls: grey
            "#f39c33", // kernel launches: orange
            "#d62728", // graph launches: red
            "#9467bd", // CPU annotations: purple
            "#c5b0d5", // GPU annotations: light purple
            "#e377c2", // memcpy: pink
            "#9c6b4e", // memset: brown
            "#8c9db5", // other GPU activity
            "#404040", // instants
            // kernels
            "#4e79a7",
            "#59a14f",
            "#76b7b2",
            "#edc948",
            "#3d6e99",
            "#6a9fd4",
            "#8cd17d",
            "#499894",
            "#c9a227",
            "#5f8f6f",
            "#a3c45a",
            "#7b8fbf",
        };
        std::array<Swatch, kSlots> s;
        for (int i = 0; i < kSlots; ++i) {
            const QColor fill{QLatin1String(fills[i])};
            const double luma = 0.299 * fill.red() + 0.587 * fill.green() + 0.114 * fill.blue();
            s[i] = {fill, luma < 150 ? QColor(Qt::white) : QColor(0x1e, 0x1e, 0x1e)};
        }
        return s;
    }();
    return swatches;
}

QFont smallFont(QFont font)
{
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * 0.88);
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(8, int(font.pixelSize() * 0.88)));
    return font;
}

uint32_t fnv1a(std::string_view text)
{
    uint32_t h = 2166136261u;
    for (unsigned char c : text)
        h = (h ^ c) * 16777619u;
    return h;
}

QString kindName(EventKind kind)
{
    switch (kind) {
    case EventKind::Kernel:
        return TimelineView::tr("kernel");
    case EventKind::Memcpy:
        return TimelineView::tr("memory copy");
    case EventKind::Memset:
        return TimelineView::tr("memory set");
    case EventKind::GpuOther:
        return TimelineView::tr("GPU activity");
    case EventKind::GpuAnnotation:
        return TimelineView::tr("GPU annotation");
    case EventKind::CpuAnnotation:
        return TimelineView::tr("CPU annotation");
    case EventKind::Runtime:
        return TimelineView::tr("runtime call");
    case EventKind::KernelLaunch:
        return TimelineView::tr("kernel launch");
    case EventKind::GraphLaunch:
        return TimelineView::tr("graph launch");
    case EventKind::Instant:
        return TimelineView::tr("instant");
    case EventKind::Other:
        break;
    }
    return TimelineView::tr("CPU slice");
}

// Natural order of pid/tid strings: numbers by value, else text.
bool idLess(const QString &a, const QString &b)
{
    bool okA = false, okB = false;
    const qlonglong na = a.toLongLong(&okA), nb = b.toLongLong(&okB);
    if (okA && okB)
        return na < nb;
    if (okA != okB)
        return okA;
    return a < b;
}

// The trace's extent: first event start to last event end.
std::pair<int64_t, int64_t> traceBounds(const TraceData &t)
{
    int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
    for (const auto &events : t.trackEvents)
        if (!events.empty())
            lo = std::min(lo, t.start[events.front()]);
    for (uint32_t e = 0; e < t.eventCount(); ++e)
        hi = std::max(hi, t.end(e));
    if (lo > hi)
        return {0, 0};
    return {lo, hi};
}

int64_t traceOrigin(const TraceData &t)
{
    int64_t lo = std::numeric_limits<int64_t>::max();
    for (const auto &events : t.trackEvents)
        if (!events.empty())
            lo = std::min(lo, t.start[events.front()]);
    return lo == std::numeric_limits<int64_t>::max() ? 0 : lo;
}

// Long C++ kernel names have no spaces: zero-width spaces after separators let rich text wrap them.
QString breakable(const QString &text)
{
    if (text.size() <= 80)
        return text.toHtmlEscaped();
    QString out;
    out.reserve(text.size() + text.size() / 8);
    int run = 0;
    for (const QChar c : text) {
        out += c;
        ++run;
        if (c == u'_' || c == u'/' || c == u',' || c == u':' || c == u'<' || c == u'(' || c == u' ' ||
            run >= 40) {
            if (c != u' ')
                out += QChar(0x200B);
            run = 0;
        }
    }
    return out.toHtmlEscaped();
}

QString elideText(std::string_view text, int max)
{
    QString s = QString::fromUtf8(text.data(), qsizetype(text.size()));
    if (s.size() > max)
        s = s.left(max) + QStringLiteral("…");
    return s;
}

// One nesting level of a track (or the idle gaps of a stream): entries sorted by start, with the
// running maximum of their ends so that a window's first entry is found by binary search.
struct Lane
{
    std::vector<int64_t> starts, ends, reach;
    std::vector<uint32_t> items; // event indices (or gap indices)
    std::vector<uint8_t> colours;
    bool overlapping = false;  // entries overlap: deeper slices merged into the last lane
    std::vector<int64_t> tree; // max-of-ends segment tree, overlapping lanes only
    std::size_t leaves = 0;

    void add(int64_t start, int64_t end, uint32_t item, uint8_t slot)
    {
        if (!reach.empty() && start < reach.back())
            overlapping = true;
        starts.push_back(start);
        ends.push_back(end);
        reach.push_back(reach.empty() ? end : std::max(reach.back(), end));
        items.push_back(item);
        colours.push_back(slot);
    }

    void finish()
    {
        if (!overlapping)
            return;
        leaves = 1;
        while (leaves < ends.size())
            leaves *= 2;
        tree.assign(2 * leaves, std::numeric_limits<int64_t>::min());
        std::copy(ends.begin(), ends.end(), tree.begin() + std::ptrdiff_t(leaves));
        for (std::size_t i = leaves - 1; i >= 1; --i)
            tree[i] = std::max(tree[2 * i], tree[2 * i + 1]);
    }

    // First index in [l, r) whose end is beyond x, or r.
    std::size_t firstEndingAfter(std::size_t l, std::size_t r, int64_t x) const
    {
        return l >= r ? r : descend(1, 0, leaves, l, r, x);
    }

    std::size_t descend(std::size_t node, std::size_t nl, std::size_t nr, std::size_t l, std::size_t r,
                        int64_t x) const
    {
        if (nr <= l || r <= nl || tree[node] <= x)
            return r;
        if (nr - nl == 1)
            return nl;
        const std::size_t mid = (nl + nr) / 2;
        const std::size_t left = descend(2 * node, nl, mid, l, r, x);
        return left != r ? left : descend(2 * node + 1, mid, nr, l, r, x);
    }

    // Entries [first, last) that may intersect [from, to].
    std::pair<std::size_t, std::size_t> window(int64_t from, int64_t to) const
    {
        const std::size_t first =
            std::size_t(std::lower_bound(reach.begin(), reach.end(), from) - reach.begin());
        const std::size_t last =
            std::size_t(std::upper_bound(starts.begin(), starts.end(), to) - starts.begin());
        return {first, std::max(first, last)};
    }

    // Walks the visible entries column by column: draw(index, leftColumn, rightColumn) once per drawn
    // rect, never twice over a column; entries starting in a column already drawn are skipped by
    // binary search (the first one to start in a column gives its colour). minPx > 0 drops entries
    // narrower than that.
    template <typename Draw> void sweep(const TimeScale &s, int width, double minPx, Draw draw) const
    {
        auto [i, iEnd] = window(s.start, s.end);
        int lastCol = -1;
        const double nsPerPx = s.nsPerPixel();
        while (i < iEnd) {
            if (ends[i] < s.start) {
                ++i;
                continue;
            }
            const double x0 = s.toPixel(starts[i]), x1 = s.toPixel(ends[i]);
            const int c0 = x0 <= 0 ? 0 : int(x0);
            if (c0 >= width)
                break;
            int c1 = x1 >= width ? width : int(std::ceil(x1));
            c1 = std::max(c1, c0 + 1);
            int skipCol = std::max(lastCol, c0); // an entry too narrow to draw still uses up its column
            if (c1 - 1 > lastCol && x1 - x0 >= minPx) {
                const int left = std::max(c0, lastCol + 1);
                draw(i, left, c1);
                skipCol = lastCol = c1 - 1;
            }
            // Skip what starts in the columns used so far, unless it reaches beyond them.
            const int64_t next = s.start + int64_t(std::ceil(double(skipCol + 1) * nsPerPx));
            const std::size_t j = std::size_t(std::lower_bound(starts.begin() + std::ptrdiff_t(i) + 1,
                                                               starts.begin() + std::ptrdiff_t(iEnd), next) -
                                              starts.begin());
            if (overlapping) {
                i = firstEndingAfter(i + 1, j, next);
            } else {
                i = (j > i + 1 && ends[j - 1] > next) ? j - 1 : j;
            }
        }
    }
};

// The last lane holds every slice from its depth down, nested: it is cut into disjoint pieces, each
// showing the innermost slice there, so that the deepest calls (the launches) stay visible.
template <typename SlotOf>
void addFlattened(Lane &lane, const std::vector<uint32_t> &events, const TraceData &t, SlotOf slotOf)
{
    struct Open
    {
        uint32_t e;
        int64_t end;
    };
    std::vector<Open> stack;
    int64_t cursor = std::numeric_limits<int64_t>::min();
    auto close = [&](const Open &o) {
        if (o.end > cursor) {
            lane.add(cursor, o.end, o.e, slotOf(o.e));
            cursor = o.end;
        }
    };
    for (uint32_t e : events) {
        const int64_t s = t.start[e];
        while (!stack.empty() && stack.back().end <= s) {
            close(stack.back());
            stack.pop_back();
        }
        if (!stack.empty() && s > cursor)
            lane.add(cursor, s, stack.back().e, slotOf(stack.back().e));
        cursor = std::max(cursor, s);
        if (t.duration[e] == 0) {
            lane.add(s, s, e, slotOf(e));
            continue;
        }
        const int64_t end = stack.empty() ? t.end(e) : std::min(t.end(e), stack.back().end);
        if (end > s)
            stack.push_back({e, end});
    }
    while (!stack.empty()) {
        close(stack.back());
        stack.pop_back();
    }
}

struct TrackRow
{
    uint32_t track = 0;
    int group = 0;
    std::vector<Lane> lanes;
    std::vector<Lane> launches; // per lane: its kernel and graph launches, drawn over the rest
    Lane gaps;                  // idle gaps of a GPU stream
    const StreamSummary *stream = nullptr;
    std::vector<uint32_t> graphLaunches; // by start
    QString label, tooltip;
    int laneHeight = kLaneHeight;
    int height() const { return int(std::max<std::size_t>(lanes.size(), 1)) * laneHeight + 2 * kRowPad; }
};

struct Group
{
    QString title, detail;
    bool gpu = false;
    bool collapsed = false;
    std::vector<int> tracks; // into TrackRow list
};

struct Row
{
    bool header = false;
    int index = 0; // group or track row
    int y = 0;     // content coordinates
    int height = 0;
};

struct Label
{
    QRect rect;
    QString text;
    uint8_t slot;
};

struct Geometry
{
    bool valid = false;
    int64_t start = 0, end = 0;
    QRect plot;
    int scroll = 0;
    int version = 0;
    std::array<std::vector<QRect>, kSlots> rects;
    std::vector<QRect> gaps;
    std::vector<QRect> graphMarkers;
    std::vector<QRect> highlights; // kernels of the highlighted names, one per pixel column at most
    std::vector<Label> labels;
    std::vector<std::pair<int, QString>> ticks; // x, text
    std::vector<int> minorTicks;
};

struct Hit
{
    enum Type { None, Header, TrackLabel, Track } type = None;
    int row = -1; // into rows
    int lane = 0;
    int64_t event = -1;
    int64_t gap = -1; // index into the stream's gaps
};

} // namespace

class TimelineView::Private
{
public:
    explicit Private(TimelineView *view) : q(view) {}

    void build();
    void layoutRows();
    void updateScrollBar();
    void setScale(const TimeScale &next);
    void invalidate() { geometry.valid = false; }
    void buildGeometry(const QRect &plot);
    void addHighlights(const Lane &lane, int left, int y, int height);
    QRect plotRect() const;
    int scroll() const { return vbar->isVisible() ? vbar->value() : 0; }
    // A scroll of the user's: from now on the view stays where they put it.
    void scrollTo(int value)
    {
        keepGpuInView = false;
        vbar->setValue(value);
    }
    int gpuScrollTarget(int viewport) const;
    int rowTop(const Row &row) const { return kAxisHeight + row.y - scroll(); }
    int rowAt(int y) const;
    Hit hitTest(const QPoint &pos) const;
    int64_t eventAt(const TrackRow &tr, int lane, double px) const;
    QRect eventRect(uint32_t e) const;
    QString gapText(const TrackRow &tr, std::size_t gap) const;
    void toggleGroup(int group);
    void paintAxis(QPainter &p, const QRect &plot);
    void paintLabels(QPainter &p, const QRect &plot);
    void paintLinks(QPainter &p, int64_t e, bool strong);
    void paintArrow(QPainter &p, const QRect &from, const QRect &to, const QColor &colour);
    void paintGraphBracket(QPainter &p, uint32_t launch, bool strong);
    int64_t timeAtX(int x) const;

    TimelineView *q;
    LoadedRun run;
    TimeScale scale;
    int64_t maxSpan = 0;
    std::vector<TrackRow> tracks;
    std::vector<Group> groups;
    std::vector<Row> rows;
    std::vector<int> rowOfTrackRow;  // track row -> row, -1 when collapsed
    std::vector<int32_t> trackRowOf; // trace track -> track row, -1 when not shown
    std::vector<uint8_t> laneOf;     // per event
    std::vector<bool> highlightedName; // per string id: kernels of this name are highlighted
    int contentHeight = 0;
    int version = 0; // bumps when rows change
    QScrollBar *vbar = nullptr;
    // Until the user scrolls, rows taller than the view are scrolled so that the GPU streams (and the
    // CPU rows just above them, the launching threads) are in view: they are what the view is for.
    bool keepGpuInView = true;
    Geometry geometry;

    int64_t selected = -1;
    int64_t hovered = -1;
    int hoveredGapRow = -1;
    int64_t hoveredGap = -1;
    bool hasRange = false;
    int64_t rangeStart = 0, rangeEnd = 0;

    enum class Drag { None, Pan, Select } drag = Drag::None;
    QPoint pressPos;
    TimeScale pressScale;
    bool pressed = false; // a press of ours awaits its release
    bool moved = false;
};

// ---- setup --------------------------------------------------------------------------------------

void TimelineView::Private::build()
{
    tracks.clear();
    groups.clear();
    rows.clear();
    laneOf.clear();
    trackRowOf.clear();
    highlightedName.clear();
    selected = hovered = -1;
    hoveredGapRow = -1;
    hasRange = false;
    invalidate();
    ++version;
    if (!run.trace) {
        scale = TimeScale();
        scale.width = std::max(1, plotRect().width());
        layoutRows();
        return;
    }
    const TraceData &t = *run.trace;
    laneOf.assign(t.eventCount(), 0);
    trackRowOf.assign(t.tracks.size(), -1);

    // Kernel colours by name, hashed once per distinct name.
    std::vector<int8_t> nameSlot(t.strings.size(), -1);
    auto slotOf = [&](uint32_t e) -> uint8_t {
        switch (t.kind[e]) {
        case EventKind::Kernel: {
            int8_t &s = nameSlot[t.name[e]];
            if (s < 0)
                s = int8_t(SlotKernelFirst + fnv1a(t.nameOf(e)) % kKernelColours);
            return uint8_t(s);
        }
        case EventKind::Memcpy:
            return SlotMemcpy;
        case EventKind::Memset:
            return SlotMemset;
        case EventKind::GpuOther:
            return SlotGpuOther;
        case EventKind::GpuAnnotation:
            return SlotGpuAnnotation;
        case EventKind::CpuAnnotation:
            return SlotCpuAnnotation;
        case EventKind::Runtime:
            return SlotRuntime;
        case EventKind::KernelLaunch:
            return SlotLaunch;
        case EventKind::GraphLaunch:
            return SlotGraphLaunch;
        case EventKind::Instant:
            return SlotInstant;
        case EventKind::Other:
            break;
        }
        return t.onGpu(e) ? SlotGpuOther : SlotCpuOther;
    };

    // Groups: one per (CPU/GPU, pid); CPU processes first, by sort index then pid.
    struct Key
    {
        bool gpu;
        QString pid;
        bool operator<(const Key &o) const { return gpu != o.gpu ? !gpu : idLess(pid, o.pid); }
    };
    std::map<Key, std::vector<uint32_t>> byProcess;
    for (uint32_t tr = 0; tr < t.tracks.size(); ++tr)
        if (!t.trackEvents[tr].empty())
            byProcess[{t.tracks[tr].gpu, t.tracks[tr].pid}].push_back(tr);
    std::vector<std::pair<Key, std::vector<uint32_t>>> ordered(byProcess.begin(), byProcess.end());
    auto minSort = [&t](const std::vector<uint32_t> &list) {
        int64_t m = std::numeric_limits<int64_t>::max();
        for (uint32_t tr : list)
            m = std::min(m, t.tracks[tr].sortIndex);
        return m;
    };
    std::stable_sort(ordered.begin(), ordered.end(), [&](const auto &a, const auto &b) {
        if (a.first.gpu != b.first.gpu)
            return !a.first.gpu;
        const int64_t sa = minSort(a.second), sb = minSort(b.second);
        if (sa != sb)
            return sa < sb;
        return idLess(a.first.pid, b.first.pid);
    });

    std::unordered_map<uint32_t, const StreamSummary *> streamOf;
    if (run.analysis)
        for (const StreamSummary &s : run.analysis->streams())
            streamOf[s.track] = &s;

    // Threads that launch kernels go last in their process, next to the GPU rows their arrows reach.
    std::vector<uint8_t> launches(t.tracks.size(), 0);
    for (uint32_t tr = 0; tr < t.tracks.size(); ++tr)
        for (uint32_t e : t.trackEvents[tr])
            if (t.kind[e] == EventKind::KernelLaunch || t.kind[e] == EventKind::GraphLaunch) {
                launches[tr] = 1;
                break;
            }
    for (auto &[key, list] : ordered) {
        std::stable_sort(list.begin(), list.end(), [&t, &launches](uint32_t a, uint32_t b) {
            if (launches[a] != launches[b])
                return launches[a] < launches[b];
            if (t.tracks[a].sortIndex != t.tracks[b].sortIndex)
                return t.tracks[a].sortIndex < t.tracks[b].sortIndex;
            return idLess(t.tracks[a].tid, t.tracks[b].tid);
        });
        Group g;
        g.gpu = key.gpu;
        const Track &first = t.tracks[list.front()];
        if (!first.processName.isEmpty())
            g.title = first.processName;
        else if (key.gpu)
            g.title =
                first.device >= 0 ? TimelineView::tr("GPU %1").arg(first.device) : TimelineView::tr("GPU");
        else
            g.title = TimelineView::tr("Process %1").arg(key.pid);
        if (key.gpu && first.device >= 0 && !first.processName.isEmpty() &&
            !first.processName.contains(QLatin1String("GPU"), Qt::CaseInsensitive))
            g.title += TimelineView::tr(" · GPU %1").arg(first.device);
        g.detail = key.gpu ? TimelineView::tr("%n stream(s)", nullptr, int(list.size()))
                           : TimelineView::tr("%n thread(s)", nullptr, int(list.size()));
        if (!key.pid.isEmpty())
            g.detail = TimelineView::tr("pid %1 · %2").arg(key.pid, g.detail);
        const int groupIndex = int(groups.size());
        for (uint32_t tr : list) {
            const Track &track = t.tracks[tr];
            TrackRow row;
            row.track = tr;
            row.group = groupIndex;
            row.laneHeight = track.gpu ? kGpuLaneHeight : kLaneHeight;
            row.label = !track.threadName.isEmpty() ? track.threadName
                        : track.gpu                 ? TimelineView::tr("Stream %1").arg(track.tid)
                                                    : TimelineView::tr("Thread %1").arg(track.tid);
            row.tooltip = track.displayName().toHtmlEscaped();
            // Depth of each slice by a stack sweep of ends (parents come first).
            const auto &events = t.trackEvents[tr];
            std::vector<int64_t> stack;
            int maxLane = 0;
            for (uint32_t e : events) {
                const int64_t s = t.start[e];
                while (!stack.empty() && stack.back() <= s)
                    stack.pop_back();
                const int lane = std::min<int>(int(stack.size()), kMaxLanes - 1);
                laneOf[e] = uint8_t(lane);
                maxLane = std::max(maxLane, lane);
                // a child that outlives its parent (clocks disagree by a ns) ends with it here, so
                // that no ended slice stays on the stack and deepens what follows
                stack.push_back(stack.empty() ? t.end(e) : std::min(t.end(e), stack.back()));
            }
            row.lanes.resize(std::size_t(maxLane) + 1);
            row.launches.resize(row.lanes.size());
            std::vector<uint32_t> deepest; // the last lane, flattened below
            for (uint32_t e : events) {
                const EventKind kind = t.kind[e];
                if (laneOf[e] == kMaxLanes - 1)
                    deepest.push_back(e);
                else
                    row.lanes[laneOf[e]].add(t.start[e], t.end(e), e, slotOf(e));
                if (kind == EventKind::KernelLaunch || kind == EventKind::GraphLaunch)
                    row.launches[laneOf[e]].add(t.start[e], t.end(e), e, slotOf(e));
                if (kind == EventKind::GraphLaunch)
                    row.graphLaunches.push_back(e);
            }
            if (!deepest.empty())
                addFlattened(row.lanes.back(), deepest, t, slotOf);
            for (auto &lane : row.lanes)
                lane.finish();
            for (auto &lane : row.launches)
                lane.finish();
            auto it = streamOf.find(tr);
            if (it != streamOf.end()) {
                row.stream = it->second;
                for (std::size_t i = 0; i < row.stream->gaps.size(); ++i) {
                    const IdleGap &gap = row.stream->gaps[i];
                    row.gaps.add(gap.start, gap.end, uint32_t(i), 0);
                }
                row.gaps.finish();
            }
            trackRowOf[tr] = int32_t(tracks.size());
            g.tracks.push_back(int(tracks.size()));
            tracks.push_back(std::move(row));
        }
        groups.push_back(std::move(g));
    }

    const auto [lo, hi] = traceBounds(t);
    scale = TimeScale();
    scale.maxSpan = maxSpan;
    scale.width = std::max(1, plotRect().width());
    scale.setBounds(lo, hi);
    layoutRows();
}

void TimelineView::Private::layoutRows()
{
    rows.clear();
    rowOfTrackRow.assign(tracks.size(), -1);
    int y = 0;
    for (int g = 0; g < int(groups.size()); ++g) {
        rows.push_back({true, g, y, kHeaderHeight});
        y += kHeaderHeight;
        if (groups[std::size_t(g)].collapsed)
            continue;
        for (int tr : groups[std::size_t(g)].tracks) {
            const int h = tracks[std::size_t(tr)].height();
            rowOfTrackRow[std::size_t(tr)] = int(rows.size());
            rows.push_back({false, tr, y, h});
            y += h;
        }
    }
    contentHeight = y;
    ++version;
    invalidate();
    updateScrollBar();
}

void TimelineView::Private::updateScrollBar()
{
    const int viewport = q->height() - kAxisHeight;
    const bool needed = contentHeight > viewport && viewport > 0;
    vbar->setVisible(needed);
    const int w = vbar->sizeHint().width();
    vbar->setGeometry(q->width() - w, kAxisHeight, w, std::max(0, viewport));
    vbar->setRange(0, std::max(0, contentHeight - viewport));
    vbar->setPageStep(std::max(1, viewport));
    vbar->setSingleStep(kLaneHeight);
    if (keepGpuInView)
        vbar->setValue(gpuScrollTarget(viewport));
    const int width = std::max(1, plotRect().width());
    if (scale.width != width) {
        scale.width = width;
        invalidate();
    }
}

int TimelineView::Private::gpuScrollTarget(int viewport) const
{
    for (const Row &row : rows)
        if (row.header && groups[std::size_t(row.index)].gpu) {
            const int gpuHeight = contentHeight - row.y;
            return std::clamp(row.y - std::max(0, viewport - gpuHeight), 0, vbar->maximum());
        }
    return 0;
}

QRect TimelineView::Private::plotRect() const
{
    const int right = q->width() - (vbar && vbar->isVisible() ? vbar->sizeHint().width() : 0);
    return QRect(QPoint(kLabelWidth, kAxisHeight),
                 QPoint(std::max(kLabelWidth, right - 1), std::max(kAxisHeight, q->height() - 1)));
}

void TimelineView::Private::setScale(const TimeScale &next)
{
    TimeScale clamped = next;
    clamped.clamp();
    const bool changed = clamped.start != scale.start || clamped.end != scale.end;
    scale = clamped;
    if (!changed)
        return;
    invalidate();
    q->update();
    emit q->visibleRangeChanged(scale.start, scale.end);
}

void TimelineView::Private::toggleGroup(int group)
{
    Group &g = groups[std::size_t(group)];
    g.collapsed = !g.collapsed; // a selection inside stays selected, only not drawn
    hovered = -1;
    hoveredGapRow = -1;
    layoutRows();
    q->update();
}

// ---- geometry -----------------------------------------------------------------------------------

void TimelineView::Private::buildGeometry(const QRect &plot)
{
    Geometry &g = geometry;
    for (auto &v : g.rects)
        v.clear();
    g.gaps.clear();
    g.graphMarkers.clear();
    g.highlights.clear();
    g.labels.clear();
    g.ticks.clear();
    g.minorTicks.clear();
    g.valid = true;
    g.start = scale.start;
    g.end = scale.end;
    g.plot = plot;
    g.scroll = scroll();
    g.version = version;
    if (!run.trace)
        return;
    const TraceData &t = *run.trace;
    const int width = plot.width();
    const QFont small = smallFont(q->font());
    const QFontMetrics fm(small);

    // Ticks: a 1-2-5 step at least 100 px apart, labelled relative to the trace start.
    {
        const double minStep = 100.0 * scale.nsPerPixel();
        double step = 1;
        for (double decade = 1;; decade *= 10) {
            if (decade >= minStep) {
                step = decade;
                break;
            }
            if (2 * decade >= minStep) {
                step = 2 * decade;
                break;
            }
            if (5 * decade >= minStep) {
                step = 5 * decade;
                break;
            }
        }
        const int64_t istep = int64_t(step);
        // the unit fits the largest label in view, the decimals fit the step
        const int64_t origin = scale.lowerBound;
        const double magnitude =
            double(std::max(std::llabs(scale.end - origin), std::llabs(scale.start - origin)));
        double unit = 1;
        QString unitName = QStringLiteral("ns");
        if (magnitude >= 1e9) {
            unit = 1e9;
            unitName = QStringLiteral("s");
        } else if (magnitude >= 1e6) {
            unit = 1e6;
            unitName = QStringLiteral("ms");
        } else if (magnitude >= 1e3) {
            unit = 1e3;
            unitName = QStringLiteral("µs");
        }
        const int decimals = std::max(0, int(std::ceil(-std::log10(double(istep) / unit) - 1e-9)));
        const int64_t rel0 = scale.start - origin;
        const int64_t tick = rel0 >= 0 ? (rel0 + istep - 1) / istep * istep : -((-rel0) / istep * istep);
        const int minorCount =
            (istep / int64_t(std::pow(10, std::floor(std::log10(double(istep)))))) == 2 ? 4 : 5;
        for (int64_t m = tick - istep; origin + m <= scale.end; m += istep) {
            for (int k = 1; k < minorCount; ++k) {
                const double x = scale.toPixel(origin + m + istep * k / minorCount);
                if (x >= 0 && x < width)
                    g.minorTicks.push_back(plot.left() + int(x));
            }
            if (m < tick)
                continue;
            const double x = scale.toPixel(origin + m);
            if (x < 0 || x >= width)
                continue;
            const QString text =
                m == 0 ? QStringLiteral("0")
                       : QStringLiteral("%1 %2").arg(double(m) / unit, 0, 'f', decimals).arg(unitName);
            g.ticks.emplace_back(plot.left() + int(x), text);
        }
    }

    const int top = plot.top(), bottom = plot.bottom();
    for (const Row &row : rows) {
        const int y = rowTop(row);
        if (y + row.height <= top || y > bottom)
            continue;
        if (row.header)
            continue;
        const TrackRow &tr = tracks[std::size_t(row.index)];
        // idle gaps behind the kernels, the whole row high
        if (tr.stream) {
            tr.gaps.sweep(scale, width, 1.0, [&](std::size_t, int left, int right) {
                g.gaps.emplace_back(plot.left() + left, y + 1, right - left, row.height - 2);
            });
        }
        for (std::size_t l = 0; l < tr.lanes.size(); ++l) {
            const Lane &lane = tr.lanes[l];
            const int lh = tr.laneHeight;
            const int ly = y + kRowPad + int(l) * lh;
            if (ly + lh <= top || ly > bottom)
                continue;
            const Lane &launches = tr.launches[l];
            if (!launches.starts.empty())
                launches.sweep(scale, width, 0.0, [&](std::size_t i, int left, int right) {
                    const int w = right - left;
                    g.rects[launches.colours[i]].emplace_back(plot.left() + left, ly, w >= 3 ? w - 1 : w,
                                                              lh - 2);
                });
            if (!highlightedName.empty() && tr.stream)
                addHighlights(lane, plot.left(), ly, lh - 2);
            lane.sweep(scale, width, 0.0, [&](std::size_t i, int left, int right) {
                const int w = right - left;
                QRect r(plot.left() + left, ly, w >= 3 ? w - 1 : w, lh - 2);
                g.rects[lane.colours[i]].push_back(r);
                if (w > kMinTextWidth) {
                    // the visible part of the event, for its name
                    const QRect textRect = r.adjusted(3, 0, -2, 0);
                    const QString text =
                        fm.elidedText(t.qname(lane.items[i]), Qt::ElideRight, textRect.width());
                    if (!text.isEmpty() && text != QStringLiteral("…"))
                        g.labels.push_back({textRect, text, lane.colours[i]});
                }
            });
        }
        // graph launches: a strong marker even when zoomed out
        for (auto it = std::lower_bound(tr.graphLaunches.begin(), tr.graphLaunches.end(), scale.start,
                                        [&t](uint32_t e, int64_t v) { return t.end(e) < v; });
             it != tr.graphLaunches.end() && t.start[*it] <= scale.end; ++it) {
            if (t.end(*it) < scale.start)
                continue;
            const double x = std::max(0.0, scale.toPixel(t.start[*it]));
            const int ly = y + kRowPad + int(laneOf[*it]) * tr.laneHeight;
            g.graphMarkers.emplace_back(plot.left() + int(x), ly, 2, tr.laneHeight - 2);
        }
    }
}

// Every highlighted kernel in view gets a rect, at least 2 px wide so that a short kernel shows when
// zoomed out; kernels falling on the same pixel column as the previous one are skipped.
void TimelineView::Private::addHighlights(const Lane &lane, int left, int y, int height)
{
    const TraceData &t = *run.trace;
    const int width = geometry.plot.width();
    auto first = std::lower_bound(lane.reach.begin(), lane.reach.end(), scale.start);
    int lastRight = std::numeric_limits<int>::min();
    for (auto i = std::size_t(first - lane.reach.begin()); i < lane.starts.size() && lane.starts[i] <= scale.end;
         ++i) {
        const uint32_t e = lane.items[i];
        if (lane.ends[i] < scale.start || !highlightedName[t.name[e]])
            continue;
        const int x0 = int(std::clamp(scale.toPixel(lane.starts[i]), -5.0, width + 5.0));
        const int x1 = std::max(x0 + 2, int(std::clamp(scale.toPixel(lane.ends[i]), -5.0, width + 5.0)));
        if (x1 <= lastRight)
            continue;
        geometry.highlights.emplace_back(left + std::max(x0, lastRight), y, x1 - std::max(x0, lastRight), height);
        lastRight = x1;
    }
}

// ---- hit testing --------------------------------------------------------------------------------

int TimelineView::Private::rowAt(int y) const
{
    const int content = y - kAxisHeight + scroll();
    if (y < kAxisHeight)
        return -1;
    auto it =
        std::upper_bound(rows.begin(), rows.end(), content, [](int v, const Row &r) { return v < r.y; });
    if (it == rows.begin())
        return -1;
    --it;
    return content < it->y + it->height ? int(it - rows.begin()) : -1;
}

int64_t TimelineView::Private::eventAt(const TrackRow &tr, int lane, double px) const
{
    if (lane < 0 || lane >= int(tr.lanes.size()))
        return -1;
    const Lane &l = tr.lanes[std::size_t(lane)];
    const int64_t t = scale.start + int64_t(std::llround(px * scale.nsPerPixel()));
    const int64_t slop = std::max<int64_t>(0, std::llround(kHitSlop * scale.nsPerPixel()));
    auto it = std::upper_bound(l.starts.begin(), l.starts.end(), t + slop);
    int64_t best = -1;
    int64_t bestDistance = std::numeric_limits<int64_t>::max();
    int budget = 100000;
    for (auto i = std::ptrdiff_t(it - l.starts.begin()) - 1;
         i >= 0 && l.reach[std::size_t(i)] >= t - slop && budget-- > 0; --i) {
        const int64_t s = l.starts[std::size_t(i)], e = l.ends[std::size_t(i)];
        const int64_t distance = t < s ? s - t : t > e ? t - e : 0;
        if (distance > slop)
            continue;
        if (distance == 0) // the latest-starting one containing t: the innermost
            return l.items[std::size_t(i)];
        if (distance < bestDistance) {
            bestDistance = distance;
            best = l.items[std::size_t(i)];
        }
    }
    return best;
}

Hit TimelineView::Private::hitTest(const QPoint &pos) const
{
    Hit hit;
    const int r = rowAt(pos.y());
    if (r < 0)
        return hit;
    hit.row = r;
    const Row &row = rows[std::size_t(r)];
    if (row.header) {
        hit.type = Hit::Header;
        return hit;
    }
    const QRect plot = plotRect();
    if (pos.x() < plot.left()) {
        hit.type = Hit::TrackLabel;
        return hit;
    }
    hit.type = Hit::Track;
    const TrackRow &tr = tracks[std::size_t(row.index)];
    const int inRow = pos.y() - rowTop(row) - kRowPad;
    hit.lane = std::clamp(inRow / tr.laneHeight, 0, int(tr.lanes.size()) - 1);
    const double px = pos.x() - plot.left();
    if (inRow >= 0 && inRow < int(tr.lanes.size()) * tr.laneHeight)
        hit.event = eventAt(tr, hit.lane, px);
    if (hit.event < 0 && tr.stream && !tr.stream->gaps.empty()) {
        const int64_t t = scale.toTime(px);
        const auto &gaps = tr.stream->gaps;
        auto it = std::upper_bound(gaps.begin(), gaps.end(), t,
                                   [](int64_t v, const IdleGap &gp) { return v < gp.start; });
        if (it != gaps.begin() && t <= (it - 1)->end)
            hit.gap = int64_t(it - gaps.begin()) - 1;
    }
    return hit;
}

QRect TimelineView::Private::eventRect(uint32_t e) const
{
    if (!run.trace || e >= run.trace->eventCount())
        return {};
    const TraceData &t = *run.trace;
    const int32_t tr = trackRowOf[t.track[e]];
    if (tr < 0)
        return {};
    const int r = rowOfTrackRow[std::size_t(tr)];
    if (r < 0)
        return {};
    const QRect plot = plotRect();
    const double limit = plot.width() + 2000.0;
    const double x0 = std::clamp(scale.toPixel(t.start[e]), -2000.0, limit);
    const double x1 = std::clamp(scale.toPixel(t.end(e)), -2000.0, limit);
    const int left = int(std::floor(x0));
    const int right = std::max(left + 1, int(std::ceil(x1)));
    const int lh = tracks[std::size_t(tr)].laneHeight;
    const int y = rowTop(rows[std::size_t(r)]) + kRowPad + int(laneOf[e]) * lh;
    return QRect(plot.left() + left, y, right - left, lh - 2);
}

int64_t TimelineView::Private::timeAtX(int x) const
{
    const QRect plot = plotRect();
    return scale.toTime(std::clamp(double(x - plot.left()), 0.0, double(plot.width())));
}

QString TimelineView::Private::gapText(const TrackRow &tr, std::size_t index) const
{
    const TraceData &t = *run.trace;
    const IdleGap &gap = tr.stream->gaps[index];
    QString text =
        TimelineView::tr("idle %1 — %2").arg(formatDuration(double(gap.length())), gapCauseName(gap.cause));
    if (gap.cpuEvent >= 0)
        text += TimelineView::tr("; CPU in %1").arg(elideText(t.nameOf(uint32_t(gap.cpuEvent)), 120));
    text = text.toHtmlEscaped();
    text += QStringLiteral("<br><span style='color:#666'>%1</span>")
                .arg(TimelineView::tr("after %1<br>before %2")
                         .arg(elideText(t.nameOf(gap.before), 90).toHtmlEscaped(),
                              elideText(t.nameOf(gap.after), 90).toHtmlEscaped()));
    return QStringLiteral("<p style='white-space:pre'>%1</p>").arg(text);
}

// ---- painting -----------------------------------------------------------------------------------

void TimelineView::Private::paintAxis(QPainter &p, const QRect &plot)
{
    const QRect axis(plot.left(), 0, plot.width(), kAxisHeight);
    p.fillRect(QRect(0, 0, q->width(), kAxisHeight), QColor(0xf3, 0xf4, 0xf6));
    p.setPen(QColor(0xc8, 0xcc, 0xd2));
    p.drawLine(0, kAxisHeight - 1, q->width(), kAxisHeight - 1);
    const QFont small = smallFont(q->font());
    p.setFont(small);
    p.setPen(QColor(0x9a, 0xa0, 0xa8));
    for (int x : geometry.minorTicks)
        p.drawLine(x, kAxisHeight - 4, x, kAxisHeight - 1);
    const QFontMetrics fm(small);
    for (const auto &[x, text] : geometry.ticks) {
        p.setPen(QColor(0x70, 0x76, 0x80));
        p.drawLine(x, kAxisHeight - 9, x, kAxisHeight - 1);
        p.setPen(QColor(0x30, 0x34, 0x3a));
        const int w = fm.horizontalAdvance(text);
        if (x + 3 + w < axis.right())
            p.drawText(QPoint(x + 3, kAxisHeight - 11), text);
    }
    // the visible span in the corner above the labels
    p.setPen(QColor(0x30, 0x34, 0x3a));
    if (run.trace)
        p.drawText(QRect(8, 0, kLabelWidth - 12, kAxisHeight - 2), Qt::AlignVCenter | Qt::AlignLeft,
                   TimelineView::tr("span %1").arg(formatDuration(double(scale.span()))));
}

void TimelineView::Private::paintLabels(QPainter &p, const QRect &plot)
{
    const QRect column(0, kAxisHeight, kLabelWidth, q->height() - kAxisHeight);
    p.save();
    p.setClipRect(column); // rows scrolled up stay under the axis
    p.fillRect(column, QColor(0xf7, 0xf8, 0xfa));
    QFont bold = q->font();
    bold.setBold(true);
    const QFontMetrics fm(q->font()), fmBold(bold);
    for (const Row &row : rows) {
        const int y = rowTop(row);
        if (y + row.height <= plot.top() || y > plot.bottom())
            continue;
        if (row.header) {
            const Group &g = groups[std::size_t(row.index)];
            p.fillRect(QRect(0, y, kLabelWidth, row.height),
                       g.gpu ? QColor(0xe4, 0xea, 0xf2) : QColor(0xe8, 0xe9, 0xee));
            p.setPen(QColor(0xd2, 0xd6, 0xdd));
            p.drawLine(0, y + row.height - 1, kLabelWidth, y + row.height - 1);
            // disclosure triangle
            p.setRenderHint(QPainter::Antialiasing, true);
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(0x50, 0x56, 0x60));
            const QPointF c(10, y + row.height / 2.0);
            QPolygonF tri;
            if (g.collapsed)
                tri << c + QPointF(-2.5, -4.5) << c + QPointF(3.5, 0) << c + QPointF(-2.5, 4.5);
            else
                tri << c + QPointF(-4.5, -2.5) << c + QPointF(4.5, -2.5) << c + QPointF(0, 3.5);
            p.drawPolygon(tri);
            p.setRenderHint(QPainter::Antialiasing, false);
            p.setBrush(Qt::NoBrush);
            p.setFont(bold);
            p.setPen(QColor(0x20, 0x24, 0x2a));
            const QString title = fmBold.elidedText(g.title, Qt::ElideMiddle, kLabelWidth - 26);
            p.drawText(QRect(20, y, kLabelWidth - 24, row.height), Qt::AlignVCenter | Qt::AlignLeft, title);
            continue;
        }
        const TrackRow &tr = tracks[std::size_t(row.index)];
        p.setFont(q->font());
        p.setPen(QColor(0x28, 0x2c, 0x32));
        const QString text = fm.elidedText(tr.label, Qt::ElideMiddle, kLabelWidth - 30);
        p.drawText(QRect(20, y + kRowPad, kLabelWidth - 24, tr.laneHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   text);
        p.setPen(QColor(0xe3, 0xe5, 0xe9));
        p.drawLine(0, y + row.height - 1, kLabelWidth, y + row.height - 1);
    }
    p.setPen(QColor(0xc8, 0xcc, 0xd2));
    p.drawLine(kLabelWidth - 1, kAxisHeight, kLabelWidth - 1, q->height());
    p.restore();
}

void TimelineView::Private::paintArrow(QPainter &p, const QRect &from, const QRect &to, const QColor &colour)
{
    if (!from.isValid() || !to.isValid())
        return;
    const QPointF a(from.left() + std::min(4.0, from.width() / 2.0),
                    from.top() < to.top() ? from.bottom() + 1 : from.top());
    const QPointF b(to.left() + std::min(2.0, to.width() / 2.0),
                    from.top() < to.top() ? to.top() : to.bottom() + 1);
    p.setPen(QPen(colour, 1.6));
    p.setBrush(Qt::NoBrush);
    QPainterPath path(a);
    const double dy = (b.y() - a.y()) * 0.5;
    path.cubicTo(a + QPointF(0, dy), b - QPointF(0, dy), b);
    p.drawPath(path);
    // head along the final direction (vertical)
    const double dir = b.y() >= a.y() ? -1 : 1;
    QPolygonF head;
    head << b << b + QPointF(-4.5, dir * 8) << b + QPointF(4.5, dir * 8);
    p.setPen(Qt::NoPen);
    p.setBrush(colour);
    p.drawPolygon(head);
    p.setBrush(Qt::NoBrush);
}

void TimelineView::Private::paintGraphBracket(QPainter &p, uint32_t launch, bool strong)
{
    const TraceData &t = *run.trace;
    const std::vector<uint32_t> kernels = run.analysis->kernelsOf(launch);
    if (kernels.empty())
        return;
    // one bracket per stream the graph ran on: first kernel start .. last kernel end
    std::map<uint32_t, std::pair<int64_t, int64_t>> extent;
    for (uint32_t k : kernels) {
        auto [it, inserted] = extent.try_emplace(t.track[k], t.start[k], t.end(k));
        if (!inserted) {
            it->second.first = std::min(it->second.first, t.start[k]);
            it->second.second = std::max(it->second.second, t.end(k));
        }
    }
    const QColor red(0xc0, 0x1f, 0x1f);
    const QRect plot = plotRect();
    for (const auto &[track, range] : extent) {
        const int32_t tr = trackRowOf[track];
        if (tr < 0 || rowOfTrackRow[std::size_t(tr)] < 0)
            continue;
        const Row &row = rows[std::size_t(rowOfTrackRow[std::size_t(tr)])];
        const double x0 = std::clamp(scale.toPixel(range.first), -10.0, plot.width() + 10.0);
        const double x1 = std::clamp(scale.toPixel(range.second), -10.0, plot.width() + 10.0);
        const QRectF box(plot.left() + x0, rowTop(row) + 1, std::max(2.0, x1 - x0), row.height - 2);
        p.setPen(QPen(red, strong ? 2.2 : 1.5));
        // bracket: top line with end ticks
        p.drawLine(box.topLeft(), box.topRight());
        p.drawLine(box.topLeft(), box.bottomLeft());
        p.drawLine(box.topRight(), box.bottomRight());
        p.drawLine(box.bottomLeft(), box.bottomLeft() + QPointF(6, 0));
        p.drawLine(box.bottomRight(), box.bottomRight() - QPointF(6, 0));
    }
    paintArrow(p, eventRect(launch), eventRect(kernels.front()), red);
}

void TimelineView::Private::paintLinks(QPainter &p, int64_t e, bool strong)
{
    if (e < 0 || !run.trace || !run.analysis)
        return;
    const TraceData &t = *run.trace;
    const uint32_t ev = uint32_t(e);
    const QColor arrow = strong ? QColor(0x1f, 0x2d, 0x3d) : QColor(0x34, 0x49, 0x5e, 200);
    switch (t.kind[ev]) {
    case EventKind::Kernel:
    case EventKind::Memcpy:
    case EventKind::Memset: {
        const int64_t launch = run.analysis->launchOf(ev);
        if (launch < 0)
            break;
        if (t.kind[std::size_t(launch)] == EventKind::GraphLaunch)
            paintGraphBracket(p, uint32_t(launch), strong);
        else
            paintArrow(p, eventRect(uint32_t(launch)), eventRect(ev), arrow);
        break;
    }
    case EventKind::KernelLaunch: {
        const std::vector<uint32_t> kernels = run.analysis->kernelsOf(ev);
        for (std::size_t i = 0; i < kernels.size() && i < std::size_t(kMaxArrows); ++i)
            paintArrow(p, eventRect(ev), eventRect(kernels[i]), arrow);
        break;
    }
    case EventKind::GraphLaunch:
        paintGraphBracket(p, ev, strong);
        break;
    default:
        break;
    }
}

// ---- TimelineView -------------------------------------------------------------------------------

TimelineView::TimelineView(QWidget *parent) : QWidget(parent), d(std::make_unique<Private>(this))
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(kLabelWidth + 120, kAxisHeight + 60);
    d->vbar = new QScrollBar(Qt::Vertical, this);
    d->vbar->hide();
    connect(d->vbar, &QScrollBar::actionTriggered, this, [this] { d->keepGpuInView = false; });
    connect(d->vbar, &QScrollBar::valueChanged, this, [this] {
        d->invalidate();
        update();
    });
    d->build();
}

TimelineView::~TimelineView() = default;

void TimelineView::setRun(const LoadedRun &run)
{
    const bool hadSelection = d->selected >= 0, hadRange = d->hasRange;
    d->run = run;
    d->keepGpuInView = true;
    d->build();
    update();
    emit visibleRangeChanged(d->scale.start, d->scale.end);
    if (hadSelection)
        emit eventSelected(-1);
    if (hadRange)
        emit rangeSelected(0, 0);
}

void TimelineView::setHighlightedKernels(const QStringList &names)
{
    d->highlightedName.clear();
    if (d->run.trace && !names.isEmpty()) {
        const TraceData &t = *d->run.trace;
        d->highlightedName.assign(t.strings.size(), false);
        bool any = false;
        for (const QString &name : names) {
            const QByteArray utf8 = name.toUtf8();
            const int64_t id = t.strings.find(std::string_view(utf8.constData(), std::size_t(utf8.size())));
            if (id >= 0) {
                d->highlightedName[std::size_t(id)] = true;
                any = true;
            }
        }
        if (!any) // none of them in this run: fade everything, so "not here" is visible too
            d->highlightedName.assign(t.strings.size(), false);
    }
    d->invalidate();
    update();
}

bool TimelineView::hasHighlight() const
{
    return !d->highlightedName.empty();
}

int TimelineView::highlightCount() const
{
    return int(d->geometry.highlights.size());
}

const LoadedRun &TimelineView::run() const
{
    return d->run;
}

int64_t TimelineView::visibleStart() const
{
    return d->scale.start;
}

int64_t TimelineView::visibleEnd() const
{
    return d->scale.end;
}

void TimelineView::setVisibleRange(int64_t start, int64_t end)
{
    TimeScale next = d->scale;
    next.setRange(start, end);
    d->setScale(next);
}

void TimelineView::fit()
{
    TimeScale next = d->scale;
    next.fit();
    d->setScale(next);
}

void TimelineView::zoomBy(double factor)
{
    TimeScale next = d->scale;
    next.zoom(factor, next.width / 2);
    d->setScale(next);
}

int64_t TimelineView::selectedEvent() const
{
    return d->selected;
}

void TimelineView::selectEvent(int64_t event)
{
    if (!d->run.trace || event < 0 || uint64_t(event) >= d->run.trace->eventCount())
        event = -1;
    if (event == d->selected)
        return;
    d->selected = event;
    update();
    emit eventSelected(event);
}

const TimeScale &TimelineView::timeScale() const
{
    return d->scale;
}

QRect TimelineView::plotRect() const
{
    return d->plotRect();
}

QRect TimelineView::eventRect(uint32_t event) const
{
    return d->eventRect(event);
}

void TimelineView::setMaximumSpan(int64_t ns)
{
    d->maxSpan = std::max<int64_t>(0, ns);
    TimeScale next = d->scale;
    next.maxSpan = d->maxSpan;
    d->setScale(next);
}

int64_t TimelineView::selectionStart() const
{
    return d->hasRange ? d->rangeStart : 0;
}

int64_t TimelineView::selectionEnd() const
{
    return d->hasRange ? d->rangeEnd : 0;
}

QSize TimelineView::sizeHint() const
{
    return QSize(1000, 420);
}

QString TimelineView::describeEvent(const LoadedRun &run, uint32_t e)
{
    if (!run.trace || e >= run.trace->eventCount())
        return {};
    const TraceData &t = *run.trace;
    const int64_t origin = traceOrigin(t);
    auto at = [origin](int64_t ns) { return QStringLiteral("+%1").arg(formatDuration(double(ns - origin))); };
    QString html = QStringLiteral("<p style='margin:0'><b>%1</b></p><table cellspacing='0' cellpadding='1'>")
                       .arg(breakable(t.qname(e)));
    auto row = [&html](const QString &key, const QString &valueHtml) {
        html += QStringLiteral("<tr><td style='color:#555;padding-right:8px'>%1</td><td>%2</td></tr>")
                    .arg(key.toHtmlEscaped(), valueHtml);
    };
    row(tr("Kind"), kindName(t.kind[e]).toHtmlEscaped());
    row(tr("Track"), t.tracks[t.track[e]].displayName().toHtmlEscaped());
    row(tr("Start"), QStringLiteral("%1 <span style='color:#777'>(%2 ns)</span>")
                         .arg(at(t.start[e]).toHtmlEscaped(), QString::number(t.start[e])));
    row(tr("Duration"), formatDuration(double(t.duration[e])).toHtmlEscaped());
    row(tr("End"), QStringLiteral("%1 <span style='color:#777'>(%2 ns)</span>")
                       .arg(at(t.end(e)).toHtmlEscaped(), QString::number(t.end(e))));
    if (t.category[e] != 0)
        row(tr("Category"), t.strings.qstring(t.category[e]).toHtmlEscaped());

    if (run.analysis) {
        const TraceAnalysis &a = *run.analysis;
        const EventKind kind = t.kind[e];
        if (kind == EventKind::Kernel || kind == EventKind::Memcpy || kind == EventKind::Memset) {
            const int64_t launch = a.launchOf(e);
            if (launch >= 0) {
                const uint32_t l = uint32_t(launch);
                row(tr("Launch"),
                    QStringLiteral("%1 at %2").arg(breakable(t.qname(l)), at(t.start[l]).toHtmlEscaped()));
                row(t.kind[l] == EventKind::GraphLaunch ? tr("Graph launch delay") : tr("Launch delay"),
                    formatDuration(double(t.start[e] - t.start[l])).toHtmlEscaped());
            }
        }
        if (kind == EventKind::KernelLaunch || kind == EventKind::GraphLaunch) {
            const std::vector<uint32_t> kernels = a.kernelsOf(e);
            row(tr("Kernels"), QString::number(kernels.size()));
            if (!kernels.empty()) {
                const uint32_t k = kernels.front();
                row(tr("First kernel"),
                    QStringLiteral("%1 at %2, %3 after the launch")
                        .arg(breakable(t.qname(k)), at(t.start[k]).toHtmlEscaped(),
                             formatDuration(double(t.start[k] - t.start[e])).toHtmlEscaped()));
                if (kernels.size() > 1) {
                    int64_t last = t.end(kernels.front());
                    for (uint32_t kk : kernels)
                        last = std::max(last, t.end(kk));
                    row(tr("Kernels span"), formatDuration(double(last - t.start[k])).toHtmlEscaped());
                }
            }
        }
    }
    if (t.opPath[e] != 0)
        row(tr("Scope path"), breakable(t.strings.qstring(t.opPath[e])));
    html += QStringLiteral("</table>");

    if (t.argsBegin.size() > e + 1 && t.argsBegin[e + 1] > t.argsBegin[e]) {
        html +=
            QStringLiteral("<p style='margin:4px 0 0 0'><b>%1</b></p><table cellspacing='0' cellpadding='1'>")
                .arg(tr("Args"));
        for (uint32_t i = t.argsBegin[e]; i < t.argsBegin[e + 1]; ++i) {
            const ArgEntry &arg = t.args[i];
            const std::string_view value = std::string_view(t.argText).substr(arg.offset, arg.length);
            QString text = breakable(elideText(value, 300));
            text.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
            html += QStringLiteral("<tr><td style='color:#555;padding-right:8px'>%1</td><td>%2</td></tr>")
                        .arg(t.strings.qstring(arg.key).toHtmlEscaped(), text);
        }
        html += QStringLiteral("</table>");
    }
    return html;
}

bool TimelineView::event(QEvent *event)
{
    if (event->type() == QEvent::FontChange)
        d->invalidate(); // labels are elided with the font
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const Hit hit = d->hitTest(help->pos());
        QString text;
        QRect area;
        if (hit.type == Hit::Header) {
            const Group &g = d->groups[std::size_t(d->rows[std::size_t(hit.row)].index)];
            text = QStringLiteral("<b>%1</b><br>%2<br><i>%3</i>")
                       .arg(g.title.toHtmlEscaped(), g.detail.toHtmlEscaped(),
                            g.collapsed ? tr("click to expand") : tr("click to collapse"));
        } else if (hit.type == Hit::TrackLabel) {
            const TrackRow &tr = d->tracks[std::size_t(d->rows[std::size_t(hit.row)].index)];
            text = tr.tooltip;
            if (tr.stream)
                text += QStringLiteral("<br>") +
                        TimelineView::tr("%n kernel(s), busy %1, idle %2", nullptr, int(tr.stream->kernels))
                            .arg(formatDuration(double(tr.stream->busyNs)),
                                 formatDuration(double(tr.stream->idleNs())));
        } else if (hit.type == Hit::Track && hit.event >= 0) {
            text = describeEvent(d->run, uint32_t(hit.event));
            area = d->eventRect(uint32_t(hit.event)).adjusted(-kHitSlop, 0, kHitSlop, 0);
        } else if (hit.type == Hit::Track && hit.gap >= 0) {
            const Row &row = d->rows[std::size_t(hit.row)];
            const TrackRow &tr = d->tracks[std::size_t(row.index)];
            text = d->gapText(tr, std::size_t(hit.gap));
            const IdleGap &gap = tr.stream->gaps[std::size_t(hit.gap)];
            const QRect plot = d->plotRect();
            const double x0 = std::clamp(d->scale.toPixel(gap.start), -1.0, plot.width() + 1.0);
            const double x1 = std::clamp(d->scale.toPixel(gap.end), -1.0, plot.width() + 1.0);
            area = QRect(plot.left() + int(x0), d->rowTop(row), std::max(1, int(x1 - x0)), row.height);
        }
        if (text.isEmpty()) {
            QToolTip::hideText();
            event->ignore();
        } else {
            QToolTip::showText(help->globalPos(), text, this, area);
        }
        return true;
    }
    return QWidget::event(event);
}

void TimelineView::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, false);
    const QRect plot = d->plotRect();
    if (!d->geometry.valid || d->geometry.start != d->scale.start || d->geometry.end != d->scale.end ||
        d->geometry.plot != plot || d->geometry.scroll != d->scroll() || d->geometry.version != d->version)
        d->buildGeometry(plot);
    const Geometry &g = d->geometry;
    const std::array<Swatch, kSlots> &swatches = swatchTable();

    p.fillRect(rect(), Qt::white);
    if (!d->run.trace) {
        p.setPen(QColor(0x80, 0x80, 0x80));
        p.drawText(rect(), Qt::AlignCenter, d->run.error.isEmpty() ? tr("No trace") : d->run.error);
        return;
    }

    // plot: row backgrounds and headers
    p.save();
    p.setClipRect(plot);
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1) {
            p.setPen(QColor(0xee, 0xef, 0xf2)); // grid over the track rows, under the headers
            for (const auto &tick : g.ticks)
                p.drawLine(tick.first, plot.top(), tick.first, plot.bottom());
        }
        for (const Row &row : d->rows) {
            const int y = d->rowTop(row);
            if (y + row.height <= plot.top() || y > plot.bottom())
                continue;
            if (row.header != (pass == 1))
                continue;
            if (row.header) {
                const Group &grp = d->groups[std::size_t(row.index)];
                p.fillRect(QRect(plot.left(), y, plot.width(), row.height),
                           grp.gpu ? QColor(0xe4, 0xea, 0xf2) : QColor(0xe8, 0xe9, 0xee));
                p.setPen(QColor(0xd2, 0xd6, 0xdd));
                p.drawLine(plot.left(), y + row.height - 1, plot.right(), y + row.height - 1);
                p.setPen(QColor(0x55, 0x5b, 0x66));
                p.drawText(QRect(plot.left() + 8, y, plot.width() - 16, row.height),
                           Qt::AlignVCenter | Qt::AlignLeft,
                           grp.collapsed ? grp.detail + tr(" — collapsed") : grp.detail);
                continue;
            }
            const TrackRow &tr = d->tracks[std::size_t(row.index)];
            if (tr.stream)
                p.fillRect(QRect(plot.left(), y, plot.width(), row.height), QColor(0xfb, 0xfc, 0xfe));
            p.setPen(QColor(0xe3, 0xe5, 0xe9));
            p.drawLine(plot.left(), y + row.height - 1, plot.right(), y + row.height - 1);
        }
    }
    // idle gaps: translucent red with a hatch
    if (!g.gaps.empty()) {
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0xe7, 0x4c, 0x3c, 38));
        p.drawRects(g.gaps.data(), int(g.gaps.size()));
        p.setBrush(QBrush(QColor(0xd0, 0x3a, 0x2a, 110), Qt::BDiagPattern));
        p.drawRects(g.gaps.data(), int(g.gaps.size()));
    }
    // events, one batch per colour
    p.setPen(Qt::NoPen);
    static const std::array<int, kSlots> order = [] {
        std::array<int, kSlots> o{};
        int n = 0;
        for (int s = 0; s < kSlots; ++s)
            if (s != SlotLaunch && s != SlotGraphLaunch)
                o[std::size_t(n++)] = s;
        o[std::size_t(n++)] = SlotLaunch; // over the slices they merge with when zoomed out
        o[std::size_t(n)] = SlotGraphLaunch;
        return o;
    }();
    for (int s : order) {
        const auto &rects = g.rects[std::size_t(s)];
        if (rects.empty())
            continue;
        p.setBrush(swatches[std::size_t(s)].fill);
        p.drawRects(rects.data(), int(rects.size()));
    }
    if (!g.graphMarkers.empty()) {
        p.setBrush(QColor(0x8b, 0x00, 0x00));
        p.drawRects(g.graphMarkers.data(), int(g.graphMarkers.size()));
    }
    p.setBrush(Qt::NoBrush);
    // names inside wide rects
    const QFont small = smallFont(font());
    p.setFont(small);
    for (const Label &label : g.labels) {
        p.setPen(swatches[label.slot].text);
        p.drawText(label.rect, Qt::AlignVCenter | Qt::AlignLeft, label.text);
    }

    // highlighted kernels: everything else is faded, they keep their colour with a dark outline
    if (!d->highlightedName.empty()) {
        p.fillRect(plot, QColor(255, 255, 255, 150));
        p.setPen(QPen(QColor(0xd3, 0x54, 0x00), 1));
        p.setBrush(QColor(0xf3, 0x9c, 0x12));
        for (const QRect &r : g.highlights)
            p.drawRect(r.adjusted(0, 0, -1, -1));
        p.setBrush(Qt::NoBrush);
    }

    // selection overlays
    p.setRenderHint(QPainter::Antialiasing, true);
    if (d->hoveredGapRow >= 0 && d->hoveredGap >= 0) {
        const Row &row = d->rows[std::size_t(d->hoveredGapRow)];
        const TrackRow &tr = d->tracks[std::size_t(row.index)];
        const IdleGap &gap = tr.stream->gaps[std::size_t(d->hoveredGap)];
        const double x0 = std::clamp(d->scale.toPixel(gap.start), -5.0, plot.width() + 5.0);
        const double x1 = std::clamp(d->scale.toPixel(gap.end), -5.0, plot.width() + 5.0);
        p.setPen(QPen(QColor(0xc0, 0x1f, 0x1f), 1.2));
        p.drawRect(QRectF(plot.left() + x0, d->rowTop(row) + 1.5, std::max(1.0, x1 - x0), row.height - 3));
    }
    d->paintLinks(p, d->hovered, false);
    if (d->selected != d->hovered)
        d->paintLinks(p, d->selected, true);
    p.setRenderHint(QPainter::Antialiasing, false);
    if (d->hovered >= 0) {
        const QRect r = d->eventRect(uint32_t(d->hovered));
        p.setPen(QPen(QColor(0x20, 0x20, 0x20), 1));
        p.drawRect(r.adjusted(0, 0, -1, -1));
    }
    if (d->selected >= 0) {
        const QRect r = d->eventRect(uint32_t(d->selected));
        if (r.isValid()) {
            p.setPen(QPen(QColor(0x00, 0x00, 0x00), 2));
            p.drawRect(r.adjusted(-1, -1, 0, 0));
        }
    }
    if (d->hasRange || d->drag == Private::Drag::Select) {
        const double x0 = std::clamp(d->scale.toPixel(d->rangeStart), -5.0, plot.width() + 5.0);
        const double x1 = std::clamp(d->scale.toPixel(d->rangeEnd), -5.0, plot.width() + 5.0);
        const QRect band(plot.left() + int(std::min(x0, x1)), plot.top(),
                         std::max(1, int(std::fabs(x1 - x0))), plot.height());
        p.fillRect(band, QColor(0x2e, 0x86, 0xde, 45));
        p.setPen(QColor(0x1f, 0x6f, 0xbf));
        p.drawLine(band.topLeft(), band.bottomLeft());
        p.drawLine(band.topRight(), band.bottomRight());
        const QString text = formatDuration(double(std::llabs(d->rangeEnd - d->rangeStart)));
        const QFontMetrics fm(small);
        const QRect textRect(band.center().x() - fm.horizontalAdvance(text) / 2 - 5, plot.top() + 3,
                             fm.horizontalAdvance(text) + 10, fm.height() + 2);
        p.fillRect(textRect, QColor(0x1f, 0x6f, 0xbf));
        p.setPen(Qt::white);
        p.drawText(textRect, Qt::AlignCenter, text);
    }
    p.restore();

    d->paintAxis(p, plot);
    d->paintLabels(p, plot);
}

void TimelineView::resizeEvent(QResizeEvent *)
{
    d->updateScrollBar();
    d->invalidate();
}

void TimelineView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    d->pressPos = event->position().toPoint();
    d->pressScale = d->scale;
    d->pressed = true;
    d->moved = false;
    const bool inPlot = d->pressPos.x() >= d->plotRect().left() && d->pressPos.y() >= kAxisHeight;
    if (!inPlot) {
        d->drag = Private::Drag::None;
    } else if (event->modifiers() & Qt::ShiftModifier) {
        d->drag = Private::Drag::Select;
        d->rangeStart = d->rangeEnd = d->timeAtX(d->pressPos.x());
    } else {
        d->drag = Private::Drag::Pan;
        setCursor(Qt::ClosedHandCursor);
    }
    event->accept();
}

void TimelineView::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (d->drag != Private::Drag::None) {
        if ((pos - d->pressPos).manhattanLength() > kDragThreshold)
            d->moved = true;
        if (!d->moved)
            return;
        if (d->drag == Private::Drag::Pan) {
            TimeScale next = d->pressScale;
            next.pan(-double(pos.x() - d->pressPos.x()));
            d->setScale(next);
            if (d->vbar->isVisible())
                d->scrollTo(d->vbar->value() - (pos.y() - d->pressPos.y()));
            d->pressPos.setY(pos.y());
        } else {
            d->rangeEnd = d->timeAtX(pos.x());
            update();
        }
        return;
    }
    // hover
    const Hit hit = d->hitTest(pos);
    const int64_t hovered = hit.type == Hit::Track ? hit.event : -1;
    const int gapRow = hit.type == Hit::Track && hit.event < 0 && hit.gap >= 0 ? hit.row : -1;
    const int64_t gap = gapRow >= 0 ? hit.gap : -1;
    if (hovered != d->hovered || gapRow != d->hoveredGapRow || gap != d->hoveredGap) {
        d->hovered = hovered;
        d->hoveredGapRow = gapRow;
        d->hoveredGap = gap;
        update();
    }
    setCursor(hit.type == Hit::Header ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    const QPoint pos = event->position().toPoint();
    const Private::Drag drag = d->drag;
    d->drag = Private::Drag::None;
    unsetCursor();
    if (!std::exchange(d->pressed, false))
        return; // the release of a double click
    if (drag == Private::Drag::Select) {
        if (d->moved) {
            d->rangeEnd = d->timeAtX(pos.x());
            if (d->rangeEnd < d->rangeStart)
                std::swap(d->rangeStart, d->rangeEnd);
            d->hasRange = d->rangeEnd > d->rangeStart;
            update();
            emit rangeSelected(d->hasRange ? d->rangeStart : 0, d->hasRange ? d->rangeEnd : 0);
        } else if (d->hasRange) {
            d->hasRange = false;
            update();
            emit rangeSelected(0, 0);
        }
        return;
    }
    if (d->moved)
        return;
    // a click
    const Hit hit = d->hitTest(pos);
    if (hit.type == Hit::Header) {
        d->toggleGroup(d->rows[std::size_t(hit.row)].index);
        return;
    }
    if (hit.type == Hit::Track || drag == Private::Drag::Pan)
        selectEvent(hit.type == Hit::Track ? hit.event : -1);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event)
{
    const Hit hit = d->hitTest(event->position().toPoint());
    if (hit.type == Hit::Track && hit.event >= 0) {
        const TraceData &t = *d->run.trace;
        const uint32_t e = uint32_t(hit.event);
        const int64_t margin = std::max<int64_t>(t.duration[e] / 8, TimeScale::kMinSpan);
        setVisibleRange(t.start[e] - margin, t.end(e) + margin);
    } else {
        mousePressEvent(event); // a second click
    }
}

void TimelineView::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    const QPointF pos = event->position();
    const QRect plot = d->plotRect();
    const bool vertical =
        (event->modifiers() & (Qt::ControlModifier | Qt::ShiftModifier)) || pos.x() < plot.left();
    if (vertical) {
        // Shift+wheel may arrive as horizontal deltas on some platforms
        const int dy = delta.y() != 0 ? delta.y() : delta.x();
        d->scrollTo(d->vbar->value() - dy * 3 * kLaneHeight / 120);
        event->accept();
        return;
    }
    if (delta.y() != 0) {
        TimeScale next = d->scale;
        next.zoom(std::pow(1.2, delta.y() / 120.0),
                  std::clamp(pos.x() - plot.left(), 0.0, double(plot.width())));
        d->setScale(next);
    } else if (delta.x() != 0) {
        TimeScale next = d->scale;
        next.pan(-delta.x() / 120.0 * plot.width() / 10.0);
        d->setScale(next);
    }
    event->accept();
}

void TimelineView::keyPressEvent(QKeyEvent *event)
{
    const int w = d->plotRect().width();
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.5);
        break;
    case Qt::Key_Minus:
    case Qt::Key_Underscore:
        zoomBy(1 / 1.5);
        break;
    case Qt::Key_Left: {
        TimeScale next = d->scale;
        next.pan(-w / 8.0);
        d->setScale(next);
        break;
    }
    case Qt::Key_Right: {
        TimeScale next = d->scale;
        next.pan(w / 8.0);
        d->setScale(next);
        break;
    }
    case Qt::Key_Up:
        d->scrollTo(d->vbar->value() - 2 * kLaneHeight);
        break;
    case Qt::Key_Down:
        d->scrollTo(d->vbar->value() + 2 * kLaneHeight);
        break;
    case Qt::Key_PageUp:
        d->scrollTo(d->vbar->value() - d->vbar->pageStep());
        break;
    case Qt::Key_PageDown:
        d->scrollTo(d->vbar->value() + d->vbar->pageStep());
        break;
    case Qt::Key_F:
    case Qt::Key_Home:
        fit();
        break;
    case Qt::Key_Z:
        if (d->hasRange) {
            setVisibleRange(d->rangeStart, d->rangeEnd);
        } else if (d->selected >= 0) {
            const TraceData &t = *d->run.trace;
            const uint32_t e = uint32_t(d->selected);
            const int64_t margin = std::max<int64_t>(t.duration[e] / 8, TimeScale::kMinSpan);
            setVisibleRange(t.start[e] - margin, t.end(e) + margin);
        }
        break;
    case Qt::Key_Escape:
        if (d->hasRange) {
            d->hasRange = false;
            update();
            emit rangeSelected(0, 0);
        } else {
            selectEvent(-1);
        }
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TimelineView::leaveEvent(QEvent *)
{
    if (d->hovered >= 0 || d->hoveredGapRow >= 0) {
        d->hovered = -1;
        d->hoveredGapRow = -1;
        d->hoveredGap = -1;
        update();
    }
}

} // namespace scopeline
