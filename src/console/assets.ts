/**
 * The console's stylesheet and its one small script, served by the Worker from /assets/ (no CDN, CSP
 * 'self'). Plain CSS: system fonts, contrast at WCAG AA or better (text #1b1f24 on #fff: 16:1; links #0b57d0:
 * 6.6:1), a visible focus ring, one column under 720 px.
 */
export const CONSOLE_CSS = `
:root { color-scheme: light; --fg: #1b1f24; --muted: #4a5360; --line: #c9d1d9; --accent: #0b57d0; --bad: #a4161a; --ok: #1a7f37; --warn: #7a4d00; --bg-soft: #f4f6f8; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #fff; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem 1rem; }
.skip:focus { left: 0; z-index: 10; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1.5rem; padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); background: var(--bg-soft); }
.brand { font-weight: 700; text-decoration: none; color: var(--fg); }
.top nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
.top nav a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
.signout { margin-left: auto; display: flex; align-items: center; gap: .75rem; }
.who { color: var(--muted); font-size: .9rem; }
main { padding: 1.5rem; max-width: 1200px; }
main:focus { outline: none; }
h1 { margin-top: 0; font-size: 1.6rem; }
h2 { font-size: 1.2rem; margin-top: 2rem; }
table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
th, td { text-align: left; padding: .5rem .75rem; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { background: var(--bg-soft); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; }
/* Tables full of long ids (audit): the ids break anywhere rather than push the page sideways. */
table.ids td code { overflow-wrap: anywhere; }
figure { margin: 1rem 0; }
.chain-scroll { overflow-x: auto; max-width: 100%; }
figure, section { min-width: 0; }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; margin: .5rem 0; color: var(--muted); font-size: .9rem; }
/* A command to copy wraps instead of running off a phone's screen (a config file still scrolls). */
pre.command { white-space: pre-wrap; overflow-wrap: anywhere; }
.check { display: flex; align-items: center; gap: .5rem; }
.check label { margin-top: 0; }
.tabs a { display: inline-block; padding: .35rem .75rem; border: 1px solid var(--line); border-radius: 4px; text-decoration: none; }
.tabs a[aria-current="page"] { background: var(--accent); border-color: var(--accent); color: #fff; font-weight: 700; }
.chain-scroll svg { display: block; max-width: none; }
pre { background: var(--bg-soft); padding: 1rem; overflow-x: auto; border: 1px solid var(--line); }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 1rem 1.25rem; margin: 1rem 0; display: grid; gap: .35rem; max-width: 640px; }
.narrow { max-width: 420px; }
label { font-weight: 600; margin-top: .5rem; }
input, select, textarea { font: inherit; padding: .45rem .6rem; border: 1px solid #6e7781; border-radius: 4px; min-height: 2.5rem; width: 100%; }
input[type=checkbox], input[type=radio] { width: auto; min-height: 0; }
button, .button { font: inherit; display: inline-block; padding: .5rem 1rem; min-height: 2.5rem; border-radius: 4px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; justify-self: start; margin-top: .5rem; }
button.secondary { background: #fff; color: var(--accent); }
button.danger, .button.danger { background: var(--bad); border-color: var(--bad); color: #fff; }
button[aria-busy="true"] { opacity: .7; cursor: progress; }
.buttons { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .5rem; }
.search { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin: .5rem 0; }
.help { margin: 0; color: var(--muted); font-size: .9rem; }
.notice { border-left: 4px solid var(--accent); background: var(--bg-soft); padding: .5rem 1rem; margin: 1rem 0; }
.notice.error { border-color: var(--bad); }
.notice.success { border-color: var(--ok); }
.field-error { margin: 0; color: var(--bad); font-weight: 600; }
[aria-invalid="true"] { border-color: var(--bad); border-width: 2px; }
.checklist .state { font-weight: 600; }
.checklist .done .state { color: var(--ok); }
.checklist .next { font-weight: 600; }
.empty { color: var(--muted); font-style: italic; }
.status-ok { color: var(--ok); font-weight: 600; }
.status-bad { color: var(--bad); font-weight: 600; }
.status-warn { color: var(--warn); font-weight: 600; }
@media (max-width: 720px) {
  .top { padding: .75rem 1rem; }
  .signout { margin-left: 0; }
  main { padding: 1rem; }
  table, thead, tbody, tr, th, td { display: block; }
  thead { position: absolute; left: -999px; }
  tr { border-bottom: 2px solid var(--line); padding: .5rem 0; }
  td { border: 0; padding: .2rem 0; }
}
`;

/**
 * Progressive enhancement only (every page works without it): a submitted form shows that it is busy
 * (the loading state), and "Copy" buttons copy the text of the element they name.
 */
export const CONSOLE_JS = `
document.addEventListener("submit", (event) => {
  const button = event.target.querySelector("button[type=submit]");
  if (button) { button.setAttribute("aria-busy", "true"); button.dataset.label = button.textContent; button.textContent = "Working…"; }
});
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  const source = document.getElementById(button.dataset.copy);
  if (!source) return;
  await navigator.clipboard.writeText(source.textContent.trim());
  button.textContent = "Copied";
});
`;
