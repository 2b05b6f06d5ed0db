// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The bundled sample trace pairs (resources/samples/, real traces from an H100), each with the
// comparison that shows what it is for. One table for the Samples menu and the no-argument start.

#include "model/loading/sessionfile.h"

#include <QList>
#include <QString>

namespace scopeline {

struct SamplePair
{
    QString title; // translated, for the menu
    SessionState state;
};

// The sample pairs with their paths under `root` (the samples folder), the one opened at start first
// (the launch-chain pair).
QList<SamplePair> samplePairs(const QString &root);

} // namespace scopeline
