// Settings: the person's own allowlisted settings (GET/PATCH /api/settings:
// the assistant's write mode, effort and write areas, the time zone), the model their
// assistant calls (GET/PUT/DELETE /api/settings/model) and the open space's
// connected apps (GET/POST/DELETE /api/connections). All are kept on the
// server, so this view needs the network. The API key and a calendar link are
// sent once and never shown again: the server says only that one is saved.

import {api} from '../api.js';
import {state} from '../state.js';
import {
  byTestId, fill, h, keepFocus, messageAfter, oneAtATime, rememberAssistantSettings, setMaxLength,
} from '../util.js';

const body = byTestId('settings-body');

const kWriteModes = [
  ['immediate', 'Immediate: changes run at once, with Undo'],
  ['preview', 'Preview: changes wait for Apply in the chat'],
  ['needs-me', 'Needs me: changes wait on the Needs me list'],
];
const kEffortNotes = {none: 'None (the model\u2019s own default)'};
// How the write areas (core/tools/write_areas.h) read; the server lists them.
const kAreaNames = {
  tasks: 'Tasks', boards: 'Boards', projects: 'Projects', pages: 'Pages and notes',
  people: 'People', meetings: 'Meetings', reminders: 'Reminders and watchers',
  routines: 'Routines', desk: 'Desk lists', skills: 'Skills', calendar: 'Calendar',
  files: 'Files', apps: 'Connected apps', web: 'The web', settings: 'Settings',
  workflows: 'Workflows', trash: 'Trash',
};

let settings = null;  // GET /api/settings, once read.
let model = null;     // GET /api/settings/model, once read.
let loadedFor = null;  // The account they were read for.
let message = '';

const accountKey = () => state.account?.id ?? 'local';

const read = oneAtATime(async () => {
  if (loadedFor !== accountKey()) keptInputs.clear();  // Nothing typed for another account.
  loadedFor = accountKey();
  try {
    [settings, model] = await Promise.all([api('GET', '/api/settings'),
                                           api('GET', '/api/settings/model')]);
    rememberAssistantSettings(settings);
  } catch (e) {
    message = `Could not read the settings: ${e.message}`;
    settings = settings ?? {};
    model = model ?? {};
  }
});

async function load() {
  await read();
  render();
}

// Runs `work`, says `done` (or the server's reason), and reads everything again.
async function act(work, done) {
  message = await messageAfter(work, done);
  await load();
}

const patch = (changes, done) => act(() => api('PATCH', '/api/settings', changes), done);

// Text inputs are made once and kept across renders (a pull or a poke
// re-renders this view): one the person has typed in keeps what they typed,
// one they have not follows what the server holds.
const keptInputs = new Map();  // testid -> {node, saved}

function keptInput(testid, saved, props) {
  const value = saved ?? '';
  let kept = keptInputs.get(testid);
  if (!kept) {
    kept = {node: h('input', {...props, value, dataset: {testid}}), saved: value};
    keptInputs.set(testid, kept);
  } else if (kept.node.value === kept.saved) {
    kept.node.value = value;
  }
  kept.saved = value;
  if (props.placeholder !== undefined) kept.node.placeholder = props.placeholder;
  return kept.node;
}

function labelled(text, control) {
  return h('label', {class: 'setting'}, h('span', {class: 'setting-name'}, text), control);
}

