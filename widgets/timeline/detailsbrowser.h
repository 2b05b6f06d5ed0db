// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The details of an event or a range: long names wrap at the zero-width break hints the timeline's text
// puts in them (timelinetext.h), which a copy leaves out, so that a copied name matches the trace.

#include <QTextBrowser>

namespace scopeline {

class DetailsBrowser : public QTextBrowser
{
    Q_OBJECT

public:
    using QTextBrowser::QTextBrowser;

protected:
    QMimeData *createMimeDataFromSelection() const override;
};

} // namespace scopeline
