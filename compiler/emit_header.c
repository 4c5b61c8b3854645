/* emit_header.c — placeholder; being written. */
