# Reference values for tests/test_benchmark_pairs.py (per-pair statistics of one benchmark).
# Run from the repository root:  Rscript tests/reference/benchmark/pairs.R
# Writes tests/reference/benchmark/pairs_r.json: the input tables (generated here with
# set.seed) and, per pair, the values of the R calls named in each entry's "call".
# R 4.2.2; stats (binom.test, mcnemar.test, t.test), sandwich 3.0.2 (vcovCL), jsonlite.
# No R package implements the paired-proportion intervals on this machine, so Tango's (1998)
# score interval and Newcombe's (1998) method 10 are transcribed from the papers' formulas
# below; Tango's is also found a second way (restricted MLE by optimize(), limits by
# uniroot()) as a check of the closed-form restricted estimate.
suppressPackageStartupMessages({library(sandwich); library(jsonlite)})
out <- "tests/reference/benchmark/pairs_r.json"
z <- qnorm(0.975)

wilson <- function(x, n) {
  p <- x / n; s <- 1 + z^2 / n
  centre <- (p + z^2 / (2 * n)) / s; half <- z / s * sqrt(p * (1 - p) / n + z^2 / (4 * n^2))
  c(centre - half, centre + half)
}
newcombe10 <- function(a, b, c, d) {
  n <- a + b + c + d; p1 <- (a + b) / n; p2 <- (a + c) / n
  w1 <- wilson(a + b, n); w2 <- wilson(a + c, n)
  margins <- (a + b) * (c + d) * (a + c) * (b + d); A <- a * d - b * c
  phi <- if (margins == 0) 0 else if (A > n / 2) (A - n / 2) / sqrt(margins) else
    if (A >= 0) 0 else A / sqrt(margins)
  dl <- sqrt((p1 - w1[1])^2 - 2 * phi * (p1 - w1[1]) * (w2[2] - p2) + (w2[2] - p2)^2)
  du <- sqrt((w1[2] - p1)^2 - 2 * phi * (w1[2] - p1) * (p2 - w2[1]) + (p2 - w2[1])^2)
  c(p1 - p2 - dl, p1 - p2 + du)
}
# Tango (1998) eq. for the restricted MLE of p21 under p12 - p21 = delta, closed form
tango_score <- function(delta, b, c, n) {
  W <- -(b + c) + delta * (2 * n - b + c)
  q <- (-W + sqrt(W^2 + 8 * n * c * delta * (1 - delta))) / (4 * n)
  if (b - c - n * delta == 0) 0 else (b - c - n * delta) / sqrt(n * (2 * q + delta * (1 - delta)))
}
# the same statistic with the restricted MLE found numerically (log-likelihood maximised)
tango_score_numeric <- function(delta, b, c, n) {
  a_d <- n - b - c
  ll <- function(q) b * log(q + delta) + (if (c > 0) c * log(q) else 0) +
    a_d * log(1 - 2 * q - delta)
  lo <- max(0, -delta) + 1e-12; hi <- (1 - delta) / 2 - 1e-12
  q <- optimize(ll, c(lo, hi), maximum = TRUE, tol = 1e-14)$maximum
  if (b - c - n * delta == 0) return(0)
  (b - c - n * delta) / sqrt(n * (2 * q + delta * (1 - delta)))
}
tango <- function(b, c, n, score = tango_score) {
  est <- (b - c) / n; eps <- 1e-10
  f_lo <- function(dl) score(dl, b, c, n) - z
  f_hi <- function(dl) score(dl, b, c, n) + z
  lower <- if (f_lo(-1 + eps) <= 0) -1 else uniroot(f_lo, c(-1 + eps, est), tol = 1e-13)$root
  upper <- if (f_hi(1 - eps) >= 0) 1 else uniroot(f_hi, c(est, 1 - eps), tol = 1e-13)$root
  c(lower, upper)
}

entries <- list()
add <- function(...) entries[[length(entries) + 1]] <<- list(...)

# Worked examples: 2 x 2 paired tables [a, b, c, d]
examples <- list(bentur = c(1, 1, 7, 12), cavo = c(59, 6, 16, 80), twelve = c(12, 9, 2, 21),
                 none_discordant = c(10, 0, 0, 5), one_sided = c(3, 6, 0, 6))
for (nm in names(examples)) {
  t4 <- examples[[nm]]; a <- t4[1]; b <- t4[2]; c <- t4[3]; d <- t4[4]; n <- sum(t4)
  add(case = nm, table = t4, quantity = "tango", value = tango(b, c, n),
      call = "Tango (1998) score interval, closed-form restricted MLE, uniroot(tol = 1e-13)")
  add(case = nm, table = t4, quantity = "tango_numeric",
      value = tango(b, c, n, tango_score_numeric),
      call = "Tango (1998) score interval, restricted MLE by optimize(), uniroot(tol = 1e-13)")
  add(case = nm, table = t4, quantity = "newcombe10", value = newcombe10(a, b, c, d),
      call = "Newcombe (1998) method 10 (Wilson limits, corrected phi)")
  if (b + c > 0) {
    add(case = nm, table = t4, quantity = "binom_p", value = binom.test(b, b + c)$p.value,
        call = "binom.test(b, b + c)$p.value")
    m <- mcnemar.test(matrix(c(a, c, b, d), 2))
    add(case = nm, table = t4, quantity = "mcnemar", value = c(m$statistic, m$p.value),
        call = "mcnemar.test(matrix(c(a, c, b, d), 2)): statistic, p.value")
  }
}

