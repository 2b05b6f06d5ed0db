#include "traceloader.h"

#include "eventarrayreader.h"
#include "inflatingstreambuf.h"
#include "rocprofv3handler.h"
#include "tracebuilder.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <istream>

namespace scopeline {

namespace {

// rocprofv3's JSON is one object whose first key is "rocprofiler-sdk-tool".
bool looksLikeRocprofV3(std::string_view head)
{
    std::size_t i = head.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
    auto skipSpace = [&] {
        while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i])))
            ++i;
    };
    skipSpace();
    if (i >= head.size() || head[i] != '{')
        return false;
    ++i;
    skipSpace();
    return head.substr(i, 22) == "\"rocprofiler-sdk-tool\"";
}

bool onlyWhitespace(std::string_view head)
{
    return head.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

} // namespace

LoadResult TraceLoader::load(const QString &path, const std::function<void(double)> &progress,
                             const std::atomic<bool> *cancel)
{
    LoadResult result;
    result.path = path;
    auto fail = [&](const QString &problem) {
        result.error = QStringLiteral("%1: %2").arg(QDir::toNativeSeparators(path), problem);
        return result;
    };
    if (QFileInfo(path).isDir())
        return fail(tr("is a folder, not a trace file"));

    InflatingStreamBuf buffer;
    if (progress)
        buffer.setProgressCallback(progress);
    if (!buffer.open(path))
        return fail(tr("cannot open: %1").arg(buffer.error()));
    const std::string_view head = buffer.peek();
    if (!buffer.error().isEmpty())
        return fail(buffer.error());
    if (onlyWhitespace(head))
        return fail(tr("the file is empty"));

    auto data = std::make_shared<TraceData>();
    data->sourceFile = path;
    TraceBuilder builder(*data);
    QString error;
    bool cancelled = false;
    const bool rocprof = looksLikeRocprofV3(head);
    if (rocprof) {
        std::istream in(&buffer);
        RocprofV3Handler handler(cancel);
        nlohmann::json::sax_parse(in, &handler);
        error = handler.error();
        cancelled = handler.cancelled();
        if (error.isEmpty() && !cancelled)
            handler.addKernelsTo(builder);
    } else {
        EventArrayReader reader(buffer, builder, cancel);
        reader.read();
        error = reader.error();
        cancelled = reader.cancelled();
    }
    if (cancelled || (cancel && cancel->load())) {
        result.cancelled = true;
        return fail(tr("loading cancelled"));
    }
    // A gzip or read failure ends the text early; say that rather than the JSON error it causes.
    if (!buffer.error().isEmpty())
        return fail(buffer.error());
    if (!error.isEmpty())
        return fail(error);

    builder.finish();
    if (rocprof)
        data->format = TraceFormat::RocprofV3;
    data->bytesRead = buffer.bytesProduced();
    result.trace = std::move(data);
    return result;
}

} // namespace scopeline
