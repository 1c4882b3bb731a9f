/* SPDX-License-Identifier: MIT */
/*
 * PC_SAMPLE (rocm flavour): the ROCm DKMS driver's PC sampling sessions
 * (kfd_pc_sampling.c). A GPU has one sampler per method; every session of
 * a method shares its format, and the first START / last STOP turn the
 * sampler on and off. The sessions of a GPU belong to the machine, not to
 * one process: they live in the registry, so a second process's CREATE
 * sees the first one's format.
 *
 * While a host-trap session is started, the interpreter's waves take a
 * host trap every interval (shader_pcs.c): the runtime's trap handler
 * writes the samples, as on the hardware. The stochastic sampler (the
 * SQ's own) has no model: its sessions produce no samples. The sessions'
 * state and errnos are the kernel's.
 */
#include <errno.h>
#include <string.h>

#include "ksim_priv.h"
#include "registry_priv.h"

#define PCS_HOSTTRAP	0
#define PCS_STOCH	1

/* The formats a GFX IP offers, in the driver's order (supported_formats[]). */
static const struct kfd_abi_pc_sample_info fmt_hosttrap = {
	.interval_min = 1, .interval_max = ~0ULL, .flags = 0,
	.method = KFD_ABI_PCS_METHOD_HOSTTRAP, .type = KFD_ABI_PCS_TYPE_TIME_US,
};

static const struct kfd_abi_pc_sample_info fmt_stoch_cycles = {
	.interval_min = 256, .interval_max = 1ULL << 31,
	.flags = KFD_ABI_PCS_FLAG_POWER_OF_2,
	.method = KFD_ABI_PCS_METHOD_STOCHASTIC,
	.type = KFD_ABI_PCS_TYPE_CLOCK_CYCLES,
};

/*
 * Keyed by the KFD gfx_target_version the profile gives, each with the
 * GC IP version the driver compares (gfx90a is GC 9.4.2, gfx942 9.4.3,
 * gfx950 9.5.0). Other IPs answer EOPNOTSUPP.
 */
static const struct {
	uint32_t gfx;
	const struct kfd_abi_pc_sample_info *fmt;
} formats[] = {
	{ 90010, &fmt_hosttrap },	/* GC 9.4.2 */
	{ 90402, &fmt_hosttrap },	/* GC 9.4.3 */
	{ 90402, &fmt_stoch_cycles },
	{ 90500, &fmt_hosttrap },	/* GC 9.5.0 */
	{ 90500, &fmt_stoch_cycles },
	{ 110500, &fmt_hosttrap },	/* GC 11.5.x */
	{ 110501, &fmt_hosttrap },
	{ 110502, &fmt_hosttrap },
	{ 110503, &fmt_hosttrap },
	{ 120000, &fmt_hosttrap },	/* GC 12.0.x */
	{ 120001, &fmt_hosttrap },
};

static uint32_t
gpu_gfx(const struct ksim_device *dev, int gpu)
{
	return (uint32_t)dev->gpus[gpu].n->props[KSIM_NP_GFX_TARGET_VERSION];
}

static int
method_index(uint32_t method)
{
	return method == KFD_ABI_PCS_METHOD_HOSTTRAP ? PCS_HOSTTRAP : PCS_STOCH;
}

/* Drop session @s: STOP then DESTROY, as kfd_pc_sample_release() does. */
static void
session_drop(struct reg_pcs *pc, struct reg_pcs_session *s)
{
	struct reg_pcs_method *m = &pc->m[method_index(s->method)];

	if (s->enabled && m->active_count)
		m->active_count--;
	if (m->use_count && !--m->use_count)
		memset(&m->info, 0, sizeof(m->info));
	memset(s, 0, sizeof(*s));
}

/*
 * The sessions of processes that ended without closing /dev/kfd in this
 * model (killed): the kernel releases them with their process.
 */
static void
reap_dead(struct reg_pcs *pc)
{
	for (unsigned int i = 0; i < REG_PCS_SESSIONS; i++) {
		struct reg_pcs_session *s = &pc->s[i];

		if (!s->pid || s->pid == ksim_self_pid())
			continue;
		if (!ksim_sys_pid_alive(s->pid) ||
		    ksim_proc_start_time(s->pid) != s->start)
			session_drop(pc, s);
	}
}

static int
is_owner(const struct ksim_process *p, uint64_t start,
	 const struct reg_pcs_session *s)
{
	return s->pid == ksim_self_pid() && s->start == start &&
	       s->pasid == p->pasid;
}

