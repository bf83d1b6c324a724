/* cuda_check.h -- mapping CUDA, cuSPARSE and cuSOLVER errors to homg_status,
 * shared by the CUDA files: the CUDA half of the HOMG_TRY family (kernels.h). */
#ifndef HOMG_CUDA_CHECK_H
#define HOMG_CUDA_CHECK_H

#include "kernels.h"
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <cusparse.h>

/* Errors after which the context (and usually the process) cannot use the device. */
static inline int homg_cuda_sticky(cudaError_t e)
{
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorECCUncorrectable:
    case cudaErrorLaunchTimeout:
    case cudaErrorContextIsDestroyed:
    case cudaErrorDevicesUnavailable: return 1;
    default: return 0;
    }
}

static inline homg_status homg_cuda_fail(kernel_exec *ex, cudaError_t e, const char *what)
{
    homg_status st = homg_cuda_sticky(e)                                            ? HOMG_ERROR_DEVICE_LOST
                     : e == cudaErrorMemoryAllocation                               ? HOMG_ERROR_OUT_OF_MEMORY
                     : (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) ? HOMG_ERROR_NO_DEVICE
                                                                                    : HOMG_ERROR_BACKEND;
    return homg_exec_fail(ex, st, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
}

/* Return from the calling function on a CUDA error. */
#define HOMG_CUDA_TRY(ex, call)                          \
    do {                                                 \
        cudaError_t homg_e_ = (call);                    \
        if (homg_e_ != cudaSuccess)                      \
            return homg_cuda_fail((ex), homg_e_, #call); \
    } while (0)

/* After a launch: configuration errors are reported, execution errors surface later. */
#define HOMG_CUDA_LAUNCHED(ex, what)                    \
    do {                                                \
        cudaError_t homg_e_ = cudaGetLastError();       \
        if (homg_e_ != cudaSuccess)                     \
            return homg_cuda_fail((ex), homg_e_, what); \
    } while (0)

static inline homg_status homg_cusparse_fail(kernel_exec *ex, cusparseStatus_t s, const char *what)
{
    homg_status st = s == CUSPARSE_STATUS_ALLOC_FAILED ? HOMG_ERROR_OUT_OF_MEMORY : HOMG_ERROR_BACKEND;
    return homg_exec_fail(ex, st, "%s: %s", what, cusparseGetErrorString(s));
}

#define HOMG_CUSPARSE_TRY(ex, call)                          \
    do {                                                     \
        cusparseStatus_t homg_s_ = (call);                   \
        if (homg_s_ != CUSPARSE_STATUS_SUCCESS)              \
            return homg_cusparse_fail((ex), homg_s_, #call); \
    } while (0)

#define HOMG_CUSOLVER_TRY(ex, call)                                                                            \
    do {                                                                                                       \
        cusolverStatus_t homg_s_ = (call);                                                                     \
        if (homg_s_ != CUSOLVER_STATUS_SUCCESS)                                                                \
            return homg_exec_fail(                                                                             \
                (ex), homg_s_ == CUSOLVER_STATUS_ALLOC_FAILED ? HOMG_ERROR_OUT_OF_MEMORY : HOMG_ERROR_BACKEND, \
                "%s: cuSOLVER status %d", #call, (int)homg_s_);                                                \
    } while (0)

/* Free device memory in bytes: cudaMemGetInfo's plus what the ctx's pool
 * keeps for reuse (0 where unknown); total not NULL: the device's bytes there
 * (0 where unknown). */
size_t homg_cuda_free_bytes(const kernel_exec *ex, size_t *total);

/* The stream kernels are queued on: the private capture stream while capturing. */
static inline cudaStream_t homg_cuda_stream(const kernel_exec *ex)
{
    return (cudaStream_t)(ex->capturing ? ex->capture_stream : ex->stream);
}

#endif
