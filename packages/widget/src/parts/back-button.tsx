/** The back arrow at the top of a screen. */
import { format } from '../messages/en.js';
import { ArrowIcon } from './icons.js';

export function BackButton({ onClick }: { onClick: () => void }) {
  return (
    <button type="button" className="gh-back" aria-label={format('common.back')} onClick={onClick}>
      <ArrowIcon />
    </button>
  );
}
