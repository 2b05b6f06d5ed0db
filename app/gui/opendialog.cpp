// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/opendialog.h"

#include "model/loading/traceloader.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdlib>

namespace scopeline {

namespace {
constexpr int kMaxRunsListed = 200;
} // namespace

OpenDialog::OpenDialog(const QStringList &recentPairs, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Open Trace Pair"));
    setAcceptDrops(true);
    auto *layout = new QVBoxLayout(this);

    m_recent = new QComboBox;
    m_recent->addItem(tr("Recent pairs…"));
    for (const QString &pair : recentPairs) {
        const QStringList paths = pair.split(QLatin1Char('\n'));
        if (paths.size() == 2)
            m_recent->addItem(QStringLiteral("%1  ⟷  %2").arg(paths[0], paths[1]), paths);
    }
    m_recent->setEnabled(m_recent->count() > 1);
    connect(m_recent, &QComboBox::activated, this, [this](int index) {
        const QStringList paths = m_recent->itemData(index).toStringList();
        if (paths.size() == 2)
            setPaths(paths[0], paths[1]);
    });
    layout->addWidget(m_recent);

    auto *sides = new QHBoxLayout;
    sides->addWidget(
        makeSide(m_a, tr("A — baseline"), tr("The reference variant, e.g. matmul or eager launches")));
    sides->addWidget(
        makeSide(m_b, tr("B — candidate"), tr("The variant to judge, e.g. einsum or a CUDA/HIP graph")));
    layout->addLayout(sides, 1);

    auto *hint = new QLabel(tr("Drop folders or trace files here: the first goes to A, the second to B. "
                               "Runs pair by sorted name; a pooled comparison is always added."));
    hint->setWordWrap(true);
    hint->setEnabled(false);
    layout->addWidget(hint);

    m_pairing = new QLabel;
    m_pairing->setWordWrap(true);
    m_pairing->setStyleSheet(QStringLiteral("color: #8a6100;"));
    m_pairing->hide();
    layout->addWidget(m_pairing);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);
    rescan(m_a);
    rescan(m_b);
    resize(900, 480);
}

QWidget *OpenDialog::makeSide(Side &side, const QString &title, const QString &tooltip)
{
    auto *box = new QGroupBox(title);
    box->setToolTip(tooltip);
    auto *layout = new QVBoxLayout(box);
    auto *row = new QHBoxLayout;
    side.path = new QLineEdit;
    side.path->setPlaceholderText(tr("Trace folder, run folder, file or 'pattern_*'"));
    side.path->setClearButtonEnabled(true);
    row->addWidget(side.path, 1);
    auto *folder = new QPushButton(tr("Folder…"));
    auto *file = new QPushButton(tr("File…"));
    // The formats come from the loader's list of readers, so that a new one shows up here too.
    const QString formats = TraceLoader::formats().join(QStringLiteral("; "));
    folder->setToolTip(tr("Choose a trace folder: a run folder or a parent of run folders, searched for %1")
                           .arg(formats));
    file->setToolTip(tr("Choose a single trace file: %1").arg(formats));
    row->addWidget(folder);
    row->addWidget(file);
    layout->addLayout(row);
    side.list = new QListWidget;
    side.list->setToolTip(tr("The runs found; they pair with the other side's runs in this order"));
    layout->addWidget(side.list, 1);
    side.status = new QLabel;
    side.status->setWordWrap(true);
    layout->addWidget(side.status);

    // Typing "/" on the way to "/data/traces" must not walk the disk on every key.
    side.debounce = new QTimer(this);
    side.debounce->setSingleShot(true);
    side.debounce->setInterval(250);
    connect(side.debounce, &QTimer::timeout, this, [this, &side] { rescan(side); });
    connect(side.path, &QLineEdit::textChanged, this, [this, &side] {
        ++side.generation; // what a running scan finds is stale now
        side.scanning = true;
        updateOpenButton();
        side.debounce->start();
    });
    connect(folder, &QPushButton::clicked, this, [this, &side] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Trace folder"), side.path->text());
        if (!dir.isEmpty())
            side.path->setText(dir);
    });
    connect(file, &QPushButton::clicked, this, [this, &side] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Trace file"), side.path->text(),
            tr("Traces (%1);;All files (*)").arg(TraceLoader::fileNamePatterns().join(QLatin1Char(' '))));
        if (!path.isEmpty())
            side.path->setText(path);
    });
    return box;
}

void OpenDialog::rescan(Side &side)
{
    const QString path = side.path->text().trimmed();
    const int generation = ++side.generation;
    side.scanning = true;
    side.status->setText(path.isEmpty() ? QString() : tr("Looking for runs…"));
    updateOpenButton();
    struct Scan
    {
        std::vector<TraceRun> runs;
        QString error;
        QStringList problems; // per run listed: why it is not a trace, empty when it looks like one
        QStringList notes;    // links passed over: each trace counts once
    };
    auto *watcher = new QFutureWatcher<Scan>(this);
    connect(watcher, &QFutureWatcher<Scan>::finished, this, [this, &side, watcher, path, generation] {
        watcher->deleteLater();
        if (generation != side.generation)
            return;
        side.scanning = false;
        const Scan scan = watcher->result();
        showRuns(side, path, scan.runs, scan.error, scan.problems, scan.notes);
    });
    watcher->setFuture(QtConcurrent::run([path] {
        Scan scan;
        if (!path.isEmpty())
            scan.runs = TraceFolder::scan(path, &scan.error, &scan.notes);
        for (std::size_t i = 0; i < scan.runs.size() && i < std::size_t(kMaxRunsListed); ++i)
            scan.problems.append(TraceLoader::notATrace(scan.runs[i].file));
        return scan;
    }));
}

