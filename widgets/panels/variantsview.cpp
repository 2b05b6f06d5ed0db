// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/variantsview.h"

#include "model/comparison/sweep.h"
#include "model/loading/sideargument.h"
#include "model/tables/tableformat.h"
#include "widgets/charts/boxplotview.h"
#include "widgets/charts/kernelmatrix.h"
#include "widgets/charts/scopeboxplot.h"
#include "widgets/charts/variantbars.h"
#include "widgets/panels/proportionalsplitter.h"
#include "widgets/tables/columntablemodel.h"
#include "widgets/tables/plaintableview.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

namespace scopeline {

namespace {

// Columns fitted to their contents, the verdict's elided (whole in its tooltip): a reason can be a
// sentence, and the figures beside it should stay in view.
template <typename Row> void fitColumns(QTableView *view, const std::vector<TableColumn<Row>> &columns)
{
    view->resizeColumnsToContents();
    for (std::size_t i = 0; i < columns.size(); ++i)
        if (columns[i].csvKey == QLatin1String("verdict"))
            view->setColumnWidth( // the cell's margins too: "no significant change" itself had been cut
                int(i), std::min(view->columnWidth(int(i)), view->fontMetrics().horizontalAdvance(
                                                                QStringLiteral("no significant change…")) +
                                                                view->fontMetrics().height()));
}

} // namespace

VariantsView::VariantsView(QWidget *parent) : QWidget(parent)
{
    m_lead = new QLabel(this);
    m_lead->setWordWrap(true);
    m_lead->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_lead->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_lead->setToolTip(
        tr("Each candidate's step against the baseline: the change, in brackets Fieller's interval "
           "of the ratio at the level the verdict is judged (the step rows of all candidates are "
           "one Holm family), and the part of the step that changed most"));
    m_bars = new VariantBars(this);
    m_matrix = new KernelMatrix(this);
    m_stepModel = new ColumnTableModel<VariantStepRow>(VariantSteps::tableColumns(), this);
    m_stepView = plainTableView(m_stepModel, this);
    m_stepView->setToolTip(
        tr("Each candidate's step and its parts against the baseline: the step rows of all "
           "candidates one Holm family, their parts another"));
    m_rankModel = new ColumnTableModel<VariantRankComparisonRow>(VariantRanks::comparisonColumns(), this);
    m_rankView = plainTableView(m_rankModel, this);
    m_rankView->setToolTip(
        tr("Each candidate's ranks against the baseline's: the step's mean over ranks, the slowest "
           "rank and each rank; the candidates' means one Holm family, their slowest ranks and ranks "
           "another, each interval at the level its verdict is judged"));
    m_scopeBox = new QComboBox(this);
    m_scopeBox->setToolTip(tr("The scope whose samples the boxplots show, per variant"));
    m_scopeBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_scopeBox->setMinimumContentsLength(24);
    connect(m_scopeBox, &QComboBox::currentTextChanged, this, &VariantsView::showScope);
    m_boxes = new BoxPlotView(this);
    m_scopeNote = new QLabel(this);
    m_scopeNote->setWordWrap(true);
    m_scopeNote->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_scopeNote->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto *scopePane = new QWidget(this);
    auto *scopeLayout = new QVBoxLayout(scopePane);
    scopeLayout->setContentsMargins(0, 2, 0, 0);
    auto *scopeRow = new QHBoxLayout;
    scopeRow->addWidget(new QLabel(tr("Scope:"), scopePane));
    scopeRow->addWidget(m_scopeBox);
    scopeRow->addStretch(1);
    scopeLayout->addLayout(scopeRow);
    scopeLayout->addWidget(m_scopeNote);
    scopeLayout->addWidget(m_boxes, 1);

    m_figures = new QTabWidget(this);
    m_figures->setDocumentMode(true);
    m_figures->addTab(m_stepView, tr("Steps"));
    m_figures->addTab(m_matrix, tr("Kernels"));
    m_figures->addTab(scopePane, tr("Scopes"));
    m_figures->addTab(m_rankView, tr("Ranks"));
    m_figures->setTabVisible(m_figures->indexOf(m_rankView), false);
    auto *split = new ProportionalSplitter(Qt::Horizontal, {2, 3}, this);
    split->addWidget(m_bars);
    split->addWidget(m_figures);
    split->setChildrenCollapsible(false);

    m_pairA = new QComboBox(this);
    m_pairB = new QComboBox(this);
    m_pairA->setToolTip(tr("The variant to open as side A of the pair views"));
    m_pairB->setToolTip(tr("The variant to open as side B of the pair views"));
    m_open = new QPushButton(tr("&Compare the Pair"), this);
    m_open->setToolTip(tr("Open the two variants in the timelines, What changed and Scopes"));
    connect(m_open, &QPushButton::clicked, this, [this] {
        const int a = m_pairA->currentIndex(), b = m_pairB->currentIndex();
        if (a >= 0 && b >= 0)
            emit pairRequested(m_paths.value(a), m_paths.value(b));
    });
    auto *pairRow = new QHBoxLayout;
    pairRow->addWidget(new QLabel(tr("Pair views:"), this));
    pairRow->addWidget(m_pairA);
    pairRow->addWidget(new QLabel(tr("against"), this));
    pairRow->addWidget(m_pairB);
    pairRow->addWidget(m_open);
    pairRow->addStretch(1);

    // A line a candidate (ten candidates, twenty wrapped lines at 1366 px) had left the chart 90 px.
    m_leadArea = new QScrollArea(this);
    m_leadArea->setWidget(m_lead);
    m_leadArea->setWidgetResizable(true);
    m_leadArea->setFrameShape(QFrame::NoFrame);
    m_leadArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_leadArea);
    layout->addWidget(split, 1);
    layout->addLayout(pairRow);
}

