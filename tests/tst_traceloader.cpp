// SPDX-License-Identifier: GPL-3.0-or-later
// Tests for model/traceloader (with the inflating stream, the SAX handlers and the trace builder
// behind it) on the real traces in tests/data (SCOPELINE_TEST_DATA) and on bad inputs generated in a
// temporary folder.
//
// Expected figures come from independent Python (gzip/json/decimal) run through QProcess, from the
// trace format notes in tests/data/README.md, or are self-evident from small fixtures.
//
// Longer than our usual limit on purpose: one executable per unit, and this unit is the loader with
// every format and every kind of bad input; its cases share the fixtures and oracles here.

#include "model/formats/eventarrayreader.h"
#include "model/formats/inflatingstreambuf.h"
#include "model/formats/jsonstructurescanner.h"
#include "model/loading/pairloader.h"
#include "model/loading/traceloader.h"

#include "testdata.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtConcurrent>
#include <QtTest>

#include <algorithm>
#include <array>
#include <atomic>
#include <limits>
#include <map>
#include <set>
#include <tuple>

using namespace scopeline;

namespace {

QString publicTrace(const char *relative)
{
    return testdata::path(QStringLiteral("public/") + QLatin1String(relative));
}

const char *const kHtaMi250 =
    "HolisticTraceAnalysis/tests__data__amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz";
const char *const kHtaNsResolution =
    "HolisticTraceAnalysis/tests__data__ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz";
const char *const kTraceLensH100 =
    "TraceLens/tests__traces__h100__gaunernst_bert-small-uncased__1016001.json.gz";
const char *const kTraceLensMi300 = "TraceLens/tests__traces__mi300__resnet_act_checkpoint.json.gz";
const char *const kTraceLensXdit =
    "TraceLens/tests__traces__inference__xdit_flux.1_aiter_sage__profile_trace_rank_0.json.gz";
const char *const kRocprofV3 = "TraceLens/tests__rocprof__908_results.json.gz";
const char *const kKineto2021 =
    "kineto/tb_plugin__samples__resnet50_num_workers_0__worker0.1623143089861.pt.trace.json.gz";
// Kept gzipped in the repository; initTestCase writes a plain copy (plainRocmProfileData()).
const char *const kRocmProfileData =
    "rocmProfileData/examples__rocm-profile-data__results__matmul_result.json.gz";

// The profile folder of the one JAX run in tests/data that keeps both of JAX's files, vm.trace.json.gz
// and perfetto_trace.json.gz (its timestamp folder name is not fixed).
QString jaxProfileDir()
{
    const QString profile = testdata::path("jax_h100/jax_named_scopes/trace_file_matmul_0/plugins/profile");
    const QStringList sessions = QDir(profile).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    return sessions.isEmpty() ? profile : profile + QLatin1Char('/') + sessions.first(); // missing: named so
}

// Format expected for each trace in tests/data, from its README's table.
QString expectedFormat(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    if (name == QLatin1String("vm.trace.json.gz") || name == QLatin1String("perfetto_trace.json.gz"))
        return QStringLiteral("jax");
    if (name.contains(QLatin1String("rocprof__908_results")))
        return QStringLiteral("rocprofv3");
    if (path.contains(QLatin1String("/rocmProfileData/")))
        return QStringLiteral("chrome");
    if (path.contains(QLatin1String("/HolisticTraceAnalysis/")) ||
        path.contains(QLatin1String("/TraceLens/")) || path.contains(QLatin1String("/kineto/")) ||
        path.contains(QLatin1String("/param/")))
        return QStringLiteral("kineto");
    return QString(); // a file the README does not describe
}

bool runPython(const char *script, const QStringList &args, QByteArray &out, QString &problem)
{
    QProcess python;
    python.start(QStringLiteral(SCOPELINE_PYTHON),
                 QStringList{QStringLiteral("-c"), QString::fromUtf8(script)} + args);
    if (!python.waitForFinished(60000)) {
        problem = QStringLiteral("python did not finish: %1").arg(python.errorString());
        python.kill();
        python.waitForFinished();
        return false;
    }
    out = python.readAllStandardOutput();
    if (python.exitStatus() != QProcess::NormalExit || python.exitCode() != 0) {
        problem = QStringLiteral("python failed: %1").arg(QString::fromUtf8(python.readAllStandardError()));
        return false;
    }
    return true;
}

// Independent count of the slices a trace holds, written from the README's format notes:
// `X` events with a readable ts and a dur that is absent (0) or >= 0, `i`/`I` instants, and `B`/`E`
// pairs matched per (pid, tid); `{}`, `M`, `C` and flow events are not slices. rocprofv3 JSON: one
// slice per kernel dispatch record. Prints, per file, the count, the sum of durations, first start,
// last end, the sum of (start - first start) and the decompressed size, all in integer ns / bytes.
const char *const kSliceOracle = R"PY(
import gzip, json, sys, re
from decimal import Decimal, ROUND_HALF_UP, InvalidOperation, getcontext
getcontext().prec = 80
I64 = 2**63 - 1
INT = re.compile(r'[+-]?\d+', re.ASCII)

def ns(v):
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, str):
        try:
            v = Decimal(v.strip())
        except InvalidOperation:
            return None
    if not isinstance(v, Decimal) or not v.is_finite():
        return None
    r = int((v * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return r if -I64 <= r <= I64 else None

def norm(v):
    if isinstance(v, str):
        s = v.strip()
        return str(int(s)) if INT.fullmatch(s) else s
    if isinstance(v, Decimal) and v == v.to_integral_value():
        return str(int(v))
    return '' if v is None else str(v)

def slices(raw):
    text = raw.decode('utf-8')
    if text.startswith('\ufeff'):
        text = text[1:]
    doc = json.loads(text, parse_float=Decimal, parse_int=Decimal)
    out = []
    if isinstance(doc, dict) and 'rocprofiler-sdk-tool' in doc:
        for tool in doc['rocprofiler-sdk-tool']:
            for k in tool['buffer_records']['kernel_dispatch']:
                s, e = int(k['start_timestamp']), int(k['end_timestamp'])
                if e >= s:
                    out.append((s, e - s))
        return out
    events = doc if isinstance(doc, list) else doc.get('traceEvents', [])
    stacks = {}
    for e in events:
        if not isinstance(e, dict) or not e:
            continue
        ph = e.get('ph')
        if ph not in ('X', 'B', 'E', 'i', 'I'):
            continue
        ts = ns(e.get('ts'))
        if ts is None:
            continue
        if ph == 'X':
            d = 0
            if 'dur' in e:
                d = ns(e['dur'])
                if d is None or d < 0:
                    continue
            out.append((ts, d))
        elif ph in ('i', 'I'):
            out.append((ts, 0))
        else:
            st = stacks.setdefault((norm(e.get('pid')), norm(e.get('tid')) or '0'), [])
            if ph == 'B':
                st.append(ts)
            elif st:
                b = st.pop()
                if ts >= b:
                    out.append((b, ts - b))
    return out

path = sys.argv[1]
raw = open(path, 'rb').read()
if raw[:2] == b'\x1f\x8b':
    raw = gzip.decompress(raw)
s = slices(raw)
lo = min((a for a, _ in s), default=0)
print(json.dumps({'count': len(s), 'durSum': sum(d for _, d in s), 'minStart': lo,
                  'maxEnd': max((a + d for a, d in s), default=0),
                  'offsetSum': sum(a - lo for a, _ in s), 'bytes': len(raw)}))
)PY";

// Durations (ns) of the GPU kernels of a JAX trace: per the README, the `X` events on the process
// named /device:GPU:N. Prints them sorted, as a JSON list.
const char *const kJaxKernelOracle = R"PY(
import gzip, json, sys
from decimal import Decimal, ROUND_HALF_UP
doc = json.load(gzip.open(sys.argv[1]), parse_float=Decimal, parse_int=Decimal)
ev = doc['traceEvents']
gpu = {e['pid'] for e in ev if e.get('ph') == 'M' and e.get('name') == 'process_name'
       and str(e['args']['name']).startswith('/device:GPU:')}
durs = sorted(int((e['dur'] * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))
              for e in ev if e.get('ph') == 'X' and e.get('pid') in gpu)
print(json.dumps(durs))
)PY";

// Kineto tracks as (pid, tid) normalised like the loader's ids: those holding kernels (cat kernel or
// Kernel) and those holding only CPU-side categories.
const char *const kKinetoTrackOracle = R"PY(
import gzip, json, sys, re
INT = re.compile(r'[+-]?\d+', re.ASCII)
def norm(v):
    if isinstance(v, str):
        s = v.strip()
        return str(int(s)) if INT.fullmatch(s) else s
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return '' if v is None else str(v)
doc = json.load(gzip.open(sys.argv[1]))
cats = {}
for e in doc['traceEvents']:
    if isinstance(e, dict) and e.get('ph') == 'X':
        tid = norm(e.get('tid')) or '0'
        cats.setdefault((norm(e.get('pid')), tid), set()).add(e.get('cat'))
cpu = {'cpu_op', 'cuda_runtime', 'cuda_driver', 'python_function', 'user_annotation', 'Operator', 'Runtime'}
kernel = [list(k) for k, v in cats.items() if v & {'kernel', 'Kernel'}]
cpu_only = [list(k) for k, v in cats.items() if v and v <= cpu]
print(json.dumps({'kernel': kernel, 'cpu': cpu_only}))
)PY";

// Writes a ~4 MB trace (several parse chunks) whose names and args hold JSON's structural
// characters, escapes and non-ASCII text, with irregular whitespace between events, as plain JSON
// (argv[1]) and gzip (argv[2]); prints the figures the loader must reproduce.
const char *const kTrickyTrace = R"PY(
import gzip, json, random, sys
rnd = random.Random(1234)
# chr(34) is the double quote and chr(92) the backslash: spelt out, as moc misreads them in a raw string
alphabet = ['a', 'b', 'Z', '0', ' ', chr(34), chr(92), '[', ']', '{', '}', ',', ':', '/', chr(0xe9), chr(0x4e2d), chr(10), chr(9)]
parts, names, notes, durs, ts = [], [], [], [], 0
for i in range(24000):
    name = ''.join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 24)))
    note = ''.join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 40)))
    ts += rnd.randint(0, 5000)
    dur = rnd.randint(0, 999999)
    e = {'name': name, 'ph': 'X', 'ts': '%d.%03d' % divmod(ts, 1000), 'dur': dur / 1000 if i % 2 else dur // 1000,
         'pid': rnd.choice([1, '1', ' 1 ']), 'tid': rnd.choice([2, 3]),
         'args': {'note': note, 'shape': [[1, 2], [3, [4]]], 'nested': {'k': ']},{['}}}
    if i % 2 == 0:
        e['dur'] = dur // 1000
        dur = dur // 1000 * 1000
    parts.append(json.dumps(e, ensure_ascii=bool(i % 3)))
    names.append(name)
    notes.append(note)
    durs.append(dur)
seps = [',', ' ,', ',\n', '\n,\n  ', '\t,']
text = '{"displayTimeUnit": "ns", "traceEvents": [\n' + ''.join(p + rnd.choice(seps) for p in parts[:-1]) + parts[-1] + '\n], "otherData": {"x": "]"}}'
open(sys.argv[1], 'w', encoding='utf-8').write(text)
with gzip.open(sys.argv[2], 'wb') as out:
    out.write(text.encode('utf-8'))
special = {c: sum(1 for n in names if c in n) for c in chr(34) + chr(92) + '[]{},'}
print(json.dumps({'count': len(names), 'durSum': sum(durs), 'bytes': len(text.encode('utf-8')),
                  'nameBytes': sum(len(n.encode('utf-8')) for n in names),
                  'noteBytes': sum(len(n.encode('utf-8')) for n in notes), 'special': special}))
)PY";

const char *const kGunzip = R"PY(
import gzip, shutil, sys
with gzip.open(sys.argv[1], 'rb') as src, open(sys.argv[2], 'wb') as dst:
    shutil.copyfileobj(src, dst)
)PY";

const char *const kGzip = R"PY(
import gzip, sys
data = open(sys.argv[1], 'rb').read()
with gzip.open(sys.argv[2], 'wb') as out:
    out.write(data)
)PY";

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size() &&
           file.flush();
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

int64_t findEvent(const TraceData &d, std::string_view name)
{
    for (uint32_t e = 0; e < d.eventCount(); ++e)
        if (d.nameOf(e) == name)
            return e;
    return -1;
}

