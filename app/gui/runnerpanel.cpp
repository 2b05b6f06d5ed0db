// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/runnerpanel.h"

#include "model/runner/hipbenchprotocol.h"

#include "widgets/panels/errorbanner.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QStandardPaths>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace scopeline {

namespace {

constexpr int kMaxLogLines = 5000;

// The field of one option: a combo box for a choice, else a line edit that takes only digits (and
// commas for a list) where the option is numeric; its range is checked as it is typed
// (hipbenchprotocol::optionProblem).
QWidget *makeOptionField(const HipbenchOption &option)
{
    if (!option.choices.isEmpty()) {
        auto *combo = new QComboBox;
        combo->addItems(option.choices);
        combo->setCurrentIndex(std::max(0, int(option.choices.indexOf(option.defaultValue))));
        return combo;
    }
    auto *edit = new QLineEdit(option.defaultValue);
    edit->setPlaceholderText(option.defaultValue);
    if (option.maximum > 0)
        edit->setValidator(new QRegularExpressionValidator(
            QRegularExpression(option.list ? QStringLiteral("[0-9,]*") : QStringLiteral("[0-9]*")), edit));
    return edit;
}

} // namespace

RunnerPanel::RunnerPanel(QWidget *parent) : QDialog(parent), m_runner(new HipbenchRunner(this))
{
    setWindowTitle(tr("Run Microbenchmark"));
    buildForm();

    connect(m_runner, &HipbenchRunner::listingFinished, this, &RunnerPanel::listingFinished);
    connect(m_runner, &HipbenchRunner::runStarted, this,
            [this](const QString &command) { m_log->appendPlainText(QStringLiteral("$ ") + command); });
    connect(m_runner, &HipbenchRunner::outputLine, m_log, &QPlainTextEdit::appendPlainText);
    connect(m_runner, &HipbenchRunner::progressChanged, this, &RunnerPanel::showProgress);
    connect(m_runner, &HipbenchRunner::pairRecorded, this,
            [this](const SessionState &state) { emit pairReady(state.pathA, state.pathB, state); });
    connect(m_runner, &HipbenchRunner::runFinished, this, &RunnerPanel::runFinished);

    resize(720, 640);
    listWorkloads();
}

void RunnerPanel::listWorkloads()
{
    m_banner->clear();
    showStatus(tr("Looking for %1…").arg(HipbenchRunner::programNames().join(tr(" or "))));
    m_runner->startListing();
    if (isListing())
        showStatus(tr("Listing the workloads of %1…").arg(program()));
    updateButtons();
}

// Shown again after the program could not be found or listed: looked for again, so that installing it
// (or setting SCOPELINE_HIPBENCH) needs no restart.
void RunnerPanel::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    if (m_shownBefore && m_runner->workloads().isEmpty() && !isListing() && !isRunning())
        listWorkloads();
    m_shownBefore = true;
}

RunnerPanel::~RunnerPanel() = default; // the runner, a child, stops what is still running

