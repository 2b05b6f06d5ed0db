// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/tables/statisticstable.h"

#include <QEvent>
#include <QHeaderView>
#include <QMenu>
#include <QScrollBar>
#include <QTableView>

namespace scopeline {

void setUpStatisticsTable(QTableView *table)
{
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    table->verticalHeader()->hide();
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->horizontalHeader()->setHighlightSections(false);
    table->horizontalHeader()->setSortIndicatorClearable(true);
    table->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    table->setSortingEnabled(true);
    table->setContextMenuPolicy(Qt::ActionsContextMenu);
    // narrow screens: columns can be hidden (and shown again) from the header
    QHeaderView *header = table->horizontalHeader();
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(header, &QHeaderView::customContextMenuRequested, table, [table](const QPoint &pos) {
        QMenu *menu = columnMenu(table, table);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(table->horizontalHeader()->mapToGlobal(pos));
    });
}

QMenu *columnMenu(QTableView *table, QWidget *parent)
{
    auto *menu = new QMenu(parent);
    menu->setToolTipsVisible(true);
    const QAbstractItemModel *model = table->model();
    for (int c = 1; model && c < model->columnCount(); ++c) {
        QAction *action = menu->addAction(model->headerData(c, Qt::Horizontal).toString());
        action->setToolTip(model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString());
        action->setCheckable(true);
        action->setChecked(!table->isColumnHidden(c));
        QObject::connect(action, &QAction::toggled, table,
                         [table, c](bool shown) { table->setColumnHidden(c, !shown); });
    }
    return menu;
}

namespace {

// Sizes and places the frozen view over the table's left edge, as wide as its columns are.
class FrozenColumnsFollower : public QObject
{
public:
    FrozenColumnsFollower(QTableView *table, QTableView *frozen, QList<int> columns)
        : QObject(frozen), m_table(table), m_frozen(frozen), m_columns(std::move(columns))
    {
        table->installEventFilter(this);
        table->viewport()->installEventFilter(this);
    }

    void hideOthers()
    {
        const QAbstractItemModel *model = m_table->model();
        const int count = model ? model->columnCount() : 0;
        for (int c = 0; c < count; ++c)
            m_frozen->setColumnHidden(c, !m_columns.contains(c));
        for (int i = 0; i < m_columns.size(); ++i) {
            QHeaderView *header = m_frozen->horizontalHeader();
            if (m_columns[i] < count)
                header->moveSection(header->visualIndex(m_columns[i]), i);
        }
        sync();
    }

    void sync()
    {
        int width = 0;
        for (int c : m_columns)
            if (!m_table->isColumnHidden(c)) {
                m_frozen->setColumnWidth(c, m_table->columnWidth(c));
                width += m_table->columnWidth(c);
            }
        const int frame = m_table->frameWidth();
        m_frozen->setGeometry(
            frame + (m_table->verticalHeader()->isVisible() ? m_table->verticalHeader()->width() : 0), frame,
            width + 1, m_table->viewport()->height() + m_table->horizontalHeader()->height());
        // only worth showing once the table is scrolled: at the left edge it is the table itself
        m_frozen->setVisible(width > 0 && m_table->horizontalScrollBar()->value() > 0);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize || event->type() == QEvent::Show)
            sync();
        return QObject::eventFilter(watched, event);
    }

private:
    QTableView *m_table;
    QTableView *m_frozen;
    QList<int> m_columns;
};

} // namespace

QTableView *freezeLeadingColumns(QTableView *table, const QList<int> &columns)
{
    auto *frozen = new QTableView(table);
    frozen->setObjectName(QStringLiteral("frozenColumns"));
    frozen->setModel(table->model());
    frozen->setSelectionModel(table->selectionModel());
    frozen->setFocusPolicy(Qt::NoFocus);
    frozen->setSelectionBehavior(QAbstractItemView::SelectRows);
    frozen->setEditTriggers(QAbstractItemView::NoEditTriggers);
    frozen->setAlternatingRowColors(table->alternatingRowColors());
    frozen->setWordWrap(false);
    frozen->setTextElideMode(table->textElideMode());
    frozen->setContextMenuPolicy(Qt::NoContextMenu);
    frozen->verticalHeader()->hide();
    frozen->verticalHeader()->setDefaultSectionSize(table->verticalHeader()->defaultSectionSize());
    frozen->horizontalHeader()->setHighlightSections(false);
    frozen->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    frozen->horizontalHeader()->setSortIndicatorShown(true);
    frozen->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    frozen->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    frozen->setVerticalScrollMode(table->verticalScrollMode());
    frozen->setFrameShape(QFrame::NoFrame);
    frozen->setStyleSheet(
        QStringLiteral("QTableView#frozenColumns { border-right: 1px solid palette(mid); }"));
    for (int c : columns)
        if (QAbstractItemDelegate *delegate = table->itemDelegateForColumn(c))
            frozen->setItemDelegateForColumn(c, delegate);
    auto *follower = new FrozenColumnsFollower(table, frozen, columns);
    follower->hideOthers();

    QObject::connect(frozen->verticalScrollBar(), &QAbstractSlider::valueChanged, table->verticalScrollBar(),
                     &QAbstractSlider::setValue);
    QObject::connect(table->verticalScrollBar(), &QAbstractSlider::valueChanged, frozen->verticalScrollBar(),
                     &QAbstractSlider::setValue);
    QObject::connect(table->horizontalScrollBar(), &QAbstractSlider::valueChanged, follower,
                     [follower] { follower->sync(); });
    QObject::connect(table->horizontalScrollBar(), &QAbstractSlider::rangeChanged, follower,
                     [follower] { follower->sync(); });
    QObject::connect(table->horizontalHeader(), &QHeaderView::sectionResized, follower,
                     [follower] { follower->sync(); });
    QObject::connect(table->horizontalHeader(), &QHeaderView::geometriesChanged, follower,
                     [follower] { follower->sync(); });
    QObject::connect(table->horizontalHeader(), &QHeaderView::sortIndicatorChanged,
                     frozen->horizontalHeader(), &QHeaderView::setSortIndicator);
    // a click on a frozen header sorts the table as a click on its own would
    QObject::connect(frozen->horizontalHeader(), &QHeaderView::sectionClicked, table, [table](int column) {
        QHeaderView *header = table->horizontalHeader();
        if (header->sortIndicatorSection() != column)
            table->sortByColumn(column, Qt::AscendingOrder);
        else if (header->sortIndicatorOrder() == Qt::AscendingOrder)
            table->sortByColumn(column, Qt::DescendingOrder);
        else
            header->setSortIndicator(-1, Qt::AscendingOrder);
    });
    if (QAbstractItemModel *model = table->model()) {
        QObject::connect(model, &QAbstractItemModel::modelReset, follower,
                         [follower] { follower->hideOthers(); });
        QObject::connect(model, &QAbstractItemModel::layoutChanged, follower,
                         [follower] { follower->hideOthers(); });
        QObject::connect(model, &QAbstractItemModel::columnsInserted, follower,
                         [follower] { follower->hideOthers(); });
    }
    return frozen;
}

} // namespace scopeline