static struct reg_pcs_session *
session_find(struct reg_pcs *pc, uint32_t id)
{
	if (!id)
		return NULL;
	for (unsigned int i = 0; i < REG_PCS_SESSIONS; i++)
		if (pc->s[i].pid && pc->s[i].id == id)
			return &pc->s[i];
	return NULL;
}

static int
query_cap(struct ksim_device *dev, int gpu, struct reg_pcs *pc,
	  struct kfd_abi_pc_sample_args *a)
{
	uint32_t gfx = gpu_gfx(dev, gpu), cap = a->num_sample_info, n = 0;
	uint64_t dst;

	for (unsigned int i = 0; i < KSIM_ARRAY_SIZE(formats); i++)
		n += formats[i].gfx == gfx;
	if (!n)
		return -EOPNOTSUPP;

	/* A sampler in use: only the current formats, stochastic first
	 * (the pointer moves past it, and the caller sees it moved). */
	if (a->flags != KFD_ABI_PCS_QUERY_TYPE_FULL &&
	    (pc->m[PCS_HOSTTRAP].use_count || pc->m[PCS_STOCH].use_count)) {
		int bad = 0;

		a->num_sample_info = 0;
		if (pc->m[PCS_STOCH].use_count) {
			a->num_sample_info++;
			if (a->sample_info_ptr && a->num_sample_info <= cap) {
				bad |= ksim_copy_to_user(a->sample_info_ptr,
							 &pc->m[PCS_STOCH].info,
							 sizeof(pc->m[0].info));
				a->sample_info_ptr += sizeof(pc->m[0].info);
			}
		}
		if (pc->m[PCS_HOSTTRAP].use_count) {
			a->num_sample_info++;
			if (a->sample_info_ptr && a->num_sample_info <= cap)
				bad |= ksim_copy_to_user(a->sample_info_ptr,
							 &pc->m[PCS_HOSTTRAP].info,
							 sizeof(pc->m[0].info));
		}
		return bad ? -EFAULT : 0;
	}

	a->num_sample_info = n;
	if (!a->sample_info_ptr || !cap)
		return 0;	/* the caller asks for the size */
	if (cap < n)
		return -ENOSPC;
	dst = a->sample_info_ptr;
	for (unsigned int i = 0; i < KSIM_ARRAY_SIZE(formats); i++) {
		if (formats[i].gfx != gfx)
			continue;
		if (ksim_copy_to_user(dst, formats[i].fmt, sizeof(*formats[i].fmt)))
			return -EFAULT;
		dst += sizeof(*formats[i].fmt);
	}
	return 0;
}

static int
create(struct ksim_device *dev, int gpu, struct reg_pcs *pc,
       struct ksim_process *p, uint64_t start,
       struct kfd_abi_pc_sample_args *a)
{
	const struct kfd_abi_pc_sample_info *fmt = NULL;
	struct kfd_abi_pc_sample_info u;
	struct reg_pcs_method *m;
	struct reg_pcs_session *s = NULL;
	uint32_t gfx = gpu_gfx(dev, gpu), id;

	if (a->num_sample_info != 1)
		return -EINVAL;
	if (ksim_copy_from_user(&u, a->sample_info_ptr, sizeof(u)))
		return -EFAULT;
	for (unsigned int i = 0; i < KSIM_ARRAY_SIZE(formats) && !fmt; i++) {
		const struct kfd_abi_pc_sample_info *f = formats[i].fmt;

		if (formats[i].gfx == gfx && u.method == f->method &&
		    u.type == f->type && u.interval >= f->interval_min &&
		    u.interval <= f->interval_max)
			fmt = f;
	}
	if (!fmt)
		return -EOPNOTSUPP;
	if (fmt->flags == KFD_ABI_PCS_FLAG_POWER_OF_2 &&
	    (u.interval & (u.interval - 1)))
		return -EINVAL;

	/* Another format holds the sampler: the caller learns which. */
	m = &pc->m[method_index(u.method)];
	if (m->use_count && memcmp(&m->info, &u, sizeof(u)))
		return ksim_copy_to_user(a->sample_info_ptr, &m->info,
					 sizeof(m->info)) ? -EFAULT : -EEXIST;

	for (unsigned int i = 0; i < REG_PCS_SESSIONS && !s; i++)
		if (!pc->s[i].pid)
			s = &pc->s[i];
	if (!s)
		return -ENOMEM;
	/* idr_alloc_cyclic(.., 1, 0): the next free id after the last. */
	id = pc->next_id;
	do {
		id = id >= 0x7fffffffu ? 1 : id + 1;
	} while (session_find(pc, id));
	pc->next_id = id;

