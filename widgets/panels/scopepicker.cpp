// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/panels/scopepicker.h"

#include "widgets/tables/scopelistmodel.h"

#include <QAbstractItemView>
#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace scopeline {

namespace {

// Patterns the user added always stay visible: they are not names the filter could hide.
class ScopeFilterProxy : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override
    {
        const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
        if (index.data(ScopeListModel::IsPatternRole).toBool())
            return true;
        return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
    }

    // Step scopes stay on top whichever column and order the list is sorted by.
    bool lessThan(const QModelIndex &left, const QModelIndex &right) const override
    {
        const bool stepLeft = left.data(ScopeListModel::StepRole).toBool();
        const bool stepRight = right.data(ScopeListModel::StepRole).toBool();
        if (stepLeft != stepRight)
            return sortOrder() == Qt::AscendingOrder ? stepLeft : stepRight;
        return QSortFilterProxyModel::lessThan(left, right);
    }

public:
    // Count headers on two lines ("Kernels" over "A"), so the names get the width.
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override
    {
        QVariant value = QSortFilterProxyModel::headerData(section, orientation, role);
        if (orientation == Qt::Horizontal && role == Qt::DisplayRole &&
            section != ScopeListModel::ScopeColumn)
            return value.toString().replace(QLatin1Char(' '), QLatin1Char('\n'));
        return value;
    }
};

} // namespace

