// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A gzip file's text, read whole with zlib (tests that look at a real trace's bytes); empty when the
// file cannot be read.

#include <QByteArray>
#include <QFile>
#include <QString>

#include <zlib.h>

namespace testdata {

inline QByteArray gunzip(const QString &path)
{
    QByteArray text;
    gzFile in = gzopen(QFile::encodeName(path).constData(), "rb");
    if (!in)
        return text;
    char buffer[1 << 16];
    for (int n; (n = gzread(in, buffer, sizeof buffer)) > 0;)
        text.append(buffer, n);
    gzclose(in);
    return text;
}

} // namespace testdata