function assistantSection() {
  const saved = settings.assistant ?? {};
  const efforts = ['none', ...(model.efforts ?? [])];
  if (saved.effort && !efforts.includes(saved.effort)) efforts.push(saved.effort);
  const effortLabel = (e) => kEffortNotes[e] ??
    (model.efforts?.includes(e) ? e
      : model.configured ? `${e} (not offered by this model: its turns are refused)`
        : `${e} (unused without a model)`);
  return h('section', {class: 'settings-group'},
    h('h3', {}, 'Assistant'),
    labelled('Write mode', h('select', {
      dataset: {testid: 'setting-write-mode'},
      onchange: (e) => patch({assistant: {writePolicy: e.target.value}},
                             'The write mode is saved.'),
    }, kWriteModes.map(([value, text]) =>
      h('option', {value, selected: value === saved.writePolicy}, text)))),
    labelled('Effort', h('select', {
      dataset: {testid: 'setting-effort'},
      onchange: (e) => patch({assistant: {effort: e.target.value}}, 'The effort is saved.'),
    }, efforts.map((e) => h('option', {value: e, selected: e === saved.effort}, effortLabel(e))))),
    h('p', {class: 'note'}, model.configured
      ? (model.efforts?.length ? `${model.model} takes effort ${model.efforts.join(', ')}.`
                               : `${model.model} takes no effort option.`)
      : 'Without a model the built-in planner answers simple task requests; it takes no effort.'),
    writeAreasFieldset(saved));
}

// The areas the assistant may change; one turned off is not offered to the
// model at all (reads stay).
function writeAreasFieldset(saved) {
  const all = settings.choices?.writeAreas ?? saved.allowedWriteAreas ?? [];
  const allowed = new Set(saved.allowedWriteAreas ?? all);
  const fieldset = h('fieldset', {class: 'write-areas', dataset: {testid: 'setting-write-areas'}},
    h('legend', {}, 'What the assistant may change'),
    all.map((area) => h('label', {class: 'check'},
      h('input', {type: 'checkbox', value: area, checked: allowed.has(area),
                  dataset: {testid: `write-area-${area}`}}),
      kAreaNames[area] ?? area)));
  fieldset.addEventListener('change', (e) => {
    const area = e.target.value;
    // An area not offered (the assistant cannot write there yet) keeps its
    // saved state, so it is as the person left it once it can.
    const next = [...allowed].filter((a) => !all.includes(a))
      .concat([...fieldset.querySelectorAll('input:checked')].map((c) => c.value));
    const name = kAreaNames[area] ?? area;
    patch({assistant: {allowedWriteAreas: next}},
          e.target.checked ? `The assistant may change ${name} again.`
                           : `The assistant will not change ${name}.`);
  });
  return fieldset;
}

function modelSection() {
  const operator = model.source === 'operator';
  const field = (name, label, value, extra = {}) => labelled(label, keptInput(`model-${name}`, value, {
    name, required: name !== 'apiKey', autocomplete: 'off', ...extra,
  }));
  const form = h('form', {class: 'settings-form', dataset: {testid: 'model-form'}, onsubmit: (e) => {
    e.preventDefault();
    const data = new FormData(form);
    const next = {provider: data.get('provider').trim(), baseUrl: data.get('baseUrl').trim(),
                  model: data.get('model').trim()};
    const key = data.get('apiKey');
    if (key) next.apiKey = key;  // Empty: the saved key stays.
    act(async () => {
      await api('PUT', '/api/settings/model', next);
      // Sent once; on a refusal it stays to be corrected.
      keptInputs.get('model-apiKey').node.value = '';
    }, 'The model is saved.');
  }},
  field('provider', 'Provider (openai, azure, ollama, \u2026)', model.provider),
  field('baseUrl', 'Address', model.baseUrl, {type: 'url', placeholder: 'https://api.openai.com/v1'}),
  field('model', 'Model', model.model),
  field('apiKey', 'API key', '', {
    type: 'password',
    placeholder: model.hasKey && !operator ? 'A key is saved; leave empty to keep it'
                                           : 'None (a local model server)',
  }),
  h('button', {type: 'submit', dataset: {testid: 'model-save'}}, 'Save model'));
  return h('section', {class: 'settings-group'},
    h('h3', {}, 'Model'),
    h('p', {class: 'note', dataset: {testid: 'model-state'}},
      !model.configured ? 'No model is set up: the built-in planner answers.'
        : operator ? `This server\u2019s model: ${model.model} (${model.provider}), set by its ` +
                     'operator. Save your own to use it instead.'
          : `Your model: ${model.model} (${model.provider}), ` +
            (model.hasKey ? 'with a saved key.' : 'without a key.')),
    form,
    model.configured && !operator
      ? h('button', {type: 'button', dataset: {testid: 'model-remove'},
                     onclick: () => act(() => api('DELETE', '/api/settings/model'),
                                        'Your model is removed.')}, 'Remove my model')
      : null);
}

