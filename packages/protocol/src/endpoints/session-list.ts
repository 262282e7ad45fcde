/**
 * Live sessions for an admin screen and for a member's own account (docs/protocol.md §7.10):
 * listing them with their browser, and ending one or all of a member's.
 */
import { z } from 'zod';
import type {
  OrganizationSessionsResult,
  OwnSessionsResult,
  SessionsRevokeResult,
} from '../session-list.js';
import { endpoint } from './endpoint.js';
import * as f from './fields.js';

/** Exactly one of the listed fields is set. */
const exactlyOne =
  (...fields: string[]) =>
  (body: Record<string, unknown>) =>
    fields.filter((name) => body[name] !== undefined).length === 1;

export const SESSION_LIST_ENDPOINTS = {
  organizationSessionsSearch: endpoint<OrganizationSessionsResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/organizations/me/sessions/search',
    credential: 'S',
    summary:
      "Lists the live sessions of the caller's organization, or of one member of it, most recently used first (`stytch.member` `revoke-sessions`).",
    body: z
      .object({
        member_id: f.id.optional(),
        cursor: z
          .string()
          .regex(/^[0-9]{0,9}$/, 'must be a next_cursor from an earlier page')
          .optional(),
        limit: z
          .number()
          .int('must be an integer')
          .min(1, 'must be at least 1')
          .max(1000, 'must be at most 1000')
          .optional(),
      })
      .strict(),
  }),
  organizationSessionsRevoke: endpoint<SessionsRevokeResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/organizations/me/sessions/revoke',
    credential: 'S',
    summary:
      "Ends one session of the caller's organization (`member_session_id`) or every session of one of its members (`member_id`) (`stytch.member` `revoke-sessions`).",
    body: z
      .object({ member_session_id: f.id.optional(), member_id: f.id.optional() })
      .strict()
      .refine(exactlyOne('member_session_id', 'member_id'), {
        message: 'send exactly one of member_session_id and member_id',
      }),
  }),
  ownSessionsList: endpoint<OwnSessionsResult>()({
    method: 'GET',
    path: '/sdk/v1/b2b/organizations/members/me/sessions',
    credential: 'S',
    summary: "The signed-in member's live sessions, most recently used first (§7.10).",
    body: null,
  }),
  ownSessionsRevoke: endpoint<SessionsRevokeResult>()({
    method: 'POST',
    path: '/sdk/v1/b2b/organizations/members/me/sessions/revoke',
    credential: 'S',
    summary:
      "Ends one of the signed-in member's sessions (`member_session_id`) or all but the current one (`all_others: true`) (§7.10).",
    body: z
      .object({ member_session_id: f.id.optional(), all_others: z.literal(true).optional() })
      .strict()
      .refine(exactlyOne('member_session_id', 'all_others'), {
        message: 'send exactly one of member_session_id and all_others',
      }),
  }),
} as const;
