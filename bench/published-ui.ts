/**
 * The page script of the comparison in first-screen.ts: the provider's published prebuilt B2B UI
 * (`@stytch/vanilla-js` 4.13.3), its discovery login, pointed at a Gatehouse server
 * (docs/protocol.md §1). Bundled with esbuild into one static file.
 */
import { AuthFlowType, B2BProducts, StytchB2BUIClient } from '@stytch/vanilla-js/b2b';

interface PageConfig {
  publicToken: string;
  baseUrl: string;
}

const config = JSON.parse(document.getElementById('bench-config')!.textContent) as PageConfig;
const here = location.origin + location.pathname;

// `endpoints` works at runtime but is not in the published options type.
const client = new StytchB2BUIClient(config.publicToken, {
  endpoints: {
    sdkBackendURL: config.baseUrl,
    testAPIURL: config.baseUrl,
    liveAPIURL: config.baseUrl,
    clientsideServicesIframeURL: `${config.baseUrl}/clientside-services/index.html`,
  },
} as ConstructorParameters<typeof StytchB2BUIClient>[1]);

client.mount({
  elementId: '#widget',
  config: {
    products: [B2BProducts.emailMagicLinks, B2BProducts.passwords, B2BProducts.sso],
    authFlowType: AuthFlowType.Discovery,
    sessionOptions: { sessionDurationMinutes: 60 },
    emailMagicLinksOptions: {
      loginRedirectURL: here,
      signupRedirectURL: here,
      discoveryRedirectURL: here,
    },
    ssoOptions: { loginRedirectURL: here, signupRedirectURL: here },
  },
});
