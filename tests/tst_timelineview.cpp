#include <QtTest>
class Tsttimelineview : public QObject { Q_OBJECT private slots: void pending() { QSKIP("not written yet"); } };
QTEST_MAIN(Tsttimelineview)
#include "tst_timelineview.moc"
