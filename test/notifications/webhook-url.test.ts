import { describe, expect, it } from "vitest";
import { checkWebhookUrl } from "../../src/services/notifications/webhook-url";

describe("checkWebhookUrl (the SSRF rules)", () => {
  it("accepts https on public hosts and addresses", () => {
    for (const url of ["https://hooks.example.com/a?b=c", "https://198.41.0.4:8443/x", "https://[2606:4700::1111]/x"]) {
      expect(checkWebhookUrl(url, false).ok, url).toBe(true);
    }
  });

  it("refuses loopback unless WEBHOOK_ALLOW_HTTP_LOOPBACK; then http is allowed for loopback only", () => {
    for (const url of [
      "http://127.0.0.1:9000/x",
      "https://127.0.0.1/x",
      "http://localhost/x",
      "https://[::1]/x",
      "http://2130706433/x",
      "https://api.localhost/x",
    ]) {
      expect(checkWebhookUrl(url, false).ok, url).toBe(false);
    }
    for (const url of ["http://127.0.0.1:9000/x", "http://localhost:8080/x", "http://[::1]/x", "https://127.0.0.1/x"]) {
      expect(checkWebhookUrl(url, true).ok, url).toBe(true);
    }
    expect(checkWebhookUrl("http://hooks.example.com/x", true).ok).toBe(false);
    expect(checkWebhookUrl("http://10.0.0.1/x", true).ok).toBe(false);
  });

  it("refuses private, link-local, unique-local, CGNAT, multicast, NAT64 and IPv4-mapped forms", () => {
    const refused = [
      "https://10.0.0.1/",
      "https://172.31.255.255/",
      "https://192.168.0.1/",
      "https://169.254.169.254/",
      "https://100.64.0.1/",
      "https://224.0.0.1/",
      "https://255.255.255.255/",
      "https://[fc00::1]/",
      "https://[fe80::1%25eth0]/",
      "https://[::ffff:192.168.0.1]/",
      "https://[64:ff9b::a00:1]/",
      "https://[::]/",
      "https://[::a9fe:a9fe]/",
      "https://0x0a.0.0.1/",
    ];
    for (const url of refused) {
      const verdict = checkWebhookUrl(url, true);
      expect(verdict.ok, url).toBe(false);
    }
  });
});
