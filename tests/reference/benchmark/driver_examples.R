# The R values quoted in the examples of cdplot/stats/_benchmark.py (mcnemar_pairs,
# cluster_t_pairs) and in tests/test_benchmark_compare.py / test_benchmark_result.py.
# Run: Rscript tests/reference/benchmark/driver_examples.R   (R 4.x, stats only)

# exact McNemar: 9 items only the first model solved, 1 only the second
print(binom.test(9, 10)$p.value, digits = 10)          # 0.021484375 = 22 / 1024

# two runs: 20 discordant items, all won by the new model
print(binom.test(0, 20)$p.value, digits = 10)          # 1.907348633e-06 = 2 / 2^20

# the paired t-test (the cluster-robust t with each item its own cluster)
x <- c(0.2, 0.5, 0.9, 0.4)
y <- c(0.1, 0.1, 0.4, 0.5)
print(unname(t.test(x, y, paired = TRUE)$statistic), digits = 8)   # 1.6341143
