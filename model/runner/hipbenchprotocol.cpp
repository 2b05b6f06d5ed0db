// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/runner/hipbenchprotocol.h"

#include "model/analysis/scopematcher.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace scopeline::hipbenchprotocol {

namespace {

QString message(const char *text)
{
    return QCoreApplication::translate("HipbenchProtocol", text);
}

bool fail(QString *error, const QString &why)
{
    if (error)
        *error = why;
    return false;
}

// " (unexpected end at offset 12)" for a parse error, else nothing.
QString parseProblem(const QJsonParseError &parse)
{
    return parse.error == QJsonParseError::NoError
               ? QString()
               : QStringLiteral(" (%1 at offset %2)").arg(parse.errorString()).arg(parse.offset);
}

QStringList strings(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray())
        list << item.toString();
    return list;
}

} // namespace

QStringList listArguments()
{
    return {QStringLiteral("--list"), QStringLiteral("--json")};
}

QStringList runArguments(const QString &workload, const QString &folder,
                         const QMap<QString, QString> &options)
{
    QStringList args{QStringLiteral("run"), workload, QStringLiteral("--out"), folder};
    for (auto it = options.cbegin(); it != options.cend(); ++it)
        args << QStringLiteral("--") + it.key() << it.value();
    return args;
}

bool parseWorkloads(const QByteArray &json, QList<HipbenchWorkload> &workloads, QString *error)
{
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parse);
    if (parse.error != QJsonParseError::NoError)
        return fail(error, message("its output is not JSON%1").arg(parseProblem(parse)));
    if (!doc.isArray())
        return fail(error, message("its output is not a JSON array of workloads"));
    QList<HipbenchWorkload> read;
    const QJsonArray list = doc.array();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QJsonObject object = list.at(i).toObject();
        HipbenchWorkload w;
        w.name = object.value(QStringLiteral("name")).toString();
        if (w.name.isEmpty())
            return fail(error, message("workload %1 of its list has no name").arg(i + 1));
        w.description = object.value(QStringLiteral("description")).toString();
        w.variants = strings(object.value(QStringLiteral("variants")));
        for (const QJsonValue &optionValue : object.value(QStringLiteral("options")).toArray()) {
            const QJsonObject o = optionValue.toObject();
            HipbenchOption option;
            option.name = o.value(QStringLiteral("name")).toString();
            if (option.name.isEmpty())
                return fail(error, message("an option of workload %1 has no name").arg(w.name));
            option.defaultValue = o.value(QStringLiteral("default")).toVariant().toString();
            option.help = o.value(QStringLiteral("help")).toString();
            option.choices = strings(o.value(QStringLiteral("choices")));
            option.minimum = qint64(o.value(QStringLiteral("minimum")).toDouble());
            option.maximum = qint64(o.value(QStringLiteral("maximum")).toDouble());
            option.list = o.value(QStringLiteral("list")).toBool();
            w.options << option;
        }
        read << w;
    }
    if (read.isEmpty())
        return fail(error, message("it listed no workloads"));
    workloads = read;
    return true;
}

bool parseProgress(const QString &line, HipbenchProgress &progress)
{
    static const QRegularExpression pattern(QStringLiteral("^progress: (\\d+)/(\\d+)\\s*(.*)$"));
    const QRegularExpressionMatch match = pattern.match(line.trimmed());
    if (!match.hasMatch())
        return false;
    progress.done = match.captured(1).toInt();
    progress.total = match.captured(2).toInt();
    progress.message = match.captured(3);
    return true;
}

QString optionProblem(const HipbenchOption &option, const QString &value)
{
    if (!option.choices.isEmpty() || option.maximum <= 0)
        return {};
    const bool list = option.list;
    const QStringList items = value.trimmed().split(QLatin1Char(','));
    bool ok = list || items.size() == 1;
    for (const QString &item : items) {
        bool number = false;
        const qint64 n = item.toLongLong(&number);
        ok = ok && number && !item.startsWith(QLatin1Char('+')) && n >= option.minimum && n <= option.maximum;
    }
    if (ok)
        return {};
    return (list ? message("%1: whole numbers from %2 to %3, separated by commas")
                 : message("%1: a whole number from %2 to %3"))
        .arg(option.name)
        .arg(option.minimum)
        .arg(option.maximum);
}

