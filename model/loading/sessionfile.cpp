// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/loading/sessionfile.h"

#include "model/files/atomicfile.h"
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <optional>

namespace scopeline {

namespace {

const QString kFormat = QStringLiteral("scopeline-session");
constexpr int kVersion = 1;
// A stored path may climb at most this many folders above the session file's folder to be kept
// relative: a session saved next to (or one or two levels below) its traces moves with them.
constexpr int kMaxUpLevels = 2;
// Integers up to 2^53 survive a JSON number (a double) exactly; larger ones are written as strings.
constexpr int64_t kMaxExactDouble = int64_t(1) << 53;
// Longer texts are no real path or scope name; refusing them at load keeps a damaged or hostile
// session from reaching the views (a 10 MB path would be laid out in titles, menus and banners).
constexpr qsizetype kMaxPathLength = 4096; // PATH_MAX on Linux
constexpr qsizetype kMaxNameLength = 4096;
constexpr qsizetype kMaxScopes = 10000;
// A session is a few hundred bytes; anything this large is not one and is not parsed.
constexpr qint64 kMaxFileSize = 16 * 1024 * 1024;

QString tr(const char *text)
{
    return QCoreApplication::translate("SessionFile", text);
}

QString fileError(const QString &file, const QString &problem)
{
    return QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(file), problem);
}

// How a trace path is written into a session file in folder `base`: relative when it lies inside
// the folder or not far above it (sharing more than the filesystem root), else absolute.
QString storedPath(const QString &path, const QDir &base)
{
    if (path.isEmpty())
        return path;
    const QString absolute = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    const QString relative = QDir::cleanPath(base.relativeFilePath(absolute));
    if (QDir::isAbsolutePath(relative))
        return absolute; // another drive
    int ups = 0;
    for (const QString &part : relative.split(QLatin1Char('/'))) {
        if (part != QLatin1String(".."))
            break;
        ++ups;
    }
    if (ups > kMaxUpLevels)
        return absolute;
    if (ups > 0) {
        // The common ancestor must be more than the root ("/tmp/s" vs "/work/t" share only "/").
        QString ancestor = base.absolutePath();
        for (int i = 0; i < ups; ++i)
            ancestor = QFileInfo(ancestor).path();
        if (QDir(ancestor).isRoot())
            return absolute;
    }
    return relative;
}

QString resolvedPath(const QString &stored, const QDir &base)
{
    if (stored.isEmpty())
        return stored;
    if (QDir::isAbsolutePath(stored)) // cleaned as the window cleans what it opened ("matmul/" too)
        return QDir::cleanPath(stored);
    return QDir::cleanPath(base.absoluteFilePath(stored));
}

QJsonValue int64Json(int64_t value)
{
    if (value >= -kMaxExactDouble && value <= kMaxExactDouble)
        return QJsonValue(double(value));
    return QJsonValue(QString::number(value));
}

std::optional<int64_t> jsonInt64(const QJsonValue &value)
{
    if (value.isDouble()) {
        const double d = value.toDouble();
        if (std::trunc(d) != d || std::fabs(d) > double(kMaxExactDouble))
            return std::nullopt;
        return int64_t(d);
    }
    if (value.isString()) {
        bool ok = false;
        const qlonglong v = value.toString().toLongLong(&ok);
        if (ok)
            return int64_t(v);
    }
    return std::nullopt;
}

// Reads the session object into state; returns the problem, empty on success.
QString parseSession(const QJsonObject &root, const QDir &base, SessionState &state)
{
    if (root.value(QStringLiteral("format")).toString() != kFormat)
        return tr("not a Scopeline session file (the \"format\" is not \"%1\")").arg(kFormat);
    const QJsonValue version = root.value(QStringLiteral("version"));
    if (!version.isDouble() || version.toDouble() != std::trunc(version.toDouble()) || version.toDouble() < 1)
        return tr("the \"version\" is missing or not a positive whole number");
    if (version.toDouble() > kVersion)
        return tr("written by a newer Scopeline (session version %1, this one reads %2)")
            .arg(version.toDouble())
            .arg(kVersion);

    const QJsonValue paths = root.value(QStringLiteral("paths"));
    if (!paths.isObject())
        return tr("\"paths\" is missing or not an object");
    const QJsonObject pathsObject = paths.toObject();
    for (const char *key : {"a", "b"}) {
        const QJsonValue path = pathsObject.value(QLatin1String(key));
        if (!path.isString())
            return tr("\"paths.%1\" is missing or not a string").arg(QLatin1String(key));
        if (path.toString().isEmpty())
            return tr("\"paths.%1\" is empty: the session names no pair").arg(QLatin1String(key));
        if (path.toString().size() > kMaxPathLength)
            return tr("\"paths.%1\" is %2 characters long, longer than any path (at most %3)")
                .arg(QLatin1String(key))
                .arg(path.toString().size())
                .arg(kMaxPathLength);
    }
    state.pathA = resolvedPath(pathsObject.value(QStringLiteral("a")).toString(), base);
    state.pathB = resolvedPath(pathsObject.value(QStringLiteral("b")).toString(), base);
    if (root.contains(QStringLiteral("labels"))) {
        const QJsonObject labels = root.value(QStringLiteral("labels")).toObject();
        const QJsonValue a = labels.value(QStringLiteral("a")), b = labels.value(QStringLiteral("b"));
        if (!root.value(QStringLiteral("labels")).isObject() || !a.isString() || !b.isString() ||
            a.toString().size() > kMaxPathLength || b.toString().size() > kMaxPathLength)
            return tr("\"labels\" is not {\"a\": text, \"b\": text}");
        state.labelA = a.toString();
        state.labelB = b.toString();
    }

    if (root.contains(QStringLiteral("variants"))) {
        const QJsonValue variants = root.value(QStringLiteral("variants"));
        if (!variants.isArray() || variants.toArray().size() == 1 || variants.toArray().size() > kMaxScopes)
            return tr("\"variants\" is not a list of two or more (at most %1)").arg(kMaxScopes);
        for (const QJsonValue &variant : variants.toArray()) {
            const QJsonValue label = variant.toObject().value(QStringLiteral("label")),
                             path = variant.toObject().value(QStringLiteral("path"));
            if (!label.isString() || !path.isString() || path.toString().size() > kMaxPathLength)
                return tr("a variant is not {\"label\": text, \"path\": a path}");
            // the labels name the variants everywhere (tabs, tables, CSV): each its own
            if (label.toString().trimmed().isEmpty())
                return tr("a variant's label is empty (%1)").arg(path.toString());
            if (state.variantLabels.contains(label.toString()))
                return tr("two variants are labelled \"%1\"").arg(label.toString());
            state.variantLabels << label.toString();
            state.variantPaths << resolvedPath(path.toString(), base);
        }
    }

    if (root.contains(QStringLiteral("scopes"))) {
        const QJsonValue scopes = root.value(QStringLiteral("scopes"));
        if (!scopes.isArray())
            return tr("\"scopes\" is not a list");
        if (scopes.toArray().size() > kMaxScopes)
            return tr("\"scopes\" holds %1 names (at most %2)").arg(scopes.toArray().size()).arg(kMaxScopes);
        state.scopes.clear();
        for (const QJsonValue &scope : scopes.toArray()) {
            if (!scope.isString())
                return tr("\"scopes\" holds something that is not a string");
            if (scope.toString().size() > kMaxNameLength)
                return tr("\"scopes\" holds a name %1 characters long (at most %2)")
                    .arg(scope.toString().size())
                    .arg(kMaxNameLength);
            state.scopes.append(scope.toString());
        }
    }
    if (root.contains(QStringLiteral("match"))) {
        const QJsonValue match = root.value(QStringLiteral("match"));
        if (!match.isString())
            return tr("\"match\" is not a string");
        if (!parseMatchMode(match.toString(), state.match))
            return tr("unknown match mode \"%1\" (component, substring or regex)").arg(match.toString());
    }
    if (root.contains(QStringLiteral("samples"))) {
        const QJsonValue samples = root.value(QStringLiteral("samples"));
        if (!samples.isString())
            return tr("\"samples\" is not a string");
        if (!parseSampleMode(samples.toString(), state.samples))
            return tr("unknown sample mode \"%1\" (kernel, instance or span)").arg(samples.toString());
    }
    if (root.contains(QStringLiteral("threshold"))) {
        const QJsonValue threshold = root.value(QStringLiteral("threshold"));
        if (!threshold.isDouble())
            return tr("\"threshold\" is not a number");
        if (!(threshold.toDouble() >= 0) || !std::isfinite(threshold.toDouble()))
            return tr("\"threshold\" is negative (%1)").arg(threshold.toDouble());
        // A fraction of the mean: 1.5 meant as 1.5 % would judge at 150 %.
        if (threshold.toDouble() > 1)
            return tr("\"threshold\" is %1: a fraction of A's mean (0.01 is 1 %), at most 1")
                .arg(threshold.toDouble());
        state.threshold = threshold.toDouble();
    }
    if (root.contains(QStringLiteral("step"))) {
        const QJsonValue step = root.value(QStringLiteral("step"));
        if (!step.isString())
            return tr("\"step\" is not a string");
        if (step.toString().size() > kMaxNameLength)
            return tr("\"step\" is %1 characters long (at most %2)")
                .arg(step.toString().size())
                .arg(kMaxNameLength);
        state.stepScope = step.toString();
    }
    const struct
    {
        const char *key;
        QString SessionState::*field;
    } texts[] = {{"kernelFilter", &SessionState::kernelFilter}, {"kernel", &SessionState::kernel}};
    for (const auto &text : texts) {
        const QString key = QLatin1String(text.key);
        if (!root.contains(key))
            continue;
        if (!root.value(key).isString())
            return tr("\"%1\" is not a string").arg(key);
        if (root.value(key).toString().size() > kMaxNameLength)
            return tr("\"%1\" is %2 characters long (at most %3)")
                .arg(key)
                .arg(root.value(key).toString().size())
                .arg(kMaxNameLength);
        state.*text.field = root.value(key).toString();
    }
    if (root.contains(QStringLiteral("tab"))) {
        const QString tab = root.value(QStringLiteral("tab")).toString();
        if (!SessionFile::tabNames().contains(tab))
            return tr("\"tab\" is not one of %1").arg(SessionFile::tabNames().join(QStringLiteral(", ")));
        state.tab = tab;
    }
    const struct
    {
        const char *key;
        bool SessionState::*field;
    } flags[] = {{"pooled", &SessionState::pooled},
                 {"logScale", &SessionState::logScale},
                 {"zoomLocked", &SessionState::zoomLocked},
                 {"byOp", &SessionState::byOp},
                 {"foldNumbers", &SessionState::foldNumbers}};
    for (const auto &flag : flags) {
        const QString key = QLatin1String(flag.key);
        if (!root.contains(key))
            continue;
        if (!root.value(key).isBool())
            return tr("\"%1\" is not true or false").arg(key);
        state.*flag.field = root.value(key).toBool();
    }

    if (root.contains(QStringLiteral("view"))) {
        const QJsonValue view = root.value(QStringLiteral("view"));
        if (!view.isObject())
            return tr("\"view\" is not an object");
        const struct
        {
            const char *key;
            int64_t SessionState::*start;
            int64_t SessionState::*end;
            QString SessionState::*run;
        } sides[] = {{"a", &SessionState::viewStartA, &SessionState::viewEndA, &SessionState::runA},
                     {"b", &SessionState::viewStartB, &SessionState::viewEndB, &SessionState::runB}};
        for (const auto &side : sides) {
            const QString key = QLatin1String(side.key);
            const QJsonValue range = view.toObject().value(key);
            if (range.isUndefined())
                continue;
            const std::optional<int64_t> start = jsonInt64(range.toObject().value(QStringLiteral("start")));
            const std::optional<int64_t> end = jsonInt64(range.toObject().value(QStringLiteral("end")));
            if (!range.isObject() || !start || !end)
                return tr("\"view.%1\" needs whole-number \"start\" and \"end\" (ns)").arg(key);
            if (*end < *start)
                return tr("\"view.%1\" ends before it starts").arg(key);
            state.*side.start = *start;
            state.*side.end = *end;
            const QJsonValue run = range.toObject().value(QStringLiteral("run"));
            if (run.isUndefined())
                continue;
            if (!run.isString() || run.toString().size() > kMaxPathLength)
                return tr("\"view.%1.run\" is not a path").arg(key);
            state.*side.run = resolvedPath(run.toString(), base);
        }
    }
    return QString();
}

} // namespace

