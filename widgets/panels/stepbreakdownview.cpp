// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/stepbreakdownview.h"

#include "widgets/tables/columntablemodel.h"
#include "widgets/tables/comparisontablemodel.h"
#include "widgets/panels/proportionalsplitter.h"
#include "widgets/charts/steptimechart.h"
#include "widgets/charts/stepwaterfall.h"

#include "model/analysis/scopeindex.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <set>

namespace scopeline {

namespace {

// Whether a run of either side has a scope of this name.
bool hasScope(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &name)
{
    for (const QList<LoadedRun> *side : {&a, &b})
        for (const LoadedRun &run : *side)
            if (run.scopes)
                for (const ScopeIndex::Scope &scope : run.scopes->scopes())
                    if (scope.name == name)
                        return true;
    return false;
}

} // namespace

StepBreakdownView::StepBreakdownView(QWidget *parent) : QWidget(parent)
{
    m_picker = new QComboBox(this);
    m_picker->setEditable(true); // a scope the list lacks can be typed
    m_picker->setInsertPolicy(QComboBox::NoInsert);
    m_picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_picker->setMinimumContentsLength(16);
    m_picker->setToolTip(tr("The step scope: each of its instances is one step (ProfilerStep#N, a jitted "
                            "call, or any scope typed here); \"%1\" makes each run one step")
                             .arg(StepBreakdownOptions::wholeRun()));
    m_line = new QLabel(this);
    m_line->setWordWrap(true);
    m_line->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_line->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // wraps, never widens the window
    m_waterfall = new StepWaterfall(this);
    m_chart = new StepTimeChart(this);
    m_chart->setToolTip(
        tr("Step time of every step, one line per run: warm-up steps and outlier runs stand out"));

    auto *header = new QHBoxLayout;
    auto *pickerLabel = new QLabel(tr("&Step:"), this);
    pickerLabel->setBuddy(m_picker);
    header->addWidget(pickerLabel);
    header->addWidget(m_picker);
    header->addWidget(m_line, 1);
    auto *charts = new ProportionalSplitter(Qt::Horizontal, {1, 1}, this);
    m_tableModel = new ColumnTableModel<StepRow>(StepBreakdown::columns(), this);
    m_table = new QTableView(this);
    m_table->setModel(m_tableModel);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto *tabs = new QTabWidget(this);
    tabs->setDocumentMode(true);
    tabs->addTab(m_chart, tr("Per step"));
    tabs->addTab(m_table, tr("Table"));
    charts->addWidget(m_waterfall);
    charts->addWidget(tabs);
    charts->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(header);
    layout->addWidget(charts, 1);

    connect(m_picker, &QComboBox::activated, this,
            [this](int index) { setStepScope(m_picker->itemText(index)); });
    connect(m_picker->lineEdit(), &QLineEdit::editingFinished, this,
            [this] { setStepScope(m_picker->currentText().trimmed()); });
    connect(m_waterfall, &StepWaterfall::selectedCauseChanged, this, &StepBreakdownView::selectedGapsChanged);
    recompute();
}

StepBreakdownView::~StepBreakdownView() = default;

void StepBreakdownView::setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &labelA,
                                 const QString &labelB)
{
    m_runsA = a;
    m_runsB = b;
    m_chart->setLabels(labelA, labelB);
    fillPicker();
    if (m_options.stepScope != StepBreakdownOptions::wholeRun() &&
        !hasScope(m_runsA, m_runsB, m_options.stepScope))
        m_options.stepScope.clear(); // not in these runs: the detected one
    recompute();
}

void StepBreakdownView::setThreshold(double threshold)
{
    if (threshold == m_options.threshold)
        return;
    m_options.threshold = threshold;
    recompute();
}

void StepBreakdownView::setStepScope(const QString &scope)
{
    // editingFinished follows an activation, and a focus change: only a new scope recomputes
    if (scope == m_options.stepScope || (!scope.isEmpty() && scope == shownScope()))
        return;
    m_options.stepScope = scope;
    recompute();
}

QString StepBreakdownView::shownScope() const
{
    if (!m_breakdown)
        return {};
    return m_breakdown->stepScope().isEmpty() ? StepBreakdownOptions::wholeRun() : m_breakdown->stepScope();
}

