/* cli_sub.h — reachable only with -I tests/cli/inc. */
#define CLI_SUB 7
