// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/charts/boxplotview.h"
#include "widgets/charts/plottooltip.h"

#include "model/tables/kernelnames.h"

#include "model/tables/durationformat.h"

#include <qcustomplot.h>

#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace scopeline {

namespace {

// Log-axis ticks as many as the axis holds with their labels apart: within about a decade, where a
// boxplot's data usually sits, at an even step (8, 10, 12, 14 µs: digits alone left 8, 9 and 10 on top of
// each other and nothing over 10 µs, under data at 14.5); across decades at every digit × 10^k, else at
// 1, 2 and 5 × 10^k, else at powers of ten.
class LogValueTicker : public QCPAxisTickerLog
{
public:
    explicit LogValueTicker(const QCPAxis *axis) : m_axis(axis) {}

protected:
    QVector<double> createTickVector(double, const QCPRange &range) override
    {
        if (!(range.lower > 0) || !(range.upper > range.lower))
            return {};
        const double decades = std::log10(range.upper / range.lower),
                     pixelsPerDecade = m_axis->axisRect()->height() / decades,
                     gap = 1.4 * QFontMetricsF(m_axis->tickLabelFont()).height(); // a label and a gap
        const auto apart = [&](const QVector<double> &ticks) {
            for (qsizetype i = 1; i < ticks.size(); ++i)
                if (std::log10(ticks[i] / ticks[i - 1]) * pixelsPerDecade < gap)
                    return false;
            return ticks.size() >= 2;
        };
        if (decades < 1) {
            const double first = std::pow(10.0, std::floor(std::log10(range.upper - range.lower)) - 2);
            for (double power = first; power <= 100 * first; power *= 10)
                for (double digit : {1.0, 2.0, 2.5, 5.0}) {
                    const double step = digit * power;
                    QVector<double> ticks;
                    for (double tick = std::ceil(range.lower / step) * step;
                         tick <= range.upper && ticks.size() <= 50; tick += step)
                        ticks.append(tick);
                    if (ticks.size() <= 50 && apart(ticks))
                        return ticks;
                }
        }
        QVector<double> ticks;
        for (const std::vector<int> &digits :
             {std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9}, std::vector<int>{1, 2, 5}, std::vector<int>{1}}) {
            ticks = digitTicks(digits, range);
            if (apart(ticks))
                break;
        }
        return ticks; // a power of ten at most where nothing is apart: a short axis over a wide range
    }

private:
    static QVector<double> digitTicks(const std::vector<int> &digits, const QCPRange &range)
    {
        QVector<double> ticks;
        for (int exponent = int(std::floor(std::log10(range.lower)));
             exponent <= std::ceil(std::log10(range.upper)); ++exponent)
            for (int digit : digits)
                if (const double tick = digit * std::pow(10.0, exponent);
                    tick >= range.lower && tick <= range.upper)
                    ticks.append(tick);
        return ticks;
    }

    const QCPAxis *m_axis;
};

constexpr double kSideOffset = 0.2; // A and B boxes left and right of a group's centre
constexpr double kBoxWidth = 0.34;
constexpr double kClusterGap = 0.6;  // extra space between clusters (scopes in per-run view)
constexpr int kMaxLegendEntry = 150; // pixels of a legend entry's text before it is elided: two of 260 and
                                     // the run medians held the plot wider than its share of a 1366 px window
constexpr int kCompactHeight = 150;  // below it, no title and legend rows
constexpr int kMaxTickLabel = 28;    // characters of a tick label line before it is elided
constexpr double kPi = 3.14159265358979323846;

// The groups' labels elided line by line, told apart: module.layers.3.self_attention.core_attention
// and ….4.… elided alike read as one.
QStringList tickLabels(const std::vector<BoxPlotView::Group> &groups, int chars = kMaxTickLabel)
{
    std::vector<QStringList> lines;
    std::size_t most = 0;
    for (const BoxPlotView::Group &group : groups) {
        lines.push_back(group.label.split(QLatin1Char('\n')));
        most = std::max(most, std::size_t(lines.back().size()));
    }
    for (std::size_t l = 0; l < most; ++l) {
        QStringList texts; // each text once: groups of one scope (its runs) keep one label
        for (const QStringList &label : lines)
            if (qsizetype(l) < label.size() && !texts.contains(label[qsizetype(l)]))
                texts << label[qsizetype(l)];
        const QStringList shown = distinctNames(texts, chars);
        for (QStringList &label : lines)
            if (qsizetype(l) < label.size())
                label[qsizetype(l)] = shown[texts.indexOf(label[qsizetype(l)])];
    }
    QStringList labels;
    for (const QStringList &label : lines)
        labels << label.join(QLatin1Char('\n'));
    return labels;
}

