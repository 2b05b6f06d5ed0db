// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The statistics rows of a comparison (ScopeComparison::compare) as a table: descriptive figures of A and
// B, rank tests, effect sizes and a verdict coloured by what it says. Titles, tooltips, texts and raw
// values (RawValueRole, for sorting and copying) come from ScopeComparison::tableColumns().

#include "model/comparison/scopecomparison.h"

#include <QAbstractTableModel>

#include <vector>

namespace scopeline {

class ComparisonTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    // In the order of ScopeComparison::tableColumns().
    enum Columns {
        ScopeColumn,
        RunColumn,
        NAColumn,
        NBColumn,
        MeanAColumn,
        MeanBColumn,
        StdAColumn,
        StdBColumn,
        MedianAColumn,
        MedianBColumn,
        IqrAColumn,
        IqrBColumn,
        RankSumZColumn,
        RankSumPColumn,
        MannWhitneyUColumn,
        MannWhitneyPColumn,
        MannWhitneyHolmColumn,
        ShiftColumn,
        ShiftCiColumn,
        RelativeChangeColumn,
        CliffsDeltaColumn,
        RunLevelChangeColumn, // pooled rows with >= 2 runs a side: change of the run medians [95 % CI]
        RunLevelPColumn,      // and its Holm-adjusted p: what the verdict of such a row uses
        VerdictColumn,
        NUM_COLUMNS
    };
    enum Roles {
        RawValueRole =
            Qt::UserRole, // double (NaN when empty), qulonglong for n, QString for text, int Verdict
        VerdictRole,      // int(Verdict) of the row, in every column
        CiLowRole,        // the HL confidence interval ends, in every column
        CiHighRole,
        PooledRole, // bool: the row pools all runs ("all")
    };

    explicit ComparisonTableModel(QObject *parent = nullptr);

    void setRows(std::vector<ComparisonRow> rows);
    const std::vector<ComparisonRow> &rows() const { return m_rows; }
    const ComparisonRow &row(int row) const { return m_rows[std::size_t(row)]; }

    // Smallest relative change of medians (a fraction) a significant difference needs to count as one.
    double threshold() const { return m_threshold; }
    void setThreshold(double threshold);
    double alpha() const { return m_alpha; }
    void setAlpha(double alpha);
    Verdict verdict(int row) const;

    // What the run-level verdicts could not measure (Replication::caveat); their tooltips say it.
    QString caveat() const { return m_caveat; }
    void setCaveat(const QString &caveat);

    // Why a tied test's p and interval are what they are; `unit`: "run" or "process"; the timer
    // step is named when known (> 0).
    static QString tiedExplanation(const QString &unit, double timerStepNs);
    static QColor verdictColor(Verdict verdict);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant raw(const ComparisonRow &row, int column) const;
    QString verdictToolTip(const ComparisonRow &row) const;
    void verdictsChanged();

    std::vector<ComparisonRow> m_rows;
    double m_threshold = 0.01;
    double m_alpha = 0.05;
    QString m_caveat;
    std::vector<TableColumn<ComparisonRow>> m_columns; // in Columns order, judged with alpha and threshold
};

} // namespace scopeline