QString StepBreakdownView::lineToolTip() const
{
    const bool byProcess = m_breakdown && m_breakdown->byProcess();
    const QString unit = byProcess ? tr("process") : tr("run");
    QString tip =
        byProcess
            ? tr("Mean step time of A and B (each process's mean over its steps, averaged over the "
                 "processes), the change with its 1 − α confidence interval, and the verdict of Welch's "
                 "test on the per-process means")
            : tr("Mean step time of A and B (each run's mean over its steps, averaged over the runs), "
                 "the change with its 1 − α confidence interval, and the verdict of Welch's test on the "
                 "per-run means");
    if (!m_breakdown)
        return tip;
    const StepRow &step = m_breakdown->row(StepPart::Step);
    if (!m_breakdown->periodText().isEmpty())
        tip +=
            QStringLiteral(".\n") +
            tr("The step time is the GPU span of one step's kernels; “a step every” is the time from one "
               "step's start to the next's, how often steps come (the %1 means, A → B, with Fieller's "
               "interval of the change at the step's level, no verdict of its own, “not significant” where "
               "that interval holds no change while the step time changed): host time between steps is "
               "in it, not in the step")
                .arg(unit);
    if (step.tied)
        tip += QStringLiteral(".\n") + ComparisonTableModel::tiedExplanation(unit, 0);
    if (!step.caveat.isEmpty())
        tip += QStringLiteral("\n") + tr("Caveat: %1.").arg(step.caveat);
    return tip;
}

QString StepBreakdownView::stepLine() const
{
    return m_breakdown ? m_breakdown->stepLine() : QString();
}

void StepBreakdownView::fillPicker()
{
    // The step scopes of either side, then the whole run.
    std::set<QString> steps;
    for (const QList<LoadedRun> *side : {&m_runsA, &m_runsB})
        for (const LoadedRun &run : *side)
            if (run.scopes)
                for (const ScopeIndex::Scope &scope : run.scopes->scopes())
                    if (scope.step)
                        steps.insert(scope.name);
    const QSignalBlocker blocker(m_picker);
    m_picker->clear();
    for (const QString &name : steps)
        m_picker->addItem(name);
    m_picker->addItem(StepBreakdownOptions::wholeRun());
}

void StepBreakdownView::recompute()
{
    std::unique_ptr<const StepBreakdown> next;
    if (!m_runsA.isEmpty() || !m_runsB.isEmpty())
        next = std::make_unique<const StepBreakdown>(m_runsA, m_runsB, m_options);
    // the charts let go of the old breakdown before it goes
    m_waterfall->setBreakdown(next.get());
    m_chart->setBreakdown(next.get());
    m_tableModel->setRows(next ? next->rows() : std::vector<StepRow>());
    m_breakdown = std::move(next);
    {
        const QSignalBlocker blocker(m_picker);
        m_picker->setEditText(shownScope());
    }
    const QString note = m_breakdown ? m_breakdown->note() : QString();
    m_line->setText(m_breakdown
                        ? m_breakdown->stepLine() + (note.isEmpty() ? QString() : QLatin1Char('\n') + note)
                        : tr("Open a pair of traces to see whether the step got faster."));
    m_line->setToolTip(lineToolTip());
    emit selectedGapsChanged(); // a new breakdown selects no cause
    emit stepScopeChanged(m_options.stepScope);
}

std::optional<std::vector<std::pair<int64_t, int64_t>>>
StepBreakdownView::selectedGaps(int side, const QString &run) const
{
    const int cause = m_waterfall->selectedCause();
    if (!m_breakdown || cause < 0)
        return std::nullopt;
    // found again when asked for: a run's gaps are about as many as its kernels
    std::vector<std::pair<int64_t, int64_t>> gaps;
    std::vector<StepGap> all;
    for (const LoadedRun &loaded : side == 0 ? m_runsA : m_runsB)
        if (loaded.summary && loaded.run.label() == run) {
            findRunSteps(*loaded.summary, m_breakdown->stepScope(), nullptr, &all);
            for (const StepGap &gap : all)
                if (int(stepPartOf(gap.cause)) == cause)
                    gaps.emplace_back(gap.start, gap.end);
        }
    return gaps;
}

} // namespace scopeline
