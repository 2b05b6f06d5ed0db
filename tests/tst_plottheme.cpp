// SPDX-License-Identifier: GPL-3.0-or-later
// The QCustomPlot charts follow their widget's palette (PlotTheme): dark background and light text under
// a dark palette, the light look under the default one, re-applied when the palette changes.

#include "widgets/charts/boxplotview.h"
#include "widgets/charts/contributionchart.h"
#include "widgets/charts/plottheme.h"
#include "widgets/charts/rankbars.h"

#include <QApplication>
#include <QImage>
#include <QtTest>

#include <qcustomplot.h>

using namespace scopeline;

namespace {

double luma(const QColor &c)
{
    return 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue();
}

QPalette darkPalette()
{
    QPalette palette = QApplication::palette();
    palette.setColor(QPalette::Window, QColor(0x2d, 0x2f, 0x33));
    palette.setColor(QPalette::Base, QColor(0x1f, 0x21, 0x24));
    palette.setColor(QPalette::Text, QColor(0xe6, 0xe8, 0xeb));
    palette.setColor(QPalette::WindowText, QColor(0xe6, 0xe8, 0xeb));
    return palette;
}

QColor corner(QCustomPlot *plot)
{
    return plot->toPixmap(400, 300).toImage().pixelColor(2, 2);
}

// The plot's background and every text colour it draws with, dark on light or light on dark.
void verifyThemed(QCustomPlot *plot, bool dark)
{
    auto textReads = [dark](const QColor &c) { return dark ? luma(c) > 170 : luma(c) < 90; };
    const QColor background = corner(plot);
    QVERIFY2(dark ? luma(background) < 60 : luma(background) > 240, qPrintable(background.name()));
    for (QCPAxis *axis : plot->axisRect()->axes()) {
        QVERIFY2(textReads(axis->tickLabelColor()), qPrintable(axis->tickLabelColor().name()));
        QVERIFY2(textReads(axis->labelColor()), qPrintable(axis->labelColor().name()));
        QVERIFY(axis->tickPen().style() == Qt::NoPen || textReads(axis->tickPen().color()));
    }
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        QVERIFY(textReads(plot->legend->item(i)->textColor()));
}

// A and B's outlier dots stand out from the plot's background, their alpha blended over it: A's dark
// blue at half alpha had all but vanished on the dark one.
void verifyOutliersRead(QCustomPlot *plot)
{
    const QColor background = corner(plot);
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (const auto *box = qobject_cast<QCPStatisticalBox *>(plot->plottable(i))) {
            const QColor dot = box->outlierStyle().pen().color();
            const double a = dot.alphaF(), shown = a * luma(dot) + (1 - a) * luma(background);
            QVERIFY2(
                std::fabs(shown - luma(background)) >= 60,
                qPrintable(QStringLiteral("%1 on %2").arg(dot.name(QColor::HexArgb), background.name())));
        }
}

BoxPlotView::Group group()
{
    return BoxPlotView::Group::fromSamples(QStringLiteral("attn"), {1000, 1200, 1300, 1500, 9000},
                                           {900, 1000, 1100, 1250});
}

} // namespace

class TstPlotTheme : public QObject
{
    Q_OBJECT

private slots:
    void themeFromPalette()
    {
        const PlotTheme light = PlotTheme::fromPalette(QApplication::palette());
        QVERIFY(!light.dark);
        QCOMPARE(light.background, QApplication::palette().color(QPalette::Base));
        const PlotTheme dark = PlotTheme::fromPalette(darkPalette());
        QVERIFY(dark.dark);
        // a data colour's edge stands out from its fill towards the text side
        const QColor blue(31, 119, 180);
        QVERIFY(luma(light.edge(blue, 125)) < luma(blue));
        QVERIFY(luma(dark.edge(blue, 125)) > luma(blue));
    }

    void boxPlotFollowsPalette()
    {
        BoxPlotView view;
        view.setGroups({group()});
        verifyThemed(view.plot(), false);
        verifyOutliersRead(view.plot());
        QCOMPARE(view.plot()->legend->borderPen().style(), Qt::NoPen); // its style is kept

        view.setPalette(darkPalette()); // a PaletteChange
        verifyThemed(view.plot(), true);
        verifyOutliersRead(view.plot());
        QCOMPARE(view.plot()->legend->borderPen().style(), Qt::NoPen);

        view.setPalette(QApplication::palette());
        verifyThemed(view.plot(), false);
    }

    void contributionChartFollowsPalette()
    {
        ContributionChart chart;
        verifyThemed(chart.plot(), false);
        chart.setPalette(darkPalette());
        verifyThemed(chart.plot(), true);
    }

