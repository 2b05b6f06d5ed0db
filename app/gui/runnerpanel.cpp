// SPDX-License-Identifier: GPL-3.0-or-later
#include "runnerpanel.h"

#include "model/scopematcher.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QIntValidator>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QStandardPaths>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <climits>

namespace scopeline {

namespace {

const QString kProgramName = QStringLiteral("scopeline-hipbench");
constexpr int kKillAfterMs = 3000;
constexpr int kMaxLogLines = 5000;

QString quoted(const QString &arg)
{
    return arg.contains(QLatin1Char(' ')) || arg.isEmpty() ? QLatin1Char('\'') + arg + QLatin1Char('\'')
                                                           : arg;
}

// What scopeline-hipbench's exit status means (see its usage text).
QString exitMeaning(int code)
{
    switch (code) {
    case 1:
        return RunnerPanel::tr("bad usage");
    case 2:
        return RunnerPanel::tr("cannot write the output folder");
    case 3:
        return RunnerPanel::tr("no GPU or a GPU error");
    default:
        return RunnerPanel::tr("unexpected failure");
    }
}

QString lastLine(const QByteArray &output)
{
    const QList<QByteArray> lines = output.trimmed().split('\n');
    return lines.isEmpty() ? QString() : QString::fromLocal8Bit(lines.last()).trimmed();
}

} // namespace

RunnerPanel::RunnerPanel(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Run Microbenchmark"));
    auto *layout = new QVBoxLayout(this);

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
            setOutputFolder(dir);
    });
    connect(m_runButton, &QPushButton::clicked, this, &RunnerPanel::startRun);
    connect(m_cancelButton, &QPushButton::clicked, this, &RunnerPanel::cancelRun);
    connect(m_closeButton, &QPushButton::clicked, this, &QWidget::close);

    m_killTimer = new QTimer(this);
    m_killTimer->setSingleShot(true);
    m_killTimer->setInterval(kKillAfterMs);
    connect(m_killTimer, &QTimer::timeout, this, [this] {
        if (isRunning())
            m_run.kill();
    });

    connect(&m_listing, &QProcess::finished, this, &RunnerPanel::listingFinished);
    connect(&m_listing, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return; // finished() follows and says what happened
        showStatus(tr("Cannot start %1: %2").arg(m_program, m_listing.errorString()), true);
        updateButtons();
        emit listingDone();
    });
    connect(&m_run, &QProcess::readyReadStandardOutput, this,
            [this] { readRunOutput(QProcess::StandardOutput); });
    connect(&m_run, &QProcess::readyReadStandardError, this,
            [this] { readRunOutput(QProcess::StandardError); });
    connect(&m_run, &QProcess::finished, this, &RunnerPanel::runFinished);
    connect(&m_run, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            runFailedToStart();
    });

    resize(720, 640);
    startListing();
}

RunnerPanel::~RunnerPanel()
{
    // The processes outlive this object's members otherwise: their finished() must not reach it, and a
    // benchmark left running would keep the GPU busy with nobody to read its output.
    disconnect(&m_listing, nullptr, this, nullptr);
    disconnect(&m_run, nullptr, this, nullptr);
    for (QProcess *process : {&m_listing, &m_run})
        if (process->state() != QProcess::NotRunning) {
            process->kill();
            process->waitForFinished(1000);
        }
}

QString RunnerPanel::findProgram(QString *where)
{
    const QString env = qEnvironmentVariable("SCOPELINE_HIPBENCH");
    QStringList candidates;
    if (!env.isEmpty()) {
        candidates << env; // an explicit choice: no fallback that would hide a typo
    } else {
        const QString dir = QCoreApplication::applicationDirPath();
        candidates << dir + QLatin1Char('/') + kProgramName                     // installed
                   << dir + QStringLiteral("/../hipbench/") + kProgramName      // build/app/gui
                   << dir + QStringLiteral("/../app/hipbench/") + kProgramName; // build/tests
    }
    for (const QString &candidate : candidates) {
        const QFileInfo info(candidate);
        if (info.isFile() && info.isExecutable())
            return info.absoluteFilePath();
    }
    if (env.isEmpty()) {
        const QString found = QStandardPaths::findExecutable(kProgramName);
        if (!found.isEmpty())
            return found;
    }
    if (where) {
        QStringList places;
        for (const QString &candidate : candidates)
            places << QDir::cleanPath(candidate);
        *where = env.isEmpty() ? tr("looked at %1 and on PATH").arg(places.join(QStringLiteral(", ")))
                               : tr("SCOPELINE_HIPBENCH is %1, which is not an executable file").arg(env);
    }
    return {};
}

