// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "opendialog.h"
#include "runnerpanel.h"

#include "model/durationformat.h"
#include "widgets/comparisonpanel.h"
#include "widgets/kerneldiffview.h"
#include "widgets/pairtimeline.h"
#include "widgets/proportionalsplitter.h"
#include "widgets/reportexporter.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QHBoxLayout>
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

#include <boost/version.hpp>
#include <qcustomplot.h>
#include <zlib.h>

namespace scopeline {

namespace {
constexpr int kMaxRecentPairs = 10;
const QString kRecentKey = QStringLiteral("recentPairs");
const QString kSessionFilter = QStringLiteral("Scopeline sessions (*.scopeline.json *.json)");
} // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent)
{
    setAcceptDrops(true);
    qRegisterMetaType<scopeline::PairLoadResult>();

    m_banner = new QWidget;
    m_banner->setObjectName(QStringLiteral("banner"));
    m_banner->setStyleSheet(
        QStringLiteral("#banner { background: #fdecea; border-bottom: 1px solid #f5c2c0; }"));
    auto *bannerLayout = new QHBoxLayout(m_banner);
    bannerLayout->setContentsMargins(8, 4, 8, 4);
    m_bannerLabel = new QLabel;
    m_bannerLabel->setWordWrap(true);
    m_bannerLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_bannerReload = new QPushButton(tr("Reload"));
    auto *bannerClose = new QToolButton;
    bannerClose->setText(QStringLiteral("✕"));
    bannerClose->setToolTip(tr("Dismiss"));
    bannerLayout->addWidget(m_bannerLabel, 1);
    bannerLayout->addWidget(m_bannerReload);
    bannerLayout->addWidget(bannerClose);
    connect(bannerClose, &QToolButton::clicked, m_banner, &QWidget::hide);
    connect(m_bannerReload, &QPushButton::clicked, this,
            [this] { openPair(m_state.pathA, m_state.pathB, currentState()); });
    m_banner->hide();

    m_timeline = new PairTimeline;
    m_panel = new ComparisonPanel;
    m_diffView = new KernelDiffView;
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_diffView, tr("What changed"));
    m_tabs->addTab(m_panel, tr("Scopes"));
    m_tabs->setTabToolTip(0, tr("Every kernel of either side by its contribution to the change in GPU time, "
                                "with run-level verdicts (Ctrl+1)"));
    m_tabs->setTabToolTip(1, tr("Named scopes compared: boxplots, statistics and verdicts (Ctrl+2)"));
    // timelines a little taller than the statistics
    m_splitter = new ProportionalSplitter(Qt::Vertical, {55, 45});
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

    m_details = new QTextBrowser;
    m_details->setPlaceholderText(tr("Click an event or Shift-drag a time range to see its details here."));
    auto *dock = new QDockWidget(tr("Details"));
    dock->setObjectName(QStringLiteral("details"));
    dock->setWidget(m_details);
    addDockWidget(Qt::RightDockWidgetArea, dock);
    resizeDocks({dock}, {280}, Qt::Horizontal);

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
    connect(m_cancel, &QToolButton::clicked, &m_loader, &PairLoader::cancel);

