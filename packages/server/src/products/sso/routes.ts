/** The SSO sign-in routes: start (§8), the IdP-facing SAML ACS, SP metadata and OIDC callback, and `sso/authenticate` (§7.6). */
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.js';
import { optionalSession, type SessionCaller } from '../../http/auth.js';
import { authorizeActing, grantorOf, type ActingMember } from '../../http/acting-member.js';
import type { Grantor } from '../../tenancy/rbac/grants.js';
import type { Project } from '../../tenancy/projects/service.js';
import { NO_CLIENT } from '../../auth/client-info.js';
import { backendSignInSession } from '../../http/backend-caller.js';
import {
  bindingToStart,
  browserBinding,
  setBrowserBinding,
  SSO_BINDING,
} from '../../http/browser-binding.js';
import { ApiError, unwrap } from '../../http/errors.js';
import { parseForm } from '../../http/form.js';
import { holdsNul, nulRefused } from '../../http/nul-guard.js';
import { queryOf, redirectOrPage, sendErrorPage, sendNoticePage } from '../../http/pages.js';
import { ok } from '../../http/reply.js';
import { rawRoute, router } from '../../http/route.js';
import { fail, isFailure, type Failure } from '../../result.js';
import { sessionRoleIds } from '../../tenancy/members/role-sources.js';
import { memberById } from '../../tenancy/members/store.js';
import { authorize } from '../../tenancy/rbac/service.js';
import { finishSaml } from './acs.js';
import { samlMetadata, startSso } from './flow.js';
import { finishOidc } from './oidc-callback.js';
import { authenticateSso } from './sign-in.js';
import { readConnectionTest, startSamlTest } from './connection-test.js';
import { startOidcTest } from './oidc-test.js';
import {
  createOidcConnection,
  createSamlConnection,
  deleteConnection,
  deleteSamlCertificate,
  getConnection,
  listConnections,
  updateOidcConnection,
  updateSamlConnection,
  updateSamlFromMetadata,
} from './service.js';
import {
  connectionIdMissing,
  connectionNotFound,
  noSamlResponse,
  unknownPublicToken,
} from './errors.js';

/**
 * The largest ACS body accepted, 1 MiB (a signed response with a few certificates is ~10 KB);
 * the response must also pass the bounds of saml-scan.ts before it is parsed.
 */
const ACS_BODY_LIMIT = 1024 * 1024;

const acsBodyTooLarge = (): Failure =>
  fail('invalid_request', 'The SAML response is larger than the 1 MiB the ACS accepts.');

const TEST_FINISHED =
  'The identity provider answered this test sign-in. Nobody was signed in. Return to the admin portal to see the report; you can close this window.';

/**
 * The page of a test sign-in's answer, sent once its report is stored: the portal reads the
 * report by polling, and this page closes its own popup. The portal cannot close it: its page
 * (a host page with sign-in forms, served with `Cross-Origin-Opener-Policy: same-origin`, as
 * every page of `applyPagePolicy`) loses its hold on the popup as soon as the popup leaves for
 * the IdP, another origin, which puts the popup in another browsing context group. Relaxing that
 * page to `same-origin-allow-popups` would keep the hold, but would weaken the isolation of a
 * page with sign-in forms for every popup it opens; this page shows no secret and no form, and a
 * window a script opened may close itself whatever group it ended in. Where the browser refuses
 * (the admin opened the IdP from the portal's link instead of a popup), the page stays and says
 * the window may be closed.
 */
const sendTestFinished = (reply: FastifyReply) =>
  sendNoticePage(reply, 'Test finished', TEST_FINISHED, { closesItself: true });

/** Room for `metadata_xml` at its 1,000,000-character cap once JSON has escaped its quotes. */
const METADATA_BODY_LIMIT = 2 * 1024 * 1024;

