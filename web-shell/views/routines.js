// Routines: instructions the assistant runs on a schedule (spec 002 §2,
// core/routines/routine.h). The list says each one's schedule in words,
// whether it is paused and when it runs next; a new routine is made from
// the form above it. A routine's page (#/routines/<id>) edits its title,
// instruction and schedule (built once per opened routine, so a sync
// landing mid-word keeps what is typed), pauses or resumes it, deletes it
// (after a confirm, with Undo), and shows its replies: the messages of the
// chat its runs answer in (the conversation whose routineId is its id). Every change is a routine mutation, which syncs.

import {api} from '../api.js';
import {rpc} from '../rpc.js';
import {maxChars, records, state} from '../state.js';
import {showToast} from '../toast.js';
import {byTestId, fill, h, setMaxLength} from '../util.js';
import {confirmLine} from './record-form.js';

const body = byTestId('routines-body');

const kDays = [['mon', 'Monday'], ['tue', 'Tuesday'], ['wed', 'Wednesday'], ['thu', 'Thursday'],
               ['fri', 'Friday'], ['sat', 'Saturday'], ['sun', 'Sunday']];
const kFrequencies = [['daily', 'Every day'], ['weekdays', 'Weekdays'], ['weekly', 'Every week'],
                      ['monthly', 'Every month']];

let openId = null;
let message = '';
let editor = null;  // The open routine's editor: {id, root, update(routine)}.
let creator = null;  // The new-routine form, kept across renders.
let confirming = false;
let replies = {id: null, state: 'idle', messages: [], chat: null, error: ''};

const routineOf = (id) => records('routine').find((r) => r.id === id) ?? null;

function say(text) {
  message = text;
  const line = byTestId('routines-message');
  if (line) line.textContent = text;
}

async function mutate(name, args, failure) {
  try {
    return (await rpc('mutate', {name, args})) ?? {};
  } catch (e) {
    say(`${failure}: ${e.message}`);
    return null;
  }
}

function scheduleOf(routine) {
  const s = routine?.schedule;
  if (typeof s !== 'string') return s ?? {};
  try {
    return JSON.parse(s);
  } catch {
    return {};
  }
}

// "Weekdays at 08:30", "Every Monday at 09:00", "Monthly on day 1 at 07:00".
export function scheduleText(s) {
  const at = `at ${s.time ?? '??:??'}`;
  switch (s.frequency) {
    case 'daily': return `Every day ${at}`;
    case 'weekdays': return `Weekdays ${at}`;
    case 'weekly': return `Every ${kDays.find(([d]) => d === s.dayOfWeek)?.[1] ?? 'week'} ${at}`;
    case 'monthly': return `Monthly on day ${s.dayOfMonth} ${at}`;
    default: return 'No schedule';
  }
}

// The next time `s` falls due after `from`, in this device's time zone
// (the server uses the person's time zone setting, normally the same).
export function nextRun(s, from = new Date()) {
  const [hh, mm] = String(s.time ?? '').split(':').map(Number);
  if (!Number.isInteger(hh) || !Number.isInteger(mm)) return null;
  for (let i = 0; i < 62; i++) {
    const d = new Date(from.getFullYear(), from.getMonth(), from.getDate() + i, hh, mm);
    if (d <= from) continue;
    const weekday = (d.getDay() + 6) % 7;  // 0 = Monday.
    const lastDay = new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate();
    const fits = {
      daily: true,
      weekdays: weekday < 5,
      weekly: kDays[weekday][0] === s.dayOfWeek,
      monthly: d.getDate() === Math.min(Number(s.dayOfMonth), lastDay),
    }[s.frequency];
    if (fits) return d;
  }
  return null;
}

const whenText = (d) => d.toLocaleString(undefined, {weekday: 'short', day: 'numeric', month: 'short',
                                                     hour: '2-digit', minute: '2-digit'});

