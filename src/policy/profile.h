/* SPDX-License-Identifier: MIT */
/* The profile written by uaccess-tune, read over the default policy. */
#ifndef UA_PROFILE_H
#define UA_PROFILE_H

#include "tunables.h"

/* Apply the profile, if one is found and names this CPU, to p */
void ua_profile_read(struct ua_policy *p, struct ua_ignored *ign);
/* The path of the profile in use, or NULL if none */
const char *ua_profile_in_use(void);

/*
 * Where the profile is looked for, in order (i = 0, 1): UACCESS_PROFILE
 * alone when it is set (set but empty: nowhere); else the user's,
 * $XDG_CONFIG_HOME/uaccess/profile or ~/.config/uaccess/profile, then the
 * system's.  0 with the path in buf; -ENOENT: no i-th place;
 * -ENAMETOOLONG.  The library reads the first it can; uaccess-tune writes
 * the first.
 */
int ua_profile_path(unsigned i, char *buf, size_t size);
/* The system's profile: SYSCONFDIR/uaccess/profile */
extern const char ua_profile_system[];
/* What init reads of a profile at most, in bytes */
#define UA_PROFILE_MAX 16384

#endif /* UA_PROFILE_H */
