/**
 * Errors of the API client. Each is typed by what the caller should do: retry (the transport
 * already has, within bounds), give up on a request, treat a stream as unavailable, or stop
 * because the key was rejected. Messages name the method, the path and the status, never the
 * key (see retry-policy.ts for which condition becomes which error).
 */
import { durationText } from "../clock/durations.js";
import { EXIT, PosSyncError } from "../errors.js";

export interface RequestDescription {
  operation: string;
  /** Path and query as sent, without credentials (the key only ever travels in a header). */
  target: string;
}

export abstract class ApiError extends PosSyncError {
  readonly exitCode: 1 | 3 = EXIT.incomplete;
  readonly operation: string;
  readonly target: string;
  /** Attempts made before giving up, set by the transport. */
  attempts = 1;

  constructor(request: RequestDescription, message: string) {
    super(message);
    this.operation = request.operation;
    this.target = request.target;
  }
}

/** 401 or 403: the key is wrong, revoked or lacks rights. Retrying cannot help. */
export class ApiKeyRejectedError extends ApiError {
  override readonly exitCode = EXIT.keyRejected;
  readonly retryable = false;

  /** `askedScheme`: the authorization scheme the server's challenge asks for, when pos-sync
   * sent another one (or none): then the key may be right and the setting wrong. `unchallenged`:
   * the answer named no scheme at all, so the header format may be wrong as well as the key. */
  constructor(
    request: RequestDescription,
    readonly status: number,
    readonly keyLabel: string,
    readonly askedScheme?: string,
    unchallenged = false,
  ) {
    const advice =
      askedScheme !== undefined
        ? `the server asks for ${askedScheme} credentials: set POS_AUTH_SCHEME=${askedScheme}`
        : unchallenged
          ? "check that the key is right and still active; if every key is refused, the server " +
            "may want another header format (POS_AUTH_SCHEME): pos-sync probe finds it"
          : "check that the key is right and still active";
    super(request, `the API rejected ${keyLabel} (${status} on GET ${request.target}): ${advice}`);
  }
}

/** 3xx: the API moved. Not followed, so that the key only ever goes where the user said. */
export class ApiRedirectError extends ApiError {
  readonly retryable = false;

  /** `location`: where the answer points, already stripped of credentials; undefined when the
   * answer named no target. */
  constructor(
    request: RequestDescription,
    readonly status: number,
    readonly location: string | undefined,
  ) {
    const where = location === undefined ? "without a Location" : `to ${location}`;
    super(
      request,
      `GET ${request.target} answered ${status}, a redirect ${where}: pos-sync does not follow redirects; point POS_API_URL at the new address`,
    );
  }
}

/** A status the request cannot recover from by itself: a 4xx other than 401, 403, 408, 429. */
export class ApiStatusError extends ApiError {
  readonly retryable = false;

  constructor(
    request: RequestDescription,
    readonly status: number,
    serverMessage: string,
  ) {
    super(
      request,
      `GET ${request.target} answered ${status}${serverMessage ? `: ${serverMessage}` : ""}`,
    );
  }
}

/** 404 on an operation whose path the spec does not show: the stream is unavailable at the
 * configured path, which the sync reports as a warning. */
export class ApiEndpointNotFoundError extends ApiError {
  readonly retryable = false;

  constructor(
    request: RequestDescription,
    readonly setting: string,
  ) {
    super(
      request,
      `GET ${request.target} answered 404: this API does not serve ${request.operation} there (set ${setting}; pos-sync probe finds it)`,
    );
  }
}

/** 5xx or 408: the server failed this time. */
export class ApiServerError extends ApiError {
  readonly retryable = true;

  constructor(
    request: RequestDescription,
    readonly status: number,
  ) {
    super(request, `GET ${request.target} answered ${status}`);
  }
}

/** 429: too many requests; the whole client slows down. */
export class ApiRateLimitedError extends ApiError {
  readonly retryable = true;
  readonly status = 429;

  constructor(
    request: RequestDescription,
    readonly retryAfterMs: number | undefined,
  ) {
    super(request, `GET ${request.target} was rate limited (429)`);
  }
}

export interface NetworkFailure {
  /** The system or undici error code ("ECONNREFUSED"). */
  code: string;
  description: string;
  retryable: boolean;
  /** host:port the request went to: a refused connection or an unknown host is named. */
  address: string;
  /** What the user should do, when it is theirs to fix. */
  hint?: string;
}

/** The connection failed, was closed, or timed out. */
export class ApiNetworkError extends ApiError {
  readonly code: string;
  readonly retryable: boolean;

  constructor(request: RequestDescription, failure: NetworkFailure) {
    const hint = failure.hint === undefined ? "" : `: ${failure.hint}`;
    super(
      request,
      `GET ${request.target} on ${failure.address} failed: ${failure.description} (${failure.code})${hint}`,
    );
    this.code = failure.code;
    this.retryable = failure.retryable;
  }
}

/** One request, retries included, took longer than its deadline. A later run may well succeed:
 * the server was slow or stalled this time. */
export class ApiDeadlineError extends ApiError {
  readonly retryable = true;

  constructor(request: RequestDescription, address: string, deadlineMs: number, attempts: number) {
    super(
      request,
      `GET ${request.target} on ${address} gave up after ${attempts} attempt(s): no answer within the ${durationText(deadlineMs, "seconds")} deadline of one request; the next run tries it again`,
    );
    this.attempts = attempts;
  }
}

/** A 2xx answer pos-sync cannot use: not JSON (retryable: often a truncated body or a proxy
 * page), or JSON of the wrong shape, or larger than the configured cap (fatal). */
export class ApiResponseError extends ApiError {
  constructor(
    request: RequestDescription,
    problem: string,
    readonly retryable: boolean,
  ) {
    super(request, `GET ${request.target} returned an unusable response: ${problem}`);
  }
}
