// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/mainwindow.h"

#include "model/comparison/replication.h"
#include "model/files/atomicfile.h"
#include "model/loading/pairloader.h"
#include "model/loading/sideargument.h"
#include "model/loading/summarycache.h"
#include "model/loading/tracefolder.h"
#include "model/loading/traceloader.h"
#include "model/runner/hipbenchprotocol.h"

#include "app/gui/opendialog.h"
#include "app/gui/runevents.h"
#include "app/gui/runnerpanel.h"
#include "app/gui/samplepairs.h"
#include "app/gui/shortcuthelp.h"
#include "app/gui/variantsdialog.h"

#include "widgets/charts/steptimechart.h"
#include "widgets/panels/comparisonpanel.h"
#include "widgets/panels/errorbanner.h"
#include "widgets/panels/kerneldiffview.h"
#include "widgets/panels/proportionalsplitter.h"
#include "widgets/panels/ranksview.h"
#include "widgets/panels/runpicker.h"
#include "widgets/panels/scopepicker.h"
#include "widgets/panels/stepbreakdownview.h"
#include "widgets/panels/variantsview.h"
#include "widgets/report/reportcharts.h"
#include "widgets/report/reportexporter.h"
#include "widgets/timeline/detailsbrowser.h"
#include "widgets/timeline/pairtimeline.h"
#include "widgets/timeline/timelineview.h"
#include "widgets/timeline/timelineviewstate.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <boost/version.hpp>
#include <qcustomplot.h>
#include <zlib.h>

namespace scopeline {

namespace {
constexpr int kMaxRecent = 10;
const QString kRecentKey = QStringLiteral("recentPairs"),
              kRecentSessionsKey = QStringLiteral("recentSessions");
// A path as a menu item's text shows it.
QString menuText(QString path)
{
    return path.replace(QLatin1Char('&'), QLatin1String("&&"));
}

const QString kSessionFilter = QStringLiteral("Scopeline sessions (*.scopeline.json *.json)");

} // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent), m_document(new ComparisonDocument(this))
{
    setAcceptDrops(true);
    createViews();
    createStatusBar();

    m_watcher = new QFileSystemWatcher(this);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &MainWindow::traceChangedOnDisk);
    connect(m_document, &ComparisonDocument::progress, this, [this](double fraction, const QString &what) {
        m_progress->setValue(int(fraction * 1000));
        m_status->setText(what);
    });
    connect(m_document, &ComparisonDocument::loadEnded, this, &MainWindow::loadEnded);
    m_variantsLoader = new PairLoader(this);
    connect(m_variantsLoader, &PairLoader::progress, this, [this](int, double fraction, const QString &what) {
        m_progress->setValue(int(fraction * 1000));
        m_status->setText(what);
    });
    // A run picked for a timeline whose events were dropped after summarising: loaded in the background.
    m_runEvents = new RunEvents(this);
    connect(m_runEvents, &RunEvents::progress, this, [this](double fraction, const QString &what) {
        m_status->setText(QStringLiteral("%1 … %2 %").arg(what).arg(int(fraction * 100)));
    });
    connect(m_runEvents, &RunEvents::loaded, this, [this](int side, const QString &file, const QString &error) {
        if (!error.isEmpty()) {
            m_pendingViews[side] = {};
            showBanner(error);
            return;
        }
        m_status->clear();
        const QList<LoadedRun> &runs = side == 0 ? runsA() : runsB();
        const int index = (side == 0 ? m_runA : m_runB)->currentIndex();
        if (index >= 0 && index < runs.size() && runs[index].run.file == file) {
            showRuns();
            showPendingViews();
        }
    });

    createActions();
    createRunPickers();
    updateRecentMenu();
    updateTitle();
    restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::createViews()
{
    m_banner = new ErrorBanner;
    m_bannerReload = m_banner->addButton(tr("Reload"));
    connect(m_bannerReload, &QPushButton::clicked, this, &MainWindow::reload);
    m_bannerRetry = m_banner->addButton(tr("Retry"));
    m_bannerRetry->setToolTip(tr("Open the pair that failed again (a trace still being written, say)"));
    connect(m_bannerRetry, &QPushButton::clicked, this, [this] {
        const SessionState failed = m_failedOpen;
        const bool replacesVariants = m_failedReplacedVariants;
        openPair(failed.pathA, failed.pathB, failed);
        m_clearVariantsOnLoad = replacesVariants && isLoading();
    });

    m_timeline = new PairTimeline;
    m_panel = new ComparisonPanel;
    m_diffView = new KernelDiffView;
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_diffView, tr("What changed"));
    m_tabs->addTab(m_panel, tr("Scopes"));
    m_ranks = new RanksView;
    m_tabs->addTab(m_ranks, tr("Ranks"));
    // the ranks' figures per step of What changed's step scope
    connect(m_diffView->stepView(), &StepBreakdownView::stepScopeChanged, m_ranks, &RanksView::setStepScope);
    connect(m_diffView->stepView(), &StepBreakdownView::stepScopeChanged, m_timeline,
            &PairTimeline::setStepScope);
    m_tabs->setTabToolTip(2,
                          tr("Runs of several GPUs: each rank's step as compute, exposed communication and "
                             "idle, waits at collectives, the rank that holds the step back (Ctrl+3)"));
    m_tabs->setTabVisible(2, false);
    m_variants = new VariantsView;
    m_tabs->addTab(m_variants, tr("Variants"));
    m_tabs->setTabToolTip(3, tr("A baseline against several candidates: each one's step and its parts, the kernels "
                                "× variants, with Holm over the candidates (Ctrl+4)"));
    m_tabs->setTabVisible(3, false);
    connect(m_variants, &VariantsView::pairRequested, this,
            [this](const QString &pathA, const QString &pathB) { startNewPair(pathA, pathB); });
    // the variants judged as the pair views judge: one step scope, threshold, matching and samples
    connect(m_diffView->stepView(), &StepBreakdownView::stepScopeChanged, this,
            &MainWindow::syncVariantSettings);
    // a rank double-clicked: that rank's file in its side's timeline
    connect(m_ranks, &RanksView::rankActivated, this, [this](int side, const QString &run, int rank) {
        const QList<LoadedRun> &runs = side == 0 ? runsA() : runsB();
        for (int i = 0; i < runs.size(); ++i)
            if (runs[i].run.name == run && runs[i].run.rank == rank) {
                m_pendingViews[side] = {};
                (side == 0 ? m_runA : m_runB)->setCurrentIndex(i);
                showRuns();
            }
    });
    m_tabs->setTabToolTip(0, tr("Every kernel of either side by its contribution to the change in GPU time, "
                                "with run-level verdicts (Ctrl+1; double-click: the figures take the window)"));
    m_tabs->setTabToolTip(
        1, tr("Named scopes compared: boxplots, statistics and verdicts (Ctrl+2; double-click: the figures take "
              "the window)"));
    // the statistics a little taller than the timelines: what changed shows the step over the kernels;
    // at 1366x768 the timelines keep room for a CPU launch lane above the GPU streams
    m_splitter = new ProportionalSplitter(Qt::Vertical, {45, 55});
    m_splitter->setObjectName(QStringLiteral("mainSplitter"));
    m_splitter->addWidget(m_timeline);
    m_splitter->addWidget(m_tabs);

    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_banner);
    layout->addWidget(m_splitter, 1);
    setCentralWidget(central);

    m_details = new DetailsBrowser;
    m_details->setPlaceholderText(tr("Click an event or Shift-drag a time range to see its details here."));
    auto *dock = new QDockWidget(tr("Details"));
    dock->setObjectName(QStringLiteral("details"));
    dock->setWidget(m_details);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    resizeDocks({dock}, {280}, Qt::Horizontal);
    m_detailsDock = dock;

    connect(m_timeline, &PairTimeline::eventSelected, this, [this](int side, int64_t event) {
        const QList<LoadedRun> &runs = side == 0 ? runsA() : runsB();
        const int index = side == 0 ? m_runA->currentIndex() : m_runB->currentIndex();
        if (event >= 0 && index >= 0 && index < runs.size()) {
            m_details->setHtml(TimelineView::describeEvent(m_runEvents->get(side, runs[index]), uint32_t(event)));
            showDetailsDock(side == 0 ? m_timeline->viewA() : m_timeline->viewB(), event);
        } else if (event < 0) {
            m_details->clear(); // Esc or a click on nothing: the event's details go with its outline
        }
    });
    connect(m_timeline, &PairTimeline::rangeSummaryChanged, this, [this](const QString &html) {
        m_details->setHtml(html);
        if (!html.isEmpty())
            m_detailsDock->show();
    });
    connect(m_panel, &ComparisonPanel::settingsChanged, this, [this] {
        m_diffView->setThreshold(m_panel->threshold()); // one threshold for every verdict
        syncVariantSettings();
        updateTitle();
    });
    connect(m_diffView, &KernelDiffView::kernelSelected, this, [this](const QStringList &names) {
        m_highlightedKernels = names;
        m_timeline->viewA()->setHighlightedKernels(names);
        m_timeline->viewB()->setHighlightedKernels(names);
        // a call of it in view: A's, which B follows under Lock zoom; B's own when unlocked or A has none
        if (!m_timeline->viewA()->revealHighlighted() || !m_timeline->zoomLocked())
            m_timeline->viewB()->revealHighlighted();
        else
            m_timeline->viewB()->scrollToHighlightedRow(); // B's rows are its own under Lock zoom
    });
    connect(m_diffView->stepView(), &StepBreakdownView::selectedGapsChanged, this, &MainWindow::showStepGaps);
    connect(m_diffView->stepView()->stepChart(), &StepTimeChart::stepClicked, this, &MainWindow::showStep);
}

