// Helpers of the two-step verification card.

/** The name of a new authenticator when the member has none of that name. */
export const DEFAULT_FACTOR_NAME = "Authenticator app";
/** A TOTP code as the apps show it. */
export const CODE_PATTERN = /^\d{6}$/;
export const ENTER_CODE = "Enter the 6-digit code from your authenticator app";

/** A name for a new factor that no existing one uses ("Authenticator app", "Authenticator app 2", …). */
export function freeName(taken: readonly string[]): string {
  if (!taken.includes(DEFAULT_FACTOR_NAME)) return DEFAULT_FACTOR_NAME;
  for (let i = 2; ; i++) {
    const name = `${DEFAULT_FACTOR_NAME} ${i}`;
    if (!taken.includes(name)) return name;
  }
}

/** "JBSW Y3DP EHPK 3PXP": the secret in groups of four, easier to type. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, "$1 ");
}

/**
 * The QR code as an image URL. The server sends SVG markup, which
 * supabase-js prefixes with "data:image/svg+xml;utf-8," but does not
 * escape: a "#" in the markup would end the URL. So the markup is taken out
 * and percent-encoded.
 */
export function qrSource(qr: string): string {
  const start = qr.indexOf("<svg");
  if (start < 0) return qr;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qr.slice(start))}`;
}
