/* fuzz.h -- the libFuzzer entry every target defines (and replay_main.c calls). */
#ifndef HOMG_FUZZ_H
#define HOMG_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