    // 25 groups (24 runs of 8 ranks and "all runs") on a narrow plot: rotated labels a group apart had
    // printed over each other; every 2nd, 4th, … is named so that named ones lie a line apart, the first
    // always, and on a wide plot every one.
    void rotatedBoxLabelsDoNotOverprint()
    {
        std::vector<BoxPlotView::Group> groups;
        for (int i = 0; i < 25; ++i) {
            groups.push_back(group());
            groups.back().label = i == 0
                                      ? QStringLiteral("all runs")
                                      : QStringLiteral("run_%1 · rank %2").arg((i - 1) / 8).arg((i - 1) % 8);
        }
        BoxPlotView view;
        view.setGroups(groups);
        const auto named = [&] {
            view.plot()->replot();
            QList<double> keys;
            const auto ticker = view.plot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
            for (auto it = ticker->ticks().cbegin(); it != ticker->ticks().cend(); ++it)
                if (!it.value().isEmpty())
                    keys << it.key();
            return keys;
        };
        view.resize(520, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QList<double> narrow = named();
        QVERIFY2(narrow.size() > 1 && narrow.size() < 25, qPrintable(QString::number(narrow.size())));
        QCOMPARE(view.plot()->xAxis->tickLabelRotation(), -30.0);
        const double line = QFontMetrics(view.plot()->xAxis->tickLabelFont()).lineSpacing();
        for (qsizetype i = 1; i < narrow.size(); ++i) {
            const double apart =
                view.plot()->xAxis->coordToPixel(narrow[i]) - view.plot()->xAxis->coordToPixel(narrow[i - 1]);
            QVERIFY2(apart / 2 >= 0.75 * line, qPrintable(QStringLiteral("%1 px apart").arg(apart)));
        }
        view.resize(5000, 300);
        QVERIFY(QTest::qWaitFor([&] { return named().size() == 25; }));
    }

    // A rank's bar starts at the axis: the category axis draws no tick into it (each rank's tick had
    // been a dark dash across its compute segment). Read from the painted pixels.
    void rankBarsHaveNoTicksOverTheBars()
    {
        RankRow row;
        row.rank = 0;
        row.stepNs = 10e6;
        row.computeNs = 4e6;
        row.idleNs = 6e6;
        RankBars bars;
        bars.setRows({row, row});
        bars.resize(400, 240);
        bars.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bars));
        QCustomPlot *plot = bars.plot();
        plot->replot();
        const QImage image = plot->toPixmap(plot->width(), plot->height(), 1.0).toImage();
        const QColor compute = dataColour(DataColour::SideA);
        for (int bar = 0; bar < 2; ++bar) {
            const int y = int(std::lround(plot->yAxis->coordToPixel(bar)));
            const int axis = int(std::lround(plot->xAxis->coordToPixel(0)));
            for (int x = axis + 2; x < axis + 6; ++x)
                QVERIFY2(image.pixelColor(x, y) == compute,
                         qPrintable(QStringLiteral("bar %1, x %2: %3")
                                        .arg(bar)
                                        .arg(x)
                                        .arg(image.pixelColor(x, y).name())));
        }
    }

    // A chart made inside a dark window is dark from the start.
    // Ten variants' names on a narrow axis: where a name does not fit its share, every other one goes a
    // line lower with twice the room, and no two read alike (cb_einsum and cublas_einsum had both read
    // "c…m"); where all fit, one line.
    void categoryNamesStaggerWhereNarrow()
    {
        const QStringList labels = {QStringLiteral("cb_matmul"),     QStringLiteral("cb_matmul_01"),
                                    QStringLiteral("cb_matmul_12"),  QStringLiteral("ns_matmul"),
                                    QStringLiteral("cublas_matmul"), QStringLiteral("cb_einsum"),
                                    QStringLiteral("ns_einsum"),     QStringLiteral("cublas_einsum"),
                                    QStringLiteral("big_matmul"),    QStringLiteral("big_einsum")};
        const QFont font = QApplication::font();
        const QFontMetrics metrics(font);
        const int axis =
            10 * metrics.horizontalAdvance(QStringLiteral("cb_ein")); // about 6 characters a name
        const QStringList ticks = categoryTicker(labels, font, axis)->ticks().values();
        QCOMPARE(ticks.size(), labels.size());
        QCOMPARE(QSet<QString>(ticks.begin(), ticks.end()).size(), labels.size());
        for (int i = 0; i < ticks.size(); ++i) {
            QCOMPARE(ticks[i].startsWith(QLatin1Char('\n')), i % 2 == 1);
            QVERIFY2(metrics.horizontalAdvance(ticks[i].trimmed()) <= 2 * axis / 10 - 8,
                     qPrintable(ticks[i]));
        }
        QCOMPARE(ticks[5], QStringLiteral("\ncb_einsum")); // whole, with twice the room
        const QStringList wide = categoryTicker(labels, font, 20 * axis)->ticks().values();
        QCOMPARE(wide, labels);
        // an axis not laid out yet (a few pixels): "…", never an empty label, which QCustomPlot draws
        // into an empty pixmap ("QPainter::begin: Paint device returned engine == 0")
        for (const QString &tick : categoryTicker(labels, font, 4)->ticks().values())
            QCOMPARE(tick.trimmed(), QStringLiteral("…"));
    }

    void childOfDarkWindow()
    {
        QWidget window;
        window.setPalette(darkPalette());
        auto *view = new BoxPlotView(&window);
        view->setGroups({group()});
        verifyThemed(view->plot(), true);
    }
};

QTEST_MAIN(TstPlotTheme)
#include "tst_plottheme.moc"