VariantsView::~VariantsView() = default;

void VariantsView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitLead();
}

QString VariantsView::leadText() const
{
    return m_lead->text();
}

void VariantsView::fitLead()
{
    const int line = m_lead->fontMetrics().lineSpacing();
    const int most = std::max(3, height() / 4 / line) * line; // whole lines
    const int wanted = m_lead->heightForWidth(m_leadArea->width());
    m_leadArea->setVerticalScrollBarPolicy(wanted > most ? Qt::ScrollBarAsNeeded : Qt::ScrollBarAlwaysOff);
    m_leadArea->setFixedHeight(std::min(std::max(wanted, 0), most));
}

void VariantsView::setVariants(const std::vector<QList<LoadedRun>> &sides, const QStringList &labels,
                               const QStringList &paths, const QStringList &notes)
{
    if (sides.size() < 2) {
        clear();
        return;
    }
    // a sweep's candidates by their parameter, as its chart draws them; the baseline first
    m_sides.clear();
    m_labels.clear();
    m_paths.clear();
    for (const int i : Sweep::tableOrder(int(sides.size()), Sweep::parameters(labels))) {
        m_sides.push_back(sides[std::size_t(i)]);
        m_labels << labels.value(i);
        m_paths << paths.value(i);
    }
    m_pairA->clear(); // other variants: the baseline and the first candidate
    m_pairB->clear();
    // a path given twice is compared all the same, as the CLI does, and said (looked up once: the
    // paths do not change with the settings)
    QList<SideArgument> sideArguments;
    for (qsizetype i = 0; i < labels.size(); ++i)
        sideArguments.append({labels[i], paths.value(i)});
    m_notes = SideArgument::sameRuns(sideArguments) + notes;
    rebuild();
}

void VariantsView::setSettings(const QString &stepScope, double threshold, MatchMode match,
                               SampleMode samples)
{
    if (stepScope == m_stepOptions.stepScope && threshold == m_stepOptions.threshold && match == m_match &&
        samples == m_samples)
        return;
    m_stepOptions.stepScope = stepScope;
    m_stepOptions.threshold = m_diffOptions.threshold = threshold;
    m_match = match;
    m_samples = samples;
    if (hasVariants())
        rebuild();
}

