// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Readable message for a nlohmann::json parse error, shared by the SAX handlers.

#include <nlohmann/json.hpp>

#include <QString>

namespace scopeline {

QString jsonErrorMessage(std::size_t position, const nlohmann::detail::exception &ex);

} // namespace scopeline
