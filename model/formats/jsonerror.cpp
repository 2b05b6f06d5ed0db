// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/jsonerror.h"

#include <QCoreApplication>

namespace scopeline {

QString jsonErrorMessage(std::size_t position, const nlohmann::detail::exception &ex)
{
    // Drop the "[json.exception.parse_error.101] " prefix; the rest says what was expected.
    std::string what = ex.what();
    const auto bracket = what.find("] ");
    if (what.rfind("[json.exception", 0) == 0 && bracket != std::string::npos)
        what.erase(0, bracket + 2);
    return QCoreApplication::translate("TraceLoader", "invalid JSON at byte %1: %2")
        .arg(position)
        .arg(QString::fromStdString(what));
}

} // namespace scopeline
