/* emit_opencl.c — placeholder; being written. */
