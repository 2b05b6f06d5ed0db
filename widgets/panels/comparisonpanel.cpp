// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/comparisonpanel.h"

#include "widgets/charts/boxplotview.h"
#include "widgets/panels/caveatbanner.h"
#include "widgets/tables/comparisontablemodel.h"
#include "widgets/panels/proportionalsplitter.h"
#include "widgets/tables/rawvaluesortproxy.h"
#include "widgets/charts/scopeboxplot.h"
#include "widgets/panels/scopepicker.h"
#include "widgets/tables/statisticstable.h"
#include "widgets/panels/summarystrip.h"

#include "model/comparison/replication.h"

#include <qcustomplot.h>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace scopeline {

ComparisonPanel::ComparisonPanel(QWidget *parent) : QWidget(parent)
{
    m_summary = new SummaryStrip(this);
    m_summary->setThreshold(m_threshold);
    m_caveat = new CaveatBanner(this);
    m_picker = new ScopePicker(this);
    m_boxPlot = new BoxPlotView(this);
    m_tableModel = new ComparisonTableModel(this);
    m_tableProxy = new RawValueSortProxy(this);
    m_tableProxy->setSourceModel(m_tableModel);
    m_tableProxy->setSortRole(ComparisonTableModel::RawValueRole);

    // Plot toolbar: pooled / per run, log scale, threshold.
    auto *toolbar = new QToolBar(this);
    toolbar->setIconSize(QSize(16, 16));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *viewGroup = new QActionGroup(this);
    m_pooledAction = new QAction(tr("Pooled"), viewGroup);
    m_pooledAction->setCheckable(true);
    m_pooledAction->setChecked(true);
    m_pooledAction->setToolTip(
        tr("One A box and one B box per scope, all runs of each side pooled (Ctrl+P toggles)"));
    m_perRunAction = new QAction(tr("Per run"), viewGroup);
    m_perRunAction->setCheckable(true);
    m_perRunAction->setToolTip(tr("A and B boxes for each run pair of each scope: run-to-run variation shows "
                                  "(Ctrl+P toggles)"));
    toolbar->addAction(m_pooledAction);
    toolbar->addAction(m_perRunAction);
    toolbar->addSeparator();
    toolbar->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed); // never the plot's minimum width

    m_logCheck = new QCheckBox(tr("Log scale"), this);
    m_logCheck->setToolTip(tr("Logarithmic duration axis, for scopes of very different lengths or long tails "
                              "(Ctrl+L)"));
    toolbar->addWidget(m_logCheck);
    toolbar->addSeparator();

    auto *thresholdLabel = new QLabel(tr("Threshold %"), this);
    m_thresholdSpin = new QDoubleSpinBox(this);
    m_thresholdSpin->setRange(0, 100);
    m_thresholdSpin->setDecimals(2);
    m_thresholdSpin->setSingleStep(0.5);
    m_thresholdSpin->setValue(100 * m_threshold);
    m_thresholdSpin->setSuffix(QStringLiteral(" %"));
    m_thresholdSpin->setAccelerated(true);
    const QString thresholdTip =
        tr("Smallest relative change of the medians that counts as a finding: smaller "
           "significant changes read as “no meaningful change”");
    m_thresholdSpin->setToolTip(thresholdTip);
    thresholdLabel->setToolTip(thresholdTip);
    thresholdLabel->setBuddy(m_thresholdSpin);
    auto *thresholdBox = new QWidget(this);
    auto *thresholdLayout = new QHBoxLayout(thresholdBox);
    thresholdLayout->setContentsMargins(6, 0, 0, 0);
    thresholdLayout->addWidget(thresholdLabel);
    thresholdLayout->addWidget(m_thresholdSpin);
    // the threshold sits with the table whose verdicts it sets (the plot's toolbar stays narrow)
    auto *spacer = new QWidget(this);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    toolbar->addWidget(spacer);
    QAction *fit = toolbar->addAction(tr("Fit"), m_boxPlot, &BoxPlotView::fitToData);
    fit->setToolTip(tr("Fit the duration axis to the data (or double-click the plot)"));

    // Shortcuts, panel-wide.
    m_pooledToggle = new QAction(tr("Toggle Pooled / Per Run"), this);
    m_pooledToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    m_pooledToggle->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_pooledToggle, &QAction::triggered, this, [this] { setPooled(!pooled()); });
    m_logAction = new QAction(tr("Log Scale"), this);
    m_logAction->setCheckable(true);
    m_logAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_logAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_logAction->setToolTip(m_logCheck->toolTip());
    addAction(m_pooledToggle);
    addAction(m_logAction);
    addAction(m_picker->focusFilterAction());

    auto *plotPane = new QWidget(this);
    auto *plotLayout = new QVBoxLayout(plotPane);
    plotLayout->setContentsMargins(0, 0, 0, 0);
    plotLayout->setSpacing(0);
    plotLayout->addWidget(toolbar);
    plotLayout->addWidget(m_boxPlot, 1);

    // The statistics table.
    m_table = new QTableView(this);
    m_table->setModel(m_tableProxy);
    setUpStatisticsTable(m_table);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    // The verdict right after scope and run, visible without scrolling, and beside it the interval it is
    // decided from: an "all" row's run-level change, a run pair's shift interval; then the medians' change.
    QHeaderView *tableHeader = m_table->horizontalHeader();
    const auto column = [](const char *key) { return ComparisonTableModel::column(key); };
    int visual = 2;
    for (const char *key :
         {"verdict", "run_level_change", "hl_ci_low_ns", "rel_change_median", "run_level_p"})
        tableHeader->moveSection(tableHeader->visualIndex(column(key)), visual++);
    // Scope and Run stay in view when the table is scrolled to the right.
    freezeLeadingColumns(m_table, {column("scope"), column("run")});
    m_table->setToolTip(tr("Statistics of B against A per scope and run pair (“all”: runs pooled). Click a "
                           "header to sort; Ctrl+C copies the table as CSV."));
    m_copyCsv = new QAction(tr("Copy as CSV"), m_table);
    m_copyCsv->setShortcut(QKeySequence::Copy);
    m_copyCsv->setShortcutContext(Qt::WidgetShortcut);
    m_copyCsv->setToolTip(tr("Copy every row as CSV, the columns of scopeline-cli compare --csv (Ctrl+C)"));
    m_copySelectedCsv = new QAction(tr("Copy Selected Rows as CSV"), m_table);
    m_copySelectedCsv->setToolTip(tr("Copy the selected rows as CSV"));
    m_table->addAction(m_copyCsv);
    m_table->addAction(m_copySelectedCsv);
    connect(m_copyCsv, &QAction::triggered, this, [this] { copyCsv(false); });
    connect(m_copySelectedCsv, &QAction::triggered, this, [this] { copyCsv(true); });

    m_tableCaption = new QLabel(this);
    m_tableCaption->setText(tr("Statistics — an “all” row is judged on its runs’ medians (the run-level test)"));
    m_tableCaption->setToolTip(
        tr("With ≥ 2 runs a side, an “all” row's verdict is the run-level test's: Welch's t on the log run "
           "medians, Holm p < 0.05 and a change of at least the threshold. Run-pair rows, and sides with one "
           "run, use the per-sample Mann–Whitney test. What changed judges the step time on its mean per step "
           "instead, so a run with one slow step moves it more than it moves a median."));
    // a narrow window wraps the caption instead of growing (a QLabel cuts it off mid-word)
    m_tableCaption->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_tableCaption->setWordWrap(true);
    m_tableCaption->setForegroundRole(QPalette::PlaceholderText);
    auto *copyButton = new QToolButton(this);
    copyButton->setDefaultAction(m_copyCsv);
    copyButton->setAutoRaise(true);
    auto *tablePane = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 4, 0, 0);
    tableLayout->setSpacing(2);
    auto *captionRow = new QHBoxLayout;
    captionRow->addWidget(m_tableCaption, 1);
    captionRow->addWidget(thresholdBox);
    captionRow->addWidget(copyButton);
    tableLayout->addLayout(captionRow);
    tableLayout->addWidget(m_table, 1);

    // The boxplot beside the table on a wide, low panel (a laptop screen under the timelines), so
    // that both keep a usable height; over it when there is height to spare (resizeEvent).
    auto *right = new ProportionalSplitter(Qt::Horizontal, {2, 3}, this);
    right->addWidget(plotPane);
    right->addWidget(tablePane);
    right->setChildrenCollapsible(false);
    right->setStretchFactor(0, 2);
    right->setStretchFactor(1, 3);
    m_plotAndTable = right;
    auto *split = new ProportionalSplitter(Qt::Horizontal, {1, 3}, this);
    split->addWidget(m_picker);
    split->addWidget(right);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    m_picker->setMinimumWidth(260);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(m_summary);
    layout->addWidget(m_caveat);
    m_scopeNote = new QLabel(this);
    m_scopeNote->setObjectName(QStringLiteral("scopeNote"));
    m_scopeNote->setWordWrap(true);
    m_scopeNote->setTextFormat(Qt::PlainText);
    m_scopeNote->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_scopeNote->setMargin(4); // set off from the picker below, as the caveat banner above is
    m_scopeNote->setAutoFillBackground(true);
    m_scopeNote->setBackgroundRole(QPalette::AlternateBase);
    m_scopeNote->hide();
    layout->addWidget(m_scopeNote);
    layout->addWidget(split, 1);

    connect(m_picker, &ScopePicker::selectedScopesChanged, this, [this] {
        recompute();
        emit settingsChanged();
    });
    connect(m_picker, &ScopePicker::matchModeChanged, this, [this] {
        recompute();
        emit settingsChanged();
    });
    connect(m_picker, &ScopePicker::sampleModeChanged, this, [this] {
        recompute();
        emit settingsChanged();
    });
    connect(m_pooledAction, &QAction::toggled, this, [this](bool checked) { setPooled(checked); });
    connect(m_perRunAction, &QAction::toggled, this, [this](bool checked) { setPooled(!checked); });
    connect(m_logCheck, &QCheckBox::toggled, this, &ComparisonPanel::setLogScale);
    connect(m_logAction, &QAction::toggled, this, &ComparisonPanel::setLogScale);
    connect(m_thresholdSpin, &QDoubleSpinBox::valueChanged, this, [this](double percent) {
        m_threshold = percent / 100;
        m_tableModel->setThreshold(m_threshold);
        m_summary->setThreshold(m_threshold);
        emit settingsChanged();
    });

    m_boxPlot->setLabels(QStringLiteral("A"), QStringLiteral("B"));
    recompute();
}