void styleBox(QCPStatisticalBox *box, const QColor &color, const PlotTheme &theme)
{
    QColor fill = color;
    fill.setAlpha(70);
    box->setBrush(fill);
    const QColor edge = theme.edge(color, 125);
    box->setPen(QPen(edge, 1.4));
    box->setMedianPen(QPen(theme.edge(color, 170), 2.4));
    box->setWhiskerPen(QPen(edge, 1.2));
    box->setWhiskerBarPen(QPen(edge, 1.4));
    box->setWhiskerWidth(kBoxWidth * 0.5);
    box->setWidth(kBoxWidth);
    QColor outlier = edge; // the data colour itself all but vanished on a dark background
    outlier.setAlpha(200);
    box->setOutlierStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, outlier, 3.5));
}

// The dotted line between clusters.
QPen separatorPen(const PlotTheme &theme)
{
    return QPen(theme.separator, 1, Qt::DotLine);
}

QString describeSide(const stats::Descriptive &d)
{
    if (d.n == 0)
        return BoxPlotView::tr("no samples");
    QString text =
        BoxPlotView::tr("n = %1, median %2, mean %3\nbox (q1 – q3) %4 – %5, IQR %6\nwhiskers %7 – %8")
            .arg(d.n)
            .arg(formatDuration(d.median), formatDuration(d.mean), formatDuration(d.q1), formatDuration(d.q3),
                 formatDuration(d.iqr), formatDuration(d.whiskerLow), formatDuration(d.whiskerHigh));
    text += QLatin1Char('\n') + BoxPlotView::tr("%n outlier(s)", nullptr, int(d.outliers.size()));
    if (!d.outliers.empty())
        text += BoxPlotView::tr(", %1 – %2").arg(formatDuration(d.min), formatDuration(d.max));
    return text;
}

// two boxes and their axis, readable
constexpr int kMinimumPlotHeight = 78;

} // namespace

BoxPlotView::Group BoxPlotView::Group::fromSamples(const QString &label, const std::vector<double> &a,
                                                   const std::vector<double> &b, int cluster)
{
    Group group;
    group.label = label;
    group.toolTip = label;
    group.cluster = cluster;
    group.a = stats::describe(a);
    group.b = stats::describe(b);
    return group;
}

