/* The package-manager reducers' plugin descriptor (reducers-pkg.yaml). */
#include "pkg.h"

static const struct aiterm_reducer reducers[] = {
	{ "apt", "0.1.0", red_apt },
	{ "npm", "0.1.0", red_npm },
	{ "pip", "0.1.0", red_pip },
	{ "apt-list", "0.1.0", red_apt_list },
	{ "dpkg-list", "0.1.0", red_dpkg_list },
	{ NULL, NULL, NULL },
};

RL_PLUGIN("reducers-pkg", "0.1.0", reducers)
