// Reading secrets from standard input: all of it (--password-stdin), or one line typed on a terminal
// with echo off, so passwords stay out of argv (`ps`) and out of shell history.
import { OperationError } from "./errors.mjs";

/** @param {NodeJS.ReadableStream} stdin */
export async function readAllStdin(stdin) {
  let text = "";
  for await (const chunk of stdin) text += chunk;
  return text;
}

/** @param {NodeJS.ReadStream} stdin @param {NodeJS.WritableStream} stderr */
export function readHiddenLine(stdin, stderr, prompt) {
  return new Promise((resolve, reject) => {
    let line = "";
    stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    stdin.resume();
    const finish = (error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off("data", onData);
      stderr.write("\n");
      if (error) reject(error);
      else resolve(line);
    };
    const onData = (chunk) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") return finish();
        if (char === "\u0003") return finish(new OperationError("interrupted")); // Ctrl-C in raw mode
        if (char === "\u007f" || char === "\b") line = line.slice(0, -1);
        else line += char;
      }
    };
    stdin.on("data", onData);
  });
}
