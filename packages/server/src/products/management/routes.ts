/** The management API under /v1/b2b for host backends, authenticated by `project_id:secret`. */
import type { FastifyInstance } from 'fastify';
import { AUTH_METHODS, MFA_METHODS, type AuthMethod, type MfaMethod } from '@gatehouse/protocol';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { secretCaller } from '../../http/auth.js';
import { unwrap } from '../../http/errors.js';
import { ok } from '../../http/reply.js';
import { fields, parseBody } from '../../http/validate.js';
import { authenticateForBackend, revokeForBackend } from '../sessions/lifecycle.js';
import {
  manageCreateMember,
  manageCreateOrganization,
  manageGetMember,
  manageGetOrganization,
  manageSetMemberPassword,
  manageUnlockMfa,
  manageUpdateMember,
  manageUpdateOrganization,
} from './service.js';

const CreateOrganizationBody = z.object({
  organization_name: fields.text.max(128),
  organization_slug: fields.text.max(128),
  organization_logo_url: z.string().max(2048).optional(),
  email_jit_provisioning: z.enum(['RESTRICTED', 'NOT_ALLOWED']).optional(),
  email_allowed_domains: z.array(z.string().max(253)).max(100).optional(),
  auth_methods: z.enum(['ALL_ALLOWED', 'RESTRICTED']).optional(),
  allowed_auth_methods: z.array(z.enum(AUTH_METHODS as [AuthMethod, ...AuthMethod[]])).optional(),
  mfa_policy: z.enum(['OPTIONAL', 'REQUIRED_FOR_ALL']).optional(),
});

const CreateMemberBody = z.object({
  email_address: fields.text.max(254),
  name: z.string().max(256).optional(),
  status: z.enum(['active', 'invited', 'pending']).optional(),
  roles: z.array(z.string().min(1).max(64)).max(50).optional(),
});

const SessionAuthenticateBody = z
  .object({
    session_token: fields.text.max(200).optional(),
    session_jwt: fields.text.max(8192).optional(),
  })
  .refine((b) => b.session_token !== undefined || b.session_jwt !== undefined, {
    message: 'session_token or session_jwt is required',
    path: ['session_token'],
  });

const SessionRevokeBody = z
  .object({
    session_id: fields.text.max(200).optional(),
    session_token: fields.text.max(200).optional(),
    member_id: fields.text.max(200).optional(),
  })
  .refine(
    (b) => [b.session_id, b.session_token, b.member_id].filter((v) => v !== undefined).length === 1,
    {
      message: 'exactly one of session_id, session_token and member_id is required',
      path: ['session_id'],
    },
  );

const SetPasswordBody = z
  .object({
    password: fields.text.max(256).optional(),
    password_hash: fields.text.max(1024).optional(),
  })
  .refine((b) => (b.password === undefined) !== (b.password_hash === undefined), {
    message: 'exactly one of password and password_hash is required',
    path: ['password'],
  });

const UpdateOrganizationBody = z.object({
  organization_name: fields.text.max(128).optional(),
  organization_logo_url: z.string().max(2048).optional(),
  email_jit_provisioning: z.enum(['RESTRICTED', 'NOT_ALLOWED']).optional(),
  email_allowed_domains: z.array(z.string().max(253)).max(100).optional(),
  auth_methods: z.enum(['ALL_ALLOWED', 'RESTRICTED']).optional(),
  allowed_auth_methods: z.array(z.enum(AUTH_METHODS as [AuthMethod, ...AuthMethod[]])).optional(),
  mfa_policy: z.enum(['OPTIONAL', 'REQUIRED_FOR_ALL']).optional(),
  mfa_methods: z.enum(['ALL_ALLOWED', 'RESTRICTED']).optional(),
  allowed_mfa_methods: z.array(z.enum(MFA_METHODS as [MfaMethod, ...MfaMethod[]])).optional(),
});

