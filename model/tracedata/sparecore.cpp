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
    // An exception (out of memory) on the helper thread comes back to the caller's, as one of main()'s
    // does, once both are done: a pool's thread that throws ends the program, and the side works on
    // what the caller's frame holds.
    std::promise<void> sideDone;
    const bool started = helperThreads().tryStart([&side, &sideDone] {
        try {
            side();
            sideDone.set_value();
        } catch (...) {
            sideDone.set_exception(std::current_exception());
        }
    });
    std::exception_ptr mainFailed;
    try {
        main();
    } catch (...) {
        mainFailed = std::current_exception();
    }
    std::future<void> sideFuture = started ? sideDone.get_future() : std::future<void>();
    if (started)
        sideFuture.wait();
    if (mainFailed)
        std::rethrow_exception(mainFailed);
    if (started)
        sideFuture.get();
    else
        side();
}

} // namespace scopeline