void RunnerPanel::buildForm()
{
    auto *layout = new QVBoxLayout(this);
    m_banner = new ErrorBanner;
    layout->addWidget(m_banner);

    auto *top = new QFormLayout;
    m_workload = new QComboBox;
    m_workload->setToolTip(tr("The benchmark to record; it runs two variants (A and B) to compare"));
    top->addRow(tr("&Workload:"), m_workload);
    layout->addLayout(top);
    m_description = new QLabel;
    m_description->setWordWrap(true);
    m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_description->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    layout->addWidget(m_description);

    auto *options = new QGroupBox(tr("Options"));
    m_form = new QFormLayout(options);
    layout->addWidget(options);
    m_optionsProblem = new QLabel; // why Run is disabled, while an option is out of its range
    m_optionsProblem->setObjectName(QStringLiteral("optionsProblem"));
    m_optionsProblem->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_optionsProblem->hide();
    layout->addWidget(m_optionsProblem);

    auto *folderRow = new QHBoxLayout;
    m_folder = new QLineEdit;
    m_folder->setToolTip(tr("Folder the traces and summary.json are written to; A and B are subfolders"));
    m_browse = new QPushButton(tr("&Browse…"));
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(m_browse);
    auto *folderLabel = new QLabel(tr("&Output folder:"));
    folderLabel->setBuddy(m_folder);
    auto *folderForm = new QFormLayout;
    folderForm->addRow(folderLabel, folderRow);
    layout->addLayout(folderForm);

    m_progress = new QProgressBar;
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setFormat(QString());
    m_progress->hide(); // until the first run
    layout->addWidget(m_progress);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);
    m_log = new QPlainTextEdit;
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(kMaxLogLines);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(tr("The benchmark's output appears here"));
    layout->addWidget(m_log, 1);

    auto *buttons = new QHBoxLayout;
    m_runButton = new QPushButton(tr("&Run"));
    m_runButton->setObjectName(QStringLiteral("run"));
    m_runButton->setDefault(true);
    m_cancelButton = new QPushButton(tr("&Cancel"));
    m_cancelButton->setObjectName(QStringLiteral("cancel"));
    m_cancelButton->setToolTip(tr("Stop the running benchmark (Esc)"));
    m_closeButton = new QPushButton(tr("C&lose"));
    // a run that failed or was cancelled after recording runs: those open as the pair they make
    m_openRecorded = new QPushButton(tr("&Open What Was Recorded"));
    m_openRecorded->setObjectName(QStringLiteral("openRecorded"));
    m_openRecorded->setToolTip(tr("Open the runs recorded before the run ended (its summary.json) in the "
                                  "main window"));
    m_openRecorded->hide();
    buttons->addWidget(m_openRecorded);
    buttons->addStretch(1);
    buttons->addWidget(m_runButton);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_closeButton);
    layout->addLayout(buttons);

    connect(m_workload, &QComboBox::currentIndexChanged, this, &RunnerPanel::showWorkload);
    connect(m_folder, &QLineEdit::textEdited, this, [this] { m_folderEdited = true; });
    connect(m_folder, &QLineEdit::textChanged, this, &RunnerPanel::updateButtons);
    connect(m_browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Output folder"), m_folder->text());
        if (!dir.isEmpty())
            chooseOutputFolder(dir);
    });
    connect(m_runButton, &QPushButton::clicked, this, &RunnerPanel::startRun);
    connect(m_openRecorded, &QPushButton::clicked, this, [this] {
        SessionState state;
        QString why;
        if (hipbenchprotocol::readSummary(m_runner->runFolder(), state, &why))
            emit pairReady(state.pathA, state.pathB, state);
        else
            showError(why, QString());
    });
    connect(m_cancelButton, &QPushButton::clicked, this, &RunnerPanel::cancelRun);
    connect(m_closeButton, &QPushButton::clicked, this, &QWidget::close);
}

QString RunnerPanel::program() const
{
    return m_runner->program();
}

QStringList RunnerPanel::workloads() const
{
    QStringList names;
    for (const HipbenchWorkload &w : m_runner->workloads())
        names << w.name;
    return names;
}

QString RunnerPanel::workload() const
{
    return m_workload->currentText();
}

void RunnerPanel::setWorkload(const QString &name)
{
    const int index = m_workload->findText(name);
    if (index >= 0)
        m_workload->setCurrentIndex(index);
}

QMap<QString, QString> RunnerPanel::optionValues() const
{
    QMap<QString, QString> values;
    for (QWidget *field : m_fields) {
        if (auto *combo = qobject_cast<QComboBox *>(field))
            values.insert(field->objectName(), combo->currentText());
        else if (auto *edit = qobject_cast<QLineEdit *>(field))
            values.insert(field->objectName(), edit->text().trimmed());
    }
    return values;
}

bool RunnerPanel::setOptionValue(const QString &name, const QString &value)
{
    for (QWidget *field : m_fields) {
        if (field->objectName() != name)
            continue;
        if (auto *combo = qobject_cast<QComboBox *>(field)) {
            const int index = combo->findText(value);
            if (index < 0)
                return false;
            combo->setCurrentIndex(index);
            return true;
        }
        if (auto *edit = qobject_cast<QLineEdit *>(field)) {
            edit->setText(value);
            return true;
        }
    }
    return false;
}