void MainWindow::showStep(int side, const QString &run, int64_t start, int64_t end)
{
    const QList<LoadedRun> &runs = side == 0 ? runsA() : runsB();
    for (int i = 0; i < runs.size(); ++i)
        if (runs[i].run.label() == run && runs[i].hasTrace()) { // a summary file's run has no timeline
            const int64_t margin = (end - start) / 20;
            m_pendingViews[side] = {runs[i].run.file, start - margin, end + margin};
            (side == 0 ? m_runA : m_runB)->setCurrentIndex(i);
            if (m_maximiseFigures->isChecked())
                m_maximiseFigures->setChecked(false); // the timelines, to show it in
            showRuns();
            showPendingViews();
            return;
        }
}

void MainWindow::showPendingViews()
{
    for (int side = 0; side < 2; ++side) {
        PendingView &pending = m_pendingViews[side];
        TimelineView *view = side == 0 ? m_timeline->viewA() : m_timeline->viewB();
        if (pending.file.isEmpty() || view->run().run.file != pending.file || !view->run().hasEvents())
            continue;                                      // none, or its events are still loading
        view->setVisibleRange(pending.start, pending.end); // Lock zoom: the other side follows
        pending = {};
    }
}

void MainWindow::showStepGaps()
{
    // The gaps of the idle cause picked in the step waterfall, in the runs the timelines show.
    for (TimelineView *view : {m_timeline->viewA(), m_timeline->viewB()}) {
        auto gaps =
            m_diffView->stepView()->selectedGaps(view == m_timeline->viewA() ? 0 : 1, view->run().run.label());
        if (gaps)
            view->setHighlightedIntervals(std::move(*gaps));
        else
            view->clearHighlightedIntervals();
    }
}

