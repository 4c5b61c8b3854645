/* emit_cuda.c — placeholder; being written. */
