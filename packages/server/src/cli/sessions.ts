/** `gatehouse session revoke`: ending a session, or every session of a member. */
import { defineCommand, option, UsageError } from './command.js';
import { DATABASE_SETTINGS } from './environment.js';
import { withRuntime } from './open.js';

/** Revokes one session by id or token, or all of a member's. */
export const sessionRevoke = defineCommand({
  name: ['session', 'revoke'],
  summary: 'End a session, or every session of a member',
  usage: '--project ID (--session ID | --session-token T | --member ID)',
  description:
    'Ends one live session, by its member_session_id or its session token, or with --member ' +
    'every session of that member together with its unfinished sign-ins (intermediate ' +
    'sessions). A revoked session fails to refresh at once; a session JWT it already issued ' +
    'verifies offline until it expires (five minutes at most), so backends that must see the ' +
    'revocation at once authenticate the session with the management API.',
  options: {
    project: option('ID', 'The project').required(),
    session: option('ID', 'The session, by its member_session_id'),
    'session-token': option('T', 'The session, by its session token'),
    member: option('ID', 'The member whose sessions all end'),
  },
  environment: DATABASE_SETTINGS,
  async run(values, io) {
    const target = {
      session_id: values.session,
      session_token: values['session-token'],
      member_id: values.member,
    };
    if (Object.values(target).filter((v) => v !== undefined).length !== 1) {
      throw new UsageError('exactly one of --session, --session-token and --member is required');
    }
    await withRuntime(io, async ({ admin }) => {
      const revoked = await admin.revokeSessions(values.project, target);
      io.stdout(
        `Sessions revoked.\nmember_id: ${revoked.member_id}\n` +
          `revoked:   ${revoked.revoked_session_ids.length}\n` +
          revoked.revoked_session_ids.map((id) => `  ${id}\n`).join(''),
      );
    });
  },
});
