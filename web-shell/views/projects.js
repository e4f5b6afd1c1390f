// Projects: the space's projects with their open and done task counts, and a
// project's page (#/projects/<id>): its title, status, dates and summary
// (the record form, which keeps what is typed through any re-render), its
// deliverables, its people with their roles, its notes pages and its tasks,
// with Complete and Delete (each with Undo).

import {rpc} from '../rpc.js';
import {maxChars, records, spaceTasks, state} from '../state.js';
import {showToast} from '../toast.js';
import {byTestId, fill, h, setMaxLength} from '../util.js';
import {confirmLine, recordForm} from './record-form.js';

const body = byTestId('projects-body');
const kStatusNames = {active: 'Active', done: 'Done', archived: 'Archived'};
const kFields = [
  {name: 'title', label: 'Title', type: 'text', required: true},
  {name: 'status', label: 'Status', type: 'select', options: Object.entries(kStatusNames)},
  {name: 'start', label: 'Starts', type: 'date'},
  {name: 'due', label: 'Due', type: 'date'},
  {name: 'description', label: 'Summary', type: 'textarea', rows: 5},
];

let openId = null;
let message = '';
let form = null;  // The open project's record form: {id, ...recordForm}.
let confirming = false;  // Delete asked, not yet confirmed.

// Inputs outside the record form (a new deliverable's title, a new task's)
// are made once per opened project too, so a sync landing mid-word keeps it.
// `max` is the core's limit, set again on each render: one made before the
// module said its limits gets it then.
const kept = new Map();
function keptInput(key, props, max) {
  if (!kept.has(key)) kept.set(key, h(props.tag ?? 'input', {...props, tag: undefined}));
  setMaxLength(kept.get(key), max);
  return kept.get(key);
}

const projectOf = (id) => records('project').find((p) => p.id === id) ?? null;
const tasksOf = (project) => spaceTasks().filter((t) => t.project === project.id);
const byTitle = (a, b) => (a.title ?? a.name ?? '').localeCompare(b.title ?? b.name ?? '');

function say(text) {
  message = text;
  const line = byTestId('projects-message');
  if (line) line.textContent = text;
}

async function mutate(name, args, failure) {
  try {
    return await rpc('mutate', {name, args});
  } catch (e) {
    say(`${failure}: ${e.message}`);
    return null;
  }
}

export function open(id) {
  if (openId === id) return;
  openId = id;
  form = null;
  kept.clear();
  confirming = false;
  say('');
  render();
}

async function create(input) {
  const title = input.value.trim();
  if (!title) {
    say('A project needs a title.');
    return;
  }
  const made = await mutate('project.create', {spaceId: state.space, title},
                            `“${title}” was not created`);
  if (!made) return;
  input.value = '';
  say(`Created “${title}”.`);
  location.hash = `#/projects/${encodeURIComponent(made.id)}`;
}

// A list field (people, deliverables) is replaced whole, based on the list
// it was read as, so two edits of one list never interleave.
function setList(project, field, next, done, failure) {
  return mutate('project.update', {id: project.id, fields: {[field]: next},
                                   base: {[field]: project[field] ?? []}}, failure)
    .then((ok) => ok && say(done));
}

async function setStatus(project, status) {
  const was = project.status ?? 'active';
  const ok = await mutate('project.update', {id: project.id, fields: {status}, base: {status: was}},
                          `“${project.title}” was not changed`);
  if (!ok) return;
  const text = status === 'done' ? `Completed “${project.title}”.` : `Reopened “${project.title}”.`;
  say(text);
  showToast(text, () => rpc('mutate', {name: 'project.update', args: {
    id: project.id, fields: {status: was}, base: {status}}}));
}

async function remove(project) {
  const ok = await mutate('project.delete', {id: project.id}, `“${project.title}” was not deleted`);
  if (!ok) return;
  showToast(`“${project.title}” moved to Trash.`,
            () => rpc('mutate', {name: 'project.restore', args: {id: project.id}}));
  location.hash = '#/projects';
}

function listView() {
  const projects = records('project').slice().sort((a, b) =>
    (a.status === 'active' ? 0 : 1) - (b.status === 'active' ? 0 : 1) || byTitle(a, b));
  const title = keptInput('new-project', {id: 'new-project-title', required: true,
                                         dataset: {testid: 'new-project-title'},
                                         placeholder: 'What is the project?'},
                          maxChars('project', 'title'));
  return [
    h('form', {class: 'add-form', dataset: {testid: 'new-project-form'}, autocomplete: 'off',
               onsubmit: (e) => { e.preventDefault(); create(title); }},
      h('div', {class: 'field field-title'}, h('label', {for: title.id}, 'New project'), title),
      h('button', {type: 'submit', class: 'primary', dataset: {testid: 'new-project'}}, 'Create')),
    projects.length
      ? h('ul', {class: 'project-list', dataset: {testid: 'project-list'}}, projects.map((p) => {
        const tasks = tasksOf(p);
        const done = tasks.filter((t) => t.status === 'done').length;
        return h('li', {class: 'project-item', dataset: {testid: 'project-item', id: p.id}},
          h('a', {href: `#/projects/${encodeURIComponent(p.id)}`}, p.title),
          h('span', {class: 'badge', dataset: {status: p.status}}, kStatusNames[p.status] ?? p.status),
          h('span', {class: 'note', dataset: {testid: 'project-counts'}},
            `${tasks.length - done} open · ${done} done`));
      }))
      : h('p', {class: 'empty', dataset: {testid: 'projects-empty'}}, 'No projects yet. Create one above.'),
  ];
}

