// A task's detail, opened under its row in the task list (the Details
// button): due, priority, labels, description, assignees, project, the
// tasks it depends on, its page, and the comment thread (comments.js).
//
// The detail is built once per opening and never rebuilt: a sync that lands
// while someone types patches only what shows other records (names, the
// blocked state, the page link, the comments). What the person edits is a
// draft; Save sends only the fields that differ from what the detail opened
// with, each with that value as its base, so a change made elsewhere to
// another field is kept and one to the same field is a conflict, not an
// overwrite.

import {rpc} from '../rpc.js';
import {maxChars, records, spaceTasks, state, subscribe} from '../state.js';
import {h, keepFocus, kPriorities, recordTitle, splitLabels, statusLabel} from '../util.js';
import {commentThread} from './comments.js';

// The details the editor edits, under their mutation names, with the
// defaults a task without them has.
export const detailsOf = (task) => ({
  due: task.due ?? null, priority: task.priority ?? 'none', labels: task.labels ?? [],
  description: task.description ?? '', people: task.people ?? [], project: task.project ?? null,
  depends_on: task.dependsOn ?? [],
});
export const pick = (object, keys) => Object.fromEntries(keys.map((k) => [k, object[k]]));

// How many offers a search box lists: enough to choose from, short enough
// to read; typing more narrows them. Our choice, not the core's.
const kMaxOffers = 8;

const opened = new Set();  // The open details, patched on every change.
subscribe((what) => {
  if (what !== 'data' && what !== 'space') return;
  for (const detail of opened) detail.update();
});

const taskById = (id) => spaceTasks().find((t) => t.id === id) ?? null;

// A list of chosen records, each with Remove, and a search box offering the
// others as one types (Enter takes the first). `chosen` is the draft array,
// changed in place; `candidates()` answers the records that may be chosen,
// `describe(id)` a chosen one's line.
function linkPicker({legend, testid, noun, chosen, candidates, describe, onchange}) {
  const list = h('ul', {class: 'link-chosen', dataset: {testid: `${testid}-chosen`}});
  const offers = h('ul', {class: 'link-offers', id: `${testid}-${Math.random().toString(36).slice(2)}`,
                          dataset: {testid: `${testid}-offers`}});
  const search = h('input', {type: 'search', autocomplete: 'off', 'aria-label': `Find ${noun} to add`,
                             placeholder: `Find ${noun}…`, 'aria-controls': offers.id,
                             dataset: {testid: `${testid}-search`}});
  let shown = '';  // What the lists show, so an unchanged update touches nothing.

  const add = (id) => {
    if (!chosen.includes(id)) chosen.push(id);
    search.value = '';
    onchange();
    update();
    search.focus();
  };
  const matches = () => {
    const wanted = search.value.trim().toLocaleLowerCase();
    if (!wanted) return [];
    return candidates().filter((r) => !chosen.includes(r.id) &&
                                      recordTitle(r).toLocaleLowerCase().includes(wanted))
      .slice(0, kMaxOffers);
  };
  function update() {
    const found = matches();
    const lines = chosen.map((id) => [id, describe(id)]);
    const key = JSON.stringify([lines, found.map((r) => [r.id, recordTitle(r)]), search.value]);
    if (key === shown) return;
    shown = key;
    keepFocus(() => {
      list.replaceChildren(...lines.map(([id, text]) => h('li', {dataset: {id}},
        h('span', {class: 'link-name'}, text),
        h('button', {type: 'button', class: 'link-remove', 'aria-label': `Remove ${text}`,
                     dataset: {testid: `${testid}-remove`}, onclick: () => {
                       chosen.splice(chosen.indexOf(id), 1);
                       onchange();
                       update();
                       search.focus();
                     }}, 'Remove'))));
      if (!lines.length) list.append(h('li', {class: 'link-none'}, `No ${noun} yet.`));
      offers.replaceChildren(...found.map((r) => h('li', {dataset: {id: r.id}},
        h('button', {type: 'button', dataset: {testid: `${testid}-offer`},
                     onclick: () => add(r.id)}, `Add ${recordTitle(r)}`))));
      if (search.value.trim() && !found.length) {
        offers.append(h('li', {class: 'link-none'}, `No ${noun} match “${search.value.trim()}”.`));
      }
    });
  }
  search.addEventListener('input', update);
  search.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();  // Not the detail's Save.
      const [first] = matches();
      if (first) add(first.id);
    } else if (e.key === 'Escape' && search.value) {
      e.stopPropagation();  // Clears the search; a second Escape closes.
      search.value = '';
      update();
    }
  });
  const element = h('fieldset', {class: 'field link-picker', dataset: {testid}},
                    h('legend', {}, legend), list, search, offers);
  update();
  return {element, update};
}

