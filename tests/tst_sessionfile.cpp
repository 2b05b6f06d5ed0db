#include <QtTest>
class Tstsessionfile : public QObject { Q_OBJECT private slots: void pending() { QSKIP("not written yet"); } };
QTEST_MAIN(Tstsessionfile)
#include "tst_sessionfile.moc"
