// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/runner/hipbenchrunner.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTimer>

namespace scopeline {

namespace {

constexpr int kDefaultKillGraceMs = 3000;
constexpr int kStderrTailLines = 20; // the details of a failure: enough for a GPU error's context

QString message(const char *text)
{
    return QCoreApplication::translate("HipbenchRunner", text);
}

QString quoted(const QString &arg)
{
    return arg.contains(QLatin1Char(' ')) || arg.isEmpty() ? QLatin1Char('\'') + arg + QLatin1Char('\'')
                                                           : arg;
}

// ": LAST LINE" of what the program said, or nothing.
QString saidSuffix(const QStringList &stderrTail)
{
    return stderrTail.isEmpty() ? QString() : QStringLiteral(": ") + stderrTail.last();
}

QStringList nonEmptyLines(const QByteArray &output)
{
    QStringList lines;
    for (const QByteArray &line : output.split('\n'))
        if (!line.trimmed().isEmpty())
            lines << QString::fromLocal8Bit(line).trimmed();
    return lines;
}

} // namespace

QStringList HipbenchRunner::LineBuffer::take(const QByteArray &more, bool flush)
{
    pending += more;
    QStringList lines;
    qsizetype start = 0;
    for (qsizetype end; (end = pending.indexOf('\n', start)) >= 0; start = end + 1)
        lines << QString::fromLocal8Bit(pending.mid(start, end - start)).trimmed();
    pending.remove(0, start);
    if (flush && !pending.isEmpty()) {
        lines << QString::fromLocal8Bit(pending).trimmed();
        pending.clear();
    }
    lines.removeAll(QString());
    return lines;
}

HipbenchRunner::HipbenchRunner(QObject *parent) : QObject(parent)
{
    m_killTimer = new QTimer(this);
    m_killTimer->setSingleShot(true);
    m_killTimer->setTimerType(Qt::PreciseTimer); // a coarse one may fire 5% early: the grace is promised
    m_killTimer->setInterval(kDefaultKillGraceMs);
    connect(m_killTimer, &QTimer::timeout, this, [this] {
        if (isRunning())
            m_run.kill();
    });

    connect(&m_listing, &QProcess::finished, this, &HipbenchRunner::listingEnded);
    connect(&m_listing, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) // else finished() follows and says what happened
            failListing(message("Cannot start %1: %2").arg(m_program, m_listing.errorString()));
    });
    connect(&m_run, &QProcess::readyReadStandardOutput, this, [this] { readRun(QProcess::StandardOutput); });
    connect(&m_run, &QProcess::readyReadStandardError, this, [this] { readRun(QProcess::StandardError); });
    connect(&m_run, &QProcess::finished, this, &HipbenchRunner::runEnded);
    connect(&m_run, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        m_errorDetails = m_runCommand;
        endRun(Outcome::Failed, message("Cannot start %1: %2").arg(m_program, m_run.errorString()));
    });
}

HipbenchRunner::~HipbenchRunner()
{
    // The processes outlive this object's members otherwise: their finished() must not reach it, and a
    // benchmark left running would keep the GPU busy with nobody to read its output.
    disconnect(&m_listing, nullptr, this, nullptr);
    disconnect(&m_run, nullptr, this, nullptr);
    for (QProcess *process : {&m_listing, &m_run})
        if (process->state() != QProcess::NotRunning) {
            process->kill();
            process->waitForFinished(1000);
        }
}

QString HipbenchRunner::programName()
{
    return QStringLiteral("scopeline-hipbench");
}

QStringList HipbenchRunner::programNames()
{
    const QStringList names{programName(), programName() + QStringLiteral("-rocm")};
    // The AMD kernel driver's device: on such a machine the ROCm build is the one that can record.
    if (QFileInfo::exists(QStringLiteral("/dev/kfd")))
        return {names[1], names[0]};
    return names;
}

