// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a BoxPlotView draws, read back from its plot (the QCPStatisticalBox data: whiskers, quartiles,
// median, outliers) and compared box by box with tests/oracle/boxplot_oracle.py, which computes the
// boxes from the traces' own samples with numpy.

#include "testprocess.h"

#include "model/loading/loadedrun.h"
#include "widgets/charts/boxplotview.h"

#include <qcustomplot.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace boxplotcheck {

// The oracle's rows for the scopes of side A's and B's runs (kernel samples), or an empty array.
inline QJsonArray oracleBoxes(const QList<scopeline::LoadedRun> &a, const QList<scopeline::LoadedRun> &b,
                              const QStringList &scopes, QByteArray *error)
{
    QStringList arguments{QStringLiteral(SCOPELINE_ORACLE_DIR "/boxplot_oracle.py"), QStringLiteral("--samples"),
                          QStringLiteral("kernel"), QStringLiteral("--a")};
    for (const scopeline::LoadedRun &run : a)
        arguments << run.run.file;
    arguments << QStringLiteral("--b");
    for (const scopeline::LoadedRun &run : b)
        arguments << run.run.file;
    arguments << QStringLiteral("--scope") << scopes;
    const ProcessResult oracle = runProcess(QStringLiteral(SCOPELINE_PYTHON), arguments);
    if (oracle.exitCode != 0)
        *error = "boxplot_oracle.py failed (it needs python3 with numpy): " + oracle.err;
    return QJsonDocument::fromJson(oracle.out).array();
}

inline bool same(double drawn, double expectedNs, double unitScale)
{
    const double ns = drawn * unitScale;
    return std::abs(ns - expectedNs) <= 1e-9 * std::max(1.0, std::abs(expectedNs));
}

// Empty when the view draws exactly the oracle's boxes for the scopes, in the order the scope boxplot
// gives them: per scope its pooled row ("all"), or its run pairs in order; otherwise what differs.
// A box is recognised by its key (BoxPlotView::key of its group and side); values are in the view's
// unit (linear scale).
inline QString mismatch(const scopeline::BoxPlotView &view, const QJsonArray &oracle, const QStringList &scopes,
                        bool pooled)
{
    std::vector<QJsonObject> expected; // in group order
    for (const QString &scope : scopes)
        for (const QJsonValue &row : oracle)
            if (row[QStringLiteral("scope")].toString() == scope &&
                (row[QStringLiteral("run")].toString() == QLatin1String("all")) == pooled)
                expected.push_back(row.toObject());
    if (expected.empty())
        return QStringLiteral("the oracle gave no rows");
    if (view.groups().size() != expected.size())
        return QStringLiteral("%1 groups drawn, the oracle has %2").arg(view.groups().size()).arg(expected.size());
    QCustomPlot *plot = view.plot();
    int boxesChecked = 0;
    for (const bool sideB : {false, true}) {
        const QString prefix = sideB ? QStringLiteral("B: ") : QStringLiteral("A: ");
        QCPStatisticalBox *box = nullptr;
        for (int i = 0; i < plot->plottableCount(); ++i)
            if (auto *candidate = qobject_cast<QCPStatisticalBox *>(plot->plottable(i));
                candidate && candidate->name().startsWith(prefix))
                box = candidate;
        if (!box)
            return QStringLiteral("no statistical box plottable named \"%1...\"").arg(prefix);
        int expectedBoxes = 0;
        for (const QJsonObject &row : expected)
            expectedBoxes += row[sideB ? QStringLiteral("b") : QStringLiteral("a")].isObject() ? 1 : 0;
        if (box->dataCount() != expectedBoxes)
            return QStringLiteral("%1%2 boxes drawn, the oracle has %3").arg(prefix).arg(box->dataCount()).arg(expectedBoxes);
        for (auto it = box->data()->constBegin(); it != box->data()->constEnd(); ++it) {
            int group = -1;
            for (std::size_t g = 0; g < expected.size(); ++g)
                if (view.key(int(g), sideB) == it->key)
                    group = int(g);
            if (group < 0)
                return QStringLiteral("%1box at key %2 belongs to no group").arg(prefix).arg(it->key);
            const QJsonObject row = expected[std::size_t(group)];
            const QJsonObject want = row[sideB ? QStringLiteral("b") : QStringLiteral("a")].toObject();
            const QString where = QStringLiteral("%1%2 run %3: ")
                                      .arg(prefix, row[QStringLiteral("scope")].toString(),
                                           row[QStringLiteral("run")].toString());
            const double scale = view.unitScale();
            const std::pair<const char *, double> figures[] = {
                {"whisker_low", it->minimum}, {"q1", it->lowerQuartile}, {"median", it->median},
                {"q3", it->upperQuartile},    {"whisker_high", it->maximum}};
            for (const auto &[name, drawn] : figures)
                if (!same(drawn, want[QLatin1String(name)].toDouble(), scale))
                    return where + QStringLiteral("%1 drawn at %2 ns, the oracle's is %3 ns")
                                       .arg(QLatin1String(name))
                                       .arg(drawn * scale, 0, 'g', 12)
                                       .arg(want[QLatin1String(name)].toDouble(), 0, 'g', 12);
            const QJsonArray outliers = want[QStringLiteral("outliers")].toArray();
            QVector<double> drawnOutliers = it->outliers;
            std::sort(drawnOutliers.begin(), drawnOutliers.end());
            if (drawnOutliers.size() != outliers.size())
                return where + QStringLiteral("%1 outliers drawn, the oracle has %2")
                                   .arg(drawnOutliers.size())
                                   .arg(outliers.size());
            for (qsizetype o = 0; o < outliers.size(); ++o)
                if (!same(drawnOutliers[o], outliers[o].toDouble(), scale))
                    return where + QStringLiteral("outlier %1 drawn at %2 ns, the oracle's is %3 ns")
                                       .arg(o)
                                       .arg(drawnOutliers[o] * scale, 0, 'g', 12)
                                       .arg(outliers[o].toDouble(), 0, 'g', 12);
            ++boxesChecked;
        }
    }
    return boxesChecked > 0 ? QString() : QStringLiteral("no box drawn");
}

} // namespace boxplotcheck
