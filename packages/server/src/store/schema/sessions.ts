// The session tables: sessions, intermediate sessions, one-time link tokens and the JWT signing
// keys.
import type { Columns, Flag, Json, TableColumns, Timestamp } from './columns.js';

export interface SessionsTable {
  id: string;
  project_id: string;
  member_id: string;
  organization_id: string;
  token_hash: string;
  factors: Json;
  started_at: Timestamp;
  last_accessed_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  /** The client IP address of the request that started the session; null before 0018. */
  ip_address: string | null;
  /** Its `User-Agent` header (at most 512 characters); null when absent or before 0018. */
  user_agent: string | null;
}

const sessionsColumns = {
  id: 'text not null',
  project_id: 'text not null',
  member_id: 'text not null',
  organization_id: 'text not null',
  token_hash: 'text not null',
  factors: 'text not null',
  started_at: 'text not null',
  last_accessed_at: 'text not null',
  expires_at: 'text not null',
  revoked_at: 'text',
  ip_address: 'text',
  user_agent: 'text',
} satisfies Columns<SessionsTable>;

export interface IntermediateSessionsTable {
  id: string;
  project_id: string;
  token_hash: string;
  email: string;
  member_id: string | null;
  organization_id: string | null;
  factors: Json;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  /** What a federated provider said of the address, when the IST came from one; else null. */
  federated?: Json | null;
  /**
   * The organizations whose own sign-in the IST's primary factor passed, when several did (a JSON
   * array of ids: a discovery password that more than one membership accepts); else null.
   */
  factor_organization_ids?: Json | null;
}

const intermediateSessionsColumns = {
  id: 'text not null',
  project_id: 'text not null',
  token_hash: 'text not null',
  email: 'text not null',
  member_id: 'text',
  organization_id: 'text',
  factors: 'text not null',
  created_at: 'text not null',
  expires_at: 'text not null',
  used_at: 'text',
  federated: 'text',
  factor_organization_ids: 'text',
} satisfies Columns<IntermediateSessionsTable>;

/** One-time tokens carried by links (magic links, discovery links). */
export interface TokensTable {
  id: string;
  project_id: string;
  kind: string;
  token_hash: string;
  email: string;
  organization_id: string | null;
  pkce_challenge: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  /** Kind-specific JSON (an SSO token's connection), or null. */
  details?: string | null;
}

const tokensColumns = {
  id: 'text not null',
  project_id: 'text not null',
  kind: 'text not null',
  token_hash: 'text not null',
  email: 'text not null',
  organization_id: 'text',
  pkce_challenge: 'text',
  created_at: 'text not null',
  expires_at: 'text not null',
  used_at: 'text',
  details: 'text',
} satisfies Columns<TokensTable>;

export interface SigningKeysTable {
  id: string;
  algorithm: string;
  public_jwk: Json;
  private_key: string;
  active: Flag;
  created_at: Timestamp;
  /** When a newer key took over; published until the JWTs this one signed have expired. */
  retired_at: Timestamp | null;
}

const signingKeysColumns = {
  id: 'text not null',
  algorithm: 'text not null',
  public_jwk: 'text not null',
  private_key: 'text not null',
  active: 'integer not null',
  created_at: 'text not null',
  retired_at: 'text',
} satisfies Columns<SigningKeysTable>;

/** The tables of this area, by name (part of `Database`). */
export interface SessionTables {
  sessions: SessionsTable;
  intermediate_sessions: IntermediateSessionsTable;
  tokens: TokensTable;
  signing_keys: SigningKeysTable;
}

/** Their columns as the migrations create them. */
export const SESSION_COLUMNS = {
  sessions: sessionsColumns,
  intermediate_sessions: intermediateSessionsColumns,
  tokens: tokensColumns,
  signing_keys: signingKeysColumns,
} satisfies TableColumns<SessionTables>;
