// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Drives scopeline-hipbench as a child process, without blocking: finds the program, lists its
// workloads, runs one into a folder and cancels a run (terminate, then kill after a grace period).
// Progress, output lines and the outcome come as signals; the protocol is in hipbenchprotocol.h.

#include "model/runner/hipbenchprotocol.h"

#include <QObject>
#include <QProcess>

class QTimer;

namespace scopeline {

class HipbenchRunner : public QObject
{
    Q_OBJECT
public:
    enum class Outcome { Succeeded, Failed, Cancelled };
    Q_ENUM(Outcome)

    explicit HipbenchRunner(QObject *parent = nullptr);
    ~HipbenchRunner() override; // kills what is still running

    static QString programName(); // "scopeline-hipbench"
    // The builds it looks for: scopeline-hipbench (NVIDIA) and scopeline-hipbench-rocm (AMD), the AMD
    // one first on a machine with AMD's GPU driver (/dev/kfd).
    static QStringList programNames();
    // Empty where a GPU driver's device is there (NVIDIA's /dev/nvidiactl, WSL's /dev/dxg, AMD's
    // /dev/kfd); else why a run will fail, said before one is started.
    static QString missingGpuDriver();
    // The scopeline-hipbench to run: $SCOPELINE_HIPBENCH, else either build next to this program, else
    // in the build tree, else on PATH. Empty when none is found; `where` then lists the places looked in.
    static QString findProgram(QString *where = nullptr);

    QString program() const { return m_program; }
    const QList<HipbenchWorkload> &workloads() const { return m_workloads; }
    const HipbenchWorkload *workload(const QString &name) const;
    bool isListing() const { return m_listing.state() != QProcess::NotRunning; }
    bool isRunning() const { return m_run.state() != QProcess::NotRunning; }
    bool isCancelling() const { return m_cancelling; }
    QString runFolder() const { return m_runFolder; } // --out of the running or last run
    // The last failure: a one-line message, and details (the command line and the program's stderr).
    QString errorText() const { return m_errorText; }
    QString errorDetails() const { return m_errorDetails; }
    // How long cancelRun() waits after terminate() before it kills.
    void setKillGraceMs(int ms);

public slots:
    // Finds the program and lists its workloads; listingFinished() follows, possibly at once.
    void startListing();
    void startRun(const QString &workload, const QMap<QString, QString> &options, const QString &folder);
    void cancelRun();

signals:
    void listingFinished(bool succeeded);
    // The command line of a run that is starting, shell-quoted for the log.
    void runStarted(const QString &commandLine);
    // A progress line: `done` of `total` steps, and what is going on (e.g. "eager run 0").
    void progressChanged(int done, int total, const QString &message);
    // A line the run wrote on stdout or stderr, progress lines excepted.
    void outputLine(const QString &line);
    // A run succeeded: the A/B pair with its scopes and sample mode, read from its summary.json.
    void pairRecorded(const scopeline::SessionState &state);
    // A run has ended (after pairRecorded when it succeeded); `message` says how, for the status line.
    void runFinished(scopeline::HipbenchRunner::Outcome outcome, const QString &message);

private:
    struct LineBuffer
    {
        QByteArray pending; // output after the last newline
        QStringList take(const QByteArray &more, bool flush);
    };

    void listingEnded(int exitCode, QProcess::ExitStatus status);
    void failListing(const QString &why, const QString &details = {});
    void readRun(QProcess::ProcessChannel channel, bool flush = false);
    void runEnded(int exitCode, QProcess::ExitStatus status);
    void endRun(Outcome outcome, const QString &message);
    QString commandLine(const QStringList &args) const;

    QString m_program;
    QList<HipbenchWorkload> m_workloads;
    QProcess m_listing;
    QProcess m_run;
    QTimer *m_killTimer = nullptr; // kills a run that ignores terminate()
    bool m_cancelling = false;
    QString m_runFolder;
    QString m_runCommand;
    LineBuffer m_stdout, m_stderr;
    QStringList m_stderrTail; // the run's last stderr lines that are not progress, for errorDetails()
    QString m_errorText, m_errorDetails;
};

} // namespace scopeline
