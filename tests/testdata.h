// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the tests find real traces: in the repository only, under tests/data/ (SCOPELINE_TEST_DATA;
// tests/data/README.md gives each file's source and license) and the bundled samples in
// resources/samples/ (SCOPELINE_SAMPLES). A test never skips for lack of data: a missing file fails
// the test that needs it, with a message naming the file.

#include <QFileInfo>
#include <QString>
#include <QStringList>
#include <QtTest>

namespace testdata {

// A path below tests/data/, e.g. path("public/kineto/...json.gz").
inline QString path(const QString &relative)
{
    return QStringLiteral(SCOPELINE_TEST_DATA "/") + relative;
}

inline QString path(const char *relative)
{
    return path(QString::fromUtf8(relative));
}

// The first of paths that does not exist (following symbolic links); empty when all do.
inline QString firstMissing(const QStringList &paths)
{
    for (const QString &p : paths)
        if (p.isEmpty() || !QFileInfo::exists(p))
            return p.isEmpty() ? QStringLiteral("(empty path)") : p;
    return {};
}

inline QByteArray missingMessage(const QString &missing)
{
    return QStringLiteral("missing test data: %1 (tests/data/README.md says where it comes from)")
        .arg(missing)
        .toLocal8Bit();
}

} // namespace testdata

// Fails the current test, naming the file, unless every path given exists.
#define REQUIRE_TEST_DATA(...)                                                                               \
    do {                                                                                                     \
        const QString missing_ = testdata::firstMissing(QStringList{__VA_ARGS__});                           \
        QVERIFY2(missing_.isEmpty(), testdata::missingMessage(missing_).constData());                        \
    } while (false)
