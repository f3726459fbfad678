"""
An HTML report to send to a co-author
=====================================

``cdplot.report.to_html`` writes one self-contained page: the settings (test,
correction, alpha, whether higher or lower scores are better), the omnibus
test, any caveats, the CD diagram and the heatmap inline as SVG, the average
ranks with the adjusted p-values, the significant pairs in words ("C4.5 better
than Kernel (adjusted p < 0.001)"), the groups and the cdplot version. In a
notebook a result shows the same content. Data: García & Herrera's (2008)
synthetic error rates (lower is better).
"""

# %%
import os
from pathlib import Path

import cdplot
from cdplot.report import to_html

out = Path(os.environ.get("CDPLOT_GALLERY_OUT", "."))
out.mkdir(parents=True, exist_ok=True)
res = cdplot.compare(
    cdplot.datasets.load("garcia2008_synthetic"),
    higher_is_better=False,
    test="wilcoxon",
    correction="holm",
)

# %%
page = to_html(res, heatmap=True, scores=True, title="Five classifiers, Wilcoxon-Holm")
(out / "report.html").write_text(page, encoding="utf-8")
print(f"wrote {out / 'report.html'} ({len(page) // 1024} KiB, no other files needed)")
