/* SPDX-License-Identifier: MIT */
/*
 * rocSPARSE's host API (Debian's librocsparse0 and librocsparse-dev 5.3.0)
 * on a random CSR matrix (a fixed seed): y = alpha * A * x + beta * y in
 * doubles by the plain CSR kernel (no analysis), the same in doubles and
 * in floats by the adaptive kernel (after rocsparse_?csrmv_analysis, whose
 * row blocks the matrix's long rows exercise), the adaptive kernel of a
 * symmetric matrix in doubles (its lower triangle stored: each entry off
 * the diagonal counts twice, the transposed half summed in LDS by
 * ds_add_f64), and csr2coo's row indices. Every
 * value, every x and alpha, beta are small integers and every partial sum
 * stays below 2^24: each sum is exact in either precision whatever the
 * order of its additions, so the results must equal the host's bit for
 * bit. The argument, if any, is the number of rows.
 */
#include "hip_check.h"

#include <algorithm>
#include <vector>

#include <rocsparse/rocsparse.h>

#define RS_CHECK(call)							\
	do {								\
		rocsparse_status s_ = (call);				\
		if (s_ != rocsparse_status_success)			\
			HIP_FAIL("%s: rocsparse status %d", #call, (int)s_); \
	} while (0)

/* The matrix's generator: a 64-bit LCG's high bits. */
static uint64_t rs_seed = 0x5eed5eedull;

static unsigned int
rs_rand(unsigned int bound)
{
	rs_seed = rs_seed * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned int)((rs_seed >> 33) % bound);
}

/* The first index where @got and @want differ, -1 if none. */
template <typename T>
static long
first_diff(const std::vector<T> &got, const std::vector<T> &want)
{
	for (size_t i = 0; i < want.size(); i++)
		if (got[i] != want[i])
			return (long)i;
	return -1;
}

/* Device copy of @v. */
template <typename T>
static T *
upload(const std::vector<T> &v)
{
	T *d;

	HIP_CHECK(hipMalloc((void **)&d, v.size() * sizeof(T)));
	HIP_CHECK(hipMemcpy(d, v.data(), v.size() * sizeof(T), hipMemcpyHostToDevice));
	return d;
}