// As a shell would read it: ~ is the home folder, and a relative path is from the working folder.
QString RunnerPanel::outputFolder() const
{
    QString folder = m_folder->text().trimmed();
    if (folder == QLatin1String("~") || folder.startsWith(QLatin1String("~/")))
        folder = QDir::homePath() + folder.mid(1);
    return folder.isEmpty() ? folder : QDir::cleanPath(QDir::current().absoluteFilePath(folder));
}

void RunnerPanel::setOutputFolder(const QString &folder)
{
    m_folderEdited = true;
    m_folder->setText(folder);
}

void RunnerPanel::chooseOutputFolder(const QString &folder)
{
    const QDir dir(folder);
    setOutputFolder(dir.isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden)
                        ? folder
                        : dir.filePath(QFileInfo(defaultFolder()).fileName()));
}

bool RunnerPanel::isListing() const
{
    return m_runner->isListing();
}

bool RunnerPanel::isRunning() const
{
    return m_runner->isRunning();
}

bool RunnerPanel::canRun() const
{
    return !program().isEmpty() && !isListing() && !isRunning() && !m_runner->workloads().isEmpty() &&
           !outputFolder().isEmpty() && optionsProblem().isEmpty();
}

QString RunnerPanel::optionsProblem() const
{
    const int index = m_workload->currentIndex();
    if (index < 0 || index >= m_runner->workloads().size())
        return {};
    for (const HipbenchOption &option : m_runner->workloads()[index].options)
        for (QWidget *field : m_fields)
            if (auto *edit = qobject_cast<QLineEdit *>(field); edit && field->objectName() == option.name)
                if (const QString problem = hipbenchprotocol::optionProblem(option, edit->text());
                    !problem.isEmpty())
                    return problem;
    return {};
}

QString RunnerPanel::statusText() const
{
    return m_banner->isShown() ? m_banner->text() : m_status->text();
}

QString RunnerPanel::errorText() const
{
    return m_banner->text();
}

QString RunnerPanel::errorDetails() const
{
    return m_banner->details();
}

QString RunnerPanel::logText() const
{
    return m_log->toPlainText();
}

void RunnerPanel::listingFinished(bool succeeded)
{
    if (!succeeded) {
        showError(m_runner->errorText(), m_runner->errorDetails());
    } else {
        const QSignalBlocker blocker(m_workload);
        m_workload->clear();
        for (const HipbenchWorkload &w : m_runner->workloads()) {
            m_workload->addItem(w.name);
            m_workload->setItemData(m_workload->count() - 1, w.description, Qt::ToolTipRole);
        }
        m_workload->setCurrentIndex(0);
        showWorkload(0);
        const QString noDriver = HipbenchRunner::missingGpuDriver();
        showStatus(noDriver.isEmpty() ? tr("Ready. Recording needs a GPU; the program is %1").arg(program())
                                      : tr("Ready, but %1. The program is %2").arg(noDriver, program()));
    }
    updateButtons();
    emit listingDone();
}

void RunnerPanel::showWorkload(int index)
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_fields.clear();
    const QList<HipbenchWorkload> &workloads = m_runner->workloads();
    if (index < 0 || index >= workloads.size())
        return;
    const HipbenchWorkload &w = workloads[index];
    m_description->setText(w.description);
    for (const HipbenchOption &option : w.options) {
        QString tip =
            option.help + QLatin1Char('\n') + tr("--%1, default %2").arg(option.name, option.defaultValue);
        if (option.maximum > 0)
            tip += tr(", from %1 to %2").arg(option.minimum).arg(option.maximum);
        QWidget *field = makeOptionField(option);
        if (auto *edit = qobject_cast<QLineEdit *>(field))
            connect(edit, &QLineEdit::textChanged, this, &RunnerPanel::updateButtons);
        field->setObjectName(option.name);
        field->setToolTip(tip);
        auto *label = new QLabel(option.name + QLatin1Char(':'));
        label->setToolTip(tip);
        label->setBuddy(field);
        m_form->addRow(label, field);
        m_fields << field;
    }
    if (!m_folderEdited)
        m_folder->setText(defaultFolder());
    updateButtons();
}

QString RunnerPanel::defaultFolder() const
{
    const QString base = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
                         QStringLiteral("/runs/") + workload() + QLatin1Char('-') +
                         QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    QString folder = base;
    for (int i = 2; QFileInfo::exists(folder); ++i)
        folder = base + QLatin1Char('-') + QString::number(i);
    return folder;
}

