// SPDX-License-Identifier: GPL-3.0-or-later
// scopeline: the desktop trace explorer. `scopeline A B` opens a pair, `scopeline FILE.scopeline.json`
// a session, `scopeline TRACE` one trace against itself; with no arguments it opens the bundled
// matmul vs einsum sample.

#include "app/gui/mainwindow.h"
#include "app/gui/samplepairs.h"

#include "widgets/panels/kerneldiffview.h"
#include "widgets/timeline/pairtimeline.h"
#include "widgets/panels/stepbreakdownview.h"

#include "model/files/atomicfile.h"
#include "model/loading/commandline.h"
#include "model/loading/sessionfile.h"
#include "model/loading/sideargument.h"
#include "model/loading/tracefolder.h"
#include "model/loading/traceloader.h"
#include "model/runner/hipbenchprotocol.h"

#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// The samples next to an installed binary, else in the source tree this binary was built from.
QString samplesFolder()
{
    const QString installed =
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/scopeline/samples");
    if (QFileInfo::exists(installed))
        return QDir::cleanPath(installed);
    return QFileInfo::exists(QStringLiteral(SCOPELINE_SAMPLES)) ? QStringLiteral(SCOPELINE_SAMPLES)
                                                                : QString();
}

// A dark Fusion palette for --palette dark (screenshots of the dark look, offscreen too).
QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2d, 0x2f, 0x33), base(0x1f, 0x21, 0x24), text(0xe6, 0xe8, 0xeb);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x8f, 0x96));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xc6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
    p.setColor(QPalette::Mid, QColor(0x4a, 0x4d, 0x52));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x84, 0x8a));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x84, 0x8a));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x84, 0x8a));
    return p;
}

void nameApplication()
{
    QCoreApplication::setApplicationName(QStringLiteral("Scopeline"));
    QCoreApplication::setOrganizationName(QStringLiteral("Scopeline"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SCOPELINE_VERSION));
}

// --help and --version, which print and exit.
bool asksForHelpOrVersion(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i)
        for (const char *flag : {"-h", "--help", "--help-all", "-v", "--version", "-?"})
            if (std::strcmp(argv[i], flag) == 0)
                return true;
    return false;
}

// Whether Qt would find no window system to open on: no display (over SSH, in CI) and no platform
// chosen (QT_QPA_PLATFORM, -platform or --platform). Qt aborts there before any option is read.
bool noDisplay(int argc, char *argv[])
{
#ifdef Q_OS_LINUX
    for (const char *variable : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
        if (!qEnvironmentVariableIsEmpty(variable))
            return false;
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "-platform") == 0 || std::strcmp(argv[i], "--platform") == 0)
            return false;
    return true;
#else
    Q_UNUSED(argc);
    Q_UNUSED(argv);
    return false;
#endif
}

} // namespace

