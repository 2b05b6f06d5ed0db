// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/tables/scopelistmodel.h"
#include "widgets/tables/columntext.h"

#include <QBrush>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include <algorithm>
#include <map>

namespace scopeline {

ScopeListModel::ScopeListModel(QObject *parent) : QAbstractTableModel(parent) {}

void ScopeListModel::setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b)
{
    beginResetModel();
    m_keepA = a;
    m_keepB = b;
    m_a = scopeIndexes(a);
    m_b = scopeIndexes(b);
    std::map<QString, Entry> byName;
    for (const ScopeIndex *index : m_a)
        for (const ScopeIndex::Scope &scope : index->scopes()) {
            Entry &entry = byName[scope.name];
            entry.name = scope.name;
            entry.step = entry.step || scope.step;
            entry.kernelsA += scope.kernels;
            entry.instancesA += scope.instances;
        }
    for (const ScopeIndex *index : m_b)
        for (const ScopeIndex::Scope &scope : index->scopes()) {
            Entry &entry = byName[scope.name];
            entry.name = scope.name;
            entry.step = entry.step || scope.step;
            entry.kernelsB += scope.kernels;
            entry.instancesB += scope.instances;
        }
    QStringList patterns;
    for (const Entry &entry : m_entries)
        if (entry.pattern && !byName.count(entry.name))
            patterns.append(entry.name);
    m_entries.clear();
    m_entries.reserve(byName.size() + std::size_t(patterns.size()));
    for (auto &item : byName)
        m_entries.push_back(std::move(item.second));
    // Step scopes first: the natural thing to compare across runs.
    std::stable_partition(m_entries.begin(), m_entries.end(), [](const Entry &e) { return e.step; });
    for (const QString &pattern : patterns)
        m_entries.push_back(countPattern(pattern));
    endResetModel();
}

QString ScopeListModel::defaultScope() const
{
    const Entry *best = nullptr;
    for (const Entry &e : m_entries) {
        if (e.pattern || e.kernelsA == 0 || e.kernelsB == 0)
            continue;
        if (!best || std::min(e.kernelsA, e.kernelsB) > std::min(best->kernelsA, best->kernelsB))
            best = &e;
    }
    return best ? best->name : QString();
}

void ScopeListModel::setMatchMode(MatchMode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    for (std::size_t row = 0; row < m_entries.size(); ++row)
        if (m_entries[row].pattern) {
            m_entries[row] = countPattern(m_entries[row].name);
            emit dataChanged(index(int(row), 0), index(int(row), NUM_COLUMNS - 1));
        }
}

ScopeListModel::Entry ScopeListModel::countPattern(const QString &pattern) const
{
    Entry entry;
    entry.name = pattern;
    entry.pattern = true;
    const ScopeMatcher matcher(pattern, m_mode);
    if (!matcher.isValid())
        return entry;
    for (const ScopeIndex *index : m_a) {
        entry.kernelsA += qint64(index->samples(matcher, SampleMode::Kernel).size());
        entry.instancesA += qint64(index->samples(matcher, SampleMode::Instance).size());
    }
    for (const ScopeIndex *index : m_b) {
        entry.kernelsB += qint64(index->samples(matcher, SampleMode::Kernel).size());
        entry.instancesB += qint64(index->samples(matcher, SampleMode::Instance).size());
    }
    return entry;
}

int ScopeListModel::addPattern(const QString &pattern)
{
    const int existing = rowOf(pattern);
    if (existing >= 0 || pattern.isEmpty())
        return existing;
    const int row = int(m_entries.size());
    beginInsertRows({}, row, row);
    m_entries.push_back(countPattern(pattern));
    endInsertRows();
    return row;
}

void ScopeListModel::removePatterns()
{
    // Patterns sit after the listed scopes.
    std::size_t first = m_entries.size();
    while (first > 0 && m_entries[first - 1].pattern)
        --first;
    if (first == m_entries.size())
        return;
    beginRemoveRows({}, int(first), int(m_entries.size()) - 1);
    m_entries.erase(m_entries.begin() + std::ptrdiff_t(first), m_entries.end());
    endRemoveRows();
}