// Checks the invariants of any loaded trace; returns an empty string when they hold.
QString checkInvariants(const TraceData &d)
{
    const std::size_t n = d.eventCount();
    if (d.duration.size() != n || d.name.size() != n || d.category.size() != n || d.track.size() != n ||
        d.kind.size() != n || d.correlation.size() != n || (!d.opPath.empty() && d.opPath.size() != n) ||
        (!d.argsBegin.empty() && d.argsBegin.size() != n + 1))
        return QStringLiteral("column sizes differ");
    if (d.trackEvents.size() != d.tracks.size())
        return QStringLiteral("trackEvents has %1 lists for %2 tracks")
            .arg(d.trackEvents.size())
            .arg(d.tracks.size());
    std::vector<int> seen(n, 0);
    for (std::size_t t = 0; t < d.trackEvents.size(); ++t) {
        const auto &events = d.trackEvents[t];
        for (std::size_t i = 0; i < events.size(); ++i) {
            const uint32_t e = events[i];
            if (e >= n)
                return QStringLiteral("track %1 lists event %2 of %3").arg(t).arg(e).arg(n);
            if (d.track[e] != t)
                return QStringLiteral("event %1 listed on track %2 but belongs to %3")
                    .arg(e)
                    .arg(t)
                    .arg(d.track[e]);
            if (i > 0 && d.start[events[i - 1]] > d.start[e])
                return QStringLiteral("track %1 not sorted by start at position %2").arg(t).arg(i);
            ++seen[e];
        }
    }
    for (std::size_t e = 0; e < n; ++e) {
        if (seen[e] != 1)
            return QStringLiteral("event %1 listed %2 times in trackEvents").arg(e).arg(seen[e]);
        if (d.duration[e] < 0)
            return QStringLiteral("event %1 has a negative duration").arg(e);
    }
    return {};
}

QString compareTraces(const TraceData &a, const TraceData &b);

// Two loads of one file: the same error, or the same trace.
QString compareLoads(const LoadResult &a, const LoadResult &b)
{
    if (a.error != b.error)
        return QStringLiteral("errors differ: \"%1\" / \"%2\"").arg(a.error, b.error);
    if (a.ok() != b.ok())
        return QStringLiteral("one load failed without an error");
    return a.ok() ? compareTraces(*a.trace, *b.trace) : QString();
}

// A gzip file against its decompressed text: both load, the same trace, all bytes inflated.
QString compareCompressedToPlain(const QString &compressed, const QString &plain)
{
    const LoadResult a = TraceLoader::load(compressed);
    const LoadResult b = TraceLoader::load(plain);
    if (!a.ok() || !b.ok())
        return a.ok() ? b.error : a.error;
    if (a.trace->bytesRead != QFileInfo(plain).size())
        return QStringLiteral("inflated %1 bytes of %2").arg(a.trace->bytesRead).arg(QFileInfo(plain).size());
    return compareTraces(*a.trace, *b.trace);
}

// Everything a user could see of a trace, for comparing two loads of the same content.
QString compareTraces(const TraceData &a, const TraceData &b)
{
    if (a.format != b.format)
        return QStringLiteral("format %1 vs %2").arg(formatName(a.format), formatName(b.format));
    if (a.eventCount() != b.eventCount())
        return QStringLiteral("event count %1 vs %2").arg(a.eventCount()).arg(b.eventCount());
    if (a.tracks.size() != b.tracks.size())
        return QStringLiteral("track count %1 vs %2").arg(a.tracks.size()).arg(b.tracks.size());
    for (std::size_t t = 0; t < a.tracks.size(); ++t) {
        const Track &x = a.tracks[t], &y = b.tracks[t];
        if (x.pid != y.pid || x.tid != y.tid || x.processName != y.processName ||
            x.threadName != y.threadName || x.gpu != y.gpu || x.device != y.device ||
            x.sortIndex != y.sortIndex)
            return QStringLiteral("track %1 differs: %2 vs %3").arg(t).arg(x.displayName(), y.displayName());
    }
    for (uint32_t e = 0; e < a.eventCount(); ++e) {
        if (a.start[e] != b.start[e] || a.duration[e] != b.duration[e] || a.nameOf(e) != b.nameOf(e) ||
            a.strings.view(a.category[e]) != b.strings.view(b.category[e]) || a.track[e] != b.track[e] ||
            a.kind[e] != b.kind[e] || a.correlation[e] != b.correlation[e] ||
            a.strings.view(a.opPathOf(e)) != b.strings.view(b.opPathOf(e)))
            return QStringLiteral("event %1 differs").arg(e);
        const auto [aFirst, aLast] = a.argRange(e);
        const auto [bFirst, bLast] = b.argRange(e);
        if (aLast - aFirst != bLast - bFirst)
            return QStringLiteral("event %1 has a different number of args").arg(e);
        for (uint32_t i = 0; i < aLast - aFirst; ++i) {
            if (a.strings.view(a.args[aFirst + i].key) != b.strings.view(b.args[bFirst + i].key) ||
                a.argValue(aFirst + i) != b.argValue(bFirst + i))
                return QStringLiteral("event %1 arg %2 differs").arg(e).arg(i);
        }
    }
    if (a.trackEvents != b.trackEvents)
        return QStringLiteral("trackEvents differ");
    if (a.flows.size() != b.flows.size())
        return QStringLiteral("flow count %1 vs %2").arg(a.flows.size()).arg(b.flows.size());
    if (a.skipped != b.skipped)
        return QStringLiteral("skipped counts differ");
    if (a.bytesRead != b.bytesRead)
        return QStringLiteral("bytesRead %1 vs %2").arg(a.bytesRead).arg(b.bytesRead);
    return {};
}

int64_t skippedMatching(const TraceData &d, const QString &pattern)
{
    const QRegularExpression re(pattern, QRegularExpression::CaseInsensitiveOption);
    int64_t count = 0;
    for (const auto &[reason, n] : d.skipped)
        if (re.match(reason).hasMatch())
            count += n;
    return count;
}

QString skippedText(const TraceData &d)
{
    QStringList parts;
    for (const auto &[reason, n] : d.skipped)
        parts << QStringLiteral("%1: %2").arg(reason).arg(n);
    return parts.join(QStringLiteral("; "));
}

// Moves the middle kernel of a real PyTorch trace to `shift` µs past the first CPU event (`before`) or
// the last (`after`, `during-sync`: a 2-minute synchronize starting there), or adds a CPU event at
// int64's end in ns (`far-cpu`); prints the kernels the file holds (cat "kernel" X events).
const char *const kMoveKernel = R"PY(
import gzip, json, sys
source, target, where, shift = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
doc = json.load(gzip.open(source))
events = doc["traceEvents"]
gpu = {"kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation"}
cpu = [e for e in events if e.get("ph") == "X" and e.get("cat") not in gpu]
kernels = [e for e in events if e.get("ph") == "X" and e.get("cat") == "kernel"]
anchor = min(float(e["ts"]) for e in cpu) if where == "before" else max(float(e["ts"]) for e in cpu)
launch = next(e for e in cpu if e.get("cat") == "cuda_runtime")
host = {"pid": launch["pid"], "tid": launch["tid"], "ph": "X", "cat": "cuda_runtime"}
if where in ("during-sync", "long-sync"):  # a 2-minute synchronize after the last CPU event, the kernel inside it
    events.append(dict(host, name="cudaDeviceSynchronize", ts=anchor, dur=120e6))
elif where == "far-cpu":  # a damaged CPU row at int64's end in ns
    events.append(dict(host, name="cudaGetLastError", ts=9223372036854775, dur=1))
if where == "long":  # a sane start, a glitched duration
    kernels[len(kernels) // 2]["dur"] = shift
elif where == "long-sync":  # starting just after the last CPU start, running on inside the synchronize
    kernels[len(kernels) // 2].update(ts=anchor + 1e6, dur=shift)
elif where != "far-cpu":
    kernels[len(kernels) // 2]["ts"] = max(0.0, anchor + shift)
json.dump(doc, open(target, "w"))
print(len(kernels))
)PY";

} // namespace

class TstTraceLoader : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    // Real traces.
    void loadRealTrace_data();
    void loadRealTrace();
    void jaxViewerAndPerfettoSameKernels();
    void gzipAndPlainLoadIdentically_data();
    void gzipAndPlainLoadIdentically();
    void concatenatedGzipMembers();
    void compactColumnsKeepEveryValue();
    void gzipErrorsAsZlibSaysThem();
    void anyBlockSizeLoadsIdentically_data();
    void anyBlockSizeLoadsIdentically();
    void whicheverThreadParsesLoadsIdentically();
    void filesLoadingTogetherLoadIdentically();
    void guessedCutsLoadIdentically_data();
    void guessedCutsLoadIdentically();
    void parsingWithoutTheCutLoadsIdentically_data();
    void parsingWithoutTheCutLoadsIdentically();
    void parsingWithoutTheCutKeepsErrors_data();
    void parsingWithoutTheCutKeepsErrors();
    void largeTraceWithTrickyStrings_data();
    void largeTraceWithTrickyStrings();
    void kinetoGpuTracks_data();
    void kinetoGpuTracks();
    void kineto2021StreamTid();
    void rocmProfileDataStringNumbers();

    // Ids, BOM, event-level problems (generated fixtures).
    void pidAndTidForms();
    void utf8Bom_data();
    void utf8Bom();
    void skippedEventsByReason();
    void strayGpuEventsLeftOut_data();
    void strayGpuEventsLeftOut();
    void opPathOfTheFirstEvent();
    void outOfOrderEventsSortedPerTrack();
    void tracksInRunsSortedStably_data();
    void tracksInRunsSortedStably();

    // Progress, cancel, background loading.
    void progressCallback_data();
    void progressCallback();
    void cancelBeforeLoad_data();
    void cancelBeforeLoad();
    void asyncStartDelivers();
    void unreadableRunIsLeftOut();
    void runWithoutKernelsIsLeftOut();
    void everyUnreadableSideIsNamed();
    void secondStartDropsFirst_data();
    void secondStartDropsFirst();

    // File-level errors.
    void fileErrors_data();
    void fileErrors();
    void jsonErrorByteOffset_data();
    void jsonErrorByteOffset();
    void cutShortJsonIsSaid_data();
    void cutShortJsonIsSaid();

private:
    // The rocmProfileData trace as plain JSON (the repository keeps it gzipped): the real trace
    // that the plain-text paths of the loader read.
    QString plainRocmProfileData() const { return m_tmp.filePath(QStringLiteral("matmul_result.json")); }
    // paths, with the repository's trace before its plain copy: a missing trace fails naming it.
    QStringList withSources(QStringList paths) const
    {
        if (const qsizetype i = paths.indexOf(plainRocmProfileData()); i >= 0)
            paths.insert(i, publicTrace(kRocmProfileData));
        return paths;
    }

    QTemporaryDir m_tmp;
};

void TstTraceLoader::initTestCase()
{
    QVERIFY(m_tmp.isValid());
    qRegisterMetaType<QList<scopeline::LoadResult>>();
    // Without the trace, the tests that read the plain copy fail, naming the trace.
    if (!QFileInfo::exists(publicTrace(kRocmProfileData)))
        return;
    QByteArray out;
    QString problem;
    QVERIFY2(runPython(kGunzip, {publicTrace(kRocmProfileData), plainRocmProfileData()}, out, problem),
             qPrintable(problem));
}

// ---------------------------------------------------------------------------------------------
// Real traces

void TstTraceLoader::loadRealTrace_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("format");
    // The README's public traces (one missing fails its row, naming it) and any other trace file
    // found there (which fails until the README's table describes it).
    QStringList files;
    for (const QString &trace : testdata::publicTraces())
        files << testdata::path(QStringLiteral("public/") + trace);
    QDirIterator it(testdata::path("public"), {QStringLiteral("*.json"), QStringLiteral("*.json.gz")},
                    QDir::Files, QDirIterator::Subdirectories | QDirIterator::FollowSymlinks);
    while (it.hasNext())
        if (const QString file = it.next(); !files.contains(file))
            files << file;
    files.sort();
    const QString jax = jaxProfileDir();
    files << jax + QStringLiteral("/vm.trace.json.gz") << jax + QStringLiteral("/perfetto_trace.json.gz");
    for (const QString &file : files) {
        const QString tag = QFileInfo(file).dir().dirName() + QLatin1Char('/') + QFileInfo(file).fileName();
        QTest::newRow(qPrintable(tag)) << file << expectedFormat(file);
    }
}

