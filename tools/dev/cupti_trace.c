/* cupti_trace.c -- a CUDA injection library (no nsys on the GPU machine):
 * records every runtime and driver API call (host start/end), kernel,
 * memcpy, memset and synchronisation of a process with CUPTI's activity API
 * and writes them, one a line, to $HOMG_CUPTI_OUT (default cupti_trace.txt)
 * at exit.  tools/dev/cupti_timeline.py turns them into a host timeline of
 * one homg_gmg_create (HOMG_GMG_TRACE=2 marks the creates).
 *
 * Build: cc -O2 -shared -fPIC -I/usr/local/cuda/include tools/dev/cupti_trace.c \
 *          -L/usr/local/cuda/lib64 -lcupti -o libhomg_cupti_trace.so
 * Use:   CUDA_INJECTION64_PATH=$PWD/libhomg_cupti_trace.so ./bench_gmg ...
 *
 * Lines (ns, CUPTI's clock, shared by host and device records):
 *   R start end corr thread name      runtime API call
 *   D start end corr thread name      driver API call
 *   K start end corr stream grid block name   kernel
 *   C start end corr stream bytes kind        memcpy (kind: CUpti_ActivityMemcpyKind)
 *   S start end corr stream bytes             memset
 *   Y start end corr stream type              synchronisation (CUpti_ActivitySynchronizationType) */
#include <cupti.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF_SIZE (8u << 20)

static FILE *out;

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = (uint8_t *)aligned_alloc(8, BUF_SIZE);
    *size = *buffer ? BUF_SIZE : 0;
    *max_records = 0;
}

static const char *api_name(CUpti_CallbackDomain dom, uint32_t cbid)
{
    const char *n = NULL;
    if (cuptiGetCallbackName(dom, cbid, &n) != CUPTI_SUCCESS || !n)
        return "?";
    return n;
}

static void write_record(CUpti_Activity *r)
{
    switch (r->kind) {
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER: {
        CUpti_ActivityAPI *a = (CUpti_ActivityAPI *)r;
        int rt = r->kind == CUPTI_ACTIVITY_KIND_RUNTIME;
        fprintf(out, "%c %llu %llu %u %u %s\n", rt ? 'R' : 'D', (unsigned long long)a->start,
                (unsigned long long)a->end, a->correlationId, a->threadId,
                api_name(rt ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API, a->cbid));
        break;
    }
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_KERNEL: {
        CUpti_ActivityKernel10 *k = (CUpti_ActivityKernel10 *)r;
        fprintf(out, "K %llu %llu %u %u %d %d %s\n", (unsigned long long)k->start, (unsigned long long)k->end,
                k->correlationId, k->streamId, k->gridX * k->gridY * k->gridZ, k->blockX * k->blockY * k->blockZ,
                k->name ? k->name : "?");
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        CUpti_ActivityMemcpy6 *m = (CUpti_ActivityMemcpy6 *)r;
        fprintf(out, "C %llu %llu %u %u %llu %u\n", (unsigned long long)m->start, (unsigned long long)m->end,
                m->correlationId, m->streamId, (unsigned long long)m->bytes, (unsigned)m->copyKind);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        CUpti_ActivityMemset4 *m = (CUpti_ActivityMemset4 *)r;
        fprintf(out, "S %llu %llu %u %u %llu\n", (unsigned long long)m->start, (unsigned long long)m->end,
                m->correlationId, m->streamId, (unsigned long long)m->bytes);
        break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        CUpti_ActivitySynchronization2 *s = (CUpti_ActivitySynchronization2 *)r;
        fprintf(out, "Y %llu %llu %u %u %u\n", (unsigned long long)s->start, (unsigned long long)s->end,
                s->correlationId, s->streamId, (unsigned)s->type);
        break;
    }
    default: break;
    }
}

static void CUPTIAPI buffer_completed(CUcontext c, uint32_t stream, uint8_t *buffer, size_t size, size_t valid)
{
    CUpti_Activity *r = NULL;
    (void)c;
    (void)stream;
    (void)size;
    while (out && cuptiActivityGetNextRecord(buffer, valid, &r) == CUPTI_SUCCESS)
        write_record(r);
    free(buffer);
}

static void at_exit(void)
{
    size_t dropped = 0;
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (out) {
        cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped);
        fprintf(out, "# dropped %zu\n", dropped);
        fclose(out);
        out = NULL;
    }
}

/* Called by the CUDA driver at its initialisation (CUDA_INJECTION64_PATH). */
int InitializeInjection(void)
{
    static const CUpti_ActivityKind kinds[] = {
        CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
        CUPTI_ACTIVITY_KIND_MEMCPY,  CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION
    };
    const char *path = getenv("HOMG_CUPTI_OUT");
    out = fopen(path ? path : "cupti_trace.txt", "w");
    if (!out)
        return 0;
    if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS) {
        fprintf(stderr, "cupti_trace: cuptiActivityRegisterCallbacks failed\n");
        return 0;
    }
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (cuptiActivityEnable(kinds[k]) != CUPTI_SUCCESS)
            fprintf(stderr, "cupti_trace: activity kind %d not enabled\n", (int)kinds[k]);
    atexit(at_exit);
    fprintf(stderr, "cupti_trace: recording to %s\n", path ? path : "cupti_trace.txt");
    return 1;
}
