// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/gui/samplepairs.h"

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

// The first is what the app opens when started without arguments: 5 runs a side and a large effect,
// so that its comparison shows a verdict at once.
const SampleEntry kSamples[] = {
    // the runner's own pair: each `chain` range is one iteration, 200 kernels launched one by one or
    // as one graph launch; its wall span is the iteration's GPU time
    {QT_TRANSLATE_NOOP("SamplePairs", "Eager launches vs CUDA graphs (scopeline-hipbench launch-chain, H100)"),
     "hipbench_launch_chain/eager", "hipbench_launch_chain/graph", {QStringLiteral("chain")}, SampleMode::Span},
    // compiled code drops the record_function scopes; the profiler step (3 forward calls) is on both sides
    {QT_TRANSLATE_NOOP("SamplePairs", "PyTorch eager vs torch.compile reduce-overhead (GPT, H100)"),
     "torch_compile/eager", "torch_compile/reduce_overhead", {QStringLiteral("ProfilerStep")}, SampleMode::Span},
    {QT_TRANSLATE_NOOP("SamplePairs", "Matmul vs einsum attention (JAX, H100)"), "jax_matmul_vs_einsum/matmul",
     "jax_matmul_vs_einsum/einsum",
     {QStringLiteral("attn_q_k"), QStringLiteral("attn_att_v"), QStringLiteral("mlp")},
     SampleMode::Kernel},
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
