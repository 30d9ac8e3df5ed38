import { describe, expect, it } from "vitest";
import { freeName, groupSecret, qrSource } from "./mfa-helpers";

describe("qrSource", () => {
  it("percent-encodes the SVG that supabase-js puts unescaped in a data: URL", () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><rect fill="#000" width="1" height="1"/></svg>';
    const url = qrSource(`data:image/svg+xml;utf-8,${svg}`);
    expect(url.startsWith("data:image/svg+xml;charset=utf-8,%3Csvg")).toBe(true);
    expect(url).not.toContain("#");
    expect(decodeURIComponent(url.slice(url.indexOf(",") + 1))).toBe(svg);
  });

  it("takes raw SVG too, and leaves other URLs alone", () => {
    expect(qrSource("<svg></svg>")).toBe("data:image/svg+xml;charset=utf-8,%3Csvg%3E%3C%2Fsvg%3E");
    expect(qrSource("data:image/png;base64,AAAA")).toBe("data:image/png;base64,AAAA");
  });
});

describe("groupSecret", () => {
  it("groups the key in fours", () => {
    expect(groupSecret("JBSWY3DPEHPK3PXPQ")).toBe("JBSW Y3DP EHPK 3PXP Q");
    expect(groupSecret("ABCD")).toBe("ABCD");
  });
});

describe("freeName", () => {
  it("picks a name no factor has", () => {
    expect(freeName([])).toBe("Authenticator app");
    expect(freeName(["Authenticator app"])).toBe("Authenticator app 2");
    expect(freeName(["Authenticator app", "Authenticator app 2"])).toBe("Authenticator app 3");
  });
});
