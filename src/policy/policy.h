/* SPDX-License-Identifier: MIT */
/*
 * The policy to put in force, made once, when the dispatch table fills
 * itself: this CPU's defaults
 * (default_policy.h), then the profile (profile.h), then UACCESS_TUNABLES;
 * UACCESS_DISABLE first, which turns strategies off for all three.
 * dispatch.h puts it in force and keeps it (ua_policy()).
 */
#ifndef UA_POLICY_H
#define UA_POLICY_H

#include "tunables.h"

/* Fill p with this CPU's defaults (usable strategies only) */
void ua_policy_defaults(struct ua_policy *p);
/* The policy this process runs with: defaults, profile, environment */
void ua_policy_load(struct ua_policy *p);

#endif /* UA_POLICY_H */
