/**
 * Turning a connection's sign-ins on and off (docs/widget.md §15): a new connection is off, so
 * that its test sign-in can run before anyone signs in through it. Turning on is allowed at any
 * time; the panel says whether a test passed since the page was opened.
 */
import { useId } from 'react';
import { Button } from '../parts/button.js';
import { FormError } from '../parts/form-error.js';
import { useAdmin } from './admin-context.js';
import { useAction } from './use-action.js';

export function SsoSwitch({
  kind,
  connectionId,
  name,
  on,
  updatedAt,
  testPassed,
  onSaved,
}: {
  kind: 'saml' | 'oidc';
  connectionId: string;
  name: string;
  on: boolean;
  /** The `updated_at` the screen loaded: a switch over someone else's change is refused. */
  updatedAt: string;
  testPassed: boolean;
  onSaved: (message: string) => void;
}) {
  const { admin, format } = useAdmin();
  const id = useId();
  const save = useAction(format, async () => {
    await admin.sso[kind].updateConnection({
      connection_id: connectionId,
      sign_in_enabled: !on,
      updated_at: updatedAt,
    });
    onSaved(format(on ? 'sso.switch.turnedOff' : 'sso.switch.turnedOn', { name }));
  });
  return (
    <div className="gh-admin-form" role="group" aria-labelledby={`${id}-heading`}>
      <h4 id={`${id}-heading`} className="gh-admin-subheading">
        {format('sso.switch.heading')}
      </h4>
      <p className="gh-text-secondary gh-admin-hint">
        {format(on ? 'sso.switch.isOn' : 'sso.switch.isOff')}{' '}
        {format(testPassed ? 'sso.switch.testPassed' : 'sso.switch.testNotPassed')}
      </p>
      <FormError id={`${id}-error`} message={save.error} />
      <Button
        variant={on ? 'secondary' : 'primary'}
        loading={save.busy}
        onClick={() => void save.run()}
      >
        {format(on ? 'sso.switch.turnOff' : 'sso.switch.turnOn')}
      </Button>
    </div>
  );
}
