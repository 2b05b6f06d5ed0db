// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/kerneldiffview.h"

#include "model/tables/kernelnames.h"

#include "widgets/charts/boxplotview.h"
#include "widgets/charts/contributionchart.h"
#include "widgets/charts/plottheme.h"
#include "widgets/panels/caveatbanner.h"
#include "widgets/panels/proportionalsplitter.h"
#include "widgets/panels/stepbreakdownview.h"
#include "widgets/tables/comparisontablemodel.h"
#include "widgets/tables/elidedelegate.h"
#include "widgets/tables/kerneldiffmodel.h"
#include "widgets/tables/rawvaluesortproxy.h"
#include "widgets/tables/statisticstable.h"

#include "model/tables/durationformat.h"
#include "model/tables/tableformat.h"
#include "model/comparison/replication.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace scopeline {

namespace {

// One side's durations of run `run`: the pooled durations are stored run after run.
std::vector<double> runDurations(const KernelDiffSide &side, std::size_t run)
{
    std::size_t begin = 0;
    for (std::size_t r = 0; r < run; ++r)
        begin += std::size_t(side.runCalls[r]);
    const std::size_t count = std::size_t(side.runCalls[run]);
    return {side.durations.begin() + std::ptrdiff_t(begin),
            side.durations.begin() + std::ptrdiff_t(begin + count)};
}

// The durations of several runs of one side, one after the other.
std::vector<double> durationsOf(const KernelDiffSide &side, const std::vector<int> &runs)
{
    std::vector<double> all;
    for (int run : runs) {
        if (std::size_t(run) >= side.runCalls.size())
            continue;
        const std::vector<double> one = runDurations(side, std::size_t(run));
        all.insert(all.end(), one.begin(), one.end());
    }
    return all;
}

} // namespace

