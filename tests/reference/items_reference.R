# Reference p-values of the within-task item tests (tests/test_items.py).
# Run from the repository root: Rscript tests/reference/items_reference.R
# Reads items_data.csv (task, model, item, score) and writes items_reference.csv with, for
# each task and pair (algorithm_1 < algorithm_2 in A, B, C order):
#   0/1 tasks: b = #(1, 0), c = #(0, 1); b + c < 25: binom.test(b, b + c)$p.value,
#              else mcnemar.test(matrix(c(n11, c, b, n00), 2))$p.value (continuity corrected)
#   other tasks: t.test(x, y, paired = TRUE)$p.value
# and holm = p.adjust(p, method = "holm") over all rows (one family).
d <- read.csv("tests/reference/items_data.csv", stringsAsFactors = FALSE)
models <- c("A", "B", "C")
out <- NULL
for (task in unique(d$task)) {
  s <- d[d$task == task, ]
  binary <- all(s$score %in% c(0, 1))
  for (i in 1:2) for (j in (i + 1):3) {
    x <- s[s$model == models[i], ]; x <- x[order(x$item), "score"]
    y <- s[s$model == models[j], ]; y <- y[order(y$item), "score"]
    if (binary) {
      b <- sum(x == 1 & y == 0); c <- sum(x == 0 & y == 1)
      n11 <- sum(x == 1 & y == 1); n00 <- sum(x == 0 & y == 0)
      if (b + c < 25) {
        p <- binom.test(b, b + c)$p.value; stat <- b; test <- "binom.test"
      } else {
        r <- mcnemar.test(matrix(c(n11, c, b, n00), 2)); p <- r$p.value
        stat <- unname(r$statistic); test <- "mcnemar.test"
      }
    } else {
      r <- t.test(x, y, paired = TRUE); p <- r$p.value; stat <- unname(r$statistic)
      test <- "t.test(paired = TRUE)"
    }
    out <- rbind(out, data.frame(task = task, algorithm_1 = models[i], algorithm_2 = models[j],
                                 r_test = test, statistic = stat, pvalue = p))
  }
}
out$holm <- p.adjust(out$pvalue, method = "holm")
for (col in c("statistic", "pvalue", "holm")) out[[col]] <- sprintf("%.17g", out[[col]])
write.csv(out, "tests/reference/items_reference.csv", row.names = FALSE)