void VariantsView::rebuild()
{
    const std::vector<QList<LoadedRun>> &sides = m_sides;
    const QStringList &labels = m_labels;
    const std::vector<QList<LoadedRun>> candidates(sides.begin() + 1, sides.end());
    m_steps = std::make_unique<VariantSteps>(sides.front(), candidates, labels.mid(1), m_stepOptions);
    m_diff = std::make_unique<VariantDiff>(sides.front(), candidates, labels.mid(1), m_diffOptions);
    const QString stepScope =
        m_steps->comparisons().empty() ? QString() : m_steps->comparisons().front().stepScope();
    QStringList lead{
        stepScope.isEmpty() || stepScope == StepBreakdownOptions::wholeRun()
            ? tr("Baseline (A): %1, each variant B against it; each run one step").arg(labels.value(0))
            : tr("Baseline (A): %1, each variant B against it; per step of %2")
                  .arg(labels.value(0), stepScope)};
    // The answer first (over every candidate, and a sweep's jump), then a short line per candidate; the
    // parts of each step and its period, whole in the tooltip. With nine candidates the lines had
    // filled the box before the third.
    QStringList whole = lead;
    if (candidates.size() > 1)
        lead << m_steps->summaryLine();
    // a sweep (every label a number, three or more): neighbours compared, where it jumps, and lines
    // over the parameter
    const std::vector<double> parameters =
        labels.size() >= 3 ? Sweep::parameters(labels) : std::vector<double>{};
    m_sweep.reset();
    if (!parameters.empty()) {
        m_sweep = std::make_unique<Sweep>(Sweep::ofVariants(sides, labels, parameters, m_stepOptions));
        const QString name = Sweep::parameterName(labels);
        lead << (m_sweep->jump() >= 0
                     ? tr("Sweep, neighbours compared (Holm over them): the jump is %1")
                           .arg(m_sweep->pairLine(m_sweep->jump(), name))
                     : tr("Sweep, neighbours compared (Holm over them): %1").arg(m_sweep->noJumpText()));
    }
    for (int i = 0; i < int(candidates.size()); ++i) {
        lead << m_steps->briefLine(i);
        whole << m_steps->leadLine(i);
    }
    for (const QString &note : m_notes)
        lead << tr("Note: %1").arg(note);
    m_lead->setText(lead.join(QLatin1Char('\n')));
    m_lead->setToolTip(whole.join(QLatin1Char('\n')));
    fitLead();
    m_stepModel->setRows(m_steps->rows());
    fitColumns(m_stepView, VariantSteps::tableColumns());
    // jobs of several GPUs: their ranks, judged with every candidate as `ranks A B C …` judges them
    m_ranks.reset();
    if (std::any_of(sides.begin(), sides.end(), [](const QList<LoadedRun> &side) { return hasRanks(side); }))
        m_ranks = std::make_unique<VariantRanks>(
            sides.front(), candidates, labels,
            RankTable::Options{m_stepOptions.stepScope, m_stepOptions.alpha, m_stepOptions.threshold});
    m_rankModel->setRows(m_ranks ? m_ranks->comparison() : std::vector<VariantRankComparisonRow>{});
    fitColumns(m_rankView, VariantRanks::comparisonColumns());
    m_figures->setTabVisible(m_figures->indexOf(m_rankView), m_ranks != nullptr);
    m_bars->setVariants(m_steps.get(), m_diff.get(), labels, parameters);
    m_matrix->setDiff(m_diff.get());
    // the pair picked stays picked when the settings change
    const int pairA = m_pairA->count() == labels.size() ? m_pairA->currentIndex() : 0;
    const int pairB = m_pairB->count() == labels.size() ? m_pairB->currentIndex() : 1;
    for (QComboBox *box : {m_pairA, m_pairB}) {
        box->clear();
        box->addItems(labels);
    }
    m_pairA->setCurrentIndex(pairA);
    m_pairB->setCurrentIndex(pairB);
    // the named scopes of any variant (not the steps)
    std::set<QString> names;
    for (const QList<LoadedRun> &side : sides)
        for (const ScopeIndex *index : scopeIndexes(side))
            for (const ScopeIndex::Scope &scope : index->scopes())
                if (!scope.step)
                    names.insert(scope.name);
    const QSignalBlocker block(m_scopeBox);
    const QString shown = m_scopeBox->currentText();
    m_scopeBox->clear();
    for (const QString &name : names)
        m_scopeBox->addItem(name);
    if (names.count(shown))
        m_scopeBox->setCurrentText(shown);
    showScope(m_scopeBox->currentText());
}

