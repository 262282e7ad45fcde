// The set-up of the Google-style OAuth suites (oauth.test.ts, backend.test.ts): a listening
// harness and a real OpenID provider standing in for Google, with the provider turned on.
import { ENDPOINTS } from '@gatehouse/protocol/endpoints';
import { startOidcIdp, type OidcIdp } from '@gatehouse/testing/idp';
import { expectOk, startHarness, type Harness } from '../../test/harness.js';

/** The client the suites register at the provider and configure Gatehouse with. */
export const GOOGLE_CLIENT = {
  clientId: 'gatehouse-google',
  clientSecret: 'google-client-secret-value',
};

/**
 * Starts the harness and the provider, registers {@link GOOGLE_CLIENT} at the provider with the
 * server's Google callback, and turns the project's Google provider on with it.
 *
 * @example
 * ({ h, google, callback } = await startGoogleOAuth());
 */
export async function startGoogleOAuth(): Promise<{
  h: Harness;
  google: OidcIdp;
  callback: string;
}> {
  const [h, google] = await Promise.all([startHarness({ listen: true }), startOidcIdp()]);
  const callback = `${h.url}/v1/b2b/public/oauth/google/callback`;
  google.addClient({ ...GOOGLE_CLIENT, redirectUris: [callback] });
  expectOk(
    await h.call(ENDPOINTS.oauthSetProvider, {
      params: { provider: 'google' },
      body: {
        enabled: true,
        client_id: GOOGLE_CLIENT.clientId,
        client_secret: GOOGLE_CLIENT.clientSecret,
        issuer: google.issuer,
      },
    }),
  );
  return { h, google, callback };
}
