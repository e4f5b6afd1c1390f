// How the dock shows a reply: its text (formatted by the core's
// formatEntityText, then a small Markdown subset where record links open
// the record), and its tool rows folded behind one line ("8 steps · 1 change
// · 1 failed"), open when one failed (spec 000 §6).

import {rpc} from '../rpc.js';
import {state} from '../state.js';
import {escapeHtml, h, recordTitle} from '../util.js';

// Refs for formatting `text`: the turn's own (mentions) and every local
// record whose id the text names, so ids read as titles and open; at most
// the core's maxRefs (core/refs/ref_set.h: it refuses a longer list); only
// the turn's own until the module has said its limits.
export function refsFor(text, turnRefs = []) {
  const maxRefs = state.limits?.maxRefs ?? turnRefs.length;
  const out = turnRefs.slice(0, maxRefs);
  const seen = new Set(out.map((r) => r.id));
  const add = (kind, r) => {
    if (out.length >= maxRefs || seen.has(r.id) || !text.includes(r.id)) return;
    seen.add(r.id);
    out.push({kind, id: r.id, label: recordTitle(r)});
  };
  for (const t of state.tasks) add('task', t);
  for (const [kind, list] of Object.entries(state.records)) for (const r of list) add(kind, r);
  return out;
}

// Markdown subset -> HTML: [text](ensemble://kind/id) record links,
// http(s) links, **bold**, `code`, "- " lists and paragraphs.
export function markdownHtml(markdown) {
  const inline = (line) => escapeHtml(line)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\[([^\]]+)\]\(ensemble:\/\/([a-z_]+)\/([^)\s]+)\)/g,
             (_, label, kind, id) => `<a class="record-link" href="#/${kind}/${id}" ` +
                                     `data-kind="${kind}" data-id="${id}" ` +
                                     `data-testid="record-link">${label}</a>`)
    .replace(/\[([^\]]+)\]\((https?:\/\/[^)\s]+)\)/g,
             '<a href="$2" target="_blank" rel="noopener noreferrer">$1</a>');
  const blocks = [];
  let list = null;
  let para = [];
  const flush = () => {
    if (para.length) blocks.push(`<p>${para.join('<br>')}</p>`);
    para = [];
    if (list) blocks.push(`<ul>${list.join('')}</ul>`);
    list = null;
  };
  for (const line of markdown.split('\n')) {
    const item = /^\s*[-*] (.*)$/.exec(line);
    if (item) {
      if (para.length) flush();
      (list ??= []).push(`<li>${inline(item[1])}</li>`);
    } else if (!line.trim()) {
      flush();
    } else {
      if (list) flush();
      para.push(inline(line));
    }
  }
  flush();
  return blocks.join('');
}

// The reply's text as HTML; streaming holds back a half-written link.
export async function formatReply(text, turnRefs, streaming) {
  try {
    const out = await rpc('formatEntityText', {text, refs: refsFor(text, turnRefs), streaming});
    return markdownHtml(out.text);
  } catch {
    return markdownHtml(text);  // Never lose the reply over formatting.
  }
}

const kReadVerbs = /^hub_(list|read|get|find|how_to|search|weekly_recap)/;
export const isRead = (name) => kReadVerbs.test(name);

const kIcons = [[/task/, '☑'], [/board|card/, '▦'], [/page|note/, '▤'], [/people|person/, '☺'],
                [/project|deliverable/, '◆'], [/setting/, '⚙']];
const iconFor = (name) => kIcons.find(([re]) => re.test(name))?.[1] ?? '•';

// ---- A tool row in words ("Found 3 tasks due this week"), never a tool name. ----
// Each family's action (to do / doing / done) and the thing its name acts on;
// the raw name stays in the row's tooltip.
const kFamilies = [
  [/^(list|find|search|get|read|how_to|weekly)/, ['look up', 'Looking up', 'Looked up']],
  [/^(create|add|draft|new)/, ['add', 'Adding', 'Added']],
  [/^(delete|trash|remove)/, ['move to Trash', 'Moving to Trash', 'Moved to Trash']],
  [/^(restore|untrash)/, ['restore', 'Restoring', 'Restored']],
  [/^(complete|finish)/, ['complete', 'Completing', 'Completed']],
  [/^(move|reorder)/, ['move', 'Moving', 'Moved']],
  [/^(update|set|edit|rename|change|assign|apply)/, ['update', 'Updating', 'Updated']],
  [/^(send|share|invite)/, ['send', 'Sending', 'Sent']],
];
const kNouns = {due: 'what is due', surface: 'the open view', recap: 'the week', to: 'how to'};

function family(name) {
  const rest = name.replace(/^(hub|apps)_/, '');
  const verb = kFamilies.find(([re]) => re.test(rest));
  const nounWords = rest.split('_').slice(verb ? 1 : 0)
    .filter((w) => !['weekly', 'how'].includes(w)).map((w) => kNouns[w] ?? w);
  return {verbs: verb?.[1] ?? ['do a step', 'Working on a step', 'Finished a step'],
          noun: nounWords.join(' ')};
}

// The records a call names, by title: its input's title(s), or ids known here.
function namedInInput(input) {
  if (!input || typeof input !== 'object') return [];
  const out = [];
  const known = (id) => [state.tasks, ...Object.values(state.records)].flat()
    .find((r) => r.id === id);
  const visit = (v, key) => {
    if (out.length >= 3) return;
    if (typeof v === 'string') {
      if (['title', 'name'].includes(key) && v.trim()) out.push(v.trim());
      else if (/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(v) && /^(id|ids|\w*Id)$/.test(key ?? '')) {
        const r = known(v);
        if (r) out.push(recordTitle(r));
      }
    } else if (Array.isArray(v)) {
      for (const x of v) visit(x, key);
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) visit(x, k);
    }
  };
  visit(input);
  return [...new Set(out)];
}

