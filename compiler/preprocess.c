/* preprocess.c — placeholder; being written. */
