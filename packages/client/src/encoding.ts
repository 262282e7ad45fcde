/** Small encoding helpers shared by the transport, telemetry and PKCE (no dependencies). */

/** Base64 of a string's UTF-8 bytes; `btoa` alone throws on characters above U+00FF. */
export function base64Utf8(text: string): string {
  return base64Bytes(new TextEncoder().encode(text));
}

/** Standard base64 of raw bytes. */
export function base64Bytes(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Unpadded base64url of raw bytes (RFC 4648 §5), as PKCE challenges use. */
export function base64UrlBytes(bytes: Uint8Array): string {
  return base64Bytes(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * A random v4 UUID. `crypto.randomUUID` exists only in secure contexts, so plain-HTTP intranet
 * pages fall back to `getRandomValues`, which is available everywhere.
 */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
