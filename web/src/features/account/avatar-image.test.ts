import { describe, expect, it, vi } from "vitest";
import {
  AVATAR_MAX_DATA_URL,
  AVATAR_EMPTY,
  AVATAR_TOO_LARGE,
  AVATAR_WRONG_TYPE,
  avatarFileProblem,
  clampCenter,
  cropRect,
  encodeWithinLimit,
  isStorableAvatar,
  type Encoder,
} from "./avatar-image";

const MB = 1024 * 1024;

describe("avatarFileProblem", () => {
  it("accepts PNG, JPEG and WebP up to 10 MB", () => {
    expect(avatarFileProblem({ type: "image/png", size: 1000 })).toBeNull();
    expect(avatarFileProblem({ type: "image/jpeg", size: 10 * MB })).toBeNull();
    expect(avatarFileProblem({ type: "image/webp", size: 1 })).toBeNull();
  });

  it("refuses other types, empty files and files over 10 MB", () => {
    expect(avatarFileProblem({ type: "image/gif", size: 1000 })).toBe(AVATAR_WRONG_TYPE);
    expect(avatarFileProblem({ type: "image/svg+xml", size: 1000 })).toBe(AVATAR_WRONG_TYPE);
    expect(avatarFileProblem({ type: "", size: 1000 })).toBe(AVATAR_WRONG_TYPE);
    expect(avatarFileProblem({ type: "image/png", size: 0 })).toBe(AVATAR_EMPTY);
    expect(avatarFileProblem({ type: "image/png", size: 10 * MB + 1 })).toBe(AVATAR_TOO_LARGE);
  });
});

describe("cropRect", () => {
  it("takes the largest centred square at zoom 1", () => {
    expect(cropRect(600, 400, 1, { x: 0.5, y: 0.5 })).toEqual({ x: 100, y: 0, size: 400 });
    expect(cropRect(300, 900, 1, { x: 0.5, y: 0.5 })).toEqual({ x: 0, y: 300, size: 300 });
  });

  it("shrinks the square as the zoom grows, within 1–4", () => {
    expect(cropRect(400, 400, 2, { x: 0.5, y: 0.5 })).toEqual({ x: 100, y: 100, size: 200 });
    expect(cropRect(400, 400, 10, { x: 0.5, y: 0.5 }).size).toBe(100);
    expect(cropRect(400, 400, 0.2, { x: 0.5, y: 0.5 }).size).toBe(400);
  });

  it("keeps the square inside the image", () => {
    expect(cropRect(600, 400, 1, { x: 0, y: 0 })).toEqual({ x: 0, y: 0, size: 400 });
    expect(cropRect(600, 400, 1, { x: 1, y: 1 })).toEqual({ x: 200, y: 0, size: 400 });
    expect(cropRect(400, 400, 2, { x: -3, y: 7 })).toEqual({ x: 0, y: 200, size: 200 });
  });

  it("pulls a centre past the edge back in", () => {
    expect(clampCenter(600, 400, 1, { x: 0, y: 0.9 })).toEqual({ x: 200 / 600, y: 0.5 });
  });
});

describe("encodeWithinLimit", () => {
  const url = (type: string, length: number) => {
    const prefix = `data:${type};base64,`;
    return prefix + "A".repeat(length - prefix.length);
  };

  it("prefers WebP at the best quality that fits", () => {
    const encode = vi.fn<Encoder>((type, q) => url(type, q > 0.8 ? AVATAR_MAX_DATA_URL + 1 : 40_000));
    const out = encodeWithinLimit(encode);
    expect(out?.startsWith("data:image/webp;base64,")).toBe(true);
    expect(out).toHaveLength(40_000);
    expect(encode.mock.calls.map((c) => c[1])).toEqual([0.9, 0.82, 0.75]);
  });

  it("falls back to JPEG where the browser cannot encode WebP", () => {
    // Browsers without a WebP encoder return a PNG data: URL instead.
    const encode = vi.fn<Encoder>((type) => (type === "image/webp" ? url("image/png", 300_000) : url("image/jpeg", 30_000)));
    expect(encodeWithinLimit(encode)?.startsWith("data:image/jpeg;base64,")).toBe(true);
    expect(encode).toHaveBeenCalledTimes(2);
  });

  it("gives up when nothing fits", () => {
    expect(encodeWithinLimit((type) => url(type, AVATAR_MAX_DATA_URL + 10))).toBeNull();
  });

  it("honours a smaller limit", () => {
    expect(encodeWithinLimit((type) => url(type, 500), 400)).toBeNull();
    expect(encodeWithinLimit((type) => url(type, 400), 400)).toHaveLength(400);
  });
});

describe("isStorableAvatar", () => {
  it("accepts base64 PNG, JPEG and WebP data: URLs within the limit", () => {
    expect(isStorableAvatar("data:image/webp;base64,UklGRg==")).toBe(true);
    expect(isStorableAvatar("data:image/png;base64,iVBORw0KGgo=")).toBe(true);
    expect(isStorableAvatar(`data:image/jpeg;base64,${"A".repeat(AVATAR_MAX_DATA_URL)}`)).toBe(false);
  });

  it("refuses other types and encodings", () => {
    expect(isStorableAvatar("data:image/svg+xml;base64,PHN2Zz4=")).toBe(false);
    expect(isStorableAvatar("data:image/png,rawbytes")).toBe(false);
    expect(isStorableAvatar("https://example.com/a.png")).toBe(false);
  });
});
