// SPDX-License-Identifier: GPL-3.0-or-later
// The error banner: hidden until an error is shown; details one click away and only when there are
// some; dismissing hides it and says so; clear() hides it quietly; an added button sits in its row.

#include "widgets/panels/errorbanner.h"

#include <QApplication>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtTest>

using namespace scopeline;

class TstErrorBanner : public QObject
{
    Q_OBJECT

private slots:
    void showsAndDismisses()
    {
        QWidget window;
        auto *layout = new QVBoxLayout(&window);
        auto *banner = new ErrorBanner;
        layout->addWidget(banner);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!banner->isVisible());
        QVERIFY(banner->text().isEmpty());

        auto *toggle = banner->findChild<QToolButton *>(QStringLiteral("errorDetailsToggle"));
        auto *details = banner->findChild<QPlainTextEdit *>(QStringLiteral("errorDetails"));
        auto *dismiss = banner->findChild<QToolButton *>(QStringLiteral("errorDismiss"));
        QVERIFY(toggle && details && dismiss);

        banner->showError(QStringLiteral("/tmp/x.json is not <b>JSON</b>")); // plain text, not markup
        QVERIFY(banner->isVisible());
        QCOMPARE(banner->text(), QStringLiteral("/tmp/x.json is not <b>JSON</b>"));
        QVERIFY(!toggle->isVisible()); // no details, nothing to toggle
        QVERIFY(!details->isVisible());

        banner->showError(QStringLiteral("it failed"), QStringLiteral("$ prog --flag\nprog: no GPU\n"));
        QCOMPARE(banner->details(), QStringLiteral("$ prog --flag\nprog: no GPU"));
        QVERIFY(toggle->isVisible());
        QVERIFY(!details->isVisible()); // collapsed at first
        QTest::mouseClick(toggle, Qt::LeftButton);
        QVERIFY(details->isVisible());
        QVERIFY(banner->detailsExpanded());
        QTest::mouseClick(toggle, Qt::LeftButton);
        QVERIFY(!details->isVisible());

        QSignalSpy dismissed(banner, &ErrorBanner::dismissed);
        QTest::mouseClick(dismiss, Qt::LeftButton);
        QCOMPARE(dismissed.size(), 1);
        QVERIFY(!banner->isVisible());
        QVERIFY(banner->text().isEmpty());
        QVERIFY(banner->details().isEmpty());

        banner->showError(QStringLiteral("again"), QStringLiteral("more"));
        QTest::mouseClick(toggle, Qt::LeftButton);
        banner->clear();
        QCOMPARE(dismissed.size(), 1); // clear() is not the user's dismissal
        QVERIFY(!banner->isVisible());
        banner->showError(QStringLiteral("a third"), QStringLiteral("details"));
        QVERIFY(!details->isVisible()); // a new error starts collapsed
    }

    // A long message (25 runs that failed, a path longer than the screen) keeps the window's size: its
    // first lines are shown, the whole of it is under Details.
    void longMessagesStayInTheWindow()
    {
        QWidget window;
        auto *layout = new QVBoxLayout(&window);
        auto *banner = new ErrorBanner;
        layout->addWidget(banner);
        window.resize(800, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QStringList lines{QStringLiteral("25 run(s) left out; the other runs are compared.")};
        for (int i = 0; i < 25; ++i)
            lines << QStringLiteral("/data/side/run_%1/trace.json.gz: truncated").arg(i);
        banner->showError(lines.join(QLatin1Char('\n')), QStringLiteral("more"));
        QCOMPARE(banner->text(), lines.mid(0, 3).join(QLatin1Char('\n')) +
                                     QStringLiteral("\n… and 23 more line(s) under Details"));
        QCOMPARE(banner->details(), lines.join(QLatin1Char('\n')) + QStringLiteral("\n\nmore"));
        QVERIFY(banner->findChild<QToolButton *>(QStringLiteral("errorDetailsToggle"))->isVisible());
        QVERIFY2(window.minimumSizeHint().height() < 300,
                 qPrintable(QString::number(window.minimumSizeHint().height())));

        const QString path =
            QStringLiteral("/data/") + QString(400, QLatin1Char('x')) + QStringLiteral("/run");
        banner->showError(path + QStringLiteral(": no such file or folder"));
        QVERIFY2(window.minimumSizeHint().width() < 800,
                 qPrintable(QString::number(window.minimumSizeHint().width())));
        QCOMPARE(banner->details(), path + QStringLiteral(": no such file or folder"));
        QCOMPARE(banner->text(), path + QStringLiteral(": no such file or folder"));
    }

    // Under a dark palette the banner stays light: its Details and dismiss buttons keep dark text on it
    // (they had taken the palette's light grey, about 1.1:1 against the banner).
    void buttonsReadableUnderDarkPalette()
    {
        const QPalette before = QApplication::palette();
        QPalette dark = before;
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
        for (const QPalette::ColorRole role : {QPalette::WindowText, QPalette::ButtonText, QPalette::Text})
            dark.setColor(role, QColor(0xdd, 0xdd, 0xdd));
        QApplication::setPalette(dark);
        {
            ErrorBanner banner;
            banner.showError(QStringLiteral("trace.json: invalid JSON"), QStringLiteral("details"));
            banner.resize(600, banner.sizeHint().height());
            banner.show();
            QVERIFY(QTest::qWaitForWindowExposed(&banner));
            const int background = qGray(QColor(0xfd, 0xec, 0xea).rgb());
            for (const char *name : {"errorDismiss", "errorDetailsToggle"}) {
                auto *button = banner.findChild<QToolButton *>(QLatin1String(name));
                QVERIFY(button);
                const QImage image = banner.grab(button->geometry()).toImage();
                int darkest = 255;
                for (int y = 0; y < image.height(); ++y)
                    for (int x = 0; x < image.width(); ++x)
                        darkest = std::min(darkest, qGray(image.pixel(x, y)));
                QVERIFY2(background - darkest >= 100, qPrintable(QStringLiteral("%1: darkest %2 on %3")
                                                                     .arg(QLatin1String(name))
                                                                     .arg(darkest)
                                                                     .arg(background)));
            }
        }
        QApplication::setPalette(before);
    }

    void addedButton()
    {
        ErrorBanner banner;
        QPushButton *reload = banner.addButton(QStringLiteral("Reload"));
        QCOMPARE(reload->parentWidget(), &banner);
        QSignalSpy clicked(reload, &QPushButton::clicked);
        banner.showError(QStringLiteral("Trace files changed on disk."));
        banner.show();
        QVERIFY(QTest::qWaitForWindowExposed(&banner));
        QVERIFY(reload->isVisible());
        QTest::mouseClick(reload, Qt::LeftButton);
        QCOMPARE(clicked.size(), 1);
        QVERIFY(banner.isVisible()); // what the button does is the caller's
    }
};

QTEST_MAIN(TstErrorBanner)
#include "tst_errorbanner.moc"