BoxPlotView::BoxPlotView(QWidget *parent) : QWidget(parent)
{
    m_plot = new QCustomPlot(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    showToolTipsBy(
        m_plot, [this](const QPoint &pos) { // a box's or a run's figures; elsewhere, how to read it
            const QString text = toolTipAt(pos);
            if (!text.isEmpty())
                return text;
            if (m_title->realVisibility() && m_title->outerRect().contains(pos) &&
                m_title->text() != m_titleText)
                return m_titleText; // elided
            return m_groups.empty()
                       ? m_hintText
                       : tr("Boxes: quartiles and median; whiskers: the most extreme samples within "
                            "1.5 × IQR of the box; dots: outliers; diamonds: each run's median.\nDrag or "
                            "wheel on the plot to move or zoom the duration axis; double-click to fit.");
        });

    m_boxA = new QCPStatisticalBox(m_plot->xAxis, m_plot->yAxis);
    m_boxB = new QCPStatisticalBox(m_plot->xAxis, m_plot->yAxis);
    m_runMedians = m_plot->addGraph();
    m_runMedians->setLineStyle(QCPGraph::lsNone);
    m_runMedians->setName(tr("run medians"));

    // A row above the axis rect: the title on the left, the legend on the right, so it never covers a
    // box; on a narrow plot the legend moves to a row of its own below the title (placeLegend), so
    // that the plot's minimum width is the wider of the two, not their sum.
    QCPLegend *legend = m_plot->legend;
    m_plot->axisRect()->insetLayout()->take(legend);
    m_plot->plotLayout()->insertRow(0);
    auto *topRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 0, topRow);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    topRow->setMargins(QMargins(0, 0, 0, 0));
    topRow->setMinimumMargins(QMargins(0, 0, 0, 0));
    QFont titleFont = font();
    titleFont.setBold(true);
    m_title = new QCPTextElement(m_plot, QString(), titleFont);
    m_title->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    m_title->setMargins(QMargins(12, 6, 6, 4));
    // no minimum width of its own: a long title (GPU spans, "first kernel start to last kernel end")
    // held the plot 550 px wide and pushed the verdicts beside it out of sight; it is elided instead
    m_title->setMinimumSize(1, 0);
    topRow->addElement(0, 0, m_title);
    topRow->addElement(0, 1, legend);
    topRow->setColumnStretchFactor(0, 1);
    topRow->setColumnStretchFactor(1, 0.001);
    m_topRow = topRow;
    m_legendRow = new QCPLayoutGrid;
    m_legendRow->setMargins(QMargins(0, 0, 0, 0));
    m_legendRow->setMinimumMargins(QMargins(0, 0, 0, 0));
    m_legendRow->setVisible(false);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setColumnSpacing(20);
    legend->setIconSize(26, 13);
    legend->setMargins(QMargins(6, 4, 12, 4));
    legend->setVisible(true);

    m_plot->xAxis->grid()->setVisible(false);
    m_plot->yAxis->grid()->setSubGridVisible(false);
    m_plot->yAxis->grid()->setPen(QPen(Qt::black, 1, Qt::DashLine)); // coloured by applyTheme()
    m_plot->xAxis->setSubTicks(false);
    m_plot->xAxis->setTickLength(0, 4);

    m_hint = new QCPItemText(m_plot);
    m_hint->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_hint->position->setCoords(0.5, 0.5);
    m_hint->setPositionAlignment(Qt::AlignCenter);
    QFont hintFont = font();
    hintFont.setPointSizeF(hintFont.pointSizeF() * 1.25);
    m_hint->setFont(hintFont);
    m_hint->setClipToAxisRect(false);
    m_hint->setSelectable(false);

    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Vertical);
    m_plot->axisRect()->setRangeZoom(Qt::Vertical);
    m_plot->axisRect()->setRangeZoomFactor(0.85, 0.85);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] { fitToData(); });
    connect(m_plot, &QCustomPlot::beforeReplot, this, &BoxPlotView::updateTickLabels);
    // The ticks are made before the layout that sizes the axis: once it is sized anew, again for it.
    connect(m_plot, &QCustomPlot::afterReplot, this, [this] {
        if (const int height = m_plot->axisRect()->height(); height != m_ticksForHeight) {
            m_ticksForHeight = height;
            fitValueTicks();
            m_plot->replot(QCustomPlot::rpQueuedReplot);
        }
    });

    applyTheme();
    rebuild();
}

BoxPlotView::~BoxPlotView()
{
    // what is not in the plot's layout the plot does not delete
    if (!m_legendRow->layout())
        delete m_legendRow;
    if (!m_topRow->layout())
        delete m_topRow;
}

// The plot from the palette, then what it does not know: the softer axis lines, the cluster labels,
// the boxes' outlines, the hint and the separators.
void BoxPlotView::applyTheme()
{
    m_theme = applyPalette(m_plot, palette());
    m_plot->xAxis->setBasePen(QPen(m_theme.axisLine));
    m_plot->yAxis->setBasePen(QPen(m_theme.axisLine));
    m_plot->xAxis2->setTickLabelColor(m_theme.strongText);
    styleBox(m_boxA, dataColour(DataColour::SideA), m_theme);
    styleBox(m_boxB, dataColour(DataColour::SideB), m_theme);
    m_runMedians->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(m_theme.markerOutline, 1.2), m_theme.markerFill, 7));
    m_hint->setColor(m_theme.dimText);
    for (QCPAbstractItem *item : m_separators)
        static_cast<QCPItemStraightLine *>(item)->setPen(separatorPen(m_theme));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void BoxPlotView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    wrapHint();
    placeLegend();
    titleValueAxis();
    fitValueTicks();
}

bool BoxPlotView::shownShort() const
{
    return isVisible() && height() < kCompactHeight; // unshown: not sized yet
}