bool SessionState::operator==(const SessionState &other) const
{
    return pathA == other.pathA && pathB == other.pathB && labelA == other.labelA && labelB == other.labelB &&
           scopes == other.scopes && match == other.match && samples == other.samples &&
           threshold == other.threshold && stepScope == other.stepScope && pooled == other.pooled &&
           logScale == other.logScale && zoomLocked == other.zoomLocked && viewStartA == other.viewStartA &&
           viewEndA == other.viewEndA && viewStartB == other.viewStartB && viewEndB == other.viewEndB &&
           runA == other.runA && runB == other.runB && variantLabels == other.variantLabels &&
           variantPaths == other.variantPaths && byOp == other.byOp && foldNumbers == other.foldNumbers &&
           kernelFilter == other.kernelFilter && kernel == other.kernel && tab == other.tab;
}

const QStringList &SessionFile::tabNames()
{
    static const QStringList names = {QStringLiteral("changed"), QStringLiteral("scopes"),
                                      QStringLiteral("ranks"), QStringLiteral("variants")};
    return names;
}

bool SessionFile::save(const SessionState &state, const QString &file, QString *error)
{
    const auto fail = [&](const QString &problem) {
        if (error)
            *error = fileError(file, problem);
        return false;
    };
    if (file.isEmpty())
        return fail(tr("no file name given"));
    if (!std::isfinite(state.threshold) || state.threshold < 0)
        return fail(tr("the threshold is negative or not a number"));
    if (state.pathA.isEmpty() || state.pathB.isEmpty())
        return fail(tr("no pair is open: a session names the pair it opens"));
    const QDir base = QFileInfo(file).absoluteDir();

    QJsonObject root;
    root[QStringLiteral("format")] = kFormat;
    root[QStringLiteral("version")] = kVersion;
    root[QStringLiteral("paths")] = QJsonObject{{QStringLiteral("a"), storedPath(state.pathA, base)},
                                                {QStringLiteral("b"), storedPath(state.pathB, base)}};
    if (!state.labelA.isEmpty() || !state.labelB.isEmpty())
        root[QStringLiteral("labels")] =
            QJsonObject{{QStringLiteral("a"), state.labelA}, {QStringLiteral("b"), state.labelB}};
    if (!state.variantPaths.isEmpty()) {
        QJsonArray variants;
        for (qsizetype i = 0; i < state.variantPaths.size(); ++i)
            variants.append(QJsonObject{{QStringLiteral("label"), state.variantLabels.value(i)},
                                        {QStringLiteral("path"), storedPath(state.variantPaths[i], base)}});
        root[QStringLiteral("variants")] = variants;
    }
    root[QStringLiteral("scopes")] = QJsonArray::fromStringList(state.scopes);
    root[QStringLiteral("match")] = matchModeName(state.match);
    root[QStringLiteral("samples")] = sampleModeName(state.samples);
    root[QStringLiteral("threshold")] = state.threshold;
    if (!state.stepScope.isEmpty())
        root[QStringLiteral("step")] = state.stepScope;
    root[QStringLiteral("pooled")] = state.pooled;
    root[QStringLiteral("logScale")] = state.logScale;
    root[QStringLiteral("zoomLocked")] = state.zoomLocked;
    root[QStringLiteral("byOp")] = state.byOp;
    root[QStringLiteral("foldNumbers")] = state.foldNumbers;
    if (!state.kernelFilter.isEmpty())
        root[QStringLiteral("kernelFilter")] = state.kernelFilter;
    if (!state.kernel.isEmpty())
        root[QStringLiteral("kernel")] = state.kernel;
    if (!state.tab.isEmpty())
        root[QStringLiteral("tab")] = state.tab;
    const auto view = [&base](int64_t start, int64_t end, const QString &run) {
        QJsonObject range{{QStringLiteral("start"), int64Json(start)},
                          {QStringLiteral("end"), int64Json(end)}};
        if (!run.isEmpty())
            range[QStringLiteral("run")] = storedPath(run, base);
        return range;
    };
    root[QStringLiteral("view")] =
        QJsonObject{{QStringLiteral("a"), view(state.viewStartA, state.viewEndA, state.runA)},
                    {QStringLiteral("b"), view(state.viewStartB, state.viewEndB, state.runB)}};
    const QByteArray bytes = QJsonDocument(root).toJson(QJsonDocument::Indented);

    const QString why = saveFile(file, bytes);
    return why.isEmpty() || fail(tr("cannot write: %1").arg(why));
}