// Inputs for title, instruction and schedule, made once; `read()` answers
// {title, instruction, schedule} or an error in words.
function fieldsFor(prefix, routine) {
  const id = (name) => `${prefix}-${name}`;
  const input = (name, tag, props) => h(tag, {id: id(name), name, dataset: {testid: id(name)}, ...props});
  const f = {
    title: input('title', 'input', {required: true}),
    instruction: input('instruction', 'textarea', {rows: 3, required: true}),
    frequency: input('frequency', 'select', {}),
    time: input('time', 'input', {type: 'time', required: true}),
    dayOfWeek: input('day-of-week', 'select', {}),
    dayOfMonth: input('day-of-month', 'input', {type: 'number', min: 1, max: 31}),
  };
  f.frequency.append(...kFrequencies.map(([v, label]) => h('option', {value: v}, label)));
  f.dayOfWeek.append(...kDays.map(([v, label]) => h('option', {value: v}, label)));
  const field = (key, label) => h('div', {class: `field field-${key}`}, h('label', {for: f[key].id}, label),
                                  f[key]);
  const weekField = field('dayOfWeek', 'Day');
  const monthField = field('dayOfMonth', 'Day of the month');
  const showDays = () => {
    weekField.hidden = f.frequency.value !== 'weekly';
    monthField.hidden = f.frequency.value !== 'monthly';
  };
  f.frequency.addEventListener('change', showDays);

  const values = () => ({title: f.title.value, instruction: f.instruction.value,
                         schedule: JSON.stringify(scheduleFrom())});
  function scheduleFrom() {
    const s = {frequency: f.frequency.value, time: f.time.value};
    if (s.frequency === 'weekly') s.dayOfWeek = f.dayOfWeek.value;
    if (s.frequency === 'monthly') s.dayOfMonth = Number(f.dayOfMonth.value);
    return s;
  }
  function set(r) {
    const s = scheduleOf(r);
    f.title.value = r?.title ?? '';
    f.instruction.value = r?.instruction ?? '';
    f.frequency.value = s.frequency ?? 'daily';
    f.time.value = s.time ?? '08:00';
    f.dayOfWeek.value = s.dayOfWeek ?? 'mon';
    f.dayOfMonth.value = String(s.dayOfMonth ?? 1);
    showDays();
  }
  set(routine);
  let base = values();

  return {
    root: [field('title', 'Title'), field('instruction', 'What the assistant does'),
           h('div', {class: 'routine-schedule-fields'}, field('frequency', 'How often'), weekField,
             monthField, field('time', 'Time'))],
    read() {
      const title = f.title.value.trim();
      const instruction = f.instruction.value.trim();
      if (!title) return {error: 'A routine needs a title.'};
      if (!instruction) return {error: 'Say what the assistant should do.'};
      if (!/^\d\d:\d\d$/.test(f.time.value)) return {error: 'Choose a time of day.'};
      const schedule = scheduleFrom();
      if (schedule.frequency === 'monthly' &&
          !(Number.isInteger(schedule.dayOfMonth) && schedule.dayOfMonth >= 1 && schedule.dayOfMonth <= 31)) {
        return {error: 'The day of the month is a number from 1 to 31.'};
      }
      return {title, instruction, schedule};
    },
    // The core's limits, set on each render: the form may be made before
    // the module has said them.
    limit() {
      setMaxLength(f.title, maxChars('routine', 'title'));
      setMaxLength(f.instruction, maxChars('routine', 'instruction'));
    },
    // A change made elsewhere shows, unless the person changed that field.
    update(r) {
      const now = values();
      const typed = {title: f.title.value, instruction: f.instruction.value, dayOfMonth: f.dayOfMonth.value,
                     frequency: f.frequency.value, time: f.time.value, dayOfWeek: f.dayOfWeek.value};
      set(r);
      const theirs = values();
      for (const key of ['title', 'instruction']) {
        if (now[key] !== base[key]) f[key].value = typed[key];
      }
      if (now.schedule !== base.schedule) {
        for (const key of ['frequency', 'time', 'dayOfWeek', 'dayOfMonth']) f[key].value = typed[key];
        showDays();
      }
      base = theirs;
    },
    saved() {
      base = values();
    },
    reset() {
      set(null);
      base = values();
    },
  };
}

// ---- Changes. ----

