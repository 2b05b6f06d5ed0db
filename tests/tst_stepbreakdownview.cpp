// SPDX-License-Identifier: GPL-3.0-or-later
#include <QtTest>

class Placeholder : public QObject
{
    Q_OBJECT
private slots:
    void notWritten() { QFAIL("not written yet"); }
};

QTEST_MAIN(Placeholder)
#include "tst_stepbreakdownview.moc"