void TstTraceLoader::loadRealTrace()
{
    QFETCH(QString, path);
    QFETCH(QString, format);
    REQUIRE_TEST_DATA(path);
    QVERIFY2(!format.isEmpty(),
             qPrintable(QStringLiteral("%1 is not in the README's table: add its format").arg(path)));

    // The oracle runs while the loader works.
    QProcess python;
    python.start(QStringLiteral(SCOPELINE_PYTHON),
                 {QStringLiteral("-c"), QString::fromUtf8(kSliceOracle), path});
    const LoadResult r = TraceLoader::load(path);
    QVERIFY2(python.waitForFinished(60000), "python oracle did not finish");
    QVERIFY2(python.exitStatus() == QProcess::NormalExit && python.exitCode() == 0,
             python.readAllStandardError().constData());
    const QByteArray out = python.readAllStandardOutput();
    QVERIFY2(QJsonDocument::fromJson(out).object().contains(QLatin1String("count")), out.constData());

    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(r.error.isEmpty());
    QVERIFY(!r.cancelled);
    QCOMPARE(r.path, path);
    const TraceData &d = *r.trace;
    QCOMPARE(formatName(d.format), format);
    QCOMPARE(d.sourceFile, path);

    // JSON numbers lose precision in a double past 2^53: read the figures as text.
    auto big = [&out](const char *key) -> qint64 {
        const QRegularExpression re(QStringLiteral("\"%1\": (-?\\d+)").arg(QLatin1String(key)));
        return re.match(QString::fromUtf8(out)).captured(1).toLongLong();
    };
    QCOMPARE(qint64(d.eventCount()), big("count"));
    QVERIFY(d.eventCount() > 0);

    int64_t durSum = 0, minStart = std::numeric_limits<int64_t>::max(),
            maxEnd = std::numeric_limits<int64_t>::min();
    for (uint32_t e = 0; e < d.eventCount(); ++e) {
        durSum += d.duration[e];
        minStart = std::min(minStart, d.start[e]);
        maxEnd = std::max(maxEnd, d.end(e));
    }
    int64_t offsetSum = 0;
    for (uint32_t e = 0; e < d.eventCount(); ++e)
        offsetSum += d.start[e] - minStart;
    QCOMPARE(qint64(durSum), big("durSum"));
    QCOMPARE(qint64(minStart), big("minStart"));
    QCOMPARE(qint64(maxEnd), big("maxEnd"));
    QCOMPARE(qint64(offsetSum), big("offsetSum"));
    QCOMPARE(qint64(d.bytesRead), big("bytes"));

    const QString broken = checkInvariants(d);
    QVERIFY2(broken.isEmpty(), qPrintable(broken));
}

void TstTraceLoader::jaxViewerAndPerfettoSameKernels()
{
    const QString dir = jaxProfileDir();
    const QString viewer = dir + QStringLiteral("/vm.trace.json.gz");
    const QString perfetto = dir + QStringLiteral("/perfetto_trace.json.gz");
    REQUIRE_TEST_DATA(viewer, perfetto);

    auto kernelDurations = [](const QString &path, QString &error) {
        std::vector<int64_t> durations;
        const LoadResult r = TraceLoader::load(path);
        if (!r.ok()) {
            error = r.error;
            return durations;
        }
        for (uint32_t e = 0; e < r.trace->eventCount(); ++e)
            if (r.trace->kind[e] == EventKind::Kernel)
                durations.push_back(r.trace->duration[e]);
        std::sort(durations.begin(), durations.end());
        return durations;
    };
    QString error;
    const std::vector<int64_t> a = kernelDurations(viewer, error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const std::vector<int64_t> b = kernelDurations(perfetto, error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(!a.empty());
    QVERIFY(a == b);

    // And both are the README's kernels: every X event on /device:GPU:N, durations in exact ns.
    QByteArray out;
    QString problem;
    QVERIFY2(runPython(kJaxKernelOracle, {viewer}, out, problem), qPrintable(problem));
    const QJsonArray expected = QJsonDocument::fromJson(out).array();
    QCOMPARE(qsizetype(a.size()), expected.size());
    for (qsizetype i = 0; i < expected.size(); ++i)
        QCOMPARE(qint64(a[std::size_t(i)]), expected.at(i).toInteger());
}

void TstTraceLoader::gzipAndPlainLoadIdentically_data()
{
    QTest::addColumn<QString>("gz");
    QTest::newRow("HTA mi250 kineto") << publicTrace(kHtaMi250);
    QTest::newRow("TraceLens h100") << publicTrace(kTraceLensH100);
    QTest::newRow("JAX vm.trace") << jaxProfileDir() + QStringLiteral("/vm.trace.json.gz");
    QTest::newRow("rocprofv3") << publicTrace(kRocprofV3);
}

void TstTraceLoader::gzipAndPlainLoadIdentically()
{
    QFETCH(QString, gz);
    REQUIRE_TEST_DATA(gz);
    const QString plain = m_tmp.filePath(QFileInfo(gz).completeBaseName()); // drops ".gz"
    QVERIFY(plain.endsWith(QLatin1String(".json")));
    QByteArray out;
    QString problem;
    QVERIFY2(runPython(kGunzip, {gz, plain}, out, problem), qPrintable(problem));

    const QString difference = compareCompressedToPlain(gz, plain);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
    QFile::remove(plain);
}

// ISA-L inflates; where it fails zlib inflates the file again, so damaged, truncated and trailing-
// garbage files give the messages zlib alone gives (SCOPELINE_NO_ISAL: zlib only).
void TstTraceLoader::gzipErrorsAsZlibSaysThem()
{
    const QString source = publicTrace(kTraceLensH100);
    REQUIRE_TEST_DATA(source);
    const QByteArray gz = readFile(source);
    QVERIFY(gz.size() > 1000);
    QList<QByteArray> damaged;
    for (const qsizetype at : {qsizetype(100), gz.size() / 3, gz.size() / 2, gz.size() - 6, gz.size() - 2}) {
        QByteArray copy = gz;
        copy[at] = char(copy[at] ^ 0x55);
        damaged << copy;
    }
    damaged << gz.left(gz.size() / 2) << gz + QByteArray("garbage!") << gz + QByteArray(10, '\0') << gz + gz.left(5)
            << gz + gz;
    for (int i = 0; i < damaged.size(); ++i) {
        const QString path = m_tmp.filePath(QStringLiteral("damaged%1.json.gz").arg(i));
        QVERIFY(writeFile(path, damaged[i]));
        const LoadResult isal = TraceLoader::load(path);
        qputenv("SCOPELINE_NO_ISAL", "1");
        const LoadResult zlib = TraceLoader::load(path);
        qunsetenv("SCOPELINE_NO_ISAL");
        QCOMPARE(isal.error, zlib.error);
        QCOMPARE(isal.ok(), zlib.ok());
        if (isal.ok())
            QVERIFY(compareTraces(*isal.trace, *zlib.trace).isEmpty());
    }
}

// The reading thread parses a chunk itself when parser threads fall behind, which depends on timing:
// here it parses every chunk, then some, then none, and the trace is the same as with the default.
void TstTraceLoader::whicheverThreadParsesLoadsIdentically()
{
    const QString gz = publicTrace(kTraceLensMi300);
    REQUIRE_TEST_DATA(gz);
    const LoadResult reference = TraceLoader::load(gz);
    QVERIFY2(reference.ok(), qPrintable(reference.error));
    QVERIFY2(reference.trace->bytesRead > (8 << 20), "the trace should span dozens of 256 kB chunks");
    struct Restore
    {
        ~Restore() { EventArrayReader::setMaxChunksQueued(-1); }
    } restore;
    for (const int queued : {0, 1, 1 << 20}) {
        EventArrayReader::setMaxChunksQueued(queued);
        const LoadResult r = TraceLoader::load(gz);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QString difference = compareTraces(*reference.trace, *r.trace);
        QVERIFY2(difference.isEmpty(), qPrintable(QStringLiteral("%1 queued: %2").arg(queued).arg(difference)));
    }
}

// While as many files load as there are cores, each reading thread parses its own chunks; a file
// left loading alone hands them to parser threads again. Loaded together with smaller files (which
// end first), each trace is the same as loaded alone.
void TstTraceLoader::filesLoadingTogetherLoadIdentically()
{
    const QStringList files = {publicTrace(kTraceLensMi300), publicTrace(kTraceLensH100),
                               publicTrace("HolisticTraceAnalysis/tests__data__df_index_resolver__df_index_resolver.json.gz")};
    std::vector<LoadResult> alone;
    for (const QString &file : files) {
        REQUIRE_TEST_DATA(file);
        alone.push_back(TraceLoader::load(file));
        QVERIFY2(alone.back().ok(), qPrintable(alone.back().error));
    }
    QThreadPool pool;
    pool.setMaxThreadCount(int(files.size()));
    const QList<LoadResult> together =
        QtConcurrent::blockingMapped(&pool, files, [](const QString &file) { return TraceLoader::load(file); });
    for (qsizetype i = 0; i < files.size(); ++i) {
        QVERIFY2(together[i].ok(), qPrintable(together[i].error));
        const QString difference = compareTraces(*alone[std::size_t(i)].trace, *together[i].trace);
        QVERIFY2(difference.isEmpty(), qPrintable(files[i] + QStringLiteral(": ") + difference));
    }
}

// A file read by parser threads is cut where the text looks like a boundary between events, and each
// chunk's parse proves the cut; one it does not prove goes back to the scan, with every chunk after
// it. Every public trace, and text that fools the guess (arrays of objects in args, "}, {" in
// strings) or that the fast path refuses, loads as the scan cuts it.
void TstTraceLoader::guessedCutsLoadIdentically_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("tail"); // when path is empty: after 3 MB of events, as below
    for (const QString &trace : testdata::publicTraces())
        QTest::newRow(qPrintable(trace.section(QLatin1Char('/'), -1)))
            << publicTrace(qPrintable(trace)) << QByteArray();
    QTest::newRow("jax vm.trace") << jaxProfileDir() + QStringLiteral("/vm.trace.json.gz") << QByteArray();
    QTest::newRow("objects in args") << QString() << QByteArray("objects");
    QTest::newRow("cuts in strings") << QString() << QByteArray("strings");
    QTest::newRow("bad value") << QString() << QByteArray(R"({"ph":"X","ts":@}, {"ph":"i","ts":1}])");
    QTest::newRow("number out of range")
        << QString() << QByteArray(R"({"ph":"X","ts":1e400}, {"ph":"i","ts":1}])");
    QTest::newRow("cut short") << QString() << QByteArray(R"({"ph":"X","ts":1,"name":"ab)");
    QTest::newRow("text after") << QString() << QByteArray(R"({"ph":"X","ts":1}], "b": [{"c":1}, {"d":2}]})");
    QTest::newRow("bad value mid-file") << QString() << QByteArray("middle");
}

void TstTraceLoader::guessedCutsLoadIdentically()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, tail);
    if (path.isEmpty()) {
        QByteArray doc = R"({"traceEvents": [)";
        for (int i = 0; doc.size() < (3 << 20); ++i) {
            QByteArray args = "{}";
            if (tail == "objects") // every event's args end in an array of objects: "}, {" inside
                args = R"({"k": [{"a": 1}, {"b": 2}, {"c": 3}]})";
            else if (tail == "strings")
                args = R"({"s": "x}, {y\"}, {\"z"})";
            else if (tail == "middle" && i == 10000) // past the first chunks, before the last
                args = R"({"n": 1e400})";
            doc += QStringLiteral(R"({"ph":"X","pid":1,"tid":1,"ts":%1,"dur":1,"name":"k%1","args":%2},)")
                       .arg(i)
                       .arg(QString::fromLatin1(args))
                       .toUtf8() +
                   '\n';
        }
        const bool whole = tail == "objects" || tail == "strings" || tail == "middle";
        doc += whole ? QByteArray(R"({"ph":"i","ts":1}]})") : tail;
        if (tail.endsWith(']'))
            doc += '}';
        path = m_tmp.filePath(QStringLiteral("guessed.json"));
        QVERIFY(writeFile(path, doc));
    }
    REQUIRE_TEST_DATA(path);
    struct Restore
    {
        ~Restore()
        {
            EventArrayReader::setGuessesCuts(true);
            EventArrayReader::setParsesOwnChunks(-1);
        }
    } restore;
    EventArrayReader::setParsesOwnChunks(0);
    EventArrayReader::setGuessesCuts(false);
    const LoadResult reference = TraceLoader::load(path);
    EventArrayReader::setGuessesCuts(true);
    const QString difference = compareLoads(reference, TraceLoader::load(path));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

// A reading thread that parses its own chunks parses whole events straight from the text, without the
// cut (parseDirect); every public trace loads to the same trace as through the cut, with blocks of
// odd sizes too (events straddle them).
void TstTraceLoader::parsingWithoutTheCutLoadsIdentically_data()
{
    QTest::addColumn<QString>("path");
    for (const QString &trace : testdata::publicTraces())
        QTest::newRow(qPrintable(trace.section(QLatin1Char('/'), -1))) << publicTrace(qPrintable(trace));
    QTest::newRow("jax vm.trace") << jaxProfileDir() + QStringLiteral("/vm.trace.json.gz");
}

