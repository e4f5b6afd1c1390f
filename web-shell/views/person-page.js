// A person's page (#/people/<id>): their name, address, role, team and
// relationship (the record form, which keeps what is typed through any
// re-render), the open tasks they are on, a search over the space's tasks
// to put them on one more, and Delete (asked first, then Undo).
// A task names its people in its `people` list (core/tasks/task.h), so
// assigning and unassigning replace that list, based on the list as read.

import {rpc} from '../rpc.js';
import {maxChars, records, spaceTasks} from '../state.js';
import {showToast} from '../toast.js';
import {fill, h} from '../util.js';
import {confirmLine, recordForm} from './record-form.js';

const kRelationships = ['colleague', 'client', 'partner', 'vendor', 'other'];
const kFields = [
  {name: 'name', label: 'Name', type: 'text', required: true},
  {name: 'email', label: 'Email', type: 'email', nullable: true},
  {name: 'role', label: 'Role', type: 'text'},
  {name: 'team', label: 'Team', type: 'text'},
  {name: 'relationship', label: 'Relationship', type: 'select', nullable: true,
   options: [['', 'Not set'], ...kRelationships.map((r) => [r, r[0].toUpperCase() + r.slice(1)])]},
];
// Matches listed at once: our choice, enough to pick from.
const kMaxResults = 8;

// What is built once per opened person: the form, the search box and its
// results, so a sync landing mid-word leaves them as they are.
let opened = null;

export function closePersonPage() {
  opened = null;
}

export function personPageDirty() {
  return opened?.form.dirty() ?? false;
}

const peopleOf = (task) => (Array.isArray(task.people) ? task.people : []);
const openTasksOf = (person) =>
  spaceTasks().filter((t) => t.status !== 'done' && peopleOf(t).includes(person.id))
    .sort((a, b) => a.title.localeCompare(b.title));

async function setPeople(task, next, say, failure) {
  try {
    await rpc('updateTask', {id: task.id, fields: {people: next}, base: {people: peopleOf(task)}});
    return true;
  } catch (e) {
    say(`${failure}: ${e.message}`);
    return false;
  }
}

async function assign(person, task, say) {
  const before = peopleOf(task);
  if (!await setPeople(task, [...before, person.id], say, `“${task.title}” was not assigned`)) return;
  opened.search.value = '';
  showResults(person, say);
  say(`${person.name} is on “${task.title}”.`);
}

async function unassign(person, task, say) {
  const before = peopleOf(task);
  const after = before.filter((id) => id !== person.id);
  if (!await setPeople(task, after, say, `${person.name} is still on “${task.title}”`)) return;
  const text = `${person.name} is off “${task.title}”.`;
  say(text);
  showToast(text, () => rpc('updateTask', {id: task.id, fields: {people: before}, base: {people: after}}));
}

async function remove(person, say) {
  try {
    await rpc('mutate', {name: 'person.delete', args: {id: person.id}});
  } catch (e) {
    say(`“${person.name}” was not deleted: ${e.message}`);
    return;
  }
  showToast(`“${person.name}” moved to Trash.`,
            () => rpc('mutate', {name: 'person.restore', args: {id: person.id}}));
  location.hash = '#/people';
}

// The tasks whose title holds what is in the search box, open ones first,
// leaving out those the person is already on.
function showResults(person, say) {
  const query = opened.search.value.trim().toLowerCase();
  if (!query) {
    fill(opened.results);
    return;
  }
  const found = spaceTasks()
    .filter((t) => !peopleOf(t).includes(person.id) && t.title.toLowerCase().includes(query))
    .sort((a, b) => (a.status === 'done') - (b.status === 'done') || a.title.localeCompare(b.title));
  fill(opened.results,
    found.length
      ? found.slice(0, kMaxResults).map((t) => h('li', {dataset: {id: t.id}},
        h('button', {type: 'button', dataset: {testid: 'person-assign-result'},
                     'aria-label': `Assign “${t.title}” to ${person.name}`,
                     onclick: () => assign(person, t, say)},
          t.title),
        t.status === 'done' ? h('span', {class: 'note'}, 'done') : null))
      : h('li', {class: 'note', dataset: {testid: 'person-assign-none'}},
        `No task matches “${opened.search.value.trim()}”.`),
    found.length > kMaxResults
      ? h('li', {class: 'note'}, `${found.length - kMaxResults} more: type more of the title.`)
      : null);
}