QString exitMeaning(int code)
{
    switch (code) { // the exit statuses of scopeline-hipbench's usage text
    case 0:
        return message("success");
    case 1:
        return message("bad usage");
    case 2:
        return message("cannot write the output folder");
    case 3:
        return message("no GPU or a GPU error");
    case 4:
        return message("cancelled");
    case 127: // the dynamic loader's: the program never ran
        return message("a library it needs is missing: the CUDA 13 runtime and CUPTI for an NVIDIA build, "
                       "ROCm for AMD; install them or set LD_LIBRARY_PATH");
    default:
        return message("unexpected failure");
    }
}

QString summaryPath(const QString &folder)
{
    return folder + QStringLiteral("/summary.json");
}

bool isRecordedPair(const QString &path)
{
    if (!QFileInfo(path).isDir())
        return false;
    // scopeline-hipbench's summary names its sides (or its workload); another program's summary.json (a
    // training job's metrics) does not make its folder a recording. A damaged one still says what is wrong.
    QFile summary(summaryPath(path));
    if (!summary.open(QIODevice::ReadOnly))
        return QFileInfo(summaryPath(path)).isFile(); // unreadable: said when it is read
    static const QRegularExpression ours(QStringLiteral("\"(a|b|workload)\"\\s*:"));
    const QString head = QString::fromUtf8(summary.read(64 * 1024));
    return head.trimmed().isEmpty() || ours.match(head).hasMatch(); // empty: a recording cut short
}

QString recordingAsSide(const QString &path)
{
    if (!isRecordedPair(path))
        return {};
    SessionState pair;
    const QString variants = readSummary(path, pair, nullptr) ? message(" (%1 and %2)")
                                                                    .arg(QDir::toNativeSeparators(pair.pathA),
                                                                         QDir::toNativeSeparators(pair.pathB))
                                                              : QString();
    return message("%1 is a pair scopeline-hipbench recorded: read as one set of runs, its variants would be "
                   "pooled. Give one of its variants' folders%2, or the folder alone for its pair")
        .arg(QDir::toNativeSeparators(path), variants);
}

bool readSummary(const QString &folder, SessionState &state, QString *error)
{
    const QString file = summaryPath(folder);
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly))
        return fail(error, message("%1 cannot be read: %2").arg(file, in.errorString()));
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(in.readAll(), &parse);
    if (!doc.isObject())
        return fail(error, message("%1 is not a JSON object%2").arg(file, parseProblem(parse)));
    const QJsonObject summary = doc.object();
    const QJsonObject a = summary.value(QStringLiteral("a")).toObject();
    const QJsonObject b = summary.value(QStringLiteral("b")).toObject();
    SessionState read;
    read.pathA = a.value(QStringLiteral("path")).toString();
    read.pathB = b.value(QStringLiteral("path")).toString();
    if (read.pathA.isEmpty())
        return fail(error, message("%1 names no folder for side A").arg(file));
    if (read.pathB.isEmpty()) // e.g. --mode eager: the one variant against itself, as a trace alone opens
        read.pathB = read.pathA;
    // The program writes DIR/<variant> as it was given DIR (often relative to where it ran): a side
    // is the variant's folder beside the summary, so the folder opens from anywhere, moved or not.
    for (QString *path : {&read.pathA, &read.pathB}) {
        const QString beside = QDir(folder).filePath(QFileInfo(*path).fileName());
        if (QFileInfo(beside).isDir())
            *path = beside;
        else if (!QFileInfo(*path).isDir())
            return fail(error, message("%1 names %2, which is not a folder").arg(file, *path));
    }
    const QJsonValue scopes = summary.value(QStringLiteral("scopes"));
    if (!scopes.isUndefined() && !scopes.isArray())
        return fail(error, message("%1: \"scopes\" is not a list").arg(file));
    for (const QString &scope : strings(scopes))
        if (!scope.isEmpty())
            read.scopes << scope;
    const QString samples = summary.value(QStringLiteral("samples")).toString(QStringLiteral("kernel"));
    if (!parseSampleMode(samples, read.samples))
        return fail(error, message("%1 has an unknown sample mode '%2'").arg(file, samples));
    state = read;
    return true;
}

} // namespace scopeline::hipbenchprotocol
