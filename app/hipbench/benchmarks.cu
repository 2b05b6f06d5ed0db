// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmarks.h"
// hipcc compiles this file as HIP (clang defines __HIP__): the real HIP runtime. nvcc gets the same names
// mapped onto CUDA.
#if defined(__HIP__)
#include <hip/hip_runtime.h>
#else
#include "hip_compat.h"
#endif

#include <cstdio>
#include <stdexcept>
#include <unistd.h>

namespace hipbench {

namespace {

void check(hipError_t error, const char *call)
{
    if (error != hipSuccess)
        throw std::runtime_error(std::string(call) + ": " + hipGetErrorString(error));
}
#define HIP_CHECK(call) check((call), #call)

// A scope around the launches inside it, when traced.
class Range
{
public:
    Range(RangeSink *sink, const char *name) : m_sink(sink)
    {
        if (m_sink)
            m_sink->beginRange(name);
    }
    ~Range()
    {
        if (m_sink)
            m_sink->endRange();
    }

private:
    RangeSink *m_sink;
};

// One launch call (a kernel or a graph), told to the sink before and after: the hipEvent tracer
// records its events around it. `kernel` is the name CUPTI reports for the kernel, so that traces
// of the two builds name their kernels alike.
class Launch
{
public:
    Launch(RangeSink *sink, hipStream_t stream, const char *kernel, int graphKernels = 0)
        : m_sink(sink), m_stream(stream), m_kernel(kernel), m_graphKernels(graphKernels)
    {
        if (m_sink)
            m_sink->launchBegin(m_stream);
    }
    ~Launch()
    {
        if (m_sink)
            m_sink->launchEnd(m_stream, m_kernel, m_graphKernels);
    }

private:
    RangeSink *m_sink;
    hipStream_t m_stream;
    const char *m_kernel;
    int m_graphKernels;
};

template<typename T>
T *deviceArray(size_t count, int fill)
{
    void *pointer = nullptr;
    HIP_CHECK(hipMalloc(&pointer, count * sizeof(T)));
    HIP_CHECK(hipMemset(pointer, fill, count * sizeof(T)));
    return static_cast<T *>(pointer);
}

// ---- launch-chain: each kernel reads what the previous one wrote

constexpr const char *kChainStep = "void chainStep(float*, int)";

__global__ void chainStep(float *x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 0.999f + 1.0f;
}

class LaunchChain : public Benchmark
{
public:
    LaunchChain(const RunConfig &config, bool graph)
        : m_kernels(int(config.integer("kernels"))), m_elements(int(config.integer("elements"))), m_graph(graph)
    {
        HIP_CHECK(hipStreamCreateWithFlags(&m_stream, hipStreamNonBlocking));
        m_x = deviceArray<float>(size_t(m_elements), 0);
        if (m_graph) {
            HIP_CHECK(hipStreamBeginCapture(m_stream, hipStreamCaptureModeGlobal));
            launchChain(nullptr);
            HIP_CHECK(hipStreamEndCapture(m_stream, &m_captured));
            HIP_CHECK(hipGraphInstantiate(&m_exec, m_captured, nullptr, nullptr, 0));
        }
    }
    ~LaunchChain() override
    {
        if (m_exec)
            (void)hipGraphExecDestroy(m_exec);
        if (m_captured)
            (void)hipGraphDestroy(m_captured);
        (void)hipFree(m_x);
        (void)hipStreamDestroy(m_stream);
    }
    void run(int iterations, RangeSink *sink) override
    {
        for (int i = 0; i < iterations; ++i) {
            {
                Range range(sink, "chain");
                if (m_graph) {
                    Launch launch(sink, m_stream, kChainStep, m_kernels);
                    HIP_CHECK(hipGraphLaunch(m_exec, m_stream));
                } else {
                    launchChain(sink);
                }
            }
            HIP_CHECK(hipStreamSynchronize(m_stream));
        }
    }
    std::vector<std::string> scopes() const override { return {"chain"}; }
    const char *sampleMode() const override { return "span"; }

private:
    void launchChain(RangeSink *sink)
    {
        const int block = 256, grid = (m_elements + block - 1) / block;
        for (int k = 0; k < m_kernels; ++k) {
            Launch launch(sink, m_stream, kChainStep);
            hipLaunchKernelGGL(chainStep, dim3(grid), dim3(block), 0, m_stream, m_x, m_elements);
        }
        HIP_CHECK(hipGetLastError());
    }

