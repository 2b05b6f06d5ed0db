// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/formats/demangle.h"

#include <csetjmp>
#include <libiberty/demangle.h>

namespace scopeline {

namespace {

// What the demangler has written so far, and where to go when it writes too much.
struct Written
{
    std::string text;
    std::jmp_buf tooLong;
};

extern "C" void collect(const char *part, std::size_t size, void *opaque)
{
    auto *written = static_cast<Written *>(opaque);
    if (written->text.size() + size > kMaxDemangledName)
        std::longjmp(written->tooLong, 1); // out through the demangler's C frames, which hold no resources
    written->text.append(part, size);
}

} // namespace

std::string demangledName(std::string_view symbol)
{
    if (symbol.size() < 3 || symbol.size() > kMaxMangledName || symbol.substr(0, 2) != "_Z")
        return {};
    // GCC's own __cxa_demangle refuses CK's long names: its recursion limit counts a name's parts, and
    // they have thousands; lifting it is safe for the stack because the symbol's length is bounded. The
    // text is not (a back-reference repeats a part, and a short symbol can stand for gigabytes), so it
    // is cut off past kMaxDemangledName. No DMGL_VERBOSE: std::string, as GCC's, CUPTI's and ROCm's
    // demanglers write it.
    const std::string text(symbol);
    Written written;
    if (setjmp(written.tooLong) != 0)
        return {};
    if (!cplus_demangle_v3_callback(text.c_str(), DMGL_PARAMS | DMGL_ANSI | DMGL_NO_RECURSE_LIMIT, collect,
                                    &written))
        return {};
    return std::move(written.text);
}

} // namespace scopeline