void MainWindow::createStatusBar()
{
    m_progress = new QProgressBar;
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(240);
    m_progress->hide();
    m_cancel = new QToolButton;
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Stop loading (Esc); the document shown stays as it is"));
    m_cancel->hide();
    m_status = new QLabel;
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    connect(m_cancel, &QToolButton::clicked, this, [this] {
        m_document->cancel();
        m_variantsLoader->cancel();
    });
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
    m_splitter->restoreSizes(settings.value(QStringLiteral("splitter")).toByteArray());
    if (!settings.contains(QStringLiteral("geometry")))
        resize(1600, 1000);
    // Details opens with the first click or range: until then What changed's columns take its width.
    if (!settings.contains(QStringLiteral("windowState")))
        m_detailsDock->hide();
    // the verdict threshold a user settled on is theirs; a session file still brings its own
    m_panel->setThreshold(settings.value(QStringLiteral("threshold"), m_panel->threshold()).toDouble());
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open Pair…"), QKeySequence::Open, this, [this] { showOpenDialog(); })
        ->setToolTip(tr("Choose the A (baseline) and B (candidate) trace folders"));
    file->addAction(tr("Open &Variants…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O), this,
                    &MainWindow::showOpenVariantsDialog)
        ->setToolTip(tr("A baseline and several candidates (flag sets, modes, a sweep): each against the baseline"));
    m_recentMenu = file->addMenu(tr("Recent &Pairs"));
    m_recentMenu->setToolTipsVisible(true); // a greyed entry says which of its files is gone
    QMenu *samples = file->addMenu(tr("&Samples"));
    file->addSeparator();
    file->addAction(tr("Open &Session…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open session"), QString(), kSessionFilter);
        if (!path.isEmpty())
            openSession(path);
    });
    m_recentSessionsMenu = file->addMenu(tr("Recent Sess&ions"));
    m_recentSessionsMenu->setToolTipsVisible(true);
    for (QMenu *recent : {m_recentMenu, m_recentSessionsMenu})
        connect(recent, &QMenu::aboutToShow, this, [this, recent] { greyGoneEntries(recent); });
    file->addAction(tr("&Save Session"), QKeySequence::Save, this, [this] {
        const QString path = m_sessionFile.isEmpty()
                                 ? chooseSessionFile(QStringLiteral("comparison.scopeline.json"))
                                 : m_sessionFile;
        if (!path.isEmpty())
            saveSession(path);
    });
    // Ctrl+Shift+S spelled out: QKeySequence::SaveAs has no key on some platforms (X11, offscreen).
    file->addAction(tr("Save Session &As…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this, [this] {
        const QString path = chooseSessionFile(m_sessionFile);
        if (!path.isEmpty())
            saveSession(path);
    });
    file->addSeparator();
    file->addAction(tr("&Export Report…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, [this] {
        const QString folder = chooseReportFolder();
        if (!folder.isEmpty())
            exportReport(folder);
    });
    // F5 spelled out: GNOME's key theme gives QKeySequence::Refresh Ctrl+R first, which records a pair
    file->addAction(tr("&Reload"), QKeySequence(Qt::Key_F5), this, &MainWindow::reload);
    file->addSeparator();
    // spelled out: QKeySequence::Quit has no key on some platforms (offscreen)
    file->addAction(tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q), this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("S&wap A and B"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X), this,
                    &MainWindow::swapSides);
    // One Esc for the window: a shortcut of its own would take the key from the timelines.
    edit->addAction(tr("Cancel Loading, Clear Range or Selection"), QKeySequence(Qt::Key_Escape), this,
                    &MainWindow::escape);
    // From anywhere, the timelines included: the filter of the tab shown.
    edit->addAction(tr("&Filter Kernels or Scopes"), QKeySequence(Qt::CTRL | Qt::Key_F), this,
                    &MainWindow::focusFilter);
    m_panel->picker()->focusFilterAction()->setShortcut({}); // the window's Ctrl+F does it (no ambiguity)

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *lock = view->addAction(tr("&Lock Zoom of A and B"));
    lock->setCheckable(true);
    lock->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    lock->setChecked(m_timeline->zoomLocked());
    connect(lock, &QAction::toggled, m_timeline, &PairTimeline::setZoomLocked);
    connect(m_timeline, &PairTimeline::zoomLockedChanged, lock, &QAction::setChecked);
    view->addAction(tr("&Fit Timelines"), QKeySequence(Qt::CTRL | Qt::Key_0), m_timeline,
                    &PairTimeline::fitBoth);
    // One pane at a time, for a small screen: the figures or the timelines take the window; again to
    // restore both.
    QAction *figures = view->addAction(tr("Maximise &Figures"));
    figures->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    figures->setToolTip(tr("What changed and Scopes take the whole window; again to show the timelines"));
    QAction *timelines = view->addAction(tr("Maximise &Timelines"));
    timelines->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    timelines->setToolTip(tr("The timelines take the whole window; again to show the figures"));
    for (QAction *action : {figures, timelines})
        action->setCheckable(true);
    m_maximiseFigures = figures;
    m_maximiseTimelines = timelines;
    connect(figures, &QAction::toggled, this, [this, timelines](bool on) {
        if (on)
            timelines->setChecked(false);
        showTimelines();
    });
    connect(timelines, &QAction::toggled, this, [this, figures](bool on) {
        if (on)
            figures->setChecked(false);
        m_tabs->setVisible(!on);
    });
    // or a double-click on a pane's title: a tab, a timeline's title bar
    connect(m_tabs, &QTabWidget::tabBarDoubleClicked, figures, &QAction::toggle);
    connect(m_timeline, &PairTimeline::titleDoubleClicked, timelines, &QAction::toggle);
    QAction *emptyRows = view->addAction(tr("Show &Empty Rows"));
    emptyRows->setCheckable(true);
    emptyRows->setToolTip(tr("Show the profiler's own rows and CPU threads with nothing in the visible "
                             "window; hidden by default so that the rows that matter fit"));
    connect(emptyRows, &QAction::toggled, m_timeline, &PairTimeline::setShowEmptyRows);
    QAction *details = m_detailsDock->toggleViewAction();
    details->setText(tr("&Details"));
    details->setToolTip(tr("The clicked event or the selected range (opens by itself on a click)"));
    view->addAction(details);
    view->addSeparator();
    // a tab opened from the keyboard takes the focus, so that its own shortcuts (Ctrl+P, Ctrl+L) work
    const auto showTab = [this](QWidget *tab) {
        m_tabs->setCurrentWidget(tab);
        tab->setFocus();
    };
    view->addAction(tr("&What Changed"), QKeySequence(Qt::CTRL | Qt::Key_1), this,
                    [this, showTab] { showTab(m_diffView); })
        ->setToolTip(m_tabs->tabToolTip(0));
    view->addAction(tr("&Scopes"), QKeySequence(Qt::CTRL | Qt::Key_2), this,
                    [this, showTab] { showTab(m_panel); })
        ->setToolTip(m_tabs->tabToolTip(1));
    view->addAction(tr("&Ranks"), QKeySequence(Qt::CTRL | Qt::Key_3), this,
                    [this, showTab] {
                        if (m_tabs->isTabVisible(2))
                            showTab(m_ranks);
                        else // the tab is hidden: say why rather than do nothing
                            m_status->setText(
                                tr("No run of several GPUs is open: the Ranks tab shows one job's "
                                   "ranks (a folder of its rank files, one trace per GPU)."));
                    })
        ->setToolTip(m_tabs->tabToolTip(2));
    view->addAction(tr("&Variants"), QKeySequence(Qt::CTRL | Qt::Key_4), this,
                    [this, showTab] {
                        if (m_tabs->isTabVisible(3))
                            showTab(m_variants);
                        else
                            m_status->setText(tr("No variants are open: the Variants tab compares a baseline "
                                                 "with several candidates (File › Open Variants…)."));
                    })
        ->setToolTip(m_tabs->tabToolTip(3));

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    QAction *runner = tools->addAction(tr("&Run Microbenchmark…"), QKeySequence(Qt::CTRL | Qt::Key_R), this,
                                       &MainWindow::showRunner);
    runner->setToolTip(tr("Record an A/B trace pair with scopeline-hipbench and open it"));
    tools->addAction(tr("&Clear Kept Summaries"), this, &MainWindow::clearKeptSummaries)
        ->setToolTip(tr("Remove the run summaries kept so that traces summarised once are not read again "
                        "(%1); their traces are read again when next loaded")
                         .arg(SummaryCache::folder().isEmpty() ? tr("off") : SummaryCache::folder()));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, this, &MainWindow::showShortcuts);
    help->addAction(tr("&About Scopeline"), this, &MainWindow::showAbout);

    const QString sampleRoot = qApp->property("samplesFolder").toString();
    for (const SamplePair &sample : samplePairs(sampleRoot))
        samples->addAction(sample.title, this, [this, sample] { openSample(sample.title, sample.state); });
    samples->setEnabled(!sampleRoot.isEmpty());
    for (QMenu *menu : menuBar()->findChildren<QMenu *>()) // a menu shows its actions' tooltips only if told
        menu->setToolTipsVisible(true);
}

void MainWindow::clearKeptSummaries()
{
    const QString folder = SummaryCache::folder();
    if (folder.isEmpty()) {
        m_status->setText(tr("No summaries are kept: SCOPELINE_SUMMARY_CACHE=off"));
        return;
    }
    const SummaryCache::Cleared cleared = SummaryCache::clear();
    m_status->setText(
        tr("Kept summaries removed from %1: %2 (%3 MB); their traces are read again when next loaded")
            .arg(QDir::toNativeSeparators(folder))
            .arg(cleared.files)
            .arg(double(cleared.bytes) / 1e6, 0, 'f', 1));
}

void MainWindow::escape()
{
    if (isLoading()) {
        m_document->cancel();
        m_variantsLoader->cancel();
        return;
    }
    // The range first (of either timeline), then the selected event.
    bool cleared = false;
    for (TimelineView *view : {m_timeline->viewA(), m_timeline->viewB()})
        cleared = view->viewState().clearRange() || cleared;
    if (cleared)
        return;
    for (TimelineView *view : {m_timeline->viewA(), m_timeline->viewB()})
        if (view->selectedEvent() >= 0)
            view->selectEvent(-1);
}

void MainWindow::focusFilter()
{
    if (m_tabs->currentWidget() == m_panel) {
        m_panel->picker()->focusFilter();
    } else {
        m_diffView->filterEdit()->setFocus(Qt::ShortcutFocusReason);
        m_diffView->filterEdit()->selectAll();
    }
}

