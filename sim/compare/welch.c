/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/compare/welch.c - the statistics of `futexsim compare` (see
 * sim/compare/welch.h): Student's t distribution through the regularized
 * incomplete beta function, confidence intervals and Welch's t-test.
 *
 * Stage: beside the flow, after the runs.  Called by sim/compare/compare.c;
 * calls libm (lgamma, exp, log, sqrt) only.
 *
 * The t distribution: for T with v degrees of freedom,
 *
 *	P(|T| >= t) = I_x(v/2, 1/2),  x = v / (v + t^2)
 *
 * and I_x(a, b) is computed from its continued fraction
 *
 *	I_x(a, b) = x^a (1-x)^b / (a B(a, b)) * 1 / (1 + d1 / (1 + d2 / (1 + ...)))
 *	d(2m+1) = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1))
 *	d(2m)   = m(b-m) x / ((a+2m-1)(a+2m))
 *
 * evaluated forwards by Lentz's method, which converges quickly for
 * x < (a+1)/(a+b+2); above that the symmetry I_x(a,b) = 1 - I_{1-x}(b,a)
 * is used (Abramowitz and Stegun 26.5.8 and 26.7.1).
 *
 * Welch's test (B. L. Welch, Biometrika 34, 1947): with sample means m,
 * unbiased variances s^2 and sizes n,
 *
 *	t  = (m_b - m_a) / sqrt(s_a^2/n_a + s_b^2/n_b)
 *	df = (s_a^2/n_a + s_b^2/n_b)^2 /
 *	     ((s_a^2/n_a)^2/(n_a-1) + (s_b^2/n_b)^2/(n_b-1))
 *
 * (the Welch-Satterthwaite approximation), two-sided.
 */
#include <math.h>

#include "sim/compare/welch.h"

#define CF_EPS		1e-15	/* relative change that ends the fraction */
#define CF_TINY		1e-300	/* stands for a zero denominator	 */
#define CF_MAX_TERMS	10000

/* The continued fraction 1 + d1 / (1 + d2 / (1 + ...)) of I_x(a, b),
 * by Lentz's method: f = product of C_j D_j. */
static double beta_cf(double a, double b, double x)
{
	double f = 1, c = 1, d = 0, delta, dj;

	for (int j = 1; j <= CF_MAX_TERMS; j++) {
		int m = j / 2;

		if (j & 1)
			dj = -(a + m) * (a + b + m) * x /
			     ((a + 2 * m) * (a + 2 * m + 1));
		else
			dj = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + dj * d;
		if (fabs(d) < CF_TINY)
			d = CF_TINY;
		c = 1 + dj / c;
		if (fabs(c) < CF_TINY)
			c = CF_TINY;
		d = 1 / d;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1) < CF_EPS)
			break;
	}
	return f;
}

double sim_beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	/* x^a (1-x)^b / B(a, b), in logarithms */
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front / (a * beta_cf(a, b, x));
	return 1 - front / (b * beta_cf(b, a, 1 - x));
}

double sim_t_p2(double t, double df)
{
	double p;

	if (t == 0)
		return 1;
	if (isinf(t))
		return 0;
	p = sim_beta_inc(df / 2, 0.5, df / (df + t * t));
	return p < 0 ? 0 : p > 1 ? 1 : p;
}

double sim_t_cdf(double t, double df)
{
	double half = sim_t_p2(t, df) / 2;

	return t < 0 ? half : 1 - half;
}

double sim_t_quantile2(double p, double df)
{
	double lo = 0, hi = 1;

	while (sim_t_p2(hi, df) > p && hi < 1e12)
		hi *= 2;
	/* p2 falls as t grows: keep p2(lo) >= p > p2(hi) */
	for (int i = 0; i < 200 && hi - lo > 1e-12 * (1 + hi); i++) {
		double mid = lo + (hi - lo) / 2;

		if (sim_t_p2(mid, df) > p)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

void sim_sample_of(struct sim_sample *s, const double *x, int n)
{
	double sum = 0, ss = 0;

	for (int i = 0; i < n; i++)
		sum += x[i];
	s->n = n;
	s->mean = n ? sum / n : 0;
	/* two passes: the squares of the deviations, not of the values */
	for (int i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->var = n > 1 ? ss / (n - 1) : 0;
	s->ci95 = n > 1 && s->var > 0 ?
		  sim_t_quantile2(SIM_WELCH_ALPHA, n - 1) * sqrt(s->var / n) : 0;
}

void sim_welch_test(struct sim_welch *w, const struct sim_sample *a,
		    const struct sim_sample *b)
{
	double qa = a->var / a->n, qb = b->var / b->n, se2 = qa + qb;

	if (se2 == 0) {
		/* no noise on either side: any difference is real */
		w->t = 0;
		w->df = 0;
		w->significant = a->mean != b->mean;
		w->p = w->significant ? 0 : 1;
		return;
	}
	w->t = (b->mean - a->mean) / sqrt(se2);
	w->df = se2 * se2 / (qa * qa / (a->n - 1) + qb * qb / (b->n - 1));
	w->p = sim_t_p2(w->t, w->df);
	w->significant = w->p < SIM_WELCH_ALPHA;
}