function deliverablesSection(project) {
  const list = project.deliverables ?? [];
  const update = (next, done) => setList(project, 'deliverables', next, done,
                                         'The deliverables were not saved');
  const title = keptInput('deliverable', {id: 'new-deliverable',
                                          dataset: {testid: 'new-deliverable-title'}},
                          state.limits?.maxDeliverableTitleChars);
  const due = keptInput('deliverable-due', {id: 'new-deliverable-due', type: 'date',
                                            dataset: {testid: 'new-deliverable-due'}});
  const add = async (e) => {
    e.preventDefault();
    const text = title.value.trim();
    if (!text) return;
    const {id} = await rpc('newId');
    await update([...list, {id, title: text, due: due.value || null, done: false}], `Added “${text}”.`);
    title.value = '';
    due.value = '';
  };
  return h('section', {class: 'project-part', dataset: {testid: 'project-deliverables'}},
    h('h4', {}, 'Deliverables'),
    h('ul', {class: 'plain-list'}, list.map((d) => h('li', {dataset: {testid: 'deliverable', id: d.id}},
      h('label', {class: 'check'},
        h('input', {type: 'checkbox', checked: Boolean(d.done), dataset: {testid: 'deliverable-done'},
                    onchange: (e) => update(list.map((x) => (x.id === d.id ? {...x, done: e.target.checked} : x)),
                                            e.target.checked ? `“${d.title}” is done.` : `“${d.title}” is open again.`)}),
        d.title),
      d.due ? h('span', {class: 'note'}, `due ${d.due}`) : null,
      h('button', {type: 'button', 'aria-label': `Remove ${d.title}`, dataset: {testid: 'deliverable-remove'},
                   onclick: () => update(list.filter((x) => x.id !== d.id), `Removed “${d.title}”.`)},
        'Remove')))),
    h('form', {class: 'inline-form', onsubmit: add},
      h('label', {for: title.id}, 'Deliverable'), title,
      h('label', {for: due.id}, 'Due'), due,
      h('button', {type: 'submit', dataset: {testid: 'add-deliverable'}}, 'Add')));
}

function peopleSection(project) {
  const ids = project.people ?? [];
  const people = records('person');
  const update = (next, done) => setList(project, 'people', next, done, 'The people were not saved');
  // Kept like the inputs, its choice carried over when the options are
  // read again, so a sync does not undo a pick about to be added.
  const pick = keptInput('person-pick', {tag: 'select', id: 'project-add-person',
                                         dataset: {testid: 'project-add-person'}});
  const chosen = pick.value;
  fill(pick, h('option', {value: ''}, 'Choose a person…'),
    people.filter((p) => !ids.includes(p.id)).sort(byTitle)
      .map((p) => h('option', {value: p.id}, p.role ? `${p.name} (${p.role})` : p.name)));
  pick.value = chosen;
  if (pick.selectedIndex < 0) pick.value = '';
  return h('section', {class: 'project-part', dataset: {testid: 'project-people'}},
    h('h4', {}, 'People'),
    h('ul', {class: 'plain-list'}, ids.map((id) => {
      const p = people.find((x) => x.id === id);
      const name = p?.name ?? 'Someone not in this space';
      return h('li', {dataset: {testid: 'project-person', id}},
        h('a', {href: `#/people/${encodeURIComponent(id)}`}, name),
        p?.role ? h('span', {class: 'badge'}, p.role) : null,
        h('button', {type: 'button', 'aria-label': `Remove ${name} from the project`,
                     dataset: {testid: 'project-person-remove'},
                     onclick: () => update(ids.filter((x) => x !== id), `${name} is off the project.`)},
          'Remove'));
    })),
    h('form', {class: 'inline-form', onsubmit: (e) => {
      e.preventDefault();
      const p = people.find((x) => x.id === pick.value);
      if (!p) {
        say('Choose a person to add.');
        return;
      }
      pick.value = '';
      update([...ids, p.id], `${p.name} is on the project.`);
    }}, h('label', {for: pick.id}, 'Add a person'), pick,
    h('button', {type: 'submit', dataset: {testid: 'project-person-add'}}, 'Add')));
}

