/** Main: the heading of the flow and the sign-in blocks, with the 'or' rule between them. */
import { Fragment, lazy, Suspense } from 'react';
import { useMessages } from '../messages/use-messages.js';
import {
  mainHeading,
  mainSections,
  oneTapProvider,
  type MainSection,
} from '../machine/selectors.js';
import { AuthButtons } from '../parts/auth-buttons.js';
import { Divider } from '../parts/divider.js';
import { EmailForm } from '../parts/email-form.js';
import { Heading } from '../parts/heading.js';
import { Spinner } from '../parts/spinner.js';
import { useWidget } from '../widget-context.js';

// One Tap is loaded only by widgets configured to offer it.
const OneTap = lazy(() => import('../parts/one-tap.js').then((m) => ({ default: m.OneTap })));

// Password sign-in is loaded only by the organizations that offer it alone.
const PasswordLoginForm = lazy(() =>
  import('../parts/password-login-form.js').then((m) => ({ default: m.PasswordLoginForm })),
);

function Section({ section }: { section: MainSection }) {
  if (section.kind === 'buttons') return <AuthButtons buttons={section.buttons} />;
  if (section.kind === 'emailForm') return <EmailForm offerPassword={section.offerPassword} />;
  return (
    <Suspense fallback={<Spinner />}>
      <PasswordLoginForm />
    </Suspense>
  );
}

export function Main() {
  const format = useMessages();
  const { state, config, styles } = useWidget();
  const heading = mainHeading(state);
  const sections = mainSections(state, config);
  const appLogo = styles.logo?.logoImageUrl;
  const organization = state.flow.organization;
  const organizationLogo = organization?.organization_logo_url;

  return (
    <div className="gh-screen">
      {appLogo && (
        <div className="gh-logo">
          <img src={appLogo} alt={format('main.appLogo')} />
        </div>
      )}
      {organization && organizationLogo && (
        <div className="gh-logo">
          <img
            src={organizationLogo}
            alt={format('main.organizationLogo', {
              organizationName: organization.organization_name,
            })}
          />
        </div>
      )}
      {heading && (
        <Heading>
          {heading.key === 'main.heading.discovery'
            ? format(heading.key)
            : format(heading.key, { organizationName: heading.organizationName })}
        </Heading>
      )}
      {sections.map((section, index) => (
        <Fragment key={section.kind}>
          {/* At most two blocks, so this puts the rule before the last one. */}
          {index > 0 && <Divider />}
          <Section section={section} />
        </Fragment>
      ))}
      {oneTapProvider(state, config) && (
        <Suspense fallback={null}>
          <OneTap />
        </Suspense>
      )}
    </div>
  );
}