async function create() {
  const v = creator.fields.read();
  if (v.error) {
    say(v.error);
    return;
  }
  const {id} = await rpc('newId');
  const made = await mutate('routine.create', {id, spaceId: state.space, ...v},
                            `“${v.title}” was not created`);
  if (!made) return;
  creator.fields.reset();
  say(`Created “${v.title}”: ${scheduleText(v.schedule).toLowerCase()}.`);
}

async function save(routine) {
  const v = editor.fields.read();
  if (v.error) {
    say(v.error);
    return;
  }
  const ok = await mutate('routine.update', {id: routine.id, fields: v}, 'Not saved');
  if (!ok) return;
  editor.fields.saved();
  say('Saved.');
}

async function setPaused(routine, paused) {
  const ok = await mutate('routine.update', {id: routine.id, fields: {paused: paused ? 1 : 0}},
                          `“${routine.title}” was not ${paused ? 'paused' : 'resumed'}`);
  if (!ok) return;
  const text = paused ? `Paused “${routine.title}”: it will not run until you resume it.`
                      : `Resumed “${routine.title}”.`;
  say(text);
  showToast(text, () => rpc('mutate', {name: 'routine.update', args: {
    id: routine.id, fields: {paused: paused ? 0 : 1}}}));
}

async function remove(routine) {
  confirming = false;
  const ok = await mutate('routine.delete', {id: routine.id}, `“${routine.title}” was not deleted`);
  if (!ok) return;
  showToast(`Deleted the routine “${routine.title}”.`,
            () => rpc('mutate', {name: 'routine.restore', args: {id: routine.id}}));
  location.hash = '#/routines';
}

// The chat a routine's runs answer in is named after the routine when it
// first runs (server/services/assistant_routines.cc).
async function loadReplies(routine) {
  replies = {id: routine.id, state: 'loading', messages: [], chat: null, error: ''};
  render();
  try {
    const {conversations = []} = await api(
      'GET', `/api/assistant/conversations?spaceId=${encodeURIComponent(routine.spaceId ?? state.space)}`);
    const chat = conversations.find((c) => c.routineId === routine.id) ?? null;
    let messages = [];
    if (chat) {
      ({messages = []} = await api(
        'GET', `/api/assistant/conversations/${encodeURIComponent(chat.id)}/messages`));
    }
    if (replies.id === routine.id) replies = {id: routine.id, state: 'done', messages, chat, error: ''};
  } catch (e) {
    if (replies.id === routine.id) {
      replies = {id: routine.id, state: 'failed', messages: [], chat: null,
                 error: `The replies could not be read: ${e.message}`};
    }
  }
  render();
}

// ---- Rendering. ----

export function open(id) {
  if (openId === id) return;
  openId = id;
  editor = null;
  confirming = false;
  replies = {id: null, state: 'idle', messages: [], chat: null, error: ''};
  say('');
  render();
}

function pauseButton(r) {
  const paused = Boolean(r.paused);
  // One test id for both, so the focus stays on it as it flips.
  return h('button', {type: 'button', dataset: {testid: 'routine-pause', paused: String(paused)},
                      'aria-label': `${paused ? 'Resume' : 'Pause'} ${r.title}`,
                      onclick: () => setPaused(r, !paused)}, paused ? 'Resume' : 'Pause');
}

function summary(r) {
  const s = scheduleOf(r);
  const next = r.paused ? null : nextRun(s);
  return [
    h('span', {class: 'routine-schedule', dataset: {testid: 'routine-schedule'}}, scheduleText(s)),
    r.paused ? h('span', {class: 'badge', dataset: {testid: 'routine-paused'}}, 'Paused')
             : h('span', {class: 'note', dataset: {testid: 'routine-next'}},
               next ? `next ${whenText(next)}` : ''),
  ];
}

// Our own messages say what is wrong, not the browser's (novalidate).
function formOf(fields, {testid, label, button: [buttonId, buttonText], submit}, heading = null) {
  return h('form', {class: 'routine-form', dataset: {testid}, autocomplete: 'off', 'aria-label': label,
                    novalidate: true, onsubmit: (e) => { e.preventDefault(); submit(); }},
    heading, fields.root,
    h('button', {type: 'submit', class: 'primary', dataset: {testid: buttonId}}, buttonText));
}

