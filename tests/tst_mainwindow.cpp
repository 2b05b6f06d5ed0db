#include <QtTest>
class Tstmainwindow : public QObject { Q_OBJECT private slots: void pending() { QSKIP("not written yet"); } };
QTEST_MAIN(Tstmainwindow)
#include "tst_mainwindow.moc"
