import { describe, expect, it } from "vitest";
import { summarizeUserAgent } from "./user-agent";

const UA = {
  chromeMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  safariMac:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15",
  safariIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
  chromeIphone:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  firefoxWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
  edgeWindows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70",
  chromeAndroid:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.81 Mobile Safari/537.36",
  samsungAndroid:
    "Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
  operaLinux:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
  headlessLinux:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.6778.33 Safari/537.36",
  chromeOS:
    "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  firefoxIpad:
    "Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15",
};

describe("summarizeUserAgent", () => {
  it.each([
    [UA.chromeMac, "Chrome on macOS", false],
    [UA.safariMac, "Safari on macOS", false],
    [UA.safariIphone, "Safari on iPhone", true],
    [UA.chromeIphone, "Chrome on iPhone", true],
    [UA.firefoxWindows, "Firefox on Windows", false],
    [UA.edgeWindows, "Edge on Windows", false],
    [UA.chromeAndroid, "Chrome on Android", true],
    [UA.samsungAndroid, "Samsung Internet on Android", true],
    [UA.operaLinux, "Opera on Linux", false],
    [UA.headlessLinux, "Chrome on Linux", false],
    [UA.chromeOS, "Chrome on ChromeOS", false],
    [UA.firefoxIpad, "Firefox on iPad", true],
  ])("%s → %s", (ua, label, mobile) => {
    const summary = summarizeUserAgent(ua);
    expect(summary.label).toBe(label);
    expect(summary.mobile).toBe(mobile);
  });

  it("names command-line and server clients", () => {
    expect(summarizeUserAgent("curl/8.5.0").label).toBe("curl");
    expect(summarizeUserAgent("node").label).toBe("Node.js");
    expect(summarizeUserAgent("Go-http-client/1.1").label).toBe("Go");
  });

  it("says what it knows when only part is recognisable", () => {
    expect(summarizeUserAgent("Mozilla/5.0 (Windows NT 10.0; Win64; x64) SomethingNew/1.0").label).toBe("Browser on Windows");
  });

  it("calls an empty or unknown agent an unknown device", () => {
    expect(summarizeUserAgent("").label).toBe("Unknown device");
    expect(summarizeUserAgent(null).label).toBe("Unknown device");
    expect(summarizeUserAgent("   ").label).toBe("Unknown device");
    expect(summarizeUserAgent("Frobnicator").browser).toBeNull();
  });
});
