/** The back arrow at the top of a screen. */
import { useMessages } from '../messages/use-messages.js';
import { ArrowIcon } from './icons.js';

export function BackButton({ onClick }: { onClick: () => void }) {
  const format = useMessages();
  return (
    <button type="button" className="gh-back" aria-label={format('common.back')} onClick={onClick}>
      <ArrowIcon />
    </button>
  );
}
