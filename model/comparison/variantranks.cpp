// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/comparison/variantranks.h"

#include "model/comparison/stepbreakdown.h"
#include "model/tables/tableformat.h"

#include <QCoreApplication>

namespace scopeline {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("VariantRanks", text);
}

// A table's columns with the variant first, in place of the side where the rows have one.
template <typename Outer, typename Row>
std::vector<TableColumn<Outer>> withVariant(const std::vector<TableColumn<Row>> &columns, Row Outer::*member)
{
    std::vector<TableColumn<Outer>> list{
        TableColumn<Outer>{QStringLiteral("variant"), tr("Variant"), tr("The variant: the baseline, or a candidate"),
                           [](const Outer &r) { return QVariant(r.variant); }, cell::text, {}, -10}};
    for (TableColumn<Outer> &c : liftColumns(columns, member))
        if (c.csvKey != QLatin1String("side"))
            list.push_back(std::move(c));
    return list;
}

} // namespace

VariantRanks::VariantRanks(const QList<LoadedRun> &baseline, const std::vector<QList<LoadedRun>> &candidates,
                           const QStringList &labels, const RankTable::Options &options)
    : m_labels(labels)
{
    // One step scope for every candidate, as VariantSteps has.
    RankTable::Options decided = options;
    decided.stepScope = variantsStepScope(options.stepScope, baseline, candidates);
    m_tables.reserve(candidates.size());
    for (const QList<LoadedRun> &candidate : candidates)
        m_tables.emplace_back(baseline, candidate, decided);
    std::vector<RankTable *> all;
    for (RankTable &table : m_tables)
        all.push_back(&table);
    RankTable::judgeTogether(all);
}

std::vector<VariantRankRow> VariantRanks::rows() const
{
    std::vector<VariantRankRow> out;
    for (std::size_t t = 0; t < m_tables.size(); ++t)
        for (const RankRow &row : m_tables[t].rows())
            if (row.side == 1 || t == 0) // the baseline's once
                out.push_back({m_labels.value(row.side == 0 ? 0 : qsizetype(t) + 1), row});
    std::stable_sort(out.begin(), out.end(), [](const VariantRankRow &x, const VariantRankRow &y) {
        return x.row.side < y.row.side; // the baseline's first
    });
    return out;
}

std::vector<VariantCollectiveRow> VariantRanks::collectiveKinds() const
{
    std::vector<VariantCollectiveRow> out;
    for (int side = 0; side < 2; ++side)
        for (std::size_t t = 0; t < m_tables.size(); ++t)
            for (const CollectiveRow &row : m_tables[t].collectiveKinds())
                if (row.side == side && (side == 1 || t == 0))
                    out.push_back({m_labels.value(side == 0 ? 0 : qsizetype(t) + 1), row});
    return out;
}

std::vector<VariantRankComparisonRow> VariantRanks::comparison() const
{
    std::vector<VariantRankComparisonRow> out;
    for (std::size_t t = 0; t < m_tables.size(); ++t)
        for (const RankComparisonRow &row : m_tables[t].comparison())
            out.push_back({m_labels.value(qsizetype(t) + 1), row});
    return out;
}

QStringList VariantRanks::notes() const
{
    QStringList lines;
    for (int side = 0; side < 2; ++side)
        for (std::size_t t = 0; t < m_tables.size(); ++t)
            for (const RunCollectives &c : m_tables[t].collectives())
                if (c.side == side && (side == 1 || t == 0))
                    lines << m_tables[t].note(c, m_labels.value(side == 0 ? 0 : qsizetype(t) + 1));
    return lines;
}

const std::vector<TableColumn<VariantRankRow>> &VariantRanks::columns()
{
    static const auto list = withVariant(RankTable::columns(), &VariantRankRow::row);
    return list;
}

const std::vector<TableColumn<VariantRankComparisonRow>> &VariantRanks::comparisonColumns()
{
    static const auto list = withVariant(RankTable::comparisonColumns(), &VariantRankComparisonRow::row);
    return list;
}

const std::vector<TableColumn<VariantCollectiveRow>> &VariantRanks::collectiveColumns()
{
    static const auto list = withVariant(RankTable::collectiveColumns(), &VariantCollectiveRow::row);
    return list;
}

} // namespace scopeline