function generalSection() {
  const zone = keptInput('setting-time-zone', settings.general?.timeZone ?? 'UTC',
                         {required: true, 'aria-label': 'Time zone', placeholder: 'Europe/Paris'});
  return h('section', {class: 'settings-group'},
    h('h3', {}, 'General'),
    h('form', {class: 'settings-form', onsubmit: (e) => {
      e.preventDefault();
      patch({general: {timeZone: zone.value.trim()}}, 'The time zone is saved.');
    }}, labelled('Time zone (the assistant\u2019s \u201Ctoday\u201D)', zone),
    h('button', {type: 'submit', dataset: {testid: 'time-zone-save'}}, 'Save time zone')));
}

// ---- Connections: the open space's connected apps (spec "Settings → Connections").
// For now a calendar link: the link is a secret the server keeps encrypted and
// never sends back, so the page holds it only while it is typed.

const kConnectionStatuses = {connected: 'Connected', failing: 'Failing', new: 'New'};

let connections = null;     // GET /api/connections; null until read, or when it could not be.
let connectionsFor = null;  // The account and space they were read for.
let connectionsNote = '';   // What the last add or remove did.
let connectionsError = '';  // Why the last read, add or remove failed.
let adding = false;

const connectionsKey = () => `${accountKey()}\n${state.space}`;

// Why a request failed, readably: fetch itself throws a TypeError when the
// server cannot be reached.
const why = (e) => (e instanceof TypeError
  ? 'the server could not be reached; try again when you are online' : e.message);

const readConnections = oneAtATime(async () => {
  const key = connectionsKey();
  if (key !== connectionsFor) {
    connectionsNote = '';
    connectionsError = '';
  }
  try {
    connections = (await api('GET', `/api/connections?spaceId=${encodeURIComponent(state.space)}`))
      .connections ?? [];
  } catch (e) {
    connections = null;
    connectionsError = `Could not read the connections: ${why(e)}`;
  }
  connectionsFor = key;
});

async function loadConnections() {
  await readConnections();
  render();
}

// Runs `work`, says `done` (or `failed` and why), and reads the list again; the
// list stays as it was until the new one is read.
async function changeConnections(work, done, failed) {
  connectionsNote = '';
  connectionsError = '';
  try {
    await work();
    connectionsNote = done;
  } catch (e) {
    connectionsError = `${failed}: ${why(e)}`;
  }
  await readConnections.running();
  await loadConnections();
}

// The form is made once, so a re-render (a pull) never drops what is being typed.
const connectionName = h('input', {name: 'name', required: true, autocomplete: 'off',
                                   placeholder: 'Work calendar', dataset: {testid: 'connection-name'}});
const connectionUrl = h('input', {name: 'url', type: 'url', required: true, autocomplete: 'off',
                                  placeholder: 'https://\u2026/basic.ics',
                                  'aria-describedby': 'connection-url-note',
                                  dataset: {testid: 'connection-url'}});
const connectionForm = h('form', {
  class: 'settings-form connected-app-form', 'aria-labelledby': 'connection-form-heading',
  dataset: {testid: 'connection-form'}, onsubmit: (e) => {
    e.preventDefault();
    const name = connectionName.value.trim();
    if (adding || !name) return;
    adding = true;
    changeConnections(async () => {
      await api('POST', '/api/connections', {spaceId: state.space, app: 'calendar-link', name,
                                             url: connectionUrl.value.trim()});
      connectionForm.reset();  // The link leaves the page; on a refusal it stays to be corrected.
    }, `Added \u201C${name}\u201D.`, `Could not add \u201C${name}\u201D`).finally(() => {
      adding = false;
    });
  },
},
h('h4', {id: 'connection-form-heading'}, 'Add a calendar link'),
labelled('Name', connectionName),
labelled('Link', connectionUrl),
h('p', {class: 'note', id: 'connection-url-note'},
  'The link is kept encrypted on the server and never shown again.'),
h('button', {type: 'submit', dataset: {testid: 'connection-add'}}, 'Add'));

