/** RecoveryCodeSave: the new registration's backup codes, to download or copy, then 'Done'. */
import { useMessages } from '../messages/use-messages.js';
import { Button } from '../parts/button.js';
import { Heading } from '../parts/heading.js';
import { MfaScreen } from '../parts/mfa-screen.js';
import { useWidget } from '../widget-context.js';

export function RecoveryCodeSave() {
  const format = useMessages();
  const { state, actions } = useWidget();
  const codes = state.mfa.totp.enrollment?.recoveryCodes ?? [];
  return (
    <MfaScreen>
      <Heading>{format('recoverySave.heading')}</Heading>
      <p className="gh-text">{format('recoverySave.body')}</p>
      <ul className="gh-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="gh-button-list">
        <Button variant="secondary" onClick={actions.downloadRecoveryCodes}>
          {format('recoverySave.download')}
        </Button>
        <Button variant="secondary" onClick={actions.copyRecoveryCodes}>
          {format('recoverySave.copyAll')}
        </Button>
        <Button onClick={actions.finishRecoveryCodes}>{format('recoverySave.done')}</Button>
      </div>
    </MfaScreen>
  );
}
