/* SPDX-License-Identifier: MIT */
/*
 * kt_teardown and its library: how many calls each part makes, for the
 * test to look for in the trace (test_teardown.c).
 */
#ifndef KT_TEARDOWN_H
#define KT_TEARDOWN_H

/* GET_VERSIONs in main() */
#define KT_TD_MAIN_CALLS	5
/* GET_CLOCK_COUNTERS in the atexit() handler */
#define KT_TD_ATEXIT_CALLS	7
/* AVAILABLE_MEMORY in the library's destructor */
#define KT_TD_DTOR_CALLS	11
/* SET_MEMORY_POLICY in the atexit() handler that destructor registers */
#define KT_TD_LATE_CALLS	3

/* Give the library's destructor the /dev/kfd fd to use (kt_teardown_lib.c). */
void kt_td_use_fd(int fd);

#endif /* KT_TEARDOWN_H */
