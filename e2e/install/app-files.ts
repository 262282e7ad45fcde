/**
 * The files a person writes for a new app that uses Gatehouse from npm: a Vite + React +
 * TypeScript app with `<LoginWidget>`, a plain HTML page with the standalone script, and a Node
 * backend script that starts the server from `@gatehouse/server`.
 */

/** Third-party packages the app installs from the registry, at versions that run on Node 20. */
export const APP_DEPENDENCIES = {
  react: '^19.2.0',
  'react-dom': '^19.2.0',
};

export const APP_DEV_DEPENDENCIES = {
  '@types/react': '^19.2.0',
  '@types/react-dom': '^19.2.0',
  '@vitejs/plugin-react': '^6.0.0',
  typescript: '~6.0.3',
  vite: '^8.3.8',
};

export const VITE_CONFIG = `import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({ plugins: [react()] });
`;

export const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2022", "DOM", "DOM.Iterable"],
    "module": "ESNext",
    "moduleResolution": "bundler",
    "jsx": "react-jsx",
    "strict": true,
    "noEmit": true,
    "isolatedModules": true,
    "skipLibCheck": true,
    "types": ["vite/client"]
  },
  "include": ["src"]
}
`;

export const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Storefront</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`;

export const MAIN_TSX = `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from '@gatehouse/client';
import { LoginWidget } from '@gatehouse/widget';

const client = createClient(import.meta.env.VITE_GATEHOUSE_PUBLIC_TOKEN, {
  baseUrl: import.meta.env.VITE_GATEHOUSE_URL,
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <h1>Storefront</h1>
    <LoginWidget
      client={client}
      config={{
        products: ['emailMagicLinks'],
        authFlowType: 'discovery',
        emailMagicLinksOptions: { discoveryRedirectURL: location.origin + '/' },
      }}
      styles={{ container: { width: 400 } }}
    />
  </StrictMode>,
);
`;

/** The plain page: the standalone script beside it, `Gatehouse.mount` with the project's token. */
export function plainPage(gatehouseUrl: string, publicToken: string): string {
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Plain page</title></head>
  <body>
    <h1>Plain page</h1>
    <div id="login"></div>
    <script type="module" src="./gatehouse-widget.js"></script>
    <script type="module">
      Gatehouse.mount('#login', {
        publicToken: ${JSON.stringify(publicToken)},
        baseUrl: ${JSON.stringify(gatehouseUrl)},
        config: {
          products: ['emailMagicLinks'],
          authFlowType: 'discovery',
          emailMagicLinksOptions: { discoveryRedirectURL: location.origin + '/plain/' },
        },
      });
    </script>
  </body>
</html>
`;
}

/**
 * A backend's set-up script: the server from the package's entry point on the database that
 * `gatehouse serve` will use (migrated as it opens), one project that trusts the page's origin
 * (argv[2]), an organization with one member (argv[3]), and a health check; prints what it made
 * as JSON.
 */
export const BACKEND_MJS = `import { configFromEnv, createServer } from '@gatehouse/server';
import { ERROR_TYPES } from '@gatehouse/protocol';

const [origin, email] = process.argv.slice(2);
const app = await createServer(configFromEnv());
const project = await app.gatehouse.createProject({
  name: 'Harbor',
  authorizedOrigins: [origin],
  redirectUrls: { discovery: [origin + '/plain/'] },
});
const org = await app.gatehouse.createOrganization(project.project_id, {
  organization_name: 'Harbor Supply',
  organization_slug: 'harbor',
});
await app.gatehouse.createMember(project.project_id, org.organization_id, { email_address: email });
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const health = await (await fetch(address + '/healthz')).json();
await app.close();
console.log(
  JSON.stringify({ health, publicToken: project.public_token, errorTypes: ERROR_TYPES.length }),
);
`;
