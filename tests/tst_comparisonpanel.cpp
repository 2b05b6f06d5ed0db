#include <QtTest>
class Tstcomparisonpanel : public QObject { Q_OBJECT private slots: void pending() { QSKIP("not written yet"); } };
QTEST_MAIN(Tstcomparisonpanel)
#include "tst_comparisonpanel.moc"
