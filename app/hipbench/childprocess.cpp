// SPDX-License-Identifier: GPL-3.0-or-later
#include "childprocess.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace hipbench {

const char *const kChildCommand = "child-process";

namespace {

volatile std::sig_atomic_t g_stops = 0;
volatile std::sig_atomic_t g_child = 0; // the child process running, if any (a pid fits)

// SIGTERM and SIGINT, held while the child's pid is set or cleared: never sent to a pid not ours.
sigset_t stopSignals()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    return set;
}

void onStopSignal(int signal)
{
    if (g_stops++ > 0)
        _exit(128 + signal);
    if (g_child > 0)
        kill(g_child, SIGTERM);
}

} // namespace

void stopOnSignals()
{
    g_stops = 0;
    struct sigaction action = {};
    action.sa_handler = onStopSignal;
    action.sa_flags = SA_RESTART;   // the reads of a child's messages go on
    action.sa_mask = stopSignals(); // one handler at a time: the count is exact
    for (int signal : {SIGTERM, SIGINT}) {
        struct sigaction was = {};
        sigaction(signal, nullptr, &was);
        if (was.sa_handler != SIG_IGN) // ignored from the start (a child's SIGINT, nohup): left so
            sigaction(signal, &action, nullptr);
    }
}

bool stopRequested()
{
    return g_stops > 0;
}

std::vector<std::string> childArguments(const RunConfig &config, const std::string &out,
                                        const std::string &variant, long process)
{
    std::vector<std::string> args{kChildCommand, std::to_string(process), config.workload->name, "--out",
                                  out};
    for (const auto &[name, value] : config.values) {
        args.push_back("--" + name);
        args.push_back(name == config.workload->variantOption ? variant : value);
    }
    return args;
}

ChildExit runChild(const std::string &program, const std::vector<std::string> &args,
                   const std::function<void(const std::string &line)> &onLine)
{
    std::vector<char *> argv{const_cast<char *>(program.c_str())};
    for (const std::string &arg : args)
        argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    int pipeFds[2];
    if (pipe2(pipeFds, O_CLOEXEC) != 0)
        return {-1, std::string("cannot create a pipe: ") + std::strerror(errno)};
    std::fflush(nullptr); // what this process has buffered must not be written twice
    const pid_t parent = getpid();
    const sigset_t stops = stopSignals();
    sigset_t previous;
    sigprocmask(SIG_BLOCK, &stops, &previous);
    const pid_t pid = fork();
    if (pid < 0) {
        const int error = errno;
        sigprocmask(SIG_SETMASK, &previous, nullptr);
        close(pipeFds[0]);
        close(pipeFds[1]);
        return {-1, std::string("cannot start a process: ") + std::strerror(error)};
    }
    if (pid == 0) { // the child: only async-signal-safe calls until exec
        // A terminal's Ctrl+C reaches the whole process group: the child stops on the parent's word
        // alone (a SIGTERM passed on), which one signal, not two, must mean.
        signal(SIGINT, SIG_IGN);
        sigprocmask(SIG_SETMASK, &previous, nullptr);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) // the parent died before prctl
            _exit(127);
        dup2(pipeFds[1], STDOUT_FILENO); // the copy is not close-on-exec
        execv(program.c_str(), argv.data());
        const char *what = "scopeline-hipbench: cannot run the program for a child process\n";
        [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, what, std::strlen(what));
        _exit(127);
    }
    close(pipeFds[1]);
    g_child = pid;
    if (stopRequested()) // asked before the child was known
        kill(pid, SIGTERM);
    sigprocmask(SIG_SETMASK, &previous, nullptr);
    if (std::FILE *in = fdopen(pipeFds[0], "r")) {
        char *line = nullptr;
        std::size_t capacity = 0;
        for (ssize_t n; (n = getline(&line, &capacity, in)) >= 0;) {
            std::string text(line, std::size_t(n));
            while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
                text.pop_back();
            if (!text.empty())
                onLine(text);
        }
        std::free(line);
        std::fclose(in);
    } else {
        close(pipeFds[0]);
    }
    // Waited for without reaping it, so that its pid is not reused while a signal may still be passed
    // on to it; then let go of it with the signals held.
    siginfo_t info;
    while (waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
    }
    sigprocmask(SIG_BLOCK, &stops, nullptr);
    g_child = 0;
    int status = 0;
    pid_t reaped;
    while ((reaped = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
    }
    const int waitError = errno;
    sigprocmask(SIG_SETMASK, &previous, nullptr);
    if (reaped < 0)
        return {-1, std::string("cannot wait for the process: ") + std::strerror(waitError)};
    if (WIFSIGNALED(status))
        return {-1, "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
                        strsignal(WTERMSIG(status)) + ")"};
    const int code = WEXITSTATUS(status);
    if (code == 127)
        return {code, "exit status 127 (it could not be started: " + program + ")"};
    return {code, "exit status " + std::to_string(code) + " (" + exitMeaning(code) + ")"};
}

int recordInProcesses(const std::string &program, const RunConfig &config, const std::string &out,
                      RunReport &report)
{
    int status = Success;
    for (long p = 0; p < config.integer("processes"); ++p)
        for (const std::string &variant : config.variants()) {
            if (stopRequested())
                return Cancelled;
            const ChildExit exit =
                runChild(program, childArguments(config, out, variant, p), [&](const std::string &line) {
                    bool taken = false;
                    try { // a line that is not one of its messages is passed on as it is
                        taken = report.take(nlohmann::json::parse(line, nullptr, false));
                    } catch (const nlohmann::json::exception &) {
                    }
                    if (!taken)
                        report.otherLine(line);
                });
            if (exit.status == Success)
                continue;
            if (stopRequested()) // the child stopped (or was stopped) because the run was cancelled
                return Cancelled;
            report.processFailed(variant, p, exit.how);
            if (status == Success)
                status = exit.status == BadUsage || exit.status == CannotWrite ? exit.status : GpuError;
            if (report.runs() == 0) // nothing has worked yet (no GPU, say): the next would fail alike
                return status;
        }
    return status;
}

} // namespace hipbench
