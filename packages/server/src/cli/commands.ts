/** The table of `gatehouse` commands: the one place that says which commands exist, in help order. */
import type { Command } from './command.js';
import { importProject } from './import.js';
import { memberCreate, memberInvite, memberUpdate } from './members.js';
import { orgCreate, orgUpdate } from './organizations.js';
import { projectList } from './project-list.js';
import { projectCreate, projectShow, projectUpdate } from './projects.js';
import { migrate, serve } from './server.js';
import { outboxList } from './outbox.js';
import { oauthSet, oauthShow } from './oauth.js';
import { captchaSet, captchaShow } from './captcha.js';
import { keysRotate, keysRotateServerKey } from './keys.js';
import { rbacSet, rbacShow } from './rbac.js';
import { secretCreate, secretDelete, secretList } from './secrets.js';
import { sessionRevoke } from './sessions.js';
import { ssoCreateOidc, ssoCreateSaml, ssoDelete, ssoList, ssoUpdate } from './sso.js';

/**
 * Every command, in the order `gatehouse --help` lists them. Dispatch, the overview and each
 * command's `--help` all read this list (docs/contributing.md, habit 8).
 *
 * @example
 * const command = COMMANDS.find((c) => c.name.join(' ') === 'org update');
 */
export const COMMANDS: readonly Command[] = [
  serve,
  migrate,
  projectCreate,
  projectList,
  projectShow,
  projectUpdate,
  orgCreate,
  orgUpdate,
  memberCreate,
  memberInvite,
  memberUpdate,
  sessionRevoke,
  outboxList,
  rbacShow,
  rbacSet,
  ssoList,
  ssoCreateSaml,
  ssoCreateOidc,
  ssoUpdate,
  ssoDelete,
  oauthShow,
  oauthSet,
  captchaShow,
  captchaSet,
  keysRotate,
  keysRotateServerKey,
  secretCreate,
  secretList,
  secretDelete,
  importProject,
];
