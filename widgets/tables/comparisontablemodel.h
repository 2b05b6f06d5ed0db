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
    enum Roles {
        RawValueRole =
            Qt::UserRole, // double (NaN when empty), qulonglong for n, QString for text, int Verdict
        VerdictRole,      // int(Verdict) of the row, in every column
        CiLowRole,        // the HL confidence interval ends, in every column
        CiHighRole,
        PooledRole, // bool: the row pools all runs ("all")
    };

    explicit ComparisonTableModel(QObject *parent = nullptr);

    // The position of a column by its CSV key (ScopeComparison::tableKeys()); -1 when the table has none.
    static int column(const char *key) { return ScopeComparison::tableKeys().indexOf(QLatin1String(key)); }

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

    // The runs' names of each side in run order (Replication::runNames): a run pair shows its runs'
    // name ("run_2", or "a_0 · b_0" where they differ), as the run pickers do, not its number ("3").
    void setRunNames(const QStringList &a, const QStringList &b);
    // What the run column shows of a row: its runs' names, else its number; "all" for the pooled row.
    QString runText(const ComparisonRow &row) const;

    // Why a tied test's p and interval are what they are; `unit`: "run" or "process"; the timer
    // step is named when known (> 0).
    static QString tiedExplanation(const QString &unit, double timerStepNs);
    static QColor verdictColor(Verdict verdict);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString toolTip(const ComparisonRow &row, int column) const;
    // A run pair's runs' names, A's then B's; empty for the pooled row or runs not named.
    QStringList pairNames(const ComparisonRow &row) const;
    QString verdictToolTip(const ComparisonRow &row) const;
    // A run pair's verdict, from its per-sample test.
    QString perSampleToolTip(const ComparisonRow &row, Verdict verdict, const QString &threshold) const;
    void verdictsChanged();

    std::vector<ComparisonRow> m_rows;
    double m_threshold = 0.01;
    double m_alpha = 0.05;
    QString m_caveat;
    QStringList m_runNames[2];
    std::vector<TableColumn<ComparisonRow>> m_columns; // tableColumns(), judged with alpha and threshold
    const int m_verdictColumn = column("verdict");
    const int m_runColumn = column("run");
};

} // namespace scopeline