# A binary table: 40 items x 4 models, each pair's calls
set.seed(20261128)
nb <- 40
lat <- rnorm(nb)
binary <- sapply(c(0.8, 0.4, 0.3, -0.5), function(m) as.numeric(lat + rnorm(nb) < m))
# A continuous table: 25 items x 4 models
nc <- 25
base <- rnorm(nc)
continuous <- sapply(c(0, 0.3, 0.35, -0.2), function(m) round(base + m + rnorm(nc, sd = 0.5), 4))
# A clustered continuous table: 48 items in 9 clusters (sizes 2 to 9), 3 models
sizes <- c(2, 3, 4, 5, 5, 6, 7, 7, 9)
cl <- rep(seq_along(sizes), sizes)
ncl <- length(cl)
ce <- rnorm(length(sizes))[cl]
clustered <- sapply(c(0, 0.25, -0.1), function(m) {
  round(ce + m + rnorm(length(sizes), sd = 0.4)[cl] + rnorm(ncl, sd = 0.3), 4)
})

pairs_of <- function(k) do.call(rbind, lapply(1:(k - 1), function(i) cbind(i, (i + 1):k)))
for (r in seq_len(nrow(pairs_of(4)))) {
  i <- pairs_of(4)[r, 1]; j <- pairs_of(4)[r, 2]
  x <- binary[, i]; y <- binary[, j]
  a <- sum(x == 1 & y == 1); b <- sum(x == 1 & y == 0); c <- sum(x == 0 & y == 1)
  d <- sum(x == 0 & y == 0)
  add(case = "binary", i = i - 1, j = j - 1, quantity = "binom_p",
      value = binom.test(b, b + c)$p.value, call = "binom.test(b, b + c)$p.value")
  m <- mcnemar.test(x, y)
  add(case = "binary", i = i - 1, j = j - 1, quantity = "mcnemar",
      value = c(m$statistic, m$p.value), call = "mcnemar.test(x, y): statistic, p.value")
  add(case = "binary", i = i - 1, j = j - 1, quantity = "tango", value = tango(b, c, nb),
      call = "Tango (1998) score interval (transcription above)")
  add(case = "binary", i = i - 1, j = j - 1, quantity = "newcombe10",
      value = newcombe10(a, b, c, d), call = "Newcombe (1998) method 10 (transcription above)")
  t <- t.test(continuous[, i], continuous[, j], paired = TRUE)
  add(case = "continuous", i = i - 1, j = j - 1, quantity = "t_test",
      value = c(t$estimate, t$statistic, t$parameter, t$p.value, t$conf.int),
      call = "t.test(x, y, paired = TRUE): estimate, statistic, df, p.value, conf.int")
}
for (r in seq_len(nrow(pairs_of(3)))) {
  i <- pairs_of(3)[r, 1]; j <- pairs_of(3)[r, 2]
  dd <- clustered[, i] - clustered[, j]
  fit <- lm(dd ~ 1)
  se <- sqrt(vcovCL(fit, cluster = ~cl)[1, 1])
  G <- length(sizes); tval <- coef(fit)[[1]] / se
  add(case = "clustered", i = i - 1, j = j - 1, quantity = "vcovCL",
      value = c(coef(fit)[[1]], se, tval, 2 * pt(-abs(tval), G - 1),
                coef(fit)[[1]] + c(-1, 1) * qt(0.975, G - 1) * se),
      call = paste("d <- x - y; fit <- lm(d ~ 1); se <- sqrt(sandwich::vcovCL(fit, cluster =",
                   "~cl)[1, 1]) (type HC1, cadjust: G/(G-1)); t = coef/se, 2*pt(-|t|, G-1),",
                   "coef -+ qt(0.975, G-1) * se"))
  t <- t.test(clustered[, i], clustered[, j], paired = TRUE)
  add(case = "clustered", i = i - 1, j = j - 1, quantity = "t_test_naive",
      value = c(t$estimate, t$statistic, t$parameter, t$p.value, t$conf.int),
      call = "t.test(x, y, paired = TRUE) on the clustered table (clusters ignored)")
}

doc <- list(
  generated_by = "tests/reference/benchmark/pairs.R (do not edit)",
  r_version = R.version.string,
  sandwich_version = as.character(packageVersion("sandwich")),
  confidence = 0.95,
  tables = list(binary = binary, continuous = continuous, clustered = clustered,
                clusters = cl - 1),
  entries = entries)
writeLines(toJSON(doc, digits = NA, auto_unbox = TRUE, pretty = TRUE), out)
