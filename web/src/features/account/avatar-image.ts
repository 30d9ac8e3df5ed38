/**
 * Avatar pictures are made in the browser: the chosen image is cropped to
 * a square, scaled to 256×256 on a canvas and stored in profiles_v2 as a
 * data: URL, which the server accepts up to 150 000 characters of PNG,
 * JPEG or WebP.
 */

/** The side of a stored avatar, in pixels. */
export const AVATAR_SIZE = 256;

/** The server's limit on an avatar data: URL, in characters (service/tables.go MaxAvatarDataURL). */
export const AVATAR_MAX_DATA_URL = 150_000;

/** The largest file accepted for cropping (it is shrunk before saving). */
export const AVATAR_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** The image types accepted, as the server accepts them. */
export const AVATAR_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;

/** The most a picture can be zoomed in the cropper. */
export const AVATAR_MAX_ZOOM = 4;

export const AVATAR_WRONG_TYPE = "Choose a PNG, JPEG or WebP image.";
export const AVATAR_TOO_LARGE = "Choose an image of 10 MB or less.";
export const AVATAR_EMPTY = "This file is empty. Choose another image.";
export const AVATAR_UNREADABLE = "This file could not be read as an image. Choose another PNG, JPEG or WebP file.";
export const AVATAR_CANNOT_SHRINK = "This image could not be made small enough to save. Try another one.";

/** Why a chosen file cannot be used as an avatar, or null when it can. */
export function avatarFileProblem(file: Pick<File, "type" | "size">): string | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type.toLowerCase())) return AVATAR_WRONG_TYPE;
  if (file.size === 0) return AVATAR_EMPTY;
  if (file.size > AVATAR_MAX_FILE_BYTES) return AVATAR_TOO_LARGE;
  return null;
}

/** A square region of the source image, in its pixels. */
export interface CropRect {
  x: number;
  y: number;
  size: number;
}

/** Where the crop is centred, as fractions (0–1) of the image's width and height. */
export interface CropCenter {
  x: number;
  y: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), Math.max(lo, hi));

/**
 * The square of an image of `width`×`height` that the avatar shows at
 * `zoom` (1 = the largest square that fits), centred as near `center` as
 * the image's edges allow.
 */
export function cropRect(width: number, height: number, zoom: number, center: CropCenter): CropRect {
  const size = Math.min(width, height) / clamp(zoom, 1, AVATAR_MAX_ZOOM);
  const x = clamp(center.x * width - size / 2, 0, width - size);
  const y = clamp(center.y * height - size / 2, 0, height - size);
  return { x, y, size };
}

/**
 * The centre actually shown for `center` (pulled in so the square stays
 * inside the image), so dragging past an edge does not build up slack.
 */
export function clampCenter(width: number, height: number, zoom: number, center: CropCenter): CropCenter {
  const r = cropRect(width, height, zoom, center);
  return { x: (r.x + r.size / 2) / width, y: (r.y + r.size / 2) / height };
}

/** Encodes the canvas as `type` at `quality` (canvas.toDataURL). */
export type Encoder = (type: "image/webp" | "image/jpeg", quality: number) => string;

const QUALITIES = [0.9, 0.82, 0.75, 0.65, 0.55, 0.45, 0.35];

/**
 * The best data: URL within the server's limit: WebP where the browser can
 * encode it (toDataURL falls back to PNG where it cannot, which is then
 * not used), otherwise JPEG, stepping the quality down until it fits.
 * Null when nothing fits.
 */
export function encodeWithinLimit(encode: Encoder, limit = AVATAR_MAX_DATA_URL): string | null {
  for (const type of ["image/webp", "image/jpeg"] as const) {
    for (const quality of QUALITIES) {
      const url = encode(type, quality);
      if (!url.startsWith(`data:${type};base64,`)) break;
      if (url.length <= limit) return url;
    }
  }
  return null;
}

/** Whether a value is an avatar data: URL the server would take (type, encoding and length). */
export function isStorableAvatar(url: string): boolean {
  return /^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+=*$/.test(url) && url.length <= AVATAR_MAX_DATA_URL;
}

/** Loads a file into an image element (rejects when it is not a readable image). */
export function loadImage(file: Blob): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(file);
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => {
      URL.revokeObjectURL(url);
      if (img.naturalWidth === 0 || img.naturalHeight === 0) reject(new Error(AVATAR_UNREADABLE));
      else resolve(img);
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error(AVATAR_UNREADABLE));
    };
    img.src = url;
  });
}

/**
 * Draws the cropped square of `img` on `canvas` at `side`×`side`. A white
 * background goes under it so a transparent PNG stays readable as JPEG.
 */
export function drawCrop(canvas: HTMLCanvasElement, img: CanvasImageSource, rect: CropRect, side = AVATAR_SIZE, background: string | null = null): void {
  canvas.width = side;
  canvas.height = side;
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.clearRect(0, 0, side, side);
  if (background) {
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, side, side);
  }
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(img, rect.x, rect.y, rect.size, rect.size, 0, 0, side, side);
}

/**
 * The avatar of `img` cropped to `rect`: 256×256, as a data: URL within the
 * server's limit. Rejects with {@link AVATAR_CANNOT_SHRINK} when no
 * encoding fits.
 */
export function renderAvatar(img: CanvasImageSource, rect: CropRect): string {
  const canvas = document.createElement("canvas");
  const jpegCanvas = document.createElement("canvas");
  drawCrop(canvas, img, rect);
  let jpegReady = false;
  const url = encodeWithinLimit((type, quality) => {
    if (type === "image/webp") return canvas.toDataURL(type, quality);
    if (!jpegReady) {
      drawCrop(jpegCanvas, img, rect, AVATAR_SIZE, "#ffffff");
      jpegReady = true;
    }
    return jpegCanvas.toDataURL(type, quality);
  });
  if (!url) throw new Error(AVATAR_CANNOT_SHRINK);
  return url;
}
