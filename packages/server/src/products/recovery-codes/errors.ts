/** The expected failures of the recovery-codes product, as values (docs/contributing.md, habit 4). */
import { fail, type Failure } from '../../result.js';

/** No unused code of the member matches. */
export const wrongRecoveryCode = (): Failure =>
  fail('unauthorized_credentials', 'The recovery code is not correct or was used.');