function listView() {
  if (!creator) {
    const fields = fieldsFor('new-routine', null);
    creator = {fields, root: formOf(fields, {testid: 'new-routine-form', label: 'New routine',
                                             button: ['new-routine', 'Create routine'], submit: create},
                                    h('h3', {}, 'New routine'))};
  }
  creator.fields.limit();
  const list = records('routine').slice().sort((a, b) => a.title.localeCompare(b.title));
  return [
    list.length
      ? h('ul', {class: 'routine-list', dataset: {testid: 'routine-list'}}, list.map((r) =>
        h('li', {class: 'routine-item', dataset: {testid: 'routine-item', id: r.id}},
          h('a', {href: `#/routines/${encodeURIComponent(r.id)}`}, r.title), summary(r), pauseButton(r))))
      : h('p', {class: 'empty', dataset: {testid: 'routines-empty'}},
        'No routines yet. A routine asks the assistant to do something on a schedule, like a ' +
        'morning summary of what is due.'),
    creator.root,
  ];
}

function repliesSection(r) {
  if (replies.id !== r.id) queueMicrotask(() => loadReplies(r));
  let content;
  if (replies.id !== r.id || replies.state === 'loading') {
    content = h('p', {}, 'Reading the replies…');
  } else if (replies.state === 'failed') {
    content = h('p', {role: 'alert'}, replies.error);
  } else if (!replies.messages.length) {
    content = h('p', {dataset: {testid: 'routine-replies-empty'}},
      r.paused ? 'No replies yet. It is paused: resume it to let it run.'
               : 'No replies yet: they show here after its first run.');
  } else {
    content = h('ol', {class: 'routine-replies', dataset: {testid: 'routine-replies'}},
      replies.messages.map((m) => h('li', {class: `routine-reply role-${m.role}`,
                                           dataset: {testid: 'routine-reply', role: m.role}},
        h('span', {class: 'note'}, `${m.role === 'user' ? 'Asked' : 'Replied'} ` +
                                   new Date(m.createdAt).toLocaleString()),
        h('p', {}, m.text || (m.status === 'error' ? 'The run failed.' : '')))));
  }
  return h('section', {class: 'routine-part', 'aria-labelledby': 'routine-replies-heading'},
    h('h3', {id: 'routine-replies-heading'}, 'Replies'),
    h('button', {type: 'button', dataset: {testid: 'routine-replies-refresh'},
                 onclick: () => loadReplies(r)}, 'Refresh'),
    content);
}

function detailView(r) {
  if (!editor || editor.id !== r.id) {
    const fields = fieldsFor('routine', r);
    editor = {id: r.id, fields, form: formOf(fields, {testid: 'routine-form', label: 'Edit routine',
                                                      button: ['routine-save', 'Save'],
                                                      submit: () => save(routineOf(r.id))})};
  } else {
    editor.fields.update(r);
  }
  editor.fields.limit();
  return [
    h('p', {}, h('a', {href: '#/routines', dataset: {testid: 'routines-back'}}, '← All routines')),
    h('h3', {dataset: {testid: 'routine-heading'}}, r.title),
    h('p', {class: 'routine-summary'}, summary(r)),
    editor.form,
    h('div', {class: 'routine-actions'}, pauseButton(r),
      confirming
        ? confirmLine(`Delete the routine “${r.title}”?`, () => remove(r),
                      () => { confirming = false; render(); }, 'routine-delete')
        : h('button', {type: 'button', class: 'danger', dataset: {testid: 'routine-delete'},
                       onclick: () => {
                         confirming = true;
                         render();
                         byTestId('routine-delete-cancel')?.focus();
                       }},
          'Delete')),
    repliesSection(r),
  ];
}

export function render() {
  if (byTestId('view-routines').hidden) return;
  const onList = !location.hash.startsWith('#/routines/');
  if (onList) openId = null;
  const routine = openId ? routineOf(openId) : null;
  let content;
  if (openId && !routine) {
    content = [h('p', {}, 'This routine is not here: it may have been deleted.'),
               h('a', {href: '#/routines'}, 'All routines')];
  } else {
    content = routine ? detailView(routine) : listView();
  }
  fill(body, content, h('p', {role: 'status', dataset: {testid: 'routines-message'}}, message));
}
