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
    forEachVariant([&out](const QString &label, const RankTable &table, int side) {
        for (const RankRow &row : table.rows())
            if (row.side == side)
                out.push_back({label, row});
    });
    return out;
}

std::vector<VariantCollectiveRow> VariantRanks::collectiveKinds() const
{
    std::vector<VariantCollectiveRow> out;
    forEachVariant([&out](const QString &label, const RankTable &table, int side) {
        for (const CollectiveRow &row : table.collectiveKinds())
            if (row.side == side)
                out.push_back({label, row});
    });
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
    forEachVariant([&lines](const QString &label, const RankTable &table, int side) {
        for (const RunCollectives &c : table.collectives())
            if (c.side == side)
                lines << table.note(c, label);
    });
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