void TstTraceLoader::parsingWithoutTheCutLoadsIdentically()
{
    QFETCH(QString, path);
    REQUIRE_TEST_DATA(path);
    struct Restore
    {
        ~Restore()
        {
            EventArrayReader::setParsesOwnChunks(-1);
            InflatingStreamBuf::setBlockBytes(0);
        }
    } restore;
    EventArrayReader::setParsesOwnChunks(0);
    const LoadResult reference = TraceLoader::load(path);
    QVERIFY2(reference.ok(), qPrintable(reference.error));
    EventArrayReader::setParsesOwnChunks(1);
    for (const std::size_t bytes : {std::size_t(0), std::size_t(4093), std::size_t(65537)}) {
        InflatingStreamBuf::setBlockBytes(bytes);
        const LoadResult r = TraceLoader::load(path);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QString difference = compareTraces(*reference.trace, *r.trace);
        QVERIFY2(difference.isEmpty(),
                 qPrintable(QStringLiteral("blocks of %1: %2").arg(bytes).arg(difference)));
    }
}

// What the fast path leaves to the cut and nlohmann, parsing without the cut: the same errors (at
// the same document bytes) and skips as through the cut.
void TstTraceLoader::parsingWithoutTheCutKeepsErrors_data()
{
    QTest::addColumn<QByteArray>("tail"); // after 3 MB of events; the whole document if it starts with '['
    QTest::newRow("bad value") << QByteArray(R"({"ph":"X","ts":@}, {"ph":"i","ts":1}])");
    // nlohmann's message quotes what it read since the last string or number: the text before the
    // event too, so the chunk must start where the cut would start it.
    QTest::newRow("bad first byte of an event") << QByteArray(R"(@, {"ph":"i","ts":1}])");
    QTest::newRow("bad first element (fuzz_loader)") << QByteArray("[\r\x04}]");
    QTest::newRow("number out of range") << QByteArray(R"({"ph":"X","ts":1e400}, {"ph":"i","ts":1}])");
    QTest::newRow("not an object") << QByteArray(R"(7, {"ph":"i","ts":1}])");
    QTest::newRow("cut short") << QByteArray(R"({"ph":"X","ts":1,"name":"ab)");
    QTest::newRow("trailing comma") << QByteArray(R"({"ph":"X","ts":1},])");
    QTest::newRow("text after") << QByteArray(R"({"ph":"X","ts":1}], "b": @})");
    QTest::newRow("control byte in a string") << QByteArray("{\"ph\":\"X\",\"name\":\"a\x01b\"}]");
    QTest::newRow("an event of 1 MB")
        << (R"({"ph":"X","ts":1,"name":")" + QByteArray(1 << 20, 'n') + R"("}, {"ph":"i","ts":2}])");
    QTest::newRow("a blank run of 1 MB") << (QByteArray(1 << 20, ' ') + R"({"ph":"X","ts":1}])");
    QTest::newRow("comma before the end") << QByteArray("]");
    QTest::newRow("no more events") << QByteArray(R"({"ph":"X","ts":1}])");
}

void TstTraceLoader::parsingWithoutTheCutKeepsErrors()
{
    QFETCH(QByteArray, tail);
    QByteArray doc = tail;
    if (!tail.startsWith('[')) {
        doc = R"({"traceEvents": [)";
        for (int i = 0; doc.size() < (3 << 20); ++i)
            doc += QStringLiteral(R"({"ph":"X","pid":1,"tid":1,"ts":%1,"dur":1,"name":"k%1"},)")
                       .arg(i)
                       .toUtf8() +
                   '\n';
        doc += tail;
        if (tail.endsWith(']'))
            doc += '}';
    }
    const QString path = m_tmp.filePath(QStringLiteral("without-cut.json"));
    QVERIFY(writeFile(path, doc));
    struct Restore
    {
        ~Restore() { EventArrayReader::setParsesOwnChunks(-1); }
    } restore;
    EventArrayReader::setParsesOwnChunks(0);
    const LoadResult reference = TraceLoader::load(path);
    EventArrayReader::setParsesOwnChunks(1);
    const QString difference = compareLoads(reference, TraceLoader::load(path));
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

void TstTraceLoader::anyBlockSizeLoadsIdentically_data()
{
    QTest::addColumn<QString>("gz");
    QTest::newRow("TraceLens h100") << publicTrace(kTraceLensH100);
    QTest::newRow("vllm graph execution")
        << publicTrace("TraceLens/tests__traces__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz");
}

// Blocks of any size, odd and tiny ones included (events, strings, escapes and backslash runs then
// straddle every kind of boundary), with the SIMD scan and without: the same trace as the defaults.
void TstTraceLoader::anyBlockSizeLoadsIdentically()
{
    QFETCH(QString, gz);
    REQUIRE_TEST_DATA(gz);
    const QString plain = m_tmp.filePath(QFileInfo(gz).completeBaseName());
    QByteArray out;
    QString problem;
    QVERIFY2(runPython(kGunzip, {gz, plain}, out, problem), qPrintable(problem));
    const LoadResult reference = TraceLoader::load(gz);
    QVERIFY2(reference.ok(), qPrintable(reference.error));
    struct Restore
    {
        ~Restore()
        {
            InflatingStreamBuf::setBlockBytes(0);
            JsonStructureScanner::setSimdEnabled(true);
        }
    } restore;
    const bool large = QFileInfo(plain).size() > (2 << 20);
    for (const std::size_t bytes : {std::size_t(1), std::size_t(3), std::size_t(7), std::size_t(31),
                                    std::size_t(33), std::size_t(63), std::size_t(64), std::size_t(65),
                                    std::size_t(127), std::size_t(1021), std::size_t(4093),
                                    std::size_t(65537), std::size_t(0)}) {
        if (large && bytes > 0 && bytes < 31)
            continue; // tiny blocks on the small trace only: they cost a call per byte
        InflatingStreamBuf::setBlockBytes(bytes);
        for (const bool simd : {true, false}) {
            JsonStructureScanner::setSimdEnabled(simd);
            for (const QString &file : {gz, plain}) {
                const LoadResult r = TraceLoader::load(file);
                const QString what = QStringLiteral("%1, blocks of %2 bytes, simd %3: ")
                                         .arg(QFileInfo(file).fileName())
                                         .arg(bytes)
                                         .arg(simd);
                QVERIFY2(r.ok(), qPrintable(what + r.error));
                QCOMPARE(r.trace->bytesRead, QFileInfo(plain).size());
                const QString difference = compareTraces(*reference.trace, *r.trace);
                QVERIFY2(difference.isEmpty(), qPrintable(what + difference));
            }
        }
    }
    QFile::remove(plain);
}

// Correlation ids and durations take 4 bytes an event: every id comes back, whatever its high bits
// (rocpd offsets each database's by 2^40), the ids whose low bits are the column's markers, and ids
// set afterwards; durations of 2^32 ns and longer come back as well.
void TstTraceLoader::compactColumnsKeepEveryValue()
{
    CorrelationColumn column;
    std::vector<int64_t> want;
    uint64_t x = 88172645463325252ull; // xorshift: a fixed mix of ids
    const int64_t specials[] = {TraceData::kNoCorrelation, 0, 0xfffffffell, 0xffffffffll, 0x1ffffffffll, -7,
                                (int64_t(3) << 40) + 0xfffffffe};
    for (int i = 0; i < 5000; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const int64_t base = int64_t(i / 1000) << 40; // runs of events with one high part
        const int64_t id = x % 5 == 0   ? TraceData::kNoCorrelation
                           : x % 97 == 0 ? specials[(x >> 8) % std::size(specials)]
                                         : base + int64_t(x % 100000);
        column.push_back(id);
        want.push_back(id);
    }
    for (std::size_t e = 0; e < want.size(); e += 37) { // set later, as ids derived from flows are
        const int64_t id = e % 3 == 0 ? int64_t(e) : e % 3 == 1 ? TraceData::kNoCorrelation : (int64_t(9) << 40) + int64_t(e);
        column.set(e, id);
        want[e] = id;
    }
    QCOMPARE(column.size(), want.size());
    for (std::size_t e = 0; e < want.size(); ++e)
        QVERIFY2(column[e] == want[e], qPrintable(QStringLiteral("event %1: %2, not %3").arg(e).arg(column[e]).arg(want[e])));
    QVERIFY(column.anyId());
    QVERIFY(!CorrelationColumn().anyId());

    DurationColumn durations;
    std::vector<int64_t> ns;
    for (int i = 0; i < 3000; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const int64_t d = x % 50 == 0 ? int64_t(0xffffffffll) + int64_t(x % 3) * 0x100000000ll - 1 + int64_t(x % 2)
                                      : int64_t(x % 1000000);
        durations.push_back(d);
        ns.push_back(d);
    }
    QCOMPARE(durations.size(), ns.size());
    int longOnes = 0;
    for (std::size_t e = 0; e < ns.size(); ++e) {
        QCOMPARE(durations[e], ns[e]);
        longOnes += ns[e] >= 0xffffffffll;
    }
    QVERIFY(longOnes > 10);
}

void TstTraceLoader::concatenatedGzipMembers()
{
    // gzip allows several members in one file (as `cat a.gz b.gz` or pigz write them): the text is
    // their concatenation.
    const QString source = publicTrace(kTraceLensH100);
    REQUIRE_TEST_DATA(source);
    const QString plain = m_tmp.filePath(QStringLiteral("members.json"));
    const QString joined = m_tmp.filePath(QStringLiteral("members.json.gz"));
    QByteArray out;
    QString problem;
    QVERIFY2(runPython(R"PY(
import gzip, sys
text = gzip.open(sys.argv[1]).read()
open(sys.argv[2], 'wb').write(text)
third = len(text) // 3
with open(sys.argv[3], 'wb') as out:
    for part in (text[:third], text[third:2 * third], text[2 * third:]):
        out.write(gzip.compress(part))
)PY",
                       {source, plain, joined}, out, problem),
             qPrintable(problem));
    const QString difference = compareCompressedToPlain(joined, plain);
    QVERIFY2(difference.isEmpty(), qPrintable(difference));
}

void TstTraceLoader::largeTraceWithTrickyStrings_data()
{
    QTest::addColumn<bool>("gzip");
    QTest::newRow("plain") << false;
    QTest::newRow("gzip") << true;
}

void TstTraceLoader::largeTraceWithTrickyStrings()
{
    QFETCH(bool, gzip);
    const QString plain = m_tmp.filePath(QStringLiteral("tricky.json"));
    const QString gz = m_tmp.filePath(QStringLiteral("tricky.json.gz"));
    QByteArray out;
    QString problem;
    QVERIFY2(runPython(kTrickyTrace, {plain, gz}, out, problem), qPrintable(problem));
    const QJsonObject expected = QJsonDocument::fromJson(out).object();
    QVERIFY2(expected.value(QLatin1String("bytes")).toInteger() > 3 * (1 << 20), out.constData());

    const LoadResult r = TraceLoader::load(gzip ? gz : plain);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const TraceData &d = *r.trace;
    QCOMPARE(qint64(d.eventCount()), expected.value(QLatin1String("count")).toInteger());
    QCOMPARE(qint64(d.bytesRead), expected.value(QLatin1String("bytes")).toInteger());
    int64_t durSum = 0, nameBytes = 0, noteBytes = 0;
    std::map<char, int64_t> special;
    for (uint32_t e = 0; e < d.eventCount(); ++e) {
        durSum += d.duration[e];
        const std::string_view name = d.nameOf(e);
        nameBytes += int64_t(name.size());
        noteBytes += int64_t(d.arg(e, "note").size());
        for (char c : std::string_view("\"\\[]{},"))
            if (name.find(c) != std::string_view::npos)
                ++special[c];
    }
    QCOMPARE(qint64(durSum), expected.value(QLatin1String("durSum")).toInteger());
    QCOMPARE(qint64(nameBytes), expected.value(QLatin1String("nameBytes")).toInteger());
    QCOMPARE(qint64(noteBytes), expected.value(QLatin1String("noteBytes")).toInteger());
    const QJsonObject specialExpected = expected.value(QLatin1String("special")).toObject();
    for (auto it = specialExpected.begin(); it != specialExpected.end(); ++it) {
        const char c = it.key().toLatin1().at(0);
        QVERIFY2(special[c] == it.value().toInteger(),
                 qPrintable(QStringLiteral("names with '%1': %2, expected %3")
                                .arg(it.key())
                                .arg(special[c])
                                .arg(it.value().toInteger())));
    }
    // pid 1, "1" and " 1 " are one process: two threads, two tracks.
    QCOMPARE(d.tracks.size(), std::size_t(2));
    const QString broken = checkInvariants(d);
    QVERIFY2(broken.isEmpty(), qPrintable(broken));
}

void TstTraceLoader::kinetoGpuTracks_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("kineto 2021 V100") << publicTrace(kKineto2021);
    QTest::newRow("HTA A100 several streams") << publicTrace(
        "HolisticTraceAnalysis/tests__data__negative_queue_length_values_check__rank0.json.gz");
    QTest::newRow("HTA V100 ns resolution") << publicTrace(kHtaNsResolution);
    QTest::newRow("HTA MI250") << publicTrace(kHtaMi250);
    QTest::newRow("TraceLens sglang GPU pid 9")
        << publicTrace("TraceLens/tests__traces__inference__sglang_decode__sglang_Qwen3-8B_decode.json.gz");
    QTest::newRow("TraceLens vllm no metadata") << publicTrace(
        "TraceLens/tests__traces__inference__vllm_prefilldecode_piecewise__graph_execution.json.gz");
    QTest::newRow("TraceLens h100") << publicTrace(kTraceLensH100);
}