function notesSection(project) {
  const pages = records('page').filter((p) => p.project === project.id).sort(byTitle);
  const createNotes = async () => {
    const made = await mutate('page.create', {spaceId: state.space, title: `${project.title} notes`,
                                              body: '', project: project.id}, 'The notes page was not created');
    if (made) location.hash = `#/pages/${encodeURIComponent(made.id)}`;
  };
  return h('section', {class: 'project-part', dataset: {testid: 'project-notes'}},
    h('h4', {}, 'Notes'),
    pages.length
      ? h('ul', {class: 'plain-list'}, pages.map((p) =>
        h('li', {}, h('a', {href: `#/pages/${encodeURIComponent(p.id)}`, dataset: {testid: 'project-notes-page'}},
          p.title))))
      : null,
    h('button', {type: 'button', dataset: {testid: 'project-new-notes'}, onclick: createNotes},
      'New notes page'));
}

function tasksSection(project) {
  const tasks = tasksOf(project).sort(byTitle);
  const item = (t) => h('li', {dataset: {testid: 'project-task', id: t.id, status: t.status}},
    h('a', {href: `#/tasks/${encodeURIComponent(t.id)}`}, t.title));
  const open = tasks.filter((t) => t.status !== 'done');
  const done = tasks.filter((t) => t.status === 'done');
  const title = keptInput('task', {id: 'project-new-task', dataset: {testid: 'project-new-task'}},
                          maxChars('task', 'title'));
  const add = async (e) => {
    e.preventDefault();
    const text = title.value.trim();
    if (!text) return;
    try {
      await rpc('createTask', {title: text, spaceId: state.space, fields: {project: project.id}});
      title.value = '';
      say(`Added “${text}” to the project.`);
    } catch (err) {
      say(`“${text}” was not added: ${err.message}`);
    }
  };
  return h('section', {class: 'project-part', dataset: {testid: 'project-tasks'}},
    h('h4', {}, `Tasks (${open.length} open)`),
    open.length ? h('ul', {class: 'plain-list', dataset: {testid: 'project-open-tasks'}}, open.map(item))
                : h('p', {class: 'note'}, 'No open tasks.'),
    done.length
      ? h('details', {}, h('summary', {}, `Done (${done.length})`),
        h('ul', {class: 'plain-list', dataset: {testid: 'project-done-tasks'}}, done.map(item)))
      : null,
    h('form', {class: 'inline-form', onsubmit: add},
      h('label', {for: title.id}, 'Add a task to this project'), title,
      h('button', {type: 'submit', dataset: {testid: 'project-add-task'}}, 'Add')));
}

function pageView(project) {
  if (!form || form.id !== project.id) {
    form = {id: project.id, ...recordForm({kind: 'project', record: project, fields: kFields, say,
                                           testid: 'project-form'})};
  } else {
    form.update(project);
  }
  const done = project.status === 'done';
  const actions = h('div', {class: 'editor-actions'},
    h('button', {type: 'button', dataset: {testid: done ? 'project-reopen' : 'project-complete'},
                 onclick: () => setStatus(project, done ? 'active' : 'done')},
      done ? 'Reopen' : 'Complete'),
    confirming
      ? confirmLine(`Delete “${project.title}”? It goes to Trash with its links kept.`,
                    () => remove(project), () => { confirming = false; render(); }, 'project-delete')
      : h('button', {type: 'button', dataset: {testid: 'project-delete'},
                     onclick: () => { confirming = true; render(); }}, 'Delete'));
  return h('article', {class: 'project-page', dataset: {testid: 'project-page', id: project.id}},
    h('p', {}, h('a', {href: '#/projects', dataset: {testid: 'projects-back'}}, '← All projects')),
    h('h3', {}, project.title, ' ',
      h('span', {class: 'badge', dataset: {testid: 'project-status'}}, kStatusNames[project.status] ?? project.status)),
    form.root, actions,
    deliverablesSection(project), peopleSection(project), notesSection(project), tasksSection(project));
}

export function render() {
  if (!location.hash.startsWith('#/projects/')) openId = null;
  const shown = openId ? projectOf(openId) : null;
  // An id not (yet) in the replica: one just made is read a moment later;
  // one in Trash or of another space says so.
  const missing = openId && !shown
    ? h('p', {class: 'empty', dataset: {testid: 'project-missing'}},
      'This project is not in this space, or it is in Trash. ',
      h('a', {href: '#/projects'}, 'All projects'))
    : null;
  fill(body,
    h('p', {class: 'note', role: 'status', dataset: {testid: 'projects-message'}}, message),
    shown ? pageView(shown) : missing ?? listView());
}

window.addEventListener('beforeunload', (e) => {
  if (form?.dirty()) e.preventDefault();
});