QString HipbenchRunner::missingGpuDriver()
{
    for (const char *device : {"/dev/nvidiactl", "/dev/dxg", "/dev/kfd"})
        if (QFileInfo::exists(QLatin1String(device)))
            return {};
    return tr("no GPU driver is loaded on this machine (no /dev/nvidiactl, /dev/dxg or /dev/kfd): a run "
              "will fail");
}

QString HipbenchRunner::findProgram(QString *where)
{
    const QString env = qEnvironmentVariable("SCOPELINE_HIPBENCH");
    QStringList candidates;
    if (!env.isEmpty()) {
        candidates << env; // an explicit choice: no fallback that would hide a typo
    } else {
        const QString dir = QCoreApplication::applicationDirPath();
        for (const QString &name : programNames())
            candidates << dir + QLatin1Char('/') + name                     // installed
                       << dir + QStringLiteral("/../hipbench/") + name      // build/app/gui
                       << dir + QStringLiteral("/../app/hipbench/") + name; // build/tests
    }
    for (const QString &candidate : candidates) {
        const QFileInfo info(candidate);
        if (info.isFile() && info.isExecutable())
            return info.absoluteFilePath();
    }
    if (env.isEmpty()) {
        for (const QString &name : programNames()) {
            const QString found = QStandardPaths::findExecutable(name);
            if (!found.isEmpty())
                return found;
        }
    }
    if (where) {
        QStringList places;
        for (const QString &candidate : candidates)
            places << QDir::cleanPath(candidate);
        *where = env.isEmpty()
                     ? message("looked at %1 and on PATH").arg(places.join(QStringLiteral(", ")))
                     : message("SCOPELINE_HIPBENCH is %1, which is not an executable file").arg(env);
    }
    return {};
}

const HipbenchWorkload *HipbenchRunner::workload(const QString &name) const
{
    for (const HipbenchWorkload &w : m_workloads)
        if (w.name == name)
            return &w;
    return nullptr;
}

void HipbenchRunner::setKillGraceMs(int ms)
{
    m_killTimer->setInterval(ms);
}

void HipbenchRunner::startListing()
{
    if (isListing() || isRunning())
        return;
    m_workloads.clear();
    QString where;
    m_program = findProgram(&where);
    if (m_program.isEmpty())
        return failListing(message("%1 was not found: %2. It is built with the app when CUDA (nvcc) is "
                                   "installed, and as %1-rocm when ROCm's hipcc is; set SCOPELINE_HIPBENCH "
                                   "to use another one.")
                               .arg(programName(), where));
    m_listing.start(m_program, hipbenchprotocol::listArguments());
}

void HipbenchRunner::listingEnded(int exitCode, QProcess::ExitStatus status)
{
    const QString command = commandLine(hipbenchprotocol::listArguments());
    const QStringList said = nonEmptyLines(m_listing.readAllStandardError());
    const QByteArray output = m_listing.readAllStandardOutput();
    const QString details = (QStringList{command} + said).join(QLatin1Char('\n'));
    if (status == QProcess::CrashExit)
        return failListing(message("%1 failed: it crashed%2").arg(command, saidSuffix(said)), details);
    if (exitCode != 0)
        return failListing(message("%1 failed: exit status %2 (%3)%4")
                               .arg(command)
                               .arg(exitCode)
                               .arg(hipbenchprotocol::exitMeaning(exitCode), saidSuffix(said)),
                           details);
    QString why;
    if (!hipbenchprotocol::parseWorkloads(output, m_workloads, &why))
        return failListing(message("%1 failed: %2").arg(command, why),
                           details + QLatin1Char('\n') + QString::fromLocal8Bit(output.left(2000)));
    m_errorText.clear();
    m_errorDetails.clear();
    emit listingFinished(true);
}

void HipbenchRunner::failListing(const QString &why, const QString &details)
{
    m_workloads.clear();
    m_errorText = why;
    m_errorDetails = details;
    emit listingFinished(false);
}

