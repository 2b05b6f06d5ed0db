// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Picks the scopes to compare: a filter, the list of scopes of both sides with their counts (multi-select),
// the match mode (component, substring, regex; the latter two can add the filter text as a pattern) and
// the sample mode (per kernel, per instance sum, per instance span).
//
// The selection is kept by name, in the order picked, and survives filtering: a selected scope the filter
// hides stays selected (the line under the list says what is selected).
//
// Step scopes (ProfilerStep, PjitFunction(...)) are listed first whatever the sort. When the user picks a
// step scope alone in the list (click or Enter) while the samples are still per kernel and the user has
// not chosen them in the box, the samples switch to per instance (GPU span); setSelectedScopes never does.

#include "model/loading/loadedrun.h"
#include "model/analysis/scopematcher.h"

#include <QList>
#include <QStringList>
#include <QWidget>

class QAction;
class QComboBox;
class QItemSelection;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;

namespace scopeline {

class ScopeListModel;

class ScopePicker : public QWidget
{
    Q_OBJECT
public:
    explicit ScopePicker(QWidget *parent = nullptr);
    ~ScopePicker() override;

    void setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b);

    QStringList selectedScopes() const { return m_selected; }
    // Selects these scopes (in this order) and nothing else; names not listed are added as patterns.
    void setSelectedScopes(const QStringList &scopes);
    // Selects the list's default scope (ScopeListModel::defaultScope), or none when the sides share no
    // scope, as a pick of it would: a step scope's samples become spans unless the user chose the mode.
    void selectDefaultScope();
    MatchMode matchMode() const;
    void setMatchMode(MatchMode mode);
    SampleMode sampleMode() const;
    void setSampleMode(SampleMode mode);

    // Adds the filter text as a pattern and selects it (substring and regex modes); false when not possible.
    bool addFilterAsPattern();
    void focusFilter();

    ScopeListModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    QPushButton *addPatternButton() const { return m_addPattern; }
    QComboBox *sampleModeBox() const { return m_sampleBox; }
    // Ctrl+F, context WidgetWithChildrenShortcut; a parent may add it to itself to widen its reach.
    QAction *focusFilterAction() const { return m_focusFilter; }

signals:
    void selectedScopesChanged();
    void matchModeChanged();
    void sampleModeChanged();

private:
    void applyFilter();
    void updatePatternButton();
    void onViewSelectionChanged(const QItemSelection &selected, const QItemSelection &deselected);
    void syncViewSelection();
    void updateSelectionLabel();
    void preferSpanForStep(const QStringList &names);
    void setSelection(QStringList names);
    void fitColumns();
    bool eventFilter(QObject *watched, QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

    ScopeListModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QLineEdit *m_filter = nullptr;
    QTableView *m_view = nullptr;
    QComboBox *m_matchBox = nullptr;
    QComboBox *m_sampleBox = nullptr;
    QPushButton *m_addPattern = nullptr;
    QLabel *m_selectionLabel = nullptr;
    QToolButton *m_clearSelection = nullptr;
    QAction *m_focusFilter = nullptr;
    QStringList m_selected;
    bool m_syncing = false;          // selection-model signals caused by our own filtering or syncing
    bool m_sampleModeChosen = false; // the user chose in the sample box: picking a step keeps it
};

} // namespace scopeline
