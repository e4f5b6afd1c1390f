// People: the space's people (add one by name and address), and the pairs
// that may be one person (same address, or same name) with Merge, or "Not the
// same", which marks the newer as distinct_from the older so the pair is not
// suggested again. Both are mutations run on the replica and queued like any
// edit, so they work offline; Merge asks once before it moves anything.
// A person opens on their own page (#/people/<id>, person-page.js).

import {rpc} from '../rpc.js';
import {maxChars, records, state} from '../state.js';
import {byTestId, fill, h, keepFocus, setMaxLength} from '../util.js';
import {closePersonPage, personPage, personPageDirty} from './person-page.js';

const body = byTestId('people-body');
const kReasons = {same_address: 'same address', same_name: 'same name'};
let suggestions = [];
// The pair waiting for "Merge" to be confirmed, by its two ids: suggestions
// are read again on every change (a pull included), so it must outlive them.
let confirming = null;
const pairKey = (s) => `${s.personId}>${s.intoId}`;
let message = '';
let reading = null;
let openId = null;

const nameOf = (id) => records('person').find((p) => p.id === id)?.name ?? 'someone';
const describe = (p) => (p?.email ? `${p.name} (${p.email})` : p?.name ?? 'someone');

// Suggestions are read from the replica after each change, so a merge made
// on another device drops its pair here too.
async function readSuggestions() {
  if (reading) return reading;
  reading = rpc('mergeSuggestions', {spaceId: state.space})
    .then((r) => {
      suggestions = r.suggestions;
    })
    .catch((e) => {
      suggestions = [];
      message = `Could not look for people who may be one: ${e.message}`;
    })
    .finally(() => {
      reading = null;
    });
  return reading;
}

async function merge(s) {
  const from = nameOf(s.personId);
  const into = nameOf(s.intoId);
  try {
    await rpc('mutate', {name: 'person.merge', args: {id: s.personId, into: s.intoId}});
    message = `Merged “${from}” into “${into}”.`;
  } catch (e) {
    message = `Could not merge “${from}” into “${into}”: ${e.message}`;
  }
  confirming = null;
  await readSuggestions();
  draw();
}

async function notSame(person, into) {
  const marks = Array.isArray(person.distinct_from) ? person.distinct_from : [];
  try {
    await rpc('mutate', {name: 'person.update',
                         args: {id: person.id, fields: {distinct_from: [...marks, into.id]},
                                base: {distinct_from: marks}}});
    message = `“${person.name}” and “${into.name}” will not be suggested again.`;
  } catch (e) {
    message = `Could not keep “${person.name}” apart from “${into.name}”: ${e.message}`;
  }
  await readSuggestions();
  draw();
}

async function add(form) {
  const name = form.elements.name.value.trim();
  const email = form.elements.email.value.trim();
  if (!name) {
    message = 'A person needs a name.';
    draw();
    return;
  }
  try {
    await rpc('mutate', {name: 'person.create',
                         args: {spaceId: state.space, name, ...(email ? {email} : {})}});
    message = `Added “${name}”.`;
    form.reset();
  } catch (e) {
    message = `Could not add “${name}”: ${e.message}`;
  }
  draw();
}