function connectionRow(c, owner) {
  return h('li', {class: 'connected-app', dataset: {testid: 'connection', id: c.id, status: c.status}},
    h('span', {class: 'connected-app-name'}, c.name,
      h('span', {class: 'connected-app-kind'}, c.appName || c.app)),
    h('span', {class: 'badge connected-app-status', dataset: {status: c.status}},
      kConnectionStatuses[c.status] ?? c.status),
    owner
      ? h('button', {type: 'button', 'aria-label': `Remove ${c.name}`,
                     dataset: {testid: 'connection-remove'},
                     onclick: () => changeConnections(
                       () => api('DELETE', `/api/connections/${encodeURIComponent(c.id)}`),
                       `Removed \u201C${c.name}\u201D.`, `Could not remove \u201C${c.name}\u201D`)
                       .then(() => byTestId('connections-heading')?.focus())}, 'Remove')
      : null,
    c.status === 'failing'
      ? h('p', {class: 'connected-app-problem', dataset: {testid: 'connection-problem'}},
        `${c.lastError || 'It could not be read.'} To reconnect, remove it and add the ` +
        'calendar\u2019s current link.')
      : null);
}

function connectionsList(owner) {
  if (connectionsFor !== connectionsKey()) {
    loadConnections();
    return h('p', {class: 'note'}, 'Reading the connections\u2026');
  }
  if (!connections) {
    return h('p', {}, h('button', {type: 'button', dataset: {testid: 'connections-retry'}, onclick: () => {
      connectionsFor = null;
      render();
    }}, 'Read the connections again'));
  }
  return connections.length
    ? h('ul', {class: 'connected-apps', dataset: {testid: 'connection-list'}},
        connections.map((c) => connectionRow(c, owner)))
    : h('p', {class: 'empty', dataset: {testid: 'connections-empty'}},
        'No apps are connected to this space yet.');
}

function connectionsSection() {
  const space = state.spaces.find((s) => s.id === state.space);
  // The server decides; a role not known yet shows the form.
  const owner = !space?.role || space.role === 'owner';
  const name = space?.name || (owner ? 'Personal' : state.space);
  return h('section', {class: 'settings-group', 'aria-labelledby': 'connections-heading',
                       dataset: {testid: 'connections'}},
    h('h3', {id: 'connections-heading', tabindex: '-1', dataset: {testid: 'connections-heading'}},
      'Connections'),
    h('p', {class: 'note'}, `Apps connected to the space open now, ${name}.`),
    h('p', {class: 'note', role: 'status', dataset: {testid: 'connections-message'}}, connectionsNote),
    connectionsError
      ? h('p', {class: 'form-error', role: 'alert', dataset: {testid: 'connections-error'}},
          connectionsError)
      : null,
    connectionsList(owner),
    owner ? connectionForm
          : h('p', {class: 'note'}, 'Only the space\u2019s owner adds or removes connected apps.'));
}

export function render() {
  // Made before the module said its limits: they come with a render.
  setMaxLength(connectionName, state.limits?.maxConnectionNameChars);
  if (state.account?.signedOut) {
    fill(body);
    return;
  }
  if (state.sync && state.sync.online === false) {
    fill(body, h('p', {class: 'empty'}, 'Settings are kept on the server; you are offline.'));
    return;
  }
  if (!settings || !model || loadedFor !== accountKey()) {
    load();
    fill(body, h('p', {class: 'note'}, 'Reading the settings\u2026'));
    return;
  }
  // A re-render keeps the focus in the connection form, which is made once.
  keepFocus(() => fill(body,
    h('p', {class: 'note', role: 'status', dataset: {testid: 'settings-message'}}, message),
    assistantSection(), modelSection(), generalSection(), connectionsSection()));
}