function build(person, say) {
  const form = recordForm({kind: 'person', record: person, fields: kFields, say, testid: 'person-form-edit'});
  // A search longer than any task title matches nothing.
  const search = h('input', {type: 'search', id: `person-${person.id}-assign`,
                             maxLength: maxChars('task', 'title'),
                             autocomplete: 'off', placeholder: 'Search tasks by title',
                             dataset: {testid: 'person-assign-search'}});
  const results = h('ul', {class: 'plain-list', 'aria-live': 'polite',
                           dataset: {testid: 'person-assign-results'}});
  opened = {id: person.id, form, search, results, confirming: false};
  search.addEventListener('input', () => showResults(opened.person, say));
  search.addEventListener('keydown', (e) => {
    // Enter takes the first match, as a search box's first answer would be.
    if (e.key !== 'Enter') return;
    e.preventDefault();
    opened.results.querySelector('button')?.click();
  });
}

// The person's page; `redraw` runs the view's render again (to show the
// delete question).
export function personPage(person, say, redraw) {
  if (opened?.id !== person.id) {
    build(person, say);
  } else {
    opened.form.update(person);
  }
  opened.person = person;
  showResults(person, say);
  const tasks = openTasksOf(person);
  const deleteControl = opened.confirming
    ? confirmLine(`Delete “${person.name}”? They go to Trash, where you can restore them.`,
                  () => remove(person, say),
                  () => { opened.confirming = false; redraw(); }, 'person-delete')
    : h('button', {type: 'button', dataset: {testid: 'person-delete'},
                   onclick: () => { opened.confirming = true; redraw(); }}, 'Delete');
  return h('article', {class: 'person-page', dataset: {testid: 'person-page', id: person.id}},
    h('p', {}, h('a', {href: '#/people', dataset: {testid: 'people-back'}}, '← All people')),
    h('h3', {}, person.name, ' ', person.role ? h('span', {class: 'badge'}, person.role) : null),
    opened.form.root,
    h('div', {class: 'editor-actions'}, deleteControl),
    h('section', {class: 'project-part', dataset: {testid: 'person-tasks'}},
      h('h4', {}, `Open tasks (${tasks.length})`),
      tasks.length
        ? h('ul', {class: 'plain-list'}, tasks.map((t) =>
          h('li', {dataset: {testid: 'person-task', id: t.id}},
            h('a', {href: `#/tasks/${encodeURIComponent(t.id)}`}, t.title),
            h('button', {type: 'button', dataset: {testid: 'person-unassign'},
                         'aria-label': `Unassign ${person.name} from “${t.title}”`,
                         onclick: () => unassign(person, t, say)}, 'Unassign'))))
        : h('p', {class: 'note'}, `${person.name} is on no open task.`),
      h('div', {class: 'field person-assign'},
        h('label', {for: opened.search.id}, `Assign a task to ${person.name}`),
        opened.search, opened.results)),
    projectsLine(person));
}

// The projects they are on, as links, so the page answers "what is Ana on".
function projectsLine(person) {
  const projects = records('project').filter((p) => (p.people ?? []).includes(person.id));
  if (!projects.length) return null;
  return h('section', {class: 'project-part', dataset: {testid: 'person-projects'}},
    h('h4', {}, 'Projects'),
    h('ul', {class: 'plain-list'}, projects.map((p) =>
      h('li', {}, h('a', {href: `#/projects/${encodeURIComponent(p.id)}`}, p.title)))));
}
