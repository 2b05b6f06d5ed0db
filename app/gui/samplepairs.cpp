// SPDX-License-Identifier: GPL-3.0-or-later
#include "samplepairs.h"

#include <QCoreApplication>

namespace scopeline {

namespace {

struct SampleEntry
{
    const char *title;
    const char *pathA, *pathB; // below the samples folder
    QStringList scopes;
    SampleMode samples;
};

const SampleEntry kSamples[] = {
    {QT_TRANSLATE_NOOP("SamplePairs", "Matmul vs einsum attention (JAX, H100)"), "jax_matmul_vs_einsum/matmul",
     "jax_matmul_vs_einsum/einsum",
     {QStringLiteral("attn_q_k"), QStringLiteral("attn_att_v"), QStringLiteral("mlp")},
     SampleMode::Kernel},
    // graph-replayed kernels keep no named scopes; the jitted call's wall span is the step time
    {QT_TRANSLATE_NOOP("SamplePairs", "Eager launches vs CUDA graphs (JAX, H100)"), "eager_vs_graph/eager",
     "eager_vs_graph/graph", {QStringLiteral("PjitFunction(<lambda>)")}, SampleMode::Span},
};

} // namespace

QList<SamplePair> samplePairs(const QString &root)
{
    QList<SamplePair> pairs;
    for (const SampleEntry &entry : kSamples) {
        SamplePair pair;
        pair.title = QCoreApplication::translate("SamplePairs", entry.title);
        pair.state.pathA = root + QLatin1Char('/') + QLatin1String(entry.pathA);
        pair.state.pathB = root + QLatin1Char('/') + QLatin1String(entry.pathB);
        pair.state.scopes = entry.scopes;
        pair.state.samples = entry.samples;
        pairs.append(pair);
    }
    return pairs;
}

} // namespace scopeline