int main(int argc, char *argv[])
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Compare GPU traces of two program variants."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("A"),
                                 QStringLiteral("Baseline trace folder or file, or a session file (a trace alone opens against itself)."));
    parser.addPositionalArgument(QStringLiteral("B"), QStringLiteral("Candidate trace folder or file."));
    parser.addPositionalArgument(QStringLiteral("[C …]"),
                                 QStringLiteral("More candidates: variants, each against A ([LABEL=]PATH)."));
    QCommandLineOption scopeOption(QStringLiteral("scope"),
                                   QStringLiteral("Select a scope in the comparison (repeatable)."),
                                   QStringLiteral("S"));
    QCommandLineOption matchOption(QStringLiteral("match"),
                                   QStringLiteral("How scope names match: component, substring or regex."),
                                   QStringLiteral("MODE"), QStringLiteral("component"));
    QCommandLineOption samplesOption(QStringLiteral("samples"),
                                     QStringLiteral("Samples per scope: kernel, instance or span."),
                                     QStringLiteral("MODE"), QStringLiteral("kernel"));
    QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QStringLiteral("Once loaded, save a PNG of the window to FILE and quit (for docs and bug reports)."),
        QStringLiteral("FILE"));
    QCommandLineOption kernelOption(
        QStringLiteral("kernel"),
        QStringLiteral("Once loaded, select the first kernel of \"What changed\" whose name contains TEXT."),
        QStringLiteral("TEXT"));
    QCommandLineOption stepOption(
        QStringLiteral("step"),
        QStringLiteral(
            "Once loaded, break \"What changed\" down by this step scope (whole-run: the run is one step)."),
        QStringLiteral("SCOPE"));
    QCommandLineOption rangeOption(
        QStringLiteral("range"),
        QStringLiteral("Once loaded, show this window of the timelines, ns from each timeline's start, e.g. "
                       "2000000:5000000 (with Lock zoom, B aligns on A)."),
        QStringLiteral("START:END"));
    QCommandLineOption tabOption(QStringLiteral("tab"),
                                 QStringLiteral("Once loaded, show this tab: changed, scopes, ranks or variants."),
                                 QStringLiteral("TAB"));
    QCommandLineOption sizeOption(QStringLiteral("size"), QStringLiteral("Window size, e.g. 1600x1000."),
                                  QStringLiteral("WxH"));
    QCommandLineOption paletteOption(
        QStringLiteral("palette"),
        QStringLiteral("Colours: dark or light (the Fusion style with that palette)."),
        QStringLiteral("dark|light"));
    parser.addOptions(
        {scopeOption, matchOption, samplesOption, kernelOption, stepOption, screenshotOption, sizeOption});
    parser.addOption(paletteOption);
    parser.addOption(rangeOption);
    parser.addOption(tabOption);
    // A mistyped option said as typed (Qt says "Unknown options: s, t, e, p." for -step), then --help
    // and --version printed; each exits.
    const auto readOptions = [&parser](const QCoreApplication &app) {
        if (!parser.parse(app.arguments())) {
            std::fprintf(stderr, "scopeline: %s\nTry 'scopeline --help'.\n",
                         qPrintable(scopeline::commandLineError(parser, app.arguments())));
            std::exit(1);
        }
        parser.process(app);
    };
    if (asksForHelpOrVersion(argc, argv)) {
        // printed without a window system: over SSH or in CI, where QApplication would abort
        QCoreApplication app(argc, argv);
        nameApplication();
        readOptions(app);
    }
    // Without a display the window is drawn offscreen: --screenshot saves it, a mistyped option is
    // said, and anything else is told why no window opens.
    const bool headless = noDisplay(argc, argv);
    if (headless)
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    nameApplication();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/scopeline.png")));
    readOptions(app); // -vh and the like too, which asksForHelpOrVersion() does not tell
    if (headless && !parser.isSet(screenshotOption)) {
        std::fprintf(stderr,
                     "scopeline: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are "
                     "unset or empty): run it in a desktop session, or give --screenshot FILE to save the "
                     "window as a PNG without one\n");
        return 1;
    }
    const QStringList args = parser.positionalArguments();

    scopeline::SessionState state;
    state.scopes = parser.values(scopeOption);
    if (!scopeline::parseMatchMode(parser.value(matchOption), state.match) ||
        !scopeline::parseSampleMode(parser.value(samplesOption), state.samples)) {
        std::fprintf(stderr, "scopeline: --match is component, substring or regex; --samples is kernel, "
                             "instance or span\n");
        return 1;
    }
    if (parser.isSet(paletteOption)) {
        const QString name = parser.value(paletteOption);
        if (name != QLatin1String("dark") && name != QLatin1String("light")) {
            std::fprintf(stderr, "scopeline: --palette is dark or light\n");
            return 1;
        }
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(name == QLatin1String("dark") ? darkPalette()
                                                               : QApplication::style()->standardPalette());
    }
    QSize size;
    if (parser.isSet(sizeOption)) {
        const QStringList wh = parser.value(sizeOption).split(QLatin1Char('x'));
        size = wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize();
        if (size.isEmpty()) {
            std::fprintf(stderr, "scopeline: --size wants WIDTHxHEIGHT, e.g. 1600x1000\n");
            return 1;
        }
        // a mistyped zero (20000x20000) would paint a 1.6 GB picture for minutes
        constexpr int kLargest = 8192;
        if (size.width() > kLargest || size.height() > kLargest) {
            std::fprintf(stderr, "scopeline: --size %s: at most %dx%d\n",
                         qPrintable(parser.value(sizeOption)), kLargest, kLargest);
            return 1;
        }
    }

    int64_t rangeStart = 0, rangeEnd = 0;
    if (parser.isSet(rangeOption)) {
        const QStringList parts = parser.value(rangeOption).split(QLatin1Char(':'));
        bool okStart = false, okEnd = false;
        if (parts.size() == 2) {
            rangeStart = parts[0].toLongLong(&okStart);
            rangeEnd = parts[1].toLongLong(&okEnd);
        }
        if (!okStart || !okEnd || rangeStart < 0 || rangeEnd <= rangeStart) {
            std::fprintf(stderr,
                         "scopeline: --range wants START_NS:END_NS with START < END, e.g. 0:3000000\n");
            return 1;
        }
    }

    // checked before the load: the picture must not replace a trace, one being shown least of all
    if (parser.isSet(screenshotOption))
        if (const QString problem = scopeline::TraceLoader::outputProblem(parser.value(screenshotOption));
            !problem.isEmpty()) {
            std::fprintf(stderr, "scopeline: not writing the screenshot to %s: %s\n",
                         qPrintable(parser.value(screenshotOption)), qPrintable(problem));
            return 1;
        }
    app.setProperty("samplesFolder", samplesFolder());
    scopeline::MainWindow window;
    if (size.isValid())
        window.resize(size);
    window.show();
    if (args.size() > 2) {
        window.openVariants(args);
    } else if (args.size() == 2) { // LABEL=PATH as the CLI takes it, the label naming the side
        const scopeline::SideArgument a = scopeline::SideArgument::parse(args[0]),
                                      b = scopeline::SideArgument::parse(args[1]);
        state.labelA = a.named ? a.label : QString();
        state.labelB = b.named ? b.label : QString();
        window.openPair(a.path, b.path, state);
    } else if (args.size() == 1 && scopeline::hipbenchprotocol::isRecordedPair(args[0])) {
        // what scopeline-hipbench recorded: its pair, read as it says unless told otherwise
        window.openRecording(
            args[0], state.scopes,
            parser.isSet(matchOption) ? std::optional<scopeline::MatchMode>(state.match) : std::nullopt,
            parser.isSet(samplesOption) ? std::optional<scopeline::SampleMode>(state.samples) : std::nullopt);
    } else if (args.size() == 1) {
        // A session, else a trace or folder: shown against itself, loaded once (A/A: nothing changed),
        // whose load says what is wrong with a path that is neither (no traces in a folder, no file).
        scopeline::SessionState session;
        if (scopeline::SessionFile::isSessionFile(args[0]) ||
            scopeline::SessionFile::load(args[0], session, nullptr))
            window.openSession(args[0]);
        else
            window.openPair(args[0], args[0], state);
    } else if (const QString samples = samplesFolder(); !samples.isEmpty()) {
        const scopeline::SamplePair quickStart = scopeline::samplePairs(samples).front();
        if (state.scopes.isEmpty())
            state.scopes = quickStart.state.scopes;
        if (!parser.isSet(samplesOption)) // the pair's own sample mode (span for the launch chain)
            state.samples = quickStart.state.samples;
        state.pathA = quickStart.state.pathA;
        state.pathB = quickStart.state.pathB;
        window.openSample(quickStart.title, state);
    }
    if (parser.isSet(kernelOption)) {
        const QString text = parser.value(kernelOption);
        QObject::connect(
            &window, &scopeline::MainWindow::loadDone, &window,
            [&window, text] {
                window.tabs()->setCurrentWidget(window.diffView());
                if (const scopeline::KernelDiff *diff = window.diffView()->diff())
                    for (std::size_t r = 0; r < diff->rows().size(); ++r)
                        if (diff->rows()[r].kernel.contains(text)) {
                            window.diffView()->selectRow(int(r));
                            return;
                        }
                std::fprintf(stderr, "scopeline: no kernel name contains %s\n", qPrintable(text));
                qApp->setProperty("screenshotFails", true); // --screenshot exits 1: not what was asked for
            },
            Qt::SingleShotConnection);
    }
    if (parser.isSet(stepOption)) {
        const QString step = parser.value(stepOption);
        QObject::connect(
            &window, &scopeline::MainWindow::loadDone, &window,
            [&window, step] {
                scopeline::StepBreakdownView *view = window.diffView()->stepView();
                view->setStepScope(scopeline::StepBreakdownOptions::scopeOfArgument(step));
                // a step that is not there is not what was asked for (as --kernel's), said as the view does
                if (const scopeline::StepBreakdown *steps = view->breakdown()) {
                    const scopeline::StepRow &row = steps->row(scopeline::StepPart::Step);
                    if (row.unitsA == 0 || row.unitsB == 0) {
                        std::fprintf(stderr, "scopeline: --step %s: %s\n", qPrintable(step),
                                     qPrintable(row.reason));
                        qApp->setProperty("screenshotFails", true);
                    }
                }
            },
            Qt::SingleShotConnection);
    }
    if (parser.isSet(tabOption)) {
        const QString tab = parser.value(tabOption);
        const int index = int(scopeline::SessionFile::tabNames().indexOf(tab));
        if (index < 0) {
            std::fprintf(stderr, "scopeline: --tab takes changed, scopes, ranks or variants, not %s\n",
                         qPrintable(tab));
            return 1;
        }
        QObject::connect(
            &window, &scopeline::MainWindow::loadDone, &window,
            [&window, index, tab] {
                if (window.tabs()->isTabVisible(index)) {
                    window.tabs()->setCurrentIndex(index);
                    return;
                }
                // the Ranks tab of runs of one GPU, Variants of two: not what was asked for, and said; a load
                // that failed has its message in the banner
                if (!window.bannerText().isEmpty())
                    std::fprintf(stderr, "scopeline: --tab %s: not shown: %s\n", qPrintable(tab),
                                 qPrintable(window.bannerText()));
                else
                    std::fprintf(stderr, "scopeline: --tab %s: this pair has no such tab (%s)\n",
                                 qPrintable(tab),
                                 index == 2 ? "its runs are of one GPU each" : "two variants, not several");
                qApp->setProperty("screenshotFails", true);
            },
            Qt::SingleShotConnection);
    }
    if (parser.isSet(rangeOption)) {
        QObject::connect(
            &window, &scopeline::MainWindow::loadDone, &window,
            [&window, rangeStart, rangeEnd] {
                scopeline::PairTimeline *timelines = window.timeline();
                // A first: with Lock zoom, B follows it by the aligned step or first kernel; a side
                // without events (a summary file, or a run whose events are still loading) is passed over
                for (scopeline::TimelineView *view : {timelines->viewA(), timelines->viewB()}) {
                    if (view == timelines->viewB() && timelines->aligning())
                        break;
                    const scopeline::TimeScale &scale = view->timeScale();
                    if (!view->run().hasEvents())
                        continue;
                    if (rangeStart >= scale.boundsSpan()) {
                        std::fprintf(stderr,
                                     "scopeline: --range starts after the end of %s's timeline (%lld ns)\n",
                                     view == timelines->viewA() ? "A" : "B",
                                     static_cast<long long>(scale.boundsSpan()));
                        qApp->setProperty("screenshotFails", true);
                        continue;
                    }
                    // A window past the end is cut there, not slid back over time that was not asked for.
                    const int64_t end = std::min(rangeEnd, scale.boundsSpan());
                    if (end < rangeEnd)
                        std::fprintf(stderr,
                                     "scopeline: --range ends after the end of %s's timeline (%lld ns): "
                                     "shown to its end\n",
                                     view == timelines->viewA() ? "A" : "B",
                                     static_cast<long long>(scale.boundsSpan()));
                    view->setVisibleRange(scale.lowerBound + rangeStart, scale.lowerBound + end);
                }
            },
            Qt::SingleShotConnection);
    }
    if (parser.isSet(screenshotOption)) {
        // Saved a moment after the load ends (or at once when none started), so that the views have painted.
        const QString file = parser.value(screenshotOption);
        auto shoot = [&window, file] {
            QTimer::singleShot(300, &window, [&window, file] {
                // what the banner says; a load that failed fails the picture asked for, notes (a partial
                // world, a run left out) do not
                if (const QString banner = window.bannerText(); !banner.isEmpty()) {
                    for (const QString &line : banner.split(u'\n'))
                        std::fprintf(stderr, "scopeline: %s\n", qPrintable(line));
                    if (window.lastOpenFailed())
                        qApp->setProperty("screenshotFails", true);
                }
                // Encoded in memory, then written whole or not at all.
                QByteArray png;
                QBuffer buffer(&png);
                const QString suffix = QFileInfo(file).suffix();
                const QString format = suffix.isEmpty() ? QStringLiteral("png") : suffix;
                const QString error =
                    buffer.open(QIODevice::WriteOnly) && window.grab().save(&buffer, qPrintable(format))
                        ? scopeline::saveFile(file, png)
                        : QStringLiteral("cannot encode the picture as %1").arg(format);
                const bool saved = error.isEmpty();
                if (!saved)
                    std::fprintf(stderr, "scopeline: cannot write %s: %s\n", qPrintable(file),
                                 qPrintable(error));
                QCoreApplication::exit(saved && !qApp->property("screenshotFails").toBool() ? 0 : 1);
            });
        };
        if (window.isLoading())
            QObject::connect(&window, &scopeline::MainWindow::loadDone, &window, shoot,
                             Qt::SingleShotConnection);
        else
            shoot();
    }
    return app.exec();
}
