// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A table column's header title and tooltip, untranslated (QT_TR_NOOP); models translate on lookup.

namespace scopeline {

struct ColumnText
{
    const char *title;
    const char *tip;
};

} // namespace scopeline
