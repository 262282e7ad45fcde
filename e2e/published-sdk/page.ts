/**
 * The page script of the published-SDK tests: the provider's prebuilt B2B UI (`@stytch/vanilla-js`
 * 4.13, or 6.x when bundled with the package aliased), its discovery sign-in with e-mail links,
 * passwords and authenticator-app MFA, pointed at a Gatehouse server (docs/protocol.md §1).
 * Bundled with esbuild by ./server.ts; the client is left on `window` for headless checks.
 */
import * as sdk from '@stytch/vanilla-js/b2b';

const { AuthFlowType, B2BProducts, StytchB2BUIClient } = sdk;

interface PageConfig {
  publicToken: string;
  baseUrl: string;
}

const config = JSON.parse(document.getElementById('sdk-config')!.textContent) as PageConfig;
const here = location.origin + location.pathname;

// `endpoints` works at runtime in both lines but is not in the published options type.
const client = new StytchB2BUIClient(config.publicToken, {
  endpoints: {
    sdkBackendURL: config.baseUrl,
    testAPIURL: config.baseUrl,
    liveAPIURL: config.baseUrl,
    clientsideServicesIframeURL: `${config.baseUrl}/clientside-services/index.html`,
  },
} as ConstructorParameters<typeof StytchB2BUIClient>[1]);
(window as unknown as { sdkClient: typeof client }).sdkClient = client;

const uiConfig = {
  products: [B2BProducts.emailMagicLinks, B2BProducts.passwords],
  // A page under `org/{slug}` signs in to that organization (the project's slug pattern points
  // there); any other page discovers the member's organizations.
  authFlowType: location.pathname.includes('/org/')
    ? AuthFlowType.Organization
    : AuthFlowType.Discovery,
  sessionOptions: { sessionDurationMinutes: 60 },
  emailMagicLinksOptions: {
    loginRedirectURL: here,
    signupRedirectURL: here,
    discoveryRedirectURL: here,
  },
  passwordOptions: { loginRedirectURL: here, resetPasswordRedirectURL: here },
};

// 6.x renders through its web component (its deprecated `mount` leaves a first mount empty);
// 4.13 has only `mount`.
const element = (sdk as { StytchB2B?: CustomElementConstructor }).StytchB2B;
if (element) {
  customElements.define('stytch-b2b', element);
  const ui = document.createElement('stytch-b2b');
  // Props after connecting: the element renders once it has somewhere to render to.
  document.getElementById('widget')!.append(ui);
  Object.assign(ui, { client, config: uiConfig });
} else {
  client.mount({ elementId: '#widget', config: uiConfig });
}