/** Registers the SSO routes. */
export function registerSso(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  const page = (request: FastifyRequest, reply: FastifyReply, failure: Failure) =>
    sendErrorPage(request, reply, failure, ctx.config.docsBase);
  const answer = (
    request: FastifyRequest,
    reply: FastifyReply,
    result: { location: string } | Failure,
  ) => redirectOrPage(request, reply, result, ctx.config.docsBase);

  rawRoute(app, ENDPOINTS.ssoStart, async (request, reply) => {
    const query = queryOf(request);
    const publicToken = query.get('public_token') ?? '';
    const project = publicToken === '' ? null : await ctx.projects.byPublicToken(publicToken);
    if (!project) {
      return page(request, reply, unknownPublicToken());
    }
    const connectionId = query.get('connection_id') ?? '';
    if (connectionId === '') {
      return page(request, reply, connectionIdMissing());
    }
    const optional = (name: string) => query.get(name) ?? undefined;
    // One binding per browser, kept while it has sign-ins under way (two tabs share it).
    const browser = bindingToStart(request, SSO_BINDING);
    const result = await startSso(
      ctx,
      project,
      {
        connection_id: connectionId,
        pkce_code_challenge: optional('pkce_code_challenge'),
        login_redirect_url: optional('login_redirect_url'),
        signup_redirect_url: optional('signup_redirect_url'),
      },
      browser,
    );
    if (!isFailure(result)) {
      setBrowserBinding(reply, SSO_BINDING, browser, ctx.config.publicUrl.startsWith('https:'));
    }
    return answer(request, reply, result);
  });

  rawRoute(app, ENDPOINTS.samlMetadata, async (request, reply) => {
    const xml = await samlMetadata(ctx, request.params.connection_id);
    if (xml === null) {
      return page(request, reply, connectionNotFound());
    }
    return reply.type('application/samlmetadata+xml; charset=utf-8').send(xml);
  });

  rawRoute(app, ENDPOINTS.oidcCallback, async (request, reply) => {
    const result = await finishOidc(ctx, queryOf(request), browserBinding(request, SSO_BINDING));
    if ('test' in result) {
      return sendTestFinished(reply);
    }
    return answer(request, reply, result);
  });

  // IdPs post the response as an HTML form: this scope alone reads form bodies.
  void app.register(async (scope) => {
    // A browser is on this page: a refused body (too large, not a form) is an HTML page too.
    scope.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
      if (error instanceof ApiError)
        return page(request, reply, fail(error.errorType, error.message));
      if (
        typeof error.statusCode === 'number' &&
        error.statusCode >= 400 &&
        error.statusCode < 500
      ) {
        const tooLarge = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE';
        return page(
          request,
          reply,
          tooLarge ? acsBodyTooLarge() : fail('invalid_request', error.message),
        );
      }
      throw error;
    });
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT },
      (_request, body, done) => {
        const fields = parseForm(typeof body === 'string' ? body : body.toString('utf8'));
        if (fields) done(holdsNul(fields) ? nulRefused() : null, fields);
        else done(new ApiError('invalid_request', 'The form body is not valid URL encoding.'));
      },
    );
    rawRoute(
      scope,
      ENDPOINTS.samlAcs,
      async (request, reply) => {
        const body = request.body as Record<string, unknown> | undefined;
        const samlResponse = typeof body?.SAMLResponse === 'string' ? body.SAMLResponse : '';
        if (samlResponse === '') {
          return page(request, reply, noSamlResponse());
        }
        const result = await finishSaml(
          ctx,
          request.params.connection_id,
          samlResponse,
          browserBinding(request, SSO_BINDING),
        );
        if ('test' in result) {
          return sendTestFinished(reply);
        }
        return answer(request, reply, result);
      },
      { bodyLimit: ACS_BODY_LIMIT },
    );
  });

  route(ENDPOINTS.ssoAuthenticate, async (request, { caller, parse }) => {
    const body = parse();
    const presented = await optionalSession(ctx, caller);
    return ok(
      request,
      unwrap(await authenticateSso(ctx, caller.project, body, presented, caller.client)),
    );
  });

  // The management API's `sso.authenticate` (secret key): a host backend redeems the token.
  route(ENDPOINTS.backendSsoAuthenticate, async (request, { caller: project, parse }) => {
    const body = parse();
    const presented = await backendSignInSession(ctx, project, body);
    const outcome = unwrap(await authenticateSso(ctx, project, body, presented, NO_CLIENT));
    return ok(request, {
      ...outcome,
      organization_id: outcome.organization.organization_id,
      reset_session: false,
    });
  });
}