void TstTraceLoader::kinetoGpuTracks()
{
    // Kineto: GPU pid = device, tid = stream. Tracks holding kernels are GPU tracks of device pid;
    // tracks holding only CPU-side categories are CPU threads.
    QFETCH(QString, path);
    REQUIRE_TEST_DATA(path);
    QByteArray out;
    QString problem;
    QVERIFY2(runPython(kKinetoTrackOracle, {path}, out, problem), qPrintable(problem));
    const QJsonObject expected = QJsonDocument::fromJson(out).object();
    const QJsonArray kernelTracks = expected.value(QLatin1String("kernel")).toArray();
    const QJsonArray cpuTracks = expected.value(QLatin1String("cpu")).toArray();
    QVERIFY(!kernelTracks.isEmpty());
    QVERIFY(!cpuTracks.isEmpty());

    const LoadResult r = TraceLoader::load(path);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const TraceData &d = *r.trace;
    QCOMPARE(formatName(d.format), QStringLiteral("kineto"));
    auto findTrack = [&d](const QJsonValue &id) -> const Track * {
        const QJsonArray pair = id.toArray();
        for (const Track &t : d.tracks)
            if (t.pid == pair.at(0).toString() && t.tid == pair.at(1).toString())
                return &t;
        return nullptr;
    };
    for (const QJsonValue &id : kernelTracks) {
        const QString label = QString::fromUtf8(QJsonDocument(id.toArray()).toJson(QJsonDocument::Compact));
        const Track *t = findTrack(id);
        QVERIFY2(t, qPrintable(QStringLiteral("no track %1").arg(label)));
        QVERIFY2(t->gpu,
                 qPrintable(QStringLiteral("track %1 holds kernels but is not a GPU track").arg(label)));
        bool isInt = false;
        const int pid = id.toArray().at(0).toString().toInt(&isInt);
        QVERIFY(isInt);
        QCOMPARE(t->device, pid);
    }
    for (const QJsonValue &id : cpuTracks) {
        const QString label = QString::fromUtf8(QJsonDocument(id.toArray()).toJson(QJsonDocument::Compact));
        const Track *t = findTrack(id);
        QVERIFY2(t, qPrintable(QStringLiteral("no track %1").arg(label)));
        QVERIFY2(!t->gpu, qPrintable(QStringLiteral("CPU track %1 classified as GPU").arg(label)));
    }
    // Kernels only ever sit on GPU tracks.
    for (uint32_t e = 0; e < d.eventCount(); ++e)
        if (d.kind[e] == EventKind::Kernel)
            QVERIFY(d.onGpu(e));
}

void TstTraceLoader::kineto2021StreamTid()
{
    // 2021 schema: GPU activity on pid 0, tid "stream 7"; categories "Kernel"/"Memcpy"/"Memset".
    REQUIRE_TEST_DATA(publicTrace(kKineto2021));
    const LoadResult r = TraceLoader::load(publicTrace(kKineto2021));
    QVERIFY2(r.ok(), qPrintable(r.error));
    const TraceData &d = *r.trace;
    QCOMPARE(formatName(d.format), QStringLiteral("kineto"));
    int streams = 0;
    for (const Track &t : d.tracks) {
        QCOMPARE(t.tid, t.tid.trimmed());
        QCOMPARE(t.pid, t.pid.trimmed());
        if (t.tid.startsWith(QLatin1String("stream"))) {
            ++streams;
            QCOMPARE(t.tid, QStringLiteral("stream 7"));
            QCOMPARE(t.pid, QStringLiteral("0"));
            QVERIFY(t.gpu);
            QCOMPARE(t.device, 0);
        }
    }
    QCOMPARE(streams, 1);
    // 8,772 Kernel, 312 Memset, 12 Memcpy events on stream 7 (counted with Python when the test was written).
    std::map<EventKind, int> kinds;
    for (uint32_t e = 0; e < d.eventCount(); ++e)
        if (d.onGpu(e))
            ++kinds[d.kind[e]];
    QCOMPARE(kinds[EventKind::Kernel], 8772);
    QCOMPARE(kinds[EventKind::Memset], 312);
    QCOMPARE(kinds[EventKind::Memcpy], 12);
}

void TstTraceLoader::rocmProfileDataStringNumbers()
{
    // A bare JSON array whose first element is {}, with pid/tid/ts/dur as strings (integer µs).
    REQUIRE_TEST_DATA(publicTrace(kRocmProfileData));
    const LoadResult r = TraceLoader::load(publicTrace(kRocmProfileData));
    QVERIFY2(r.ok(), qPrintable(r.error));
    const TraceData &d = *r.trace;
    QCOMPARE(formatName(d.format), QStringLiteral("chrome"));

    // {'pid': '2', 'tid': '0', 'name': 'CopyHostToDevice', 'ts': '8306017670485', 'dur': '154889', ...}
    const int64_t copy = findEvent(d, "CopyHostToDevice");
    QVERIFY(copy >= 0);
    QCOMPARE(qint64(d.start[copy]), qint64(8306017670485000));
    QCOMPARE(qint64(d.duration[copy]), qint64(154889000));
    const Track &gpu = d.tracks[d.track[copy]];
    QCOMPARE(gpu.pid, QStringLiteral("2"));
    QCOMPARE(gpu.tid, QStringLiteral("0"));
    QCOMPARE(gpu.processName, QStringLiteral("GPU2")); // from its `M` process_name
    QVERIFY(gpu.gpu);
    QCOMPARE(gpu.device, 2);

    // {'name': 'Cijk_Ailk_Bljk_SB_MT128x64x16_...', 'ts': '8306020565922', 'dur': '26211', desc
    // KernelExecution}
    int64_t gemm = -1;
    for (uint32_t e = 0; e < d.eventCount() && gemm < 0; ++e)
        if (d.nameOf(e).substr(0, 26) == "Cijk_Ailk_Bljk_SB_MT128x64" && d.start[e] == 8306020565922000)
            gemm = e;
    QVERIFY(gemm >= 0);
    QCOMPARE(qint64(d.duration[gemm]), qint64(26211000));
    QVERIFY(d.kind[gemm] == EventKind::Kernel);
    QVERIFY(d.kind[copy] != EventKind::Kernel);

    // The host threads (pid "1087077") are CPU tracks named by their `M` thread_name.
    bool sawHost = false;
    for (const Track &t : d.tracks) {
        if (t.pid != QLatin1String("1087077"))
            continue;
        sawHost = true;
        QVERIFY(!t.gpu);
        QCOMPARE(t.threadName, QStringLiteral("Hip ") + t.tid);
    }
    QVERIFY(sawHost);

    // Its HIP calls carry no category: told by their names, runtime calls and kernel launches, as a
    // Python count of the raw events says (the calls had been drawn as other CPU slices).
    QByteArray out;
    QString problem;
    QVERIFY2(runPython(R"PY(
import gzip, json, re, sys
ev = [e for e in json.load(gzip.open(sys.argv[1])) if e.get('ph') == 'X' and e.get('pid') == '1087077']
calls = [e['name'] for e in ev if 'cat' not in e and re.match('hip[A-Z]', e['name'])]
launches = sum('LaunchKernel' in n for n in calls)
print(json.dumps({'runtime': len(calls) - launches, 'launches': launches}))
)PY",
                       {publicTrace(kRocmProfileData)}, out, problem),
             qPrintable(problem));
    const QJsonObject expected = QJsonDocument::fromJson(out).object();
    int runtime = 0, launches = 0;
    for (uint32_t e = 0; e < d.eventCount(); ++e) {
        runtime += d.kind[e] == EventKind::Runtime;
        launches += d.kind[e] == EventKind::KernelLaunch;
    }
    QVERIFY(expected.value(QStringLiteral("runtime")).toInt() > 50);
    QCOMPARE(runtime, expected.value(QStringLiteral("runtime")).toInt());
    QCOMPARE(launches, expected.value(QStringLiteral("launches")).toInt());
}

// ---------------------------------------------------------------------------------------------
// Generated fixtures

void TstTraceLoader::pidAndTidForms()
{
    const QString path = m_tmp.filePath(QStringLiteral("ids.json"));
    QVERIFY(writeFile(path, R"({"traceEvents":[
{"ph":"X","pid":"6","tid":1,"ts":1,"dur":1,"name":"a"},
{"ph":"X","pid":6,"tid":1,"ts":2,"dur":1,"name":"b"},
{"ph":"X","pid":" 6 ","tid":"1","ts":3,"dur":1,"name":"c"},
{"ph":"X","pid":6,"tid":"stream 7 ","ts":4,"dur":1,"name":"d","cat":"kernel"},
{"ph":"X","pid":"6","tid":"stream 7","ts":5,"dur":1,"name":"e","cat":"kernel"},
{"ph":"X","pid":6,"tid":" stream 7","ts":6,"dur":1,"name":"f","cat":"kernel"},
{"ph":"X","pid":7,"tid":1,"ts":7,"dur":1,"name":"g"}
]})"));
    const LoadResult r = TraceLoader::load(path);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const TraceData &d = *r.trace;
    QCOMPARE(d.eventCount(), std::size_t(7));
    QCOMPARE(d.tracks.size(), std::size_t(3));
    std::map<std::pair<QString, QString>, std::set<std::string>> byTrack;
    for (uint32_t e = 0; e < d.eventCount(); ++e)
        byTrack[{d.tracks[d.track[e]].pid, d.tracks[d.track[e]].tid}].insert(std::string(d.nameOf(e)));
    const std::set<std::string> cpu{"a", "b", "c"}, stream{"d", "e", "f"}, other{"g"};
    using Key = std::pair<QString, QString>;
    QVERIFY(byTrack[Key(QStringLiteral("6"), QStringLiteral("1"))] == cpu);
    QVERIFY(byTrack[Key(QStringLiteral("6"), QStringLiteral("stream 7"))] == stream);
    QVERIFY(byTrack[Key(QStringLiteral("7"), QStringLiteral("1"))] == other);
    for (const Track &t : d.tracks)
        if (t.tid == QLatin1String("stream 7")) {
            QVERIFY(t.gpu);
            QCOMPARE(t.device, 6); // Kineto: GPU pid = device
        }
}

void TstTraceLoader::utf8Bom_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("gzip");
    const QByteArray object = R"({"traceEvents":[{"ph":"X","pid":1,"tid":1,"ts":1.5,"dur":2,"name":"k"}]})";
    const QByteArray array = R"([{"ph":"X","pid":1,"tid":1,"ts":1.5,"dur":2,"name":"k"}])";
    QTest::newRow("object, plain") << object << false;
    QTest::newRow("bare array, plain") << array << false;
    QTest::newRow("object, gzip") << object << true;
    QTest::newRow("bare array, gzip") << array << true;
}

void TstTraceLoader::utf8Bom()
{
    QFETCH(QByteArray, json);
    QFETCH(bool, gzip);
    const QString plain = m_tmp.filePath(QStringLiteral("bom.json"));
    QVERIFY(writeFile(plain, QByteArray("\xEF\xBB\xBF") + json));
    QString path = plain;
    if (gzip) {
        path = plain + QStringLiteral(".gz");
        QByteArray out;
        QString problem;
        QVERIFY2(runPython(kGzip, {plain, path}, out, problem), qPrintable(problem));
    }
    const LoadResult r = TraceLoader::load(path);
    QVERIFY2(r.ok(), qPrintable(r.error));
    QCOMPARE(r.trace->eventCount(), std::size_t(1));
    QCOMPARE(qint64(r.trace->start[0]), qint64(1500));
    QCOMPARE(qint64(r.trace->duration[0]), qint64(2000));
    QCOMPARE(r.trace->qname(0), QStringLiteral("k"));
}

// A kernel stamped far from every CPU event (a clock glitch: 16 days before its launch, an hour after
// the trace) is left out and counted, rather than stretching its step over that time; one stamped less
// than a minute (and the trace's span) away is kept.
void TstTraceLoader::strayGpuEventsLeftOut_data()
{
    QTest::addColumn<QString>("where");
    QTest::addColumn<double>("shiftUs");
    QTest::addColumn<bool>("leftOut");
    QTest::newRow("at 0, days before") << QStringLiteral("before") << -1e18 << true;
    QTest::newRow("an hour after") << QStringLiteral("after") << 3600e6 << true;
    QTest::newRow("30 s before") << QStringLiteral("before") << -30e6 << false;
    QTest::newRow("30 s after") << QStringLiteral("after") << 30e6 << false;
    // a CPU call still running when the kernel starts is CPU time, however long after its start
    QTest::newRow("90 s into a 2-minute synchronize") << QStringLiteral("during-sync") << 90e6 << false;
    // a damaged CPU row must not wrap the window around (every kernel had then been left out)
    QTest::newRow("a CPU event at int64's end") << QStringLiteral("far-cpu") << 0.0 << false;
    // a kernel starting in time and lasting decades stretched the GPU's span as a stray start did
    QTest::newRow("lasting 31 years") << QStringLiteral("long") << 1e15 << true;
    QTest::newRow("lasting 30 s") << QStringLiteral("long") << 30e6 << false;
    // its end past the last CPU start's window, inside the CPU's latest end: kept on the second look
    QTest::newRow("lasting 90 s inside a 2-minute synchronize")
        << QStringLiteral("long-sync") << 90e6 << false;
}