// The project select: the space's projects, or none. Its options follow the
// projects; the chosen value stays the draft.
function projectSelect(id, draft) {
  const select = h('select', {id, dataset: {testid: 'task-project-input'}});
  let shown = '';
  const update = () => {
    const projects = records('project');
    const key = JSON.stringify([projects.map((p) => [p.id, recordTitle(p)]), draft.project]);
    if (key === shown) return;
    shown = key;
    const options = [h('option', {value: ''}, 'No project'),
                     ...projects.map((p) => h('option', {value: p.id}, recordTitle(p)))];
    if (draft.project && !projects.some((p) => p.id === draft.project)) {
      options.push(h('option', {value: draft.project}, 'A project not in this space any more'));
    }
    select.replaceChildren(...options);
    select.value = draft.project ?? '';
  };
  select.addEventListener('change', () => {
    draft.project = select.value || null;
  });
  update();
  return {select, update};
}

// Opens the detail of `row`'s task (row.task stays its current copy) and
// answers its element. actions: save(task, fields, base) -> error or null,
// remove() moves the task to Trash, error(text) shows a message, close().
export function openDetail(row, {save, remove, error, close}) {
  const t = row.task;
  const base = detailsOf(t);
  const draft = structuredClone(base);
  const id = (name) => `task-${t.id}-${name}`;
  const priority = h('select', {id: id('priority'), dataset: {testid: 'task-priority-input'}},
                     kPriorities.map((p) => h('option', {value: p.value}, p.label)));
  priority.value = base.priority;
  const due = h('input', {id: id('due'), type: 'date', value: base.due ?? '',
                          dataset: {testid: 'task-due-input'}});
  const labels = h('input', {id: id('labels'), value: base.labels.join(', '),
                             placeholder: 'e.g. waiting-on, home', dataset: {testid: 'task-labels-input'}});
  const description = h('textarea', {id: id('description'), rows: 3,
                                     maxLength: maxChars('task', 'description'),
                                     dataset: {testid: 'task-description-input'}});
  description.value = base.description;
  const field = (input, label, cls = '') =>
    h('div', {class: `field ${cls}`}, h('label', {for: input.id}, label), input);

  const people = linkPicker({
    legend: 'Assignees', testid: 'task-people', noun: 'people', chosen: draft.people,
    candidates: () => records('person'),
    describe: (pid) => {
      const p = records('person').find((r) => r.id === pid);
      return p ? recordTitle(p) : 'Someone no longer in this space';
    },
    onchange: () => {},
  });
  const project = projectSelect(id('project'), draft);
  const blocked = h('p', {class: 'blocked-state', role: 'status', dataset: {testid: 'task-blocked'}});
  const neededBy = h('p', {class: 'needed-by', dataset: {testid: 'task-needed-by'}});
  const depends = linkPicker({
    legend: 'Depends on', testid: 'task-depends', noun: 'tasks', chosen: draft.depends_on,
    candidates: () => spaceTasks().filter((x) => x.id !== t.id),
    describe: (tid) => {
      const other = taskById(tid);
      return other ? `${other.title} (${statusLabel(other.status)})` : 'A task no longer here';
    },
    onchange: () => showBlocked(),
  });
  depends.element.append(blocked, neededBy);
  function showBlocked() {
    const waiting = draft.depends_on.map(taskById).filter((x) => x && x.status !== 'done');
    const text = !draft.depends_on.length ? ''
      : waiting.length ? `Blocked: waiting for ${waiting.map((x) => `“${x.title}”`).join(', ')}.`
        : 'Not blocked: everything it depends on is done.';
    if (blocked.textContent !== text) blocked.textContent = text;
    blocked.dataset.blocked = waiting.length ? 'yes' : 'no';
    const needing = spaceTasks().filter((x) => (x.dependsOn ?? []).includes(t.id));
    const need = needing.length ? `Needed by: ${needing.map((x) => x.title).join(', ')}.` : '';
    if (neededBy.textContent !== need) neededBy.textContent = need;
    neededBy.hidden = !need;
  }

  const pagePart = h('div', {class: 'field task-page', dataset: {testid: 'task-page'}});
  let pageShown = null;
  function showPage() {
    const current = taskById(t.id) ?? row.task;
    const page = current.page ? records('page').find((p) => p.id === current.page) : null;
    const key = JSON.stringify([current.page, page && recordTitle(page)]);
    if (key === pageShown) return;
    pageShown = key;
    keepFocus(() => {
      pagePart.replaceChildren(h('span', {class: 'field-label'}, 'Page'), current.page
        ? h('a', {href: `#/pages/${encodeURIComponent(current.page)}`, dataset: {testid: 'task-page-link'}},
            page ? `Open the page “${recordTitle(page)}”` : 'Open the task’s page')
        : h('button', {type: 'button', dataset: {testid: 'task-page-create'}, onclick: createPage},
            'Create a page'));
    });
  }
  async function createPage(event) {
    const button = event.currentTarget;
    button.disabled = true;
    const task = taskById(t.id) ?? row.task;
    let pageId = null;
    try {
      const args = {spaceId: state.space, title: task.title, body: ''};
      if (task.project) args.project = task.project;
      ({id: pageId} = await rpc('mutate', {name: 'page.create', args}));
    } catch (e) {
      error(`The page was not made: ${e.message}`);
      button.disabled = false;
      return;
    }
    const failed = await save(task, {page: pageId}, {page: task.page ?? null});
    if (failed) {
      // Nothing half-made: a page the task does not link goes again.
      await rpc('mutate', {name: 'page.delete', args: {id: pageId}}).catch(() => {});
      button.disabled = false;
    }
  }

  const comments = commentThread(t.id);
  const form = h('form', {class: 'task-editor task-detail-form'},
    field(due, 'Due'), field(priority, 'Priority'), field(labels, 'Labels (comma separated)'),
    field(description, 'Description'), people.element, field(project.select, 'Project', 'task-project'),
    pagePart, depends.element,
    h('div', {class: 'editor-actions'},
      h('button', {type: 'submit', class: 'primary', dataset: {testid: 'task-save'}}, 'Save'),
      h('button', {type: 'button', dataset: {testid: 'task-delete'}, onclick: remove}, 'Move to Trash')));
  const element = h('div', {class: 'task-detail', dataset: {testid: 'task-editor'}},
                    form, comments.element);

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    Object.assign(draft, {due: due.value || null, priority: priority.value,
                          labels: splitLabels(labels.value), description: description.value});
    const fields = {};
    const sentBase = {};
    for (const [k, v] of Object.entries(draft)) {
      if (JSON.stringify(base[k]) === JSON.stringify(v)) continue;
      fields[k] = structuredClone(v);
      sentBase[k] = base[k];
    }
    if (Object.keys(fields).length) {
      const failed = await save(row.task, fields, sentBase);
      if (failed?.code === 'SAVE_CONFLICT') {
        // The detail stays open with what was typed; saving again keeps it
        // over the other change, knowingly.
        Object.assign(base, pick(detailsOf(row.task), Object.keys(fields)));
        error(`${row.task.title} was changed elsewhere while you edited it: ` +
              'Save again to keep yours, or Escape to keep theirs.');
        return;
      }
      if (failed) return;
    }
    if (element.isConnected) close();
  });
  element.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && !e.defaultPrevented) close();
  });

  const detail = {
    update() {
      if (!taskById(t.id)) {
        opened.delete(detail);
        return;
      }
      people.update();
      project.update();
      depends.update();
      showBlocked();
      showPage();
      comments.update();
    },
  };
  element.detail = detail;
  opened.add(detail);
  detail.update();
  return element;
}

// Forgets a detail openDetail made (it no longer follows changes) and takes
// it out of the page.
export function closeDetail(element) {
  opened.delete(element.detail);
  element.remove();
}