    m_watcher = new QFileSystemWatcher(this);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this,
            [this] { showBanner(tr("Trace files changed on disk."), true); });

    connect(&m_loader, &PairLoader::progress, this, [this](int job, double fraction, const QString &what) {
        if (job == m_job) {
            m_progress->setValue(int(fraction * 1000));
            m_status->setText(what);
        }
    });
    connect(&m_loader, &PairLoader::finished, this, &MainWindow::loadFinished);
    connect(m_timeline, &PairTimeline::eventSelected, this, [this](int side, int64_t event) {
        const QList<LoadedRun> &runs = side == 0 ? m_a : m_b;
        const int index = side == 0 ? m_runA->currentIndex() : m_runB->currentIndex();
        if (event >= 0 && index >= 0 && index < runs.size())
            m_details->setHtml(TimelineView::describeEvent(runs[index], uint32_t(event)));
    });
    connect(m_timeline, &PairTimeline::rangeSummaryChanged, m_details, &QTextBrowser::setHtml);
    connect(m_panel, &ComparisonPanel::settingsChanged, this, [this] {
        m_diffView->setThreshold(m_panel->threshold()); // one threshold for every verdict
        updateTitle();
    });
    connect(m_diffView, &KernelDiffView::kernelSelected, this, [this](const QStringList &names) {
        m_highlightedKernels = names;
        m_timeline->viewA()->setHighlightedKernels(names);
        m_timeline->viewB()->setHighlightedKernels(names);
    });

    createActions();
    updateTitle();
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
    m_splitter->restoreSizes(settings.value(QStringLiteral("splitter")).toByteArray());
    if (!settings.contains(QStringLiteral("geometry")))
        resize(1600, 1000);
    // the verdict threshold a user settled on is theirs; a session file still brings its own
    m_panel->setThreshold(settings.value(QStringLiteral("threshold"), m_panel->threshold()).toDouble());
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open Pair…"), QKeySequence::Open, this, [this] { showOpenDialog(); })
        ->setToolTip(tr("Choose the A (baseline) and B (candidate) trace folders"));
    m_recentMenu = file->addMenu(tr("Recent &Pairs"));
    QMenu *samples = file->addMenu(tr("&Samples"));
    file->addSeparator();
    file->addAction(tr("Open &Session…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open session"), QString(), kSessionFilter);
        if (!path.isEmpty())
            openSession(path);
    });
    file->addAction(tr("&Save Session"), QKeySequence::Save, this, [this] {
        QString path = m_sessionFile;
        if (path.isEmpty())
            path = QFileDialog::getSaveFileName(this, tr("Save session"),
                                                QStringLiteral("comparison.scopeline.json"), kSessionFilter);
        if (!path.isEmpty())
            saveSession(path);
    });
    file->addAction(tr("Save Session &As…"), QKeySequence::SaveAs, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save session"), m_sessionFile, kSessionFilter);
        if (!path.isEmpty())
            saveSession(path);
    });
    file->addSeparator();
    file->addAction(tr("&Export Report…"), QKeySequence(Qt::CTRL | Qt::Key_E), this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Export report into folder"));
        if (!folder.isEmpty())
            exportReport(folder);
    });
    file->addAction(tr("&Reload"), QKeySequence::Refresh, this,
                    [this] { openPair(m_state.pathA, m_state.pathB, currentState()); });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("S&wap A and B"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X), this,
                    &MainWindow::swapSides);
    edit->addAction(tr("Cancel Loading"), QKeySequence(Qt::Key_Escape), &m_loader, &PairLoader::cancel);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *lock = view->addAction(tr("&Lock Zoom of A and B"));
    lock->setCheckable(true);
    lock->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    lock->setChecked(m_timeline->zoomLocked());
    connect(lock, &QAction::toggled, m_timeline, &PairTimeline::setZoomLocked);
    connect(m_timeline, &PairTimeline::zoomLockedChanged, lock, &QAction::setChecked);
    view->addAction(tr("&Fit Timelines"), QKeySequence(Qt::CTRL | Qt::Key_0), this, [this] {
        m_timeline->viewA()->fit();
        m_timeline->viewB()->fit();
    });
    view->addSeparator();
    view->addAction(tr("&What Changed"), QKeySequence(Qt::CTRL | Qt::Key_1), this,
                    [this] { m_tabs->setCurrentWidget(m_diffView); })
        ->setToolTip(m_tabs->tabToolTip(0));
    view->addAction(tr("&Scopes"), QKeySequence(Qt::CTRL | Qt::Key_2), this,
                    [this] { m_tabs->setCurrentWidget(m_panel); })
        ->setToolTip(m_tabs->tabToolTip(1));

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    QAction *runner = tools->addAction(tr("&Run Microbenchmark…"), QKeySequence(Qt::CTRL | Qt::Key_R), this,
                                       &MainWindow::showRunner);
    runner->setToolTip(tr("Record an A/B trace pair with scopeline-hipbench and open it"));

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), QKeySequence::HelpContents, this, &MainWindow::showShortcuts);
    help->addAction(tr("&About Scopeline"), this, &MainWindow::showAbout);

    // Bundled samples: real traces from an H100 (see resources/samples/README.md).
    const QString sampleRoot = qApp->property("samplesFolder").toString();
    // Each sample opens with the comparison that shows what it is for.
    auto addSample = [&](const QString &title, SessionState state) {
        state.pathA = sampleRoot + state.pathA;
        state.pathB = sampleRoot + state.pathB;
        samples->addAction(title, this, [this, state] { openPair(state.pathA, state.pathB, state); });
    };
    SessionState matmul;
    matmul.pathA = QStringLiteral("/jax_matmul_vs_einsum/matmul");
    matmul.pathB = QStringLiteral("/jax_matmul_vs_einsum/einsum");
    matmul.scopes = {QStringLiteral("attn_q_k"), QStringLiteral("attn_att_v"), QStringLiteral("mlp")};
    addSample(tr("Matmul vs einsum attention (JAX, H100)"), matmul);
    // graph-replayed kernels keep no named scopes; the jitted call's wall span is the step time
    SessionState graph;
    graph.pathA = QStringLiteral("/eager_vs_graph/eager");
    graph.pathB = QStringLiteral("/eager_vs_graph/graph");
    graph.scopes = {QStringLiteral("PjitFunction(<lambda>)")};
    graph.samples = SampleMode::Span;
    addSample(tr("Eager launches vs CUDA graphs (JAX, H100)"), graph);
    samples->setEnabled(!sampleRoot.isEmpty());

    // Which run of each side the timelines show, in the side's title bar.
    m_runA = new QComboBox;
    m_runB = new QComboBox;
    for (int side = 0; side < 2; ++side) {
        QComboBox *box = side == 0 ? m_runA : m_runB;
        box->setToolTip(side == 0 ? tr("Run of side A shown in the timeline")
                                  : tr("Run of side B shown in the timeline"));
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(22); // long run names elide instead of widening the window
        m_timeline->addTitleWidget(side, new QLabel(tr("Run:")));
        m_timeline->addTitleWidget(side, box);
    }
    connect(m_runA, &QComboBox::activated, this, &MainWindow::showRuns);
    connect(m_runB, &QComboBox::activated, this, &MainWindow::showRuns);
    updateRecentMenu();
}