const quoted = (titles) => titles.map((t) => `\u201C${t}\u201D`).join(', ');

// The sentence a row shows for a call, as it stands.
export function toolSentence(call) {
  const r = call.receipt ?? {};
  const {verbs: [todo, doing, done], noun} = family(call.name);
  const named = namedInInput(call.input);
  const what = named.length && !/^(look up)/.test(todo) ? quoted(named) : noun;
  if (r.state === 'failed') return `Couldn't ${todo}${what ? ` ${what}` : ''}`;
  if (r.state === 'proposed') return r.summary || 'Waiting for Apply';
  if (r.summary) {
    // "Found 3 tasks due this week: “A”, “B”, “C”." reads as its head; the
    // titles are in the row's details.
    const head = /^(.*?): \u201C/.exec(r.summary);
    return head && (isRead(call.name) || r.summary.length > 60) ? head[1]
                                                                : r.summary.replace(/\.$/, '');
  }
  if (!r.state) return call.status ?? `${doing}${what ? ` ${what}` : ''}\u2026`;
  return `${done}${what ? ` ${what}` : ''}`;
}

// "8 steps · 1 change · 1 failed"
export function foldLine(calls) {
  const failed = calls.filter((c) => c.receipt?.state === 'failed').length;
  const changes = calls.filter((c) => !isRead(c.name) &&
                                      ['succeeded', 'applied'].includes(c.receipt?.state)).length;
  const parts = [calls.length === 1 ? '1 step' : `${calls.length} steps`];
  if (changes) parts.push(changes === 1 ? '1 change' : `${changes} changes`);
  if (failed) parts.push(`${failed} failed`);
  return parts.join(' · ');
}

// A call's input for its row: known ids as titles, other ids left out.
function inputLines(input) {
  if (!input || typeof input !== 'object') return [];
  const idLike = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
  const shown = (v) => {
    if (typeof v === 'string' && idLike.test(v)) {
      const known = [state.tasks, ...Object.values(state.records)].flat().find((r) => r.id === v);
      return known ? recordTitle(known) : null;
    }
    if (Array.isArray(v)) return v.map(shown).filter((x) => x !== null).join(', ');
    if (v && typeof v === 'object') {
      return Object.entries(v).map(([k, x]) => [k, shown(x)]).filter(([, x]) => x !== null && x !== '')
        .map(([k, x]) => `${k}: ${x}`).join('; ');
    }
    return v === null || v === undefined ? null : String(v);
  };
  return Object.entries(input).map(([k, v]) => [k, shown(v)]).filter(([, v]) => v !== null && v !== '');
}

function callRow(call) {
  const r = call.receipt ?? {};
  const failed = r.state === 'failed';
  const text = toolSentence(call);
  const mark = r.undone ? 'Undone' : ['succeeded', 'applied'].includes(r.state) && !isRead(call.name)
    ? 'Applied' : null;
  // A click opens the call: what it found or did in full, and its input.
  const full = r.summary && r.summary !== text ? r.summary : null;
  return h('li', {class: 'tool-row', dataset: {testid: 'tool-row', state: r.state ?? 'running',
                                              name: call.name}},
    h('details', {},
      h('summary', {title: call.name},
        h('span', {class: 'tool-icon', 'aria-hidden': 'true'}, iconFor(call.name)), ' ',
        h('span', {class: 'tool-text', dataset: {testid: 'tool-text'}}, text),
        mark ? h('span', {class: 'mark'}, ` ${mark}`) : null),
      full ? h('p', {class: 'tool-full'}, full) : null,
      h('dl', {class: 'tool-input'},
        inputLines(call.input).flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]))),
    failed ? h('span', {class: 'tool-error'}, r.error?.message ?? 'failed') : null);
}

// Past four calls, a run of three or more finished reads folds into one
// "N steps" row that opens in place.
const kFoldAfterCalls = 4;
const kFoldRunLength = 3;

function rows(calls) {
  if (calls.length <= kFoldAfterCalls) return calls.map(callRow);
  const out = [];
  for (let i = 0; i < calls.length;) {
    let j = i;
    while (j < calls.length && isRead(calls[j].name) && calls[j].receipt &&
           calls[j].receipt.state !== 'failed') {
      j++;
    }
    if (j - i >= kFoldRunLength) {
      out.push(h('li', {class: 'tool-row', dataset: {testid: 'tool-run'}},
        h('details', {}, h('summary', {}, `${j - i} steps`),
          h('ul', {class: 'tool-list'}, calls.slice(i, j).map(callRow)))));
      i = j;
    } else {
      out.push(callRow(calls[i]));
      i++;
    }
  }
  return out;
}

// The tool rows of one reply: live while it runs, folded when it is done.
export function toolRows(calls, {live, thinking}) {
  if (!calls.length) return live && thinking ? h('p', {class: 'thinking'}, thinking) : null;
  const anyFailed = calls.some((c) => c.receipt?.state === 'failed');
  const details = h('details', {class: 'tool-calls', dataset: {testid: 'tool-calls'},
                                open: live || anyFailed},
    h('summary', {dataset: {testid: 'tool-summary'}}, foldLine(calls)),
    h('ul', {class: 'tool-list'}, rows(calls)));
  return h('div', {}, details, live && thinking ? h('p', {class: 'thinking'}, thinking) : null);
}
