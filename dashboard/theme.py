"""The page around the figures: Dash's index page with the house stylesheet inlined (so it works
from any install, no asset files to ship). Narrow screens get one column; nothing is ever wider
than the screen (a phone at 390 px included): figures follow their card's width, grids scroll
sideways inside their card, and a figure's mode bar sits in a strip of its own above the
figure, so that it never covers the title."""

from .accessible import SCRIPT

INDEX = (
    """<!DOCTYPE html>
<html lang="en">
<head>
{%metas%}
<title>{%title%}</title>
{%favicon%}
{%css%}
<style>
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       color: #333; background: #f4f5f7; }
.top { display: flex; align-items: center; gap: 24px; padding: 10px 20px; background: #23324a;
       flex-wrap: wrap; }
.top .brand { color: #fff; font-weight: 700; font-size: 20px; text-decoration: none; }
.top nav { display: flex; gap: 6px; flex-wrap: wrap; }
.nav-link { color: #cfd8e6; text-decoration: none; padding: 6px 12px; border-radius: 6px; }
.nav-link:hover { background: #34476a; color: #fff; }
.content { max-width: 1280px; margin: 0 auto; padding: 12px 16px 40px; }
h2 { margin: 8px 0 4px; font-size: 24px; }
.lead { color: #666; margin: 0 0 12px; }
.card { background: #fff; border-radius: 8px; box-shadow: 0 1px 3px rgba(0,0,0,.08);
        padding: 8px; margin-bottom: 14px; min-width: 0; }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 14px; margin-bottom: 14px; }
.grid2 > .card { margin-bottom: 0; }
.controls { display: flex; gap: 14px; flex-wrap: wrap; align-items: flex-end;
            margin-bottom: 12px; }
.control { min-width: 180px; flex: 0 1 260px; }
.control.wide { flex: 1 1 420px; }
.control label { display: block; font-size: 12px; color: #666; margin-bottom: 3px;
                 text-transform: uppercase; letter-spacing: .04em; }
.control .choices label { display: inline-flex; align-items: center; gap: 5px; font-size: 14px;
                          color: inherit; text-transform: none; letter-spacing: normal;
                          margin-right: 14px; }
.tune-table th, .tune-table td { padding: 2px 12px 2px 0; text-align: left; }
.stats { display: flex; gap: 12px; flex-wrap: wrap; margin-bottom: 14px; }
.stat { background: #fff; border-radius: 8px; padding: 10px 16px; min-width: 110px;
        box-shadow: 0 1px 3px rgba(0,0,0,.08); border-top: 4px solid #23324a; }
.stat .value { font-size: 24px; font-weight: 700; }
.stat .what { font-size: 12px; color: #666; }
.note { color: #595959; font-size: 13px; }  /* 6:1 on the page's grey */
.warning { color: #a14d00; font-size: 14px; }
.step-caption { font-size: 15px; margin: 6px 4px 10px; min-height: 1.4em; }
.stepper { display: flex; gap: 8px; align-items: center; }
.stepper .slider { flex: 1; min-width: 0; }
.stepper button { border: 1px solid #bbb; background: #fff; border-radius: 6px;
                  padding: 4px 12px; font-size: 16px; cursor: pointer; }
/* A form's buttons: large enough to tap (44 px), the main one filled. */
.actions { display: flex; gap: 10px; flex-wrap: wrap; margin: 4px 0 8px; }
.action { min-height: 44px; min-width: 96px; padding: 10px 22px; font-size: 16px;
          border-radius: 8px; border: 1px solid #23324a; background: #fff; color: #23324a;
          cursor: pointer; }
.action.primary { background: #23324a; color: #fff; font-weight: 600; }
.action:disabled { border-color: #bbb; color: #767676; cursor: default; }
.agrees { color: #2e7d32; font-weight: 600; }
/* Nothing wider than its column: a long word or a long id wraps instead of widening the page. */
.content, .card { max-width: 100%; box-sizing: border-box; overflow-wrap: anywhere; }
.content img, .content svg { max-width: 100%; }
/* Every figure keeps a strip above it for the mode bar (plotly puts it over the top right of
   the figure, where a title on a narrow screen reaches): the bar moves up into that strip. */
.card.figure { padding-top: 36px; }
.card.figure .modebar-container { top: -30px !important; }
/* Grid cells wrap their text rather than cut it; a grid wider than its card scrolls inside it. */
.ag-theme-alpine { max-width: 100%; }
.ag-theme-alpine .ag-cell-wrap-text { line-height: 1.4; padding-top: 9px; padding-bottom: 9px;
                                      word-break: normal; overflow-wrap: anywhere; }
/* A header wraps between its words, never inside one ("Claimed", not "Cla/imed"). */
.ag-theme-alpine .ag-header-cell-text { overflow-wrap: normal; word-break: keep-all;
                                        hyphens: none; }
.differs { color: #c62828; font-weight: 600; }
/* The Record page's board: as wide as its column, as high as its box says; nothing of the
   figure (its drag layer included) reaches over the buttons below or past the screen. */
.board { width: 100%; max-width: 100%; overflow: hidden; }
@media (max-width: 900px) { .grid2 { grid-template-columns: 1fr; } }
@media (max-width: 520px) { .content { padding: 8px; } .control { flex: 1 1 100%; min-width: 0; }
                            .top { gap: 8px; padding: 8px 10px; } .nav-link { padding: 6px 8px; }
                            .ag-theme-alpine { --ag-cell-horizontal-padding: 8px; } }
</style>
</head>
<body>
{%app_entry%}
<footer>{%config%}{%scripts%}{%renderer%}"""
    + SCRIPT
    + """</footer>
</body>
</html>"""
)
