/** A user agent in words: which browser on which system. */
export interface DeviceSummary {
  /** "Chrome", "Safari", "Firefox", … or null when unknown. */
  browser: string | null;
  /** "macOS", "Windows", "iPhone", … or null when unknown. */
  os: string | null;
  /** Whether it is a phone or tablet. */
  mobile: boolean;
  /** "Chrome on macOS", "Firefox", "Unknown device". */
  label: string;
}

// Order matters: Edge, Opera and Samsung Internet also say "Chrome", and
// Chrome also says "Safari".
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\b(?:OPR|Opera|OPT)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bVivaldi\//, "Vivaldi"],
  [/\bYaBrowser\//, "Yandex Browser"],
  [/\b(?:Firefox|FxiOS)\//, "Firefox"],
  [/\b(?:HeadlessChrome|Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/\bSafari\//, "Safari"],
  [/\bMSIE |\bTrident\//, "Internet Explorer"],
  [/^curl\//, "curl"],
  [/^(?:node|undici)\b|\bnode-fetch\b/i, "Node.js"],
  [/^Wget\//, "Wget"],
  [/^python-requests\//, "Python"],
  [/^Go-http-client\//, "Go"],
  [/^PostmanRuntime\//, "Postman"],
];

const SYSTEMS: readonly [RegExp, string, boolean][] = [
  [/\biPhone\b/, "iPhone", true],
  [/\biPad\b/, "iPad", true],
  [/\biPod\b/, "iPod", true],
  [/\bAndroid\b/, "Android", true],
  [/\bCrOS\b/, "ChromeOS", false],
  [/\bWindows Phone\b/, "Windows Phone", true],
  [/\bWindows\b/, "Windows", false],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS", false],
  [/\bUbuntu\b/, "Ubuntu", false],
  [/\bFedora\b/, "Fedora", false],
  [/\bLinux\b|\bX11\b/, "Linux", false],
];

/**
 * Summarises a User-Agent header for the sessions list ("Chrome on
 * macOS", "Safari on iPhone"). Unknown parts are left out; an empty or
 * unrecognisable string is "Unknown device".
 */
export function summarizeUserAgent(userAgent: string | null | undefined): DeviceSummary {
  const ua = (userAgent ?? "").trim();
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1] ?? null;
  const system = SYSTEMS.find(([re]) => re.test(ua));
  const os = system?.[1] ?? null;
  const mobile = system?.[2] ?? /\bMobile\b/.test(ua);
  let label: string;
  if (browser && os) label = `${browser} on ${os}`;
  else if (browser) label = browser;
  else if (os) label = `Browser on ${os}`;
  else label = "Unknown device";
  return { browser, os, mobile, label };
}
