#include <QtTest>
class Tstreportexporter : public QObject { Q_OBJECT private slots: void pending() { QSKIP("not written yet"); } };
QTEST_MAIN(Tstreportexporter)
#include "tst_reportexporter.moc"