KernelDiffView::KernelDiffView(QWidget *parent) : QWidget(parent)
{
    m_header = new QLabel(this);
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter kernels"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(tr("Show only kernels whose name contains this text"));
    m_fold = new QCheckBox(tr("Fold numbering"), this);
    m_fold->setToolTip(tr("One row for names that differ only by a trailing compiler number "
                          "(loop_transpose_fusion_13 and _14, triton_poi_fused_add_0 and _1)"));
    m_byOp = new QCheckBox(tr("By op"), this);
    m_byOp->setToolTip(tr("One row per op rather than per kernel name: JAX's hlo_op (a command buffer's "
                          "kernels by their graph node), PyTorch's CPU op around the launch. An autotuner's "
                          "choice of kernel, or a renamed fusion, then stays one row"));
    m_caveat = new CaveatBanner(this);

    m_model = new KernelDiffModel(this);
    m_proxy = new RawValueSortProxy(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(KernelDiffModel::RawValueRole);
    const auto column = [](const char *key) { return KernelDiffModel::column(key); };
    m_proxy->setFilterKeyColumn(column("kernel"));
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    setUpStatisticsTable(m_table);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->viewport()->installEventFilter(this);                 // its width: the capped columns' room
    m_table->setTextElideMode(Qt::ElideMiddle);                    // kernel names differ at their ends
    auto *elideRight = new ElideDelegate(Qt::ElideRight, m_table); // verdicts say the most first
    m_table->setItemDelegateForColumn(column("verdict"), elideRight);
    // the per-call change and its verdict, its interval left to the tooltip where the column is narrow
    m_table->setItemDelegateForColumn(column("per_call_change"),
                                      new ElideDelegate(Qt::ElideRight, m_table, true));
    m_table->setItemDelegateForColumn(column("run_level_change"), elideRight); // the change first
    freezeLeadingColumns(m_table, {column("kernel")});                         // the name stays in view
    m_table->setToolTip(tr("Every kernel of either side, sorted by how much it changed the GPU time per run. "
                           "Select one to highlight it in both timelines; Ctrl+C copies the table as CSV."));
    auto *copyCsv = new QAction(tr("Copy as CSV"), m_table);
    copyCsv->setShortcut(QKeySequence::Copy);
    copyCsv->setShortcutContext(Qt::WidgetShortcut);
    copyCsv->setToolTip(tr("Copy every row as CSV, the columns of scopeline-cli diff --csv (Ctrl+C)"));
    m_table->addAction(copyCsv);
    connect(copyCsv, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(csv()); });
    auto *copyButton = new QToolButton(this);
    copyButton->setDefaultAction(copyCsv);
    copyButton->setAutoRaise(true);

    m_chart = new ContributionChart(this);
    m_boxPlot = new BoxPlotView(this);
    m_boxPlot->setHint(tr("Select a kernel to compare its durations"));
    // One line beside the filter, there whether a kernel is selected or not, so that selecting one moves
    // nothing (on a laptop screen a caption of three lines took the timelines' rows); whole in its tooltip.
    m_kernelStats = new QLabel(this);
    m_kernelStats->setTextFormat(Qt::RichText);
    m_kernelStats->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_kernelStats->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed); // long names never widen it
    m_kernelStats->installEventFilter(this);                                // elided to its width
    m_header->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_header->setToolTip(tr("A row's verdict judges its GPU time per run (Welch on the per-process totals "
                            "when a side has ≥ 2 processes, else on the per-run totals; Holm over the rows); "
                            "“Per call” tests the duration of one call on its own"));

    auto *controls = new QHBoxLayout;
    m_filter->setFixedWidth(m_filter->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 28);
    controls->addWidget(m_filter);
    controls->addWidget(m_kernelStats, 1);
    controls->addWidget(m_fold);
    controls->addWidget(m_byOp);
    controls->addWidget(copyButton);
    auto *tablePane = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addLayout(controls);
    tableLayout->addWidget(m_table, 1);

    auto *kernelPane = new QWidget(this);
    auto *kernelLayout = new QVBoxLayout(kernelPane);
    kernelLayout->setContentsMargins(0, 0, 0, 0);
    kernelLayout->addWidget(m_boxPlot, 1);
    // halves: below ~150 px the waterfall's labels collide (at 1600x1000 a third was ~80 px)
    auto *right = new ProportionalSplitter(Qt::Vertical, {3, 2}, this);
    right->addWidget(m_chart);
    right->addWidget(kernelPane);
    right->setChildrenCollapsible(false);
    // three quarters to the table: at 1366 px its key columns, the intervals whole, side by side
    auto *split = new ProportionalSplitter(Qt::Horizontal, {3, 1}, this);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->addWidget(tablePane);
    split->addWidget(right);
    split->setChildrenCollapsible(false);

    // the step comes first: did it get faster, and where did the time go; then the kernels
    m_steps = new StepBreakdownView(this);
    auto *kernels = new QWidget(this);
    auto *kernelsLayout = new QVBoxLayout(kernels);
    kernelsLayout->setContentsMargins(0, 0, 0, 0);
    kernelsLayout->setSpacing(4);
    kernelsLayout->addWidget(m_header);
    kernelsLayout->addWidget(m_caveat);
    kernelsLayout->addWidget(split, 1);
    auto *stepsOverKernels = new ProportionalSplitter(Qt::Vertical, {1, 2}, this);
    stepsOverKernels->addWidget(m_steps);
    stepsOverKernels->addWidget(kernels);
    stepsOverKernels->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(stepsOverKernels, 1);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_fold, &QCheckBox::toggled, this, [this](bool fold) {
        m_options.foldNumbers = fold;
        recompute();
        emit settingsChanged();
    });
    connect(m_byOp, &QCheckBox::toggled, this, [this](bool byOp) {
        m_options.byOp = byOp;
        m_filter->setPlaceholderText(byOp ? tr("Filter ops") : tr("Filter kernels"));
        m_filter->setToolTip(byOp ? tr("Show only ops whose name contains this text")
                                  : tr("Show only kernels whose name contains this text"));
        recompute();
        emit settingsChanged();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                showKernel(current.isValid() ? m_proxy->mapToSource(current).row() : -1);
            });
    connect(m_chart, &ContributionChart::rowClicked, this, &KernelDiffView::selectRow);
    recompute();
}

KernelDiffView::~KernelDiffView() = default;

void KernelDiffView::setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &labelA,
                              const QString &labelB)
{
    m_runsA = a;
    m_runsB = b;
    m_boxPlot->setLabels(labelA.isEmpty() ? tr("A") : labelA, labelB.isEmpty() ? tr("B") : labelB);
    m_boxPlot->setRanked(hasRanks(a) || hasRanks(b));
    m_steps->setSides(a, b, labelA, labelB);
    recompute();
}

