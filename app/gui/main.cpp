// scopeline: the desktop trace explorer. `scopeline A B` opens a pair, `scopeline FILE.scopeline.json`
// a session; with no arguments it opens the bundled matmul vs einsum sample.

#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

namespace {

// The samples next to an installed binary, else in the source tree this binary was built from.
QString samplesFolder()
{
    const QString installed = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/scopeline/samples");
    if (QFileInfo::exists(installed))
        return QDir::cleanPath(installed);
    return QFileInfo::exists(QStringLiteral(SCOPELINE_SAMPLES)) ? QStringLiteral(SCOPELINE_SAMPLES) : QString();
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("Scopeline"));
    QApplication::setOrganizationName(QStringLiteral("Scopeline"));
    QApplication::setApplicationVersion(QStringLiteral(SCOPELINE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Compare GPU traces of two program variants."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("A"), QStringLiteral("Baseline trace folder or file, or a session file."));
    parser.addPositionalArgument(QStringLiteral("B"), QStringLiteral("Candidate trace folder or file."));
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    if (args.size() > 2)
        parser.showHelp(1);

    app.setProperty("samplesFolder", samplesFolder());
    scopeline::MainWindow window;
    window.show();
    if (args.size() == 2) {
        window.openPair(args[0], args[1]);
    } else if (args.size() == 1) {
        window.openSession(args[0]);
    } else if (const QString samples = samplesFolder(); !samples.isEmpty()) {
        scopeline::SessionState state;
        state.scopes = {QStringLiteral("attn_q_k"), QStringLiteral("attn_att_v"), QStringLiteral("mlp")};
        window.openPair(samples + QStringLiteral("/jax_matmul_vs_einsum/matmul"),
                        samples + QStringLiteral("/jax_matmul_vs_einsum/einsum"), state);
    }
    return app.exec();
}
