/* SPDX-License-Identifier: MIT */
/*
 * The fault handler (fault.c): ua_handle_fault() looks the interrupted
 * instruction up in the exception table (extable.h) and resumes at its
 * fixup; every other fault goes on to the program's handler (sigchain.h).
 */
#ifndef UA_FAULT_H
#define UA_FAULT_H

/*
 * At init: the handler for SIGSEGV and SIGBUS, what was there before it
 * kept as the program's, and the two unblocked in this thread.  0 or a
 * negative errno (-ENOTSUP: a runtime that owns the signals dropped ours).
 */
int ua_fault_install(void);

#endif /* UA_FAULT_H */
