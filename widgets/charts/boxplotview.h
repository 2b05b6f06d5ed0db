// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Boxplots of A against B: for each group (a scope, or a scope in one run pair) an A box and a B box side
// by side, whiskers at the most extreme data within 1.5·IQR of the quartiles and the rest drawn as
// outliers (stats::describe). Linear or log value axis in a unit that fits the data; drag and wheel-zoom
// on the value axis, double-click to fit.

#include "widgets/charts/plottheme.h"
#include "stats/descriptive.h"

#include <QString>
#include <QWidget>

#include <vector>

class QCustomPlot;
class QCPAbstractItem;
class QCPGraph;
class QCPLayoutGrid;
class QCPItemText;
class QCPTextElement;
class QCPStatisticalBox;

namespace scopeline {

class BoxPlotView : public QWidget
{
    Q_OBJECT
public:
    struct Group
    {
        QString label;        // the x tick label ('\n' for a second line)
        QString toolTip;      // what the group is, for the hover tooltip
        int cluster = 0;      // groups of one cluster (a scope in per-run view) sit closer together
        QString clusterLabel; // shown above the plot over the cluster's groups (the scope in per-run view)
        stats::Descriptive a, b;
        // Each run's median, drawn as a dot over its side's box so that run-to-run spread shows;
        // NaN entries (runs without samples) are left out.
        std::vector<double> runMediansA, runMediansB;

        static Group fromSamples(const QString &label, const std::vector<double> &a,
                                 const std::vector<double> &b, int cluster = 0);
    };

    explicit BoxPlotView(QWidget *parent = nullptr);
    ~BoxPlotView() override;

    // The legend reads "A: <labelA>", "B: <labelB>".
    void setLabels(const QString &labelA, const QString &labelB);
    // Whether the groups' dots are of rank files (runs of several GPUs: each rank gives one): their
    // legend entry reads "rank medians", else "run medians".
    void setRanked(bool ranked);
    void setGroups(std::vector<Group> groups);
    const std::vector<Group> &groups() const { return m_groups; }
    // A line above the plot, left of the legend (what the samples are, pooled or per run).
    void setTitle(const QString &title);
    QString title() const;
    // Shown in the middle of the plot while there are no groups.
    void setHint(const QString &hint);
    QString hint() const;

    bool logScale() const { return m_logScale; }
    void setLogScale(bool logScale);

    // The value axis unit chosen from the largest value: "ns", "µs" or "ms", and ns per unit.
    QString unit() const { return m_unit; }
    double unitScale() const { return m_unitScale; }
    // The x key of a group's A or B box.
    double key(int group, bool sideB) const;

    QCustomPlot *plot() const { return m_plot; }

public slots:
    // Fits the value axis to the data.
    void fitToData();

protected:
    void changeEvent(QEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void applyTheme();
    void rebuild();
    void updateTickLabels();
    QString toolTipAt(const QPoint &pos) const;

    QCustomPlot *m_plot = nullptr;
    PlotTheme m_theme;
    QCPStatisticalBox *m_boxA = nullptr;
    QCPStatisticalBox *m_boxB = nullptr;
    QCPGraph *m_runMedians = nullptr;
    QCPItemText *m_hint = nullptr;
    QString m_hintText;                // unwrapped
    QCPTextElement *m_title = nullptr; // m_titleText elided to the width it has (fitTitle)
    QString m_titleText;
    QCPLayoutGrid *m_topRow = nullptr;    // the title, and the legend beside it when it fits
    QCPLayoutGrid *m_legendRow = nullptr; // else the legend, on a row of its own below
    void placeLegend();
    void fitTitle();
    void wrapLegend();
    void fitValueTicks();
    void titleValueAxis();
    void wrapHint();
    // Shown, and under the height that holds a title and a legend row (a laptop screen's kernel plot).
    bool shownShort() const;
    std::vector<QCPAbstractItem *> m_separators;
    std::vector<Group> m_groups;
    struct Cluster
    {
        QString label;
        double first = 0, last = 0; // centres of its first and last group
    };
    std::vector<double> m_centers; // x of each group's centre
    QStringList m_tickLabels;      // every group's, some left unshown where rotated ones would overlap
    int m_labelEvery = 1;
    int m_labelRoom = 0; // the width flat labels are cut to where they are crowded (0: whole)
    int m_labelChars = 0;     // the characters rotated labels keep
    int m_ticksForHeight = 0; // the value axis' height its ticks were last made for
    std::vector<Cluster> m_clusters;
    QString m_labelA = QStringLiteral("A"), m_labelB = QStringLiteral("B");
    QString m_unit = QStringLiteral("µs");
    double m_unitScale = 1e3;
    bool m_logScale = false;
};

} // namespace scopeline
