// Vite's `?raw` suffix: a file's text as a string module (the docs test compares the served bundle with it).
declare module "*?raw" {
  const text: string;
  export default text;
}