void BoxPlotView::titleValueAxis()
{
    // Short (a laptop screen with a kernel selected), the rotated title would be cut to "duration" with
    // its unit out of sight: the unit alone.
    const bool compact = shownShort();
    const QString title = compact ? m_unit : tr("duration (%1)").arg(m_unit);
    m_plot->yAxis->setLabel(m_groups.empty() ? QString() : title);
}

// As many value ticks as the axis' height holds apart: the last layout's, where rotated group labels
// took their share (before one, the plot's less ~30 px for the labels and ~50 more for the legend row
// unless compact). The log ticker spaces its own by that height.
void BoxPlotView::fitValueTicks()
{
    if (m_logScale)
        return;
    // two at least, exactly where the height holds few: a lone "2" gave no scale at 1366 x 768
    const int laidOut = m_plot->axisRect()->height(); // the last layout's: rotated labels take their share
    const int ticks =
        valueTicksThatFit(laidOut > 0 ? laidOut : m_plot->height() - (height() < kCompactHeight ? 30 : 80));
    m_plot->yAxis->ticker()->setTickStepStrategy(ticks <= 2 ? QCPAxisTicker::tssMeetTickCount
                                                            : QCPAxisTicker::tssReadability);
    m_plot->yAxis->ticker()->setTickCount(std::max(2, ticks));
}

// A legend wider than the plot takes more rows: A and B on one, the run medians below, else an entry
// a row (two long file names and the run medians were wider than the plot beside a table).
void BoxPlotView::wrapLegend()
{
    QCPLegend *legend = m_plot->legend;
    std::vector<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (const QCPAbstractLegendItem *item = legend->item(i)) // a wrapped grid's empty cells: none
            widths.push_back(item->minimumOuterSizeHint().width());
    const int spacing = legend->columnSpacing(),
              margins = legend->margins().left() + legend->margins().right();
    const auto rowsWidth = [&](int columns) {
        int widest = 0;
        for (std::size_t first = 0; first < widths.size(); first += std::size_t(columns)) {
            int row = -spacing;
            for (std::size_t i = first; i < std::min(widths.size(), first + std::size_t(columns)); ++i)
                row += widths[i] + spacing;
            widest = std::max(widest, row);
        }
        return widest + margins;
    };
    int columns = std::max(1, int(widths.size()));
    while (columns > 1 && rowsWidth(columns) + 24 > width())
        --columns;
    if (columns == legend->wrap() || (legend->wrap() == 0 && columns == int(widths.size())))
        return;
    legend->setWrap(columns);
    legend->setFillOrder(QCPLegend::foColumnsFirst, true); // laid out again at that wrap
}

