// The app's one HTTP client: every request the page and its worker make to
// the server goes through send() or api(), and every failure comes back as
// one ApiError carrying the HTTP status (0 when the server could not be
// reached), the server's stable code (core/base/status.h; HTTP_<status>
// when the answer had none, OFFLINE when there was no answer) and a message
// meant for the person. No DOM: the worker (sync.js) uses it too.

export const kOffline = 'OFFLINE';

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

// What to tell the person when the server refused without saying why (a
// proxy's error page, a crash): in words, with the status for a report.
export function unansweredMessage(status) {
  if (status === 502 || status === 503 || status === 504) {
    return `the server is not answering right now (${status}); try again in a moment`;
  }
  if (status === 413) return 'that is more than the server takes at once';
  if (status === 429) return 'too many requests just now; wait a moment and try again';
  return `the server could not do that (${status}); try again, and if it keeps failing, ` +
         'tell whoever runs this Ensemble';
}

// The ApiError for a response that is not ok: the server's own
// {error: {code, message}} when it sent one.
export async function errorOf(res) {
  const text = await res.text().catch(() => '');
  let error = null;
  try {
    error = JSON.parse(text).error ?? null;
  } catch {
    // Not JSON: a proxy's page, or nothing.
  }
  return new ApiError(res.status, error?.code ?? `HTTP_${res.status}`,
                      error?.message ?? unansweredMessage(res.status));
}

// Sends one request (a JSON body when `body` is given) and answers the
// Response when it is ok; throws ApiError otherwise. `signal` bounds it;
// `fetchImpl` replaces fetch (the sync loop's tests).
export async function send(method, path, body,
                           {signal, fetchImpl = (...args) => globalThis.fetch(...args)} = {}) {
  let res;
  try {
    res = await fetchImpl(path, {
      method,
      cache: 'no-store',
      headers: body === undefined ? {} : {'content-type': 'application/json'},
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch {
    throw new ApiError(0, kOffline, 'the server cannot be reached');
  }
  if (!res.ok) throw await errorOf(res);
  return res;
}

// send(), answering the parsed JSON body ({} when empty).
export async function api(method, path, body, options) {
  const res = await send(method, path, body, options);
  const text = await res.text();
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(res.status, 'MALFORMED_JSON', `the server's answer to ${path} was not JSON`);
  }
}