void MainWindow::showOpenDialog(const QString &presetA, const QString &presetB)
{
    OpenDialog dialog(recentPairs(), this);
    dialog.setPaths(presetA.isEmpty() ? m_state.pathA : presetA, presetB.isEmpty() ? m_state.pathB : presetB);
    if (dialog.exec() == QDialog::Accepted) {
        SessionState state = currentState();
        openPair(dialog.pathA(), dialog.pathB(), state);
    }
}

void MainWindow::showRunner()
{
    if (!m_runner) {
        m_runner = new RunnerPanel(this);
        connect(m_runner, &RunnerPanel::pairReady, this, &MainWindow::openPair);
    }
    m_runner->show();
    m_runner->raise();
    m_runner->activateWindow();
}

void MainWindow::openPair(const QString &givenA, const QString &givenB, const SessionState &state)
{
    if (givenA.trimmed().isEmpty() || givenB.trimmed().isEmpty())
        return;
    // "traces/eager/" names its side "eager", as "traces/eager" does
    const QString pathA = QDir::cleanPath(givenA.trimmed()), pathB = QDir::cleanPath(givenB.trimmed());
    m_pending = state;
    m_pending.pathA = pathA;
    m_pending.pathB = pathB;
    m_job = m_loader.start(pathA, pathB);
    m_loading = true;
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    m_status->setText(tr("Loading %1 and %2…").arg(pathA, pathB));
}

bool MainWindow::isLoading() const
{
    return m_loading;
}

QString MainWindow::bannerText() const
{
    return m_banner->isVisibleTo(this) ? m_bannerLabel->text() : QString();
}

void MainWindow::loadFinished(int job, const PairLoadResult &result)
{
    if (job != m_job)
        return;
    m_loading = false;
    m_progress->hide();
    m_cancel->hide();
    showLoadResult(result);
    emit loadDone();
}

