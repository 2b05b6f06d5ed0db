// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Picks the pair to compare: A (baseline) and B (candidate), each a trace folder, run folder or file,
// by typing, browsing or dropping; lists the runs found on each side; offers the recent pairs.

#include "model/loading/tracefolder.h"

#include <QDialog>

#include <vector>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QTimer;

namespace scopeline {

class OpenDialog : public QDialog
{
    Q_OBJECT
public:
    OpenDialog(const QStringList &recentPairs, QWidget *parent = nullptr);

    QString pathA() const;
    QString pathB() const;
    void setPaths(const QString &a, const QString &b);
    // Runs listed for A (0) or B (1); scans run off the GUI thread, a moment after typing stops.
    QStringList runsListed(int side) const;
    bool isScanning() const;
    // The side's line under its runs, and the note on runs that do not pair (6 with 5); empty when even.
    QString statusText(int side) const;
    QString pairingNote() const;

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    struct Side
    {
        QLineEdit *path = nullptr;
        QListWidget *list = nullptr;
        QLabel *status = nullptr;
        QTimer *debounce = nullptr;
        int generation = 0; // bumps per scan started; an older scan's result is dropped
        bool scanning = false;
        int traces = 0; // runs listed that look like traces
        int runs = 0;   // of them runs, a multi-GPU run's rank files counted once
    };
    QWidget *makeSide(Side &side, const QString &title, const QString &tooltip);
    void rescan(Side &side);
    void updateOpenButton();
    void showRuns(Side &side, const QString &path, const std::vector<TraceRun> &runs, const QString &error,
                  const QStringList &problems, const QStringList &notes);
    void updatePairing();

    Side m_a, m_b;
    QComboBox *m_recent = nullptr;
    QLabel *m_pairing = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace scopeline