void OpenDialog::showRuns(Side &side, const QString &path, const std::vector<TraceRun> &runs,
                          const QString &error, const QStringList &problems, const QStringList &notes)
{
    side.list->clear();
    for (std::size_t i = 0; i < runs.size() && i < std::size_t(kMaxRunsListed); ++i) {
        auto *item = new QListWidgetItem(runs[i].label(), side.list);
        item->setToolTip(runs[i].file);
        item->setData(Qt::UserRole + 1, runs[i].label());
        const QString problem = i < std::size_t(problems.size()) ? problems[qsizetype(i)] : QString();
        if (!problem.isEmpty()) {
            item->setText(tr("%1 — %2").arg(runs[i].label(), problem));
            item->setForeground(QColor(0xb0, 0x00, 0x20));
            item->setData(Qt::UserRole, problem);
            item->setToolTip(tr("%1\n%2: Scopeline cannot read it").arg(runs[i].file, problem));
        }
    }
    std::vector<TraceRun> traces; // the entries that look like traces
    for (std::size_t i = 0; i < runs.size(); ++i)
        if (i >= std::size_t(problems.size()) || problems[int(i)].isEmpty())
            traces.push_back(runs[i]);
    side.traces = int(traces.size());
    side.runs = TraceFolder::runCount(traces);
    const int bad = int(runs.size()) - side.traces;
    const QString red = QStringLiteral("<span style='color:#b00020'>%1</span>");
    side.status->setText(
        path.isEmpty() ? tr("Choose a folder or file.")
        : runs.empty() ? red.arg(error.toHtmlEscaped())
        : side.traces == 0 && bad == 1
            ? red.arg(
                  tr("%1: %2").arg(QFileInfo(runs.front().file).fileName(), problems.front()).toHtmlEscaped())
        : side.traces == 0 ? red.arg(tr("None of the %n file(s) is a trace.", nullptr, bad))
        : bad > 0          ? tr("%n run(s) found", nullptr, side.runs) +
                        red.arg(tr("; %n file(s) are not traces (marked) and are left out.", nullptr, bad))
        : side.runs == side.traces
            ? tr("%n run(s) found.", nullptr, side.runs)
            : tr("%n run(s) of %1 rank files found.", nullptr, side.runs).arg(runs.size()));
    if (!runs.empty() && !notes.isEmpty()) { // say why a link's run is not listed twice, and partial worlds
        const QStringList links = notes.filter(QStringLiteral("counted once"));
        QString text = side.status->text();
        if (!links.isEmpty())
            text += QLatin1Char(' ') + tr("%n link(s) to runs already listed counted once.", nullptr, int(links.size()));
        for (const QString &note : notes)
            if (!links.contains(note))
                text += QLatin1Char(' ') + note.toHtmlEscaped() + QLatin1Char('.');
        side.status->setText(text);
        side.status->setToolTip(notes.join(QLatin1Char('\n')));
    } else {
        side.status->setToolTip({});
    }
    updateOpenButton();
}

void OpenDialog::updatePairing()
{
    // Runs pair by sorted order; a side with more runs leaves some without a partner.
    if (!m_pairing)
        return;
    const int a = m_a.runs, b = m_b.runs;
    const bool uneven = !m_a.scanning && !m_b.scanning && a > 0 && b > 0 && a != b;
    m_pairing->setVisible(uneven);
    if (uneven)
        m_pairing->setText(tr("A has %1 runs and B %2: they pair in sorted order, so %3 run(s) of %4 have no "
                              "partner and count only in the pooled comparison.")
                               .arg(a)
                               .arg(b)
                               .arg(std::abs(a - b))
                               .arg(a > b ? QStringLiteral("A") : QStringLiteral("B")));
}

QString OpenDialog::pairingNote() const
{
    return m_pairing->isHidden() ? QString() : m_pairing->text();
}

QString OpenDialog::statusText(int side) const
{
    return (side == 0 ? m_a : m_b).status->text();
}

void OpenDialog::updateOpenButton()
{
    updatePairing();
    const bool ready = !m_a.scanning && !m_b.scanning && m_a.traces > 0 && m_b.traces > 0;
    if (m_buttons)
        m_buttons->button(QDialogButtonBox::Open)->setEnabled(ready);
}

QStringList OpenDialog::runsListed(int side) const
{
    const Side &s = side == 0 ? m_a : m_b;
    QStringList names;
    for (int i = 0; i < s.list->count(); ++i)
        names.append(s.list->item(i)->data(Qt::UserRole + 1).toString());
    return names;
}

bool OpenDialog::isScanning() const
{
    return m_a.scanning || m_b.scanning;
}

QString OpenDialog::pathA() const
{
    return m_a.path->text().trimmed();
}

QString OpenDialog::pathB() const
{
    return m_b.path->text().trimmed();
}

void OpenDialog::setPaths(const QString &a, const QString &b)
{
    m_a.path->setText(a);
    m_b.path->setText(b);
}

void OpenDialog::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void OpenDialog::dropEvent(QDropEvent *event)
{
    // Dropped on a side's half: that side; several items: A then B.
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths.append(url.toLocalFile());
    if (paths.size() >= 2) {
        setPaths(paths[0], paths[1]);
    } else if (paths.size() == 1) {
        (event->position().x() < width() / 2 ? m_a : m_b).path->setText(paths[0]);
    }
    event->acceptProposedAction();
}

} // namespace scopeline
