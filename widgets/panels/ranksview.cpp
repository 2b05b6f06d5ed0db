// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/ranksview.h"

#include "widgets/charts/rankbars.h"
#include "widgets/charts/rankoverview.h"
#include "widgets/charts/waitheatmap.h"
#include "widgets/panels/proportionalsplitter.h"
#include "widgets/tables/columntablemodel.h"
#include "widgets/tables/plaintableview.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace scopeline {

RanksView::RanksView(QWidget *parent) : QWidget(parent)
{
    m_notes = new QLabel(this);
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_bars = new RankBars(this);
    m_rankModel = new ColumnTableModel<RankRow>(RankTable::columns(), this);
    m_comparisonModel = new ColumnTableModel<RankComparisonRow>(RankTable::comparisonColumns(), this);
    m_rankView = plainTableView(m_rankModel, this);
    m_rankView->setToolTip(
        tr("Each GPU of each run, figures per step; double-click a rank (or Enter) to show "
           "it in its side's timeline"));
    m_comparisonView = plainTableView(m_comparisonModel, this);
    m_comparisonView->setToolTip(tr("A against B with runs (processes when a side has several) as the unit: "
                                    "the mean over ranks tested alone, the "
                                    "slowest rank and each rank one Holm family"));
    const auto showRank = [this](const QModelIndex &index) {
        if (!index.isValid())
            return;
        const RankRow &row = m_rankModel->rows()[std::size_t(index.row())];
        emit rankActivated(row.side, row.run, row.rank);
    };
    connect(m_rankView, &QTableView::activated, this, showRank); // Enter, double-click
    connect(m_rankView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            showRank);                             // a click, the arrow keys: the timeline follows
    m_rankView->setTextElideMode(Qt::ElideMiddle); // a run's long file name
    m_rankView->viewport()->installEventFilter(this); // its run column fitted to the room (fitRunColumn)

    m_collectivesModel = new ColumnTableModel<CollectiveRow>(RankTable::collectiveColumns(), this);
    m_collectivesView = plainTableView(m_collectivesModel, this);
    m_collectivesView->setToolTip(
        tr("Each kind of collective over the ranks of every run: how many a step, how "
           "long, and the rank whose run the longest (it waits the longest)"));
    // one table at a time, at the tab's full height: stacked, at 1366x768 each showed two or three rows
    m_tableTabs = new QTabWidget(this);
    m_tableTabs->setDocumentMode(true);
    m_tableTabs->addTab(m_comparisonView, tr("A against B"));
    m_tableTabs->addTab(m_rankView, tr("Per rank"));
    m_tableTabs->addTab(m_collectivesView, tr("Per collective"));
    for (int i = 0; i < m_tableTabs->count(); ++i)
        m_tableTabs->setTabToolTip(i, m_tableTabs->widget(i)->toolTip());
    // the tables the wider: their verdicts and waits in view at 1366 px; the bars read at any width
    auto *split = new ProportionalSplitter(Qt::Horizontal, {2, 5}, this);
    split->addWidget(m_bars);
    split->addWidget(m_tableTabs);
    split->setChildrenCollapsible(false);
    m_overview = new RankOverview(this);
    m_overviewRun = new QComboBox(this);
    m_overviewRun->setToolTip(tr("The run whose ranks the lanes and the waits show"));
    connect(m_overviewRun, &QComboBox::currentIndexChanged, this, &RanksView::showOverview);
    m_waits = new WaitHeatmap(this);
    auto *views = new QTabWidget(this);
    views->setDocumentMode(true);
    views->addTab(m_overview, tr("Over time"));
    views->addTab(m_waits, tr("Waits at collectives"));
    // the run picker in the tab bar's row, not a row of its own: at 1366x768 that line is a table row
    auto *picker = new QWidget(views);
    auto *pickerRow = new QHBoxLayout(picker);
    pickerRow->setContentsMargins(0, 0, 0, 0);
    pickerRow->addWidget(new QLabel(tr("Ranks of:"), picker));
    pickerRow->addWidget(m_overviewRun);
    views->setCornerWidget(picker, Qt::TopRightCorner);
    auto *overviewOverRanks = new ProportionalSplitter(Qt::Vertical, {1, 2}, this);
    overviewOverRanks->addWidget(views);
    overviewOverRanks->addWidget(split);
    overviewOverRanks->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_notes);
    layout->addWidget(overviewOverRanks, 1);
    setSides({}, {});
}

RanksView::~RanksView() = default;

void RanksView::setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    m_runs[0] = a;
    m_runs[1] = b;
    m_hasRanks = false;
    for (const QList<LoadedRun> *side : {&a, &b})
        for (const LoadedRun &run : *side)
            m_hasRanks = m_hasRanks || run.run.rank >= 0;
    rebuild();
}

void RanksView::setStepScope(const QString &scope)
{
    if (scope == m_stepScope)
        return;
    m_stepScope = scope;
    if (m_hasRanks)
        rebuild();
}

