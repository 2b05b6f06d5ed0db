#include <QtTest>
class Tsttimescale : public QObject { Q_OBJECT private slots: void pending() { QSKIP("not written yet"); } };
QTEST_MAIN(Tsttimescale)
#include "tst_timescale.moc"