void HipbenchRunner::startRun(const QString &workload, const QMap<QString, QString> &options,
                              const QString &folder)
{
    if (m_program.isEmpty() || isListing() || isRunning())
        return;
    const QStringList args = hipbenchprotocol::runArguments(workload, folder, options);
    m_runFolder = folder;
    m_runCommand = commandLine(args);
    m_cancelling = false;
    m_stdout = {};
    m_stderr = {};
    m_stderrTail.clear();
    m_errorText.clear();
    m_errorDetails.clear();
    emit runStarted(m_runCommand);
    m_run.start(m_program, args);
}

void HipbenchRunner::cancelRun()
{
    if (!isRunning() || m_cancelling)
        return;
    m_cancelling = true;
    m_run.terminate();
    m_killTimer->start();
}

void HipbenchRunner::readRun(QProcess::ProcessChannel channel, bool flush)
{
    const bool isStderr = channel == QProcess::StandardError;
    const QByteArray more = isStderr ? m_run.readAllStandardError() : m_run.readAllStandardOutput();
    for (const QString &line : (isStderr ? m_stderr : m_stdout).take(more, flush)) {
        if (isStderr) {
            HipbenchProgress progress;
            if (hipbenchprotocol::parseProgress(line, progress)) {
                emit progressChanged(progress.done, progress.total, progress.message);
                continue;
            }
            m_stderrTail << line;
            if (m_stderrTail.size() > kStderrTailLines)
                m_stderrTail.removeFirst();
        }
        emit outputLine(line);
    }
}

void HipbenchRunner::runEnded(int exitCode, QProcess::ExitStatus status)
{
    m_killTimer->stop();
    readRun(QProcess::StandardOutput, true);
    readRun(QProcess::StandardError, true);
    m_errorDetails = (QStringList{m_runCommand} + m_stderrTail).join(QLatin1Char('\n'));
    if (m_cancelling) {
        // the program stops after the run in progress, with summary.json, unless the grace ran out
        SessionState recorded;
        return endRun(Outcome::Cancelled,
                      hipbenchprotocol::readSummary(m_runFolder, recorded, nullptr)
                          ? message("Cancelled. The runs recorded before are in %1").arg(m_runFolder)
                          : message("Cancelled. No run was kept: none had ended, or the program was stopped "
                                    "before it could write what it had recorded"));
    }
    const QString said = saidSuffix(m_stderrTail);
    if (status == QProcess::CrashExit)
        return endRun(Outcome::Failed, message("%1 crashed%2").arg(m_program, said));
    if (exitCode != 0)
        return endRun(Outcome::Failed, message("%1 failed with exit status %2 (%3)%4")
                                           .arg(m_program)
                                           .arg(exitCode)
                                           .arg(hipbenchprotocol::exitMeaning(exitCode), said));
    SessionState state;
    QString why;
    if (!hipbenchprotocol::readSummary(m_runFolder, state, &why))
        return endRun(Outcome::Failed, message("The run ended without error, but %1").arg(why));
    m_errorDetails.clear();
    emit pairRecorded(state);
    endRun(Outcome::Succeeded,
           message("Recorded %1 (A) vs %2 (B) in %3")
               .arg(QFileInfo(state.pathA).fileName(), QFileInfo(state.pathB).fileName(), m_runFolder));
}

void HipbenchRunner::endRun(Outcome outcome, const QString &text)
{
    m_cancelling = false;
    m_errorText = outcome == Outcome::Failed ? text : QString();
    if (outcome != Outcome::Failed)
        m_errorDetails.clear();
    emit runFinished(outcome, text);
}

QString HipbenchRunner::commandLine(const QStringList &args) const
{
    QStringList shown{quoted(m_program)};
    for (const QString &arg : args)
        shown << quoted(arg);
    return shown.join(QLatin1Char(' '));
}

} // namespace scopeline