    int m_kernels, m_elements;
    bool m_graph;
    hipStream_t m_stream = nullptr;
    float *m_x = nullptr;
    hipGraph_t m_captured = nullptr;
    hipGraphExec_t m_exec = nullptr;
};

// ---- batched-matmul: C[b] (3x1) = A[b] (3xK) @ B[b] (Kx1), one thread per batch item

template<typename T>
__global__ void batchedMatVec3(const T *a, const T *b, T *c, long batch, int k)
{
    const long item = blockIdx.x * long(blockDim.x) + threadIdx.x;
    if (item >= batch)
        return;
    const T *rows = a + item * 3 * k;
    const T *column = b + item * k;
    for (int i = 0; i < 3; ++i) {
        T sum = 0;
        for (int j = 0; j < k; ++j)
            sum += rows[i * k + j] * column[j];
        c[item * 3 + i] = sum;
    }
}

template<typename T>
class BatchedMatmul : public Benchmark
{
public:
    explicit BatchedMatmul(const RunConfig &config) : m_batch(config.integer("batch")), m_ks(config.integers("k"))
    {
        long maxK = 0;
        for (long k : m_ks)
            maxK = std::max(maxK, k);
        HIP_CHECK(hipStreamCreateWithFlags(&m_stream, hipStreamNonBlocking));
        m_a = deviceArray<T>(size_t(m_batch) * 3 * size_t(maxK), 0x3c);
        m_b = deviceArray<T>(size_t(m_batch) * size_t(maxK), 0x3c);
        m_c = deviceArray<T>(size_t(m_batch) * 3, 0);
        for (long k : m_ks) {
            char name[32];
            std::snprintf(name, sizeof name, "bmm_K%02ld", k);
            m_names.push_back(name);
        }
    }
    ~BatchedMatmul() override
    {
        (void)hipFree(m_a);
        (void)hipFree(m_b);
        (void)hipFree(m_c);
        (void)hipStreamDestroy(m_stream);
    }
    void run(int iterations, RangeSink *sink) override
    {
        const int block = 256;
        const unsigned grid = unsigned((m_batch + block - 1) / block);
        for (int i = 0; i < iterations; ++i)
            for (std::size_t s = 0; s < m_ks.size(); ++s) {
                Range range(sink, m_names[s].c_str());
                Launch launch(sink, m_stream, kernelName());
                hipLaunchKernelGGL(batchedMatVec3<T>, dim3(grid), dim3(block), 0, m_stream, m_a, m_b, m_c, m_batch,
                                   int(m_ks[s]));
                HIP_CHECK(hipGetLastError());
            }
        HIP_CHECK(hipStreamSynchronize(m_stream));
    }
    std::vector<std::string> scopes() const override { return m_names; }
    const char *sampleMode() const override { return "kernel"; }

private:
    static const char *kernelName()
    {
        return sizeof(T) == sizeof(double)
                   ? "void batchedMatVec3<double>(double const*, double const*, double*, long, int)"
                   : "void batchedMatVec3<float>(float const*, float const*, float*, long, int)";
    }