void TstTraceLoader::strayGpuEventsLeftOut()
{
    QFETCH(QString, where);
    QFETCH(double, shiftUs);
    QFETCH(bool, leftOut);
    const QString source = testdata::path("h100_runs/torch_processes/proc_0/run_0/trace.pt.trace.json.gz");
    REQUIRE_TEST_DATA(source);
    const QString moved = m_tmp.filePath(QStringLiteral("moved.json"));
    QByteArray out;
    QString problem;
    QVERIFY2(runPython(kMoveKernel, {source, moved, where, QString::number(shiftUs, 'f', 0)}, out, problem),
             qPrintable(problem));
    const int64_t kernelsInFile = out.trimmed().toLongLong();
    QVERIFY(kernelsInFile > 100);
    const LoadResult original = TraceLoader::load(source), r = TraceLoader::load(moved);
    QVERIFY2(original.ok() && r.ok(), qPrintable(original.error + r.error));
    const auto kernels = [](const TraceData &d) {
        return std::count(d.kind.begin(), d.kind.end(), EventKind::Kernel);
    };
    QCOMPARE(int64_t(kernels(*original.trace)), kernelsInFile);
    QCOMPARE(int64_t(kernels(*r.trace)), kernelsInFile - (leftOut ? 1 : 0));
    QCOMPARE(skippedMatching(*r.trace, QStringLiteral("clock glitch")), int64_t(leftOut ? 1 : 0));
    QCOMPARE(skippedMatching(*original.trace, QStringLiteral("clock glitch")), int64_t(0));
    // what is left is whole: every track's events in order, the GPU's none at the stray one's time
    const TraceData &d = *r.trace;
    int64_t first = std::numeric_limits<int64_t>::max(), last = std::numeric_limits<int64_t>::min();
    for (std::size_t t = 0; t < d.tracks.size(); ++t) {
        const std::vector<uint32_t> &events = d.trackEvents[t];
        QVERIFY(std::is_sorted(events.begin(), events.end(),
                               [&d](uint32_t a, uint32_t b) { return d.start[a] < d.start[b]; }));
        QVERIFY(!events.empty() || !d.tracks[t].gpu);
        for (const uint32_t e : events)
            if (d.tracks[t].gpu) {
                first = std::min(first, d.start[e]);
                last = std::max(last, d.end(e));
            }
    }
    const bool kernelMoved = !leftOut && where != QLatin1String("far-cpu");
    QVERIFY2(kernelMoved ? last - first > 29'000'000'000 : last - first < 60'000'000'000,
             qPrintable(QString::number(last - first)));
}

// JAX's scope path (args.name; its GPU a /device: process) on the file's first event is kept as on any other:
// the column began at the first event that had one, and for event 0 that left it empty (every scope lost a
// kernel).
void TstTraceLoader::opPathOfTheFirstEvent()
{
    const QString path = m_tmp.filePath(QStringLiteral("first_has_path.json"));
    QVERIFY(writeFile(path, R"({"traceEvents":[
        {"ph":"X","pid":1,"tid":14,"ts":1,"dur":2,"name":"k0","args":{"name":"jit(f)/block/dot"}},
        {"ph":"M","pid":1,"name":"process_name","args":{"name":"/device:GPU:0"}},
        {"ph":"X","pid":1,"tid":14,"ts":5,"dur":2,"name":"k1"},
        {"ph":"X","pid":1,"tid":14,"ts":9,"dur":2,"name":"k2","args":{"name":"jit(f)/mlp"}}]})"));
    const LoadResult r = TraceLoader::load(path);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const TraceData &t = *r.trace;
    QCOMPARE(checkInvariants(t), QString());
    QCOMPARE(t.eventCount(), std::size_t(3));
    QCOMPARE(t.strings.qstring(t.opPathOf(uint32_t(findEvent(t, "k0")))), QStringLiteral("jit(f)/block/dot"));
    QCOMPARE(t.opPathOf(uint32_t(findEvent(t, "k1"))), uint32_t(0));
    QCOMPARE(t.strings.qstring(t.opPathOf(uint32_t(findEvent(t, "k2")))), QStringLiteral("jit(f)/mlp"));
}

void TstTraceLoader::skippedEventsByReason()
{
    const QString path = m_tmp.filePath(QStringLiteral("skips.json"));
    QVERIFY(writeFile(path, R"({"traceEvents":[
{"ph":"M","pid":1,"name":"process_name","args":{"name":"host"}},
{},
{"ph":"X","pid":1,"tid":1,"ts":30,"dur":5,"name":"late"},
{"ph":"X","pid":1,"tid":1,"ts":"soon","dur":1,"name":"ts as a word"},
{"ph":"X","pid":1,"tid":1,"ts":40,"dur":-3,"name":"negative dur"},
{"ph":"Q","pid":1,"tid":1,"ts":41,"dur":1,"name":"unknown ph"},
{"ph":"B","pid":1,"tid":2,"ts":100,"name":"outer"},
{"ph":"B","pid":1,"tid":2,"ts":110.5,"name":"inner"},
{"ph":"E","pid":1,"tid":2,"ts":120},
{"ph":"E","pid":1,"tid":2,"ts":160},
{"ph":"B","pid":1,"tid":3,"ts":200,"name":"never closed"},
{"ph":"E","pid":1,"tid":4,"ts":300},
{"ph":"i","pid":1,"tid":1,"ts":50,"s":"t","name":"marker"},
{"ph":"s","pid":1,"tid":1,"ts":30,"id":7,"cat":"ac2g","name":"flow"},
{"ph":"t","pid":1,"tid":1,"ts":31,"id":7,"cat":"ac2g","name":"flow"},
{"ph":"f","pid":1,"tid":1,"ts":32,"id":7,"cat":"ac2g","name":"flow","bp":"e"},
{"ph":"X","pid":1,"tid":1,"ts":"12.25","dur":"0.5","name":"string numbers"}
]})"));
    const LoadResult r = TraceLoader::load(path);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const TraceData &d = *r.trace;
    const QString skipped = skippedText(d);

    // Slices: "late", "string numbers", "outer", "inner" and the instant "marker".
    std::set<std::string> names;
    for (uint32_t e = 0; e < d.eventCount(); ++e)
        names.insert(std::string(d.nameOf(e)));
    const std::set<std::string> expectedNames{"late", "string numbers", "outer", "inner", "marker"};
    QVERIFY2(names == expectedNames, qPrintable(skipped));
    QCOMPARE(d.eventCount(), std::size_t(5));

    QVERIFY2(skippedMatching(d, QStringLiteral("\\bts\\b")) == 1, qPrintable(skipped));
    QVERIFY2(skippedMatching(d, QStringLiteral("negative.*dur|dur.*negative")) == 1, qPrintable(skipped));
    QVERIFY2(skippedMatching(d, QStringLiteral("\\bph\\b.*\\bQ\\b")) == 1, qPrintable(skipped));
    QVERIFY2(skippedMatching(d, QStringLiteral("\\bB without E\\b")) == 1, qPrintable(skipped));
    QVERIFY2(skippedMatching(d, QStringLiteral("\\bE without B\\b")) == 1, qPrintable(skipped));
    // Five bad events and nothing else: `{}`, `M`, flows and flow steps are not skipped events.
    int64_t total = 0;
    for (const auto &entry : d.skipped)
        total += entry.second;
    QVERIFY2(total == 5, qPrintable(skipped));
    QCOMPARE(d.skipped.size(), std::size_t(5));

    // B/E pair innermost first: inner 110.5 -> 120 µs, outer 100 -> 160 µs.
    const int64_t inner = findEvent(d, "inner"), outer = findEvent(d, "outer");
    QVERIFY(inner >= 0 && outer >= 0);
    QCOMPARE(qint64(d.start[inner]), qint64(110500));
    QCOMPARE(qint64(d.duration[inner]), qint64(9500));
    QCOMPARE(qint64(d.start[outer]), qint64(100000));
    QCOMPARE(qint64(d.duration[outer]), qint64(60000));
    QCOMPARE(d.track[inner], d.track[outer]);

    const int64_t marker = findEvent(d, "marker");
    QCOMPARE(qint64(d.start[marker]), qint64(50000));
    QCOMPARE(qint64(d.duration[marker]), qint64(0));
    QVERIFY(d.kind[marker] == EventKind::Instant);

    const int64_t strings = findEvent(d, "string numbers");
    QCOMPARE(qint64(d.start[strings]), qint64(12250));
    QCOMPARE(qint64(d.duration[strings]), qint64(500));

    // The s/f pair is one flow with two ends; the `t` step adds nothing.
    QCOMPARE(d.flows.size(), std::size_t(2));
    const QString broken = checkInvariants(d);
    QVERIFY2(broken.isEmpty(), qPrintable(broken));
}

void TstTraceLoader::outOfOrderEventsSortedPerTrack()
{
    const QString path = m_tmp.filePath(QStringLiteral("order.json"));
    QVERIFY(writeFile(path, R"([
{"ph":"X","pid":1,"tid":1,"ts":30,"dur":5,"name":"c"},
{"ph":"X","pid":1,"tid":2,"ts":5,"dur":1,"name":"y"},
{"ph":"X","pid":1,"tid":1,"ts":10,"dur":1,"name":"a"},
{"ph":"X","pid":1,"tid":1,"ts":20.0005,"dur":2,"name":"b"},
{"ph":"X","pid":1,"tid":2,"ts":1,"dur":1,"name":"x"},
{"ph":"X","pid":1,"tid":1,"ts":20,"dur":2,"name":"b0"},
{"ph":"i","pid":1,"tid":1,"ts":0,"name":"first"}
])"));
    const LoadResult r = TraceLoader::load(path);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const TraceData &d = *r.trace;
    QCOMPARE(d.eventCount(), std::size_t(7));
    // Columns keep file order.
    QCOMPARE(d.qname(0), QStringLiteral("c"));
    QCOMPARE(d.qname(6), QStringLiteral("first"));

    std::map<QString, QStringList> order;
    for (std::size_t t = 0; t < d.tracks.size(); ++t)
        for (uint32_t e : d.trackEvents[t])
            order[d.tracks[t].tid] << d.qname(e);
    QCOMPARE(order[QStringLiteral("1")],
             (QStringList{QStringLiteral("first"), QStringLiteral("a"), QStringLiteral("b0"),
                          QStringLiteral("b"), QStringLiteral("c")}));
    QCOMPARE(order[QStringLiteral("2")], (QStringList{QStringLiteral("x"), QStringLiteral("y")}));
    const QString broken = checkInvariants(d);
    QVERIFY2(broken.isEmpty(), qPrintable(broken));
}

void TstTraceLoader::tracksInRunsSortedStably_data()
{
    QTest::addColumn<int>("runs");
    QTest::newRow("in order") << 1;
    QTest::newRow("2 runs") << 2;
    QTest::newRow("5 runs") << 5; // an odd count: a run waits a round
    QTest::newRow("7 runs") << 7;
    QTest::newRow("shuffled") << 0; // one run per event or two: the fallback sort
}

// A thread written in a few ascending runs (as real traces are), with ties in start and in start and
// duration: the track lists its events by start, longer first, then in file order.
void TstTraceLoader::tracksInRunsSortedStably()
{
    QFETCH(int, runs);
    constexpr int kEvents = 480;
    QRandomGenerator random(uint32_t(7 + runs));
    std::vector<std::array<int, 3>> events(kEvents); // start, duration, file index
    for (int i = 0; i < kEvents; ++i)
        events[i] = {int(random.bounded(100)), 1 + int(random.bounded(3)), i};
    if (runs > 0)
        for (int r = 0; r < runs; ++r)
            std::sort(events.begin() + r * kEvents / runs, events.begin() + (r + 1) * kEvents / runs,
                      [](const auto &a, const auto &b) { return a[0] != b[0] ? a[0] < b[0] : a[1] > b[1]; });
    QByteArray json = "[";
    for (int i = 0; i < kEvents; ++i)
        json += QStringLiteral("%1{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":%2,\"dur\":%3,\"name\":\"e%4\"}")
                    .arg(i ? "," : "")
                    .arg(events[i][0])
                    .arg(events[i][1])
                    .arg(i)
                    .toUtf8();
    json += "]";
    const QString path = m_tmp.filePath(QStringLiteral("runs.json"));
    QVERIFY(writeFile(path, json));
    const LoadResult r = TraceLoader::load(path);
    QVERIFY2(r.ok(), qPrintable(r.error));
    const TraceData &d = *r.trace;
    QCOMPARE(d.trackEvents.size(), std::size_t(1));

    for (int i = 0; i < kEvents; ++i)
        events[i][2] = i; // file position, as the loader numbers events
    std::sort(events.begin(), events.end(), [](const auto &a, const auto &b) {
        return std::make_tuple(a[0], -a[1], a[2]) < std::make_tuple(b[0], -b[1], b[2]);
    });
    std::vector<uint32_t> expected;
    for (const auto &e : events)
        expected.push_back(uint32_t(e[2]));
    QVERIFY(d.trackEvents[0] == expected);
}