bool KernelDiffView::foldNumbers() const
{
    return m_options.foldNumbers;
}

void KernelDiffView::setFoldNumbers(bool fold)
{
    m_fold->setChecked(fold); // recomputes through toggled()
}

void KernelDiffView::setByOp(bool byOp)
{
    m_byOp->setChecked(byOp); // recomputes through toggled()
}

void KernelDiffView::setThreshold(double threshold)
{
    if (threshold == m_options.threshold)
        return;
    m_options.threshold = threshold;
    m_steps->setThreshold(threshold);
    recompute();
}

QString KernelDiffView::csv() const
{
    return m_diff ? m_diff->toCsv() : QString();
}

void KernelDiffView::recompute()
{
    const QStringList previous =
        m_current >= 0 ? m_diff->rows()[std::size_t(m_current)].names : QStringList();
    m_current = -1;
    m_diff = m_runsA.isEmpty() && m_runsB.isEmpty()
                 ? nullptr
                 : std::make_shared<const KernelDiff>(m_runsA, m_runsB, m_options);
    m_model->setDiff(m_diff);
    m_chart->setDiff(m_diff.get());
    // The processes of each side, in the diff's run numbering, when they are the unit.
    for (std::vector<Process> &side : m_processes)
        side.clear();
    if (m_diff && m_diff->summary().byProcess) {
        std::vector<RunOrigin> origins[2];
        for (int s = 0; s < 2; ++s)
            for (const LoadedRun &run : s == 0 ? m_runsA : m_runsB)
                if (run.summary) // the runs KernelDiff counts
                    origins[s].push_back(Replication::originOf(run));
        const Replication replication(origins[0], origins[1]);
        for (int s = 0; s < 2; ++s)
            for (const std::vector<int> &unit : replication.units(s))
                m_processes[s].push_back({origins[s][std::size_t(unit.front())].process, unit});
    }
    m_model->setNameWidth(std::numeric_limits<int>::max()); // measured at their widest
    m_table->resizeColumnsToContents();
    // The key columns (kernel, verdict, time/run change, per call, Δ time/run, share, time/run A and
    // B) side by side without scrolling at 1366 px; long texts elide, whole in their tooltips, but the
    // time/run change and its interval, what the verdict was decided from, are read whole. No column
    // is narrower than its title.
    // What the window has room for past them goes back, in this order, to the time/run change (what
    // the verdict was decided from), the kernel's name, the verdict and the per-call change; the
    // columns after the key ones scroll into view.
    const QFontMetrics metrics = m_table->horizontalHeader()->fontMetrics();
    const int interval = metrics.horizontalAdvance(QStringLiteral("+10.00 % [+10.00, +10.00]…"));
    const int verdict = metrics.horizontalAdvance(QStringLiteral("no significant change")) + metrics.height();
    const int perCall = metrics.horizontalAdvance(QStringLiteral("+10.00 %, B slower")) + metrics.height();
    m_capped.clear();
    for (const auto &[key, widest] :
         {std::pair{"run_level_change", interval}, std::pair{"kernel", 14 * metrics.height()},
          std::pair{"verdict", verdict}, std::pair{"per_call_change", perCall},
          std::pair{"share_of_delta", 70}}) {
        const int column = KernelDiffModel::column(key);
        const int title = metrics.horizontalAdvance(m_model->headerData(column, Qt::Horizontal).toString()) +
                          2 * metrics.height();
        const int content = m_table->columnWidth(column);
        m_capped.push_back({column, std::min(content, std::max(widest, title)), content});
    }
    fitCappedColumns();
    m_header->setText(
        m_diff ? m_diff->headerText().toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"))
               : tr("Open a pair of traces to see which kernels account for the difference."));
    m_caveat->setCaveat(m_diff && m_diff->summary().runsA > 0 && m_diff->summary().runsB > 0
                            ? m_diff->summary().caveat
                            : QString(),
                        pairCaveats(m_runsA, m_runsB));
    // Keep the same kernel selected across a refold or a new threshold.
    int keep = -1;
    if (m_diff)
        for (std::size_t r = 0; r < m_diff->rows().size() && keep < 0; ++r)
            for (const QString &name : previous)
                if (m_diff->rows()[r].names.contains(name)) {
                    keep = int(r);
                    break;
                }
    selectRow(keep);
    showKernel(keep);
}