ComparisonPanel::~ComparisonPanel() = default;

void ComparisonPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // Side by side unless the panel is tall for its width (then each gets the full width).
    const Qt::Orientation wanted = height() * 2 > width() ? Qt::Vertical : Qt::Horizontal;
    if (m_plotAndTable->orientation() != wanted) {
        m_plotAndTable->setOrientation(wanted);
        m_plotAndTable->setSizes({2000, 3000}); // 2 : 3 in the new direction (sizes scale to fit)
    }
}

void ComparisonPanel::setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &labelA,
                               const QString &labelB)
{
    m_runsA = a;
    m_runsB = b;
    m_indexA = scopeIndexes(a);
    m_indexB = scopeIndexes(b);
    m_summary->setSides(a, b, labelA, labelB);
    // Runs of one process a side: the run-level verdicts cannot see differences between processes.
    const auto loaded = [](const QList<LoadedRun> &runs) {
        return std::any_of(runs.begin(), runs.end(), [](const LoadedRun &run) { return run.ok(); });
    };
    m_replication = std::make_unique<Replication>(Replication::of(a, b));
    const QString caveat = loaded(a) && loaded(b) ? m_replication->caveat() : QString();
    m_caveat->setCaveat(caveat, pairCaveats(a, b));
    m_tableModel->setCaveat(caveat);
    m_tableModel->setRunNames(Replication::runNames(a), Replication::runNames(b));
    m_picker->setSides(a, b);
    const ScopeComparison scopes(m_indexA, m_indexB);
    m_noScopes = !scopes.noScopesNote().isEmpty();
    const QString note = m_noScopes ? scopes.noScopesNote() : scopes.unnamedSideNote();
    m_scopeNote->setText(note);
    m_scopeNote->setVisible(!note.isEmpty());
    m_boxPlot->setLabels(ScopeBoxPlot::legendLabel(labelA, tr("A")),
                         ScopeBoxPlot::legendLabel(labelB, tr("B")));
    m_boxPlot->setRanked(hasRanks(a) || hasRanks(b));
    recompute();
}

