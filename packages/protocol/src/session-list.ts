/**
 * The session lists of an admin screen and of a member's own account (docs/protocol.md §7.10):
 * live sessions with who they belong to, how they were signed in, when, and from which browser.
 */
import type { Ack } from './api.js';
import type { AuthenticationFactor } from './entities.js';

/** One live session as a list shows it. */
export interface ListedSession {
  member_session_id: string;
  member_id: string;
  /** The member's e-mail address. */
  email_address: string;
  /** How the session was signed in: its factors, newest per method. */
  authentication_factors: AuthenticationFactor[];
  /** When it was created (RFC 3339). */
  started_at: string;
  /** When it was last used: signed in again, refreshed or exchanged. */
  last_accessed_at: string;
  expires_at: string;
  /** The client IP address that started it; null when unknown (sessions older than the record). */
  ip_address: string | null;
  /** The `User-Agent` of the browser that started it; null when unknown. */
  user_agent: string | null;
  /** Whether this is the session that asked for the list. */
  current: boolean;
}

/** `POST /b2b/organizations/me/sessions/search`: one page of the organization's live sessions. */
export interface OrganizationSessionsResult extends Ack {
  member_sessions: ListedSession[];
  results_metadata: { total: number; next_cursor: string | null };
}

/** `GET /b2b/organizations/members/me/sessions`: the signed-in member's live sessions. */
export interface OwnSessionsResult extends Ack {
  member_sessions: ListedSession[];
}

/** A revocation: the sessions it ended (none when they had ended already). */
export interface SessionsRevokeResult extends Ack {
  member_id: string;
  revoked_session_ids: string[];
}
