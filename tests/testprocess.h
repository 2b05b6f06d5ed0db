// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers for tests that run scopeline-cli or a Python oracle as a separate process.

#include <QDirIterator>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <functional>

struct ProcessResult
{
    int exitCode = -1; // -1 when it crashed or timed out
    QByteArray out, err;
};

// childSetup, when given, runs in the child between fork and exec (a resource limit, a signal);
// environment, when given, is the child's.
inline ProcessResult runProcess(const QString &program, const QStringList &arguments,
                                const std::function<void()> &childSetup = {},
                                const QProcessEnvironment &environment = {})
{
    QProcess process;
    if (childSetup)
        process.setChildProcessModifier(childSetup);
    if (!environment.isEmpty())
        process.setProcessEnvironment(environment);
    process.start(program, arguments);
    ProcessResult result;
    if (!process.waitForFinished(300000))
        return result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

// The first file under folder matching pattern, e.g. a JAX run's *.trace.json.gz. Symbolic links to
// folders are followed (tests/data links run folders into resources/samples/).
inline QString firstFile(const QString &folder, const QString &pattern)
{
    QDirIterator it(folder, {pattern}, QDir::Files,
                    QDirIterator::Subdirectories | QDirIterator::FollowSymlinks);
    return it.hasNext() ? it.next() : QString();
}