    long m_batch;
    std::vector<long> m_ks;
    std::vector<std::string> m_names;
    hipStream_t m_stream = nullptr;
    T *m_a = nullptr, *m_b = nullptr, *m_c = nullptr;
};

// ---- attention: per (batch, head), C = A @ B or A @ Bᵀ, in two implementations

// One thread per output element, straight from global memory.
template<bool TransposeB>
__global__ void matmulNaive(const float *a, const float *b, float *c, int m, int n, int k)
{
    const long head = blockIdx.z;
    const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    const float *A = a + head * long(m) * k;
    const float *B = b + head * long(k) * n;
    float sum = 0;
    for (int j = 0; j < k; ++j)
        sum += A[long(row) * k + j] * (TransposeB ? B[long(col) * k + j] : B[long(j) * n + col]);
    c[head * long(m) * n + long(row) * n + col] = sum;
}

constexpr int kTile = 16;

// 16x16 tiles of A and B through shared memory: each value read from global memory once per tile.
template<bool TransposeB>
__global__ void matmulTiled(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float tileA[kTile][kTile];
    __shared__ float tileB[kTile][kTile + 1];
    const long head = blockIdx.z;
    const float *A = a + head * long(m) * k;
    const float *B = b + head * long(k) * n;
    const int row = blockIdx.y * kTile + threadIdx.y, col = blockIdx.x * kTile + threadIdx.x;
    float sum = 0;
    for (int t = 0; t < k; t += kTile) {
        const int ak = t + threadIdx.x, bk = t + threadIdx.y;
        tileA[threadIdx.y][threadIdx.x] = row < m && ak < k ? A[long(row) * k + ak] : 0.f;
        if (TransposeB) {
            const int bcol = blockIdx.x * kTile + threadIdx.y; // read B rows along k, coalesced
            tileB[threadIdx.x][threadIdx.y] = bcol < n && ak < k ? B[long(bcol) * k + ak] : 0.f;
        } else {
            tileB[threadIdx.y][threadIdx.x] = bk < k && col < n ? B[long(bk) * n + col] : 0.f;
        }
        __syncthreads();
        for (int j = 0; j < kTile; ++j)
            sum += tileA[threadIdx.y][j] * tileB[j][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n)
        c[head * long(m) * n + long(row) * n + col] = sum;
}

constexpr const char *kNaiveQK = "void matmulNaive<true>(float const*, float const*, float*, int, int, int)";
constexpr const char *kNaiveAV = "void matmulNaive<false>(float const*, float const*, float*, int, int, int)";
constexpr const char *kTiledQK = "void matmulTiled<true>(float const*, float const*, float*, int, int, int)";
constexpr const char *kTiledAV = "void matmulTiled<false>(float const*, float const*, float*, int, int, int)";

class Attention : public Benchmark
{
public:
    Attention(const RunConfig &config, bool tiled)
        : m_heads(int(config.integer("batch") * config.integer("heads"))), m_seq(int(config.integer("seq"))),
          m_dim(int(config.integer("dim"))), m_tiled(tiled)
    {
        HIP_CHECK(hipStreamCreateWithFlags(&m_stream, hipStreamNonBlocking));
        const size_t qkv = size_t(m_heads) * m_seq * m_dim;
        m_q = deviceArray<float>(qkv, 0x3c);
        m_k = deviceArray<float>(qkv, 0x3c);
        m_v = deviceArray<float>(qkv, 0x3c);
        m_att = deviceArray<float>(size_t(m_heads) * m_seq * m_seq, 0);
        m_out = deviceArray<float>(qkv, 0);
    }
    ~Attention() override
    {
        for (float *p : {m_q, m_k, m_v, m_att, m_out})
            (void)hipFree(p);
        (void)hipStreamDestroy(m_stream);
    }
    void run(int iterations, RangeSink *sink) override
    {
        const dim3 block(kTile, kTile);
        const dim3 scores((m_seq + kTile - 1) / kTile, (m_seq + kTile - 1) / kTile, m_heads);
        const dim3 values((m_dim + kTile - 1) / kTile, (m_seq + kTile - 1) / kTile, m_heads);
        for (int i = 0; i < iterations; ++i) {
            {
                Range range(sink, "attn_q_k"); // att = q kᵀ: (seq x dim) (dim x seq)
                Launch launch(sink, m_stream, m_tiled ? kTiledQK : kNaiveQK);
                if (m_tiled)
                    hipLaunchKernelGGL(matmulTiled<true>, scores, block, 0, m_stream, m_q, m_k, m_att, m_seq, m_seq, m_dim);
                else
                    hipLaunchKernelGGL(matmulNaive<true>, scores, block, 0, m_stream, m_q, m_k, m_att, m_seq, m_seq, m_dim);
            }
            {
                Range range(sink, "attn_att_v"); // out = att v: (seq x seq) (seq x dim)
                Launch launch(sink, m_stream, m_tiled ? kTiledAV : kNaiveAV);
                if (m_tiled)
                    hipLaunchKernelGGL(matmulTiled<false>, values, block, 0, m_stream, m_att, m_v, m_out, m_seq, m_dim,
                                       m_seq);
                else
                    hipLaunchKernelGGL(matmulNaive<false>, values, block, 0, m_stream, m_att, m_v, m_out, m_seq, m_dim,
                                       m_seq);
            }
            HIP_CHECK(hipGetLastError());
        }
        HIP_CHECK(hipStreamSynchronize(m_stream));
    }
    std::vector<std::string> scopes() const override { return {"attn_q_k", "attn_att_v"}; }
    const char *sampleMode() const override { return "kernel"; }

private:
    int m_heads, m_seq, m_dim;
    bool m_tiled;
    hipStream_t m_stream = nullptr;
    float *m_q = nullptr, *m_k = nullptr, *m_v = nullptr, *m_att = nullptr, *m_out = nullptr;
};

} // namespace

bool initGpu(std::string &deviceName, std::string &error)
{
    int count = 0;
    const hipError_t status = hipGetDeviceCount(&count);
    if (status != hipSuccess || count == 0) {
#if defined(__HIP__)
        const char *what = "no AMD GPU found (scopeline-hipbench-rocm runs on ROCm; the NVIDIA build is "
                           "scopeline-hipbench): ";
        const std::string why = status != hipSuccess ? hipGetErrorString(status) : "0 devices";
#else
        const char *what = "no NVIDIA GPU found (scopeline-hipbench runs on CUDA; the AMD build is "
                           "scopeline-hipbench-rocm): ";
        // CUDA says "driver version is insufficient" when there is no driver at all (WSL2's is /dev/dxg)
        const bool driver = access("/dev/nvidiactl", F_OK) == 0 || access("/dev/dxg", F_OK) == 0;
        const std::string why = !driver                ? "no NVIDIA driver is loaded (no /dev/nvidiactl)"
                                : status != hipSuccess ? hipGetErrorString(status)
                                                       : "0 devices";
#endif
        error = what + why;
        return false;
    }
    hipDeviceProp_t prop;
    if (hipSetDevice(0) != hipSuccess || hipGetDeviceProperties(&prop, 0) != hipSuccess) {
        error = "cannot use GPU 0";
        return false;
    }
    deviceName = prop.name;
#if defined(__HIP__) // ROCm's name is often generic ("Device 740f"); the architecture says which chip
    deviceName += std::string(" (") + prop.gcnArchName + ")";
#endif
    return true;
}

std::unique_ptr<Benchmark> makeBenchmark(const RunConfig &config, const std::string &variant)
{
    const std::string &name = config.workload->name;
    if (name == "launch-chain")
        return std::make_unique<LaunchChain>(config, variant == "graph");
    if (name == "batched-matmul") {
        if (variant == "f64")
            return std::make_unique<BatchedMatmul<double>>(config);
        return std::make_unique<BatchedMatmul<float>>(config);
    }
    return std::make_unique<Attention>(config, variant == "tiled");
}

} // namespace hipbench