ScopePicker::ScopePicker(QWidget *parent) : QWidget(parent)
{
    m_model = new ScopeListModel(this);
    m_proxy = new ScopeFilterProxy(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ScopeListModel::RawValueRole);
    m_proxy->setFilterKeyColumn(ScopeListModel::ScopeColumn);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setSortCaseSensitivity(Qt::CaseInsensitive);

    m_filter = new QLineEdit(this);
    m_filter->setPlaceholderText(tr("Filter scopes…"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setToolTip(
        tr("Show only the scopes whose name contains this text (a regular expression in regex "
           "mode). In substring and regex mode, Enter or “Add pattern” adds the text itself as a "
           "scope to compare. Ctrl+F"));

    m_addPattern = new QPushButton(tr("Add pattern"), this);
    m_addPattern->setEnabled(false);

    m_matchBox = new QComboBox(this);
    m_matchBox->addItem(tr("component"), int(MatchMode::Component));
    m_matchBox->addItem(tr("substring"), int(MatchMode::Substring));
    m_matchBox->addItem(tr("regex"), int(MatchMode::Regex));
    m_matchBox->setToolTip(
        tr("How a picked name selects kernels:\n"
           "component: the name equals one '/'-separated part of the op path, or an annotation;\n"
           "substring: the name occurs in a part, an annotation or the whole op path;\n"
           "regex: the regular expression matches one of those."));
    m_sampleBox = new QComboBox(this);
    m_sampleBox->addItem(tr("per kernel"), int(SampleMode::Kernel));
    m_sampleBox->addItem(tr("per instance (sum)"), int(SampleMode::Instance));
    m_sampleBox->addItem(tr("per instance (GPU span)"), int(SampleMode::Span));
    m_sampleBox->setToolTip(
        tr("What one sample is:\n"
           "per kernel: the duration of each kernel of the scope;\n"
           "per instance (sum): the summed kernel time of each occurrence of the scope;\n"
           "per instance (GPU span): the GPU span of each occurrence, first kernel start to "
           "last kernel end (the GPU time it took, gaps included)."));

    m_view = new QTableView(this);
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ScopeListModel::ScopeColumn, Qt::AscendingOrder);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideMiddle);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setHighlightSections(false);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setStretchLastSection(false);
    m_view->viewport()->installEventFilter(this);
    m_view->setToolTip(
        tr("Scopes of A and B with their kernel and instance counts. Click, Shift+click and "
           "Ctrl+click to select the scopes to compare; a grey 0 means the scope is missing on "
           "that side."));

    m_selectionLabel = new QLabel(this);
    m_selectionLabel->setTextFormat(Qt::PlainText);
    m_selectionLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_clearSelection = new QToolButton(this);
    m_clearSelection->setText(tr("Clear"));
    m_clearSelection->setToolTip(tr("Deselect every scope, the ones the filter hides included"));
    m_clearSelection->setAutoRaise(true);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_addPattern);
    layout->addLayout(filterRow);
    auto *modes = new QGridLayout;
    auto *matchLabel = new QLabel(tr("&Match"), this);
    matchLabel->setBuddy(m_matchBox);
    matchLabel->setToolTip(m_matchBox->toolTip());
    auto *sampleLabel = new QLabel(tr("&Samples"), this);
    sampleLabel->setBuddy(m_sampleBox);
    sampleLabel->setToolTip(m_sampleBox->toolTip());
    // One row each, so that the picker's narrow width never clips a mode's name; the boxes and their
    // popups are as wide as their longest item.
    modes->addWidget(matchLabel, 0, 0);
    modes->addWidget(m_matchBox, 0, 1);
    modes->addWidget(sampleLabel, 1, 0);
    modes->addWidget(m_sampleBox, 1, 1);
    modes->setColumnStretch(1, 1);
    for (QComboBox *box : {m_matchBox, m_sampleBox}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        box->setMinimumWidth(box->sizeHint().width());
        int widest = 0;
        for (int i = 0; i < box->count(); ++i)
            widest = std::max(widest, box->fontMetrics().horizontalAdvance(box->itemText(i)));
        box->view()->setMinimumWidth(widest + 32); // the item's margins and a scroll bar's room
    }
    layout->addLayout(modes);
    layout->addWidget(m_view, 1);
    auto *selectionRow = new QHBoxLayout;
    selectionRow->addWidget(m_selectionLabel, 1);
    selectionRow->addWidget(m_clearSelection);
    layout->addLayout(selectionRow);

    m_focusFilter = new QAction(tr("Filter Scopes"), this);
    m_focusFilter->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F));
    m_focusFilter->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_focusFilter->setToolTip(tr("Focus the scope filter (Ctrl+F)"));
    addAction(m_focusFilter);
    connect(m_focusFilter, &QAction::triggered, this, &ScopePicker::focusFilter);

    connect(m_filter, &QLineEdit::textChanged, this, [this] {
        applyFilter();
        updatePatternButton();
    });
    connect(m_filter, &QLineEdit::returnPressed, this, [this] {
        if (addFilterAsPattern())
            return;
        if (m_proxy->rowCount() == 1) { // Enter picks the one scope left
            const QString name = m_proxy->index(0, 0).data(ScopeListModel::NameRole).toString();
            if (!m_selected.contains(name)) {
                preferSpanForStep(m_selected + QStringList{name});
                setSelection(m_selected + QStringList{name});
            }
        }
    });
    connect(m_addPattern, &QPushButton::clicked, this, &ScopePicker::addFilterAsPattern);
    connect(m_matchBox, &QComboBox::currentIndexChanged, this, [this] {
        m_model->setMatchMode(matchMode());
        applyFilter();
        updatePatternButton();
        emit matchModeChanged();
    });
    connect(m_sampleBox, &QComboBox::currentIndexChanged, this, [this] { emit sampleModeChanged(); });
    connect(m_sampleBox, &QComboBox::activated, this, [this] { m_sampleModeChosen = true; });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ScopePicker::onViewSelectionChanged);
    connect(m_clearSelection, &QToolButton::clicked, this, [this] { setSelection({}); });
    connect(m_model, &QAbstractItemModel::modelReset, this, &ScopePicker::syncViewSelection);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ScopePicker::fitColumns);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &ScopePicker::fitColumns);
    updatePatternButton();
    updateSelectionLabel();
}

ScopePicker::~ScopePicker() = default;