void BoxPlotView::placeLegend()
{
    // A short plot (a laptop screen with a kernel selected) gives its boxes the height: no title
    // and legend rows (the colours are A's and B's everywhere; the tooltips name the boxes).
    const bool compact = height() < kCompactHeight;
    if (compact != (m_topRow->layout() == nullptr)) {
        QCPLayoutGrid *layout = m_plot->plotLayout();
        m_topRow->setVisible(!compact); // its elements would still paint, outside the layout
        if (compact) {
            layout->take(m_topRow);
            layout->simplify();
        } else {
            layout->insertRow(0);
            layout->addElement(0, 0, m_topRow);
            layout->setRowStretchFactor(0, 0.001);
        }
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    QCPLegend *legend = m_plot->legend;
    wrapLegend();
    legend->setMaximumSize(legend->minimumOuterSizeHint().width(),
                           QWIDGETSIZE_MAX); // never under its minimum
    const int title = QFontMetrics(m_title->font()).horizontalAdvance(m_titleText) + 18; // its margins
    const int needed = title + legend->minimumOuterSizeHint().width() + 24;
    const bool beside = width() >= needed;
    const bool isBeside = legend->layout() == m_topRow;
    if (beside == isBeside) {
        fitTitle();
        return;
    }
    if (beside) {
        m_legendRow->take(legend);
        m_legendRow->clear(); // the spacer
        m_topRow->take(m_legendRow);
        m_topRow->simplify();
        m_topRow->addElement(0, 1, legend);
        m_topRow->setColumnStretchFactor(0, 1);
        m_topRow->setColumnStretchFactor(1, 0.001);
    } else {
        m_topRow->take(legend);
        m_topRow->simplify();
        m_legendRow->setVisible(true);
        m_legendRow->addElement(0, 0, legend);
        m_legendRow->addElement(0, 1, new QCPLayoutElement(m_plot)); // the rest of the row
        m_legendRow->setColumnStretchFactor(0, 0.001);
        m_legendRow->setColumnStretchFactor(1, 1);
        m_topRow->addElement(1, 0, m_legendRow);
    }
    fitTitle();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void BoxPlotView::fitTitle()
{
    // the legend sits beside the title only where the whole title fits with it (placeLegend)
    m_title->setText(
        QFontMetrics(m_title->font()).elidedText(m_titleText, Qt::ElideRight, std::max(0, width() - 18)));
}

void BoxPlotView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyTheme();
}

void BoxPlotView::setLabels(const QString &labelA, const QString &labelB)
{
    m_labelA = labelA;
    m_labelB = labelB;
    rebuild();
}

void BoxPlotView::setRanked(bool ranked)
{
    m_runMedians->setName(ranked ? tr("rank medians") : tr("run medians"));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void BoxPlotView::setGroups(std::vector<Group> groups)
{
    m_groups = std::move(groups);
    rebuild();
}

void BoxPlotView::setTitle(const QString &title)
{
    m_titleText = title;
    placeLegend();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString BoxPlotView::title() const
{
    return m_titleText;
}

void BoxPlotView::setHint(const QString &hint)
{
    m_hintText = hint;
    wrapHint();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

QString BoxPlotView::hint() const
{
    return m_hintText;
}

// The hint's lines broken between words to the plot's width: "(: invalid regular expression: missing
// closing parenthesis" ran past both sides of the plot at 1366 x 768.
void BoxPlotView::wrapHint()
{
    const QFontMetrics metrics(m_hint->font());
    const int room = std::max(m_plot->width() - 16, metrics.averageCharWidth() * 16);
    QStringList lines;
    for (const QString &line : m_hintText.split(QLatin1Char('\n'))) {
        QString wrapped;
        for (const QString &word : line.split(QLatin1Char(' '))) {
            const QString longer = wrapped.isEmpty() ? word : wrapped + QLatin1Char(' ') + word;
            if (!wrapped.isEmpty() && metrics.horizontalAdvance(longer) > room) {
                lines << wrapped;
                wrapped = word;
            } else {
                wrapped = longer;
            }
        }
        lines << wrapped;
    }
    m_hint->setText(lines.join(QLatin1Char('\n')));
}

void BoxPlotView::setLogScale(bool logScale)
{
    if (logScale == m_logScale)
        return;
    m_logScale = logScale;
    rebuild();
}

double BoxPlotView::key(int group, bool sideB) const
{
    return m_centers[std::size_t(group)] + (sideB ? kSideOffset : -kSideOffset);
}

void BoxPlotView::rebuild()
{
    // long file names elide, so that the legend never sets the plot's minimum width
    const QFontMetrics legendMetrics(m_plot->legend->font());
    m_boxA->setName(legendMetrics.elidedText(tr("A: %1").arg(m_labelA), Qt::ElideMiddle, kMaxLegendEntry));
    m_boxB->setName(legendMetrics.elidedText(tr("B: %1").arg(m_labelB), Qt::ElideMiddle, kMaxLegendEntry));
    // Room below the text, else descenders such as '_' are clipped; the legend takes the width of its
    // items, the title the rest of the row.
    for (int i = 0; i < m_plot->legend->itemCount(); ++i)
        if (QCPAbstractLegendItem *item = m_plot->legend->item(i))
            item->setMargins(QMargins(0, 1, 0, 4));
    m_plot->legend->setMaximumSize(m_plot->legend->minimumOuterSizeHint().width(), QWIDGETSIZE_MAX);
    placeLegend();
    m_boxA->data()->clear();
    m_boxB->data()->clear();
    m_runMedians->data()->clear();
    for (QCPAbstractItem *item : m_separators)
        m_plot->removeItem(item);
    m_separators.clear();

    const bool empty = m_groups.empty();
    m_hint->setVisible(empty);
    // Empty, it is one line of hint: the room goes to the views above it (the timelines at 1366x768).
    m_plot->setMinimumHeight(empty ? QFontMetrics(m_hint->font()).height() + 8 : kMinimumPlotHeight);
    m_plot->legend->setVisible(!empty);
    m_title->setVisible(!empty);
    m_plot->xAxis->setVisible(!empty);
    m_plot->yAxis->setVisible(!empty);
    m_plot->xAxis->setLabel(QString());

    // The unit from the largest value.
    double maxValue = 0;
    for (const Group &g : m_groups)
        for (const stats::Descriptive *d : {&g.a, &g.b})
            if (d->n > 0)
                maxValue = std::max(maxValue, d->max);
    if (maxValue < 1e3) {
        m_unit = QStringLiteral("ns");
        m_unitScale = 1;
    } else if (maxValue < 1e6) {
        m_unit = QStringLiteral("µs");
        m_unitScale = 1e3;
    } else {
        m_unit = QStringLiteral("ms");
        m_unitScale = 1e6;
    }
    titleValueAxis();

    // Keys: groups one apart, clusters further apart.
    m_centers.clear();
    m_clusters.clear();
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const QStringList labels = tickLabels(m_groups);
    m_tickLabels = labels;
    int clusterIndex = 0;
    for (std::size_t i = 0; i < m_groups.size(); ++i) {
        const bool newCluster = i == 0 || m_groups[i].cluster != m_groups[i - 1].cluster;
        if (i > 0 && newCluster)
            ++clusterIndex;
        const double center = double(i) + kClusterGap * clusterIndex;
        if (i > 0 && newCluster) {
            auto *line = new QCPItemStraightLine(m_plot);
            for (QCPItemPosition *point : {line->point1, line->point2}) {
                point->setTypeX(QCPItemPosition::ptPlotCoords);
                point->setTypeY(QCPItemPosition::ptAxisRectRatio);
            }
            const double between = (m_centers.back() + center) / 2;
            line->point1->setCoords(between, 0);
            line->point2->setCoords(between, 1);
            line->setPen(separatorPen(m_theme));
            line->setSelectable(false);
            m_separators.push_back(line);
        }
        if (newCluster)
            m_clusters.push_back({m_groups[i].clusterLabel, center, center});
        m_clusters.back().last = center;
        m_centers.push_back(center);
        ticker->addTick(center, labels[qsizetype(i)]);
    }
    m_plot->xAxis->setTicker(ticker);
    m_labelEvery = 1; // every label whole, until updateTickLabels() thins or cuts them for the width
    m_labelRoom = 0;
    m_labelChars = kMaxTickLabel;
    const bool clusterLabels = std::any_of(m_clusters.begin(), m_clusters.end(),
                                           [](const Cluster &c) { return !c.label.isEmpty(); });
    m_plot->xAxis2->setVisible(!empty && clusterLabels);
    m_plot->xAxis2->setTicks(true); // QCustomPlot draws tick labels only with ticks on
    m_plot->xAxis2->setTickLength(0, 0);
    m_plot->xAxis2->setSubTicks(false);
    m_plot->xAxis2->setTickPen(Qt::NoPen);
    m_plot->xAxis2->setTickLabels(true);
    m_plot->xAxis2->setBasePen(Qt::NoPen);
    m_plot->xAxis2->grid()->setVisible(false);
    QFont clusterFont = font();
    clusterFont.setBold(true);
    m_plot->xAxis2->setTickLabelFont(clusterFont);
    m_plot->xAxis2->setTicker(QSharedPointer<QCPAxisTickerText>::create()); // filled in updateTickLabels()

    // Values in the unit; log scale cannot show values <= 0, so they sit at the smallest positive one.
    double minPositive = HUGE_VAL;
    for (const Group &g : m_groups)
        for (const stats::Descriptive *d : {&g.a, &g.b})
            if (d->n > 0) {
                const auto positive = std::upper_bound(d->outliers.begin(), d->outliers.end(), 0.0);
                if (positive != d->outliers.end())
                    minPositive = std::min(minPositive, *positive);
                for (double v : {d->whiskerLow, d->q1, d->median})
                    if (v > 0)
                        minPositive = std::min(minPositive, v);
            }
    const double floor = std::isfinite(minPositive) ? minPositive / 2 : 1;
    auto value = [this, floor](double ns) { return (m_logScale ? std::max(ns, floor) : ns) / m_unitScale; };
    for (std::size_t i = 0; i < m_groups.size(); ++i)
        for (bool sideB : {false, true}) {
            const stats::Descriptive &d = sideB ? m_groups[i].b : m_groups[i].a;
            if (d.n == 0)
                continue;
            QVector<double> outliers;
            outliers.reserve(qsizetype(d.outliers.size()));
            for (double o : d.outliers)
                outliers.append(value(o));
            (sideB ? m_boxB : m_boxA)
                ->addData(key(int(i), sideB), value(d.whiskerLow), value(d.q1), value(d.median), value(d.q3),
                          value(d.whiskerHigh), outliers);
            for (double median : sideB ? m_groups[i].runMediansB : m_groups[i].runMediansA)
                if (!std::isnan(median))
                    m_runMedians->addData(key(int(i), sideB), value(median));
        }
    const bool runDots = !m_runMedians->data()->isEmpty();
    if (runDots != m_plot->legend->hasItemWithPlottable(m_runMedians))
        runDots ? void(m_runMedians->addToLegend()) : void(m_runMedians->removeFromLegend());

    if (m_logScale) {
        m_plot->yAxis->setScaleType(QCPAxis::stLogarithmic);
        m_plot->yAxis->setTicker(QSharedPointer<LogValueTicker>::create(m_plot->yAxis));
        m_plot->yAxis->setNumberFormat(QStringLiteral("g"));
    } else {
        m_plot->yAxis->setScaleType(QCPAxis::stLinear);
        m_plot->yAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        m_plot->yAxis->setNumberFormat(QStringLiteral("g"));
        fitValueTicks();
    }
    m_plot->yAxis->setSubTicks(!m_logScale); // the log ticks are dense enough, and subticks would be linear

    if (empty) {
        m_plot->xAxis->setRange(0, 1);
        m_plot->yAxis->setRange(m_logScale ? 1 : 0, m_logScale ? 10 : 1);
    } else {
        m_plot->xAxis->setRange(m_centers.front() - 0.6, m_centers.back() + 0.6);
        m_plot->xAxis2->setRange(m_plot->xAxis->range());
        fitToData();
        return; // fitToData replots
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void BoxPlotView::fitToData()
{
    double low = HUGE_VAL, high = -HUGE_VAL;
    for (QCPStatisticalBox *box : {m_boxA, m_boxB}) {
        bool found = false;
        const QCPRange range = box->getValueRange(found, m_logScale ? QCP::sdPositive : QCP::sdBoth);
        if (found) {
            low = std::min(low, range.lower);
            high = std::max(high, range.upper);
        }
    }
    if (low <= high) {
        if (m_logScale) {
            const double factor = std::pow(high / low, 0.06) * 1.05;
            m_plot->yAxis->setRange(low / factor, high * factor);
        } else {
            const double margin = high > low ? 0.06 * (high - low) : std::max(std::fabs(high) * 0.05, 1e-9);
            m_plot->yAxis->setRange(low - margin, high + margin);
        }
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void BoxPlotView::updateTickLabels()
{
    QCPAxis *x = m_plot->xAxis;
    const double width = m_plot->axisRect()->width() > 0 ? m_plot->axisRect()->width() : m_plot->width() - 90;
    const double pixelsPerUnit = width / std::max(1e-9, x->range().size());

    // Bottom labels that do not fit side by side are rotated, ending at their tick.
    const QFontMetrics metrics(x->tickLabelFont());
    const auto widestOf = [&](const QStringList &labels) {
        int widest = 0;
        for (const QString &label : labels)
            for (const QString &line : label.split(QLatin1Char('\n')))
                widest = std::max(widest, metrics.horizontalAdvance(line));
        return widest;
    };
    int widest = widestOf(m_tickLabels);
    double spacing = 1; // between neighbouring ticks, in keys
    for (std::size_t i = 1; i < m_centers.size(); ++i)
        spacing = i == 1 ? m_centers[1] - m_centers[0] : std::min(spacing, m_centers[i] - m_centers[i - 1]);
    const double apart = spacing * pixelsPerUnit; // pixels between neighbouring ticks
    const bool crowded = widest > apart - 8;
    // Short (a kernel's runs under the waterfall at 1366 x 768), rotated labels took half the height and
    // left the boxes 30 px: flat ones there, cut to the room between ticks.
    const bool flat = shownShort();
    const bool rotated = crowded && !flat;
    x->setTickLabelRotation(rotated ? -30 : 0);
    // Rotated labels a tick apart lie half that apart across their lines (sin 30°): where that is less
    // than a line (24 runs of 8 ranks side by side), every 2nd, 4th, … is named, the first always. Flat
    // ones cut shorter than "…_10" are named every so many ticks too.
    const int labels = int(m_centers.size());
    int every = 1, room = 0; // room: the width a flat label is cut to (0: whole)
    int chars = kMaxTickLabel; // rotated labels' length, told apart
    if (rotated) {
        every = labelStep(labels, labels * apart / 2, metrics.lineSpacing());
        // Rotated, a label rises half its width (sin 30°): a quarter of the plot's height at most, or two
        // long scope names left the boxes 40 px at 1366 x 768.
        const int rise = m_plot->height() / 2 - 2 * metrics.lineSpacing();
        if (widest > rise)
            chars = charsThatFit([&](int n) { return tickLabels(m_groups, n); }, metrics, rise);
    } else if (crowded) {
        const int least = metrics.horizontalAdvance(QStringLiteral("…_10")) + 8;
        every = std::max(1, int(std::ceil(least / std::max(1.0, apart))));
        room = int(every * apart) - 8;
    }
    const QStringList shown = chars == kMaxTickLabel ? m_tickLabels : tickLabels(m_groups, chars);
    if ((every != m_labelEvery || room != m_labelRoom || chars != m_labelChars) &&
        m_tickLabels.size() == labels) {
        m_labelEvery = every;
        m_labelRoom = room;
        m_labelChars = chars;
        auto ticker = QSharedPointer<QCPAxisTickerText>::create();
        for (int i = 0; i < labels; ++i) {
            QStringList lines = i % every == 0 ? shown[i].split(QLatin1Char('\n')) : QStringList();
            if (room > 0)
                for (QString &line : lines)
                    // run_3 is told by its end, "all runs" by its start
                    line = metrics.elidedText(
                        line, !line.isEmpty() && line.back().isDigit() ? Qt::ElideLeft : Qt::ElideRight,
                        room);
            ticker->addTick(m_centers[std::size_t(i)], lines.join(QLatin1Char('\n')));
        }
        x->setTicker(ticker);
    }
    if (chars != kMaxTickLabel)
        widest = widestOf(shown);
    // A rotated label reaches left of its tick by its width × cos 30°: the first one needs that room
    // beside the y axis, or its start is cut off.
    int left = 0;
    if (rotated && !m_centers.empty())
        left = int(
            std::ceil(widest * std::cos(kPi / 6) - (m_centers.front() - x->range().lower) * pixelsPerUnit));
    m_plot->axisRect()->setMinimumMargins(QMargins(std::max(0, left + 8), 0, 0, 0));

    // Cluster labels on the top axis, elided to the width of their cluster.
    if (m_plot->xAxis2->visible()) {
        m_plot->xAxis2->setRange(x->range());
        const QFontMetrics topMetrics(m_plot->xAxis2->tickLabelFont());
        auto top = QSharedPointer<QCPAxisTickerText>::create();
        for (const Cluster &cluster : m_clusters) {
            const int room = int((cluster.last - cluster.first + 1 + kClusterGap / 2) * pixelsPerUnit) - 8;
            top->addTick((cluster.first + cluster.last) / 2,
                         topMetrics.elidedText(cluster.label, Qt::ElideMiddle, std::max(room, 24)));
        }
        m_plot->xAxis2->setTicker(top);
    }
}

QString BoxPlotView::toolTipAt(const QPoint &pos) const
{
    if (m_groups.empty() || !m_plot->axisRect()->rect().contains(pos))
        return {};
    const double x = m_plot->xAxis->pixelToCoord(pos.x());
    for (std::size_t i = 0; i < m_groups.size(); ++i)
        for (bool sideB : {false, true}) {
            if (std::fabs(x - key(int(i), sideB)) > kBoxWidth / 2 + 0.02)
                continue;
            const Group &g = m_groups[i];
            const stats::Descriptive &d = sideB ? g.b : g.a;
            return QStringLiteral("%1\n%2\n%3")
                .arg(g.toolTip.isEmpty() ? g.label : g.toolTip, sideB ? m_boxB->name() : m_boxA->name(),
                     describeSide(d));
        }
    return {};
}

} // namespace scopeline
