/* SPDX-License-Identifier: MIT */
/* The profile written by uaccess-tune, read over the default policy. */
#ifndef UA_PROFILE_H
#define UA_PROFILE_H

#include "tunables.h"

/* Apply the profile, if one is found and names this CPU, to p */
void ua_profile_read(struct ua_policy *p);
/* The path of the profile in use, or NULL if none */
const char *ua_profile_in_use(void);

#endif /* UA_PROFILE_H */
