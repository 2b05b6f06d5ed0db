// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Several GPUs of one job in more than two variants: a baseline's ranks against each candidate's,
// a RankTable each with one step scope, judged together (RankTable::judgeTogether), and the tables
// of `ranks A B C …` with a variant column first.

#include "model/comparison/ranktable.h"

#include <QStringList>

#include <vector>

namespace scopeline {

struct VariantRankRow
{
    QString variant;
    RankRow row;
};

struct VariantRankComparisonRow
{
    QString variant;
    RankComparisonRow row;
};

struct VariantCollectiveRow
{
    QString variant;
    CollectiveRow row;
};

class VariantRanks
{
public:
    // labels: the baseline's first, then each candidate's.
    VariantRanks(const QList<LoadedRun> &baseline, const std::vector<QList<LoadedRun>> &candidates,
                 const QStringList &labels, const RankTable::Options &options = {});

    const QStringList &labels() const { return m_labels; }
    // Candidate i against the baseline, judged with the others.
    const std::vector<RankTable> &tables() const { return m_tables; }

    // Each rank of the baseline, then of each candidate; the kinds of collective the same way.
    std::vector<VariantRankRow> rows() const;
    std::vector<VariantCollectiveRow> collectiveKinds() const;
    // Each candidate's rows of A against B.
    std::vector<VariantRankComparisonRow> comparison() const;
    // Each run's note (slowest rank, collectives), named by its variant.
    QStringList notes() const;

    static const std::vector<TableColumn<VariantRankRow>> &columns();
    static const std::vector<TableColumn<VariantRankComparisonRow>> &comparisonColumns();
    static const std::vector<TableColumn<VariantCollectiveRow>> &collectiveColumns();

private:
    // f(label, table, side) for the baseline (side 0 of the first table), then each candidate (side 1
    // of its table): each variant's rows once.
    template <typename F> void forEachVariant(F f) const
    {
        for (std::size_t t = 0; t < m_tables.size(); ++t) {
            if (t == 0)
                f(m_labels.value(0), m_tables[t], 0);
            f(m_labels.value(qsizetype(t) + 1), m_tables[t], 1);
        }
    }

    QStringList m_labels;
    std::vector<RankTable> m_tables;
};

} // namespace scopeline
