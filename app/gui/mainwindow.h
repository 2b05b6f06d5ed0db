// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Scopeline main window: a document of two trace folders (A = baseline, B = candidate) shown as
// stacked timelines over the comparison panel, with loading progress, an error banner, sessions,
// recent pairs and report export.

#include "model/pairloader.h"
#include "model/sessionfile.h"

#include <QMainWindow>

class QComboBox;
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
class PairTimeline;
class ProportionalSplitter;
class RunnerPanel;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Loads a pair; `state` carries the scopes, modes and view to apply once it is loaded.
    void openPair(const QString &pathA, const QString &pathB, const SessionState &state = {});
    bool openSession(const QString &file);
    bool saveSession(const QString &file);
    bool exportReport(const QString &folder);
    bool isLoading() const;
    // Error or notice shown inline above the views (never a modal dialog mid-load); empty hides it.
    QString bannerText() const;
    const QList<LoadedRun> &runsA() const { return m_a; }
    const QList<LoadedRun> &runsB() const { return m_b; }
    ComparisonPanel *panel() const { return m_panel; }
    KernelDiffView *diffView() const { return m_diffView; }
    QTabWidget *tabs() const { return m_tabs; } // "What changed" and "Scopes"
    PairTimeline *timeline() const { return m_timeline; }

signals:
    // A load has ended: shown, failed (banner) or cancelled.
    void loadDone();

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createActions();
    void showOpenDialog(const QString &presetA = {}, const QString &presetB = {});
    void showRunner();
    void loadFinished(int job, const PairLoadResult &result);
    void showLoadResult(const PairLoadResult &result);
    void showRuns();
    void showBanner(const QString &text, bool offerReload = false);
    SessionState currentState() const;
    void applyState(const SessionState &state);
    void addRecentPair(const QString &a, const QString &b);
    QStringList recentPairs() const;
    void updateRecentMenu();
    void updateTitle();
    void swapSides();
    void showAbout();
    void showShortcuts();

    PairLoader m_loader;
    int m_job = 0;
    bool m_loading = false; // until the latest job's result is shown
    SessionState m_pending; // applied when the running load finishes
    SessionState m_state;   // paths of the document shown
    QList<LoadedRun> m_a, m_b;
    QString m_sessionFile;

    ProportionalSplitter *m_splitter = nullptr; // timelines over the comparison panel
    PairTimeline *m_timeline = nullptr;
    ComparisonPanel *m_panel = nullptr;
    KernelDiffView *m_diffView = nullptr;
    QTabWidget *m_tabs = nullptr;       // the diff view and the scope comparison
    QStringList m_highlightedKernels; // of the diff view's selected row, kept across run switches
    QTextBrowser *m_details = nullptr;
    QWidget *m_banner = nullptr;
    QLabel *m_bannerLabel = nullptr;
    QPushButton *m_bannerReload = nullptr;
    QComboBox *m_runA = nullptr;
    QComboBox *m_runB = nullptr;
    QProgressBar *m_progress = nullptr;
    QToolButton *m_cancel = nullptr;
    QLabel *m_status = nullptr;
    QMenu *m_recentMenu = nullptr;
    QFileSystemWatcher *m_watcher = nullptr;
    RunnerPanel *m_runner = nullptr; // made on first use, kept for its folder, log and options
};

} // namespace scopeline
