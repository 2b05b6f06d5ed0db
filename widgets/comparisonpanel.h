#pragma once
// A vs B: summary strip, scope picker (filter, multi-select, match and sample modes), boxplots per
// scope (pooled or per run pair, log scale), and the statistics table with verdicts.

#include "model/loadedrun.h"
#include "model/scopecomparison.h"

#include <QList>
#include <QWidget>

class QCustomPlot;

namespace scopeline {

class ComparisonPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ComparisonPanel(QWidget *parent = nullptr);
    ~ComparisonPanel() override;

    void setSides(const QList<LoadedRun> &a, const QList<LoadedRun> &b, const QString &labelA, const QString &labelB);

    QStringList selectedScopes() const;
    void setSelectedScopes(const QStringList &scopes);
    MatchMode matchMode() const;
    void setMatchMode(MatchMode mode);
    SampleMode sampleMode() const;
    void setSampleMode(SampleMode mode);
    double threshold() const; // fraction, default 0.01
    void setThreshold(double threshold);
    bool pooled() const;
    void setPooled(bool pooled);
    bool logScale() const;
    void setLogScale(bool logScale);

    // The current statistics rows and their CSV (same columns as scopeline-cli compare --csv).
    const std::vector<ComparisonRow> &rows() const;
    QString csv() const;
    // The boxplot, for export (savePng).
    QCustomPlot *plot() const;

signals:
    // Scopes, modes or options changed (the document is modified).
    void settingsChanged();
};

} // namespace scopeline
