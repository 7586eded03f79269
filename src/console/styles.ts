/**
 * The console's one stylesheet (served at /assets/console.css): one visual system of tokens (CSS custom
 * properties) for colour, spacing, type and radius, with a dark palette that follows the system
 * (prefers-color-scheme). System fonts: nothing is fetched. Every text colour keeps WCAG AA on its background in
 * both palettes (light: text #18202a on #fff 16:1, muted #4b5563 7.6:1, links #1d4ed8 6.7:1; dark: text #e6edf3
 * on #0f141a 15:1, muted #a3b0bd 8:1, links #8fb4ff 8.3:1). The chain and map pictures are inline SVG with
 * presentation attributes; the rules at the end repaint their palette from the tokens, so they follow dark mode.
 */
export const CONSOLE_CSS = `
:root {
  color-scheme: light dark;
  --bg: #f6f8fa; --surface: #ffffff; --surface-2: #f0f3f6; --fg: #18202a; --muted: #4b5563; --line: #d5dbe1; --line-strong: #8c959f;
  --accent: #1d4ed8; --accent-fg: #ffffff; --accent-soft: #e8efff;
  --ok: #15803d; --ok-soft: #e7f6ec; --warn: #92400e; --warn-soft: #fdf3e1; --bad: #b91c1c; --bad-soft: #fdecec; --relay: #bc4c00;
  --match: #fff3bf; --match-line: #9a6700;
  --s1: 4px; --s2: 8px; --s3: 12px; --s4: 16px; --s5: 24px; --s6: 32px;
  --t-sm: .875rem; --t-base: 1rem; --t-lg: 1.125rem; --t-xl: 1.375rem; --t-2xl: 1.75rem;
  --radius: 8px; --radius-sm: 6px; --shadow: 0 1px 2px rgb(16 24 40 / 6%), 0 1px 3px rgb(16 24 40 / 10%);
  --font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", sans-serif;
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f141a; --surface: #161c24; --surface-2: #1d2530; --fg: #e6edf3; --muted: #a3b0bd; --line: #2f3a47; --line-strong: #6b7785;
    --accent: #8fb4ff; --accent-fg: #0b1220; --accent-soft: #1c2a44;
    --ok: #5fd08a; --ok-soft: #13291c; --warn: #f2b84b; --warn-soft: #2e2410; --bad: #ff8a80; --bad-soft: #331616; --relay: #ff9d57;
    --match: #3a3110; --match-line: #e3b341;
    --shadow: none;
  }
}
* { box-sizing: border-box; }
body { margin: 0; font: var(--t-base)/1.5 var(--font); color: var(--fg); background: var(--bg); }
a { color: var(--accent); text-underline-offset: 2px; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--surface); padding: var(--s2) var(--s4); }
.skip:focus { left: 0; z-index: 10; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.icon { width: 1.15em; height: 1.15em; flex: none; vertical-align: -.2em; }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: var(--s2) var(--s4); padding: var(--s3) var(--s5); border-bottom: 1px solid var(--line); background: var(--surface); }
.brand { display: inline-flex; align-items: center; gap: var(--s2); font-weight: 700; text-decoration: none; color: var(--fg); }
.brand .icon { width: 1.6em; height: 1.6em; color: var(--accent); }
.top nav ul { display: flex; flex-wrap: wrap; gap: var(--s1); list-style: none; margin: 0; padding: 0; }
.top nav a { display: inline-flex; align-items: center; gap: var(--s1); padding: var(--s2); border-radius: var(--radius-sm); color: var(--muted); text-decoration: none; font-weight: 500; }
.top nav a:hover { background: var(--surface-2); color: var(--fg); }
.top nav a[aria-current="page"] { background: var(--accent-soft); color: var(--accent); font-weight: 700; }
.signout { margin-left: auto; display: flex; align-items: center; gap: var(--s3); }
/* Who is signed in stays in sight on a laptop's screen (16ch keeps the header one line at 1280 px); a longer address is cut, in full on hover (title). */
.who { color: var(--muted); font-size: var(--t-sm); max-width: 16ch; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
@media (max-width: 720px) { .who { display: none; } }
main { padding: var(--s5); max-width: 1240px; margin: 0 auto; }
main:focus { outline: none; }
h1 { margin: 0 0 var(--s4); font-size: var(--t-2xl); line-height: 1.25; letter-spacing: -.01em; }
h2 { font-size: var(--t-xl); margin: var(--s6) 0 var(--s3); line-height: 1.3; }
h3 { font-size: var(--t-lg); margin: var(--s5) 0 var(--s2); }
p { margin: var(--s2) 0; }
table { border-collapse: separate; border-spacing: 0; width: 100%; margin: var(--s4) 0; background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: var(--shadow); overflow: hidden; }
th, td { text-align: left; padding: var(--s3) var(--s4); border-bottom: 1px solid var(--line); vertical-align: top; }
tbody tr:last-child > * { border-bottom: 0; }
tbody tr:hover { background: var(--surface-2); }
thead th { background: var(--surface-2); color: var(--muted); font-size: var(--t-sm); font-weight: 600; text-transform: uppercase; letter-spacing: .03em; }
tbody th { font-weight: 600; }
caption:not(.visually-hidden) { caption-side: top; text-align: left; padding: var(--s3) var(--s4); font-weight: 600; border-bottom: 1px solid var(--line); }
code { font-family: var(--mono); font-size: .9em; }
/* Tables full of long ids (audit): the ids break anywhere rather than push the page sideways. */
table.ids td code { overflow-wrap: anywhere; }
figure { margin: var(--s4) 0; }
.chain-scroll { overflow-x: auto; max-width: 100%; background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: var(--s3); }
figure, section { min-width: 0; }
.legend { display: flex; flex-wrap: wrap; gap: var(--s1) var(--s4); margin: var(--s2) 0; color: var(--muted); font-size: var(--t-sm); }
/* A command to copy wraps instead of running off a phone's screen (a config file still scrolls). */
pre.command { white-space: pre-wrap; overflow-wrap: anywhere; }
.command-box { display: flex; align-items: flex-start; gap: var(--s2); }
.command-box pre { flex: 1; margin: 0; }
.command-box .copy { margin-top: 0; }
.check { display: flex; align-items: center; gap: var(--s2); }
.check label { margin-top: 0; }
.tabs a { display: inline-block; padding: var(--s2) var(--s3); border: 1px solid var(--line); border-radius: var(--radius-sm); text-decoration: none; background: var(--surface); }
.tabs a[aria-current="page"] { background: var(--accent); border-color: var(--accent); color: var(--accent-fg); font-weight: 700; }
.frame-actions { margin: 0 0 var(--s4); }
.frame-actions a[aria-current="page"] { outline: 2px solid var(--accent); outline-offset: 2px; }
.chain-scroll svg { display: block; max-width: none; }
pre { background: var(--surface-2); padding: var(--s4); overflow-x: auto; border: 1px solid var(--line); border-radius: var(--radius-sm); }
.card { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); box-shadow: var(--shadow); padding: var(--s4) var(--s5); margin: var(--s4) 0; display: grid; gap: var(--s2); max-width: 680px; }
.card.wide { max-width: none; display: block; }
.card > h2:first-child { margin-top: 0; }
.steps { padding-left: 1.4em; display: grid; gap: var(--s3); }
.narrow { max-width: 420px; }
label { font-weight: 600; margin-top: var(--s2); }
input, select, textarea { font: inherit; color: var(--fg); background: var(--surface); padding: var(--s2) var(--s3); border: 1px solid var(--line-strong); border-radius: var(--radius-sm); min-height: 2.5rem; width: 100%; }
input[type=checkbox], input[type=radio] { width: auto; min-height: 0; accent-color: var(--accent); }
button, .button { font: inherit; font-weight: 600; display: inline-flex; align-items: center; gap: var(--s2); padding: var(--s2) var(--s4); min-height: 2.5rem; border-radius: var(--radius-sm); border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg); cursor: pointer; text-decoration: none; justify-self: start; margin-top: var(--s2); }
button:hover, .button:hover { filter: brightness(1.08); }
button.secondary, .button.secondary { background: var(--surface); color: var(--accent); border-color: var(--line-strong); }
button.danger, .button.danger { background: var(--bad); border-color: var(--bad); color: var(--surface); }
button[aria-busy="true"] { opacity: .7; cursor: progress; }
.buttons { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: var(--s2); }
.search { display: flex; flex-wrap: wrap; align-items: center; gap: var(--s2); margin: var(--s2) 0; }
.search input { width: auto; flex: 1 1 16rem; }
.help { margin: 0; color: var(--muted); font-size: var(--t-sm); }
.muted { color: var(--muted); }
.notice { border: 1px solid var(--line); border-left: 4px solid var(--accent); background: var(--accent-soft); border-radius: var(--radius-sm); padding: var(--s2) var(--s4); margin: var(--s4) 0; }
.notice.error { border-left-color: var(--bad); background: var(--bad-soft); }
.notice.success { border-left-color: var(--ok); background: var(--ok-soft); }
.field-error { margin: 0; color: var(--bad); font-weight: 600; }
[aria-invalid="true"] { border-color: var(--bad); border-width: 2px; }
.checklist { padding-left: 1.4em; }
.checklist .state { font-weight: 600; }
.checklist .done .state { color: var(--ok); }
.checklist .next { font-weight: 600; }
.empty { color: var(--muted); font-style: italic; padding: var(--s4); border: 1px dashed var(--line-strong); border-radius: var(--radius); }
/* State in colour and in words: a dot before the word, the word itself always there. */
.status-ok, .status-bad, .status-warn { font-weight: 600; }
.status-ok { color: var(--ok); }
.status-bad { color: var(--bad); }
.status-warn { color: var(--warn); }
span.status-ok::before, span.status-bad::before, span.status-warn::before, td.status-ok::before, td.status-bad::before, td.status-warn::before { content: ""; display: inline-block; width: .55em; height: .55em; border-radius: 50%; background: currentColor; margin-right: .4em; vertical-align: .1em; }
dl.card { grid-template-columns: max-content 1fr; column-gap: var(--s5); }
dl.card dt { color: var(--muted); }
dl.card dd { margin: 0; }
.qr { display: inline-block; background: #ffffff; padding: var(--s2); border-radius: var(--radius); border: 1px solid var(--line); }
.qr svg { display: block; width: min(80vw, 420px); height: auto; }
.qr figcaption { color: #4b5563; font-size: var(--t-sm); max-width: 420px; }
[hidden] { display: none !important; }
/* The pictures' palette (presentation attributes) from the tokens: the same drawing in light and dark. */
main svg [fill="#1b1f24"] { fill: var(--fg); }
main svg [stroke="#1b1f24"] { stroke: var(--fg); }
main svg [fill="#4a5360"] { fill: var(--muted); }
main svg [stroke="#4a5360"] { stroke: var(--muted); }
main svg [stroke="#6e7781"] { stroke: var(--line-strong); }
main svg [fill="#f4f6f8"] { fill: var(--surface-2); }
main svg [fill="#fff"] { fill: var(--surface); }
main svg [fill="#1a7f37"] { fill: var(--ok); }
main svg [stroke="#1a7f37"] { stroke: var(--ok); }
main svg [fill="#a4161a"] { fill: var(--bad); }
main svg [stroke="#a4161a"] { stroke: var(--bad); }
main svg [fill="#fff3bf"] { fill: var(--match); }
main svg [stroke="#9a6700"], main svg [fill="#9a6700"] { stroke: var(--match-line); }
main svg [stroke="#bc4c00"] { stroke: var(--relay); }
main .qr svg [fill="#ffffff"] { fill: #ffffff; }
main .qr svg [fill="#000000"] { fill: #000000; }
@media (max-width: 720px) {
  .top { padding: var(--s3) var(--s4); }
  .signout { margin-left: 0; }
  main { padding: var(--s4); }
  table, thead, tbody, tr, th, td { display: block; }
  table { border-radius: var(--radius); }
  thead { position: absolute; left: -999px; }
  tr { border-bottom: 1px solid var(--line); padding: var(--s2) var(--s3); }
  td, th { border: 0; padding: var(--s1) 0; }
  .command-box { flex-direction: column; }
}
`;
