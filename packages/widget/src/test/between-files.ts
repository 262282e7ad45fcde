/**
 * The widget's test files share one worker's modules (see packages/client/src/test/between-files.ts,
 * which empties the page): each file also starts with no toasts of an earlier one.
 */
import toast from 'react-hot-toast';
import { beforeAll } from 'vitest';

beforeAll(() => {
  toast.remove();
});