int
main(int argc, char **argv)
{
	int m = argc > 1 ? atoi(argv[1]) : 100000, n = m, nnz;
	std::vector<rocsparse_int> row_ptr(m + 1), col, coo(0), want_coo;
	std::vector<double> dval, dx(n), dy(m), dwant(m);
	std::vector<float> fval, fx(n), fy(m), fwant(m);
	std::vector<rocsparse_int> lrow_ptr(m + 1), lcol;
	std::vector<double> lval, lwant(m), lsum(m);
	rocsparse_int *d_row_ptr, *d_col, *d_coo, *d_lrow_ptr, *d_lcol;
	double *d_dval, *d_dx, *d_dy, *d_dy2, *d_lval, *d_ly, dalpha = 2, dbeta = -3;
	float *d_fval, *d_fx, *d_fy, falpha = 3, fbeta = 2;
	rocsparse_handle handle;
	rocsparse_mat_descr descr, ldescr;
	rocsparse_mat_info dinfo, finfo, linfo;
	long bad;

	hip_start();
	if (m < 1)
		HIP_FAIL("usage: %s [rows]", argv[0]);

	/*
	 * Rows of 0 to 15 entries, and every 997th row long (up to 2000
	 * entries): the adaptive kernel gives a long row a block of its own.
	 * Values in [-4, 4], x in [-8, 8], so a row's sum is at most
	 * 2000 * 32 in magnitude, times alpha, plus beta * y.
	 */
	row_ptr[0] = 0;
	for (int r = 0; r < m; r++) {
		int len = r % 997 == 0 ? 1000 + (int)rs_rand(1001) : (int)rs_rand(16);
		int start = (int)rs_rand((unsigned int)n), stride = 1 + (int)rs_rand(7);
		std::vector<rocsparse_int> cols;

		/* sorted, distinct columns: a random start and stride */
		if (len > n)
			len = n;
		for (int k = 0; k < len; k++)
			cols.push_back((rocsparse_int)(((long)start + (long)k * stride) % n));
		std::sort(cols.begin(), cols.end());
		cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
		for (rocsparse_int c : cols) {
			int v = (int)rs_rand(9) - 4;

			col.push_back(c);
			dval.push_back(v);
			fval.push_back((float)v);
		}
		row_ptr[r + 1] = (rocsparse_int)col.size();
	}
	nnz = row_ptr[m];
	for (int i = 0; i < n; i++) {
		dx[i] = (int)rs_rand(17) - 8;
		fx[i] = (float)dx[i];
	}
	for (int r = 0; r < m; r++) {
		dy[r] = (int)rs_rand(17) - 8;
		fy[r] = (float)dy[r];
	}

	/* The host's results: integers, exact in double. */
	for (int r = 0; r < m; r++) {
		double s = 0;

		for (int k = row_ptr[r]; k < row_ptr[r + 1]; k++)
			s += dval[k] * dx[col[k]];
		dwant[r] = dalpha * s + dbeta * dy[r];
		fwant[r] = (float)(falpha * s + fbeta * dy[r]);
		for (int k = row_ptr[r]; k < row_ptr[r + 1]; k++)
			want_coo.push_back(r);
	}

	/*
	 * The symmetric matrix's stored half, its lower triangle: the
	 * entries of A left of the band, then a band of three (r - 2 to r).
	 * rocSPARSE 5.3's symmetric kernel takes at most 2048 rows in a row
	 * block: three entries or more a row keep its blocks under that.
	 */
	lrow_ptr[0] = 0;
	for (int r = 0; r < m; r++) {
		for (int k = row_ptr[r]; k < row_ptr[r + 1] && col[k] < r - 2; k++) {
			lcol.push_back(col[k]);
			lval.push_back(dval[k]);
		}
		for (int c = r - 2 < 0 ? 0 : r - 2; c <= r; c++) {
			lcol.push_back(c);
			lval.push_back((int)rs_rand(9) - 4);
		}
		lrow_ptr[r + 1] = (rocsparse_int)lcol.size();
	}
	/* each entry off the diagonal also stands at its mirror place */
	for (int r = 0; r < m; r++) {
		for (int k = lrow_ptr[r]; k < lrow_ptr[r + 1]; k++) {
			lsum[r] += lval[k] * dx[lcol[k]];
			if (lcol[k] != r)
				lsum[lcol[k]] += lval[k] * dx[r];
		}
	}
	for (int r = 0; r < m; r++)
		lwant[r] = dalpha * lsum[r] + dbeta * dy[r];
	printf("matrix: %d rows, %d columns, %d nonzeros; symmetric: %d stored\n",
	       m, n, nnz, lrow_ptr[m]);

	d_row_ptr = upload(row_ptr);
	d_col = upload(col);
	d_dval = upload(dval);
	d_fval = upload(fval);
	d_dx = upload(dx);
	d_fx = upload(fx);
	d_dy = upload(dy);
	d_dy2 = upload(dy);
	d_lrow_ptr = upload(lrow_ptr);
	d_lcol = upload(lcol);
	d_lval = upload(lval);
	d_ly = upload(dy);
	d_fy = upload(fy);
	HIP_CHECK(hipMalloc((void **)&d_coo, nnz * sizeof(rocsparse_int)));

	RS_CHECK(rocsparse_create_handle(&handle));
	RS_CHECK(rocsparse_create_mat_descr(&descr));
	RS_CHECK(rocsparse_create_mat_info(&dinfo));
	RS_CHECK(rocsparse_create_mat_info(&finfo));
	RS_CHECK(rocsparse_create_mat_info(&linfo));
	RS_CHECK(rocsparse_create_mat_descr(&ldescr));
	RS_CHECK(rocsparse_set_mat_type(ldescr, rocsparse_matrix_type_symmetric));
	RS_CHECK(rocsparse_set_mat_fill_mode(ldescr, rocsparse_fill_mode_lower));

	/* doubles, the plain CSR kernel (no analysis: info is NULL) */
	RS_CHECK(rocsparse_dcsrmv(handle, rocsparse_operation_none, m, n, nnz, &dalpha,
				  descr, d_dval, d_row_ptr, d_col, NULL, d_dx, &dbeta, d_dy));
	HIP_CHECK(hipMemcpy(dy.data(), d_dy, m * sizeof(double), hipMemcpyDeviceToHost));
	bad = first_diff(dy, dwant);
	if (bad >= 0)
		HIP_FAIL("dcsrmv: y[%ld] = %.17g, want %.17g", bad, dy[bad], dwant[bad]);
	printf("dcsrmv: %d rows equal\n", m);

	/* doubles, the adaptive kernel */
	RS_CHECK(rocsparse_dcsrmv_analysis(handle, rocsparse_operation_none, m, n, nnz,
					   descr, d_dval, d_row_ptr, d_col, dinfo));
	RS_CHECK(rocsparse_dcsrmv(handle, rocsparse_operation_none, m, n, nnz, &dalpha,
				  descr, d_dval, d_row_ptr, d_col, dinfo, d_dx, &dbeta, d_dy2));
	HIP_CHECK(hipMemcpy(dy.data(), d_dy2, m * sizeof(double), hipMemcpyDeviceToHost));
	bad = first_diff(dy, dwant);
	if (bad >= 0)
		HIP_FAIL("dcsrmv (adaptive): y[%ld] = %.17g, want %.17g", bad, dy[bad],
			 dwant[bad]);
	printf("dcsrmv (adaptive): %d rows equal\n", m);

	/* doubles, the symmetric adaptive kernel */
	RS_CHECK(rocsparse_dcsrmv_analysis(handle, rocsparse_operation_none, m, n,
					   lrow_ptr[m], ldescr, d_lval, d_lrow_ptr, d_lcol,
					   linfo));
	RS_CHECK(rocsparse_dcsrmv(handle, rocsparse_operation_none, m, n, lrow_ptr[m],
				  &dalpha, ldescr, d_lval, d_lrow_ptr, d_lcol, linfo, d_dx,
				  &dbeta, d_ly));
	HIP_CHECK(hipMemcpy(dy.data(), d_ly, m * sizeof(double), hipMemcpyDeviceToHost));
	bad = first_diff(dy, lwant);
	if (bad >= 0)
		HIP_FAIL("dcsrmv (symmetric): y[%ld] = %.17g, want %.17g", bad, dy[bad],
			 lwant[bad]);
	printf("dcsrmv (symmetric): %d rows equal\n", m);

	/* floats, the adaptive kernel */
	RS_CHECK(rocsparse_scsrmv_analysis(handle, rocsparse_operation_none, m, n, nnz,
					   descr, d_fval, d_row_ptr, d_col, finfo));
	RS_CHECK(rocsparse_scsrmv(handle, rocsparse_operation_none, m, n, nnz, &falpha,
				  descr, d_fval, d_row_ptr, d_col, finfo, d_fx, &fbeta, d_fy));
	HIP_CHECK(hipMemcpy(fy.data(), d_fy, m * sizeof(float), hipMemcpyDeviceToHost));
	bad = first_diff(fy, fwant);
	if (bad >= 0)
		HIP_FAIL("scsrmv (adaptive): y[%ld] = %.9g, want %.9g", bad, fy[bad], fwant[bad]);
	printf("scsrmv (adaptive): %d rows equal\n", m);

	/* the row index of every entry */
	RS_CHECK(rocsparse_csr2coo(handle, d_row_ptr, nnz, m, d_coo, rocsparse_index_base_zero));
	coo.resize(nnz);
	HIP_CHECK(hipMemcpy(coo.data(), d_coo, nnz * sizeof(rocsparse_int),
			    hipMemcpyDeviceToHost));
	bad = first_diff(coo, want_coo);
	if (bad >= 0)
		HIP_FAIL("csr2coo: row[%ld] = %d, want %d", bad, coo[bad], want_coo[bad]);
	printf("csr2coo: %d row indices equal\n", nnz);

	RS_CHECK(rocsparse_destroy_mat_info(finfo));
	RS_CHECK(rocsparse_destroy_mat_info(dinfo));
	RS_CHECK(rocsparse_destroy_mat_info(linfo));
	RS_CHECK(rocsparse_destroy_mat_descr(ldescr));
	RS_CHECK(rocsparse_destroy_mat_descr(descr));
	RS_CHECK(rocsparse_destroy_handle(handle));
	printf("hip_rocsparse: ok\n");
	return 0;
}
