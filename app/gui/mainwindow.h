// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Scopeline main window: shows a ComparisonDocument of two trace folders (A = baseline, B =
// candidate) as stacked timelines over the comparison panel, with loading progress, an error banner,
// sessions, recent pairs and report export.

#include "model/loading/comparisondocument.h"
#include "model/loading/sessionfile.h"
#include "widgets/panels/errorbanner.h"

#include <QDateTime>
#include <QHash>
#include <QMainWindow>

#include <functional>
#include <optional>

class QDockWidget;
class QFileSystemWatcher;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTextBrowser;
class QToolButton;

namespace scopeline {

class ComparisonPanel;
class KernelDiffView;
class RanksView;
class PairTimeline;
class ProportionalSplitter;
class RunEvents;
class RunPicker;
class TimelineView;
class VariantsView;
class PairLoader;
class RunnerPanel;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Loads a pair; `state` carries the scopes, modes and view to apply once it is loaded.
    void openPair(const QString &pathA, const QString &pathB, const SessionState &state = {});
    // A bundled sample pair: the same, and once loaded the status bar says what is shown and how to
    // open one's own.
    void openSample(const QString &title, const SessionState &state);
    // Another pair, as the open dialog, a drop or a recent pair opens it: nothing of the pair shown
    // before carries over (scopes, step, filters, views), only the threshold and the view options.
    void openNewPair(const QString &pathA, const QString &pathB, const QString &labelA = {},
                     const QString &labelB = {});
    // More than two variants ([LABEL=]PATH each, the baseline first): the Variants tab, and the baseline
    // against the first candidate in the pair views. Two arguments open a pair.
    // `pair`: the two variants the pair views open with, and their state (a session's); by default the
    // baseline against the first candidate.
    void openVariants(const QStringList &arguments, const SessionState &pair = {});
    QString statusText() const;
    bool openSession(const QString &file);
    // A folder scopeline-hipbench recorded a pair into, as its summary.json names it (scopes and
    // sample mode too; `scopes`, `match` and `samples`, when given, in place of its own). It replaces
    // the variants shown. False, said in the banner, when the summary cannot be read.
    bool openRecording(const QString &folder, const QStringList &scopes = {},
                       std::optional<MatchMode> match = {}, std::optional<SampleMode> samples = {});
    bool saveSession(const QString &file);
    bool exportReport(const QString &folder);
    bool isLoading() const { return m_document->isLoading() || m_variantsLoading; }
    // Error or notice shown inline above the views (never a modal dialog mid-load); empty when hidden.
    QString bannerText() const;
    // Whether the banner shown is a note (what was done about the runs found), not an error.
    bool bannerIsNote() const;
    // The last open failed (the banner says why; a pair whose B failed shows A against itself): not
    // what a banner of notes says (runs left out, a partial world), where the pair did open.
    bool lastOpenFailed() const { return m_lastOpenFailed; }
    const QString &sessionFile() const { return m_sessionFile; } // what Save Session writes; empty: asks
    // The keyboard shortcut help: every action with a shortcut, menus first.
    QString shortcutHelp() const;
    const ComparisonDocument *document() const { return m_document; }
    const QList<LoadedRun> &runsA() const { return m_document->runsA(); }
    const QList<LoadedRun> &runsB() const { return m_document->runsB(); }
    ComparisonPanel *panel() const { return m_panel; }
    KernelDiffView *diffView() const { return m_diffView; }
    RanksView *ranksView() const { return m_ranks; }
    VariantsView *variantsView() const { return m_variants; }
    QTabWidget *tabs() const { return m_tabs; } // "What changed" and "Scopes"
    PairTimeline *timeline() const { return m_timeline; }
    QTextBrowser *details() const { return m_details; } // the clicked event or the selected range

signals:
    // A load has ended: shown, failed (banner) or cancelled.
    void loadDone();

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    // A load's error, headed by the session being opened, if one is.
    QString ofSession(const QString &error) const;
    void createViews();
    void createStatusBar();
    void createActions();
    void createRunPickers();
    void restoreSettings();
    void showOpenDialog(const QString &presetA = {}, const QString &presetB = {});
    void showRunner();
    void loadEnded(ComparisonDocument::LoadOutcome outcome, const QString &error);
    void showDocument();
    void watchRuns();
    void traceChangedOnDisk(const QString &file);
    void showRuns();
    // The timelines are shown unless the figures are maximised or neither run shown has a trace.
    void showTimelines();
    bool shownRunsHaveTrace() const;
    // What the banner says of the loading (runs left out, events skipped), a line each; empty when nothing.
    // What the banner says of the load; notesOnly, when given, whether all of it is notes (no run or
    // variant left out, no event skipped).
    QStringList loadProblems(bool *notesOnly = nullptr) const;
    bool pairOfVariants() const; // the pair shown is two of the variants
    // A side's name: a variant's label (two variants' folders may share a name), else otherwise.
    QString sideName(const QString &path, const QString &otherwise) const;
    // Opens a pair of its own (openIt), which replaces the variants shown once it has loaded.
    void replaceVariantsWith(const std::function<void()> &openIt);
    void showStepGaps();
    // A step clicked in the Per step chart: its run in that side's timeline, zoomed to the step.
    void showStep(int side, const QString &run, int64_t start, int64_t end);
    void showPendingViews(); // those whose run's events are there
    void showBanner(const QString &text, bool offerReload = false,
                    ErrorBanner::Kind kind = ErrorBanner::Kind::Error);
    void reload();
    SessionState currentState() const;
    void applyState(const SessionState &state);
    void addRecent(const QString &key, const QString &entry); // at the top of that settings list
    void addRecentPair(const QString &a, const QString &b);
    QStringList recentPairs() const;
    void updateRecentMenu();
    // Greys each entry of a Recent menu whose files are gone, its tooltip naming the one gone.
    void greyGoneEntries(QMenu *menu);
    void updateTitle();
    void swapSides();
    void showAbout();
    void showShortcuts();
    void escape();      // cancels loading, else clears a timeline's range, else its selection
    void clearKeptSummaries(); // Tools › Clear Kept Summaries: says what went in the status bar
    void focusFilter(); // the filter of the tab shown
    // A session file from the save dialog, given the session's suffix where typed without one; empty
    // when cancelled.
    QString chooseSessionFile(const QString &suggested);
    QString chooseReportFolder();
    void syncVariantSettings();
    void showDetailsDock(TimelineView *view, int64_t event); // for an event clicked in view
    void startNewPair(const QString &pathA, const QString &pathB, const QString &labelA = {},
                      const QString &labelB = {});
    void showOpenVariantsDialog();
    void clearVariants();