/** Registers the connection management routes: the management API and the SDK's §7.10 endpoints. */
export function registerSsoConnections(app: FastifyInstance, ctx: Context): void {
  const route = router(app, ctx);
  /**
   * The caller's project and organization, if their session's roles allow `action` on SSO; called
   * before `parse()`, so that a member without the permission never learns the body's shape.
   */
  const member = async (caller: SessionCaller, action: string) => {
    const { session } = caller;
    const self = await memberById(ctx.db, caller.project.id, session.row.member_id);
    // The roles the member holds in this session: a connection's roles only with its factor.
    const roles = self ? sessionRoleIds(self, session.row.factors) : [];
    const refused = self
      ? await authorize(ctx.db, caller.project.id, roles, 'stytch.sso', action)
      : true;
    if (refused) {
      throw new ApiError(
        'unauthorized_action',
        'Your roles do not allow managing this organization’s SSO connections.',
      );
    }
    // Who asks, for the group role rules a connection change may grant (products/rbac/grants.ts).
    const grantor = { memberRoles: roles };
    return { project: caller.project, organizationId: session.row.organization_id, grantor };
  };

  /**
   * A management call made with a member's session: refused unless the member's roles allow
   * `action` on SSO in the organization of the path; answers who grants the group role rules a
   * connection change may carry (products/rbac/grants.ts).
   */
  const acted = async (
    project: Project,
    acting: ActingMember | null,
    organizationId: string,
    action: string,
  ): Promise<Grantor> => {
    if (acting) {
      const permission = ['stytch.sso', action] as const;
      await authorizeActing(ctx, project, acting, { organizationId, needs: [[permission]] });
    }
    return grantorOf(acting);
  };
  const withSession = { memberSession: true } as const;

  route(
    ENDPOINTS.ssoList,
    async (request, { caller: project, acting }) => {
      const { organization_id } = request.params;
      await acted(project, acting, organization_id, 'get');
      return ok(request, unwrap(await listConnections(ctx, project, organization_id)));
    },
    withSession,
  );
  route(ENDPOINTS.ssoGet, async (request, { caller: project }) => {
    const { organization_id, connection_id } = request.params;
    return ok(request, unwrap(await getConnection(ctx, project, organization_id, connection_id)));
  });
  route(
    ENDPOINTS.ssoDelete,
    async (request, { caller: project, acting }) => {
      const { organization_id, connection_id } = request.params;
      await acted(project, acting, organization_id, 'delete');
      return ok(
        request,
        unwrap(await deleteConnection(ctx, project, organization_id, connection_id)),
      );
    },
    withSession,
  );
  route(
    ENDPOINTS.ssoCreateSaml,
    async (request, { caller: project, parse, acting }) => {
      const { organization_id } = request.params;
      const grantor = await acted(project, acting, organization_id, 'create');
      const body = parse();
      return ok(
        request,
        unwrap(await createSamlConnection(ctx, project, organization_id, body, grantor)),
      );
    },
    withSession,
  );
  route(
    ENDPOINTS.ssoUpdateSaml,
    async (request, { caller: project, parse, acting }) => {
      const { organization_id, connection_id } = request.params;
      const grantor = await acted(project, acting, organization_id, 'update');
      const body = parse();
      return ok(
        request,
        unwrap(
          await updateSamlConnection(ctx, project, organization_id, connection_id, body, grantor),
        ),
      );
    },
    withSession,
  );
  route(
    ENDPOINTS.ssoUpdateSamlByMetadata,
    async (request, { caller: project, parse, acting }) => {
      const { organization_id, connection_id } = request.params;
      await acted(project, acting, organization_id, 'update');
      const body = parse();
      return ok(
        request,
        unwrap(await updateSamlFromMetadata(ctx, project, organization_id, connection_id, body)),
      );
    },
    { bodyLimit: METADATA_BODY_LIMIT, ...withSession },
  );
  route(
    ENDPOINTS.ssoDeleteSamlCertificate,
    async (request, { caller: project, acting }) => {
      const { organization_id, connection_id, certificate_id } = request.params;
      await acted(project, acting, organization_id, 'update');
      return ok(
        request,
        unwrap(
          await deleteSamlCertificate(ctx, project, organization_id, connection_id, certificate_id),
        ),
      );
    },
    withSession,
  );
  route(
    ENDPOINTS.ssoCreateOidc,
    async (request, { caller: project, parse, acting }) => {
      const { organization_id } = request.params;
      const grantor = await acted(project, acting, organization_id, 'create');
      const body = parse();
      return ok(
        request,
        unwrap(await createOidcConnection(ctx, project, organization_id, body, grantor)),
      );
    },
    withSession,
  );
  route(
    ENDPOINTS.ssoUpdateOidc,
    async (request, { caller: project, parse, acting }) => {
      const { organization_id, connection_id } = request.params;
      const grantor = await acted(project, acting, organization_id, 'update');
      const body = parse();
      return ok(
        request,
        unwrap(
          await updateOidcConnection(ctx, project, organization_id, connection_id, body, grantor),
        ),
      );
    },
    withSession,
  );

  route(ENDPOINTS.sdkSsoList, async (request, { caller }) => {
    const { project, organizationId } = await member(caller, 'get');
    return ok(request, unwrap(await listConnections(ctx, project, organizationId)));
  });
  route(ENDPOINTS.sdkSsoDelete, async (request, { caller }) => {
    const { project, organizationId } = await member(caller, 'delete');
    return ok(
      request,
      unwrap(await deleteConnection(ctx, project, organizationId, request.params.connection_id)),
    );
  });
  route(ENDPOINTS.sdkSsoCreateSaml, async (request, { caller, parse }) => {
    const { project, organizationId, grantor } = await member(caller, 'create');
    const body = parse();
    return ok(
      request,
      unwrap(await createSamlConnection(ctx, project, organizationId, body, grantor)),
    );
  });
  route(ENDPOINTS.sdkSsoUpdateSaml, async (request, { caller, parse }) => {
    const { project, organizationId, grantor } = await member(caller, 'update');
    const { connection_id } = request.params;
    const body = parse();
    return ok(
      request,
      unwrap(
        await updateSamlConnection(ctx, project, organizationId, connection_id, body, grantor),
      ),
    );
  });
  route(
    ENDPOINTS.sdkSsoUpdateSamlByMetadata,
    async (request, { caller, parse }) => {
      const { project, organizationId } = await member(caller, 'update');
      const { connection_id } = request.params;
      return ok(
        request,
        unwrap(await updateSamlFromMetadata(ctx, project, organizationId, connection_id, parse())),
      );
    },
    { bodyLimit: METADATA_BODY_LIMIT },
  );
  route(ENDPOINTS.sdkSsoDeleteSamlCertificate, async (request, { caller }) => {
    const { project, organizationId } = await member(caller, 'update');
    const { connection_id, certificate_id } = request.params;
    return ok(
      request,
      unwrap(
        await deleteSamlCertificate(ctx, project, organizationId, connection_id, certificate_id),
      ),
    );
  });
  // A test sign-in is part of setting a connection up: starting and reading one need `update`.
  const tests = [
    ['saml', ENDPOINTS.sdkSsoTestSaml, ENDPOINTS.sdkSsoTestSamlResult, startSamlTest],
    ['oidc', ENDPOINTS.sdkSsoTestOidc, ENDPOINTS.sdkSsoTestOidcResult, startOidcTest],
  ] as const;
  for (const [kind, startEndpoint, resultEndpoint, startTest] of tests) {
    route(startEndpoint, async (request, { caller, parse }) => {
      const { project, organizationId } = await member(caller, 'update');
      parse();
      const { connection_id } = request.params;
      const memberId = caller.session.row.member_id;
      return ok(
        request,
        unwrap(await startTest(ctx, project, organizationId, memberId, connection_id)),
      );
    });
    route(resultEndpoint, async (request, { caller }) => {
      const { project, organizationId } = await member(caller, 'update');
      const { connection_id, test_id } = request.params;
      const test = await readConnectionTest(
        ctx,
        project,
        organizationId,
        connection_id,
        test_id,
        kind,
      );
      return ok(request, { test: unwrap(test) });
    });
  }
  route(ENDPOINTS.sdkSsoCreateOidc, async (request, { caller, parse }) => {
    const { project, organizationId, grantor } = await member(caller, 'create');
    const body = parse();
    return ok(
      request,
      unwrap(await createOidcConnection(ctx, project, organizationId, body, grantor)),
    );
  });
  route(ENDPOINTS.sdkSsoUpdateOidc, async (request, { caller, parse }) => {
    const { project, organizationId, grantor } = await member(caller, 'update');
    const { connection_id } = request.params;
    const body = parse();
    return ok(
      request,
      unwrap(
        await updateOidcConnection(ctx, project, organizationId, connection_id, body, grantor),
      ),
    );
  });
}
