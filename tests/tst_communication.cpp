// SPDX-License-Identifier: GPL-3.0-or-later
// Which kernels are communication: each naming from real traces (NCCL before and after 2.19, RCCL's
// generic kernel named by its Collective name arg, lower-cased names, vLLM's all-reduce, XLA's
// collective ops), the compute kernels beside them, and the flag the run summary keeps, counted
// against the raw events.

#include "testdata.h"

#include "model/analysis/communication.h"
#include "model/loading/loadedrun.h"
#include "model/loading/tracefolder.h"

#include <QtTest>

using namespace scopeline;

class TstCommunication : public QObject
{
    Q_OBJECT

private slots:
    void names_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("arg");
        QTest::addColumn<QString>("kind"); // empty: not communication
        // from public/param/dlrm_kineto (NCCL < 2.19)
        QTest::newRow("ncclKernel SendRecv")
            << "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)"
            << ""
            << ""
            << "SendRecv";
        QTest::newRow("ncclKernel AllReduce")
            << "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)"
            << ""
            << ""
            << "AllReduce";
        // from public/TraceLens/…mi300… (RCCL, NCCL >= 2.19 naming, the collective in the args)
        QTest::newRow("ncclDevKernel Generic, Collective name")
            << "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)"
            << ""
            << "allreduce"
            << "AllReduce"; // as NCCL's kernels name it: one row with traces without the arg
        QTest::newRow("ncclDevKernel Generic, no arg")
            << "ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)"
            << ""
            << ""
            << "ncclDevKernel_Generic";
        // the names other tools miss (HTA #122, #208): NCCL >= 2.19 and lower-cased
        QTest::newRow("ncclDevKernel SendRecv") << "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"
                                                << ""
                                                << ""
                                                << "SendRecv";
        QTest::newRow("lower-cased") << "nccldevkernel_allgather_ring_ll(ncclDevKernelArgsStorage<4096ul>)"
                                     << ""
                                     << ""
                                     << "AllGather";
        QTest::newRow("rccl") << "rccl_kernel_AllToAll(rcclDevComm*)"
                              << ""
                              << ""
                              << "AllToAll";
        QTest::newRow("vLLM custom all-reduce")
            << "void vllm::cross_device_reduce_1stage<__half, 8>(vllm::RankData*, vllm::RankSignals, "
               "vllm::Signal*, __half*, int, int)"
            << ""
            << ""
            << "cross_device_reduce";
        // XLA's collectives by hlo_op, with the async halves and numbering
        QTest::newRow("XLA all-reduce-start")
            << "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
            << "all-reduce-start.3"
            << ""
            << "all-reduce";
        QTest::newRow("XLA collective-permute, graph node") << "some_kernel"
                                                            << "collective-permute-done.1 node 4"
                                                            << ""
                                                            << "collective-permute";
        QTest::newRow("XLA reduce-scatter") << "k"
                                            << "reduce-scatter"
                                            << ""
                                            << "reduce-scatter";
        // compute beside them
        QTest::newRow("elementwise") << "void at::native::vectorized_elementwise_kernel<4, float>(int, float)"
                                     << "aten::add"
                                     << ""
                                     << "";
        QTest::newRow("XLA fusion of an all-reduce's neighbour") << "loop_add_fusion"
                                                                 << "all-reduce-fusion.2"
                                                                 << ""
                                                                 << "";
        QTest::newRow("cuBLAS") << "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32"
                                << ""
                                << ""
                                << "";
    }

    void names()
    {
        QFETCH(QString, name);
        QFETCH(QString, op);
        QFETCH(QString, arg);
        QFETCH(QString, kind);
        const std::string n = name.toStdString(), o = op.toStdString(), a = arg.toStdString();
        QCOMPARE(isCommunicationKernel(n, o, a), !kind.isEmpty());
        QCOMPARE(QString::fromStdString(collectiveKind(n, o, a)), kind);
    }

    // The run summary flags exactly the kernels a raw count finds (NCCL in the name), and gives them
    // their collective as op: By op groups them by collective.
    void summaryFlags_data()
    {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<int>("expected");
        QTest::newRow("DLRM rank 1") << QDir(testdata::dlrmRun())
                                            .filePath(QStringLiteral(
                                                "worker1_step_12.1694128201556.pt.trace.json.gz"))
                                     << 8;
        QTest::newRow("MI300 RCCL")
            << testdata::path("public/TraceLens/tests__traces__mi300__resnet_act_checkpoint.json.gz") << 17;
        QTest::newRow("HTA nccl_parser_config")
            << testdata::path(
                   "public/HolisticTraceAnalysis/tests__data__nccl_parser_config__nccl_data.json.gz")
            << 21;
        QTest::newRow("single GPU, none")
            << testdata::path("h100_runs/torch_compile/eager/run_0/trace.pt.trace.json.gz") << 0;
    }

    void summaryFlags()
    {
        QFETCH(QString, trace);
        QFETCH(int, expected);
        REQUIRE_TEST_DATA(trace);
        const LoadedRun run = LoadedRun::load({QStringLiteral("run"), trace});
        QVERIFY2(run.ok(), qPrintable(run.error));
        const TraceData &t = *run.trace;
        int raw = 0; // kernels whose name says NCCL, in the raw events
        for (uint32_t e = 0; e < t.eventCount(); ++e)
            raw += t.kind[e] == EventKind::Kernel &&
                   QString::fromUtf8(t.nameOf(e).data(), qsizetype(t.nameOf(e).size()))
                       .contains(QLatin1String("nccl"), Qt::CaseInsensitive);
        QCOMPARE(raw, expected);
        int flagged = 0;
        for (const RunSummary::Kernel &k : run.summary->kernels()) {
            flagged += k.communication();
            if (k.communication())
                QVERIFY(!run.summary->strings().view(k.op).empty());
        }
        QCOMPARE(flagged, expected);
    }
};

QTEST_GUILESS_MAIN(TstCommunication)
#include "tst_communication.moc"