void RanksView::rebuild()
{
    RankTable::Options options;
    options.stepScope = m_stepScope;
    m_table = m_hasRanks ? std::make_unique<RankTable>(m_runs[0], m_runs[1], options) : nullptr;
    m_rankModel->setRows(m_table ? m_table->rows() : std::vector<RankRow>{});
    m_comparisonModel->setRows(m_table ? m_table->comparison() : std::vector<RankComparisonRow>{});
    // A against B where something was tested; else a line of the notes says why not (one run a side),
    // and the rank table has the room
    const bool compared =
        m_table && std::any_of(m_table->comparison().begin(), m_table->comparison().end(),
                               [](const RankComparisonRow &r) { return !std::isnan(r.pRaw); });
    if (compared && !m_compared)
        m_tableTabs->setCurrentWidget(m_comparisonView); // the verdicts first, once there are some
    m_compared = compared;
    m_tableTabs->setTabVisible(m_tableTabs->indexOf(m_comparisonView), compared);
    m_collectivesModel->setRows(m_table ? m_table->collectiveKinds() : std::vector<CollectiveRow>{});
    m_collectivesView->resizeColumnsToContents();
    // the runs of several GPUs, for the overview
    const QSignalBlocker blocker(m_overviewRun);
    const QVariant picked = m_overviewRun->currentData(); // kept across a new step scope
    m_overviewRun->clear();
    for (int side = 0; side < 2; ++side)
        for (const LoadedRun &run : m_runs[side])
            if (run.run.rank >= 0 &&
                m_overviewRun->findData(QStringList{QString::number(side), run.run.name}) < 0)
                m_overviewRun->addItem(
                    QStringLiteral("%1 %2").arg(side == 0 ? QStringLiteral("A") : QStringLiteral("B"),
                                                run.run.name),
                    QStringList{QString::number(side), run.run.name});
    const int keep = m_overviewRun->findData(picked);
    m_overviewRun->setCurrentIndex(std::max(keep, 0));
    showOverview(m_overviewRun->count() > 0 ? std::max(keep, 0) : -1);
    m_rankView->resizeColumnsToContents();
    m_runNameWidth = m_rankView->columnWidth(runColumn());
    fitRunColumn();
    m_comparisonView->resizeColumnsToContents();
}

int RanksView::runColumn()
{
    const auto &columns = RankTable::columns();
    return int(std::find_if(columns.begin(), columns.end(),
                            [](const auto &c) { return c.csvKey == QLatin1String("run"); }) -
               columns.begin());
}

void RanksView::fitRunColumn()
{
    // a run's name (a file's, often long) whole where the figures leave room, and narrower (8 characters
    // at least) where they would otherwise run out of view, Arrived last the first; elided, whole in its
    // tooltip (a cap of 18 characters had cut names beside empty room)
    const int column = runColumn();
    if (column >= m_rankView->model()->columnCount())
        return;
    int others = 0;
    for (int c = 0; c < m_rankView->model()->columnCount(); ++c)
        if (c != column && !m_rankView->isColumnHidden(c))
            others += m_rankView->columnWidth(c);
    const int x = m_rankView->fontMetrics().horizontalAdvance(QLatin1Char('x'));
    const int room = m_rankView->viewport()->width() - others;
    m_rankView->setColumnWidth(column, std::clamp(room, 8 * x, std::max(8 * x, m_runNameWidth)));
}

bool RanksView::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_rankView->viewport() && event->type() == QEvent::Resize)
        fitRunColumn();
    return QWidget::eventFilter(watched, event);
}

QString RanksView::notes() const
{
    return m_notes->text();
}

void RanksView::showOverview(int index)
{
    // the run picked: its side and name (none: side -1)
    const QStringList which = index >= 0 ? m_overviewRun->itemData(index).toStringList() : QStringList();
    const int side = which.isEmpty() ? -1 : which.value(0).toInt();
    const QString name = which.value(1);
    std::vector<const RunSummary *> ranks;
    QStringList labels;
    if (side >= 0)
        for (const LoadedRun &run : m_runs[side])
            if (run.summary && run.run.rank >= 0 && run.run.name == name) {
                ranks.push_back(run.summary.get());
                labels << tr("rank %1").arg(run.run.rank);
            }
    m_overview->setRanks(std::move(ranks), labels);
    const RunCollectives *collectives = nullptr;
    std::vector<RankRow> rows; // the bars: the run's ranks side by side
    if (m_table) {
        for (const RunCollectives &c : m_table->collectives())
            if (c.side == side && c.run == name)
                collectives = &c;
        for (const RankRow &row : m_table->rows())
            if (row.side == side && row.run == name)
                rows.push_back(row);
    }
    m_waits->setCollectives(collectives);
    m_bars->setRows(rows);
    // what the picked run's ranks did, per step of which scope
    const QString scope =
        m_table && !m_table->stepScope().isEmpty() ? m_table->stepScope() : tr("the whole run");
    const QString alone = m_table && !collectives ? m_table->aloneNote(side, name) : QString();
    QString notes = collectives        ? tr("Per step of %1. ").arg(scope) + m_table->note(*collectives)
                    : !alone.isEmpty() ? tr("Per step of %1. ").arg(scope) + alone + QLatin1Char('.')
                    : m_table          ? QString()
                              : tr("No run of several GPUs: open a folder of one job's rank files (one trace "
                                   "per GPU, with Kineto's distributedInfo or rank_N in the file names).");
    // beside the picked run, what holds for every row of A against B
    if (m_table && !m_table->caveat().isEmpty())
        notes += (notes.isEmpty() ? QString() : QStringLiteral("\n")) + m_table->caveat() + QLatin1Char('.');
    if (m_table && !m_table->comparison().empty() && !m_compared)
        notes += (notes.isEmpty() ? QString() : QStringLiteral("\n")) +
                 tr("A against B not tested: %1.").arg(m_table->comparison().front().verdictText());
    m_notes->setText(notes);
}

} // namespace scopeline
