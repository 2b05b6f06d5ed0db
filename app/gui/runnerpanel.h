// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The form that runs scopeline-hipbench from the GUI: pick a workload and its options and a folder,
// watch progress and the log, see failures in an error banner. The program itself is driven by
// HipbenchRunner; a recorded A/B pair is handed on through pairReady().

#include "model/runner/hipbenchrunner.h"

#include <QDialog>
#include <QMap>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace scopeline {

class ErrorBanner;

class RunnerPanel : public QDialog
{
    Q_OBJECT
public:
    explicit RunnerPanel(QWidget *parent = nullptr);
    ~RunnerPanel() override;

    HipbenchRunner *runner() const { return m_runner; }
    QString program() const;
    QStringList workloads() const;
    QString workload() const;
    void setWorkload(const QString &name);
    // The current workload's option values by name, as they go on the command line.
    QMap<QString, QString> optionValues() const;
    bool setOptionValue(const QString &name, const QString &value);
    QString outputFolder() const;
    void setOutputFolder(const QString &folder);
    // A folder picked with Browse…: the run's own when it is empty, else a new one in it named as the
    // default is (a run records into a new or empty folder only).
    void chooseOutputFolder(const QString &folder);
    bool isListing() const;
    bool isRunning() const;
    bool canRun() const;
    // The first option out of its range, said ("kernels: a whole number from 1 to 100000"); empty if none.
    QString optionsProblem() const;
    // What is going on, or, while the error banner shows, what went wrong and why.
    QString statusText() const;
    // The error banner's message and details; empty when it is not shown.
    QString errorText() const;
    QString errorDetails() const;
    QString logText() const;

public slots:
    void startRun();
    void cancelRun();

signals:
    // A run succeeded: the folders of variant A and B, and the scopes and sample mode to compare.
    void pairReady(const QString &pathA, const QString &pathB, const scopeline::SessionState &state);
    // The workloads are listed, or listing failed (statusText() says why).
    void listingDone();
    // A run has ended: succeeded (pairReady was emitted), failed or cancelled.
    void runDone(bool succeeded);

protected:
    void reject() override;
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void listWorkloads();
    void buildForm();
    void listingFinished(bool succeeded);
    void showWorkload(int index);
    void showProgress(int done, int total, const QString &message);
    void runFinished(HipbenchRunner::Outcome outcome, const QString &message);
    void showStatus(const QString &text);
    void showError(const QString &text, const QString &details);
    void updateButtons();
    QString defaultFolder() const;

    HipbenchRunner *m_runner = nullptr;
    bool m_folderEdited = false; // else the folder follows the workload and a fresh timestamp

    ErrorBanner *m_banner = nullptr;
    QComboBox *m_workload = nullptr;
    QLabel *m_description = nullptr;
    QFormLayout *m_form = nullptr;
    QList<QWidget *> m_fields; // one per option of the shown workload
    QLineEdit *m_folder = nullptr;
    QPushButton *m_browse = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    QPlainTextEdit *m_log = nullptr;
    QPushButton *m_runButton = nullptr;
    QPushButton *m_cancelButton = nullptr;
    QPushButton *m_closeButton = nullptr;
    QPushButton *m_openRecorded = nullptr;
    bool m_shownBefore = false;
    QLabel *m_optionsProblem = nullptr;
};

} // namespace scopeline
