export { CONSOLE_CSS } from "./styles";

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
