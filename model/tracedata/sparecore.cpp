// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/tracedata/sparecore.h"

#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <future>
#include <mutex>

namespace scopeline {

QThreadPool &helperThreads()
{
    // Threads of their own: loads run on other pools and wait for these.
    static QThreadPool pool;
    static std::once_flag sized;
    std::call_once(sized, [] { pool.setMaxThreadCount(std::max(1, QThread::idealThreadCount() - 1)); });
    return pool;
}

void runBeside(const std::function<void()> &side, const std::function<void()> &main)
{
    std::promise<void> sideDone;
    const bool started = helperThreads().tryStart([&side, &sideDone] {
        side();
        sideDone.set_value();
    });
    main();
    if (started)
        sideDone.get_future().wait();
    else
        side();
}

} // namespace scopeline