void MainWindow::showLoadResult(const PairLoadResult &result)
{
    if (result.cancelled) {
        m_status->setText(tr("Loading cancelled; the document shown is unchanged."));
        return;
    }
    if (!result.ok()) {
        // A failed load leaves the previous document as it was.
        m_status->clear();
        showBanner(result.error);
        return;
    }
    m_banner->hide();
    m_a = result.a;
    m_b = result.b;
    m_state = m_pending;
    for (QComboBox *box : {m_runA, m_runB}) {
        box->clear();
        for (const LoadedRun &run : box == m_runA ? m_a : m_b)
            box->addItem(run.run.name, run.run.file);
    }
    m_panel->setSides(m_a, m_b, m_state.pathA, m_state.pathB);
    m_diffView->setSides(m_a, m_b, QFileInfo(m_state.pathA).fileName(), QFileInfo(m_state.pathB).fileName());
    applyState(m_pending);
    // A pair opened for its scopes shows them; any other pair opens on what changed.
    m_tabs->setCurrentWidget(m_pending.scopes.isEmpty() ? static_cast<QWidget *>(m_diffView) : m_panel);
    showRuns();
    if (m_pending.viewEndA > m_pending.viewStartA)
        m_timeline->viewA()->setVisibleRange(m_pending.viewStartA, m_pending.viewEndA);
    if (m_pending.viewEndB > m_pending.viewStartB)
        m_timeline->viewB()->setVisibleRange(m_pending.viewStartB, m_pending.viewEndB);

    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    for (const QList<LoadedRun> *side : {&m_a, &m_b})
        for (const LoadedRun &run : *side)
            m_watcher->addPath(run.run.file);
    int64_t skipped = 0;
    QStringList broken; // per run: the events that could not be read, by reason
    for (const QList<LoadedRun> *side : {&m_a, &m_b})
        for (const LoadedRun &run : *side) {
            QStringList reasons;
            for (const auto &[reason, n] : run.trace->skipped) {
                skipped += n;
                if (!TraceData::isBenignSkip(reason))
                    reasons << tr("%1 × %2").arg(n).arg(reason);
            }
            if (!reasons.isEmpty())
                broken << QStringLiteral("%1 %2: %3")
                              .arg(side == &m_a ? QStringLiteral("A") : QStringLiteral("B"), run.run.file,
                                   reasons.join(QStringLiteral(", ")));
        }
    if (!broken.isEmpty())
        showBanner(tr("Events that could not be read were skipped; the rest is shown.\n") +
                   broken.join(QLatin1Char('\n')));
    m_status->setText(tr("A: %n run(s)", nullptr, int(m_a.size())) + QStringLiteral(", ") +
                      tr("B: %n run(s)", nullptr, int(m_b.size())) +
                      (skipped
                           ? tr("; %1 events skipped (counters, unsupported or broken events)").arg(skipped)
                           : QString()));
    addRecentPair(m_state.pathA, m_state.pathB);
    updateTitle();
}

void MainWindow::showRuns()
{
    const int a = m_runA->currentIndex(), b = m_runB->currentIndex();
    const LoadedRun runA = a >= 0 && a < m_a.size() ? m_a[a] : LoadedRun();
    const LoadedRun runB = b >= 0 && b < m_b.size() ? m_b[b] : LoadedRun();
    m_timeline->setRuns(runA, runB, m_state.pathA, m_state.pathB);
    m_timeline->viewA()->setHighlightedKernels(m_highlightedKernels);
    m_timeline->viewB()->setHighlightedKernels(m_highlightedKernels);
}

void MainWindow::showBanner(const QString &text, bool offerReload)
{
    m_bannerLabel->setText(text);
    m_bannerReload->setVisible(offerReload);
    m_banner->show();
}

SessionState MainWindow::currentState() const
{
    SessionState state = m_state;
    state.scopes = m_panel->selectedScopes();
    state.match = m_panel->matchMode();
    state.samples = m_panel->sampleMode();
    state.threshold = m_panel->threshold();
    state.pooled = m_panel->pooled();
    state.logScale = m_panel->logScale();
    state.zoomLocked = m_timeline->zoomLocked();
    state.viewStartA = m_timeline->viewA()->visibleStart();
    state.viewEndA = m_timeline->viewA()->visibleEnd();
    state.viewStartB = m_timeline->viewB()->visibleStart();
    state.viewEndB = m_timeline->viewB()->visibleEnd();
    return state;
}

void MainWindow::applyState(const SessionState &state)
{
    m_panel->setMatchMode(state.match);
    m_panel->setSampleMode(state.samples);
    m_panel->setThreshold(state.threshold);
    m_panel->setPooled(state.pooled);
    m_panel->setLogScale(state.logScale);
    m_panel->setSelectedScopes(state.scopes);
    m_timeline->setZoomLocked(state.zoomLocked);
}

bool MainWindow::openSession(const QString &file)
{
    SessionState state;
    QString error;
    if (!SessionFile::load(file, state, &error)) {
        showBanner(error); // a corrupt session is reported, nothing of it applied
        return false;
    }
    m_sessionFile = file;
    openPair(state.pathA, state.pathB, state);
    return true;
}

