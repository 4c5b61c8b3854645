/* sema.c — placeholder; being written. */