	s->pid = ksim_self_pid();
	s->start = start;
	s->pasid = p->pasid;
	s->id = id;
	s->method = u.method;
	s->enabled = 0;
	if (!m->use_count)
		m->info = u;
	m->use_count++;
	a->trace_id = id;
	return 0;
}

int
ksim_ioc_pc_sample(struct ksim_file *f, struct ksim_process *p, void *data,
		   unsigned int usize)
{
	struct kfd_abi_pc_sample_args *a = data;
	struct ksim_device *dev = f->dev;
	struct ksim_registry *reg = dev->reg;
	struct reg_pcs_session *s = NULL;
	struct ksim_pdd *pdd;
	struct reg_pcs *pc;
	uint64_t start;
	int r;

	(void)usize;
	pdd = ksim_pdd_by_id(p, a->gpu_id);
	if (!pdd)
		return -EINVAL;
	/* The driver binds the process to the device for START only. */
	if (a->op == KFD_ABI_PCS_OP_START && ksim_pdd_bind(pdd))
		return -ESRCH;

	if (ksim_reg_lock(reg))
		return -EIO;
	pc = &reg->sh->pcs[pdd->gpu];
	start = p->reg_slot >= 0 ? reg->sh->procs[p->reg_slot].start : 0;
	reap_dead(pc);
	if (a->op != KFD_ABI_PCS_OP_QUERY_CAPABILITIES &&
	    a->op != KFD_ABI_PCS_OP_CREATE) {
		/* A trace id of another process is as good as none. */
		s = session_find(pc, a->trace_id);
		if (!s || !is_owner(p, start, s)) {
			r = -EINVAL;
			goto out;
		}
	} else if (p->dbg->enabled) {
		/* No PC sampling while a debugger holds the process. */
		r = -EBUSY;
		goto out;
	}

	switch (a->op) {
	case KFD_ABI_PCS_OP_QUERY_CAPABILITIES:
		r = query_cap(dev, pdd->gpu, pc, a);
		break;
	case KFD_ABI_PCS_OP_CREATE:
		r = create(dev, pdd->gpu, pc, p, start, a);
		break;
	case KFD_ABI_PCS_OP_DESTROY:
		if (s->enabled) {
			r = -EBUSY;
			break;
		}
		session_drop(pc, s);
		r = 0;
		break;
	case KFD_ABI_PCS_OP_START:
		if (s->enabled) {
			r = -EALREADY;
			break;
		}
		s->enabled = 1;
		pc->m[method_index(s->method)].active_count++;
		r = 0;
		break;
	case KFD_ABI_PCS_OP_STOP:
		if (!s->enabled) {
			r = -EALREADY;
			break;
		}
		s->enabled = 0;
		pc->m[method_index(s->method)].active_count--;
		r = 0;
		break;
	default:
		r = -EINVAL;
		break;
	}
out:
	ksim_reg_unlock(reg);
	return r;
}

int
ksim_pcs_hosttrap(struct ksim_device *dev, int gpu, uint64_t *interval)
{
	const struct reg_pcs_method *m;

	if (dev->kernel != KSIM_KERNEL_ROCM || !dev->reg || !dev->reg->sh)
		return 0;
	/* Read without the lock: a START or STOP shows at the next turn. */
	m = &dev->reg->sh->pcs[gpu].m[PCS_HOSTTRAP];
	if (!__atomic_load_n(&m->active_count, __ATOMIC_ACQUIRE))
		return 0;
	*interval = __atomic_load_n(&m->info.interval, __ATOMIC_RELAXED);
	return *interval != 0;
}

void
ksim_pcs_release(struct ksim_process *p)
{
	struct ksim_registry *reg = p->dev->reg;
	uint64_t start;

	if (p->dev->kernel != KSIM_KERNEL_ROCM || p->reg_slot < 0 ||
	    ksim_reg_lock(reg))
		return;
	start = reg->sh->procs[p->reg_slot].start;
	for (unsigned int g = 0; g < KSIM_MAX_GPUS; g++)
		for (unsigned int i = 0; i < REG_PCS_SESSIONS; i++)
			if (reg->sh->pcs[g].s[i].pid &&
			    is_owner(p, start, &reg->sh->pcs[g].s[i]))
				session_drop(&reg->sh->pcs[g], &reg->sh->pcs[g].s[i]);
	ksim_reg_unlock(reg);
}