int ScopeListModel::rowOf(const QString &name) const
{
    for (std::size_t row = 0; row < m_entries.size(); ++row)
        if (m_entries[row].name == name)
            return int(row);
    return -1;
}

int ScopeListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int ScopeListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant ScopeListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry &e = m_entries[std::size_t(index.row())];
    const bool inA = e.kernelsA > 0, inB = e.kernelsB > 0;
    const int column = index.column();
    auto count = [&e](int column) -> qint64 {
        switch (column) {
        case KernelsAColumn:
            return e.kernelsA;
        case KernelsBColumn:
            return e.kernelsB;
        case InstancesAColumn:
            return e.instancesA;
        case InstancesBColumn:
            return e.instancesB;
        default:
            return 0;
        }
    };
    const bool sideA = column == KernelsAColumn || column == InstancesAColumn;
    const bool missingHere = column != ScopeColumn && (sideA ? !inA : !inB);

    switch (role) {
    case Qt::DisplayRole:
        if (column == ScopeColumn)
            return e.name;
        return QString::number(count(column));
    case RawValueRole:
        if (column == ScopeColumn)
            return e.name;
        return count(column);
    case NameRole:
        return e.name;
    case IsPatternRole:
        return e.pattern;
    case PresentInARole:
        return inA;
    case PresentInBRole:
        return inB;
    case StepRole:
        return e.step;
    case Qt::TextAlignmentRole:
        return column == ScopeColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                     : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (missingHere)
            return QBrush(QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text));
        return {};
    case Qt::FontRole:
        if (e.pattern || (e.step && column == ScopeColumn)) {
            QFont font;
            font.setItalic(e.pattern);
            font.setBold(e.step);
            return font;
        }
        return {};
    case Qt::ToolTipRole: {
        if (missingHere)
            return tr("“%1” is not found in %2: no kernels are attributed to it on that side.")
                .arg(e.name, sideA ? QStringLiteral("A") : QStringLiteral("B"));
        QString tip = e.pattern ? tr("Pattern “%1” (%2 match): kernels and instances it matches.")
                                      .arg(e.name, matchModeName(m_mode))
                      : e.step ? tr("Step scope “%1”: one instance per iteration; compare its GPU "
                                    "span with samples per instance (GPU span).")
                                     .arg(e.name)
                               : tr("Scope “%1”").arg(e.name);
        tip += QLatin1Char('\n') + tr("A: %1 kernels in %2 instances").arg(e.kernelsA).arg(e.instancesA);
        tip += QLatin1Char('\n') + tr("B: %1 kernels in %2 instances").arg(e.kernelsB).arg(e.instancesB);
        if (!inA && inB)
            tip += QLatin1Char('\n') + tr("Only in B.");
        else if (inA && !inB)
            tip += QLatin1Char('\n') + tr("Only in A.");
        return tip;
    }
    default:
        break;
    }
    return {};
}

QVariant ScopeListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    // Title and tooltip per column, in Column order.
    static const ColumnText kColumns[NUM_COLUMNS] = {
        {QT_TR_NOOP("Scope"),
         QT_TR_NOOP("A JAX op path component, or a CPU/GPU annotation name (bold, "
                    "listed first: a step scope such as ProfilerStep, whose "
                    "ProfilerStep#N ranges are its instances; italic: a pattern you added)")},
        {QT_TR_NOOP("Kernels A"),
         QT_TR_NOOP("GPU kernels attributed to the scope, summed over the runs of the side")},
        {QT_TR_NOOP("Kernels B"),
         QT_TR_NOOP("GPU kernels attributed to the scope, summed over the runs of the side")},
        {QT_TR_NOOP("Instances A"),
         QT_TR_NOOP("Occurrences of the scope: annotation ranges, or runs of consecutive "
                    "matching kernels on a stream, summed over the runs of the side")},
        {QT_TR_NOOP("Instances B"),
         QT_TR_NOOP("Occurrences of the scope: annotation ranges, or runs of consecutive "
                    "matching kernels on a stream, summed over the runs of the side")},
    };
    if (orientation != Qt::Horizontal || section < 0 || section >= NUM_COLUMNS)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole)
        return tr(kColumns[section].title);
    if (role == Qt::ToolTipRole)
        return tr(kColumns[section].tip);
    return {};
}

} // namespace scopeline
