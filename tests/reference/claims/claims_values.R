# Reference values of tests/test_claims.py (run: Rscript claims_values.R).
# The one-sided exact Wilcoxon signed-rank p-value of 10 positive differences of distinct
# sizes (the clear winner: A - B = 0.05 + 0.001 * i, i = 0..9): 2^-10.
d <- 0.05 + 0.001 * (0:9)
cat(sprintf("wilcox.test(d, alternative = 'greater')$p.value = %.10g\n",
            wilcox.test(d, alternative = "greater")$p.value))
# The 0.975 quantile of Student's t with 15 df (the paired-t non-inferiority boundary).
cat(sprintf("qt(0.975, 15) = %.10f\n", qt(0.975, 15)))
# The paired t interval of B - A = (-0.03, 0.01) x 8: its lower limit is the margin's boundary.
x <- rep(c(-0.03, 0.01), 8)
cat(sprintf("t.test(x)$conf.int[1] = %.10f\n", t.test(x)$conf.int[1]))
# The exact McNemar test of 9 against 1 discordant items: binom.test(9, 10).
cat(sprintf("binom.test(9, 10)$p.value = %.8f\n", binom.test(9, 10)$p.value))
