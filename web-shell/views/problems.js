// "Needs your attention": sync errors and the changes the server refused.
// A conflict (SAVE_CONFLICT: the same field changed elsewhere; or
// RECORD_DELETED: the record went to Trash elsewhere) offers "Keep mine",
// which sends the change again based on the server's current values (and
// restores a deleted record first), and "Take theirs", which drops it.

import {rpc} from '../rpc.js';
import {findRecord, refresh, state} from '../state.js';
import {byTestId, h, statusLabel} from '../util.js';

const el = {problems: byTestId('problems'), list: byTestId('problem-list')};
const kConflictCodes = new Set(['SAVE_CONFLICT', 'RECORD_DELETED']);

export const isConflict = (r) => kConflictCodes.has(r.code) && /\.update$/.test(r.name ?? '');

const kKindWords = {task: 'a task', page: 'a page', board: 'a board', card: 'a card',
                    project: 'a project', person: 'a person'};

// What a refused mutation was, in words.
function describeChange(r) {
  const args = r.args ?? {};
  const [kind, verb] = (r.name ?? '').split('.');
  if (r.name === 'task.create') return args.title ? `Adding “${args.title}”` : 'Adding a task';
  if (verb === 'update') {
    const fields = args.fields ?? {};
    // The title the edit started from, else the one on screen now.
    const was = args.base?.title ?? findRecord(args.id)?.title;
    const what = was ? `“${was}”` : kKindWords[kind] ?? 'a record';
    const parts = [];
    if ('title' in fields) parts.push(`renaming ${what} to “${fields.title}”`);
    if ('status' in fields) parts.push(`marking ${what} as ${statusLabel(fields.status)}`);
    if ('due' in fields) {
      parts.push(fields.due ? `setting the due date of ${what} to ${fields.due}`
                            : `clearing the due date of ${what}`);
    }
    const rest = Object.keys(fields).filter((f) => !['title', 'status', 'due'].includes(f));
    if (rest.length) parts.push(`changing the ${rest.join(', ')} of ${what}`);
    if (parts.length) {
      const text = parts.join(' and ');
      return text[0].toUpperCase() + text.slice(1);
    }
    return `A change to ${kKindWords[kind] ?? 'a record'}`;
  }
  return `A change (${r.name})`;
}

const shown = (v) => v === null || v === '' ? 'empty'
                                            : `“${typeof v === 'string' ? v : JSON.stringify(v)}”`;

function describeRejection(r) {
  let text = `${describeChange(r)} was not saved: ${r.message || r.code}`;
  const current = r.details?.current;
  if (current && typeof current === 'object') {
    const named = Object.keys(r.args?.fields ?? {});
    // A deleted record's current values are all its fields: name the edited ones.
    const entries = Object.entries(current)
      .filter(([k]) => r.code !== 'RECORD_DELETED' || named.includes(k));
    const parts = entries.map(([k, v]) => `${k} is now ${shown(v)}`);
    if (parts.length) text += ` (on the server, ${parts.join(', ')})`;
  }
  return text;
}

async function dismiss(r) {
  await rpc('dismissRejection', {id: r.id});
  state.rejections = state.rejections.filter((x) => x.id !== r.id);
  render();
}

// The same change again, based on what the server has now: it wins.
async function keepMine(r) {
  const [kind] = r.name.split('.');
  const {id, fields = {}} = r.args ?? {};
  const current = r.details?.current ?? {};
  const base = {};
  state.syncNote = null;
  for (const key of Object.keys(fields)) {
    base[key] = key in current ? current[key] : r.args.base?.[key] ?? null;
  }
  try {
    if (r.code === 'RECORD_DELETED') await rpc('mutate', {name: `${kind}.restore`, args: {id}});
    await rpc('mutate', {name: `${kind}.update`, args: {id, fields, base}});
    await dismiss(r);
  } catch (e) {
    state.syncNote = `Could not keep your change: ${e.message}`;
    render();
  }
  refresh();
}

function item({text, code, key, rejection}) {
  const li = h('li', {class: 'problem', dataset: {testid: 'problem', code, key}},
               h('span', {class: 'problem-text'}, text));
  if (!rejection) return li;
  const actions = h('span', {class: 'problem-actions'});
  if (isConflict(rejection)) {
    actions.append(
      h('button', {type: 'button', class: 'primary', dataset: {testid: 'keep-mine'},
                   'aria-label': `Keep mine: ${text}`, onclick: () => keepMine(rejection)}, 'Keep mine'),
      // "Dismiss" in its name: taking theirs is dropping mine.
      h('button', {type: 'button', class: 'dismiss', dataset: {testid: 'take-theirs'},
                   'aria-label': `Take theirs (Dismiss my change): ${text}`,
                   onclick: () => dismiss(rejection)}, 'Take theirs'));
  } else {
    actions.append(h('button', {type: 'button', class: 'dismiss', dataset: {testid: 'dismiss'},
                                'aria-label': `Dismiss: ${text}`, onclick: () => dismiss(rejection)},
                     'Dismiss'));
  }
  li.append(actions);
  return li;
}

export function render() {
  const items = [];
  const error = state.sync?.error;
  if (error) {
    items.push({key: 'sync', code: error.code,
                text: `Could not sync: ${error.message}. Trying again every few seconds.`});
  }
  if (state.syncNote) items.push({key: 'note', code: 'NOTE', text: state.syncNote});
  for (const r of state.rejections) {
    items.push({key: String(r.id), code: r.code, text: describeRejection(r), rejection: r});
  }
  // Rebuilt only when something changed, so focus on a button survives syncs.
  const key = JSON.stringify(items.map(({key, text}) => [key, text]));
  if (el.list.dataset.key === key) return;
  el.list.dataset.key = key;
  el.list.replaceChildren(...items.map(item));
  el.problems.hidden = items.length === 0;
}