function suggestionItem(s) {
  const person = records('person').find((p) => p.id === s.personId);
  const into = records('person').find((p) => p.id === s.intoId);
  if (!person || !into) return null;
  const asking = confirming === pairKey(s);
  return h('li', {class: 'merge-item', dataset: {testid: 'merge-suggestion', person: s.personId, into: s.intoId}},
    h('span', {}, `${describe(person)} and ${describe(into)}`),
    h('span', {class: 'badge'}, kReasons[s.reason] ?? s.reason),
    asking
      ? h('span', {class: 'merge-confirm'},
        h('span', {role: 'alert'},
          `Merge into “${into.name}”? Their tasks, projects, comments, reminders and addresses move, and “${person.name}” goes to Trash.`),
        h('button', {type: 'button', dataset: {testid: 'merge-confirm'}, onclick: () => merge(s)}, 'Merge'),
        h('button', {type: 'button', dataset: {testid: 'merge-cancel'},
                     onclick: () => { confirming = null; draw(); }}, 'Cancel'))
      : [h('button', {type: 'button', dataset: {testid: 'merge-start'},
                      'aria-label': `Merge ${person.name} into ${into.name}`,
                      onclick: () => { confirming = pairKey(s); draw(); }}, `Merge into “${into.name}”`),
        h('button', {type: 'button', dataset: {testid: 'merge-not-same'},
                     'aria-label': `${person.name} and ${into.name} are two people`,
                     onclick: () => notSame(person, into)}, 'Not the same')]);
}

// The form is made once, so a re-render (a pull, a suggestion read) never
// drops what is being typed.
const messageLine = h('p', {class: 'note', role: 'status', dataset: {testid: 'people-message'}});
const form = h('form', {class: 'add-person', dataset: {testid: 'person-form'},
                        onsubmit: (e) => { e.preventDefault(); add(e.target); }},
  h('label', {}, 'Name ', h('input', {name: 'name', required: true,
                                      dataset: {testid: 'person-name'}})),
  h('label', {}, 'Email ', h('input', {name: 'email', type: 'email',
                                       dataset: {testid: 'person-email'}})),
  h('button', {type: 'submit'}, 'Add person'));
const listed = h('div');
const pageSlot = h('div');
body.replaceChildren(messageLine, form, listed, pageSlot);

function say(text) {
  message = text;
  messageLine.textContent = text;
}

export function open(id) {
  if (openId === id) return;
  openId = id;
  closePersonPage();
  say('');
  draw();
}

// The open person's page in place of the list; false when none is open
// or the person is not (yet) here: a reload routes before the records are
// read, and one deleted elsewhere may come back with Undo.
function drawPage() {
  if (!location.hash.startsWith('#/people/')) openId = null;
  const person = openId ? records('person').find((p) => p.id === openId) : null;
  if (!person) closePersonPage();
  form.hidden = Boolean(person);
  listed.hidden = Boolean(person);
  // Suggestions are read after the app's own render, so this render runs
  // outside the focus keeping that app.js gives: the page keeps it here.
  keepFocus(() => fill(pageSlot, person ? personPage(person, say, draw) : null));
  return Boolean(person);
}

function draw() {
  messageLine.textContent = message;
  if (drawPage()) return;
  const people = records('person').slice().sort((a, b) => a.name.localeCompare(b.name));
  const pairs = suggestions.map(suggestionItem).filter(Boolean);
  fill(listed,
    pairs.length
      ? h('section', {class: 'merge-suggestions', dataset: {testid: 'merge-suggestions'}},
        h('h3', {}, `May be the same person (${pairs.length})`),
        h('ul', {}, pairs))
      : null,
    people.length
      ? h('ul', {class: 'people-list', dataset: {testid: 'people-list'}}, people.map((p) =>
        h('li', {class: 'person-item', dataset: {testid: 'person-item', id: p.id}},
          h('a', {class: 'person-name', href: `#/people/${encodeURIComponent(p.id)}`,
                  dataset: {testid: 'person-open'}}, p.name),
          p.email ? h('span', {class: 'person-email'}, p.email) : null,
          p.role ? h('span', {class: 'badge'}, p.role) : null)))
      : h('p', {class: 'empty', dataset: {testid: 'people-empty'}}, 'No people in this space yet.'));
}

export function render() {
  // Made before the module said its limits: they come with the first render.
  setMaxLength(form.elements.namedItem('name'), maxChars('person', 'name'));
  setMaxLength(form.elements.namedItem('email'), maxChars('person', 'email'));
  draw();
  readSuggestions().then(draw);
}

window.addEventListener('beforeunload', (e) => {
  if (personPageDirty()) e.preventDefault();
});
