// Small helpers the views share: escaping, dates, element building.

export const escapeHtml = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const byTestId = (testId, root = document) => root.querySelector(`[data-testid="${testId}"]`);

// h('button', {type: 'button', class: 'x', dataset: {testid: 'y'}, onclick}, 'text', child...)
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') {
      node.className = value;
    } else if (key === 'dataset') {
      Object.assign(node.dataset, value);
    } else if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else if (key in node && typeof value !== 'string') {
      node[key] = value;
    } else {
      node.setAttribute(key, value === true ? '' : value);
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Gives a kept input (one made once and kept across renders) the core's
// limit once it is known; `max` is undefined until the module has said it.
export function setMaxLength(input, max) {
  if (max && input.maxLength !== max) input.maxLength = max;
}

// Replaces `node`'s children, leaving out null, undefined and false as h()
// does (the DOM's replaceChildren would print them as text).
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

// Runs `render` and gives the focus, and the caret, back to the element
// that had it, if that element is in the page again afterwards and nothing
// else took the focus. Views keep their inputs across renders, but moving a
// node into a freshly built section takes it out of the page, which blurs
// it: a pull landing while someone types would otherwise send their next
// key, Enter included, to the page instead of the input. An element the
// render built anew (a row's buttons are) is found again by what it is and
// whose: its data-testid and its row's data-id (see counterpartOf), so that
// a keyboard user who changes a task's status from its button stays on it.
export function keepFocus(render) {
  const focused = document.activeElement;
  const kept = focused && focused !== document.body ? focused : null;
  const caret = kept && typeof kept.selectionStart === 'number'
    ? [kept.selectionStart, kept.selectionEnd, kept.selectionDirection] : null;
  const key = kept ? focusKey(kept) : null;
  try {
    return render();
  } finally {
    // Only focus that was lost comes back: a render that moves it on purpose
    // (an editor opening) keeps its choice.
    // (A removed element may still be reported active until the next
    // frame's focus fixup, in Chromium.)
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected;
    const target = !lost || !kept ? null : kept.isConnected ? kept : counterpartOf(key);
    if (target) {
      target.focus({preventScroll: true});
      if (caret && target === kept) target.setSelectionRange(...caret);
    }
  }
}

// The data-id of the record row an element belongs to, or null.
const rowIdOf = (element) => element.closest('[data-id]')?.dataset.id ?? null;

// What a focused element is, in terms a re-render keeps: its data-testid and
// its row's id.
function focusKey(element) {
  const testid = element.dataset?.testid;
  return testid ? {testid, row: rowIdOf(element)} : null;
}

// The one element in the page with `key`'s testid in the row with its id,
// or null when there is none or more than one (then no guess is made).
function counterpartOf(key) {
  if (!key) return null;
  const found = [...document.querySelectorAll(`[data-testid="${CSS.escape(key.testid)}"]`)]
    .filter((element) => rowIdOf(element) === key.row);
  return found.length === 1 ? found[0] : null;
}

// `fn` for one caller at a time: a call made while one runs gets that one's
// promise instead of starting another (a view asked to read its data twice
// at once reads it once). `running()` is the promise under way, or null.
export function oneAtATime(fn) {
  let current = null;
  const call = (...args) => {
    current ??= (async () => {
      try {
        return await fn(...args);
      } finally {
        current = null;
      }
    })();
    return current;
  };
  call.running = () => current;
  return call;
}

// Runs `work` and answers `done` (or `done(result)` when it is a function),
// or why it failed (the error's message): the status line of a view's button.
export async function messageAfter(work, done) {
  try {
    const result = await work();
    return typeof done === 'function' ? done(result) : done;
  } catch (e) {
    return e.message;
  }
}

// The person's assistant settings as last read from the server
// ({writePolicy, allowedWriteAreas, effort, timeZone}), kept on this device
// so the assistant keeps to them offline.
const kAssistantSettingsKey = 'ensemble-assistant-settings';
export function rememberAssistantSettings(settings) {
  localStorage.setItem(kAssistantSettingsKey, JSON.stringify({
    ...settings.assistant, timeZone: settings.general?.timeZone,
  }));
}
export function savedAssistantSettings() {
  try {
    return JSON.parse(localStorage.getItem(kAssistantSettingsKey)) ?? {};
  } catch {
    return {};
  }
}

// Today's date in the person's time zone, YYYY-MM-DD.
export function today() {
  const d = new Date();
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

const dueFormat = new Intl.DateTimeFormat(undefined, {
  month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC',
});

export const formatDate = (iso) => dueFormat.format(new Date(`${iso}T00:00:00Z`));

export const kStatuses = [
  {value: 'todo', label: 'To do'},
  {value: 'doing', label: 'Doing'},
  {value: 'done', label: 'Done'},
];

export const kPriorities = [
  {value: 'none', label: 'No priority'},
  {value: 'low', label: 'Low'},
  {value: 'medium', label: 'Medium'},
  {value: 'high', label: 'High'},
  {value: 'urgent', label: 'Urgent'},
];

export const statusLabel = (status) => kStatuses.find((s) => s.value === status)?.label ?? status;
export const priorityLabel = (p) => kPriorities.find((x) => x.value === p)?.label ?? p;

export const isOverdue = (task) => Boolean(task.due) && task.status !== 'done' && task.due < today();

// The name a record goes by, whatever its kind.
export const recordTitle = (r) => r.title || r.name || r.note || r.text || r.value || '(untitled)';

// "a, b ,, c" -> ["a", "b", "c"]
export const splitLabels = (text) =>
  [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];