QString KernelDiffView::headerText() const
{
    return m_diff ? m_diff->headerText() + QLatin1Char('\n') + m_steps->stepLine() : QString();
}

void KernelDiffView::fitCappedColumns()
{
    for (const CappedColumn &c : m_capped)
        m_table->setColumnWidth(c.column, c.cap);
    // the key columns: those up to time/run B
    const QHeaderView *header = m_table->horizontalHeader();
    const int lastKey = header->visualIndex(KernelDiffModel::column("total_b_ns"));
    int used = 0;
    for (int column = 0; column < m_model->columnCount(); ++column)
        if (!m_table->isColumnHidden(column) && header->visualIndex(column) <= lastKey)
            used += m_table->columnWidth(column);
    int spare = m_table->viewport()->width() - used;
    for (const CappedColumn &c : m_capped) {
        const int grow = std::min(spare, c.content - c.cap);
        if (grow > 0) {
            m_table->setColumnWidth(c.column, c.cap + grow);
            spare -= grow;
        }
    }
    // Names told apart within the column's width: eliding them again in the middle would cut out the
    // part that tells two GEMMs apart.
    const QFontMetrics metrics(m_table->font());
    const int margin = 2 * m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 2;
    const int room = m_table->columnWidth(KernelDiffModel::column("kernel")) - margin;
    m_model->setNameWidth(charsThatFit([this](int chars) { return m_model->namesAt(chars); }, metrics, room));
}

bool KernelDiffView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        fitCappedColumns();
    if (watched == m_kernelStats &&
        (event->type() == QEvent::Resize || event->type() == QEvent::PaletteChange))
        showCaption(); // elided to the new width; the hint in the new palette's colour
    return QWidget::eventFilter(watched, event);
}

void KernelDiffView::selectRow(int row)
{
    if (row < 0 || !m_diff || row >= int(m_diff->rows().size())) {
        m_table->clearSelection();
        m_table->setCurrentIndex({});
        return;
    }
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!index.isValid()) // filtered out: show it anyway
        m_filter->clear();
    m_table->setCurrentIndex(m_proxy->mapFromSource(m_model->index(row, 0)));
    m_table->scrollTo(m_table->currentIndex());
}

void KernelDiffView::showKernel(int row)
{
    if (row == m_current && row >= 0)
        return;
    m_current = row;
    m_chart->setCurrentRow(row);
    if (row < 0 || !m_diff) {
        m_boxPlot->setGroups({});
        showCaption();
        emit kernelSelected({});
        return;
    }
    const KernelDiffRow &r = m_diff->rows()[std::size_t(row)];
    std::vector<BoxPlotView::Group> groups;
    BoxPlotView::Group all = BoxPlotView::Group::fromSamples(tr("all runs"), r.a.durations, r.b.durations);
    all.toolTip = tr("%1 — all runs pooled").arg(r.kernel);
    all.runMediansA = r.a.runMedianNs;
    all.runMediansB = r.b.runMedianNs;
    groups.push_back(std::move(all));
    if (!m_processes[0].empty() && !m_processes[1].empty()) {
        // With processes as the unit, one pair of boxes per process (16 run pairs would not read).
        const std::size_t pairs = std::min(m_processes[0].size(), m_processes[1].size());
        for (std::size_t i = 0; i < pairs; ++i) {
            const Process &pa = m_processes[0][i], &pb = m_processes[1][i];
            const QString label = pa.name == pb.name ? pa.name : tr("%1 v %2").arg(pa.name, pb.name);
            BoxPlotView::Group group = BoxPlotView::Group::fromSamples(label, durationsOf(r.a, pa.runs),
                                                                       durationsOf(r.b, pb.runs), 1);
            group.toolTip =
                tr("%1 — the runs of A's %2 against those of B's %3").arg(r.kernel, pa.name, pb.name);
            groups.push_back(std::move(group));
        }
    } else if (std::max(r.a.runCalls.size(), r.b.runCalls.size()) > 1) {
        // the runs the diff counts (those with a summary), in its order: a pair by its runs' name where
        // they share one (run_0 of either side), else by its number
        QStringList names[2];
        for (int s = 0; s < 2; ++s)
            for (const LoadedRun &run : s == 0 ? m_runsA : m_runsB)
                if (run.summary)
                    names[s] << run.run.label();
        const std::size_t pairs = std::min(r.a.runCalls.size(), r.b.runCalls.size());
        for (std::size_t i = 0; i < pairs; ++i) {
            const QString a = names[0].value(qsizetype(i)), b = names[1].value(qsizetype(i));
            BoxPlotView::Group group = BoxPlotView::Group::fromSamples(
                a == b ? a : tr("run %1").arg(i + 1), runDurations(r.a, i), runDurations(r.b, i), 1);
            group.toolTip = tr("%1 — A's %2 against B's %3").arg(r.kernel, a, b);
            groups.push_back(std::move(group));
        }
    }
    // the name is beside the filter: a long one would widen the plot
    m_boxPlot->setTitle(tr("Durations of one call"));
    m_boxPlot->setGroups(std::move(groups));

    showCaption();
    emit kernelSelected(r.names);
}

