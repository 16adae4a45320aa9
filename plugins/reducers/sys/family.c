/* The system reducers' plugin descriptor (manifest reducers-sys.yaml). */
#include "sys.h"

static const struct aiterm_reducer reducers[] = {
	{ "journalctl", "0.1.0", red_journalctl },
	{ "dmesg", "0.1.0", red_dmesg },
	{ "logfile", "0.1.0", red_logfile },
	{ "docker-ps", "0.1.0", red_docker_ps },
	{ "kubectl-get", "0.1.0", red_kubectl_get },
	{ "df", "0.1.0", red_df },
	{ "free", "0.1.0", red_free },
	{ "ps", "0.1.0", red_ps },
	{ "systemctl-status", "0.1.0", red_systemctl_status },
	{ "dd", "0.1.0", red_dd },
	{ NULL, NULL, NULL },
};

RL_PLUGIN("reducers-sys", "0.1.0", reducers)