QString MainWindow::chooseSessionFile(const QString &suggested)
{
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Save session"), suggested, kSessionFilter);
    if (chosen.isEmpty() || chosen.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return chosen; // the dialog asked before replacing it
    // A name typed without a suffix gets the session's, by which Open Session and a drop know the file;
    // the dialog did not ask about that name.
    const QString path = chosen + QStringLiteral(".scopeline.json");
    if (QFileInfo::exists(path) &&
        QMessageBox::question(this, tr("Save session"),
                              tr("%1 already exists. Replace it?").arg(QDir::toNativeSeparators(path))) !=
            QMessageBox::Yes)
        return {};
    return path;
}

QString MainWindow::chooseReportFolder()
{
    // A folder dialog refuses a name that does not exist yet ("Directory not found"); this one
    // creates the typed folder and takes it.
    class ReportFolderDialog : public QFileDialog
    {
    public:
        using QFileDialog::QFileDialog;
        void accept() override
        {
            const QStringList files = selectedFiles();
            if (const QString why = files.isEmpty() ? QString() : makeFolder(files.first()); !why.isEmpty()) {
                QMessageBox::warning(this, windowTitle(),
                                     tr("Cannot create the folder %1: %2").arg(files.first(), why));
                return;
            }
            QFileDialog::accept();
        }
    };
    ReportFolderDialog dialog(this, tr("Export report into folder"));
    dialog.setObjectName(QStringLiteral("reportFolderDialog"));
    dialog.setFileMode(QFileDialog::Directory);
    dialog.setOption(QFileDialog::ShowDirsOnly);
    dialog.setOption(QFileDialog::DontUseNativeDialog); // the native one cannot be told to create
    dialog.setLabelText(QFileDialog::Accept, tr("Export"));
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    return dialog.selectedFiles().first();
}

void MainWindow::createRunPickers()
{
    // Which run (and rank) of each side the timelines show, in the side's title bar.
    m_runA = new RunPicker(QStringLiteral("A"));
    m_runB = new RunPicker(QStringLiteral("B"));
    for (int side = 0; side < 2; ++side) {
        RunPicker *picker = side == 0 ? m_runA : m_runB;
        m_timeline->addTitleWidget(side, new QLabel(tr("Run:")));
        m_timeline->addTitleWidget(side, picker);
        connect(picker, &RunPicker::activated, this, [this, side] {
            m_pendingViews[side] = {}; // the user's pick, not a view waiting for another run
            showRuns();
        });
    }
}

void MainWindow::showOpenDialog(const QString &presetA, const QString &presetB)
{
    const SessionState &shown = m_document->state();
    OpenDialog dialog(recentPairs(), this);
    // after a failed open, its paths: to correct them, rather than retype them
    const SessionState &preset = m_failedOpen.pathA.isEmpty() ? shown : m_failedOpen;
    dialog.setPaths(presetA.isEmpty() ? preset.pathA : presetA, presetB.isEmpty() ? preset.pathB : presetB);
    if (dialog.exec() == QDialog::Accepted)
        openNewPair(dialog.pathA(), dialog.pathB());
}

void MainWindow::openNewPair(const QString &pathA, const QString &pathB, const QString &labelA,
                             const QString &labelB)
{
    replaceVariantsWith([&] { startNewPair(pathA, pathB, labelA, labelB); });
}

void MainWindow::replaceVariantsWith(const std::function<void()> &openIt)
{
    // the variants shown stay until the new pair has loaded: a pair that fails to open takes nothing
    if (m_variantsLoading)
        clearVariants();
    openIt();
    m_clearVariantsOnLoad = isLoading();
}

void MainWindow::clearVariants()
{
    if (m_variantsLoading)
        m_variantsLoader->cancel();
    m_variantsLoading = m_showVariantsTab = false;
    m_variantRunsLeftOut.clear();
    m_variantsLeftOut.clear();
    m_variantScanNotes.clear();
    m_variants->clear();
    m_tabs->setTabVisible(3, false);
}

void MainWindow::openVariants(const QStringList &arguments, const SessionState &pair)
{
    if (arguments.size() < 3) {
        if (arguments.size() == 2) {
            const SideArgument a = SideArgument::parse(arguments[0]), b = SideArgument::parse(arguments[1]);
            openNewPair(a.path, b.path, a.named ? a.label : QString(), b.named ? b.label : QString());
        }
        return;
    }
    QList<SideArgument> sides;
    QStringList labels, paths;
    for (const QString &argument : arguments) {
        sides << SideArgument::parse(argument);
        labels << sides.back().label;
        paths << sides.back().path;
    }
    QString problem = SideArgument::problem(sides);
    for (const QString &path : paths)
        if (problem.isEmpty())
            problem = hipbenchprotocol::recordingAsSide(path);
    if (!problem.isEmpty()) {
        m_lastOpenFailed = true;
        showBanner(problem); // the document shown stays
        m_status->setText(tr("The variants could not be opened; the document shown is unchanged."));
        return;
    }
    m_variantArguments = arguments;
    m_variantsLoading = true;
    m_clearVariantsOnLoad = false; // these variants are what a pair opened before them would replace
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    m_status->setText(tr("Loading %n variant(s)…", nullptr, int(paths.size())));
    const int job = m_variantsLoader->start(paths, SideFailure::CandidatesMayFail);
    // the result of this job only: a newer one, or a pair opened meanwhile, drops it
    disconnect(m_variantsLoader, &PairLoader::finished, this, nullptr);
    connect(m_variantsLoader, &PairLoader::finished, this,
            [this, job, labels, paths, pair](int finished, PairLoadResult result) {
                if (finished != job || !m_variantsLoading)
                    return;
                m_variantsLoading = false;
                // candidates that could not be read are left out, named, where the rest still compare
                QStringList kept = labels, keptPaths = paths, leftOut;
                if (result.ok())
                    for (qsizetype i = result.sideErrors.size() - 1; i > 0; --i)
                        if (!result.sideErrors[i].isEmpty()) {
                            leftOut.prepend(tr("%1 left out: %2").arg(labels[i], result.sideErrors[i]));
                            result.sides.erase(result.sides.begin() + i);
                            kept.removeAt(i);
                            keptPaths.removeAt(i);
                        }
                if (result.ok() && result.sides.size() < 2)
                    result.error = leftOut.join(u'\n');
                if (!result.ok()) {
                    m_progress->hide();
                    m_cancel->hide();
                    if (result.cancelled) {
                        m_status->setText(tr("Loading cancelled; the document shown is unchanged."));
                    } else {
                        m_lastOpenFailed = true;
                        showBanner(ofSession(result.error));
                        m_status->setText(
                            tr("The variants could not be opened; the document shown is unchanged."));
                    }
                    emit loadDone();
                    return;
                }
                // the figures need the summaries alone; the pair views load their own runs
                std::vector<QList<LoadedRun>> summaries = result.sides;
                for (QList<LoadedRun> &side : summaries)
                    for (LoadedRun &run : side)
                        run = run.withoutEvents();
                m_variants->clear(); // the old variants are not judged again with the settings
                syncVariantSettings();
                QStringList notes = leftOut; // said where the variants are shown too, not only in the banner
                for (const QString &run : std::as_const(result.leftOut))
                    notes << tr("a run left out, the others of its variant compared: %1").arg(run);
                m_variants->setVariants(summaries, kept, keptPaths, notes);
                m_variantRunsLeftOut = result.leftOut; // said when the pair below is shown
                m_variantsLeftOut = leftOut;
                m_variantScanNotes = result.notes;
                m_tabs->setTabVisible(3, true);
                m_showVariantsTab = true;
                if (!pair.pathA.isEmpty() && !pair.pathB.isEmpty())
                    openPair(pair.pathA, pair.pathB, pair); // a session's pair and its state
                else
                    // the baseline and the first candidate, in the tab's order (a sweep's by parameter)
                    startNewPair(m_variants->paths().value(0), m_variants->paths().value(1));
            });
}

void MainWindow::showOpenVariantsDialog()
{
    VariantsDialog dialog(this);
    dialog.setArguments(m_variantArguments);
    if (dialog.exec() == QDialog::Accepted)
        openVariants(dialog.arguments()); // two: a pair
}

void MainWindow::syncVariantSettings()
{
    m_variants->setSettings(m_diffView->stepView()->stepScope(), m_panel->threshold(), m_panel->matchMode(),
                            m_panel->sampleMode());
}

void MainWindow::startNewPair(const QString &pathA, const QString &pathB, const QString &labelA,
                              const QString &labelB)
{
    // What belongs to a pair (its scopes, step, modes of reading scopes, views) starts clean; the
    // user's preferences carry over.
    SessionState state;
    state.threshold = m_panel->threshold();
    state.pooled = m_panel->pooled();
    state.logScale = m_panel->logScale();
    if (!m_document->state().pathA.isEmpty()) // else the default: nothing shown has set it
        state.zoomLocked = m_timeline->zoomLocked();
    state.byOp = m_diffView->byOp();
    state.foldNumbers = m_diffView->foldNumbers();
    state.labelA = labelA;
    state.labelB = labelB;
    openPair(pathA, pathB, state);
}

void MainWindow::showRunner()
{
    if (!m_runner) {
        m_runner = new RunnerPanel(this);
        connect(m_runner, &RunnerPanel::pairReady, this,
                [this](const QString &pathA, const QString &pathB, const SessionState &state) {
                    replaceVariantsWith([&] { openPair(pathA, pathB, state); }); // what was recorded: a pair
                });
    }
    m_runner->show();
    m_runner->raise();
    m_runner->activateWindow();
}

void MainWindow::openPair(const QString &pathA, const QString &pathB, const SessionState &state)
{
    if (pathA != pathB) // one path twice: a trace against itself, or a recording's pair (openRecording)
        for (const QString &path : {pathA, pathB})
            if (const QString problem = hipbenchprotocol::recordingAsSide(path); !problem.isEmpty()) {
                showBanner(problem); // the document shown stays
                return;
            }
    if (pathA.isEmpty() || pathB.isEmpty()) { // an unset variable in a script: said, as the CLI says it
        m_lastOpenFailed = true;
        showBanner(tr("%1: an empty path: give a trace file or folder")
                       .arg(pathA.isEmpty() ? QStringLiteral("A") : QStringLiteral("B")));
        return;
    }
    if (!m_document->open(pathA, pathB, state))
        return;
    m_clearVariantsOnLoad = false; // set again by openNewPair, after this
    m_sampleTitle.clear();
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    m_status->setText(tr("Loading %1 and %2…").arg(m_document->pending().pathA, m_document->pending().pathB));
}

void MainWindow::openSample(const QString &title, const SessionState &state)
{
    openPair(state.pathA, state.pathB, state);
    if (isLoading())
        m_sampleTitle = title;
}

QString MainWindow::statusText() const
{
    return m_status->text();
}

void MainWindow::reload()
{
    openPair(m_document->state().pathA, m_document->state().pathB, currentState());
}

QString MainWindow::ofSession(const QString &error) const
{
    if (m_sessionOfLoad.isEmpty())
        return error;
    return tr("Session %1 could not be opened (its runs moved or removed since it was saved? Open them with "
              "File › Open Pair, then save the session again):\n%2")
        .arg(QDir::toNativeSeparators(m_sessionOfLoad), error);
}

QString MainWindow::bannerText() const
{
    return m_banner->text();
}

bool MainWindow::bannerIsNote() const
{
    return m_banner->isShown() && m_banner->kind() == ErrorBanner::Kind::Note;
}

void MainWindow::loadEnded(ComparisonDocument::LoadOutcome outcome, const QString &error)
{
    m_progress->hide();
    m_cancel->hide();
    switch (outcome) {
    case ComparisonDocument::LoadOutcome::Cancelled:
        m_status->setText(tr("Loading cancelled; the document shown is unchanged."));
        m_aloneAfter.clear();
        break;
    case ComparisonDocument::LoadOutcome::Failed:
        if (m_aloneAfter.isEmpty() && m_shownPair.isEmpty() &&
            m_document->pending().pathA != m_document->pending().pathB) {
            // Nothing was shown before: A alone, against itself, rather than an empty window, while the
            // error stands. The load ends when that one does.
            m_aloneAfter = ofSession(error);
            m_failedOpen = m_document->pending();
            m_failedReplacedVariants = m_clearVariantsOnLoad;
            m_sessionOfLoad.clear();
            SessionState alone = m_failedOpen;
            alone.pathB = alone.pathA;
            openPair(alone.pathA, alone.pathA, alone);
            if (isLoading())
                return;
        }
        // the previous document stays as it was, and so does what the status bar said of it
        m_lastOpenFailed = true;
        m_status->setText(m_shownStatus);
        if (m_aloneAfter.isEmpty()) {
            m_failedOpen = m_document->pending();
            m_failedReplacedVariants = m_clearVariantsOnLoad;
        }
        showBanner(m_aloneAfter.isEmpty() ? ofSession(error) : m_aloneAfter); // the pair's own error
        m_bannerRetry->setVisible(true);
        m_aloneAfter.clear();
        break;
    case ComparisonDocument::LoadOutcome::Loaded: {
        // the document shown is the session's; another pair is a new document, of no session
        const QStringList loaded{m_document->state().pathA, m_document->state().pathB};
        if (!m_sessionOfLoad.isEmpty() && loaded == m_sessionPair) {
            m_sessionFile = m_sessionOfLoad;
            addRecent(kRecentSessionsKey, QFileInfo(m_sessionFile).absoluteFilePath());
        } else if (loaded != m_shownPair && QStringList{loaded[1], loaded[0]} != m_shownPair) // reload, swap
            m_sessionFile.clear();
        if (m_aloneAfter.isEmpty())
            m_failedOpen = {};
        if (m_clearVariantsOnLoad)
            clearVariants();
        showDocument();
        m_lastOpenFailed = !m_aloneAfter.isEmpty();
        if (!m_aloneAfter.isEmpty()) {
            showBanner(tr("%1\nA is shown against itself until the pair opens (Retry).").arg(m_aloneAfter));
            m_bannerRetry->setVisible(true);
            m_aloneAfter.clear();
        }
        if (m_showVariantsTab && m_document->state().tab.isEmpty()) // a session's tab is its own
            m_tabs->setCurrentWidget(m_variants);
        break;
    }
    }
    m_sessionOfLoad.clear();
    updateTitle();
    m_showVariantsTab = m_clearVariantsOnLoad = false;
    emit loadDone();
}

void MainWindow::showDocument()
{
    const SessionState &state = m_document->state();
    m_banner->clear();
    m_runEvents->clear();
    for (RunPicker *picker : {m_runA, m_runB}) {
        std::vector<TraceRun> runs;
        for (const LoadedRun &run : picker == m_runA ? runsA() : runsB())
            runs.push_back(run.run);
        picker->setRuns(runs);
    }
    m_panel->setSides(runsA(), runsB(), sideName(state.pathA, state.pathA),
                      sideName(state.pathB, state.pathB));
    // What changed first: its step scope for these runs reaches the ranks (stepScopeChanged) before
    // their table is built, once
    m_diffView->setSides(runsA(), runsB(), sideName(state.pathA, QFileInfo(state.pathA).fileName()),
                         sideName(state.pathB, QFileInfo(state.pathB).fileName()));
    // a trace opened alone is shown against itself: its ranks once, not as A and again as B
    m_ranks->setSides(runsA(), sameRuns(runsA(), runsB()) ? QList<LoadedRun>() : runsB());
    m_tabs->setTabVisible(2, m_ranks->hasRanks());
    // Another pair than the one shown: its filters start empty (a reload or a swap keeps them).
    const bool newPair = QStringList{state.pathA, state.pathB} != m_shownPair &&
                         QStringList{state.pathB, state.pathA} != m_shownPair;
    if (newPair) {
        m_diffView->filterEdit()->clear();
        m_panel->picker()->filterEdit()->clear();
        m_tabs->setCurrentWidget(m_diffView); // every pair opens on what changed
    }
    m_shownPair = {state.pathA, state.pathB};
    applyState(state);
    if (newPair && state.scopes.isEmpty()) // Scopes opens on a comparison, not on an empty plot
        m_panel->selectDefaultScope();
    // the runs shown before a reload, a swap or in a session, and their views; a view range is of its run
    const auto pickRun = [](RunPicker *picker, const QList<LoadedRun> &runs, const QString &file) {
        if (file.isEmpty())
            return true;
        const QString wanted = QDir::cleanPath(QFileInfo(file).absoluteFilePath());
        for (int i = 0; i < runs.size(); ++i)
            if (QDir::cleanPath(QFileInfo(runs[i].run.file).absoluteFilePath()) == wanted) {
                picker->setCurrentIndex(i);
                return true;
            }
        return false;
    };
    const bool runShownA = pickRun(m_runA, runsA(), state.runA),
               runShownB = pickRun(m_runB, runsB(), state.runB);
    m_pendingViews[0] =
        runShownA && state.viewEndA > state.viewStartA
            ? PendingView{runsA().value(m_runA->currentIndex()).run.file, state.viewStartA, state.viewEndA}
            : PendingView{};
    m_pendingViews[1] =
        runShownB && state.viewEndB > state.viewStartB
            ? PendingView{runsB().value(m_runB->currentIndex()).run.file, state.viewStartB, state.viewEndB}
            : PendingView{};
    showRuns();
    showPendingViews(); // now, or once a run's events have loaded

    bool notesOnly = false;
    if (const QStringList problems = loadProblems(&notesOnly); !problems.isEmpty())
        showBanner(problems.join(QLatin1Char('\n')), false,
                   notesOnly ? ErrorBanner::Kind::Note : ErrorBanner::Kind::Error);
    watchRuns(); // after: a trace changed while it loaded is said with Reload, over what the load found
    const SkippedEvents &skipped = m_document->skipped();
    // runs, and the ranks of runs of several GPUs (rank files, or the GPUs of one trace)
    const Replication replication = Replication::of(runsA(), runsB());
    const auto sideRunsText = [this](const QString &side, int runs, const QList<LoadedRun> &files) {
        if (files.size() <= runs)
            return tr("%1: %n run(s)", nullptr, runs).arg(side);
        if (files.size() % runs != 0)
            return tr("%1: %n run(s), %2 ranks in all", nullptr, runs).arg(side).arg(files.size());
        // a partial world says of how many: "4 of 8 ranks"
        const qsizetype ranks = files.size() / runs;
        const int world = files.front().run.worldSize;
        return world > ranks
                   ? tr("%1: %n run(s) of %2 of %3 ranks", nullptr, runs).arg(side).arg(ranks).arg(world)
                   : tr("%1: %n run(s) of %2 ranks", nullptr, runs).arg(side).arg(ranks);
    };
    m_status->setText(
        (m_sampleTitle.isEmpty()
             ? QString()
             : tr("Sample: %1 — File › Open Pair (Ctrl+O) to open yours · ").arg(m_sampleTitle)) +
        sideRunsText(QStringLiteral("A"), replication.runs(0), runsA()) + QStringLiteral(", ") +
        sideRunsText(QStringLiteral("B"), replication.runs(1), runsB()) +
        (skipped.total == 1 ? tr("; 1 event skipped (a counter, an unsupported or a broken event)")
         : skipped.total
             ? tr("; %1 events skipped (counters, unsupported or broken events)").arg(skipped.total)
             : QString()) +
        (shownRunsHaveTrace() ? QString()
                              : tr(" · run summaries: the figures, without timelines (open the "
                                   "traces to see them)")) +
        // why the pair's intervals are narrower than the Variants tab's for the same candidate
        (pairOfVariants() ? tr(" · two of the variants, judged as a pair; the Variants tab judges every "
                               "candidate together (Holm), so its intervals are wider")
                          : QString()));
    m_shownStatus = m_status->text();
    addRecentPair(state.pathA, state.pathB);
    updateTitle();
}

QStringList MainWindow::loadProblems(bool *notesOnly) const
{
    QStringList problems, leftOut = m_document->runsLeftOut();
    if (!m_variantsLeftOut.isEmpty())
        problems << tr("%n variant(s) could not be read and are left out; the others are compared.", nullptr,
                       int(m_variantsLeftOut.size()))
                 << m_variantsLeftOut;
    for (const QString &run : std::as_const(m_variantRunsLeftOut))
        if (!leftOut.contains(run))
            leftOut << run;
    if (!leftOut.isEmpty())
        problems << tr("%n run(s) left out; the other runs are compared.", nullptr, int(leftOut.size()))
                 << leftOut;
    QStringList notes = m_document->scanNotes();
    for (const QString &note : std::as_const(m_variantScanNotes))
        if (!notes.contains(note))
            notes << note;
    if (!notes.isEmpty())
        problems << tr("Found while looking for runs:") << notes;
    const SkippedEvents &skipped = m_document->skipped();
    if (skipped.anyBroken())
        problems << tr("Events that could not be read were skipped; the rest is shown.")
                 << skipped.brokenRuns;
    if (notesOnly)
        *notesOnly = m_variantsLeftOut.isEmpty() && leftOut.isEmpty() && !skipped.anyBroken();
    return problems;
}

QString MainWindow::sideName(const QString &path, const QString &otherwise) const
{
    const qsizetype variant = m_variants->paths().indexOf(path);
    if (variant >= 0)
        return m_variants->labels().value(variant);
    const SessionState &shown = m_document->state();
    const QString &label = path == shown.pathA   ? shown.labelA
                           : path == shown.pathB ? shown.labelB
                                                 : otherwise;
    return label.isEmpty() ? otherwise : label;
}

bool MainWindow::pairOfVariants() const
{
    const SessionState &shown = m_document->state();
    return m_variants->paths().contains(shown.pathA) && m_variants->paths().contains(shown.pathB);
}

void MainWindow::watchRuns()
{
    m_changedFiles.clear();
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    m_watchedAs.clear();
    for (const QList<LoadedRun> *side : {&runsA(), &runsB()})
        for (const LoadedRun &run : *side) {
            m_watchedAs[run.run.file] = run.stamp;
            m_watcher->addPath(run.run.file);
        }
    for (auto it = m_watchedAs.cbegin(); it != m_watchedAs.cend(); ++it) // changed while it loaded
        traceChangedOnDisk(it.key());
}

void MainWindow::traceChangedOnDisk(const QString &file)
{
    // its size and time as its load began: a change of its attributes alone (another hard link to it
    // made or removed, its mode) is no change of the trace
    if (FileStamp::of(file) == m_watchedAs.value(file) || !m_watchedAs.contains(file))
        return;
    if (!m_changedFiles.contains(file))
        m_changedFiles << file;
    const QString first = QDir::toNativeSeparators(m_changedFiles.front());
    showBanner(m_changedFiles.size() == 1 ? tr("%1 changed on disk.").arg(first)
                                          : tr("%1 and %n other trace file(s) changed on disk.", nullptr,
                                               int(m_changedFiles.size() - 1))
                                                .arg(first),
               true);
}

void MainWindow::showRuns()
{
    const int a = m_runA->currentIndex(), b = m_runB->currentIndex();
    const SessionState &shown = m_document->state();
    m_timeline->setRuns(m_runEvents->get(0, runsA().value(a)), m_runEvents->get(1, runsB().value(b)),
                        sideName(shown.pathA, shown.pathA), sideName(shown.pathB, shown.pathB));
    m_timeline->viewA()->setHighlightedKernels(m_highlightedKernels);
    m_timeline->viewB()->setHighlightedKernels(m_highlightedKernels);
    showStepGaps();
    showTimelines();
}

void MainWindow::showTimelines()
{
    // Runs read from summary files hold no events: two empty timelines took two fifths of the window,
    // which the figures get instead; a run with a trace brings them back.
    const bool anyTrace = shownRunsHaveTrace();
    if (!anyTrace)
        m_maximiseTimelines->setChecked(false);
    m_maximiseTimelines->setEnabled(anyTrace);
    m_timeline->setVisible(anyTrace && !m_maximiseFigures->isChecked());
}

bool MainWindow::shownRunsHaveTrace() const
{
    return runsA().value(m_runA->currentIndex()).hasTrace() ||
           runsB().value(m_runB->currentIndex()).hasTrace();
}

void MainWindow::showDetailsDock(TimelineView *view, int64_t event)
{
    // Hidden until there is something to say: the tables need the width. Its width comes off the
    // timelines; the clicked one keeps its scale, the event where it was (Lock zoom brings the other).
    // A timeline showing its whole run stays so: it had not been zoomed, and would lose the run's end.
    if (m_detailsDock->isVisible())
        return;
    const TimeScale &scale = view->timeScale();
    if (scale.start <= scale.lowerBound && scale.end >= scale.upperBound) {
        m_detailsDock->show();
        layout()->activate();
        if (m_timeline->zoomLocked())
            m_timeline->fitBoth();
        else
            view->fit(); // the other side keeps its own zoom
        return;
    }
    const QRect plot = view->plotRect(), clicked = view->eventRect(uint32_t(event));
    const double nsPerPx = double(view->visibleEnd() - view->visibleStart()) / std::max(1, plot.width());
    const int x = std::clamp(clicked.isEmpty() ? 0 : clicked.center().x() - plot.left(), 0, plot.width());
    const double at = double(view->visibleStart()) + x * nsPerPx;
    m_detailsDock->show();
    layout()->activate(); // the dock's width taken now, not at the next event
    const int width = view->plotRect().width();
    const double start = at - std::min(x, std::max(0, width - 32)) * nsPerPx; // kept in view
    view->setVisibleRange(int64_t(std::llround(start)), int64_t(std::llround(start + width * nsPerPx)));
}

void MainWindow::showBanner(const QString &text, bool offerReload, ErrorBanner::Kind kind)
{
    m_banner->showError(text, {}, kind);
    m_bannerReload->setVisible(offerReload);
    m_bannerRetry->setVisible(false);
}

SessionState MainWindow::currentState() const
{
    SessionState state = m_document->state();
    state.scopes = m_panel->selectedScopes();
    state.match = m_panel->matchMode();
    state.samples = m_panel->sampleMode();
    state.threshold = m_panel->threshold();
    state.stepScope = m_diffView->stepView()->stepScope();
    state.pooled = m_panel->pooled();
    state.logScale = m_panel->logScale();
    state.zoomLocked = m_timeline->zoomLocked();
    state.viewStartA = m_timeline->viewA()->visibleStart();
    state.viewEndA = m_timeline->viewA()->visibleEnd();
    state.viewStartB = m_timeline->viewB()->visibleStart();
    state.viewEndB = m_timeline->viewB()->visibleEnd();
    state.runA = runsA().value(m_runA->currentIndex()).run.file;
    state.runB = runsB().value(m_runB->currentIndex()).run.file;
    state.variantLabels = m_variants->labels();
    state.variantPaths = m_variants->paths();
    state.byOp = m_diffView->byOp();
    state.foldNumbers = m_diffView->foldNumbers();
    state.kernelFilter = m_diffView->filterEdit()->text();
    const KernelDiff *diff = m_diffView->diff();
    const int row = m_diffView->currentRow();
    state.kernel = diff && row >= 0 && row < int(diff->rows().size()) ? diff->rows()[std::size_t(row)].kernel
                                                                      : QString();
    state.tab =
        m_tabs->currentIndex() > 0 ? SessionFile::tabNames().value(m_tabs->currentIndex()) : QString();
    return state;
}

void MainWindow::applyState(const SessionState &state)
{
    m_panel->setMatchMode(state.match);
    m_panel->setSampleMode(state.samples);
    m_panel->setThreshold(state.threshold);
    m_diffView->stepView()->setStepScope(state.stepScope); // empty: the pair's detected step scope
    m_panel->setPooled(state.pooled);
    m_panel->setLogScale(state.logScale);
    m_panel->setSelectedScopes(state.scopes);
    m_timeline->setZoomLocked(state.zoomLocked);
    m_diffView->setByOp(state.byOp);
    m_diffView->setFoldNumbers(state.foldNumbers);
    m_diffView->filterEdit()->setText(state.kernelFilter);
    if (const KernelDiff *diff = m_diffView->diff(); diff && !state.kernel.isEmpty())
        for (std::size_t r = 0; r < diff->rows().size(); ++r)
            if (diff->rows()[r].kernel == state.kernel) {
                m_diffView->selectRow(int(r));
                break;
            }
    if (const int tab = int(SessionFile::tabNames().indexOf(state.tab)); tab > 0 && m_tabs->isTabVisible(tab))
        m_tabs->setCurrentIndex(tab);
}

bool MainWindow::openSession(const QString &file)
{
    SessionState state;
    QString error;
    if (!SessionFile::load(file, state, &error)) {
        m_lastOpenFailed = true;
        showBanner(error); // a corrupt session is reported, nothing of it applied
        return false;
    }
    // adopted when its pair has loaded: a session that fails to open must not become Ctrl+S's target
    m_sessionOfLoad = file;
    m_sessionPair = {state.pathA, state.pathB};
    if (state.variantPaths.size() > 2) {
        QStringList arguments;
        for (qsizetype i = 0; i < state.variantPaths.size(); ++i)
            arguments << state.variantLabels.value(i) + QLatin1Char('=') + state.variantPaths[i];
        openVariants(arguments, state);
    } else {
        openPair(state.pathA, state.pathB, state);
    }
    return true;
}

bool MainWindow::openRecording(const QString &folder, const QStringList &scopes,
                               std::optional<MatchMode> match, std::optional<SampleMode> samples)
{
    SessionState state;
    QString error;
    if (!hipbenchprotocol::readSummary(folder, state, &error)) {
        showBanner(error);
        return false;
    }
    if (!scopes.isEmpty())
        state.scopes = scopes;
    state.match = match.value_or(state.match);
    state.samples = samples.value_or(state.samples);
    replaceVariantsWith([&] { openPair(state.pathA, state.pathB, state); });
    return true;
}

bool MainWindow::saveSession(const QString &file)
{
    // a session replaces a session, never a trace (a *.json one is offered beside sessions)
    if (const QString problem =
            SessionFile::isSessionFile(file) ? QString() : TraceLoader::outputProblem(file);
        !problem.isEmpty()) {
        showBanner(tr("Not saving the session to %1: %2").arg(QDir::toNativeSeparators(file), problem));
        return false;
    }
    QString error;
    if (!SessionFile::save(currentState(), file, &error)) {
        showBanner(error);
        return false;
    }
    m_sessionFile = file;
    addRecent(kRecentSessionsKey, QFileInfo(file).absoluteFilePath());
    m_status->setText(tr("Session saved to %1").arg(file));
    updateTitle();
    return true;
}

bool MainWindow::exportReport(const QString &folder)
{
    ReportExporter::Input input =
        ReportCharts::fromViews(*m_panel, m_diffView, *m_timeline->viewA(), *m_timeline->viewB());
    const SessionState &shown = m_document->state();
    // a pair named by its labels with its paths beside them (as `scopeline-cli report` names it),
    // variants by their labels alone (as the Variants section names them)
    const auto named = [](const QString &label, const QString &path) {
        return label.isEmpty() ? path : QStringLiteral("%1 (%2)").arg(label, path);
    };
    input.labelA = named(shown.labelA, shown.pathA);
    input.labelB = named(shown.labelB, shown.pathB);
    if (pairOfVariants()) {
        input.labelA = sideName(shown.pathA, shown.pathA);
        input.labelB = sideName(shown.pathB, shown.pathB);
        input.notes
            << tr("The sections before Variants judge %1 against %2 as a pair, as the window does; the "
                  "Variants section judges every candidate together (Holm), so its intervals are wider.")
                   .arg(input.labelA, input.labelB);
    }
    // what the window's banner says of the loading: runs left out, events skipped
    input.notes << loadProblems();
    input.runsA = runsA();
    input.runsB = runsB();
    input.ranks = m_ranks->table(); // runs of several GPUs only
    if (input.ranks)
        input.ranksChart = ReportCharts::ranksChartImage(*input.ranks);
    input.variantSteps = m_variants->steps(); // more than two variants only
    input.variantDiff = m_variants->diff();
    if (input.variantSteps)
        input.variantsChart =
            ReportCharts::variantsChartImage(*input.variantSteps, input.variantDiff, m_variants->labels());
    input.variantScopes = m_variants->scopes();
    input.variantRanks = m_variants->ranks(); // and runs of several GPUs
    input.variantBaseline = m_variants->labels().value(0);
    input.variantSweep = m_variants->sweep();
    QString error;
    if (!ReportExporter::exportTo(folder, input, &error)) {
        showBanner(tr("Report not exported: %1").arg(error));
        return false;
    }
    m_status->setText(tr("Report written to %1").arg(folder));
    return true;
}

void MainWindow::swapSides()
{
    const SessionState &shown = m_document->state();
    if (shown.pathA.isEmpty())
        return;
    SessionState state = currentState();
    std::swap(state.viewStartA, state.viewStartB);
    std::swap(state.viewEndA, state.viewEndB);
    std::swap(state.runA, state.runB);
    std::swap(state.labelA, state.labelB);
    openPair(shown.pathB, shown.pathA, state);
}

void MainWindow::addRecent(const QString &key, const QString &entry)
{
    QStringList entries = QSettings().value(key).toStringList();
    entries.removeAll(entry);
    entries.prepend(entry);
    while (entries.size() > kMaxRecent)
        entries.removeLast();
    QSettings().setValue(key, entries);
    updateRecentMenu();
}

QStringList MainWindow::recentPairs() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::addRecentPair(const QString &a, const QString &b)
{
    // absolute: the menu reopens them from wherever the app was started next time
    addRecent(kRecentKey,
              QFileInfo(a).absoluteFilePath() + QLatin1Char('\n') + QFileInfo(b).absoluteFilePath());
}

void MainWindow::updateRecentMenu()
{
    // Each entry keeps its paths, which greyGoneEntries() looks at as its menu opens.
    const auto addClear = [this](QMenu *menu, const QString &key) {
        menu->setEnabled(!menu->isEmpty());
        menu->addSeparator();
        // queued: the menu that is clicked deletes this action when it is rebuilt
        QAction *clear = menu->addAction(tr("&Clear Menu"));
        connect(
            clear, &QAction::triggered, this,
            [this, key] {
                QSettings().remove(key);
                updateRecentMenu();
            },
            Qt::QueuedConnection);
    };
    m_recentMenu->clear();
    for (const QString &pair : recentPairs()) {
        const QStringList paths = pair.split(QLatin1Char('\n'));
        if (paths.size() != 2)
            continue;
        // a path's '&' doubled: a single one would make the next letter a shortcut and vanish
        m_recentMenu
            ->addAction(QStringLiteral("%1  ⟷  %2").arg(menuText(paths[0]), menuText(paths[1])), this,
                        [this, paths] { openNewPair(paths[0], paths[1]); })
            ->setData(paths);
    }
    addClear(m_recentMenu, kRecentKey);
    m_recentSessionsMenu->clear();
    for (const QString &session : QSettings().value(kRecentSessionsKey).toStringList())
        m_recentSessionsMenu
            ->addAction(menuText(QDir::toNativeSeparators(session)), this,
                        [this, session] { openSession(session); })
            ->setData(QStringList{session});
    addClear(m_recentSessionsMenu, kRecentSessionsKey);
}

void MainWindow::greyGoneEntries(QMenu *menu)
{
    // Greyed, not removed: a disk or a share unmounted comes back. Looked at only as the menu opens.
    for (QAction *action : menu->actions()) {
        const QStringList paths = action->data().toStringList();
        const auto gone = std::find_if_not(paths.begin(), paths.end(), &TraceFolder::isThere);
        action->setEnabled(gone == paths.end());
        action->setToolTip(gone == paths.end()
                               ? QString()
                               : tr("%1 is no longer there").arg(QDir::toNativeSeparators(*gone)));
    }
}

void MainWindow::updateTitle()
{
    const SessionState &shown = m_document->state();
    const QString pair = shown.pathA.isEmpty()
                             ? tr("no traces")
                             : QStringLiteral("%1 vs %2")
                                   .arg(QFileInfo(shown.pathA).fileName(), QFileInfo(shown.pathB).fileName());
    const QString session =
        m_sessionFile.isEmpty() ? QString() : QStringLiteral(" — ") + QFileInfo(m_sessionFile).fileName();
    setWindowTitle(QStringLiteral("%1%2 — Scopeline").arg(pair, session));
}

void MainWindow::showAbout()
{
    QMessageBox::about(
        this, tr("About Scopeline"),
        tr("<h3>Scopeline %1</h3><p>Compare GPU traces of two program variants: launches, idle gaps "
           "and named scopes, with rank tests and effect sizes.</p>"
           "<p>Qt %2 · QCustomPlot %3 · zlib %4 · Boost %5</p>"
           "<p>License: GPL-3.0-or-later. Scopeline is free software: you may redistribute and modify "
           "it under the terms of the GNU General Public License, version 3 or (at your option) any "
           "later version; it comes with no warranty. QCustomPlot, which it links, is GPL-3.0. "
           "The bundled sample traces are Scopeline's own recordings, under the same license.</p>")
            .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion()),
                 QStringLiteral(QCUSTOMPLOT_VERSION_STR), QStringLiteral(ZLIB_VERSION),
                 QString::fromLatin1(BOOST_LIB_VERSION).replace(QLatin1Char('_'), QLatin1Char('.'))));
}

