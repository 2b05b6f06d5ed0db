// SPDX-License-Identifier: GPL-3.0-or-later
// TimelineTheme from light and dark palettes: every event fill stands out from the background and
// carries readable text, labels and arrows contrast with what they sit on, and a TimelineView paints
// with its own palette.

#include "testdata.h"
#include "testruns.h"

#include "model/loading/loadedrun.h"
#include "model/loading/tracefolder.h"
#include "widgets/timeline/timelinetheme.h"
#include "widgets/timeline/timelineview.h"

#include <QApplication>
#include <QImage>
#include <QtTest>

using namespace scopeline;
using testruns::kJaxRun;

class TstTimelineTheme : public QObject
{
    Q_OBJECT

    LoadedRun m_jax;

private slots:
    void initTestCase()
    {
        REQUIRE_TEST_DATA(kJaxRun);
        const QList<LoadedRun> runs = LoadedRun::loadAll(TraceFolder::scan(kJaxRun));
        QVERIFY(!runs.isEmpty() && runs.front().ok());
        m_jax = runs.front();
    }

    void themeReadsOnLightAndDark_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    void themeReadsOnLightAndDark()
    {
        QFETCH(bool, dark);
        QPalette palette = QApplication::palette();
        if (dark) {
            palette.setColor(QPalette::Window, QColor(0x2d, 0x2f, 0x33));
            palette.setColor(QPalette::Base, QColor(0x1f, 0x21, 0x24));
            palette.setColor(QPalette::Text, QColor(0xe6, 0xe8, 0xeb));
            palette.setColor(QPalette::WindowText, QColor(0xe6, 0xe8, 0xeb));
        }
        const TimelineTheme theme = TimelineTheme::fromPalette(palette);
        QCOMPARE(theme.dark, dark);
        auto contrast = [](const QColor &a, const QColor &b) { return std::abs(qGray(a.rgb()) - qGray(b.rgb())); };
        for (const TimelineTheme::Swatch &swatch : theme.swatches) {
            QVERIFY2(contrast(swatch.fill, theme.background) >= 40, qPrintable(swatch.fill.name()));
            QVERIFY2(contrast(swatch.text, swatch.fill) >= 70, qPrintable(swatch.fill.name()));
        }
        for (const QColor &text : {theme.labelText, theme.axisText, theme.headerTitle})
            QVERIFY(contrast(text, theme.labelColumn) >= 120 && contrast(text, theme.axisBackground) >= 120);
        QVERIFY(contrast(theme.arrowStrong, theme.background) >= 120);
        // painted: the view follows its palette
        TimelineView view;
        view.setPalette(palette);
        view.resize(1200, 700);
        view.setRun(m_jax);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage image = view.grab().toImage();
        const QRect plot = view.plotRect();
        const QColor corner = image.pixelColor(QPoint(plot.right() - 3, plot.bottom() - 3) * view.devicePixelRatio());
        QVERIFY2(contrast(corner, palette.color(QPalette::Base)) < 16, qPrintable(corner.name()));
        QVERIFY(image.save(QStringLiteral("/tmp/timeline_%1.png").arg(dark ? QStringLiteral("dark") : QStringLiteral("light"))));
    }

    void mixing()
    {
        QCOMPARE(TimelineTheme::mix(Qt::white, Qt::black, 0.0), QColor(Qt::white));
        QCOMPARE(TimelineTheme::mix(Qt::white, Qt::black, 1.0), QColor(Qt::black));
        QCOMPARE(TimelineTheme::mix(QColor(0, 0, 0), QColor(200, 100, 50), 0.5), QColor(100, 50, 25));
    }
};

QTEST_MAIN(TstTimelineTheme)
#include "tst_timelinetheme.moc"