    ComparisonDocument *m_document = nullptr;
    QString m_sessionFile; // the session the document shown came from (Ctrl+S writes it); else empty
    // The session a load under way comes from, and its pair: adopted once that pair has loaded.
    QString m_sessionOfLoad;
    QStringList m_sessionPair;
    QString m_sampleTitle; // the sample being loaded or shown; empty for the user's own pair
    QStringList m_shownPair; // the paths of the pair shown, A then B

    ProportionalSplitter *m_splitter = nullptr; // timelines over the comparison panel
    PairTimeline *m_timeline = nullptr;
    QAction *m_maximiseFigures = nullptr, *m_maximiseTimelines = nullptr;
    ComparisonPanel *m_panel = nullptr;
    KernelDiffView *m_diffView = nullptr;
    RanksView *m_ranks = nullptr;     // runs of several GPUs; its tab shown only for them
    VariantsView *m_variants = nullptr; // more than two variants; its tab shown only for them
    PairLoader *m_variantsLoader = nullptr;
    bool m_variantsLoading = false;
    bool m_showVariantsTab = false; // once the pair of the variants has loaded
    QStringList m_variantArguments;  // as given ([LABEL=]PATH), for the dialog
    QStringList m_variantsLeftOut;   // candidates that could not be read: "label left out: why"
    QStringList m_variantRunsLeftOut; // runs of the variants that could not be read, said with the pair's
    QStringList m_variantScanNotes;   // what the variants' folder scans noticed, said the same way
    QTabWidget *m_tabs = nullptr;     // the diff view and the scope comparison
    QStringList m_highlightedKernels; // of the diff view's selected row, kept across run switches
    QTextBrowser *m_details = nullptr;
    QDockWidget *m_detailsDock = nullptr;
    ErrorBanner *m_banner = nullptr;
    QPushButton *m_bannerReload = nullptr;
    QPushButton *m_bannerRetry = nullptr; // after a failed open: that open again
    SessionState m_failedOpen;            // the pair that failed to open, until one opens
    QString m_aloneAfter;                 // the error of a first pair that failed, while its A opens alone
    bool m_lastOpenFailed = false;
    QString m_shownStatus;                // what the status bar says of the document shown
    QStringList m_changedFiles;           // files of the runs shown changed on disk since they loaded
    QHash<QString, FileStamp> m_watchedAs; // each watched file as its load began
    bool m_clearVariantsOnLoad = false;   // a pair opened on its own replaces the variants once it loads
    bool m_failedReplacedVariants = false; // and so does its Retry
    // Per side, a view to show once the events of its run (file) are there: a reloaded, swapped or
    // restored run's, a step clicked; cleared when another run is picked or a document shown.
    struct PendingView
    {
        QString file;
        int64_t start = 0, end = 0;
    } m_pendingViews[2];
    RunPicker *m_runA = nullptr;
    RunPicker *m_runB = nullptr;
    QProgressBar *m_progress = nullptr;
    QToolButton *m_cancel = nullptr;
    QLabel *m_status = nullptr;
    QMenu *m_recentMenu = nullptr, *m_recentSessionsMenu = nullptr;
    QFileSystemWatcher *m_watcher = nullptr;
    RunnerPanel *m_runner = nullptr; // made on first use, kept for its folder, log and options
    RunEvents *m_runEvents = nullptr; // the events of the runs picked for the timelines, on demand
};

} // namespace scopeline
