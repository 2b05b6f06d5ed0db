// SPDX-License-Identifier: GPL-3.0-or-later
#include "opendialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QFileDialog>
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

namespace scopeline {

namespace {
constexpr int kMaxRunsListed = 200;
}

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
    folder->setToolTip(tr("Choose a trace folder (JAX profile run, PyTorch traces, rocprof output)"));
    file->setToolTip(tr("Choose a single trace file (.json or .json.gz)"));
    row->addWidget(folder);
    row->addWidget(file);
    layout->addLayout(row);
    side.runs = new QListWidget;
    side.runs->setToolTip(tr("The runs found; they pair with the other side's runs in this order"));
    layout->addWidget(side.runs, 1);
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
            tr("Traces (*.json *.json.gz *.sqlite *_results.db);;All files (*)"));
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
    using Scan = std::pair<std::vector<TraceRun>, QString>;
    auto *watcher = new QFutureWatcher<Scan>(this);
    connect(watcher, &QFutureWatcher<Scan>::finished, this, [this, &side, watcher, path, generation] {
        watcher->deleteLater();
        if (generation != side.generation)
            return;
        side.scanning = false;
        const Scan scan = watcher->result();
        showRuns(side, path, scan.first, scan.second);
    });
    watcher->setFuture(QtConcurrent::run([path] {
        Scan scan;
        if (!path.isEmpty())
            scan.first = TraceFolder::scan(path, &scan.second);
        return scan;
    }));
}

void OpenDialog::showRuns(Side &side, const QString &path, const std::vector<TraceRun> &runs,
                          const QString &error)
{
    side.runs->clear();
    for (std::size_t i = 0; i < runs.size() && i < std::size_t(kMaxRunsListed); ++i) {
        auto *item = new QListWidgetItem(runs[i].name, side.runs);
        item->setToolTip(runs[i].file);
    }
    side.status->setText(
        path.isEmpty() ? tr("Choose a folder or file.")
        : runs.empty() ? QStringLiteral("<span style='color:#b00020'>%1</span>").arg(error.toHtmlEscaped())
                       : tr("%n run(s) found.", nullptr, int(runs.size())));
    updateOpenButton();
}

void OpenDialog::updateOpenButton()
{
    const bool ready = !m_a.scanning && !m_b.scanning && m_a.runs->count() > 0 && m_b.runs->count() > 0;
    if (m_buttons)
        m_buttons->button(QDialogButtonBox::Open)->setEnabled(ready);
}

QStringList OpenDialog::runsListed(int side) const
{
    const Side &s = side == 0 ? m_a : m_b;
    QStringList names;
    for (int i = 0; i < s.runs->count(); ++i)
        names.append(s.runs->item(i)->text());
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
