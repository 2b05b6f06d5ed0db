#include <QtTest>
class Tstcomparisonmodels : public QObject { Q_OBJECT private slots: void pending() { QSKIP("not written yet"); } };
QTEST_MAIN(Tstcomparisonmodels)
#include "tst_comparisonmodels.moc"