// ---------------------------------------------------------------------------------------------
// Progress, cancel, background loading

void TstTraceLoader::progressCallback_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("kineto gzip 1.2 MB") << publicTrace(kKineto2021);
    QTest::newRow("TraceLens mi300 gzip 1.2 MB") << publicTrace(kTraceLensMi300);
    QTest::newRow("rocprofv3 gzip") << publicTrace(kRocprofV3);
    QTest::newRow("rocmProfileData plain 84 KB") << plainRocmProfileData();
    QTest::newRow("JAX vm.trace gzip 47 KB") << jaxProfileDir() + QStringLiteral("/vm.trace.json.gz");
}

void TstTraceLoader::progressCallback()
{
    QFETCH(QString, path);
    REQUIRE_TEST_DATA(withSources({path}));
    std::vector<double> fractions;
    const LoadResult r = TraceLoader::load(path, [&fractions](double f) { fractions.push_back(f); });
    QVERIFY2(r.ok(), qPrintable(r.error));
    QVERIFY(!fractions.empty());
    for (std::size_t i = 0; i < fractions.size(); ++i) {
        QVERIFY2(fractions[i] >= 0.0 && fractions[i] <= 1.0, qPrintable(QString::number(fractions[i])));
        if (i > 0)
            QVERIFY2(fractions[i] >= fractions[i - 1],
                     qPrintable(QStringLiteral("%1 after %2").arg(fractions[i]).arg(fractions[i - 1])));
    }
    QVERIFY2(fractions.back() >= 0.99, qPrintable(QString::number(fractions.back())));
    if (QFileInfo(path).size() > 1000000)
        QVERIFY2(fractions.size() >= 3,
                 qPrintable(QStringLiteral("only %1 progress calls").arg(fractions.size())));
}

void TstTraceLoader::cancelBeforeLoad_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("kineto, many events") << publicTrace(kHtaNsResolution);
    QTest::newRow("small bare array") << plainRocmProfileData();
    QTest::newRow("rocprofv3") << publicTrace(kRocprofV3);
}

void TstTraceLoader::cancelBeforeLoad()
{
    QFETCH(QString, path);
    REQUIRE_TEST_DATA(withSources({path}));
    const std::atomic<bool> cancel{true};
    const LoadResult r = TraceLoader::load(path, {}, &cancel);
    QVERIFY(!r.ok());
    QVERIFY(r.cancelled);
    QVERIFY2(r.error.contains(QLatin1String("cancelled"), Qt::CaseInsensitive), qPrintable(r.error));
    QVERIFY2(r.error.contains(QDir::toNativeSeparators(path)), qPrintable(r.error));
}

void TstTraceLoader::asyncStartDelivers()
{
    const QStringList paths{publicTrace(kTraceLensMi300), plainRocmProfileData()};
    REQUIRE_TEST_DATA(withSources(paths));
    PairLoader loader;
    QSignalSpy finished(&loader, &PairLoader::finished);
    QVERIFY(finished.isValid());
    std::vector<std::pair<int, double>> progress;
    connect(&loader, &PairLoader::progress, this,
            [&progress](int job, double f, const QString &) { progress.emplace_back(job, f); });
    PairLoadResult result;
    connect(&loader, &PairLoader::finished, this,
            [&result](int, const scopeline::PairLoadResult &r) { result = r; });

    const int job = loader.start(paths[0], paths[1]);
    QVERIFY(loader.isRunning());
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toInt(), job);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QCOMPARE(result.a.size(), 1);
    QCOMPARE(result.b.size(), 1);
    const QList<LoadedRun> sides[] = {result.a, result.b};
    for (int i = 0; i < 2; ++i) {
        QCOMPARE(sides[i].front().run.file, QFileInfo(paths[i]).absoluteFilePath());
        QVERIFY(sides[i].front().analysis && sides[i].front().scopes);
        const LoadResult direct = TraceLoader::load(paths[i]);
        QVERIFY(direct.ok());
        const QString difference = compareTraces(*sides[i].front().trace, *direct.trace);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
    }
    QTRY_VERIFY(!loader.isRunning());

    QTRY_VERIFY(!progress.empty() && progress.back().second >= 0.99);
    for (std::size_t i = 0; i < progress.size(); ++i) {
        QCOMPARE(progress[i].first, job);
        QVERIFY(progress[i].second >= 0.0 && progress[i].second <= 1.0);
        if (i > 0)
            QVERIFY(progress[i].second >= progress[i - 1].second);
    }
}

// A run that cannot be read (a profiler killed while writing its last trace) is left out of its
// side, named, with its ranks (they sit inside the run); a side of such runs only fails the load.
void TstTraceLoader::unreadableRunIsLeftOut()
{
    REQUIRE_TEST_DATA(testdata::dlrmRun());
    QTemporaryDir dir(testdata::scratchDir());
    const QString a = dir.filePath(QStringLiteral("A")), b = dir.filePath(QStringLiteral("B"));
    QVERIFY(testdata::rankRuns(a, 2) && testdata::rankRuns(b, 3));
    // a hard link to the test data: unlinked before it is cut short
    const auto cutShort = [](const QString &file) {
        QByteArray text;
        QFile source(file);
        if (!source.open(QIODevice::ReadOnly))
            return false;
        text = source.read(source.size() / 2);
        source.close();
        QFile cut(file);
        return QFile::remove(file) && cut.open(QIODevice::WriteOnly) && cut.write(text) == text.size();
    };
    const QDir run1(QDir(b).filePath(QStringLiteral("run_1")));
    const QString bad = run1.filePath(run1.entryList({QStringLiteral("worker3_*")}).value(0));
    QVERIFY(cutShort(bad));

    const PairLoadResult result = PairLoader::load(a, b);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QCOMPARE(result.a.size(), 16);
    QCOMPARE(result.b.size(), 16); // run_0 and run_2, 8 ranks each: none of run_1's
    for (const LoadedRun &run : result.b)
        QVERIFY2(run.run.name != QLatin1String("run_1"), qPrintable(run.run.label()));
    QCOMPARE(result.leftOut.size(), 1);
    QVERIFY2(result.leftOut.front().contains(QFileInfo(bad).fileName()), qPrintable(result.leftOut.front()));

    // every run of B unreadable: no comparison, the error names a file
    for (const QString &run : {QStringLiteral("run_0"), QStringLiteral("run_2")}) {
        const QDir folder(QDir(b).filePath(run));
        QVERIFY(cutShort(folder.filePath(folder.entryList({QStringLiteral("worker0_*")}).value(0))));
    }
    const PairLoadResult none = PairLoader::load(a, b);
    QVERIFY(!none.ok() && !none.cancelled);
    QVERIFY2(none.error.contains(QLatin1String("worker")), qPrintable(none.error));
    QVERIFY(none.leftOut.isEmpty());
}

// A run that holds no GPU kernels where the other runs of its side do (GPU activity not recorded, or
// every kernel unreadable) is left out, named: as a run of no GPU time it would pull the side's per-run
// figures down. A side of such runs alone keeps them (nothing to compare against within it).
void TstTraceLoader::runWithoutKernelsIsLeftOut()
{
    const QString eager = QStringLiteral(SCOPELINE_SAMPLES "/torch_compile/eager");
    REQUIRE_TEST_DATA(eager);
    QTemporaryDir dir(testdata::scratchDir());
    const QString a = dir.filePath(QStringLiteral("A")), b = dir.filePath(QStringLiteral("B"));
    for (const QString &side : {a, b})
        for (const QString &run : {QStringLiteral("run_0"), QStringLiteral("run_1")}) {
            QVERIFY(QDir().mkpath(QDir(side).filePath(run)));
            const QString trace = QStringLiteral("/%1/trace.pt.trace.json.gz").arg(run);
            QVERIFY(testdata::anotherRun(eager + trace, side + trace));
        }
    const auto write = [&](const QString &run, const QByteArray &events) {
        QDir().mkpath(QDir(b).filePath(run));
        QFile file(QDir(b).filePath(run + QStringLiteral("/trace.json")));
        return file.open(QIODevice::WriteOnly) && file.write("{\"traceEvents\":[" + events + "]}") > 0;
    };
    const QByteArray cpuOp = R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":2,"ts":10,"dur":5})";
    QVERIFY(write(QStringLiteral("run_2"), cpuOp));
    QVERIFY(write(QStringLiteral("run_3"),
                  cpuOp + R"(,{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":12,"dur":-3})"));

    const PairLoadResult result = PairLoader::load(a, b);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QStringList kept;
    for (const LoadedRun &run : result.b)
        kept << run.run.name;
    QCOMPARE(kept, (QStringList{QStringLiteral("run_0"), QStringLiteral("run_1")}));
    QCOMPARE(result.leftOut.size(), 2);
    QVERIFY2(result.leftOut[0].contains(QLatin1String("run_2/trace.json")) &&
                 result.leftOut[1].contains(QLatin1String("run_3/trace.json")) &&
                 result.leftOut[1].contains(QLatin1String("holds no GPU kernels")),
             qPrintable(result.leftOut.join(u'\n')));

    // a side whose runs all hold none keeps them: its emptiness is said where it is compared
    const PairLoadResult cpuOnly = PairLoader::load(a, QDir(b).filePath(QStringLiteral("run_[23]")));
    QVERIFY2(cpuOnly.ok(), qPrintable(cpuOnly.error));
    QCOMPARE(cpuOnly.b.size(), 2);
    QVERIFY(cpuOnly.leftOut.isEmpty());
}

// Both sides unreadable: the error names both, a line each, not the first side's alone (fixing it
// would only show the other's next). Missing paths are said before anything is loaded.
void TstTraceLoader::everyUnreadableSideIsNamed()
{
    QFile source(publicTrace(kHtaMi250));
    QVERIFY(source.open(QIODevice::ReadOnly));
    const QByteArray half = source.read(source.size() / 2);
    const QString a = m_tmp.filePath(QStringLiteral("cut_a.json.gz")),
                  b = m_tmp.filePath(QStringLiteral("cut_b.json.gz"));
    QVERIFY(writeFile(a, half) && writeFile(b, half));
    const PairLoadResult cut = PairLoader::load(a, b);
    QVERIFY(!cut.ok() && !cut.cancelled);
    const QStringList lines = cut.error.split(u'\n');
    QCOMPARE(lines.size(), 2);
    QVERIFY2(lines[0].startsWith(a) && lines[1].startsWith(b), qPrintable(cut.error));
    QVERIFY2(lines[0].contains(QLatin1String("truncated")), qPrintable(cut.error));

    const QString missingA = m_tmp.filePath(QStringLiteral("no_a")),
                  missingB = m_tmp.filePath(QStringLiteral("no_b"));
    const PairLoadResult missing = PairLoader::load(missingA, missingB);
    QVERIFY(!missing.ok());
    QVERIFY2(missing.error.contains(missingA) && missing.error.contains(missingB), qPrintable(missing.error));
}

void TstTraceLoader::secondStartDropsFirst_data()
{
    QTest::addColumn<QString>("first");
    QTest::addColumn<QString>("second");
    // A long first job that the second start() cancels, and a quick one that may well complete:
    // either way only the second job's results arrive.
    QTest::newRow("long first job") << publicTrace(kTraceLensXdit) << publicTrace(kHtaMi250);
    QTest::newRow("quick first job") << publicTrace(kHtaMi250) << plainRocmProfileData();
}

