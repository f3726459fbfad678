# Reference values of the per-model statistics of one benchmark (cdplot.stats._benchmark_models).
# Run from the repository root:
#   Rscript tests/reference/benchmark/models.R > tests/reference/benchmark/models_r.csv
# Reads models_tables.csv (made by models_tables.py). R 4.2.2, sandwich 3.0-2, lme4 1.1-31.
# Each row: table, model, quantity, value (17 significant digits), call (the R call made).
suppressPackageStartupMessages({
  library(sandwich)
  library(lme4)
})

tables <- read.csv("tests/reference/benchmark/models_tables.csv", stringsAsFactors = FALSE, comment.char = "#",
                   na.strings = "")
out <- data.frame(table = character(), model = character(), quantity = character(),
                  value = character(), call = character(), stringsAsFactors = FALSE)
put <- function(table, model, quantity, value, call) {
  out[nrow(out) + 1, ] <<- list(table, model, quantity, sprintf("%.17g", value), call)
}

for (name in c("binary10", "binary30", "binary200")) {
  d <- tables[tables$table == name, ]
  for (m in unique(d$model)) {
    y <- d$score[d$model == m]
    x <- sum(y); n <- length(y)
    for (level in c(0.95, 0.9)) {
      cp <- binom.test(x, n, conf.level = level)$conf.int
      put(name, m, sprintf("cp_low_%g", level), cp[1], sprintf("binom.test(%d, %d, conf.level = %g)$conf.int[1]", x, n, level))
      put(name, m, sprintf("cp_high_%g", level), cp[2], sprintf("binom.test(%d, %d, conf.level = %g)$conf.int[2]", x, n, level))
      w <- prop.test(x, n, correct = FALSE, conf.level = level)$conf.int
      put(name, m, sprintf("wilson_low_%g", level), w[1], sprintf("prop.test(%d, %d, correct = FALSE, conf.level = %g)$conf.int[1]", x, n, level))
      put(name, m, sprintf("wilson_high_%g", level), w[2], sprintf("prop.test(%d, %d, correct = FALSE, conf.level = %g)$conf.int[2]", x, n, level))
    }
  }
}

for (name in c("continuous12", "continuous40")) {
  d <- tables[tables$table == name, ]
  for (m in unique(d$model)) {
    y <- d$score[d$model == m]
    for (level in c(0.95, 0.9)) {
      ci <- t.test(y, conf.level = level)$conf.int
      put(name, m, sprintf("t_low_%g", level), ci[1], sprintf("t.test(y, conf.level = %g)$conf.int[1]", level))
      put(name, m, sprintf("t_high_%g", level), ci[2], sprintf("t.test(y, conf.level = %g)$conf.int[2]", level))
    }
  }
}

d <- tables[tables$table == "clustered", ]
for (m in unique(d$model)) {
  dm <- d[d$model == m & !is.na(d$score), ]
  fit <- lm(score ~ 1, data = dm)
  g <- length(unique(dm$cluster))
  hc0 <- sqrt(vcovCL(fit, cluster = ~cluster, type = "HC0")[1, 1])
  hc1 <- sqrt(vcovCL(fit, cluster = ~cluster, type = "HC1")[1, 1])
  cr0 <- sqrt(vcovCL(fit, cluster = ~cluster, type = "HC0", cadjust = FALSE)[1, 1])
  put("clustered", m, "mean", coef(fit)[[1]], "coef(lm(score ~ 1))")
  put("clustered", m, "se_hc0", hc0, "sqrt(vcovCL(lm(score ~ 1), cluster = ~cluster, type = \"HC0\"))")
  put("clustered", m, "se_hc1", hc1, "sqrt(vcovCL(lm(score ~ 1), cluster = ~cluster, type = \"HC1\"))")
  put("clustered", m, "se_cr0", cr0, "sqrt(vcovCL(lm(score ~ 1), cluster = ~cluster, type = \"HC0\", cadjust = FALSE))")
  put("clustered", m, "design_effect", hc1^2 / vcov(lm(score ~ 1, data = dm))[1, 1],
      "vcovCL(fit, cluster = ~cluster, type = \"HC1\") / vcov(fit)")
  q <- qt(0.975, g - 1)
  put("clustered", m, "cl_low_0.95", coef(fit)[[1]] - q * hc1, "coef(fit) - qt(0.975, G - 1) * sqrt(vcovCL(fit, cluster = ~cluster))")
  put("clustered", m, "cl_high_0.95", coef(fit)[[1]] + q * hc1, "coef(fit) + qt(0.975, G - 1) * sqrt(vcovCL(fit, cluster = ~cluster))")
}

d <- tables[tables$table == "balanced", ]
for (m in unique(d$model)) {
  dm <- d[d$model == m, ]
  fit <- suppressMessages(lmer(score ~ 1 + (1 | item), data = dm, REML = TRUE))
  vc <- as.data.frame(VarCorr(fit))
  put("balanced", m, "between", vc$vcov[vc$grp == "item"], "as.data.frame(VarCorr(lmer(score ~ 1 + (1 | item), REML = TRUE)))$vcov[item]")
  put("balanced", m, "within", vc$vcov[vc$grp == "Residual"], "as.data.frame(VarCorr(lmer(score ~ 1 + (1 | item), REML = TRUE)))$vcov[Residual]")
  tab <- anova(lm(score ~ factor(item), data = dm))
  m_per_item <- 4
  put("balanced", m, "anova_between", max(0, (tab["factor(item)", "Mean Sq"] - tab["Residuals", "Mean Sq"]) / m_per_item), "max(0, (MS_item - MS_residual) / 4) from anova(lm(score ~ factor(item)))")
  put("balanced", m, "anova_within", tab["Residuals", "Mean Sq"], "anova(lm(score ~ factor(item)))[\"Residuals\", \"Mean Sq\"]")
  put("balanced", m, "se_intercept", sqrt(vcov(fit)[1, 1]), "sqrt(vcov(lmer(score ~ 1 + (1 | item)))[1, 1])")
}

d <- tables[tables$table == "unbalanced", ]
for (m in unique(d$model)) {
  dm <- d[d$model == m, ]
  tab <- anova(lm(score ~ factor(item), data = dm))
  ni <- table(dm$item); N <- sum(ni); a <- length(ni)
  n0 <- (N - sum(ni^2) / N) / (a - 1)
  msb <- tab["factor(item)", "Mean Sq"]; msw <- tab["Residuals", "Mean Sq"]
  put("unbalanced", m, "within", msw, "anova(lm(score ~ factor(item)))[\"Residuals\", \"Mean Sq\"]")
  put("unbalanced", m, "between", max(0, (msb - msw) / n0), "max(0, (MS_item - MS_residual) / n0), n0 = (N - sum(n_i^2) / N) / (a - 1), MS from anova(lm(score ~ factor(item)))")
}

cat("# generated by tests/reference/benchmark/models.R from models_tables.csv, do not edit\n")
write.csv(out, stdout(), row.names = FALSE)