void VariantsView::showScope(const QString &scope)
{
    m_scopes.reset();
    std::vector<BoxPlotView::Group> groups;
    if (scope.isEmpty() || m_sides.size() < 2) {
        m_boxes->setGroups({});
        m_boxes->setHint(
            m_sides.size() < 2
                ? QString()
                : tr("No named scopes in these variants besides their steps, which Steps compares"));
        m_scopeNote->clear();
        return;
    }
    const std::vector<QList<LoadedRun>> candidates(m_sides.begin() + 1, m_sides.end());
    m_scopes = std::make_unique<VariantScopes>(m_sides.front(), candidates, m_labels.mid(1),
                                               QStringList{scope}, m_match, m_samples);
    QStringList note;
    const ScopeAcrossVariants &across = m_scopes->acrossVariants().front();
    note << tr("Kruskal–Wallis across the %n variant(s) with samples (%1 medians): %2", nullptr,
               across.test.groups)
                .arg(across.byProcess ? tr("process") : tr("run"), across.text(0.05, m_stepOptions.threshold))
         << tr("Each candidate against the baseline (%1), Holm over the candidates: each interval at the "
               "level its verdict is judged at")
                .arg(m_labels.value(0));
    for (std::size_t c = 0; c < m_scopes->rows().size(); ++c)
        for (const ComparisonRow &row : m_scopes->rows()[c])
            if (row.verdictRow) {
                BoxPlotView::Group group;
                group.label = m_labels.value(qsizetype(c) + 1);
                group.toolTip = tr("%1: %2 against %3").arg(scope, group.label, m_labels.value(0));
                group.a = row.a;
                group.b = row.b;
                group.runMediansA = row.runMediansA;
                group.runMediansB = row.runMediansB;
                // the verdict with the interval it was decided from, and what it could not measure
                QString line = QStringLiteral("%1: %2").arg(
                    group.label, row.verdictText(m_stepOptions.alpha, m_stepOptions.threshold));
                if (row.hasRunLevel()) // at its Holm level among the candidates
                    line += tr(", %1 (%2 % interval)")
                                .arg(formatChangeInterval(row.runLevel.change, row.runLevel.ciLow,
                                                          row.runLevel.ciHigh),
                                     QString::number(100 * row.runLevel.confidence, 'g', 4));
                if (!row.caveat.isEmpty())
                    line += QStringLiteral("; ") + row.caveat;
                note << line;
                groups.push_back(std::move(group));
            }
    m_scopeNote->setText(note.join(QLatin1Char('\n')));
    m_boxes->setLabels(m_labels.value(0), tr("the candidate"));
    m_boxes->setTitle(tr("%1: %2, each candidate (B) beside the baseline (A)")
                          .arg(scope, ScopeBoxPlot::samplesTitle(m_samples)));
    m_boxes->setGroups(std::move(groups));
}

QString VariantsView::scopeNote() const
{
    return m_scopeNote->text();
}

void VariantsView::clear()
{
    m_sweep.reset();
    m_bars->setVariants(nullptr, nullptr, {});
    m_sides.clear();
    m_scopes.reset();
    m_scopeBox->clear();
    m_boxes->setGroups({});
    m_scopeNote->clear();
    m_matrix->setDiff(nullptr);
    m_stepModel->setRows({});
    m_steps.reset();
    m_rankModel->setRows({});
    m_ranks.reset();
    m_figures->setTabVisible(m_figures->indexOf(m_rankView), false);
    m_diff.reset();
    m_labels.clear();
    m_paths.clear();
    m_notes.clear();
    m_lead->clear();
    fitLead();
    m_pairA->clear();
    m_pairB->clear();
}

} // namespace scopeline
