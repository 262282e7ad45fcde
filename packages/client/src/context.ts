/** What the product method groups share: calls, result application, IST, PKCE and bootstrap. */
import type { BootstrapSource } from './bootstrap.js';
import type { PkceStore } from './pkce.js';
import type { ApplicableResult } from './session-store.js';
import type { ResolvedEndpoints } from './types.js';

export interface ClientContext {
  post<T>(path: string, body: object): Promise<T>;
  get<T>(path: string): Promise<T>;
  /** Calls served on the API base rather than the SDK backend (One Tap, docs/protocol.md §1). */
  api: { post<T>(path: string, body: object): Promise<T>; get<T>(path: string): Promise<T> };
  /** Applies a result by the either-or rule and hands it back. */
  applied<T extends ApplicableResult>(result: T): T;
  /** The IST from its cookie, or undefined (dropped from JSON bodies). */
  intermediateToken(): string | undefined;
  pkce: PkceStore;
  bootstrap: BootstrapSource;
  publicToken: string;
  endpoints: ResolvedEndpoints;
  /** Full-page navigation (SSO and OAuth starts). */
  navigate(url: string): void;
}
