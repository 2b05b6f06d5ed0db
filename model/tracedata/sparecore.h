// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The threads that help a load along beside its own (the parse of its chunks, half of its analysis):
// one fewer than the cores, as the load's thread is busy too.

#include <functional>

class QThreadPool;

namespace scopeline {

QThreadPool &helperThreads();

// Runs side on a helper thread if one is free now, main on this thread, and returns when both are
// done; with every helper busy (other loads' chunks), side runs here after main.
void runBeside(const std::function<void()> &side, const std::function<void()> &main);

} // namespace scopeline
