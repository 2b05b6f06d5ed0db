// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/demangle.h"

#include <cstdlib>
#include <libiberty/demangle.h>

namespace scopeline {

std::string demangledName(std::string_view symbol)
{
    if (symbol.size() < 3 || symbol.size() > kMaxMangledName || symbol.substr(0, 2) != "_Z")
        return {};
    // GCC's own __cxa_demangle refuses the long ones: its recursion limit counts a name's parts, and
    // a CK kernel has thousands. Lifting it is safe here because the length is bounded above.
    const std::string text(symbol);
    char *readable = cplus_demangle(text.c_str(), DMGL_PARAMS | DMGL_ANSI | DMGL_NO_RECURSE_LIMIT);
    if (!readable)
        return {};
    std::string result(readable);
    std::free(readable);
    return result;
}

} // namespace scopeline
