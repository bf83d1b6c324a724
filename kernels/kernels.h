/* kernels.h -- the backend table the library calls.
 *
 * Two implementations of one interface, side by side in each component's
 * folder (kernels/grid, kernels/amg, ...): name.cu (CUDA, the product) and
 * name.c (plain C, the test oracle and the fallback) carry the same name.  Nothing here knows about files, meshes or
 * windows; nothing in lib/ launches a CUDA kernel directly.
 *
 * Every entry takes a kernel_exec: where to queue work (the ctx's stream) and
 * where to leave an error message.  Entries return homg_status; on failure they
 * have written a message to ex->msg.
 *
 * Areas add their own tables in their own headers (grid_kernels.h, ...) and pick
 * the implementation with HOMG_KERNELS(ex, name).
 */
#ifndef HOMG_KERNELS_H
#define HOMG_KERNELS_H

#include "homg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most lanes one fork runs side by side (an image's RGBA channels). */
#define HOMG_EXEC_LANES 4

typedef struct kernel_exec {
    homg_backend backend;    /* CPU or CUDA, never AUTO */
    int device;              /* CUDA ordinal */
    void *stream;            /* cudaStream_t the work is queued on */
    void *capture_stream;    /* private stream used to capture graphs when `stream` is legacy */
    int sm_count;            /* multiprocessors (CUDA), threads (CPU) */
    size_t shared_per_block; /* largest opt-in shared memory per block (CUDA) */
    int capturing;           /* non-zero while a graph is being captured */
    void *pool;              /* cudaMemPool_t of the default allocator (NULL: cudaMalloc/cudaFree) */
    /* Lanes (memory fork/lane/join): independent sequences queued side by side,
     * lane 0 on `stream`, lanes 1.. on private side streams (created on first fork). */
    void *home;                           /* `stream` while a lane >= 1 is selected */
    void *side[HOMG_EXEC_LANES - 1];      /* cudaStream_t of lanes 1.. */
    void *side_done[HOMG_EXEC_LANES - 1]; /* cudaEvent_t: lane's work done (join) */
    void *forked;                         /* cudaEvent_t: the caller's stream at the fork */
    /* Loops in a captured graph (memory loop_begin / loop_end): the body is captured on
     * loop_stream while capture_stream waits in loop_outer. */
    void *loop_stream;
    void *loop_outer;
    /* A branch inside a loop's body (memory branch_begin / branch_end): its body is
     * captured on branch_stream while the loop's capture waits in branch_outer. */
    void *branch_stream;
    void *branch_outer;
    char msg[512]; /* message of the last failure */
} kernel_exec;

/* Selects area table `name` (e.g. grid) of the exec's backend: declares nothing,
 * expects `homg_cpu_<name>_kernels` and, with CUDA, `homg_cuda_<name>_kernels`. */
