/** The shape of one entry of the endpoint table, and the types derived from an entry. */
import type { z } from 'zod';

/**
 * Who may call an endpoint (docs/protocol.md §7): `A` anonymous with the public token, `S` a
 * session, `I` an IST in the body or a session, `secret` the project's secret key (management
 * API), `none` no credentials at all.
 */
export type Credential = 'A' | 'S' | 'I' | 'secret' | 'none';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One endpoint: where it is, who may call it, what it takes and what it answers. The credential
 * is kept as its literal, so the server derives the type of the authenticated caller from it.
 */
export interface Endpoint<
  Path extends string = string,
  Body extends z.ZodType | null = z.ZodType | null,
  Response = unknown,
  C extends Credential = Credential,
> {
  readonly method: HttpMethod;
  /** The path on the server's origin; `:name` segments are path parameters. */
  readonly path: Path;
  /** Enforced by the server's `route()`, which authenticates the caller before the handler runs. */
  readonly credential: C;
  /**
   * A `D` call (docs/protocol.md §7): it may carry `captcha_token`, and needs one when the
   * project has captcha on (docs/protocol.md §6).
   */
  readonly captcha?: true;
  /** One line for the reference. */
  readonly summary: string;
  /** The JSON body's schema; null when the endpoint takes none. */
  readonly body: Body;
  /** Never set: carries the response type for the compiler. */
  readonly response?: Response;
}

/**
 * Declares an endpoint answering `Response` (the type the compiler checks the server's answer
 * and the client's result against).
 *
 * @example
 * const search = endpoint<OrganizationSearchResult>()({
 *   method: 'POST', path: '/sdk/v1/b2b/organizations/search', credential: 'A',
 *   summary: 'Finds an organization by slug', body: z.object({ organization_slug: slug }),
 * });
 */
export function endpoint<Response>() {
  return <const Path extends string, Body extends z.ZodType | null, const C extends Credential>(
    entry: Omit<Endpoint<Path, Body, Response, C>, 'response'>,
  ): Endpoint<Path, Body, Response, C> => entry;
}

/** The parsed body a handler receives (defaults applied). */
export type BodyOf<E> =
  E extends Endpoint<string, infer B, unknown>
    ? B extends z.ZodType
      ? z.output<B>
      : undefined
    : never;

/** The body a caller may send (defaults optional). */
export type RequestOf<E> =
  E extends Endpoint<string, infer B, unknown>
    ? B extends z.ZodType
      ? z.input<B>
      : undefined
    : never;

/** The `data` of a successful answer. */
export type ResponseOf<E> = E extends Endpoint<string, z.ZodType | null, infer R> ? R : never;

/** The path parameters named by `:name` segments. */
export type ParamsOf<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & ParamsOf<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, never>;
