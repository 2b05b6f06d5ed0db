// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The HIP runtime API the benchmarks use, for nvcc only: the same names map onto the CUDA runtime here,
// because Debian's HIP headers do not build against CUDA 13. hipcc (scopeline-hipbench-rocm) compiles
// benchmarks.cu against HIP itself and never includes this file.

#include <cuda_runtime.h>

using hipError_t = cudaError_t;
using hipStream_t = cudaStream_t;
using hipGraph_t = cudaGraph_t;
using hipGraphExec_t = cudaGraphExec_t;
using hipGraphNode_t = cudaGraphNode_t;
using hipDeviceProp_t = cudaDeviceProp;
constexpr hipError_t hipSuccess = cudaSuccess;
constexpr auto hipStreamCaptureModeGlobal = cudaStreamCaptureModeGlobal;
constexpr auto hipStreamNonBlocking = cudaStreamNonBlocking;

inline hipError_t hipGetDeviceCount(int *count) { return cudaGetDeviceCount(count); }
inline hipError_t hipSetDevice(int device) { return cudaSetDevice(device); }
inline hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device)
{
    return cudaGetDeviceProperties(prop, device);
}
inline const char *hipGetErrorString(hipError_t error) { return cudaGetErrorString(error); }
inline hipError_t hipGetLastError() { return cudaGetLastError(); }
inline hipError_t hipMalloc(void **pointer, size_t bytes) { return cudaMalloc(pointer, bytes); }
inline hipError_t hipFree(void *pointer) { return cudaFree(pointer); }
inline hipError_t hipMemset(void *pointer, int value, size_t bytes) { return cudaMemset(pointer, value, bytes); }
inline hipError_t hipDeviceSynchronize() { return cudaDeviceSynchronize(); }
inline hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned flags)
{
    return cudaStreamCreateWithFlags(stream, flags);
}
inline hipError_t hipStreamDestroy(hipStream_t stream) { return cudaStreamDestroy(stream); }
inline hipError_t hipStreamSynchronize(hipStream_t stream) { return cudaStreamSynchronize(stream); }
inline hipError_t hipStreamBeginCapture(hipStream_t stream, cudaStreamCaptureMode mode)
{
    return cudaStreamBeginCapture(stream, mode);
}
inline hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t *graph)
{
    return cudaStreamEndCapture(stream, graph);
}
// HIP keeps the pre-CUDA-12 signature (error node and log buffer).
inline hipError_t hipGraphInstantiate(hipGraphExec_t *exec, hipGraph_t graph, hipGraphNode_t *, char *, size_t)
{
    return cudaGraphInstantiate(exec, graph, 0);
}
inline hipError_t hipGraphLaunch(hipGraphExec_t exec, hipStream_t stream) { return cudaGraphLaunch(exec, stream); }
inline hipError_t hipGraphExecDestroy(hipGraphExec_t exec) { return cudaGraphExecDestroy(exec); }
inline hipError_t hipGraphDestroy(hipGraph_t graph) { return cudaGraphDestroy(graph); }

#define hipLaunchKernelGGL(kernel, grid, block, sharedBytes, stream, ...)                                           \
    kernel<<<(grid), (block), (sharedBytes), (stream)>>>(__VA_ARGS__)