QString ComparisonPanel::scopeNote() const
{
    return m_scopeNote->text();
}

QStringList ComparisonPanel::selectedScopes() const
{
    return m_picker->selectedScopes();
}

void ComparisonPanel::setSelectedScopes(const QStringList &scopes)
{
    m_picker->setSelectedScopes(scopes);
}

void ComparisonPanel::selectDefaultScope()
{
    m_picker->selectDefaultScope();
}

MatchMode ComparisonPanel::matchMode() const
{
    return m_picker->matchMode();
}

void ComparisonPanel::setMatchMode(MatchMode mode)
{
    m_picker->setMatchMode(mode);
}

SampleMode ComparisonPanel::sampleMode() const
{
    return m_picker->sampleMode();
}

void ComparisonPanel::setSampleMode(SampleMode mode)
{
    m_picker->setSampleMode(mode);
}

double ComparisonPanel::threshold() const
{
    return m_threshold;
}

void ComparisonPanel::setThreshold(double threshold)
{
    // What the spin box can show is what verdicts are judged at (a stored setting may be anything).
    threshold = std::clamp(std::isfinite(threshold) ? threshold : m_threshold,
                           m_thresholdSpin->minimum() / 100, m_thresholdSpin->maximum() / 100);
    if (threshold == m_threshold)
        return;
    m_threshold = threshold;
    {
        const QSignalBlocker blocker(m_thresholdSpin);
        m_thresholdSpin->setValue(100 * threshold);
    }
    m_tableModel->setThreshold(threshold);
    m_summary->setThreshold(threshold);
    emit settingsChanged();
}