void KernelDiffView::showCaption()
{
    const int width = m_kernelStats->contentsRect().width();
    if (m_current < 0 || !m_diff) {
        const QString hint = tr("Select a kernel for its verdict, intervals and p's");
        m_kernelStats->setText(
            QStringLiteral("<span style=\"color:%1\">%2</span>")
                .arg(palette().color(QPalette::PlaceholderText).name(),
                     m_kernelStats->fontMetrics().elidedText(hint, Qt::ElideRight, width).toHtmlEscaped()));
        m_kernelStats->setToolTip(QString());
        return;
    }
    const KernelDiffRow &r = m_diff->rows()[std::size_t(m_current)];
    const auto interval = [this](const stats::RunLevelTest &test) {
        if (!std::isfinite(test.change))
            return std::isinf(test.change) ? tr("new in B") : tr("no change to give"); // never "+nan %"
        return formatChangeInterval(test.change, test.ciLow, test.ciHigh); // an exact change: no interval
    };
    QStringList parts; // after the name and its verdict
    if (r.runLevel.valid())
        parts << tr("time/run: %1, p = %2 Holm (%3 v %4 %5)")
                     .arg(interval(r.runLevel), formatPValue(r.runLevelHolm))
                     .arg(r.runLevel.runsA)
                     .arg(r.runLevel.runsB)
                     .arg(r.byProcess ? tr("processes") : tr("runs"));
    if (r.perCall.valid())
        parts << tr("per call: %1, p = %2 Holm, %3")
                     .arg(interval(r.perCall), formatPValue(r.perCallHolm), r.perCallVerdictText());
    if (r.names.size() > 1)
        parts << (m_options.byOp ? tr("%n kernel(s) in this op", nullptr, int(r.names.size()))
                                 : tr("%n name(s) folded into this row", nullptr, int(r.names.size())));
    const QString verdict = QStringLiteral(": ") + r.verdictText();
    m_kernelStats->setToolTip((QStringList{r.kernel.left(2000) + verdict} + parts).join(QLatin1Char('\n')));

    // The name gets up to 40 % of the line (elided in its middle, where template names differ least),
    // the figures the rest (elided at their end, the verdict first). Every piece is escaped: a p of
    // "< 1e-323" unescaped swallowed the line.
    QFont bold = m_kernelStats->font();
    bold.setBold(true);
    const QFontMetrics boldMetrics(bold);
    // without a demangled return type and parameters, which took the room of the per-call verdict
    const QString shortName = shortKernelName(r.kernel);
    const QString bounded =
        shortName.size() > 100 ? shortName.left(60) + QStringLiteral("…") + shortName.right(39) : shortName;
    const QString name = boldMetrics.elidedText(bounded, Qt::ElideMiddle, std::max(80, width * 2 / 5));
    const QString figures = m_kernelStats->fontMetrics().elidedText(
        (QStringList{verdict} + parts).join(QStringLiteral(" · ")), Qt::ElideRight,
        std::max(40, width - boldMetrics.horizontalAdvance(name) - 4));
    m_kernelStats->setText(QStringLiteral("<b>%1</b>%2").arg(name.toHtmlEscaped(), figures.toHtmlEscaped()));
}

} // namespace scopeline
