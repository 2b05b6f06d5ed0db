// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/timelinetext.h"

#include "model/tables/durationformat.h"
#include "widgets/timeline/timelinetheme.h"

#include <QCoreApplication>

#include <algorithm>

namespace scopeline {

namespace {

QString tr(const char *text, int n = -1)
{
    return QCoreApplication::translate("TimelineView", text, nullptr, n);
}

// Long C++ kernel names have no spaces: zero-width spaces after separators let rich text wrap them.
QString breakable(const QString &whole)
{
    // a tooltip shows a few lines of a long name: the rest is never laid out
    constexpr int kMaxChars = 2000;
    const QString text = whole.size() > kMaxChars ? whole.left(kMaxChars) + QChar(0x2026) : whole;
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

QString elided(std::string_view text, int max)
{
    return boundedPrefix(text, max);
}

// chars that can show in width px (a char is at least a pixel wide), bounded
int charsFor(int width)
{
    return std::clamp(width + 16, 16, kMaxLaidOutChars);
}

QString dim(const QPalette &palette, double t)
{
    return TimelineTheme::mix(palette.color(QPalette::Base), palette.color(QPalette::Text), t).name();
}

QString fieldRows(const std::vector<EventField> &fields, const QString &keyColour, const QString &noteColour)
{
    QString html;
    for (const EventField &f : fields) {
        QString value = f.wrap ? breakable(f.value) : f.value.toHtmlEscaped();
        value.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
        if (!f.note.isEmpty())
            value +=
                QStringLiteral(" <span style='color:%1'>%2</span>").arg(noteColour, f.note.toHtmlEscaped());
        html += QStringLiteral("<tr><td style='color:%1;padding-right:8px'>%2</td><td>%3</td></tr>")
                    .arg(keyColour, f.key.toHtmlEscaped(), value);
    }
    return html;
}

} // namespace

QString boundedPrefix(std::string_view utf8, int chars)
{
    // a char is at most 4 bytes; a sequence cut at the end converts to U+FFFD, dropped with the cut
    const std::size_t bytes = std::size_t(chars) * 4 + 4;
    if (utf8.size() <= std::size_t(chars))
        return QString::fromUtf8(utf8.data(), qsizetype(utf8.size()));
    QString s = QString::fromUtf8(utf8.data(), qsizetype(std::min(utf8.size(), bytes)));
    if (s.size() <= chars && utf8.size() <= bytes)
        return s;
    s.truncate(chars);
    return s + QChar(0x2026);
}

QString boundedText(const QString &text)
{
    if (text.size() <= 2 * kMaxLaidOutChars)
        return text;
    return text.left(kMaxLaidOutChars) + QChar(0x2026) + text.right(kMaxLaidOutChars);
}

QString boundedElidedText(const QFontMetrics &fm, const QString &text, Qt::TextElideMode mode, int width)
{
    const int chars = charsFor(width);
    if (text.size() <= 2 * chars)
        return fm.elidedText(text, mode, width);
    QString bounded;
    switch (mode) {
    case Qt::ElideLeft:
        bounded = QChar(0x2026) + text.right(chars);
        break;
    case Qt::ElideMiddle:
        bounded = text.left(chars) + QChar(0x2026) + text.right(chars);
        break;
    default:
        bounded = text.left(chars) + QChar(0x2026);
        break;
    }
    return fm.elidedText(bounded, mode, width);
}

QString elidedEventName(const QFontMetrics &fm, const TraceData &t, uint32_t event, int width)
{
    // a demangled kernel's return type first: every box of a HIP or CUDA kernel had read "void…"
    std::string_view name = t.nameOf(event);
    if (name.size() > 5 && name.substr(0, 5) == "void ")
        name.remove_prefix(5);
    return fm.elidedText(boundedPrefix(name, charsFor(width)), Qt::ElideRight, width);
}

QString eventDetailsHtml(const EventDetails &d, const QPalette &palette)
{
    if (d.isEmpty())
        return {};
    const QString key = dim(palette, 0.67), note = dim(palette, 0.53);
    QString html = QStringLiteral("<p style='margin:0'><b>%1</b></p><table cellspacing='0' cellpadding='1'>")
                       .arg(breakable(d.title));
    html += fieldRows(d.fields, key, note) + QStringLiteral("</table>");
    if (!d.args.empty())
        html +=
            QStringLiteral("<p style='margin:4px 0 0 0'><b>%1</b></p><table cellspacing='0' cellpadding='1'>")
                .arg(tr("Args")) +
            fieldRows(d.args, key, note) + QStringLiteral("</table>");
    return html;
}

QString gapTooltipHtml(const TraceData &t, const IdleGap &gap, const QPalette &palette)
{
    QString text = tr("idle %1 — %2").arg(formatDuration(double(gap.length())), gapCauseName(gap.cause));
    if (gap.cpuEvent >= 0)
        text += tr("; CPU in %1").arg(elided(t.nameOf(uint32_t(gap.cpuEvent)), 120));
    text = text.toHtmlEscaped();
    text += QStringLiteral("<br><span style='color:%1'>%2</span>")
                .arg(dim(palette, 0.6), tr("after %1<br>before %2")
                                            .arg(elided(t.nameOf(gap.before), 90).toHtmlEscaped(),
                                                 elided(t.nameOf(gap.after), 90).toHtmlEscaped()));
    return QStringLiteral("<p style='white-space:pre'>%1</p>").arg(text);
}

QString trackTooltipHtml(const TraceData &t, const TimelineTrackRow &row)
{
    QString text = t.tracks[row.track].displayName().toHtmlEscaped();
    if (row.stream)
        text += QStringLiteral("<br>") + tr("%n kernel(s), busy %1, idle %2", int(row.stream->kernels))
                                             .arg(formatDuration(double(row.stream->busyNs)),
                                                  formatDuration(double(row.stream->idleNs())));
    return text;
}

QString groupTooltipHtml(const TimelineGroup &group, bool collapsed)
{
    return QStringLiteral("<b>%1</b><br>%2<br><i>%3</i>")
        .arg(group.title.toHtmlEscaped(), group.detail.toHtmlEscaped(),
             collapsed ? tr("click to expand") : tr("click to collapse"));
}

QString rangeSummaryHtml(const QString &title, const RangeSummary &s, int64_t origin)
{
    const QString percent = QString::number(s.busyPercent(), 'f', 1);
    QString html = tr("<b>%1</b> — %2 selected (+%3 … +%4)")
                       .arg(title.toHtmlEscaped(), formatDuration(double(s.lengthNs())),
                            formatDuration(double(s.start - origin)), formatDuration(double(s.end - origin)));
    html += QStringLiteral("<br>");
    html += tr("GPU busy <b>%1 %</b> (%2), idle %3")
                .arg(percent, formatDuration(double(s.busyNs)), formatDuration(double(s.idleNs())));
    html += QStringLiteral("<br>");
    html += tr("%1 launches (%2 kernel, %3 graph), %4 kernels")
                .arg(s.kernelLaunches + s.graphLaunches)
                .arg(s.kernelLaunches)
                .arg(s.graphLaunches)
                .arg(s.kernels);
    return html;
}

} // namespace scopeline