const UpdateMemberBody = z.object({
  name: z.string().max(256).optional(),
  mfa_enrolled: z.boolean().optional(),
  mfa_phone_number: z.string().max(64).optional(),
  mfa_phone_number_verified: z.boolean().optional(),
  default_mfa_method: z.enum(['', 'sms_otp', 'totp']).optional(),
});

type OrgParams = { organization_id: string };
type MemberParams = OrgParams & { member_id: string };

/** Registers the management routes. */
export function registerManagement(app: FastifyInstance, ctx: Context): void {
  app.post('/v1/b2b/organizations', async (request) => {
    const project = await secretCaller(ctx, request);
    const body = parseBody(CreateOrganizationBody, request.body);
    return ok(request, {
      organization: unwrap(await manageCreateOrganization(ctx, project, body)),
    });
  });

  app.get<{ Params: OrgParams }>('/v1/b2b/organizations/:organization_id', async (request) => {
    const project = await secretCaller(ctx, request);
    return ok(request, {
      organization: unwrap(
        await manageGetOrganization(ctx, project, request.params.organization_id),
      ),
    });
  });

  app.put<{ Params: OrgParams }>('/v1/b2b/organizations/:organization_id', async (request) => {
    const project = await secretCaller(ctx, request);
    const body = parseBody(UpdateOrganizationBody, request.body);
    return ok(request, {
      organization: unwrap(
        await manageUpdateOrganization(ctx, project, request.params.organization_id, body),
      ),
    });
  });

  app.put<{ Params: MemberParams }>(
    '/v1/b2b/organizations/:organization_id/members/:member_id',
    async (request) => {
      const project = await secretCaller(ctx, request);
      const body = parseBody(UpdateMemberBody, request.body);
      const { organization_id, member_id } = request.params;
      return ok(
        request,
        unwrap(await manageUpdateMember(ctx, project, organization_id, member_id, body)),
      );
    },
  );

  app.post<{ Params: OrgParams }>(
    '/v1/b2b/organizations/:organization_id/members',
    async (request) => {
      const project = await secretCaller(ctx, request);
      const body = parseBody(CreateMemberBody, request.body);
      return ok(
        request,
        unwrap(await manageCreateMember(ctx, project, request.params.organization_id, body)),
      );
    },
  );

  app.get<{ Params: MemberParams }>(
    '/v1/b2b/organizations/:organization_id/members/:member_id',
    async (request) => {
      const project = await secretCaller(ctx, request);
      const { organization_id, member_id } = request.params;
      return ok(request, unwrap(await manageGetMember(ctx, project, organization_id, member_id)));
    },
  );

  app.put<{ Params: MemberParams }>(
    '/v1/b2b/organizations/:organization_id/members/:member_id/password',
    async (request) => {
      const project = await secretCaller(ctx, request);
      const body = parseBody(SetPasswordBody, request.body);
      const { organization_id, member_id } = request.params;
      return ok(
        request,
        unwrap(await manageSetMemberPassword(ctx, project, organization_id, member_id, body)),
      );
    },
  );

  app.post<{ Params: MemberParams }>(
    '/v1/b2b/organizations/:organization_id/members/:member_id/mfa/unlock',
    async (request) => {
      const project = await secretCaller(ctx, request);
      const { organization_id, member_id } = request.params;
      return ok(request, unwrap(await manageUnlockMfa(ctx, project, organization_id, member_id)));
    },
  );

  app.post('/v1/b2b/sessions/authenticate', async (request) => {
    const project = await secretCaller(ctx, request);
    const body = parseBody(SessionAuthenticateBody, request.body);
    return ok(request, unwrap(await authenticateForBackend(ctx, project, body)));
  });

  app.post('/v1/b2b/sessions/revoke', async (request) => {
    const project = await secretCaller(ctx, request);
    const body = parseBody(SessionRevokeBody, request.body);
    return ok(request, unwrap(await revokeForBackend(ctx, project, body)));
  });
}
