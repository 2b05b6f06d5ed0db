// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every scope found in either side (union over the runs of each side) with its kernel and instance
// counts on A and B, plus the patterns the user added (substring or regex, counted by matching).
// Step scopes (`ProfilerStep`, `PjitFunction(...)`, see ScopeIndex) come first, in bold.

#include "model/loading/loadedrun.h"
#include "model/analysis/scopematcher.h"

#include <QAbstractTableModel>
#include <QList>

#include <vector>

namespace scopeline {

class ScopeListModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns {
        ScopeColumn,
        KernelsAColumn,
        KernelsBColumn,
        InstancesAColumn,
        InstancesBColumn,
        NUM_COLUMNS
    };
    enum Roles {
        RawValueRole = Qt::UserRole, // the scope name, or the count as qint64 (for sorting and copying)
        NameRole,                    // the scope name in every column
        IsPatternRole,               // bool: a pattern the user added rather than a listed name
        PresentInARole,              // bool: attributed kernels on side A
        PresentInBRole,
        StepRole, // bool: a step scope (one instance per iteration) on either side
    };

    struct Entry
    {
        QString name;
        qint64 kernelsA = 0, kernelsB = 0, instancesA = 0, instancesB = 0;
        bool pattern = false;
        bool step = false;
    };

    explicit ScopeListModel(QObject *parent = nullptr);

    // Lists the union of the scopes of all runs of each side; patterns added before are kept and recounted.
    void setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b);
    // The match mode patterns are counted with.
    void setMatchMode(MatchMode mode);
    MatchMode matchMode() const { return m_mode; }
    // Adds a pattern row (no-op when a row of that name exists); returns its row.
    int addPattern(const QString &pattern);
    void removePatterns();

    int rowOf(const QString &name) const; // -1 when not listed
    // What a new pair's comparison opens on: the scope both sides have with the most kernels on its
    // smaller side (the step, in every trace seen; a step first on a tie); empty when none is shared.
    QString defaultScope() const;
    const Entry &entry(int row) const { return m_entries[std::size_t(row)]; }
    const std::vector<Entry> &entries() const { return m_entries; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    Entry countPattern(const QString &pattern) const;

    std::vector<const ScopeIndex *> m_a, m_b;
    std::vector<Entry>
        m_entries; // step scopes by name, other scopes by name, then patterns in the order added
    MatchMode m_mode = MatchMode::Component;
    QList<LoadedRun> m_keepA, m_keepB; // keep the indexes alive
};

} // namespace scopeline