QString MainWindow::shortcutHelp() const
{
    // The menus in their order, then the actions of the views (filter, log scale, copy, …).
    QList<QAction *> actions;
    for (QAction *menu : menuBar()->actions())
        if (menu->menu())
            actions += menu->menu()->actions();
    for (QAction *action : findChildren<QAction *>())
        if (!actions.contains(action))
            actions.append(action);
    // The timeline's own keys and the mouse are no actions; they are said in words.
    return shortcutHelpHtml(actions) +
           tr("<p>In a timeline: the wheel or + / − zooms, drag or ← / → pans, Shift+drag selects a range, "
              "a click shows an event's details and a double-click zooms to it, "
              "Ctrl+wheel, ↑ / ↓ or PgUp / PgDn scroll its rows, F or Home fits, Z zooms to the selected "
              "range, Esc clears the range, then the selection. In the Scopes tab: Ctrl+P pooled / per run, "
              "Ctrl+L log scale; in a table: "
              "Ctrl+C copies it as CSV.</p>");
}

void MainWindow::showShortcuts()
{
    QMessageBox::information(this, tr("Keyboard Shortcuts"), shortcutHelp());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_document->cancel();
    QSettings settings;
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("windowState"), saveState());
    settings.setValue(QStringLiteral("splitter"), m_splitter->saveState());
    settings.setValue(QStringLiteral("threshold"), m_panel->threshold());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    // Three or more: variants. Two folders or files: A and B. One: a session, a recorded pair, else the
    // open dialog with it on the side it was dropped on.
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths.append(url.toLocalFile());
    event->acceptProposedAction();
    if (paths.size() >= 3)
        openVariants(paths); // in the order dropped: the first the baseline
    else if (paths.size() == 2)
        openNewPair(paths[0], paths[1]);
    else if (paths.size() == 1 && SessionFile::isSessionFile(paths[0]))
        openSession(paths[0]);
    else if (paths.size() == 1 && hipbenchprotocol::isRecordedPair(paths[0]))
        openRecording(paths[0]);
    else if (paths.size() == 1)
        event->position().y() < height() / 2 ? showOpenDialog(paths[0], {}) : showOpenDialog({}, paths[0]);
}

} // namespace scopeline