void RunnerPanel::startRun()
{
    if (!canRun())
        return;
    m_log->clear();
    m_banner->clear();
    m_openRecorded->hide();
    // said before a GPU is asked for: the program refuses it too
    if (const QDir folder(outputFolder());
        folder.exists() && !folder.isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden)) {
        showError(tr("%1 is not empty: record into a new or empty folder (Scopeline reads every run "
                     "folder in it, an earlier recording's too)")
                      .arg(QDir::toNativeSeparators(folder.path())),
                  QString());
        return;
    }
    m_progress->setRange(0, 0); // busy until the first progress line gives the total
    m_progress->setFormat(QString());
    m_progress->show();
    showStatus(tr("Running %1…").arg(workload()));
    m_runner->startRun(workload(), optionValues(), outputFolder());
    updateButtons();
}

void RunnerPanel::cancelRun()
{
    if (!isRunning() || m_runner->isCancelling())
        return;
    showStatus(tr("Cancelling…"));
    m_runner->cancelRun();
    updateButtons();
}

void RunnerPanel::showProgress(int done, int total, const QString &message)
{
    const int maximum = std::max(total, 1);
    m_progress->setRange(0, maximum);
    m_progress->setValue(std::min(done, maximum));
    QString shown = message;
    shown.replace(QLatin1Char('%'), QStringLiteral("%%")); // the format's own placeholders start with %
    m_progress->setFormat(shown.isEmpty() ? QStringLiteral("%v/%m") : QStringLiteral("%v/%m  ") + shown);
}

void RunnerPanel::runFinished(HipbenchRunner::Outcome outcome, const QString &message)
{
    const bool succeeded = outcome == HipbenchRunner::Outcome::Succeeded;
    if (m_progress->maximum() == 0) { // never got a progress line: stop the busy animation
        m_progress->setRange(0, 1);
        m_progress->setValue(succeeded ? 1 : 0);
        m_progress->setVisible(succeeded); // an empty bar under a failure says nothing
    }
    m_log->appendPlainText(message);
    if (outcome == HipbenchRunner::Outcome::Failed) {
        showError(message, m_runner->errorDetails());
        if (!isVisible()) // closed while it ran
            show();
    } else
        showStatus(succeeded ? message + tr("; opened in the main window.") : message);
    SessionState recorded;
    m_openRecorded->setVisible(!succeeded &&
                               hipbenchprotocol::readSummary(m_runner->runFolder(), recorded, nullptr));
    if (!m_folderEdited && QDir(outputFolder()).exists())
        m_folder->setText(defaultFolder()); // the next run must not record over this one
    updateButtons();
    emit runDone(succeeded);
}

void RunnerPanel::showStatus(const QString &text)
{
    m_status->setText(text);
    m_status->show();
}

void RunnerPanel::showError(const QString &text, const QString &details)
{
    m_banner->showError(text, details);
    m_status->clear(); // the banner says it; a stale "Running…" below it would not
    m_status->hide();
}

void RunnerPanel::updateButtons()
{
    const bool running = isRunning();
    m_runButton->setEnabled(canRun());
    const QString problem = optionsProblem();
    m_optionsProblem->setText(problem);
    m_optionsProblem->setVisible(!problem.isEmpty());
    m_cancelButton->setEnabled(running && !m_runner->isCancelling());
    m_workload->setEnabled(!running && !m_runner->workloads().isEmpty());
    for (QWidget *field : m_fields)
        field->setEnabled(!running);
    m_folder->setEnabled(!running);
    m_browse->setEnabled(!running);
}

void RunnerPanel::reject()
{
    // Esc stops a run first; a second Esc closes the dialog.
    if (isRunning())
        cancelRun();
    else
        QDialog::reject();
}

void RunnerPanel::closeEvent(QCloseEvent *event)
{
    // A run goes on behind the main window: what it records opens there, and a failure brings the panel
    // back to say why (Esc or Cancel stops it). It had been cancelled without a word.
    QDialog::done(QDialog::Rejected);
    event->accept();
}

} // namespace scopeline