QStringList RunnerPanel::workloads() const
{
    QStringList names;
    for (const Workload &w : m_workloads)
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

QString RunnerPanel::outputFolder() const
{
    return m_folder->text().trimmed();
}

void RunnerPanel::setOutputFolder(const QString &folder)
{
    m_folderEdited = true;
    m_folder->setText(folder);
}

bool RunnerPanel::canRun() const
{
    if (m_program.isEmpty() || isListing() || isRunning() || m_workloads.isEmpty() ||
        outputFolder().isEmpty())
        return false;
    for (QWidget *field : m_fields)
        if (auto *edit = qobject_cast<QLineEdit *>(field); edit && !edit->hasAcceptableInput())
            return false;
    return true;
}

QString RunnerPanel::statusText() const
{
    return m_status->text();
}

QString RunnerPanel::logText() const
{
    return m_log->toPlainText();
}

void RunnerPanel::startListing()
{
    QString where;
    m_program = findProgram(&where);
    if (m_program.isEmpty()) {
        showStatus(tr("%1 was not found: %2. It is built with the app when CUDA (nvcc) is installed; "
                      "set SCOPELINE_HIPBENCH to use another one.")
                       .arg(kProgramName, where),
                   true);
        updateButtons();
        return;
    }
    showStatus(tr("Listing the workloads of %1…").arg(m_program));
    m_listing.start(m_program, {QStringLiteral("--list"), QStringLiteral("--json")});
    updateButtons();
}

void RunnerPanel::listingFinished(int exitCode, QProcess::ExitStatus status)
{
    const QString command = m_program + QStringLiteral(" --list --json");
    const QString stderrLine = lastLine(m_listing.readAllStandardError());
    const QByteArray output = m_listing.readAllStandardOutput();
    auto fail = [&](const QString &why) {
        showStatus(tr("%1 failed: %2").arg(command, why), true);
        updateButtons();
        emit listingDone();
    };
    if (status == QProcess::CrashExit)
        return fail(tr("it crashed") +
                    (stderrLine.isEmpty() ? QString() : QStringLiteral(": ") + stderrLine));
    if (exitCode != 0)
        return fail(tr("exit status %1").arg(exitCode) +
                    (stderrLine.isEmpty() ? QString() : QStringLiteral(": ") + stderrLine));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(output, &error);
    if (!doc.isArray())
        return fail(
            error.error != QJsonParseError::NoError
                ? tr("its output is not JSON (%1 at offset %2)").arg(error.errorString()).arg(error.offset)
                : tr("its output is not a JSON array of workloads"));
    m_workloads.clear();
    for (const QJsonValue &value : doc.array()) {
        const QJsonObject object = value.toObject();
        Workload w;
        w.name = object.value(QStringLiteral("name")).toString();
        w.description = object.value(QStringLiteral("description")).toString();
        if (w.name.isEmpty())
            continue;
        for (const QJsonValue &optionValue : object.value(QStringLiteral("options")).toArray()) {
            const QJsonObject o = optionValue.toObject();
            Option option;
            option.name = o.value(QStringLiteral("name")).toString();
            option.defaultValue = o.value(QStringLiteral("default")).toVariant().toString();
            option.help = o.value(QStringLiteral("help")).toString();
            for (const QJsonValue &choice : o.value(QStringLiteral("choices")).toArray())
                option.choices << choice.toString();
            if (!option.name.isEmpty())
                w.options << option;
        }
        m_workloads << w;
    }
    if (m_workloads.isEmpty())
        return fail(tr("it listed no workloads"));

    const QSignalBlocker blocker(m_workload);
    m_workload->clear();
    for (const Workload &w : m_workloads) {
        m_workload->addItem(w.name);
        m_workload->setItemData(m_workload->count() - 1, w.description, Qt::ToolTipRole);
    }
    m_workload->setCurrentIndex(0);
    showWorkload(0);
    showStatus(tr("Ready. Recording needs a GPU; the program is %1").arg(m_program));
    updateButtons();
    emit listingDone();
}

void RunnerPanel::showWorkload(int index)
{
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    m_fields.clear();
    if (index < 0 || index >= m_workloads.size())
        return;
    const Workload &w = m_workloads[index];
    m_description->setText(w.description);
    static const QRegularExpression intList(QStringLiteral("^\\d+(,\\d+)+$"));
    for (const Option &option : w.options) {
        const QString tip =
            option.help + QLatin1Char('\n') + tr("--%1, default %2").arg(option.name, option.defaultValue);
        QWidget *field = nullptr;
        if (!option.choices.isEmpty()) {
            auto *combo = new QComboBox;
            combo->addItems(option.choices);
            combo->setCurrentIndex(std::max(0, int(option.choices.indexOf(option.defaultValue))));
            field = combo;
        } else {
            auto *edit = new QLineEdit(option.defaultValue);
            edit->setPlaceholderText(option.defaultValue);
            bool isInt = false;
            const qlonglong number = option.defaultValue.toLongLong(&isInt);
            // The program checks the ranges; the form only keeps what is typed a number (or list of them).
            if (isInt)
                edit->setValidator(new QIntValidator(number < 0 ? INT_MIN : 0, INT_MAX, edit));
            else if (intList.match(option.defaultValue).hasMatch())
                edit->setValidator(new QRegularExpressionValidator(
                    QRegularExpression(QStringLiteral("\\d+(,\\d+)*")), edit));
            connect(edit, &QLineEdit::textChanged, this, &RunnerPanel::updateButtons);
            field = edit;
        }
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
    m_runFolder = outputFolder();
    QStringList args{QStringLiteral("run"), workload(), QStringLiteral("--out"), m_runFolder};
    const QMap<QString, QString> values = optionValues();
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        args << QStringLiteral("--") + it.key() << it.value();

    m_cancelling = false;
    m_lastError.clear();
    m_partial[0].clear();
    m_partial[1].clear();
    m_log->clear();
    QStringList shown{quoted(m_program)};
    for (const QString &arg : args)
        shown << quoted(arg);
    appendLog(QStringLiteral("$ ") + shown.join(QLatin1Char(' ')));
    m_progress->setRange(0, 0); // busy until the first progress line gives the total
    m_progress->show();
    m_progress->setFormat(QString());
    showStatus(tr("Running %1…").arg(workload()));
    m_run.start(m_program, args);
    updateButtons();
}

void RunnerPanel::cancelRun()
{
    if (!isRunning() || m_cancelling)
        return;
    m_cancelling = true;
    showStatus(tr("Cancelling…"));
    m_run.terminate();
    m_killTimer->start();
    updateButtons();
}

void RunnerPanel::readRunOutput(QProcess::ProcessChannel channel, bool flush)
{
    QByteArray &buffer = m_partial[channel == QProcess::StandardError ? 1 : 0];
    buffer +=
        channel == QProcess::StandardError ? m_run.readAllStandardError() : m_run.readAllStandardOutput();
    static const QRegularExpression progress(QStringLiteral("^progress: (\\d+)/(\\d+)\\s*(.*)$"));
    qsizetype start = 0;
    for (;;) {
        qsizetype end = buffer.indexOf('\n', start);
        if (end < 0 && !(flush && start < buffer.size()))
            break;
        if (end < 0)
            end = buffer.size();
        const QString line = QString::fromLocal8Bit(buffer.mid(start, end - start)).trimmed();
        start = end + 1;
        if (line.isEmpty())
            continue;
        if (channel == QProcess::StandardError) {
            const QRegularExpressionMatch match = progress.match(line);
            if (match.hasMatch()) {
                const int total = match.captured(2).toInt();
                m_progress->setRange(0, std::max(total, 1));
                m_progress->setValue(std::min(match.captured(1).toInt(), std::max(total, 1)));
                QString message = match.captured(3);
                message.replace(QLatin1Char('%'), QStringLiteral("%%"));
                m_progress->setFormat(message.isEmpty() ? QStringLiteral("%v/%m")
                                                        : QStringLiteral("%v/%m  ") + message);
                continue;
            }
            m_lastError = line;
        }
        appendLog(line);
    }
    buffer.remove(0, std::min(start, buffer.size()));
}

void RunnerPanel::runFinished(int exitCode, QProcess::ExitStatus status)
{
    m_killTimer->stop();
    readRunOutput(QProcess::StandardOutput, true);
    readRunOutput(QProcess::StandardError, true);
    const QString said = m_lastError.isEmpty() ? QString() : QStringLiteral(": ") + m_lastError;
    if (m_cancelling)
        return endRun(false, tr("Cancelled. What was recorded so far is in %1").arg(m_runFolder));
    if (status == QProcess::CrashExit)
        return endRun(false, tr("%1 crashed%2").arg(m_program, said));
    if (exitCode != 0)
        return endRun(false, tr("%1 failed with exit status %2 (%3)%4")
                                 .arg(m_program)
                                 .arg(exitCode)
                                 .arg(exitMeaning(exitCode), said));
    openSummary();
}

void RunnerPanel::runFailedToStart()
{
    m_killTimer->stop();
    endRun(false, tr("Cannot start %1: %2").arg(m_program, m_run.errorString()));
}

bool RunnerPanel::readSummary(const QString &folder, SessionState &state, QString *error)
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    const QString file = folder + QStringLiteral("/summary.json");
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly))
        return fail(tr("%1 cannot be read: %2").arg(file, in.errorString()));
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(in.readAll(), &parse);
    if (!doc.isObject())
        return fail(
            tr("%1 is not a JSON object%2")
                .arg(file,
                     parse.error != QJsonParseError::NoError
                         ? QStringLiteral(" (%1 at offset %2)").arg(parse.errorString()).arg(parse.offset)
                         : QString()));
    const QJsonObject summary = doc.object();
    const QJsonObject a = summary.value(QStringLiteral("a")).toObject();
    const QJsonObject b = summary.value(QStringLiteral("b")).toObject();
    SessionState read;
    read.pathA = a.value(QStringLiteral("path")).toString();
    read.pathB = b.value(QStringLiteral("path")).toString();
    if (read.pathA.isEmpty())
        return fail(tr("%1 names no folder for side A").arg(file));
    if (read.pathB.isEmpty()) // e.g. --mode eager: one variant is a recording, not a pair
        return fail(tr("%1 holds only %2 (%3): choose both variants in the options to record a pair")
                        .arg(file, a.value(QStringLiteral("label")).toString(), read.pathA));
    for (const QString &path : {read.pathA, read.pathB})
        if (!QFileInfo(path).isDir())
            return fail(tr("%1 names %2, which is not a folder").arg(file, path));
    const QJsonValue scopes = summary.value(QStringLiteral("scopes"));
    if (!scopes.isUndefined() && !scopes.isArray())
        return fail(tr("%1: \"scopes\" is not a list").arg(file));
    for (const QJsonValue &scope : scopes.toArray())
        if (!scope.toString().isEmpty())
            read.scopes << scope.toString();
    const QString samples = summary.value(QStringLiteral("samples")).toString(QStringLiteral("kernel"));
    if (!parseSampleMode(samples, read.samples))
        return fail(tr("%1 has an unknown sample mode '%2'").arg(file, samples));
    state = read;
    return true;
}

