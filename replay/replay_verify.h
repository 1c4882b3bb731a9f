/* SPDX-License-Identifier: MIT */
/*
 * The comparisons (the verify part, replay/meson.build): a replayed call
 * against its record. Nothing here is installed.
 */
#ifndef RP_VERIFY_H
#define RP_VERIFY_H

#include "replay_state.h"

/* verify.c: compare a replayed call with its record; learn new ids. */
void rp_verify_call(struct rp_run *st, struct rp_call *c);
/* verify.c: after a successful destroy, forget the ids it ended. */
void rp_forget_call(struct rp_run *st, struct rp_call *c);
/* verify_special.c: apertures (Return: 1 when the call was one), AMDGPU_INFO
 * queries that vary by themselves, SVM attributes. */
int rp_check_special(struct rp_run *st, struct rp_call *c);
int rp_info_variable(const struct rp_run *st, const struct rp_call *c);
void rp_check_svm_attrs(struct rp_run *st, struct rp_call *c);

#endif /* RP_VERIFY_H */