#if HOMG_HAVE_CUDA
#define HOMG_KERNELS(ex, name) \
    ((ex)->backend == HOMG_BACKEND_CUDA ? &homg_cuda_##name##_kernels : &homg_cpu_##name##_kernels)
#else
#define HOMG_KERNELS(ex, name) (&homg_cpu_##name##_kernels)
#endif

/* Functions the CPU and CUDA kernels share word for word (grid_point.h,
 * amg_common.h, fem_element.h ...): one source, so both backends run the same
 * arithmetic. */
#if defined(__CUDACC__)
#define HOMG_HD static __host__ __device__ __forceinline__
#else
#define HOMG_HD static inline
#endif

/* Loops shorter than this run on one thread in the CPU kernels: OpenMP's fork
 * and barrier cost more than they save on coarse levels (and on a loaded
 * two-core machine). */
#define HOMG_OMP_MIN 50000

/* H2D, D2H: blocking.  H2D_ORDERED: an upload in the stream's order that
 * returns once the host buffer may be reused (pageable memory is staged by the
 * driver before cudaMemcpyAsync returns; pinned or managed memory is still
 * waited for), without waiting for the queued work: the set-ups' uploads. */
typedef enum homg_copy_kind { HOMG_H2D = 0, HOMG_D2H, HOMG_D2D, HOMG_H2D_ORDERED } homg_copy_kind;

/* ---- Kernel tables ------------------------------------------------------
 * Each area's table comes from one list, AREA_KERNELS(X), with one entry
 *     X(return type, area, name, (parameters))
 * per primitive.  From that list alone come the table type (HOMG_KERNEL_MEMBER),
 * the prototypes of both backends, homg_cpu_<area>_<name> and
 * homg_cuda_<area>_<name> (HOMG_KERNEL_CPU_PROTO / _CUDA_PROTO, seen by the files
 * that define them), and each backend's table (HOMG_KERNEL_CPU_INIT / _CUDA_INIT,
 * designated initialisers): a primitive missing from a backend fails to link, a
 * changed signature fails to compile. */
#define HOMG_KERNEL_MEMBER(ret, area, name, params)     ret(*name) params;
#define HOMG_KERNEL_CPU_PROTO(ret, area, name, params)  ret homg_cpu_##area##_##name params;
#define HOMG_KERNEL_CUDA_PROTO(ret, area, name, params) ret homg_cuda_##area##_##name params;
#define HOMG_KERNEL_CPU_INIT(ret, area, name, params)   .name = homg_cpu_##area##_##name,
#define HOMG_KERNEL_CUDA_INIT(ret, area, name, params)  .name = homg_cuda_##area##_##name,

/* Memory, streams, graphs and timers of one backend. */
#define MEMORY_KERNELS(X)                                                                                           \
    /* Probes the device (ordinal < 0: the thread's current one), fills ex, writes a name. */                       \
    X(homg_status, memory, init, (kernel_exec * ex, int device, void *stream, char *name, size_t namelen))          \
    X(void, memory, shutdown, (kernel_exec * ex))                                                                   \
    /* Make ex's device current for the calling thread; leave restores the previous one. */                         \
    X(homg_status, memory, enter, (kernel_exec * ex, int *saved))                                                   \
    X(void, memory, leave, (kernel_exec * ex, int saved))                                                           \
    X(homg_status, memory, alloc, (kernel_exec * ex, size_t bytes, void **ptr))                                     \
    X(void, memory, free, (kernel_exec * ex, void *ptr))                                                            \
    /* Ordered on the stream; D2H and H2D block until done. */                                                      \
    X(homg_status, memory, copy, (kernel_exec * ex, void *dst, const void *src, size_t bytes, homg_copy_kind kind)) \
    X(homg_status, memory, zero, (kernel_exec * ex, void *ptr, size_t bytes))                                       \
    X(homg_status, memory, sync, (kernel_exec * ex))                                                                \
    /* 1: ptr is usable by this backend, 0: it is not (host pointer given to CUDA, */                               \
    /* device pointer given to CPU), -1: cannot tell. */                                                            \
    X(int, memory, pointer_ok, (kernel_exec * ex, const void *ptr))                                                 \
    /* Graph capture of everything queued between begin and end (CUDA); the CPU */                                  \
    /* backend returns UNSUPPORTED and callers run the sequence directly. */                                        \
    X(homg_status, memory, capture_begin, (kernel_exec * ex))                                                       \
    X(homg_status, memory, capture_end, (kernel_exec * ex, void **graph))                                           \
    X(homg_status, memory, graph_launch, (kernel_exec * ex, void *graph))                                           \
    X(void, memory, graph_destroy, (void *graph))                                                                   \
    /* A loop inside the graph being captured (CUDA: a WHILE conditional node).  loop_handle */                     \
    /* makes its condition (0 at each launch; a kernel sets it: grid tol_check); loop_begin */                      \
    /* adds the loop after what the capture holds and captures what follows as its body, */                         \
    /* until loop_end.  The body runs while the condition is non-zero at its start. */                              \
    X(homg_status, memory, loop_handle, (kernel_exec * ex, unsigned long long *handle))                             \
    X(homg_status, memory, loop_begin, (kernel_exec * ex, unsigned long long handle))                               \
    X(homg_status, memory, loop_end, (kernel_exec * ex))                                                            \
    /* A branch inside a loop's body (CUDA: an IF conditional node; loop_handle makes its */                        \
    /* condition in the body, where a kernel of the body sets it before the branch): what */                        \
    /* follows until branch_end runs once when the condition is non-zero.  No branch in a branch. */                \
    X(homg_status, memory, branch_begin, (kernel_exec * ex, unsigned long long handle))                             \
    X(homg_status, memory, branch_end, (kernel_exec * ex))                                                          \
    /* Events on the stream (CPU: host clock). */                                                                   \
    X(homg_status, memory, event_create, (void **ev))                                                               \
    X(void, memory, event_destroy, (void *ev))                                                                      \
    X(homg_status, memory, event_record, (kernel_exec * ex, void *ev))                                              \
    X(homg_status, memory, event_elapsed_ms, (void *start, void *stop, float *ms))                                  \
    /* Lanes: fork makes lanes 1..n-1 start after what the stream holds; lane(i) queues */                          \
    /* what follows on lane i (0: the stream); join makes the stream wait for every lane */                         \
    /* and selects lane 0.  No host synchronisation (CUDA events); the CPU backend has one lane. */                 \
    X(homg_status, memory, fork, (kernel_exec * ex, int n))                                                         \
    X(void, memory, lane, (kernel_exec * ex, int i))                                                                \
    X(homg_status, memory, join, (kernel_exec * ex, int n))

typedef struct memory_kernels {
    const char *name;
    MEMORY_KERNELS(HOMG_KERNEL_MEMBER)
} memory_kernels;
MEMORY_KERNELS(HOMG_KERNEL_CPU_PROTO)
#if HOMG_HAVE_CUDA
MEMORY_KERNELS(HOMG_KERNEL_CUDA_PROTO)
#endif

extern const memory_kernels homg_cpu_memory_kernels;
#if HOMG_HAVE_CUDA
extern const memory_kernels homg_cuda_memory_kernels;
/* Non-zero when cudaGetDeviceCount finds a device. */
int homg_cuda_device_count(void);
#endif

/* Returns a failed homg_status from the calling function (the message is
 * already where it belongs: ex->msg in kernels, the ctx in lib/).  The rest of
 * the family: HOMG_TRY_BACKEND (lib/core/internal.h), HOMG_CUDA_TRY,
 * HOMG_CUDA_LAUNCHED, HOMG_CUSPARSE_TRY, HOMG_CUSOLVER_TRY (core/cuda_check.h). */
#define HOMG_TRY(call)                 \
    do {                               \
        homg_status homg_st_ = (call); \
        if (homg_st_ != HOMG_OK)       \
            return homg_st_;           \
    } while (0)

/* A tuning variable (lib/core/knob.c: an environment variable the benchmarks
 * and tests set), or dflt where it is unset or empty; here for the kernels'
 * host code too. */
double homg__knob(const char *name, double dflt);

/* Write a formatted message into ex->msg and return st. */
homg_status homg_exec_fail(kernel_exec *ex, homg_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif /* HOMG_KERNELS_H */