void ScopePicker::setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    m_syncing = true;
    m_model->setSides(a, b);
    // Names picked before that the new sides lack stay picked, as patterns.
    for (const QString &name : std::as_const(m_selected))
        if (m_model->rowOf(name) < 0)
            m_model->addPattern(name);
    m_syncing = false;
    syncViewSelection();
    updateSelectionLabel();
}

void ScopePicker::setSelectedScopes(const QStringList &scopes)
{
    m_syncing = true;
    for (const QString &name : scopes)
        if (!name.isEmpty() && m_model->rowOf(name) < 0)
            m_model->addPattern(name);
    m_syncing = false;
    setSelection(scopes);
}

void ScopePicker::selectDefaultScope()
{
    const QString name = m_model->defaultScope();
    if (name.isEmpty())
        return;
    preferSpanForStep({name});
    setSelection({name});
}

void ScopePicker::setSelection(QStringList names)
{
    names.removeAll(QString());
    names.removeDuplicates();
    const bool changed = names != m_selected;
    m_selected = names;
    syncViewSelection();
    updateSelectionLabel();
    if (changed)
        emit selectedScopesChanged();
}

MatchMode ScopePicker::matchMode() const
{
    return MatchMode(m_matchBox->currentData().toInt());
}

void ScopePicker::setMatchMode(MatchMode mode)
{
    m_matchBox->setCurrentIndex(m_matchBox->findData(int(mode)));
}

SampleMode ScopePicker::sampleMode() const
{
    return SampleMode(m_sampleBox->currentData().toInt());
}

void ScopePicker::setSampleMode(SampleMode mode)
{
    m_sampleBox->setCurrentIndex(m_sampleBox->findData(int(mode)));
}

void ScopePicker::focusFilter()
{
    m_filter->setFocus(Qt::ShortcutFocusReason);
    m_filter->selectAll();
}

bool ScopePicker::addFilterAsPattern()
{
    if (!m_addPattern->isEnabled())
        return false;
    const QString pattern = m_filter->text();
    m_syncing = true;
    m_model->addPattern(pattern);
    m_syncing = false;
    QStringList names = m_selected;
    if (!names.contains(pattern))
        names.append(pattern);
    setSelection(names);
    return true;
}

void ScopePicker::applyFilter()
{
    m_syncing = true;
    const QString text = m_filter->text();
    bool valid = true;
    // In substring and regex modes the filter is the pattern "Add pattern" adds: the list shows what it
    // will match, case and all; in component mode it only finds names, in any case.
    if (matchMode() == MatchMode::Regex) {
        const QRegularExpression regex(text);
        valid = regex.isValid();
        m_proxy->setFilterRegularExpression(valid ? regex : QRegularExpression());
    } else {
        m_proxy->setFilterCaseSensitivity(matchMode() == MatchMode::Component ? Qt::CaseInsensitive
                                                                              : Qt::CaseSensitive);
        m_proxy->setFilterFixedString(text);
    }
    m_filter->setStyleSheet(valid ? QString() : QStringLiteral("QLineEdit { background: #fde2e2; }"));
    m_syncing = false;
    syncViewSelection();
}

void ScopePicker::updatePatternButton()
{
    const QString text = m_filter->text();
    const MatchMode mode = matchMode();
    const bool valid = mode != MatchMode::Regex || QRegularExpression(text).isValid();
    m_addPattern->setEnabled(mode != MatchMode::Component && !text.isEmpty() && valid);
    if (mode == MatchMode::Component)
        m_addPattern->setToolTip(tr("In component mode only listed names match; switch the match mode to "
                                    "substring or regex to add the filter text as a pattern"));
    else if (!valid)
        m_addPattern->setToolTip(tr("The filter text is not a valid regular expression"));
    else
        m_addPattern->setToolTip(
            tr("Add the filter text as a %1 pattern and select it, even if no listed name "
               "equals it (Enter)")
                .arg(matchModeName(mode)));
}

