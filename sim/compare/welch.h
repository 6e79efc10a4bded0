/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/compare/welch.h - the statistics of `futexsim compare`: a sample's
 * mean and 95% confidence interval, Welch's t-test of two samples, and
 * the Student t distribution they need (sim/compare/welch.c).
 *
 * Stage: beside the flow, after the runs: pure arithmetic on the figures
 * of finished runs (host TU, libm).  Called by sim/compare/compare.c and
 * tests/test_compare.c.
 *
 * Every function is a pure function of its arguments: the same figures
 * give the same bits on one host, so compare's output is deterministic.
 */
#ifndef SIM_COMPARE_WELCH_H
#define SIM_COMPARE_WELCH_H

#define SIM_WELCH_ALPHA	0.05	/* two-sided significance level		*/

/*
 * sim_beta_inc - the regularized incomplete beta function I_x(a, b), for
 * a > 0, b > 0 and 0 <= x <= 1, evaluated by its continued fraction.
 * Return: a value in [0, 1]; 0 for x <= 0, 1 for x >= 1.
 */
double sim_beta_inc(double a, double b, double x);

/*
 * sim_t_cdf - P(T <= @t) for Student's t distribution with @df > 0
 * degrees of freedom (@df need not be an integer: Welch's is not).
 */
double sim_t_cdf(double t, double df);

/* sim_t_p2 - the two-sided p-value of @t with @df degrees of freedom,
 * P(|T| >= |t|).  Return: a value in [0, 1], 1 for t = 0. */
double sim_t_p2(double t, double df);

/*
 * sim_t_quantile2 - the t such that sim_t_p2(t, @df) = @p (0 < p < 1):
 * the critical value of a two-sided test at level @p, for example
 * 2.228 for p = 0.05 and df = 10.  Found by bisection to 1e-12.
 */
double sim_t_quantile2(double p, double df);

/* The summary of one sample. */
struct sim_sample {
	int n;			/* values				*/
	double mean;
	double var;		/* unbiased variance (n - 1 in the
				 * divisor); 0 when n < 2		*/
	double ci95;		/* half-width of the 95% confidence
				 * interval of the mean, Student t with
				 * n - 1 df; 0 when n < 2 or var is 0	*/
};

/* sim_sample_of - summarise the @n values of @x into @s (n >= 1). */
void sim_sample_of(struct sim_sample *s, const double *x, int n);

/* Welch's unequal-variances t-test of two samples. */
struct sim_welch {
	double t;		/* (mean b - mean a) / standard error; 0
				 * when both variances are 0		*/
	double df;		/* Welch-Satterthwaite degrees of freedom;
				 * 0 when both variances are 0		*/
	double p;		/* two-sided p-value			*/
	int significant;	/* p < SIM_WELCH_ALPHA; with both
				 * variances 0, whether the means differ
				 * (p is then 0 or 1)			*/
};

/*
 * sim_welch_test - test whether samples @a and @b (each n >= 2) have
 * different means, into @w.
 */
void sim_welch_test(struct sim_welch *w, const struct sim_sample *a,
		    const struct sim_sample *b);

#endif /* SIM_COMPARE_WELCH_H */