bool MainWindow::saveSession(const QString &file)
{
    QString error;
    if (!SessionFile::save(currentState(), file, &error)) {
        showBanner(error);
        return false;
    }
    m_sessionFile = file;
    m_status->setText(tr("Session saved to %1").arg(file));
    updateTitle();
    return true;
}

bool MainWindow::exportReport(const QString &folder)
{
    ReportExporter::Input input;
    input.panel = m_panel;
    input.diffView = m_diffView;
    input.timelineA = m_timeline->viewA();
    input.timelineB = m_timeline->viewB();
    input.labelA = m_state.pathA;
    input.labelB = m_state.pathB;
    input.runsA = m_a;
    input.runsB = m_b;
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
    if (m_state.pathA.isEmpty())
        return;
    SessionState state = currentState();
    std::swap(state.viewStartA, state.viewStartB);
    std::swap(state.viewEndA, state.viewEndB);
    openPair(m_state.pathB, m_state.pathA, state);
}

QStringList MainWindow::recentPairs() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::addRecentPair(const QString &a, const QString &b)
{
    QStringList pairs = recentPairs();
    const QString pair = a + QLatin1Char('\n') + b;
    pairs.removeAll(pair);
    pairs.prepend(pair);
    while (pairs.size() > kMaxRecentPairs)
        pairs.removeLast();
    QSettings().setValue(kRecentKey, pairs);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    for (const QString &pair : recentPairs()) {
        const QStringList paths = pair.split(QLatin1Char('\n'));
        if (paths.size() != 2)
            continue;
        m_recentMenu->addAction(QStringLiteral("%1  ⟷  %2").arg(paths[0], paths[1]), this,
                                [this, paths] { openPair(paths[0], paths[1], currentState()); });
    }
    m_recentMenu->setEnabled(!m_recentMenu->isEmpty());
}

void MainWindow::updateTitle()
{
    const QString pair = m_state.pathA.isEmpty() ? tr("no traces")
                                                 : QStringLiteral("%1 vs %2")
                                                       .arg(QFileInfo(m_state.pathA).fileName(),
                                                            QFileInfo(m_state.pathB).fileName());
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

void MainWindow::showShortcuts()
{
    QMessageBox::information(
        this, tr("Keyboard Shortcuts"),
        tr("<table>"
           "<tr><td><b>Ctrl+O</b></td><td>open a pair of trace folders</td></tr>"
           "<tr><td><b>Ctrl+S / Ctrl+Shift+O</b></td><td>save / open a session</td></tr>"
           "<tr><td><b>Ctrl+E</b></td><td>export a report (PNG, CSV, HTML)</td></tr>"
           "<tr><td><b>Ctrl+R</b></td><td>record a pair with the microbenchmark runner</td></tr>"
           "<tr><td><b>F5</b></td><td>reload the traces</td></tr>"
           "<tr><td><b>Ctrl+Shift+X</b></td><td>swap A and B</td></tr>"
           "<tr><td><b>Esc</b></td><td>cancel loading; clear a timeline selection</td></tr>"
           "<tr><td><b>Wheel, + / −</b></td><td>zoom the timeline; drag to pan; Shift+drag selects a "
           "range</td></tr>"
           "<tr><td><b>F, Z</b></td><td>fit the timeline; zoom to the selected range</td></tr>"
           "<tr><td><b>Ctrl+K</b></td><td>lock the zoom of A and B</td></tr>"
           "<tr><td><b>Ctrl+1, Ctrl+2</b></td><td>what changed (kernels); scopes</td></tr>"
           "<tr><td><b>Ctrl+F, Ctrl+L, Ctrl+P</b></td><td>filter scopes; log scale; pooled / per "
           "run</td></tr>"
           "</table>"));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    m_loader.cancel();
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
    // Two folders or files: A and B. One: the open dialog, with it on the side it was dropped on.
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths.append(url.toLocalFile());
    event->acceptProposedAction();
    if (paths.size() >= 2)
        openPair(paths[0], paths[1], currentState());
    else if (paths.size() == 1 && paths[0].endsWith(QLatin1String(".scopeline.json")))
        openSession(paths[0]);
    else if (paths.size() == 1)
        event->position().y() < height() / 2 ? showOpenDialog(paths[0], {}) : showOpenDialog({}, paths[0]);
}

} // namespace scopeline
