/** Text as hono/jsx writes it into a page (so a test can look for an API message in the HTML). */
export const inHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** The message of an API error envelope. */
export const messageOf = (result: { error?: unknown }) => (result.error as { error: { message: string } }).error.message;
