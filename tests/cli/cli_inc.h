/* cli_inc.h — included by ok.sgc: must appear in its depfile. */
#define CLI_SCALE 2.0f