void RunnerPanel::openSummary()
{
    SessionState state;
    QString error;
    if (!readSummary(m_runFolder, state, &error))
        return endRun(false, tr("The run ended without error, but %1").arg(error));
    endRun(true, tr("Recorded %1 (A) vs %2 (B) in %3; opened in the main window.")
                     .arg(QFileInfo(state.pathA).fileName(), QFileInfo(state.pathB).fileName(), m_runFolder));
    emit pairReady(state.pathA, state.pathB, state);
}

void RunnerPanel::endRun(bool succeeded, const QString &message)
{
    if (m_progress->maximum() == 0) { // never got a progress line: stop the busy animation
        m_progress->setRange(0, 1);
        m_progress->setValue(succeeded ? 1 : 0);
        m_progress->setVisible(succeeded); // an empty bar under a failure says nothing
    }
    showStatus(message, !succeeded && !m_cancelling);
    appendLog(message);
    if (succeeded && !m_folderEdited)
        m_folder->setText(defaultFolder()); // the next run must not overwrite this one
    m_cancelling = false;
    updateButtons();
    emit runDone(succeeded);
}

void RunnerPanel::showStatus(const QString &text, bool error)
{
    m_status->setText(text);
    m_status->setStyleSheet(error ? QStringLiteral("QLabel { background: #fdecea; border: 1px solid #f5c2c0; "
                                                   "padding: 4px; color: #8c1d18; }")
                                  : QString());
}

void RunnerPanel::appendLog(const QString &line)
{
    m_log->appendPlainText(line);
}

void RunnerPanel::updateButtons()
{
    const bool running = isRunning();
    m_runButton->setEnabled(canRun());
    m_cancelButton->setEnabled(running && !m_cancelling);
    m_workload->setEnabled(!running && !m_workloads.isEmpty());
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
    cancelRun();
    QDialog::done(QDialog::Rejected);
    event->accept();
}

} // namespace scopeline