void TstTraceLoader::secondStartDropsFirst()
{
    QFETCH(QString, first);
    QFETCH(QString, second);
    REQUIRE_TEST_DATA(withSources({first, second}));
    PairLoader loader;
    QSignalSpy finished(&loader, &PairLoader::finished);
    QList<std::pair<int, PairLoadResult>> delivered;
    connect(&loader, &PairLoader::finished, this, [&delivered](int job, const scopeline::PairLoadResult &r) {
        delivered.append({job, r});
    });
    std::set<int> progressJobs;
    connect(&loader, &PairLoader::progress, this,
            [&progressJobs](int job, double, const QString &) { progressJobs.insert(job); });

    const int job1 = loader.start(first, first);
    const int job2 = loader.start(second, second);
    QVERIFY(job1 != job2);
    QVERIFY(finished.wait(10000));
    // Give the first job every chance to deliver (it must not): let every background load end,
    // then deliver whatever they queued.
    QTRY_VERIFY_WITH_TIMEOUT(!loader.isRunning(), 10000);
    QVERIFY(QThreadPool::globalInstance()->waitForDone(10000));
    QTest::qWait(300);

    QCOMPARE(delivered.size(), 1);
    QCOMPARE(delivered[0].first, job2);
    QVERIFY2(delivered[0].second.ok(), qPrintable(delivered[0].second.error));
    QCOMPARE(delivered[0].second.a.size(), 1);
    QCOMPARE(delivered[0].second.a.front().run.file, QFileInfo(second).absoluteFilePath());
    // No event was processed between the two start() calls, so not even the first job's progress
    // may arrive.
    QVERIFY(progressJobs.count(job2));
    QVERIFY(!progressJobs.count(job1));
    QCOMPARE(progressJobs.size(), std::size_t(1));
}

// ---------------------------------------------------------------------------------------------
// File-level errors

void TstTraceLoader::fileErrors_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("hint"); // a regular expression the error must match (case-insensitive)
    QTest::newRow("missing file") << "missing"
                                  << "cannot open|no such file|does not exist|not found";
    QTest::newRow("directory") << "directory"
                               << "folder|directory";
    QTest::newRow("empty file") << "empty"
                                << "empty";
    QTest::newRow("whitespace only") << "whitespace"
                                     << "empty";
    QTest::newRow("truncated gzip") << "truncated-gzip"
                                    << "gzip.*truncated|truncated.*gzip";
    QTest::newRow("corrupt gzip") << "corrupt-gzip"
                                  << "corrupt.*gzip|gzip.*corrupt";
    QTest::newRow("gzip header only") << "gzip-header"
                                      << "gzip.*(truncated|corrupt)|(truncated|corrupt).*gzip";
    QTest::newRow("gzip of non-JSON") << "gzip-text"
                                      << "\\bbyte \\d+";
    QTest::newRow("gzip of an empty file") << "gzip-empty"
                                           << "empty";
    QTest::newRow("JSON cut mid-array") << "cut-json"
                                        << "\\bbyte \\d+";
    QTest::newRow("JSON with trailing garbage") << "trailing"
                                                << "\\bbyte \\d+";
    QTest::newRow("object without traceEvents") << "no-trace-events"
                                                << "traceEvents";
    QTest::newRow("top-level number") << "number"
                                      << "traceEvents";
    QTest::newRow("top-level string") << "string"
                                      << "traceEvents";
    QTest::newRow("random bytes") << "random"
                                  << "\\bbyte \\d+";
}

void TstTraceLoader::fileErrors()
{
    QFETCH(QString, kind);
    QFETCH(QString, hint);
    const QString path = m_tmp.filePath(QStringLiteral("bad-") + kind + QStringLiteral(".json"));
    auto realGz = [] { return readFile(publicTrace(kTraceLensH100)); };
    const bool needsTraces = kind == QLatin1String("truncated-gzip") ||
                             kind == QLatin1String("corrupt-gzip") || kind == QLatin1String("gzip-header") ||
                             kind == QLatin1String("cut-json");
    if (needsTraces)
        REQUIRE_TEST_DATA(withSources({publicTrace(kTraceLensH100), plainRocmProfileData()}));

    qint64 cutAt = -1;
    if (kind == QLatin1String("missing")) {
        QFile::remove(path);
    } else if (kind == QLatin1String("directory")) {
        QVERIFY(QDir().mkpath(path));
    } else if (kind == QLatin1String("empty")) {
        QVERIFY(writeFile(path, {}));
    } else if (kind == QLatin1String("whitespace")) {
        QVERIFY(writeFile(path, " \n\t\r\n   \n"));
    } else if (kind == QLatin1String("truncated-gzip")) {
        const QByteArray gz = realGz();
        QVERIFY(gz.size() > 1000);
        QVERIFY(writeFile(path, gz.left(gz.size() / 2)));
    } else if (kind == QLatin1String("corrupt-gzip")) {
        QByteArray gz = realGz();
        QVERIFY(gz.size() > 1000);
        for (qsizetype i = gz.size() / 2; i < gz.size() / 2 + 64; ++i)
            gz[i] = char(gz[i] ^ 0xA5);
        QVERIFY(writeFile(path, gz));
    } else if (kind == QLatin1String("gzip-header")) {
        QVERIFY(writeFile(path, realGz().left(10)));
    } else if (kind == QLatin1String("gzip-text")) {
        const QString text = m_tmp.filePath(QStringLiteral("text.txt"));
        QVERIFY(writeFile(text, "this is not JSON at all\n"));
        QByteArray out;
        QString problem;
        QVERIFY2(runPython(kGzip, {text, path}, out, problem), qPrintable(problem));
    } else if (kind == QLatin1String("gzip-empty")) {
        const QString text = m_tmp.filePath(QStringLiteral("nothing.txt"));
        QVERIFY(writeFile(text, {}));
        QByteArray out;
        QString problem;
        QVERIFY2(runPython(kGzip, {text, path}, out, problem), qPrintable(problem));
    } else if (kind == QLatin1String("cut-json")) {
        const QByteArray json = readFile(plainRocmProfileData());
        QVERIFY(json.size() > 1000);
        cutAt = json.size() / 2;
        QVERIFY(writeFile(path, json.left(cutAt)));
    } else if (kind == QLatin1String("trailing")) {
        QVERIFY(writeFile(path, R"([{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1,"name":"a"}] trailing)"));
    } else if (kind == QLatin1String("no-trace-events")) {
        QVERIFY(writeFile(
            path, R"({"displayTimeUnit":"ns","events":[{"ph":"X","pid":1,"tid":1,"ts":1,"dur":1}]})"));
    } else if (kind == QLatin1String("number")) {
        QVERIFY(writeFile(path, "42\n"));
    } else if (kind == QLatin1String("string")) {
        QVERIFY(writeFile(path, "\"traces\"\n"));
    } else if (kind == QLatin1String("random")) {
        QRandomGenerator random(20240403);
        QByteArray bytes(4096, '\0');
        for (char &c : bytes)
            c = char(random.bounded(256));
        bytes[0] = char(0xC3); // not whitespace, not JSON, not gzip magic
        QVERIFY(writeFile(path, bytes));
    } else {
        QFAIL(qPrintable(kind));
    }

    const LoadResult r = TraceLoader::load(path);
    QVERIFY(!r.ok());
    QVERIFY(!r.cancelled);
    QCOMPARE(r.path, path);
    QVERIFY2(r.error.contains(QDir::toNativeSeparators(path)), qPrintable(r.error));
    const QRegularExpression re(hint, QRegularExpression::CaseInsensitiveOption);
    QVERIFY2(re.match(r.error).hasMatch(),
             qPrintable(QStringLiteral("'%1' does not match /%2/").arg(r.error, hint)));

    if (cutAt > 0) {
        // The text is valid up to the cut, so the error is at its end.
        const qint64 at =
            QRegularExpression(QStringLiteral("byte (\\d+)")).match(r.error).captured(1).toLongLong();
        QVERIFY2(at >= cutAt - 256 && at <= cutAt + 1,
                 qPrintable(QStringLiteral("byte %1 for a cut at %2").arg(at).arg(cutAt)));
    }
}

void TstTraceLoader::jsonErrorByteOffset_data()
{
    // An invalid character '@' placed before, inside (early and several MB deep) and after a large
    // event array; the error must give its position in the (decompressed) document.
    QTest::addColumn<QString>("where");
    QTest::addColumn<bool>("gzip");
    QTest::newRow("skeleton before the array") << "before" << false;
    QTest::newRow("first event") << "first" << false;
    QTest::newRow("event 3 MB deep") << "deep" << false;
    QTest::newRow("skeleton after the array") << "after" << false;
    QTest::newRow("event 3 MB deep, gzip") << "deep" << true;
    QTest::newRow("bare array, event 3 MB deep") << "bare" << false;
}

void TstTraceLoader::jsonErrorByteOffset()
{
    QFETCH(QString, where);
    QFETCH(bool, gzip);
    QByteArray body;
    for (int i = 0; i < 24000; ++i) {
        if (i)
            body += ",\n";
        body +=
            QStringLiteral(R"({"ph":"X","pid":1,"tid":1,"ts":%1,"dur":1,"name":"k%1","args":{"pad":"%2"}})")
                .arg(i)
                .arg(QString(100, QLatin1Char('x')))
                .toUtf8();
    }
    const QByteArray bad = R"({"ph":"X","ts":@})";
    const qsizetype deep = body.indexOf(",\n{", 3 << 20) + 2; // an event boundary past 3 MB
    QByteArray doc;
    if (where == QLatin1String("before"))
        doc = R"({"a": @, "traceEvents": [)" + body + "]}";
    else if (where == QLatin1String("first"))
        doc = R"({"traceEvents": [)" + bad + "," + body + "]}";
    else if (where == QLatin1String("deep"))
        doc = R"({"traceEvents": [)" + body.left(deep) + bad + ",\n" + body.mid(deep) + "]}";
    else if (where == QLatin1String("after"))
        doc = R"({"traceEvents": [)" + body + R"(], "b": @})";
    else
        doc = "[" + body.left(deep) + bad + ",\n" + body.mid(deep) + "]";
    const qsizetype at = doc.indexOf('@'); // 0-based
    QVERIFY(at >= 0 && doc.indexOf('@', at + 1) < 0);

    QString path = m_tmp.filePath(QStringLiteral("at.json"));
    QVERIFY(writeFile(path, doc));
    if (gzip) {
        QByteArray out;
        QString problem;
        QVERIFY2(runPython(kGzip, {path, path + QStringLiteral(".gz")}, out, problem), qPrintable(problem));
        path += QStringLiteral(".gz");
    }
    const LoadResult r = TraceLoader::load(path);
    QVERIFY(!r.ok());
    QVERIFY2(r.error.contains(path), qPrintable(r.error));
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("\\bbyte (\\d+)")).match(r.error);
    QVERIFY2(m.hasMatch(), qPrintable(r.error));
    const qint64 reported = m.captured(1).toLongLong();
    // Counted from 0 or from 1, the byte is the '@'.
    QVERIFY2(reported == at || reported == at + 1,
             qPrintable(QStringLiteral("reported byte %1, the '@' is at offset %2: %3")
                            .arg(reported)
                            .arg(at)
                            .arg(r.error)));
    QVERIFY2(!r.error.contains(QLatin1String("cut short")),
             qPrintable(r.error)); // a bad byte, the text goes on
}

void TstTraceLoader::cutShortJsonIsSaid_data()
{
    QTest::addColumn<double>("keep"); // the share of a real trace's text kept
    QTest::addColumn<bool>("gzip");   // the cut text gzip'ed whole (an intact gzip of a cut document)
    QTest::newRow("in the first event") << 0.001 << false;
    QTest::newRow("halfway") << 0.5 << false;
    QTest::newRow("before the last brace") << 0.99999 << false;
    QTest::newRow("halfway, gzip") << 0.5 << true;
}

// A document that stops inside itself (a profiler stopped while writing it) says so beside the parse
// error that end causes.
void TstTraceLoader::cutShortJsonIsSaid()
{
    QFETCH(double, keep);
    QFETCH(bool, gzip);
    const QString whole = testdata::path("h100_runs/torch_compile/eager/run_0/trace.pt.trace.json.gz");
    REQUIRE_TEST_DATA(whole);
    QString path = m_tmp.filePath(QStringLiteral("whole.json"));
    QByteArray out;
    QString problem;
    QVERIFY2(runPython("import gzip, sys; open(sys.argv[2], 'wb').write(gzip.open(sys.argv[1]).read())",
                       {whole, path}, out, problem),
             qPrintable(problem));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll().trimmed();
    file.close();
    const QByteArray cut = text.left(qsizetype(double(text.size()) * keep));
    QVERIFY(cut.size() > 0 && cut.size() < text.size());
    path = m_tmp.filePath(QStringLiteral("cut.json"));
    QVERIFY(writeFile(path, cut));
    if (gzip) {
        QVERIFY2(runPython(kGzip, {path, path + QStringLiteral(".gz")}, out, problem), qPrintable(problem));
        path += QStringLiteral(".gz");
    }
    const LoadResult r = TraceLoader::load(path);
    QVERIFY(!r.ok());
    QVERIFY2(
        r.error.contains(path) &&
            r.error.contains(QStringLiteral("the text ends there, after %1 bytes: the file was cut short")
                                 .arg(cut.size())),
        qPrintable(r.error));
}

QTEST_GUILESS_MAIN(TstTraceLoader)
#include "tst_traceloader.moc"
