/* SPDX-License-Identifier: MIT */
/*
 * Copies a trace with one captured result changed, for the divergence
 * tests:
 *
 *   rp_alter IN OUT SEQ FIELD VALUE
 *   rp_alter IN OUT drop NAME|SEQ,...
 *   rp_alter IN OUT move SEQ TO
 *   rp_alter IN OUT noend
 *
 * FIELD is an output field of the ioctl at sequence number SEQ (its
 * after-image gets VALUE), "in.FIELD" an input field (its before-image gets
 * VALUE), "errno" (the call then failed with VALUE), "buf@N" (byte N of
 * the after-image of its first indirect buffer becomes VALUE), or "ts"
 * (the record, of any type, entered at VALUE ns). For a memory record,
 * FIELD "mem@N" makes byte N of its bytes VALUE (a corrupted kernel
 * argument, say); the record then holds its bytes, without a hash. For an mmap record,
 * FIELD "addr" moves the mapping: the requested address and the result
 * become VALUE. "drop" leaves out every ioctl of the named kinds, and
 * those with the sequence numbers given (items all digits). "move"
 * renumbers the record SEQ to TO and shifts the ones between by one, so
 * that it alone changes place in sequence order (the numbers stay dense).
 * Every other record is copied as read; the writer adds its own END.
 * "noend" copies every record but leaves the END out: the file is what
 * a program killed after its writer's last flush leaves behind.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <kfdtrace/schema.h>
#include <kfdtrace/trace.h>

int
main(int argc, char **argv)
{
	struct kt_reader *rd;
	struct kt_writer *wr;
	struct kt_record rec;
	const char *drop;
	uint64_t seq, value, from = 0, to = 0;
	int move, noend;
	struct stat sb;
	uint8_t after[KT_MAX_ARG_SIZE + 1], before[KT_MAX_ARG_SIZE + 1];
	static uint8_t bufimg[65536];
	uint8_t *memimg = NULL;
	struct kt_buf_image imgs[KT_MAX_BUFS];
	int r, done = 0;

	noend = argc == 4 && !strcmp(argv[3], "noend");
	if (!(argc == 6 || (argc == 5 && !strcmp(argv[3], "drop")) || noend)) {
		fprintf(stderr, "usage: rp_alter IN OUT SEQ FIELD VALUE\n"
			"       rp_alter IN OUT drop NAME|SEQ,...\n"
			"       rp_alter IN OUT move SEQ TO\n"
			"       rp_alter IN OUT noend\n");
		return 2;
	}
	move = argc == 6 && !strcmp(argv[3], "move");
	if (move) {
		from = strtoull(argv[4], NULL, 0);
		to = strtoull(argv[5], NULL, 0);
	}
	drop = argc == 5 ? argv[4] : NULL;
	seq = drop || noend || move ? UINT64_MAX : strtoull(argv[3], NULL, 0);
	value = argc == 6 ? strtoull(argv[5], NULL, 0) : 0;
	done = noend;
	r = kt_reader_open(argv[1], &rd);
	if (r < 0) {
		fprintf(stderr, "rp_alter: %s: %s\n", argv[1], kt_strerror(r));
		return 1;
	}
	r = kt_writer_open(argv[2], kt_reader_header(rd), NULL, &wr);
	if (r < 0) {
		fprintf(stderr, "rp_alter: %s: %s\n", argv[2], kt_strerror(r));
		return 1;
	}
	while ((r = kt_reader_next(rd, &rec)) > 0) {
		if (rec.type == KT_REC_END)
			continue;
		if (move) {
			if (rec.seq == from) {
				rec.seq = to;
				done = 1;
			} else if (from > to && rec.seq >= to && rec.seq < from) {
				rec.seq++;
			} else if (from < to && rec.seq > from && rec.seq <= to) {
				rec.seq--;
			}
		}
		if (drop && rec.type == KT_REC_IOCTL) {
			const struct kfd_ioctl_desc *d = kfd_schema_lookup(
				rec.u.ioctl.file_kind, rec.u.ioctl.request);
			char list[4096], *tok, *save;
			int hit = 0;

			snprintf(list, sizeof(list), "%s", drop);
			for (tok = strtok_r(list, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save))
				hit |= tok[strspn(tok, "0123456789")] ?
				       d && !strcmp(tok, d->name) :
				       strtoull(tok, NULL, 10) == rec.seq;
			if (hit) {
				done = 1;
				continue;
			}
		}
		if (rec.seq == seq && !strcmp(argv[4], "ts")) {
			rec.ts = value;
			done = 1;
		}
		if (rec.type == KT_REC_MMAP && rec.seq == seq &&
		    !strcmp(argv[4], "addr")) {
			rec.u.mmap.addr = value;
			rec.u.mmap.result = value;
			done = 1;
		}
		if (rec.type == KT_REC_MEMORY && rec.seq == seq &&
		    !strncmp(argv[4], "mem@", 4)) {
			struct kt_memory_rec *m = &rec.u.memory;
			size_t at = strtoull(argv[4] + 4, NULL, 0);

			free(memimg);
			memimg = m->data && at < m->len ? malloc(m->len) : NULL;
			if (memimg) {
				memcpy(memimg, m->data, m->len);
				memimg[at] = (uint8_t)value;
				m->data = memimg;
				m->hash_len = 0;
				m->flags &= (uint8_t)~(KT_MEM_REF | KT_MEM_STORE |
						       KT_MEM_DELTA);
				done = 1;
			}
		}
		if (rec.type == KT_REC_IOCTL && rec.seq == seq) {
			struct kt_ioctl_rec *io = &rec.u.ioctl;
			const struct kfd_ioctl_desc *d =
				kfd_schema_lookup(io->file_kind, io->request);

			if (!strncmp(argv[4], "in.", 3) && d && io->arg_before) {
				int i = kfd_schema_field(d, argv[4] + 3);

				memcpy(before, io->arg_before, io->arg_size);
				if (i >= 0 && kfd_field_set(&d->args->fields[i], before,
							    io->arg_size, value) == 0) {
					io->arg_before = before;
					done = 1;
				}
			} else if (!strcmp(argv[4], "ts")) {
				/* done above */
			} else if (!strncmp(argv[4], "buf@", 4)) {
				size_t at = strtoull(argv[4] + 4, NULL, 0);
				struct kt_buf_image *b = &imgs[0];

				if (io->nbufs && io->nbufs <= KT_MAX_BUFS)
					memcpy(imgs, io->bufs, io->nbufs * sizeof(imgs[0]));
				if (io->nbufs && io->nbufs <= KT_MAX_BUFS &&
				    b->after && at < b->len_after &&
				    b->len_after <= sizeof(bufimg)) {
					memcpy(bufimg, b->after, b->len_after);
					bufimg[at] = (uint8_t)value;
					b->after = bufimg;
					io->bufs = imgs;
					done = 1;
				}
			} else if (!strcmp(argv[4], "errno")) {
				io->ret = -1;
				io->err = (int32_t)value;
				done = 1;
			} else if (d && io->arg_after) {
				int i = kfd_schema_field(d, argv[4]);

				memcpy(after, io->arg_after, io->arg_size);
				if (i >= 0 && kfd_field_set(&d->args->fields[i], after,
							    io->arg_size, value) == 0) {
					io->arg_after = after;
					done = 1;
				}
			}
		}
		r = kt_writer_append(wr, &rec);
		if (r < 0) {
			fprintf(stderr, "rp_alter: append: %s\n", kt_strerror(r));
			return 1;
		}
	}
	kt_reader_close(rd);
	free(memimg);
	/* What the last flush wrote: the close then adds the END after it. */
	if (noend && (kt_writer_flush(wr) < 0 || stat(argv[2], &sb) < 0)) {
		fprintf(stderr, "rp_alter: %s: flush failed\n", argv[2]);
		return 1;
	}
	if (kt_writer_close(wr) < 0 || !done) {
		fprintf(stderr, "rp_alter: %s\n", done ? "write failed" :
			"no such record or field");
		return 1;
	}
	if (noend && truncate(argv[2], sb.st_size) < 0) {
		fprintf(stderr, "rp_alter: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	return 0;
}
