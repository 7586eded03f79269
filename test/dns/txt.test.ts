import { describe, expect, it } from "vitest";
import { quoteCharacterString, renderTxtData, splitCharacterStrings } from "../../src/core/dns/txt";

const bytes = (text: string) => new TextEncoder().encode(text);
const lengths = (value: string) => splitCharacterStrings(value).map((chunk) => chunk.length);

describe("TXT character-strings", () => {
  it("splits 600 ASCII bytes into 255, 255 and 90", () => {
    expect(lengths("a".repeat(600))).toEqual([255, 255, 90]);
    const rendered = renderTxtData("a".repeat(600));
    expect(rendered).toBe(`"${"a".repeat(255)}" "${"a".repeat(255)}" "${"a".repeat(90)}"`);
  });

  it("keeps a value of exactly 255 bytes in one string and 256 in two", () => {
    expect(lengths("b".repeat(255))).toEqual([255]);
    expect(lengths("b".repeat(256))).toEqual([255, 1]);
  });

  it("never cuts a multi-byte character in two", () => {
    // 254 ASCII bytes then "é" (2 bytes): byte 255 would be the middle of "é".
    const value = `${"a".repeat(254)}é${"z".repeat(10)}`;
    const chunks = splitCharacterStrings(value);
    expect(chunks.map((chunk) => chunk.length)).toEqual([254, 12]);
    expect(chunks.map((chunk) => new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(chunk)).join("")).toBe(value);
    expect(lengths("€".repeat(200)).every((length) => length <= 255 && length % 3 === 0)).toBe(true);
  });

  it("escapes quotes and backslashes", () => {
    expect(renderTxtData('say "hi" \\ bye')).toBe('"say \\"hi\\" \\\\ bye"');
    expect(quoteCharacterString(bytes('"'))).toBe('"\\""');
    expect(quoteCharacterString(bytes("\\"))).toBe('"\\\\"');
  });

  it("writes bytes outside printable ASCII as \\DDD", () => {
    expect(renderTxtData("tab\there\nnew")).toBe('"tab\\009here\\010new"');
    expect(renderTxtData("café")).toBe('"caf\\195\\169"');
    expect(renderTxtData("\u007f")).toBe('"\\127"');
  });

  it("leaves zone-file syntax characters alone inside quotes", () => {
    expect(renderTxtData("v=spf1 ip4:10.0.0.0/8 ; ( ) $ @ -all")).toBe('"v=spf1 ip4:10.0.0.0/8 ; ( ) $ @ -all"');
  });

  it("counts escapes against nothing: the 255-byte limit is on the data, not the text", () => {
    const rendered = renderTxtData('"'.repeat(300));
    expect(rendered).toBe(`"${'\\"'.repeat(255)}" "${'\\"'.repeat(45)}"`);
  });
});
