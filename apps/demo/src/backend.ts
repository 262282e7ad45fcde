/** The demo app's backend: verifies a browser's session token with the management API. */
import type { Member, MemberSession, Organization } from '@gatehouse/protocol';

export interface VerifiedSession {
  member: Member;
  organization: Organization;
  member_session: MemberSession;
}

export interface ManagementCredentials {
  /** Origin of the Gatehouse server, as this backend reaches it. */
  apiUrl: string;
  projectId: string;
  secret: string;
}

/**
 * Asks Gatehouse whether `sessionToken` is a live session, as any host backend would: over HTTP
 * with the project's secret key. Returns null for a dead or unknown session.
 */
export async function verifySession(
  credentials: ManagementCredentials,
  sessionToken: string,
): Promise<VerifiedSession | null> {
  const auth = Buffer.from(`${credentials.projectId}:${credentials.secret}`).toString('base64');
  const response = await fetch(`${credentials.apiUrl}/v1/b2b/sessions/authenticate`, {
    method: 'POST',
    headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' },
    body: JSON.stringify({ session_token: sessionToken }),
  });
  if (response.status === 404 || response.status === 401) return null;
  if (!response.ok) {
    throw new Error(`Session verification failed with HTTP ${response.status}`);
  }
  // The management API answers flat: the fields beside `request_id` and `status_code`.
  return (await response.json()) as VerifiedSession;
}

/** Reads one cookie from a Cookie header. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return null;
}
