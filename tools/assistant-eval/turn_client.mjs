// A client of the server's assistant routes: start a conversation, send a
// message and read the turn's SSE frames. Used by tools/assistant-eval and by
// the assistant benchmark.

// Reads a text/event-stream body into frames {event, data} (data parsed as
// JSON when it is), calling onFrame(frame, msSinceStart) for each.
export async function readFrames(response, onFrame = () => {}) {
  const started = performance.now();
  const frames = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const flush = (block) => {
    let event = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      if (field === 'data') data.push(value);
    }
    if (!data.length) return;
    const text = data.join('\n');
    let parsed = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Kept as text.
    }
    const frame = {event, data: parsed};
    frames.push(frame);
    onFrame(frame, performance.now() - started);
  };
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk, {stream: true}).replace(/\r\n/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      flush(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
    }
  }
  if (buffer.trim()) flush(buffer);
  return frames;
}

export class AssistantClient {
  constructor(baseUrl, {cookie = null} = {}) {
    this.baseUrl = baseUrl;
    this.cookie = cookie;
  }

  async request(method, route, body) {
    const headers = {'content-type': 'application/json'};
    if (this.cookie) headers.cookie = this.cookie;
    const res = await fetch(this.baseUrl + route, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res;
  }

  async json(method, route, body) {
    const res = await this.request(method, route, body);
    const text = await res.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = {text};
    }
    if (!res.ok) {
      const err = new Error(`${method} ${route}: HTTP ${res.status} ${data?.error?.code ?? ''} ` +
                            `${data?.error?.message ?? text}`);
      err.status = res.status;
      err.body = data;
      throw err;
    }
    return data;
  }

  // Saves the model provider for the account (the key is sent, never read back).
  async setModel({provider, baseUrl, model, apiKey}) {
    const body = {provider, baseUrl, model};
    if (apiKey) body.apiKey = apiKey;
    return this.json('PUT', '/api/settings/model', body);
  }

  async createConversation(spaceId, title = '') {
    return this.json('POST', '/api/assistant/conversations', {spaceId, title});
  }

  // Sends a message and reads the whole turn: {status, frames, text, done, error}.
  async turn(conversationId, text, {mentions = [], onFrame} = {}) {
    const res = await this.request('POST', `/api/assistant/conversations/${conversationId}/messages`,
                                   {text, mentions});
    if (!res.ok) {
      const body = await res.text();
      throw new Error(`turn: HTTP ${res.status} ${body}`);
    }
    const frames = await readFrames(res, onFrame);
    const textOut = frames.filter((f) => f.event === 'text')
                        .map((f) => (typeof f.data === 'string' ? f.data : f.data.text ?? ''))
                        .join('');
    return {
      status: res.status,
      frames,
      text: textOut,
      done: frames.find((f) => f.event === 'done')?.data ?? null,
      error: frames.find((f) => f.event === 'error')?.data ?? null,
    };
  }
}
