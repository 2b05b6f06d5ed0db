// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/ranksview.h"

#include "widgets/charts/rankbars.h"
#include "widgets/panels/proportionalsplitter.h"
#include "widgets/tables/columntablemodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace scopeline {

namespace {

QTableView *makeTable(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->setAlternatingRowColors(true);
    return view;
}

} // namespace

RanksView::RanksView(QWidget *parent) : QWidget(parent)
{
    m_notes = new QLabel(this);
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_bars = new RankBars(this);
    m_rankModel = new ColumnTableModel<RankRow>(RankTable::columns(), this);
    m_comparisonModel = new ColumnTableModel<RankComparisonRow>(RankTable::comparisonColumns(), this);
    m_rankView = makeTable(m_rankModel, this);
    m_rankView->setToolTip(
        tr("Each GPU of each run, figures per step; double-click a rank (or Enter) to show "
           "it in its side's timeline"));
    m_comparisonView = makeTable(m_comparisonModel, this);
    m_comparisonView->setToolTip(
        tr("A against B with runs as the unit: the mean over ranks tested alone, the "
           "slowest rank and each rank one Holm family"));
    connect(m_rankView, &QTableView::activated, this,
            [this](const QModelIndex &index) { // Enter, double-click
                const RankRow &row = m_rankModel->rows()[std::size_t(index.row())];
                emit rankActivated(row.side, row.run, row.rank);
            });

    auto *tables = new ProportionalSplitter(Qt::Vertical, {3, 1}, this);
    tables->addWidget(m_rankView);
    tables->addWidget(m_comparisonView);
    tables->setChildrenCollapsible(false);
    auto *split = new ProportionalSplitter(Qt::Horizontal, {2, 3}, this);
    split->addWidget(m_bars);
    split->addWidget(tables);
    split->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_notes);
    layout->addWidget(split, 1);
    setSides({}, {});
}

RanksView::~RanksView() = default;

void RanksView::setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    m_hasRanks = false;
    for (const QList<LoadedRun> *side : {&a, &b})
        for (const LoadedRun &run : *side)
            m_hasRanks = m_hasRanks || run.run.rank >= 0;
    m_table = m_hasRanks ? std::make_unique<RankTable>(a, b, RankTable::Options{}) : nullptr;
    m_rankModel->setRows(m_table ? m_table->rows() : std::vector<RankRow>{});
    m_comparisonModel->setRows(m_table ? m_table->comparison() : std::vector<RankComparisonRow>{});
    m_comparisonView->setVisible(m_table && !m_table->comparison().empty());
    // the bars of each side's first run: its ranks side by side
    std::vector<RankRow> firstRuns;
    if (m_table)
        for (const RankRow &row : m_table->rows()) {
            const auto first = std::find_if(m_table->rows().begin(), m_table->rows().end(),
                                            [&row](const RankRow &r) { return r.side == row.side; });
            if (row.run == first->run)
                firstRuns.push_back(row);
        }
    m_bars->setRows(firstRuns);
    m_notes->setText(m_table ? m_table->notes().join(QLatin1Char('\n'))
                             : tr("No run of several GPUs: open a folder of one job's rank files (one trace "
                                  "per GPU, with Kineto's distributedInfo or rank_N in the file names)."));
    m_rankView->resizeColumnsToContents();
    m_comparisonView->resizeColumnsToContents();
}

} // namespace scopeline
