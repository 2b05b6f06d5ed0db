// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/timelinetheme.h"

#include <QCoreApplication>

namespace scopeline {

namespace {

// Fills by style: kinds first, then the kernel hues (picked by a hash of the name). Mid-tone hues
// that read on white and on a dark base alike.
constexpr const char *kFills[kTimelineStyles] = {
    "#a6cee3", // other CPU slices: light blue
    "#bdbdbd", // runtime calls: grey
    "#f39c33", // kernel launches: orange
    "#d62728", // graph launches: red
    "#9467bd", // CPU annotations: purple
    "#c5b0d5", // GPU annotations: light purple
    "#e377c2", // memcpy: pink
    "#9c6b4e", // memset: brown
    "#8c9db5", // other GPU activity
    nullptr,   // instants: the text colour, dimmed (see below)
    "#c2188b", // communication kernels: magenta, apart from every compute hue
    // kernels
    "#4e79a7",
    "#59a14f",
    "#76b7b2",
    "#edc948",
    "#3d6e99",
    "#6a9fd4", //
    "#8cd17d",
    "#499894",
    "#c9a227",
    "#5f8f6f",
    "#a3c45a",
    "#7b8fbf",
};

double luma(const QColor &c)
{
    return 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue();
}

QColor withAlpha(QColor c, int alpha)
{
    c.setAlpha(alpha);
    return c;
}

} // namespace

QColor TimelineTheme::mix(const QColor &a, const QColor &b, double t)
{
    auto lerp = [t](int x, int y) { return int(x + (y - x) * t + 0.5); };
    return QColor(lerp(a.red(), b.red()), lerp(a.green(), b.green()), lerp(a.blue(), b.blue()),
                  lerp(a.alpha(), b.alpha()));
}

TimelineTheme TimelineTheme::fromPalette(const QPalette &palette)
{
    TimelineTheme th;
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    const QColor window = palette.color(QPalette::Window);
    const QColor windowText = palette.color(QPalette::WindowText);
    const QColor accent = palette.color(QPalette::Highlight);
    th.dark = luma(base) < 128;
    // ink(t): t of the way from the background to the text; the greys of the light theme are these
    auto ink = [&](double t) { return mix(base, text, t); };

    for (int i = 0; i < kTimelineStyles; ++i) {
        const QColor fill = kFills[i] ? QColor(QLatin1String(kFills[i])) : ink(0.75);
        th.swatches[std::size_t(i)] = {fill, luma(fill) < 150 ? QColor(Qt::white) : QColor(0x1e, 0x1e, 0x1e)};
    }
    th.background = base;
    th.streamBackground = mix(base, accent, 0.02);
    th.grid = ink(0.065);
    th.rowLine = ink(0.1);
    th.placeholderText = ink(0.5);

    th.cpuHeader = ink(0.085);
    th.gpuHeader = mix(th.cpuHeader, accent, 0.1);
    th.headerLine = ink(0.17);
    th.headerTitle = ink(0.87);
    th.headerDetail = ink(0.66);
    th.disclosure = ink(0.68);

    th.labelColumn = mix(base, window, 0.5);
    th.labelText = ink(0.84);
    th.columnLine = ink(0.2);
    th.axisBackground = mix(base, window, 0.75);
    th.minorTick = ink(0.38);
    th.majorTick = ink(0.55);
    th.axisText = ink(0.8);

    const auto cause = [](GapCause c) { return std::size_t(c); };
    th.gapFill[cause(GapCause::LaunchLate)] = QColor(0xe7, 0x4c, 0x3c, 38);
    th.gapHatch[cause(GapCause::LaunchLate)] = QColor(0xd0, 0x3a, 0x2a, th.dark ? 150 : 110);
    th.gapFill[cause(GapCause::GpuWaiting)] = QColor(0x3c, 0x78, 0xd8, 38);
    th.gapHatch[cause(GapCause::GpuWaiting)] =
        th.dark ? QColor(0x6a, 0x9c, 0xf0, 160) : QColor(0x2a, 0x5c, 0xb8, 120);
    th.gapFill[cause(GapCause::Unknown)] = QColor(0x80, 0x80, 0x80, 34);
    th.gapHatch[cause(GapCause::Unknown)] = withAlpha(ink(0.55), 130);
    th.gapOutline = th.dark ? QColor(0xff, 0x6b, 0x5b) : QColor(0xc0, 0x1f, 0x1f);

    th.graphMarker = th.dark ? QColor(0xff, 0x40, 0x40) : QColor(0x8b, 0x00, 0x00);
    th.graphBracket = th.gapOutline;
    th.fade = withAlpha(base, 150);
    th.highlightFill = QColor(0xf3, 0x9c, 0x12);
    th.highlightOutline = QColor(0xd3, 0x54, 0x00);
    th.bandFill = withAlpha(th.highlightFill, 170);
    th.arrowStrong = ink(0.88);
    th.arrow = withAlpha(ink(0.78), 200);
    th.hoverOutline = ink(0.87);
    th.selectionOutline = text;
    th.rangeFill = QColor(0x2e, 0x86, 0xde, 45);
    th.rangeLine = QColor(0x1f, 0x6f, 0xbf);
    th.rangeLabelText = Qt::white;

    const QColor hues[2] = {QColor(0x4a, 0x7f, 0xc1), QColor(0xc8, 0x78, 0x2d)};
    for (std::size_t side = 0; side < 2; ++side) {
        th.sideBackground[side] = mix(base, hues[side], th.dark ? 0.3 : 0.19);
        th.sideText[side] = mix(windowText, hues[side], 0.25);
    }
    th.hintText = mix(window, windowText, 0.55);
    return th;
}

QString TimelineTheme::keyHtml() const
{
    const auto swatch = [](const QColor &colour, const QString &glyph = QStringLiteral("■")) {
        return QStringLiteral("<span style=\"color:%1\">%2</span>").arg(colour.name(), glyph);
    };
    const auto fill = [&](int style) { return swatch(swatches[std::size_t(style)].fill); };
    QString kernels;
    for (int k = 0; k < 4; ++k)
        kernels += fill(StyleKernelFirst + k);
    const auto tr = [](const char *text) { return QCoreApplication::translate("TimelineTheme", text); };
    const std::pair<QString, QString> rows[] = {
        {kernels, tr("GPU kernels, coloured by name (12 hues: names may share one)")},
        {swatch(highlightOutline, QStringLiteral("▣")),
         tr("the selected kernel's calls, or the gaps of a selected idle cause")},
        {swatch(swatches[StyleKernelFirst].fill, QStringLiteral("▂▅▇")),
         tr("zoomed out, kernels narrower than a pixel: a column as tall as its busy share")},
        {fill(StyleCommunication), tr("communication kernels (NCCL, RCCL)")},
        {fill(StyleMemcpy) + fill(StyleMemset) + fill(StyleGpuOther),
         tr("memcpy, memset, other GPU activity (copies a trace does not name)")},
        {fill(StyleGpuAnnotation) + fill(StyleCpuAnnotation),
         tr("annotations (scopes) on the GPU, on the CPU")},
        {fill(StyleLaunch), tr("kernel launch calls (cudaLaunchKernel, …)")},
        {fill(StyleGraphLaunch) + swatch(graphMarker, QStringLiteral("▎")),
         tr("graph launch calls, and their marker when zoomed out")},
        {fill(StyleRuntime), tr("other runtime calls (by category, else hip…, cuda…, cu… by name)")},
        {fill(StyleCpuOther), tr("other CPU slices (ops, Python functions)")},
        {swatch(arrowStrong, QStringLiteral("→")), tr("from a clicked launch call to its kernels")},
        {swatch(gapHatch[std::size_t(GapCause::LaunchLate)], QStringLiteral("▨")),
         tr("GPU idle: the CPU launched the next kernel late")},
        {swatch(gapHatch[std::size_t(GapCause::GpuWaiting)], QStringLiteral("▨")),
         tr("GPU idle: launched in time, the GPU waiting")},
        {swatch(gapHatch[std::size_t(GapCause::Unknown)], QStringLiteral("▨")),
         tr("GPU idle: no launch call in the trace to tell")},
    };
    QString html = QStringLiteral("<table cellspacing=\"2\">");
    for (const auto &[glyphs, text] : rows)
        html += QStringLiteral("<tr><td style=\"font-size:large\">%1</td><td>%2</td></tr>")
                    .arg(glyphs, text.toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

} // namespace scopeline