void ScopePicker::onViewSelectionChanged(const QItemSelection &, const QItemSelection &)
{
    if (m_syncing)
        return;
    // Visible rows take their state from the view; rows the filter hides keep theirs.
    QStringList names = m_selected;
    const QItemSelectionModel *selection = m_view->selectionModel();
    for (int row = 0; row < m_proxy->rowCount(); ++row) {
        const QString name = m_proxy->index(row, 0).data(ScopeListModel::NameRole).toString();
        const bool selected = selection->isRowSelected(row, {});
        if (selected && !names.contains(name))
            names.append(name);
        else if (!selected)
            names.removeAll(name);
    }
    if (names == m_selected)
        return;
    m_selected = names;
    preferSpanForStep(names);
    updateSelectionLabel();
    emit selectedScopesChanged();
}

void ScopePicker::preferSpanForStep(const QStringList &names)
{
    // A step's kernels are a whole iteration: its wall span is the figure to compare (as the eager vs
    // graph sample does). Only when the user picks the one step scope, and only over the default.
    if (m_sampleModeChosen || sampleMode() != SampleMode::Kernel || names.size() != 1)
        return;
    const int row = m_model->rowOf(names.first());
    if (row >= 0 && m_model->entry(row).step)
        setSampleMode(SampleMode::Span);
}

void ScopePicker::syncViewSelection()
{
    if (m_syncing)
        return;
    m_syncing = true;
    QItemSelection selection;
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        if (m_selected.contains(m_proxy->index(row, 0).data(ScopeListModel::NameRole).toString()))
            selection.select(m_proxy->index(row, 0), m_proxy->index(row, ScopeListModel::NUM_COLUMNS - 1));
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
    m_syncing = false;
}

void ScopePicker::fitColumns()
{
    // Counts as wide as they need, the name gets the rest (at least enough for a typical name).
    QHeaderView *header = m_view->horizontalHeader();
    const QAbstractItemView *view = m_view; // sizeHintForColumn is protected in QTableView
    int counts = 0;
    for (int column = ScopeListModel::KernelsAColumn; column < ScopeListModel::NUM_COLUMNS; ++column) {
        int text = 0; // the header's widest line, without the room the style keeps for a sort arrow
        for (const QString &line :
             m_proxy->headerData(column, Qt::Horizontal).toString().split(QLatin1Char('\n')))
            text = std::max(text, header->fontMetrics().horizontalAdvance(line));
        const int width = std::max(view->sizeHintForColumn(column), text + 18);
        header->resizeSection(column, width);
        counts += width;
    }
    const int wanted = std::max(view->sizeHintForColumn(ScopeListModel::ScopeColumn),
                                header->sectionSizeHint(ScopeListModel::ScopeColumn));
    header->resizeSection(ScopeListModel::ScopeColumn,
                          std::max(m_view->viewport()->width() - counts, std::min(wanted, 160)));
}

bool ScopePicker::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view->viewport() && event->type() == QEvent::Resize)
        fitColumns();
    return QWidget::eventFilter(watched, event);
}

void ScopePicker::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateSelectionLabel(); // elided to the new width
}

void ScopePicker::updateSelectionLabel()
{
    if (m_selected.isEmpty()) {
        m_selectionLabel->setText(tr("Nothing selected"));
        m_selectionLabel->setToolTip(tr("Select scopes above to compare A and B"));
    } else {
        const QString text =
            tr("%n selected: %1", nullptr, int(m_selected.size())).arg(m_selected.join(QStringLiteral(", ")));
        const int width = m_selectionLabel->width();
        m_selectionLabel->setText(
            width > 40 ? m_selectionLabel->fontMetrics().elidedText(text, Qt::ElideRight, width) : text);
        m_selectionLabel->setToolTip(
            tr("Compared, in this order:\n%1").arg(m_selected.join(QLatin1Char('\n'))));
    }
    m_clearSelection->setEnabled(!m_selected.isEmpty());
}

} // namespace scopeline
