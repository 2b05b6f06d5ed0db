// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Runs scopeline-hipbench from the GUI: pick a workload and its options, record a trace pair into a
// folder with progress and a log, and hand the recorded A/B pair to the main window to open.

#include "model/sessionfile.h"

#include <QDialog>
#include <QMap>
#include <QProcess>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTimer;

namespace scopeline {

class RunnerPanel : public QDialog
{
    Q_OBJECT
public:
    explicit RunnerPanel(QWidget *parent = nullptr);
    ~RunnerPanel() override;

    // The scopeline-hipbench to run: $SCOPELINE_HIPBENCH, else next to this program, else in the build
    // tree, else on PATH. Empty when none is found; `where` then lists the places looked in.
    static QString findProgram(QString *where = nullptr);
    // Reads FOLDER/summary.json of a finished run: the A and B folders, the scopes and the sample mode.
    // False, with the reason, when it is missing, malformed or names no pair of folders.
    static bool readSummary(const QString &folder, SessionState &state, QString *error);

    QString program() const { return m_program; }
    QStringList workloads() const;
    QString workload() const;
    void setWorkload(const QString &name);
    // The current workload's option values by name, as they go on the command line.
    QMap<QString, QString> optionValues() const;
    bool setOptionValue(const QString &name, const QString &value);
    QString outputFolder() const;
    void setOutputFolder(const QString &folder);
    bool isListing() const { return m_listing.state() != QProcess::NotRunning; }
    bool isRunning() const { return m_run.state() != QProcess::NotRunning; }
    bool canRun() const;
    // The line under the form: what is going on, or what went wrong and why.
    QString statusText() const;
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

private:
    struct Option
    {
        QString name, defaultValue, help;
        QStringList choices;
    };
    struct Workload
    {
        QString name, description;
        QList<Option> options;
    };

    void startListing();
    void listingFinished(int exitCode, QProcess::ExitStatus status);
    void showWorkload(int index);
    void readRunOutput(QProcess::ProcessChannel channel, bool flush = false);
    void runFinished(int exitCode, QProcess::ExitStatus status);
    void runFailedToStart();
    void openSummary();
    void endRun(bool succeeded, const QString &message);
    void showStatus(const QString &text, bool error = false);
    void appendLog(const QString &line);
    void updateButtons();
    QString defaultFolder() const;

    QString m_program;
    QList<Workload> m_workloads;
    QProcess m_listing;
    QProcess m_run;
    QTimer *m_killTimer = nullptr; // kills a run that ignores terminate()
    bool m_cancelling = false;
    bool m_folderEdited = false; // else the folder follows the workload and a fresh timestamp
    QString m_runFolder;         // --out of the running or last run
    QString m_lastError;         // last stderr line of the run that is not progress
    QByteArray m_partial[2];     // unterminated stdout / stderr output of the run

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
};

} // namespace scopeline
