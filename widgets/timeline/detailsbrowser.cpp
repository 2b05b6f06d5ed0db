// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/timeline/detailsbrowser.h"

#include <QMimeData>

namespace scopeline {

QMimeData *DetailsBrowser::createMimeDataFromSelection() const
{
    QMimeData *data = QTextBrowser::createMimeDataFromSelection();
    const QChar hint(0x200B);
    if (data->hasHtml())
        data->setHtml(data->html().remove(hint));
    data->setText(data->text().remove(hint));
    return data;
}

} // namespace scopeline