bool SessionFile::isSessionFile(const QString &file)
{
    if (file.endsWith(QLatin1String(".scopeline.json"), Qt::CaseInsensitive))
        return true;
    if (!file.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return false;
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = f.read(512);
    return head.contains("\"scopeline-session\"") && !head.contains("\"traceEvents\"");
}

bool SessionFile::load(const QString &file, SessionState &state, QString *error)
{
    const auto fail = [&](const QString &problem) {
        if (error)
            *error = fileError(file, problem);
        return false;
    };
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly))
        return fail(tr("cannot read: %1").arg(in.errorString()));
    if (in.size() > kMaxFileSize)
        return fail(tr("not a session file: %1 bytes, far larger than any session (at most %2)")
                        .arg(in.size())
                        .arg(kMaxFileSize));
    const QByteArray bytes = in.readAll();
    if (in.error() != QFileDevice::NoError)
        return fail(tr("cannot read: %1").arg(in.errorString()));
    if (bytes.trimmed().isEmpty())
        return fail(tr("not a valid session file: the file is empty"));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(tr("not a valid session file: %1 at byte %2")
                        .arg(parseError.errorString())
                        .arg(parseError.offset));
    if (!document.isObject())
        return fail(tr("not a Scopeline session file (no JSON object)"));

    SessionState parsed; // assigned to state only when everything checks out
    const QString problem = parseSession(document.object(), QFileInfo(file).absoluteDir(), parsed);
    if (!problem.isEmpty())
        return fail(problem);
    state = parsed;
    return true;
}

} // namespace scopeline