bool ComparisonPanel::pooled() const
{
    return m_pooled;
}

void ComparisonPanel::setPooled(bool pooled)
{
    if (pooled == m_pooled)
        return;
    m_pooled = pooled;
    (pooled ? m_pooledAction : m_perRunAction)->setChecked(true);
    updatePlot();
    emit settingsChanged();
}

bool ComparisonPanel::logScale() const
{
    return m_boxPlot->logScale();
}

void ComparisonPanel::setLogScale(bool logScale)
{
    {
        const QSignalBlocker checkBlocker(m_logCheck);
        const QSignalBlocker actionBlocker(m_logAction);
        m_logCheck->setChecked(logScale);
        m_logAction->setChecked(logScale);
    }
    if (logScale == m_boxPlot->logScale())
        return;
    m_boxPlot->setLogScale(logScale);
    emit settingsChanged();
}

const std::vector<ComparisonRow> &ComparisonPanel::rows() const
{
    return m_tableModel->rows();
}

std::vector<ComparisonRow> ComparisonPanel::rowsAsCompared() const
{
    // the table's verdict rows were moved first (recompute); back after their run pairs, scope by scope
    std::vector<ComparisonRow> rows = this->rows();
    QStringList scopes;
    for (const ComparisonRow &row : rows)
        if (!scopes.contains(row.scope))
            scopes << row.scope;
    std::stable_sort(rows.begin(), rows.end(), [&](const ComparisonRow &x, const ComparisonRow &y) {
        return std::pair(scopes.indexOf(x.scope), x.verdictRow) <
               std::pair(scopes.indexOf(y.scope), y.verdictRow);
    });
    return rows;
}

QString ComparisonPanel::csv() const
{
    return ScopeComparison::toCsv(rowsAsCompared(), 0.05, m_threshold);
}

QCustomPlot *ComparisonPanel::plot() const
{
    return m_boxPlot->plot();
}

void ComparisonPanel::recompute()
{
    const QStringList scopes = selectedScopes();
    std::vector<ComparisonRow> rows;
    if (!scopes.isEmpty() && (!m_indexA.empty() || !m_indexB.empty())) {
        ScopeComparison comparison(m_indexA, m_indexB);
        comparison.setReplication(m_replication.get()); // processes as the unit when a side has ≥ 2
        rows = comparison.compare(scopes, matchMode(), sampleMode());
        // Each scope's verdict row first: below the run pairs of one scope of 16 runs it lay out of
        // sight at the window's usual height, the run pairs' own changes in its place.
        std::stable_partition(rows.begin(), rows.end(),
                              [](const ComparisonRow &row) { return row.verdictRow; });
    }
    m_tableModel->setRows(std::move(rows));
    m_table->resizeColumnsToContents();
    for (int column = 0; column < m_tableModel->columnCount(); ++column)
        m_table->setColumnWidth(column, std::min(m_table->columnWidth(column), 320));
    updatePlot();
}

void ComparisonPanel::updatePlot()
{
    const QStringList scopes = selectedScopes();
    m_boxPlot->setTitle(ScopeBoxPlot::title(sampleMode(), m_pooled));
    if (scopes.isEmpty())
        m_boxPlot->setHint(
            m_indexA.empty() && m_indexB.empty()
                ? tr("Open a pair of traces, then select scopes on the left to compare A and B")
            : m_noScopes ? tr("No scopes in A or B to compare (see the note above)")
                         : tr("Select scopes on the left to compare A and B"));
    else
        m_boxPlot->setHint(ScopeBoxPlot::noSamplesHint(rows(), scopes));
    m_boxPlot->setGroups(ScopeBoxPlot::groups(rows(), scopes, m_pooled));
}

void ComparisonPanel::copyCsv(bool selectedOnly)
{
    std::vector<ComparisonRow> rows;
    if (selectedOnly) {
        std::vector<int> sourceRows;
        for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
            sourceRows.push_back(m_tableProxy->mapToSource(index).row());
        std::sort(sourceRows.begin(), sourceRows.end());
        for (int row : sourceRows)
            rows.push_back(m_tableModel->row(row));
    } else {
        rows = rowsAsCompared(); // every row, as csv() and the CLI write them
    }
    QApplication::clipboard()->setText(ScopeComparison::toCsv(rows, 0.05, m_threshold));
}

} // namespace scopeline
