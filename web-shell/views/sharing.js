// Sharing: the open space's members and roles (spec 002 §2 "Spaces and
// sharing"), through the server's /api/spaces routes: an owner shares by
// email in a role, changes roles and removes members; anyone may leave; a new
// space can be made here. These are the person's own decisions, so the
// assistant never makes them. Sharing needs the network and accounts: local
// mode and offline say so instead.

import {loadSpaces, setSpace, state} from '../state.js';
import {byTestId, fill, h, messageAfter, oneAtATime, requestJson as api} from '../util.js';

const body = byTestId('sharing-body');
const kRoles = ['owner', 'editor', 'viewer', 'guest'];
const kRoleNotes = {
  owner: 'shares and manages the space',
  editor: 'changes everything in it',
  viewer: 'reads only',
  guest: 'adds and edits tasks, pages and comments',
};

let members = null;  // For membersOf; null until read.
let membersOf = null;
let message = '';

const readMembers = oneAtATime(async (space) => {
  try {
    members = (await api('GET', `/api/spaces/${encodeURIComponent(space)}/members`)).members;
    membersOf = space;
  } catch (e) {
    members = [];
    membersOf = space;
    message = `Could not read the members: ${e.message}`;
  }
});

async function loadMembers(space) {
  await readMembers(space);
  render();
}

// Runs `work`, then says `done` (or why it failed) and reads the members again.
async function act(work, done) {
  message = await messageAfter(work, done);
  await loadSpaces();
  // The list stays as it was until the new one is read, instead of blanking
  // (a read begun before the change may hold the old list: read again).
  await readMembers.running();
  await loadMembers(state.space);
}

const memberPath = (accountId) =>
  `/api/spaces/${encodeURIComponent(state.space)}/members/${encodeURIComponent(accountId)}`;

function roleSelect(value, label, onchange, testid) {
  return h('select', {'aria-label': label, dataset: {testid}, onchange},
           kRoles.map((r) => h('option', {value: r, selected: r === value}, r)));
}

function memberRow(m, me, owner) {
  const who = m.name ? `${m.name} (${m.email})` : m.email;
  const mine = m.accountId === me;
  return h('li', {class: 'member', dataset: {testid: 'member', email: m.email, role: m.role}},
    h('span', {class: 'member-name'}, mine ? `${who} \u2014 you` : who),
    owner && !mine
      ? roleSelect(m.role, `Role of ${who}`, (e) => act(
        () => api('PUT', `/api/spaces/${encodeURIComponent(state.space)}/members`,
                  {email: m.email, role: e.target.value}),
        `${who} is now ${e.target.value}.`), 'member-role')
      : h('span', {class: 'badge', dataset: {testid: 'member-role-text'}}, m.role),
    owner && !mine
      ? h('button', {type: 'button', dataset: {testid: 'member-remove'},
                     'aria-label': `Remove ${who}`,
                     onclick: () => act(() => api('DELETE', memberPath(m.accountId)),
                                        `${who} no longer has this space.`)}, 'Remove')
      : null);
}

function shareForm() {
  const email = h('input', {type: 'email', required: true, placeholder: 'name@example.com',
                            'aria-label': 'Email of the person to share with',
                            dataset: {testid: 'share-email'}});
  const role = roleSelect('editor', 'Their role', null, 'share-role');
  return h('form', {class: 'share-form', dataset: {testid: 'share-form'}, onsubmit: (e) => {
    e.preventDefault();
    const address = email.value.trim();
    if (!address) return;
    act(() => api('PUT', `/api/spaces/${encodeURIComponent(state.space)}/members`,
                  {email: address, role: role.value}),
        `Shared with ${address} as ${role.value}.`);
  }}, email, role, h('button', {type: 'submit', dataset: {testid: 'share-submit'}}, 'Share'));
}

function newSpaceForm() {
  const name = h('input', {type: 'text', required: true, maxlength: 100, placeholder: 'Name',
                           'aria-label': 'Name of the new space',
                           dataset: {testid: 'new-space-name'}});
  return h('form', {class: 'share-form', dataset: {testid: 'new-space-form'}, onsubmit: (e) => {
    e.preventDefault();
    const wanted = name.value.trim();
    if (!wanted) return;
    act(async () => {
      const made = await api('POST', '/api/spaces', {name: wanted});
      await loadSpaces();
      setSpace(made.space.id);
    }, `Made the space \u201C${wanted}\u201D.`);
  }}, name, h('button', {type: 'submit', dataset: {testid: 'new-space-submit'}}, 'New space'));
}

export function render() {
  const account = state.account;
  if (!account || account.mode === 'local') {
    fill(body, h('p', {class: 'empty', dataset: {testid: 'sharing-local'}},
                 'Sharing needs accounts: this server keeps one person\u2019s work (local mode). ' +
                 'Its operator can turn accounts on with ENSEMBLE_ACCOUNTS=on.'));
    return;
  }
  if (account.signedOut) {
    fill(body);
    return;
  }
  if (state.sync && state.sync.online === false) {
    fill(body, h('p', {class: 'empty'}, 'Sharing needs the server; you are offline.'));
    return;
  }
  if (membersOf !== state.space) {
    loadMembers(state.space);
    fill(body, h('p', {class: 'note'}, 'Reading the members\u2026'));
    return;
  }
  const space = state.spaces.find((s) => s.id === state.space);
  const owner = space?.role === 'owner';
  fill(body,
    h('p', {class: 'note', role: 'status', dataset: {testid: 'sharing-message'}}, message),
    h('p', {}, `${space?.name || 'This space'}: you are ${space?.role ?? 'a member'} ` +
               `(${kRoleNotes[space?.role] ?? ''}).`),
    h('ul', {class: 'member-list', dataset: {testid: 'member-list'}},
      (members ?? []).map((m) => memberRow(m, account.id, owner))),
    owner ? shareForm() : null,
    h('button', {type: 'button', dataset: {testid: 'leave-space'}, onclick: () => act(async () => {
      await api('DELETE', memberPath(account.id));
      await loadSpaces();
      if (state.spaces[0]) setSpace(state.spaces[0].id);
    }, 'You left the space.')}, 'Leave this space'),
    h('h3', {}, 'A new space'),
    newSpaceForm());
}
