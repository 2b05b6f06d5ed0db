// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the verdicts below could not measure, across the top of a view: the one-process caveat
// (Replication::caveat) and how to record the runs so that they measure it. Hidden without a caveat.

#include <QString>
#include <QWidget>

class QLabel;

namespace scopeline {

class CaveatBanner : public QWidget
{
    Q_OBJECT
public:
    explicit CaveatBanner(QWidget *parent = nullptr);

    // Shows the banner for `caveat` and the traces' own caveats below it (runCaveats, a line each),
    // hides it when there are none.
    void setCaveat(const QString &caveat, const QStringList &traceCaveats = {});
    QString caveat() const { return m_caveat; }
    bool isShown() const { return !isHidden(); }
    // The text shown: message(caveat()) and the traces' caveats; empty while hidden.
    QString text() const;

    // The caveat as a sentence, then how to record several processes (the report says the same).
    static QString message(const QString &caveat);

private:
    QString m_caveat;
    QLabel *m_text = nullptr;
};

} // namespace scopeline
