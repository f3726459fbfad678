/* cdplot results page: recompute the comparison on the datasets ticked, in the browser.
 *
 * Reads the JSON payload written by cdplot/report/_page.py beside this script, and on
 * every change of the dataset selection recomputes the average ranks, Friedman's and
 * Iman-Davenport's tests, the post-hoc test (mean-ranks, Nemenyi, sign, Wilcoxon) with
 * its correction, the groups and the figure, following cdplot.stats formula by formula.
 * Large boards: each dataset's ranks are computed once (Table), the sign and Wilcoxon
 * tests' per-pair sums move by one dataset a click (Pairs), the page opens from the full
 * table's sums cdplot wrote, and a Nemenyi p-value is computed when shown.
 * No framework, no network: plain ES5-style functions, one closure per page section.
 */
(function () {
  "use strict";

  /* ----------------------------------------------------------- special functions */

  var LANCZOS = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  var LOG_SQRT_2PI = 0.91893853320467274178;
  var EPS = 1e-16;
  var TINY = 1e-300;

  /** log Gamma(x) for x > 0: Stirling's series for x >= 10, else Lanczos (g = 7). */
  function lgamma(x) {
    if (x >= 10) {
      var r = 1 / x, r2 = r * r;
      var series = r * (1 / 12 - r2 * (1 / 360 - r2 * (1 / 1260 - r2 * (1 / 1680 - r2 / 1188))));
      return (x - 0.5) * Math.log(x) - x + LOG_SQRT_2PI + series;
    }
    if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
    x -= 1;
    var a = LANCZOS[0], t = x + 7.5;
    for (var i = 1; i < 9; i++) a += LANCZOS[i] / (x + i);
    return LOG_SQRT_2PI + (x + 0.5) * Math.log(t) - t + Math.log(a);
  }

  /** Upper regularized incomplete gamma Q(a, x); logPrefix = log(x^a e^-x / Gamma(a)). */
  function gammaQ(a, x, logPrefix) {
    if (!(x > 0)) return 1;
    if (logPrefix === undefined) logPrefix = a * Math.log(x) - x - lgamma(a);
    var n;
    if (x < a + 1) {
      var ap = a, del = 1 / a, sum = del;
      for (n = 0; n < 100000; n++) {
        ap += 1;
        del *= x / ap;
        sum += del;
        if (Math.abs(del) < Math.abs(sum) * EPS) break;
      }
      return 1 - sum * Math.exp(logPrefix);
    }
    var b = x + 1 - a, c = 1 / TINY, d = 1 / b, h = d;
    for (n = 1; n < 100000; n++) {
      var an = -n * (n - a);
      b += 2;
      d = an * d + b;
      if (Math.abs(d) < TINY) d = TINY;
      c = b + an / c;
      if (Math.abs(c) < TINY) c = TINY;
      d = 1 / d;
      var step = d * c;
      h *= step;
      if (Math.abs(step - 1) < EPS) break;
    }
    return Math.exp(logPrefix) * h;
  }

  var LOG_SQRT_PI = 0.57236494292470008707;

  /** erfc(x) = Q(1/2, x^2), with relative precision in the upper tail. */
  function erfc(x) {
    if (x < 0) return 2 - erfc(-x);
    if (x === 0) return 1;
    var x2 = x * x;
    return gammaQ(0.5, x2, Math.log(x) - x2 - LOG_SQRT_PI);
  }

  /** P(X >= x) for X chi-square with df degrees of freedom (scipy.special.chdtrc). */
  function chi2Sf(df, x) {
    return gammaQ(df / 2, x / 2);
  }

  /** Continued fraction of the incomplete beta function (modified Lentz). */
  function betaFraction(a, b, x) {
    var qab = a + b, qap = a + 1, qam = a - 1;
    var c = 1, d = 1 - (qab * x) / qap;
    if (Math.abs(d) < TINY) d = TINY;
    d = 1 / d;
    var h = d;
    for (var m = 1; m < 100000; m++) {
      var m2 = 2 * m;
      var aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
      d = 1 + aa * d;
      if (Math.abs(d) < TINY) d = TINY;
      c = 1 + aa / c;
      if (Math.abs(c) < TINY) c = TINY;
      d = 1 / d;
      h *= d * c;
      aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
      d = 1 + aa * d;
      if (Math.abs(d) < TINY) d = TINY;
      c = 1 + aa / c;
      if (Math.abs(c) < TINY) c = TINY;
      d = 1 / d;
      var step = d * c;
      h *= step;
      if (Math.abs(step - 1) < EPS) break;
    }
    return h;
  }

  /** Regularized incomplete beta I_x(a, b), given x and y = 1 - x (each exact). */
  function betaI(a, b, x, y) {
    if (x <= 0) return 0;
    if (y <= 0) return 1;
    var logPrefix = lgamma(a + b) - lgamma(a) - lgamma(b) + a * Math.log(x) + b * Math.log(y);
    if (x < (a + 1) / (a + b + 2)) return (Math.exp(logPrefix) * betaFraction(a, b, x)) / a;
    return 1 - (Math.exp(logPrefix) * betaFraction(b, a, y)) / b;
  }

  /** P(F >= f) for F with (df1, df2) degrees of freedom (scipy.special.fdtrc). */
  function fSf(df1, df2, f) {
    if (!(f > 0)) return 1;
    if (f === Infinity) return 0;
    var s = df2 + df1 * f;
    return betaI(df2 / 2, df1 / 2, df2 / s, (df1 * f) / s);
  }

  /** P(B <= k) for B ~ Binomial(n, 1/2) (scipy.special.bdtr(k, n, 0.5)). */
  function binomCdfHalf(k, n) {
    if (k >= n) return 1;
    if (k < 0) return 0;
    return betaI(n - k, k + 1, 0.5, 0.5);
  }

  /** Two-sided normal p-value erfc(|z| sqrt(1/2)), capped at 1. */
  function twoSidedNormal(z) {
    return Math.min(1, erfc(Math.abs(z) * Math.SQRT1_2));
  }

  function ndtr(z) {
    return 0.5 * erfc(-z * Math.SQRT1_2);
  }

  function logNdtr(z) {
    return z > 0 ? Math.log1p(-ndtr(-z)) : Math.log(ndtr(z));
  }

  var rangeGrids = {}, rangeValues = {};

  /** The quadrature nodes on unit panels from -11 to hi, with what depends on them only. */
  function rangeGrid(hi, n, rule) {
    var key = hi + ":" + n;
    if (rangeGrids[key]) return rangeGrids[key];
    var grid = { z: [], phiW: [], a: [], aPow: [] };
    for (var start = -11; start < Math.ceil(hi); start++) {
      for (var t = 0; t < rule.x.length; t++) {
        var z = start + rule.x[t];
        grid.z.push(z);
        grid.phiW.push((Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI)) * rule.w[t]);
        grid.a.push(ndtr(z));
        grid.aPow.push(Math.exp(n * logNdtr(z)));
      }
    }
    rangeGrids[key] = grid;
    return grid;
  }

  /** P(W >= q), W the range of k standard normals (cdplot.stats._studentized.range_sf). */
  function rangeSf(q, k, rule) {
    if (!(q > 0)) return 1;
    if (q >= 80) return 0;
    var key = k + ":" + q;
    if (key in rangeValues) return rangeValues[key];
    var n = k - 1, grid = rangeGrid(Math.max(11, Math.ceil(q / 2) + 11), n, rule), sum = 0;
    for (var t = 0; t < grid.z.length; t++) {
      if (grid.aPow[t] === 0) continue; // its term is zero (Phi(z)^(k-1) underflows)
      var a = grid.a[t], b = ndtr(grid.z[t] - q);
      var ratio = a > 0 ? b / a : 1;
      var bracket = -grid.aPow[t] * Math.expm1(n * Math.log1p(-Math.min(ratio, 1)));
      if (isFinite(bracket)) sum += bracket * grid.phiW[t];
    }
    return (rangeValues[key] = Math.min(1, Math.max(0, k * sum)));
  }

  /* ----------------------------------------------------------- the table, read once */

  /* The scores never change, only the datasets ticked: each dataset's ranks, tie blocks and
   * tie term are computed once; a selection sums them. Pairwise tests on the scores keep
   * per-pair sums that a click updates by one dataset (see Pairs). */

  /** The scores, N x k row-major: base64 of little-endian float64 values, or nested lists. */
  function decodeScores(cfg, n, k) {
    var flat = new Float64Array(n * k);
    if (typeof cfg.scores === "string") {
      var bin = atob(cfg.scores), bytes = new Uint8Array(bin.length);
      for (var b = 0; b < bin.length; b++) bytes[b] = bin.charCodeAt(b);
      flat.set(new Float64Array(bytes.buffer));
    } else {
      cfg.scores.forEach(function (row, r) {
        flat.set(row, r * k);
      });
    }
    return flat;
  }

  var TYPED = { 1: Uint8Array, 2: Uint16Array, 4: Uint32Array, 8: Float64Array };

  /** A packed field ({bytes, data}: base64 of little-endian values) as m doubles; zeros
   * when the field is null. */
  function unpack(field, m) {
    var out = new Float64Array(m);
    if (!field) return out;
    var bin = atob(field.data), bytes = new Uint8Array(bin.length);
    for (var b = 0; b < bin.length; b++) bytes[b] = bin.charCodeAt(b);
    out.set(new TYPED[field.bytes](bytes.buffer));
    return out;
  }

  /** Ranks of one row (1 = highest value), ties get their average rank; the size of each
   * value's tie block goes to `sizes`. Returns the row's sum of t^3 - t over its blocks. */
  function rankRow(row, ranks, sizes) {
    var k = row.length, idx = [], ties = 0;
    for (var j = 0; j < k; j++) idx.push(j);
    idx.sort(function (p, q) {
      return row[q] - row[p];
    });
    for (var s = 0; s < k; ) {
      var e = s;
      while (e + 1 < k && row[idx[e + 1]] === row[idx[s]]) e++;
      var t = e - s + 1;
      for (var u = s; u <= e; u++) {
        ranks[idx[u]] = (s + e + 2) / 2;
        sizes[idx[u]] = t;
      }
      ties += t * t * t - t;
      s = e + 1;
    }
    return ties;
  }

  /** The scores oriented (higher is better) by algorithm, and each dataset's ranks. */
  function Table(cfg) {
    var n = cfg.datasets.length, k = cfg.algorithms.length, sign = cfg.higherIsBetter ? 1 : -1;
    var raw = decodeScores(cfg, n, k), row = new Float64Array(k);
    this.n = n;
    this.k = k;
    this.cols = new Float64Array(n * k); // cols[j * n + r]: algorithm j on dataset r
    this.ranks = new Float64Array(n * k); // ranks[r * k + j]
    this.sizes = new Float64Array(n * k); // the size of j's tie block on dataset r
    this.rowTies = new Float64Array(n); // sum of t^3 - t over dataset r's tie blocks
    for (var r = 0; r < n; r++) {
      for (var j = 0; j < k; j++) {
        row[j] = sign * raw[r * k + j] + 0;
        this.cols[j * n + r] = row[j];
      }
      this.rowTies[r] = rankRow(
        row, this.ranks.subarray(r * k, (r + 1) * k), this.sizes.subarray(r * k, (r + 1) * k)
      );
    }
  }

  /** Rank sums, tie-block sizes and tie terms summed over the datasets `rows`. */
  Table.prototype.sums = function (rows) {
    var k = this.k, rankSum = new Float64Array(k), sizeSum = new Float64Array(k), ties = 0;
    for (var q = 0; q < rows.length; q++) {
      var off = rows[q] * k;
      for (var j = 0; j < k; j++) {
        rankSum[j] += this.ranks[off + j];
        sizeSum[j] += this.sizes[off + j];
      }
      ties += this.rowTies[rows[q]];
    }
    return { rankSum: rankSum, sizeSum: sizeSum, ties: ties };
  };

  /** Wins, ties and losses over n datasets from the rank and block-size sums: on one dataset
   * an algorithm of midrank m in a block of t loses to m - (t + 1) / 2 and ties t - 1. */
  function winsTiesLosses(sums, n, k) {
    var w = [], t = [], l = [];
    for (var j = 0; j < k; j++) {
      var ties = sums.sizeSum[j] - n, losses = sums.rankSum[j] - (sums.sizeSum[j] + n) / 2;
      w.push((k - 1) * n - ties - losses);
      t.push(ties);
      l.push(losses);
    }
    return { wins: w, ties: t, losses: l };
  }

  function omnibus(avg, n, factor) {
    var k = avg.length, ss = 0;
    avg.forEach(function (r) {
      ss += (r - (k + 1) / 2) * (r - (k + 1) / 2);
    });
    var chi2 = ((12 * n) / (k * (k + 1))) * ss;
    if (factor !== 1) chi2 = factor > 0 ? chi2 / factor : 0;
    var df1 = k - 1, df2 = (k - 1) * (n - 1), denom = n * (k - 1) - chi2, f, fp;
    if (denom <= n * (k - 1) * 1e-13) {
      f = Infinity;
      fp = 0;
    } else {
      f = ((n - 1) * chi2) / denom;
      fp = fSf(df1, df2, f);
    }
    return { chi2: chi2, chi2P: chi2Sf(df1, chi2), f: f, fP: fp, df1: df1, df2: df2 };
  }

  /* ----------------------------------------------------------- pairwise tests */

  /** The pairs a selection tests: every pair (i < j, row by row), or the control's pairs
   * (each written low index first, as the full matrix holds it). */
  function pairList(k, control) {
    var m = control === null ? (k * (k - 1)) / 2 : k - 1, t = 0;
    var first = new Int32Array(m), second = new Int32Array(m);
    for (var i = 0; i < k; i++) {
      for (var j = i + 1; j < k; j++) {
        if (control === null || i === control || j === control) {
          first[t] = i;
          second[t++] = j;
        }
      }
    }
    return { first: first, second: second };
  }

  /** Per-pair sums of a test on the scores over the datasets ticked. The sign test counts
   * wins and losses; the Wilcoxon test keeps the zero differences, the positive ones, twice
   * the positive ones' rank sum (midranks of |d| among all) and the tie term of the non-zero
   * |d| blocks. `full` sums a selection from scratch; `add`/`remove` move one dataset in or
   * out in O(N) per pair (a click), with the same exact sums. */
  function Pairs(table, test, pairs) {
    var m = pairs.first.length;
    this.table = table;
    this.test = test;
    this.first = pairs.first;
    this.second = pairs.second;
    this.a = new Float64Array(m); // sign: wins of first; wilcoxon: zero differences
    this.b = new Float64Array(m); // sign: losses of first; wilcoxon: positive differences
    this.rank2 = new Float64Array(m); // wilcoxon: twice the positives' rank sum
    this.ties = new Float64Array(m); // wilcoxon: sum of t^3 - t over non-zero |d| blocks
  }

  Pairs.prototype.full = function (rows) {
    var n = rows.length, N = this.table.n, cols = this.table.cols, buf = new Float64Array(n);
    for (var t = 0; t < this.first.length; t++) {
      var ci = this.first[t] * N, cj = this.second[t] * N, q;
      if (this.test === "sign") {
        var wins = 0, losses = 0;
        for (q = 0; q < n; q++) {
          var d = cols[ci + rows[q]] - cols[cj + rows[q]];
          if (d > 0) wins++;
          else if (d < 0) losses++;
        }
        this.a[t] = wins;
        this.b[t] = losses;
        continue;
      }
      for (q = 0; q < n; q++) buf[q] = cols[ci + rows[q]] - cols[cj + rows[q]];
      buf.sort(); // negatives (largest |d| first), zeros, positives (smallest first)
      var neg = 0, zeros = 0;
      while (neg < n && buf[neg] < 0) neg++;
      while (neg + zeros < n && buf[neg + zeros] === 0) zeros++;
      var lo = neg - 1, hi = neg + zeros, at = zeros, rank2 = 0, ties = 0;
      while (lo >= 0 || hi < n) { // merge both sides by |d|, one tie block at a time
        var v = lo >= 0 ? -buf[lo] : Infinity, w = hi < n ? buf[hi] : Infinity;
        var x = v < w ? v : w, cn = 0, cp = 0;
        while (lo >= 0 && -buf[lo] === x) {
          cn++;
          lo--;
        }
        while (hi < n && buf[hi] === x) {
          cp++;
          hi++;
        }
        var size = cn + cp;
        rank2 += cp * (2 * at + size + 1);
        if (size > 1) ties += size * size * size - size;
        at += size;
      }
      this.a[t] = zeros;
      this.b[t] = n - neg - zeros;
      this.rank2[t] = rank2;
      this.ties[t] = ties;
    }
  };

  /** The full table's Wilcoxon sums written by cdplot (every pair, every dataset ticked). */
  Pairs.prototype.load = function (sums) {
    var m = this.first.length, n = this.table.n;
    var minus2 = unpack(sums.rankMinus2, m), neg = unpack(sums.negatives, m);
    var zeros = unpack(sums.zeros, m), ties = unpack(sums.ties, m);
    for (var t = 0; t < m; t++) {
      var z = zeros[t];
      this.a[t] = z;
      this.b[t] = n - neg[t] - z;
      this.rank2[t] = n * (n + 1) - z * (z + 1) - minus2[t]; // the zeros hold ranks 1..z
      this.ties[t] = ties[t];
    }
  };

  /** Moves dataset r in (sign = 1) or out (sign = -1); `rows`: the other datasets ticked. */
  Pairs.prototype.move = function (r, rows, sign) {
    var n = rows.length, N = this.table.n, k = this.table.k, cols = this.table.cols;
    var near = new Float64Array(k * n), at = new Float64Array(k); // the other rows, by column
    for (var j = 0; j < k; j++) {
      at[j] = cols[j * N + r];
      for (var q = 0; q < n; q++) near[j * n + q] = cols[j * N + rows[q]];
    }
    for (var t = 0; t < this.first.length; t++) {
      var i = this.first[t], o = this.second[t], d = at[i] - at[o];
      if (this.test === "sign") {
        if (d > 0) this.a[t] += sign;
        else if (d < 0) this.b[t] += sign;
        continue;
      }
      if (d === 0) { // a zero has the lowest rank: every positive moves one rank up
        this.rank2[t] += sign * 2 * this.b[t];
        this.a[t] += sign;
        continue;
      }
      // above |d| every rank moves up one; |d|'s block grows by one (its midrank by 1/2).
      // Counted without branches: e > |d|, e >= |d|, e < -|d|, e <= -|d|
      var abs = d < 0 ? -d : d, neg = -abs, ci = i * n, cj = o * n, gt = 0, ge = 0, lt = 0;
      var le = 0;
      for (q = 0; q < n; q++) {
        var e = near[ci + q] - near[cj + q];
        gt += (e > abs) | 0;
        ge += (e >= abs) | 0;
        lt += (e < neg) | 0;
        le += (e <= neg) | 0;
      }
      var samePos = ge - gt, same = samePos + le - lt, below = n - ge - le;
      var delta = 2 * gt + samePos + (d > 0 ? 2 * (below + 1) + same : 0);
      if (sign < 0 && d > 0) this.b[t]--;
      this.rank2[t] += sign * delta;
      this.ties[t] += sign * 3 * same * (same + 1);
      if (sign > 0 && d > 0) this.b[t]++;
    }
  };

  var signedRankCdfCache = {};

  /** P(V <= v) for v = 0..n(n+1)/2: exact counts of subsets of {1..n} by sum. */
  function signedRankCdf(n) {
    if (signedRankCdfCache[n]) return signedRankCdfCache[n];
    var top = (n * (n + 1)) / 2, counts = new Float64Array(top + 1);
    counts[0] = 1;
    for (var m = 1; m <= n; m++) {
      for (var v = (m * (m + 1)) / 2; v >= m; v--) counts[v] += counts[v - m];
    }
    var cdf = new Float64Array(top + 1), run = 0, scale = Math.pow(2, n);
    for (var s = 0; s <= top; s++) {
      run += counts[s];
      cdf[s] = run / scale;
    }
    signedRankCdfCache[n] = cdf;
    return cdf;
  }

  function cdfAt(cdf, v) {
    var i = Math.floor(v);
    return i < 0 ? 0 : cdf[Math.min(i, cdf.length - 1)];
  }

  /** The Wilcoxon p-value of one pair from its sums over n datasets, as
   * cdplot.stats._pairwise computes it (zero method, exact or normal, continuity). */
  function wilcoxonFromSums(nZero, nPos, rank2, tieSum, n, opt) {
    var rAll = rank2 / 2, hasTies = tieSum > 0, rPlus;
    if (opt.zeroMethod === "wilcox") rPlus = rAll - nZero * nPos;
    else if (opt.zeroMethod === "pratt") rPlus = rAll;
    else {
      rPlus = rAll + (nZero * (nZero + 1)) / 4;
      tieSum += nZero * nZero * nZero - nZero;
      hasTies = hasTies || nZero > 1;
    }
    var nz = nZero, count = opt.zeroMethod === "wilcox" ? n - nz : n;
    var mean = (count * (count + 1)) / 4;
    var var24 = count * (count + 1) * (2 * count + 1);
    if (opt.zeroMethod === "pratt") {
      mean -= (nz * (nz + 1)) / 4;
      var24 -= nz * (nz + 1) * (2 * nz + 1);
    }
    var exact;
    if (opt.exact === null || opt.exact === undefined) exact = !hasTies && nz === 0 && count < 50;
    else if (opt.exact) exact = !hasTies && (nz === 0 || opt.zeroMethod === "wilcox");
    else exact = false;
    if (exact) {
      var cdf = signedRankCdf(count), v = rPlus;
      var tail = v > (count * (count + 1)) / 4 ? 1 - cdfAt(cdf, v - 1) : cdfAt(cdf, v);
      return Math.min(1, 2 * tail);
    }
    var sd = Math.sqrt(Math.max(var24 - tieSum / 2, 0) / 24);
    if (sd === 0) return 1;
    var diff = rPlus - mean;
    if (opt.continuity) diff -= 0.5 * Math.sign(diff);
    return twoSidedNormal(diff / sd);
  }

  /** Distinct statistics numbered in order of appearance, each p-value computed once. */
  function Distinct() {
    this.ids = new Map();
    this.values = [];
  }

  Distinct.prototype.id = function (key, pvalue) {
    var id = this.ids.get(key);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(pvalue());
      this.ids.set(key, id);
    }
    return id;
  };

  /** The raw p-values of the pairs of `pairs`: `values`, the distinct ones, and `id`, each
   * pair's index into them (pairs with equal statistics share one). */
  function pairPvalues(cfg, pairs, state, rankSum, n) {
    var m = pairs.first.length, id = new Int32Array(m), seen = new Distinct(), t;
    var opt = cfg.options;
    if (cfg.test === "sign") {
      var split = opt.ties === "split";
      for (t = 0; t < m; t++) {
        var wins = state.a[t], losses = state.b[t];
        if (split) {
          var tied = n - wins - losses, counted = tied - (tied % 2);
          wins += counted / 2;
          losses += counted / 2;
        }
        var total = wins + losses, low = Math.min(wins, losses);
        id[t] = seen.id(low * (n + 1) + total, function () {
          return total === 0 ? 1 : Math.min(1, 2 * binomCdfHalf(low, total));
        });
      }
    } else if (cfg.test === "wilcoxon") {
      for (t = 0; t < m; t++) {
        var z = state.a[t], pos = state.b[t], r2 = state.rank2[t], ties = state.ties[t];
        // no zero and no tie: the statistic is rank2 alone (a number key), else all four
        var key = z === 0 && ties === 0 ? r2 : z + " " + pos + " " + r2 + " " + ties;
        id[t] = seen.id(key, function () {
          return wilcoxonFromSums(z, pos, r2, ties, n, opt);
        });
      }
    } else {
      for (t = 0; t < m; t++) {
        var i = pairs.first[t], o = pairs.second[t];
        id[t] = seen.id(Math.abs(2 * rankSum[i] - 2 * rankSum[o]), function () {
          return meanRanksP(cfg, rankSum, n, i, o);
        });
      }
    }
    return { values: Float64Array.from(seen.values), id: id };
  }

  /** The mean-ranks (normal) or Nemenyi (studentized range) p-value of one pair, by the
   * distance of twice their rank sums (an integer). */
  function meanRanksP(cfg, rankSum, n, i, j) {
    var k = rankSum.length, dist = Math.abs(2 * rankSum[i] - 2 * rankSum[j]);
    var z = dist / Math.sqrt((2 * n * k * (k + 1)) / 3);
    if (cfg.test === "mean-ranks") return twoSidedNormal(z);
    return rangeSf(z * Math.SQRT2, k, cfg.quadrature);
  }

  /* ----------------------------------------------------------- corrections */

  /* Every correction below reads the raw p-values sorted ascending and returns the APVs in
   * that order. Equal raw p-values then get the largest APV among them, so an APV is a
   * function of the raw p-value alone and is looked up by it (cdplot.stats._adjust). */

  /** The indices of `p` by ascending value (equal values by index). */
  function sortedOrder(p) {
    return p
      .map(function (v, i) {
        return i;
      })
      .sort(function (a, b) {
        return p[a] - p[b] || a - b;
      });
  }

  /** Step-down max-accumulate of term(p_(i), i): Holm, Shaffer (and Finner's form). */
  function stepDown(ps, term) {
    var out = new Float64Array(ps.length), run = -Infinity;
    for (var i = 0; i < ps.length; i++) {
      run = Math.max(run, term(ps[i], i));
      out[i] = Math.min(1, run);
    }
    return out;
  }

  function hochberg(ps) {
    var m = ps.length, out = new Float64Array(m), run = Infinity;
    for (var i = m - 1; i >= 0; i--) {
      run = Math.min(run, (m - i) * ps[i]);
      out[i] = Math.min(1, run);
    }
    return out;
  }

  /** Hommel's procedure as R's p.adjust(p, "hommel"). */
  function hommel(ps) {
    var m = ps.length;
    if (m === 1) return Float64Array.from(ps);
    if (m === 2) return hochberg(ps);
    var first = Infinity;
    for (var i = 0; i < m; i++) first = Math.min(first, (m * ps[i]) / (i + 1));
    var q = new Float64Array(m).fill(first), pa = Float64Array.from(q);
    for (var size = m - 1; size > 1; size--) {
      var head = m - size + 1, q1 = Infinity;
      for (var t = head; t < m; t++) q1 = Math.min(q1, (size * ps[t]) / (t - head + 2));
      for (t = 0; t < head; t++) q[t] = Math.min(size * ps[t], q1);
      for (t = head; t < m; t++) q[t] = q[head - 1];
      for (t = 0; t < m; t++) pa[t] = Math.max(pa[t], q[t]);
    }
    var out = new Float64Array(m);
    for (var r = 0; r < m; r++) out[r] = Math.min(1, Math.max(pa[r], ps[r]));
    return out;
  }

  function li(ps) {
    var pmax = ps[ps.length - 1];
    return ps.map(function (v) {
      var denom = v + (1 - pmax);
      return Math.min(1, Math.max(denom > 0 ? v / denom : 0, v));
    });
  }

  /** The APVs of the ascending raw p-values `ps` (a Float64Array). */
  function adjustSorted(ps, name, cfg) {
    var m = ps.length, apv;
    if (name === "none" || name === "nemenyi") apv = Float64Array.from(ps);
    else if (name === "bonferroni" || name === "bonferroni-dunn")
      apv = ps.map(function (v) {
        return Math.min(1, m * v);
      });
    else if (name === "holm")
      apv = stepDown(ps, function (v, i) {
        return (m - i) * v;
      });
    else if (name === "shaffer")
      apv = stepDown(ps, function (v, i) {
        return cfg.shaffer[i] * v;
      });
    else if (name === "finner")
      apv = stepDown(ps, function (v, i) {
        return -Math.expm1((m / (i + 1)) * Math.log1p(-v));
      }).map(function (a, i) {
        return Math.max(a, ps[i]);
      });
    else if (name === "hochberg") apv = hochberg(ps);
    else if (name === "hommel") apv = hommel(ps);
    else if (name === "li") apv = li(ps);
    else throw new Error("correction not recomputed in the page: " + name);
    for (var s = 0; s < m; ) { // equal raw p-values: the largest APV among them
      var e = s, top = apv[s];
      while (e + 1 < m && ps[e + 1] === ps[s]) top = Math.max(top, apv[++e]);
      for (var t = s; t <= e; t++) apv[t] = top;
      s = e + 1;
    }
    return apv;
  }

  /** The APV of every pair from its raw p-value `values[id[t]]` (see pairPvalues): the
   * distinct values are sorted, then spread out by their counts into the sorted list of all
   * m the corrections read; a pair reads the APV at its value's first place. */
  function adjust(values, id, name, cfg) {
    var m = id.length, counts = new Int32Array(values.length), t;
    for (t = 0; t < m; t++) counts[id[t]]++;
    var order = sortedOrder(Array.from(values)), ps = new Float64Array(m);
    var start = new Int32Array(values.length), at = 0;
    order.forEach(function (u) {
      start[u] = at;
      ps.fill(values[u], at, (at += counts[u]));
    });
    var apv = adjustSorted(ps, name, cfg), out = new Float64Array(m);
    for (t = 0; t < m; t++) out[t] = apv[start[id[t]]];
    return out;
  }

  /* ----------------------------------------------------------- groups */

  /** Maximal runs in rank order with no significant pair (cdplot.stats._groups). */
  function findGroups(order, sig, k) {
    var end = [], stop = 0, s, t;
    function clear(a, b, col) {
      for (var r = a; r <= b; r++) if (sig[order[r] * k + order[col]]) return false;
      return true;
    }
    for (s = 0; s < k; s++) {
      stop = Math.max(stop, s);
      while (stop + 1 < k && clear(s, stop, stop + 1)) stop++;
      end.push(stop);
    }
    var groups = [];
    for (s = 0; s < k; s++) {
      if (s === 0 || end[s] > end[s - 1]) {
        var g = [];
        for (t = s; t <= end[s]; t++) g.push(order[t]);
        groups.push(g);
      }
    }
    return groups;
  }

  /* ----------------------------------------------------------- one comparison */

  /** The comparison on the datasets ticked: the table read once, the per-pair sums of a
   * test on the scores kept up to date click by click. */
  function Model(cfg) {
    this.cfg = cfg;
    this.table = new Table(cfg);
    this.ticked = new Uint8Array(this.table.n);
    this.rows = new Int32Array(0);
    this.pairs = pairList(this.table.k, cfg.controlIndex);
    this.state = null;
    this.movesMax = MOVES_MAX;
    if (cfg.recompute && (cfg.test === "sign" || cfg.test === "wilcoxon")) {
      this.state = new Pairs(this.table, cfg.test, this.pairs);
      if (cfg.pairSums) { // the page opens with every dataset ticked: cdplot's own sums
        this.state.load(cfg.pairSums);
        this.ticked.fill(1);
      }
    }
  }

  /** Beyond this many datasets changed at once, the per-pair sums are summed afresh (a
   * move costs O(N) a pair, summing afresh a sort of N differences a pair). */
  var MOVES_MAX = 16;

  function rowsOf(ticked) {
    var rows = [];
    for (var r = 0; r < ticked.length; r++) if (ticked[r]) rows.push(r);
    return Int32Array.from(rows);
  }

  function differ(a, b) {
    var out = [];
    for (var r = 0; r < a.length; r++) if (!a[r] !== !b[r]) out.push(r);
    return out;
  }

  /** Ticks exactly the datasets whose flag in `ticked` is set: from the sums kept, or from
   * the full table's (every dataset ticked) when fewer datasets differ from that, moving
   * the datasets that differ one by one; else summed afresh. */
  Model.prototype.select = function (ticked) {
    var changed = differ(ticked, this.ticked), state = this.state, self = this;
    if (state && this.cfg.pairSums) {
      var all = new Uint8Array(ticked.length).fill(1), fromAll = differ(ticked, all);
      if (fromAll.length < changed.length && fromAll.length <= this.movesMax) {
        state.load(this.cfg.pairSums);
        this.ticked = all;
        changed = fromAll;
      }
    }
    if (state && changed.length <= this.movesMax) {
      changed.forEach(function (r) {
        var sign = ticked[r] ? 1 : -1;
        self.ticked[r] = 0;
        state.move(r, rowsOf(self.ticked), sign);
        self.ticked[r] = ticked[r] ? 1 : 0;
      });
    } else {
      for (var r = 0; r < ticked.length; r++) this.ticked[r] = ticked[r] ? 1 : 0;
      if (state) state.full(rowsOf(this.ticked));
    }
    this.rows = rowsOf(this.ticked);
  };

  /** Moves the first dataset out and back in: the sums are as before (integers, exact),
   * and the code a click runs has been run. */
  Model.prototype.warm = function () {
    var ticked = Uint8Array.from(this.ticked);
    ticked[0] = ticked[0] ? 0 : 1;
    var moves = this.movesMax;
    this.movesMax = Math.max(moves, 1);
    this.select(ticked);
    ticked[0] = ticked[0] ? 0 : 1;
    this.select(ticked);
    this.movesMax = moves;
  };

  /** Everything the page shows for the datasets ticked (at least two). */
  Model.prototype.analyse = function () {
    var cfg = this.cfg, k = this.table.k, rows = this.rows, n = rows.length;
    var sums = this.table.sums(rows), avg = [];
    for (var j = 0; j < k; j++) avg.push(sums.rankSum[j] / n);
    var factor = cfg.tieCorrection ? 1 - sums.ties / (n * k * (k * k - 1)) : 1;
    var out = { n: n, avg: avg, wtl: winsTiesLosses(sums, n, k), omnibus: omnibus(avg, n, factor) };
    out.order = avg
      .map(function (v, i) {
        return i;
      })
      .sort(function (a, b) {
        return avg[a] - avg[b] || (cfg.algorithms[a] < cfg.algorithms[b] ? -1 : 1);
      });
    if (!cfg.recompute) return out;
    var se = Math.sqrt((k * (k + 1)) / (6 * n)), pairs = this.pairs, m = pairs.first.length;
    var apv = (out.apvs = new Float64Array(k * k).fill(NaN)), sig = (out.sig = new Uint8Array(k * k));
    var lazy = cfg.test === "nemenyi" && (cfg.correction === "nemenyi" || cfg.correction === "none");
    out.apvAt = function (i, o) {
      var v = apv[i * k + o];
      if (lazy && v !== v && i !== o) v = apv[i * k + o] = apv[o * k + i] = meanRanksP(cfg, sums.rankSum, n, i, o);
      return v;
    };
    if (lazy) {
      // p <= alpha exactly when z >= q_alpha (the p-value falls with z): only a pair within
      // rounding of the threshold needs its p-value to decide; the others' wait for a reader
      var scale = Math.sqrt((2 * n * k * (k + 1)) / 3), band = 1e-7 * cfg.qAlpha;
      for (var t = 0; t < m; t++) {
        var a = pairs.first[t], b = pairs.second[t];
        var z = Math.abs(2 * sums.rankSum[a] - 2 * sums.rankSum[b]) / scale;
        var s = z > cfg.qAlpha + band || (z >= cfg.qAlpha - band && out.apvAt(a, b) <= cfg.alpha);
        sig[a * k + b] = sig[b * k + a] = s ? 1 : 0;
      }
    } else {
      var raw = pairPvalues(cfg, pairs, this.state, sums.rankSum, n);
      var adj = adjust(raw.values, raw.id, cfg.correction, cfg);
      for (t = 0; t < m; t++) {
        var i = pairs.first[t], o = pairs.second[t];
        apv[i * k + o] = apv[o * k + i] = adj[t];
        sig[i * k + o] = sig[o * k + i] = adj[t] <= cfg.alpha ? 1 : 0;
      }
    }
    if (cfg.controlIndex === null) out.cd = cfg.test === "nemenyi" ? cfg.qAlpha * se : null;
    else out.cd = cfg.correction === "bonferroni-dunn" && cfg.test === "mean-ranks" ? cfg.zDunn * se : null;
    out.groups = cfg.controlIndex === null ? findGroups(out.order, sig, k) : [];
    out.intervals = rankIntervals(out, k);
    return out;
  };

  /** Test-based rank intervals: 1 + #significantly better, k - #significantly worse. */
  function rankIntervals(res, k) {
    var out = [];
    for (var j = 0; j < k; j++) {
      var better = 0, worse = 0;
      for (var o = 0; o < k; o++) {
        if (o === j || !res.sig[j * k + o]) continue;
        if (res.avg[o] < res.avg[j]) better++;
        else if (res.avg[o] > res.avg[j]) worse++;
      }
      out.push([1 + better, k - worse]);
    }
    return out;
  }

  function rankInterval(res, j) {
    return res.intervals ? res.intervals[j] : null;
  }

  /* ----------------------------------------------------------- the page */

  var SVG_NS = "http://www.w3.org/2000/svg";

  function svgEl(name, attrs, text) {
    var el = document.createElementNS(SVG_NS, name);
    Object.keys(attrs).forEach(function (a) {
      el.setAttribute(a, attrs[a]);
    });
    if (text !== undefined) el.textContent = text;
    return el;
  }

  /** A p-value as cdplot.report.format_pvalue writes it: "0.032", "<0.001", "1". */
  function fmtP(p) {
    if (p === null || p === undefined || isNaN(p)) return "–";
    if (p < 0.001) return "<0.001";
    if (p >= 1) return "1";
    return p.toFixed(3);
  }

  /** "p = 0.032" or "p < 0.001", as the reports' omnibus line (report._model.p_clause). */
  function pClause(p) {
    var text = fmtP(p);
    return text.charAt(0) === "<" ? "p < " + text.slice(1) : "p = " + text;
  }

  /** "F(4, 44) = 3.160", or in words when F is infinite (cdplot._labels.statistic_text). */
  function statisticText(lhs, value) {
    if (!isFinite(value)) return lhs + " is infinite (every dataset ranks the algorithms alike)";
    return lhs + " = " + value.toFixed(3);
  }

  function Page(root) {
    this.root = root;
    this.cfg = JSON.parse(root.querySelector("script.cdplot-payload").textContent);
    var cfg = this.cfg;
    cfg.controlIndex = cfg.control === null ? null : cfg.algorithms.indexOf(cfg.control);
    this.model = new Model(cfg);
    this.boxes = Array.prototype.slice.call(root.querySelectorAll("input[data-dataset]"));
    this.result = root.querySelector("[data-cdplot-result]");
    this.figure = root.querySelector(".cdplot-live-figure");
    this.tbody = root.querySelector(".cdplot-live-table tbody");
    this.detail = root.querySelector(".cdplot-detail");
    this.focus = null;
    this.index = new Map(
      cfg.algorithms.map(function (a, j) {
        return [a, j];
      })
    );
    this.bind();
    this.update();
    var model = this.model;
    if (model.state) { // a first click then runs code already compiled: warm it when idle
      (window.requestIdleCallback || setTimeout)(function () {
        model.warm();
      }, { timeout: 1000 });
    }
  }

  Page.prototype.bind = function () {
    var self = this, root = this.root;
    hoverShows(this.tbody, this);
    hoverShows(this.figure, this);
    this.boxes.forEach(function (box) {
      box.addEventListener("change", function () {
        self.update();
      });
    });
    root.querySelector("[data-action=all]").addEventListener("click", function () {
      self.setAll(true);
    });
    root.querySelector("[data-action=none]").addEventListener("click", function () {
      self.setAll(false);
    });
    root.querySelector("[data-action=svg]").addEventListener("click", function () {
      var svg = self.figure.querySelector("svg");
      if (svg) save("cdplot-figure.svg", "image/svg+xml", new XMLSerializer().serializeToString(svg));
    });
    root.querySelector("[data-action=csv]").addEventListener("click", function () {
      save("cdplot-table.csv", "text/csv", self.csv());
    });
    var filter = root.querySelector("input[type=search]");
    filter.addEventListener("input", function () {
      var needle = filter.value.toLowerCase();
      self.boxes.forEach(function (box) {
        var hit = box.getAttribute("data-dataset").toLowerCase().indexOf(needle) >= 0;
        box.closest("li").hidden = !hit;
      });
    });
    var timer = null;
    function redraw() {
      clearTimeout(timer);
      timer = setTimeout(function () {
        self.figureWidth = undefined;
        self.draw();
      }, 100);
    }
    window.addEventListener("resize", redraw);
    if (window.ResizeObserver) {
      // the figure's box can change width without the window (a notebook's side panel)
      new ResizeObserver(function () {
        if (self.figureWidth !== undefined && self.figure.clientWidth !== self.figureWidth) redraw();
      }).observe(this.figure);
    }
  };

  /** All or none of the datasets the text filter shows. */
  Page.prototype.setAll = function (on) {
    this.boxes.forEach(function (box) {
      if (!box.closest("li").hidden) box.checked = on;
    });
    this.update();
  };

  /** The datasets ticked, one flag each. */
  Page.prototype.ticked = function () {
    return Uint8Array.from(this.boxes, function (box) {
      return box.checked ? 1 : 0;
    });
  };

  Page.prototype.update = function () {
    var cfg = this.cfg, el = this.result;
    this.model.select(this.ticked());
    var rows = this.model.rows;
    this.root.querySelector(".cdplot-count").textContent = rows.length + " of " + this.boxes.length;
    if (rows.length < 2) {
      this.res = null;
      el.setAttribute("data-friedman-p", "");
      el.setAttribute("data-groups", "[]");
      el.removeAttribute("data-critical-difference");
      el.querySelector(".cdplot-omnibus").textContent =
        "Select at least two datasets to compare the algorithms.";
      this.tbody.textContent = "";
      this.figure.textContent = "";
      this.detail.textContent = "Select at least two datasets to see an algorithm's numbers.";
      return;
    }
    var res = (this.res = this.model.analyse());
    var names = cfg.algorithms;
    var groups = res.groups
      ? res.groups.map(function (g) {
          return g.map(function (j) {
            return names[j];
          });
        })
      : cfg.full.groups;
    var cd = res.groups ? res.cd : null;
    el.setAttribute("data-n-datasets", String(rows.length));
    el.setAttribute("data-friedman-p", String(res.omnibus.chi2P));
    el.setAttribute("data-iman-davenport-p", String(res.omnibus.fP));
    el.setAttribute("data-groups", JSON.stringify(groups));
    el.setAttribute("data-groups-source", res.groups ? "selection" : "full-table");
    if (cd === null || cd === undefined) el.removeAttribute("data-critical-difference");
    else el.setAttribute("data-critical-difference", String(cd));
    var o = res.omnibus;
    el.querySelector(".cdplot-omnibus").textContent =
      "On " + rows.length + " datasets: Friedman " + statisticText("χ²(" + o.df1 + ")", o.chi2) +
      ", " + pClause(o.chi2P) + "; Iman–Davenport " +
      statisticText("F(" + o.df1 + ", " + o.df2 + ")", o.f) + ", " + pClause(o.fP) +
      (cd ? "; critical difference " + cd.toFixed(3) : "") + ".";
    this.table();
    this.draw();
    if (this.focus !== null) this.show(this.focus);
  };

  var COLUMNS = ["#", "Algorithm", "Avg. rank", "Rank interval", "W/T/L"];

  var ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return ESCAPES[c];
    });
  }

  /** The live table's rows, written as one string (one parse instead of a node per cell). */
  Page.prototype.table = function () {
    var cfg = this.cfg, res = this.res, body = this.tbody;
    if (!body.parentNode.tHead) {
      var row = body.parentNode.createTHead().insertRow();
      COLUMNS.forEach(function (name, c) {
        var th = document.createElement("th");
        th.scope = "col";
        if (c !== 1) th.className = "num";
        th.textContent = name;
        row.appendChild(th);
      });
    }
    var html = res.order.map(function (j, pos) {
      var iv = rankInterval(res, j);
      var cells = [
        String(pos + 1),
        res.avg[j].toFixed(3),
        iv ? iv[0] + "–" + iv[1] : "–",
        res.wtl.wins[j] + "/" + res.wtl.ties[j] + "/" + res.wtl.losses[j],
      ];
      return (
        '<tr data-algorithm="' + escapeHtml(cfg.algorithms[j]) + '" data-average-rank="' +
        res.avg[j] + '" tabindex="0"><td class="num">' + cells[0] + '</td><th scope="row">' +
        escapeHtml(cfg.labels[j]) + '</th><td class="num">' + cells.slice(1).join('</td><td class="num">') +
        "</td></tr>"
      );
    });
    body.innerHTML = html.join("");
  };

  /** The full table's value of j against o (every pair: row j, else column j; against a
   * control: the control's row), or undefined. */
  function fullValue(cfg, j, o) {
    var apv = cfg.full.apv, k = cfg.algorithms.length, c = cfg.controlIndex;
    if (apv.length === k * k) return apv[j * k + o];
    if (j === c) return apv[o];
    return o === c ? apv[j] : undefined;
  }

  /** The hover panel: rank, interval, wins/ties/losses, APVs (or posteriors) vs the others. */
  Page.prototype.show = function (j) {
    var cfg = this.cfg, res = this.res, det = this.detail;
    this.focus = j;
    this.shown = res;
    if (!res) return;
    var iv = rankInterval(res, j), name = cfg.algorithms[j];
    var head = document.createElement("p");
    head.innerHTML = "<strong></strong>";
    head.firstChild.textContent = cfg.labels[j];
    head.appendChild(
      document.createTextNode(
        ": average rank " + res.avg[j].toFixed(3) +
          (iv ? ", rank interval " + iv[0] + "–" + iv[1] : "") +
          ", wins/ties/losses " + res.wtl.wins[j] + "/" + res.wtl.ties[j] + "/" + res.wtl.losses[j]
      )
    );
    var list = document.createElement("ul");
    res.order.forEach(function (o) {
      if (o === j) return;
      var a;
      var a = res.apvAt ? res.apvAt(j, o) : fullValue(cfg, j, o);
      if (a === undefined || a === null || isNaN(a)) return;
      var li = document.createElement("li");
      li.textContent = "vs " + cfg.labels[o] + ": " + fmtP(a) + (res.apvAt && a <= cfg.alpha ? " *" : "");
      list.appendChild(li);
    });
    det.textContent = "";
    det.appendChild(head);
    if (list.childNodes.length) det.appendChild(list);
    Array.prototype.forEach.call(this.tbody.children, function (tr) {
      tr.classList.toggle("cdplot-focus", tr.getAttribute("data-algorithm") === name);
    });
  };

  /* ----------------------------------------------------------- names in the figures */

  /* Names are never cut: drawn at NAME_PX or smaller down to NAME_FLOOR_PX, and below the
   * floor wrapped onto more lines (no character dropped); the layout makes their room. */
  var FONT = "sans-serif", NAME_PX = 12, NAME_FLOOR_PX = 10, RANK_PX = 10, LINE_SPACING = 1.2;
  var measureContext = null, measured = new Map();

  /** Width in px of `text` at `px` in the figures' font (measured on a canvas once: the
   * names and sizes repeat from click to click). */
  function textWidth(text, px) {
    var key = px + " " + text, width = measured.get(key);
    if (width !== undefined) return width;
    if (measureContext === null) {
      var canvas = document.createElement("canvas");
      measureContext = (canvas.getContext && canvas.getContext("2d")) || false;
    }
    if (!measureContext) width = text.length * px * 0.65;
    else {
      measureContext.font = px + "px " + FONT;
      width = measureContext.measureText(text).width * 1.03 + 1; // canvas and SVG round apart
    }
    measured.set(key, width);
    return width;
  }

  /** A name cut into pieces at its break opportunities: after a space or - _ / . , + ) : ;
   * and before an opening parenthesis. */
  function breakPieces(text) {
    var pieces = [], start = 0;
    for (var i = 1; i < text.length; i++) {
      if (/[\s\-_\/.,+):;]/.test(text.charAt(i - 1)) || text.charAt(i) === "(") {
        pieces.push(text.slice(start, i));
        start = i;
      }
    }
    pieces.push(text.slice(start));
    return pieces;
  }

  function trimEnd(s) {
    return s.replace(/\s+$/, "");
  }

  /** The lines of `text` at `px`, each at most maxW px wide: broken between pieces, a piece
   * wider than a line split between characters. Only spaces at line ends are dropped. */
  function wrapText(text, px, maxW) {
    if (textWidth(text, px) <= maxW) return [text];
    var lines = [], line = "";
    breakPieces(text).forEach(function (piece) {
      if (line && textWidth(trimEnd(line + piece), px) <= maxW) {
        line += piece;
        return;
      }
      if (trimEnd(line)) lines.push(trimEnd(line));
      line = piece.replace(/^\s+/, "");
      while (line.length > 1 && textWidth(trimEnd(line), px) > maxW) {
        var cut = line.length - 1;
        while (cut > 1 && textWidth(line.slice(0, cut), px) > maxW) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    });
    if (trimEnd(line)) lines.push(trimEnd(line));
    return lines;
  }

  /** Names in columns that share `total` px (`columns`: lists of name indices): the largest
   * size from `px` down to the floor at which every name fits on one line, else the floor
   * with the long names wrapped, a column that needs less than an equal share lending the
   * rest to the others. Returns the size, the lines of each name and each column's width. */
  function fitNames(names, columns, px, total) {
    var widest = function (column, size, lines) {
      var w = 0;
      column.forEach(function (j) {
        lines[j].forEach(function (l) {
          w = Math.max(w, textWidth(l, size));
        });
      });
      return w;
    };
    var sum = function (xs) {
      return xs.reduce(function (a, b) {
        return a + b;
      }, 0);
    };
    var lines = names.map(function (n) {
      return [n];
    });
    for (var size = px; size >= NAME_FLOOR_PX; size--) {
      var widths = columns.map(function (c) {
        return widest(c, size, lines);
      });
      if (sum(widths) <= total) return { px: size, lines: lines, widths: widths };
    }
    var needs = columns.map(function (c) {
      return widest(c, NAME_FLOOR_PX, lines);
    });
    var limits = needs.slice(), left = total, open = columns.length;
    sortedOrder(needs).forEach(function (c) {  // the narrowest column first
      limits[c] = Math.max(Math.min(needs[c], left / open), 2 * NAME_FLOOR_PX);
      left -= limits[c];
      open--;
    });
    columns.forEach(function (column, c) {
      column.forEach(function (j) {
        lines[j] = wrapText(names[j], NAME_FLOOR_PX, limits[c]);
      });
    });
    return {
      px: NAME_FLOOR_PX,
      lines: lines,
      widths: columns.map(function (c) {
        return widest(c, NAME_FLOOR_PX, lines);
      }),
    };
  }

  /** Name lines as tspans of `text`: the first continues the current line unless `fresh`,
   * the others start at x one line lower. */
  function appendNameLines(text, lines, x, lineHeight, fresh) {
    lines.forEach(function (line, i) {
      var attrs = { class: "cdplot-name-line" };
      if (i > 0 || fresh) {
        attrs.x = x;
        attrs.dy = lineHeight;
      }
      text.appendChild(svgEl("tspan", attrs, line));
    });
  }

  Page.prototype.draw = function () {
    if (!this.res) return;
    // read once and on a resize: reading it after the table changed would lay out the page
    if (this.figureWidth === undefined) this.figureWidth = this.figure.clientWidth;
    var width = Math.max(280, Math.min(this.figureWidth || 640, 960));
    var drawn = this.res.order.length <= CD_MAX_K ? this.cdDiagram(width) : null;
    if (!drawn) drawn = this.rankPlot(width);
    var caption = document.createElement("p");
    caption.className = "cdplot-figure-note";
    caption.textContent = drawn.caption;
    this.figure.textContent = "";
    this.figure.appendChild(drawn.svg);
    this.figure.appendChild(caption);
  };

  /** The diagram is drawn up to this many algorithms, the rank plot beyond. */
  var CD_MAX_K = 20;
  /** The diagram's rank axis is at least this wide (px, or a quarter of the figure). */
  var CD_MIN_AXIS = 100;

  /** Hovering or focusing an element with data-algorithm inside `el` shows that algorithm
   * (one listener per container: rows and figures are redrawn at every click). */
  function hoverShows(el, self) {
    ["mouseover", "focusin"].forEach(function (ev) {
      el.addEventListener(ev, function (event) {
        var target = event.target.closest && event.target.closest("[data-algorithm]");
        if (!target || !el.contains(target)) return;
        var j = self.index.get(target.getAttribute("data-algorithm"));
        if (j === undefined || (j === self.focus && self.shown === self.res)) return;
        self.show(j);
      });
    });
  }

  /** The critical difference diagram: rank axis, names on both sides, group bars; null
   * when a name would need more than two lines (the rank plot gives names more room). */
  Page.prototype.cdDiagram = function (width) {
    var cfg = this.cfg, res = this.res, k = res.avg.length, self = this;
    var groups = (res.groups || []).filter(function (g) {
      return g.length > 1;
    });
    var rankW = textWidth(k >= 10 ? "10.00" : "0.00", RANK_PX), gap = 10 + textWidth(" ", NAME_PX);
    var half = Math.ceil(k / 2), beside = 2 * (gap + rankW + 2);
    var sides = [res.order.slice(half), res.order.slice(0, half)];  // left, right
    var fit = fitNames(cfg.labels, sides, NAME_PX, width - Math.max(CD_MIN_AXIS, width / 4) - beside);
    if (fit.lines.some(function (ls) { return ls.length > 2; })) return null; // prettier-ignore
    var lo = fit.widths[0] + gap + rankW + 2, hi = width - (fit.widths[1] + gap + rankW + 2);
    var lineH = Math.ceil(fit.px * LINE_SPACING), axisY = res.cd ? 46 : 28, barH = 8;
    var top = axisY + 16 + groups.length * barH, place = {};
    var rowH = function (j) {
      return Math.max(20, fit.lines[j].length * lineH + 8);
    };
    var yRight = top, yLeft = top;
    for (var pos = 0; pos < half; pos++) {  // the best half on the right, best on top
      place[res.order[pos]] = yRight;
      yRight += rowH(res.order[pos]);
    }
    for (pos = k - 1; pos >= half; pos--) {  // the other half on the left, worst on top
      place[res.order[pos]] = yLeft;
      yLeft += rowH(res.order[pos]);
    }
    var height = Math.max(yRight, yLeft) + 4;
    var svg = svgEl("svg", {
      xmlns: SVG_NS, width: width, height: height, viewBox: "0 0 " + width + " " + height,
      role: "img", "aria-label": "Critical difference diagram of the selected datasets",
      "font-family": FONT, "font-size": fit.px,
    });
    function xr(r) {  // rank 1 on the right, as cdplot.cd_diagram draws it
      return hi - ((r - 1) / Math.max(1, k - 1)) * (hi - lo);
    }
    svg.appendChild(svgEl("line", { x1: lo, x2: hi, y1: axisY, y2: axisY, stroke: "#000" }));
    var every = Math.ceil(k / Math.max(2, (hi - lo) / 28));
    for (var r = 1; r <= k; r++) {
      svg.appendChild(svgEl("line", { x1: xr(r), x2: xr(r), y1: axisY - 5, y2: axisY, stroke: "#000" }));
      if ((r - 1) % every === 0 || r === k)
        svg.appendChild(svgEl("text", { x: xr(r), y: axisY - 8, "text-anchor": "middle" }, String(r)));
    }
    if (res.cd) {
      var end = Math.min(lo + (res.cd / Math.max(1, k - 1)) * (hi - lo), hi);
      var cdText = "CD = " + res.cd.toFixed(3);
      svg.appendChild(svgEl("line", { x1: lo, x2: end, y1: 12, y2: 12, stroke: "#000", "stroke-width": 2 }));
      svg.appendChild(svgEl("text", {
        x: Math.min(end + 6, width - textWidth(cdText, fit.px) - 2), y: 16,
      }, cdText));
    }
    groups.forEach(function (g, i) {
      var y = axisY + 10 + i * barH;
      svg.appendChild(svgEl("line", {
        x1: xr(res.avg[g[0]]) + 3, x2: xr(res.avg[g[g.length - 1]]) - 3, y1: y, y2: y,
        stroke: "#000", "stroke-width": 4, "stroke-linecap": "round",
      }));
    });
    res.order.forEach(function (j, pos) {
      var left = pos >= half, y = place[j] + 10, lines = fit.lines[j];
      var x = xr(res.avg[j]), end = left ? lo - 6 : hi + 6;
      var g = svgEl("g", { "data-algorithm": cfg.algorithms[j], tabindex: 0 });
      g.appendChild(svgEl("polyline", {
        points: x + "," + axisY + " " + x + "," + y + " " + end + "," + y,
        fill: "none", stroke: "#444", "stroke-width": 1,
      }));
      var rankText = res.avg[j].toFixed(2), beside = textWidth(rankText + " ", RANK_PX);
      var label = svgEl("text", {
        x: left ? end - 4 : end + 4, y: y + 0.35 * fit.px, "text-anchor": left ? "end" : "start",
        class: "cdplot-name",
      });
      var rank = svgEl("tspan", { fill: "#555", "font-size": RANK_PX }, rankText);
      if (left) {
        appendNameLines(label, lines.slice(0, 1), 0, 0);
        label.appendChild(document.createTextNode(" "));
        label.appendChild(rank);
        appendNameLines(label, lines.slice(1), end - 4 - beside, lineH, true);
      } else {
        label.appendChild(rank);
        label.appendChild(document.createTextNode(" "));
        appendNameLines(label, lines, end + 4 + beside, lineH);
      }
      g.appendChild(label);
      g.appendChild(svgEl("title", {}, cfg.labels[j] + ": " + res.avg[j].toFixed(3)));
      svg.appendChild(g);
    });
    var caption =
      "Each line points to an algorithm's average rank on the datasets ticked (1 = best, on " +
      "the right)" +
      (groups.length ? "; a thick bar joins algorithms with no significant difference" : "") +
      (res.cd ? "; CD: the critical difference" : "") + ".";
    return { svg: svg, caption: caption };
  };

  /** Beyond CD_MAX_K algorithms: one row each, its position in the ranking as a point, its
   * rank interval as a bar on the same axis of positions, its average rank beside. */
  Page.prototype.rankPlot = function (width) {
    var cfg = this.cfg, res = this.res, k = res.avg.length, self = this, small = RANK_PX;
    var head = "avg. rank", rankW = Math.max(textWidth(head, small), textWidth(k + ".00", small));
    var all = res.order.slice(), fit = fitNames(cfg.labels, [all], NAME_PX - 1, width * 0.45);
    var side = fit.widths[0] + 2, lo = side + 10, hi = width - rankW - 14;
    var lineH = Math.ceil(fit.px * LINE_SPACING), axisY = 24;
    var rowH = function (j) {
      return Math.max(14, fit.lines[j].length * lineH + 3);
    };
    var y = axisY + 6, place = {};
    res.order.forEach(function (j) {
      place[j] = y;
      y += rowH(j);
    });
    var height = y + 6;
    var svg = svgEl("svg", {
      xmlns: SVG_NS, width: width, height: height, viewBox: "0 0 " + width + " " + height,
      role: "img", "aria-label": "Positions in the ranking and rank intervals of the selected datasets",
      "font-family": FONT, "font-size": fit.px,
    });
    function xr(r) {
      return lo + ((r - 1) / Math.max(1, k - 1)) * (hi - lo);
    }
    svg.appendChild(svgEl("line", { x1: lo, x2: hi, y1: axisY, y2: axisY, stroke: "#000" }));
    var step = Math.max(1, Math.ceil(k / Math.max(2, (hi - lo) / 30)));
    var ticks = [];
    for (var r = 1; r <= k; r += step) ticks.push(r);
    if (ticks[ticks.length - 1] !== k && xr(k) - xr(ticks[ticks.length - 1]) >= 24) ticks.push(k);
    ticks.forEach(function (t) {
      svg.appendChild(svgEl("text", { x: xr(t), y: axisY - 6, "text-anchor": "middle", "font-size": small }, String(t)));
    });
    svg.appendChild(svgEl("text", { x: width - 2, y: axisY - 6, "text-anchor": "end", "font-size": small, fill: "#555" }, head));
    var drawn = 0;
    res.order.forEach(function (j, pos) {
      var lines = fit.lines[j], mid = place[j] + rowH(j) / 2, iv = rankInterval(res, j);
      var g = svgEl("g", { "data-algorithm": cfg.algorithms[j] });
      var label = svgEl("text", {
        x: side, y: mid - ((lines.length - 1) * lineH) / 2 + 0.35 * fit.px, "text-anchor": "end",
        class: "cdplot-name",
      });
      appendNameLines(label, lines, side, lineH);
      g.appendChild(label);
      if (iv) {
        drawn++;
        g.appendChild(svgEl("line", { x1: xr(iv[0]), x2: xr(iv[1]), y1: mid, y2: mid, stroke: "#777", "stroke-width": 3, class: "cdplot-interval" }));
      }
      g.appendChild(svgEl("circle", { cx: xr(pos + 1), cy: mid, r: 3.5, fill: "#000", "data-position": pos + 1 }));
      g.appendChild(svgEl("text", { x: width - 2, y: mid + 0.35 * small, "text-anchor": "end", "font-size": small, fill: "#333", class: "cdplot-average-rank" }, res.avg[j].toFixed(2)));
      g.appendChild(svgEl("title", {}, cfg.labels[j] + ": position " + (pos + 1) + ", average rank " + res.avg[j].toFixed(3)));
      svg.appendChild(g);
    });
    var caption =
      "Point: the algorithm's position in the ranking of the datasets ticked (the # column " +
      "of the table; 1 = best). " +
      (drawn
        ? "Bar: its rank interval, the positions it may hold given the significant " +
          "differences (1 + the number significantly better, to " + k + " − the number " +
          "significantly worse). "
        : "No bars: the page does not recompute the pairwise tests on a subset. ") +
      "Number at the right: its average rank.";
    return { svg: svg, caption: caption };
  };

  /** A spreadsheet reads a text cell beginning with = + - @ (or a tab or carriage return)
   * as a formula: such text gets a leading apostrophe. Numbers stay numbers. */
  var FORMULA_START = /^[=+\-@\t\r]/;

  function csvCell(v) {
    var s = String(v);
    if (typeof v === "string" && FORMULA_START.test(s)) s = "'" + s;
    return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }

  /** The live table: one row per algorithm, its APV against every other. */
  Page.prototype.csv = function () {
    var cfg = this.cfg, res = this.res;
    if (!res) return "";
    var head = ["algorithm", "average_rank", "rank_low", "rank_high", "wins", "ties", "losses"];
    var lines = [head.concat(res.order.map(function (o) {
      return "apv_vs_" + cfg.algorithms[o];
    })).map(csvCell).join(",")];
    res.order.forEach(function (j) {
      var iv = rankInterval(res, j) || ["", ""];
      var row = [cfg.algorithms[j], res.avg[j], iv[0], iv[1], res.wtl.wins[j], res.wtl.ties[j], res.wtl.losses[j]];
      res.order.forEach(function (o) {
        var a = res.apvAt ? res.apvAt(j, o) : NaN;
        row.push(isNaN(a) ? "" : a);
      });
      lines.push(row.map(csvCell).join(","));
    });
    return lines.join("\n") + "\n";
  };

  function save(name, type, text) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: type }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () {
      URL.revokeObjectURL(a.href);
      a.remove();
    }, 0);
  }

  var here = document.currentScript && document.currentScript.closest(".cdplot-explorer");
  window.cdplotMath = {
    chi2Sf: chi2Sf, fSf: fSf, erfc: erfc, binomCdfHalf: binomCdfHalf, rangeSf: rangeSf,
  };
  if (here) here.cdplotPage = new Page(here);
})();
